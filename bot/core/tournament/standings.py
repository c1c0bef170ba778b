"""The standings after the rounds played (issue 22): a pure function of the entries, the
tables, the byes, the judges' penalties and the tie-breaks the organiser chose (issue 31).
docs/tournaments.md gives the order, each tie-break, and why."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.core.tournament.model import DEFAULT_TIEBREAKS, Bye, Entry, Penalty, Standing, Table

# The tie-breaks an organiser may choose (``tiebreaks=`` at ``new`` or ``set``), in the
# order given; docs/tournaments.md defines each. Games won always come first, the entry id
# last (so the order is stable).
TIEBREAKS = (
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
    "head_to_head",
    "difference",
    "points_for",
    "top_wins",
)
# the typed forms accepted besides the names (docs/tournaments.md lists them)
TIEBREAK_ALIASES = {
    "b": "buchholz",
    "mb": "median_buchholz",
    "median": "median_buchholz",
    "sb": "sonneborn_berger",
    "h2h": "head_to_head",
    "diff": "difference",
    "pf": "points_for",
    "top": "top_wins",
}


@dataclass
class Tally:
    """One entry's figures while the tables are counted."""

    played: int = 0
    won: int = 0
    points_for: int = 0
    points_against: int = 0
    penalties: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)  # once per table met
    beaten: list[frozenset[int]] = field(default_factory=list)  # the side of each table won
    drawn: list[frozenset[int]] = field(default_factory=list)  # a table done with no winner


def standings(
    entries: Sequence[Entry],
    tables: Sequence[Table],
    byes: Sequence[Bye],
    penalties: Sequence[Penalty],
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
) -> list[Standing]:
    """Every entry's line, best first: by wins (byes included), then ``tiebreaks`` in
    their order (by default Buchholz, head to head among those level on wins, difference
    (penalties taken off), points for), then entry id. Every line holds every tie-break's
    figure, chosen or not. Only tables done count; each entry of a side gets the side's
    points; a bye is a win with no points; expelled entries keep their results but come
    last."""
    tally = {e.id: Tally() for e in entries}
    for table in tables:
        if table.status != "done":
            continue
        for side in (0, 1):
            mine, theirs = table.sides[side], table.sides[1 - side]
            for entry in mine:
                if entry not in tally:
                    continue
                line = tally[entry]
                line.played += 1
                line.points_for += table.score[side]
                line.points_against += table.score[1 - side]
                line.opponents.extend(theirs)
                if table.winner == side:
                    line.won += 1
                    line.beaten.append(frozenset(theirs))
                elif table.winner is None:
                    line.drawn.append(frozenset(theirs))
    for bye in byes:
        if bye.entry in tally:
            tally[bye.entry].won += 1
            tally[bye.entry].byes += 1
    for penalty in penalties:
        if penalty.entry in tally:
            tally[penalty.entry].penalties += penalty.points
    won = {entry: line.won for entry, line in tally.items()}
    top = top_half(won)
    lines = [line_of(entry, tally, won, top) for entry in tally]
    expelled = {e.id for e in entries if e.status == "expelled"}
    return sorted(lines, key=lambda s: (s.entry in expelled, *order_key(s, tiebreaks)))


def top_half(won: dict[int, int]) -> frozenset[int]:
    """The entries in the top half of the field by games won: those with at least as many
    wins as the entry in the middle (ties at the line all in). Wins alone decide it, so
    the tie-break does not depend on the tie-breaks."""
    if not won:
        return frozenset()
    ordered = sorted(won.values(), reverse=True)
    line = ordered[(len(ordered) - 1) // 2]
    return frozenset(entry for entry, count in won.items() if count >= line)


def line_of(
    entry: int, tally: dict[int, Tally], won: dict[int, int], top: frozenset[int] = frozenset()
) -> Standing:
    """``entry``'s line; ``won`` holds every entry's wins (those level with it are the
    others with as many), ``top`` the entries of the top half (:func:`top_half`)."""
    line = tally[entry]
    met = sorted(won[o] for o in line.opponents if o in won)
    buchholz = sum(met)
    median = sum(met[1:-1]) if len(met) >= 3 else buchholz
    sonneborn = sum(won.get(o, 0) for side in line.beaten for o in side) + sum(
        won.get(o, 0) / 2 for side in line.drawn for o in side
    )
    head_to_head = sum(
        1 for side in line.beaten if any(o != entry and won.get(o) == line.won for o in side)
    )
    top_wins = sum(1 for side in line.beaten if any(o in top for o in side))
    difference = line.points_for - line.points_against - line.penalties
    return Standing(
        entry=entry,
        played=line.played,
        won=line.won,
        points_for=line.points_for,
        points_against=line.points_against,
        penalties=line.penalties,
        byes=line.byes,
        tiebreaks={
            "buchholz": float(buchholz),
            "median_buchholz": float(median),
            "sonneborn_berger": float(sonneborn),
            "head_to_head": float(head_to_head),
            "difference": float(difference),
            "points_for": float(line.points_for),
            "top_wins": float(top_wins),
        },
    )


def order_key(line: Standing, tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS) -> tuple[float, ...]:
    """The order as an ascending sort key: games won, then each of ``tiebreaks`` (more is
    better for each), all reversed, then the entry id."""
    return (-line.won, *(-line.tiebreaks[name] for name in tiebreaks), line.entry)


def ranking(lines: Sequence[Standing]) -> list[int]:
    """The entry ids in standings order: the ranking the next round is paired by (the
    caller keeps those still playing)."""
    return [line.entry for line in lines]
