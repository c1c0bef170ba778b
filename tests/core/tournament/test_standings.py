"""Standings (issue 22): they add up, and they are ordered by the documented keys."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.tournament.model import Bye, Entry, Member, Penalty, Standing, Table
from bot.core.tournament.pairing import rotating, swiss
from bot.core.tournament.standings import TIEBREAKS, ranking, standings


def entry(i: int, status: str = "registered") -> Entry:
    return Entry(i, f"team {i}", (Member(f"p{i}"),), status=status)  # type: ignore[arg-type]


def done(rnd: int, a: tuple[int, ...], b: tuple[int, ...], score: tuple[int, int]) -> Table:
    winner = None if score[0] == score[1] else int(score[1] > score[0])
    return Table(rnd, 1, (a, b), status="done", score=score, winner=winner, ended_by="target")


Event = tuple[list[Entry], list[Table], list[Bye], list[Penalty]]


def simulate(count: int, rounds: int, seed: int, individual: bool) -> Event:
    """A random event: paired as the real thing is, random scores (ties, forfeits, a
    table left unfinished), byes, penalties and an expulsion."""
    rng = random.Random(seed)
    statuses = ["registered", "checked_in", "dropped", "expelled"]
    entries = [entry(i, rng.choice(statuses)) for i in range(1, count + 1)]
    tables: list[Table] = []
    byes: list[Bye] = []
    penalties: list[Penalty] = []
    met: set[frozenset[int]] = set()  # opponents (Swiss) or partners (rotating)
    ranked = [e.id for e in entries]
    for rnd in range(1, rounds + 1):
        rng.shuffle(ranked)
        if individual:
            fours, out = rotating(ranked, met, set(), {})
            sides: list[tuple[tuple[int, ...], tuple[int, ...]]] = list(fours)
            sitting = out
        else:
            pairs, bye = swiss(ranked, met, [b.entry for b in byes])
            sides = [((a,), (b,)) for a, b in pairs]
            sitting = [bye] if bye is not None else []
        for a, b in sides:
            met |= {frozenset(a), frozenset(b)} if individual else {frozenset((*a, *b))}
            score = (rng.randrange(0, 260), rng.randrange(0, 260))
            if rng.random() < 0.1:
                score = (200, 0)  # a forfeit: target-0, made by the caller
            status = "done" if rng.random() < 0.9 else rng.choice(["waiting", "playing"])
            table = done(rnd, a, b, score)
            tables.append(Table(rnd, 1, table.sides, status, score, table.winner))  # type: ignore[arg-type]
        byes += [Bye(rnd, e) for e in sitting]
        for _ in range(rng.randrange(0, 3)):
            penalties.append(Penalty(rnd, rng.choice(ranked), rng.choice([20, 20, 40, -20]), "x"))
    return entries, tables, byes, penalties


@st.composite
def events(draw: st.DrawFn) -> tuple[Event, bool]:
    individual = draw(st.booleans())
    count = draw(st.integers(4 if individual else 2, 24))
    rounds = draw(st.integers(1, 8))
    seed = draw(st.integers(0, 2**32))
    return simulate(count, rounds, seed, individual), individual


def expected_tiebreaks(event: Event, lines: list[Standing]) -> dict[int, dict[str, float]]:
    """Every tie-break spelled out from its definition in docs/tournaments.md."""
    entries, tables, _, penalties = event
    won = {s.entry: s.won for s in lines}
    middle = sorted(won.values(), reverse=True)[(len(won) - 1) // 2]
    top = {e for e, w in won.items() if w >= middle}  # the top half by games won
    found: dict[int, dict[str, float]] = {}
    for e in entries:
        met: list[int] = []  # each opponent's wins, once per table met
        head = sb = top_wins = points_for = against = 0.0
        for t in tables:
            if t.status != "done":
                continue
            for side in (0, 1):
                if e.id in t.sides[side]:
                    opponents = t.sides[1 - side]
                    met += [won[o] for o in opponents]
                    points_for += t.score[side]
                    against += t.score[1 - side]
                    tied = [o for o in opponents if won[o] == won[e.id]]
                    head += int(t.winner == side and bool(tied))
                    if t.winner == side:
                        sb += sum(won[o] for o in opponents)
                        top_wins += any(o in top for o in opponents)
                    elif t.winner is None:
                        sb += sum(won[o] for o in opponents) / 2
        taken = sum(p.points for p in penalties if p.entry == e.id)
        cut = sorted(met)[1:-1] if len(met) >= 3 else met
        found[e.id] = {
            "buchholz": sum(met),
            "median_buchholz": sum(cut),
            "sonneborn_berger": sb,
            "head_to_head": head,
            "difference": points_for - against - taken,
            "points_for": points_for,
            "top_wins": top_wins,
        }
    return found


@settings(max_examples=120, deadline=None)
@given(events())
def test_standings_add_up(case: tuple[Event, bool]) -> None:
    event, individual = case
    entries, tables, byes, penalties = event
    lines = standings(*event)
    assert sorted(s.entry for s in lines) == sorted(e.id for e in entries)
    counted = [t for t in tables if t.status == "done"]
    assert sum(s.points_for for s in lines) == sum(s.points_against for s in lines)
    per_side = 2 if individual else 1
    decided = sum(1 for t in counted if t.winner is not None)
    assert sum(s.won for s in lines) == decided * per_side + len(byes)
    assert sum(s.played for s in lines) == len(counted) * 2 * per_side
    assert sum(s.byes for s in lines) == len(byes)
    taken = Counter[int]()
    for p in penalties:
        taken[p.entry] += p.points
    for s in lines:
        assert s.penalties == taken[s.entry]
        assert s.difference == s.points_for - s.points_against - s.penalties


@settings(max_examples=120, deadline=None)
@given(events())
def test_standings_follow_the_documented_order(case: tuple[Event, bool]) -> None:
    event, _ = case
    lines = standings(*event)
    expelled = {e.id for e in event[0] if e.status == "expelled"}
    assert expected_tiebreaks(event, lines) == {s.entry: s.tiebreaks for s in lines}

    def key(s: Standing) -> tuple[float, ...]:
        t = s.tiebreaks
        return (s.entry in expelled, -s.won, -t["buchholz"], -t["head_to_head"],
                -s.difference, -s.points_for, s.entry)  # fmt: skip

    assert [key(s) for s in lines] == sorted(key(s) for s in lines)
    assert ranking(lines) == [s.entry for s in lines]


@settings(max_examples=120, deadline=None)
@given(events(), st.permutations(TIEBREAKS), st.integers(0, len(TIEBREAKS)))
def test_standings_follow_the_organisers_tiebreaks(
    case: tuple[Event, bool], order: list[str], count: int
) -> None:
    """Any choice of tie-breaks, in any order (issue 31, 10): games won first, then each
    chosen one, more being better, then the entry id; the figures do not depend on the
    choice."""
    event, _ = case
    chosen = tuple(order[:count])
    lines = standings(*event, chosen)
    assert expected_tiebreaks(event, lines) == {s.entry: s.tiebreaks for s in lines}
    expelled = {e.id for e in event[0] if e.status == "expelled"}

    def key(s: Standing) -> tuple[float, ...]:
        return (s.entry in expelled, -s.won, *(-s.tiebreaks[t] for t in chosen), s.entry)

    assert [key(s) for s in lines] == sorted(key(s) for s in lines)
    assert {s.entry: s for s in lines} == {s.entry: s for s in standings(*event)}


def test_a_bye_is_a_win_with_no_points() -> None:
    [line] = standings([entry(1)], [], [Bye(1, 1)], [])
    assert (line.won, line.byes, line.played, line.points_for, line.points_against) == (
        1, 1, 0, 0, 0
    )  # fmt: skip
    assert line.tiebreaks["buchholz"] == 0


def test_penalties_are_their_own_column() -> None:
    tables = [done(1, (1,), (2,), (200, 150))]
    lines = standings([entry(1), entry(2)], tables, [], [Penalty(1, 1, 20, "slow")])
    one = next(s for s in lines if s.entry == 1)
    assert (one.points_for, one.points_against, one.penalties, one.difference) == (
        200, 150, 20, 30
    )  # fmt: skip


def test_only_finished_tables_count() -> None:
    playing = Table(1, 1, ((1,), (2,)), status="playing", score=(150, 20), winner=None)
    lines = standings([entry(1), entry(2)], [playing], [], [])
    assert all((s.played, s.won, s.points_for) == (0, 0, 0) for s in lines)


def test_individual_partners_share_the_side() -> None:
    tables = [done(1, (1, 4), (2, 3), (200, 90))]
    lines = {s.entry: s for s in standings([entry(i) for i in (1, 2, 3, 4)], tables, [], [])}
    assert [lines[i].points_for for i in (1, 2, 3, 4)] == [200, 90, 90, 200]
    assert [lines[i].won for i in (1, 2, 3, 4)] == [1, 0, 0, 1]


def test_buchholz_then_head_to_head_break_ties() -> None:
    # Round 1: 1 beats 2, 3 beats 4. Round 2: 4 beats 1, 2 beats 3 (all on one win).
    # Buchholz is 2 for all (each met two one-win entries) ...
    tables = [
        done(1, (1,), (2,), (200, 100)),
        done(1, (3,), (4,), (200, 100)),
        done(2, (4,), (1,), (200, 190)),
        done(2, (2,), (3,), (200, 10)),
    ]
    lines = standings([entry(i) for i in (1, 2, 3, 4)], tables, [], [])
    assert all(s.won == 1 and s.tiebreaks["buchholz"] == 2 for s in lines)
    # ... and head to head 1 for all, so the difference decides (1 and 2 at +90, 3 and 4
    # at -90), then points for (1: 390 over 2: 300; 4: 300 over 3: 210).
    assert all(s.tiebreaks["head_to_head"] == 1 for s in lines)
    assert ranking(lines) == [1, 2, 4, 3]


def test_head_to_head_counts_wins_over_the_tied_only() -> None:
    # 1 and 2 both win twice; 1 beat 2 directly, 2 beat 3 and 4 (who are not level).
    tables = [
        done(1, (1,), (2,), (200, 199)),
        done(1, (3,), (4,), (200, 100)),
        done(2, (1,), (3,), (200, 0)),
        done(2, (2,), (4,), (200, 0)),
        done(3, (2,), (3,), (200, 0)),
        done(3, (4,), (1,), (200, 0)),
    ]
    lines = {s.entry: s for s in standings([entry(i) for i in (1, 2, 3, 4)], tables, [], [])}
    assert (lines[1].won, lines[2].won) == (2, 2)
    assert lines[1].tiebreaks["head_to_head"] == 1
    assert lines[2].tiebreaks["head_to_head"] == 0


def test_expelled_keep_their_results_and_come_last() -> None:
    tables = [done(1, (1,), (2,), (200, 0))]
    lines = standings([entry(1, "expelled"), entry(2)], tables, [], [])
    assert ranking(lines) == [2, 1]
    assert lines[1].won == 1 and lines[1].points_for == 200
