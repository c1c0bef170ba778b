"""The standings after the rounds played (issue 22): a pure function of the entries, the
tables, the byes and the judges' penalties. docs/tournaments.md gives the order and why."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.core.tournament.model import Bye, Entry, Penalty, Standing, Table


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


def standings(
    entries: Sequence[Entry],
    tables: Sequence[Table],
    byes: Sequence[Bye],
    penalties: Sequence[Penalty],
) -> list[Standing]:
    """Every entry's line, best first: by wins (byes included), Buchholz, head to head
    among those level on wins, difference (penalties taken off), points for, entry id.
    Only tables done count; each entry of a side gets the side's points; a bye is a win
    with no points; expelled entries keep their results but come last."""
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
    for bye in byes:
        if bye.entry in tally:
            tally[bye.entry].won += 1
            tally[bye.entry].byes += 1
    for penalty in penalties:
        if penalty.entry in tally:
            tally[penalty.entry].penalties += penalty.points
    won = {entry: line.won for entry, line in tally.items()}
    lines = [line_of(entry, tally, won) for entry in tally]
    expelled = {e.id for e in entries if e.status == "expelled"}
    return sorted(lines, key=lambda s: (s.entry in expelled, *order_key(s)))


def line_of(entry: int, tally: dict[int, Tally], won: dict[int, int]) -> Standing:
    """``entry``'s line; ``won`` holds every entry's wins (those level with it are the
    others with as many)."""
    line = tally[entry]
    buchholz = sum(won[o] for o in line.opponents if o in won)
    head_to_head = sum(
        1 for side in line.beaten if any(o != entry and won.get(o) == line.won for o in side)
    )
    return Standing(
        entry=entry,
        played=line.played,
        won=line.won,
        points_for=line.points_for,
        points_against=line.points_against,
        penalties=line.penalties,
        byes=line.byes,
        tiebreaks={"buchholz": float(buchholz), "head_to_head": float(head_to_head)},
    )


def order_key(line: Standing) -> tuple[float, ...]:
    """The documented order as an ascending sort key (everything but the id reversed)."""
    return (
        -line.won,
        -line.tiebreaks["buchholz"],
        -line.tiebreaks["head_to_head"],
        -line.difference,
        -line.points_for,
        line.entry,
    )


def ranking(lines: Sequence[Standing]) -> list[int]:
    """The entry ids in standings order: the ranking the next round is paired by (the
    caller keeps those still playing)."""
    return [line.entry for line in lines]
