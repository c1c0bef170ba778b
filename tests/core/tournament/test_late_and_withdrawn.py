"""Late entries and withdrawals by written rule (issue 31, 11; docs/tournaments.md, "Late
entries and withdrawals"): a late entry joins with nothing for the rounds it missed, until
half the rounds have started; a team withdrawing during the event loses its table still on
by forfeit, keeps its results, and is paired no more."""

from __future__ import annotations

from storage.store import Store
from tests.core.tournament.test_tournament_judges import refused, snapshot, started


async def test_a_late_entry_joins_with_nothing_until_half_the_rounds_have_started(
    store: Store,
) -> None:
    club = await started(store, teams=4, rounds="4", minutes="0")
    # round 1 of 4 has started: a late entry is in (the organiser's), with no bye
    assert refused(await club.say("Eva", "/tournament register Tardíos computer computer"))
    await club.say("Org", "/tournament register Tardíos computer computer", admin=True)
    event = await club.event()
    late = event.entry_named("Tardíos")
    assert late is not None and late.late and late.playing
    assert all(late.id not in t.sides[0] + t.sides[1] for t in event.round_tables())
    assert not [b for b in event.byes if b.entry == late.id]
    while (await club.event()).round < 2:
        await club.tick(60)
    event = await club.event()
    assert any(late.id in t.sides[0] + t.sides[1] for t in event.round_tables()) or any(
        b.entry == late.id and b.round == 2 for b in event.byes
    )
    # round 2 of 4 has started: half the rounds; no more late entries
    before = await snapshot(club)
    effects = await club.say("Org", "/tournament register Tardías computer computer", admin=True)
    assert refused(effects) and "half the rounds" in effects[0].text
    assert await snapshot(club) == before


async def test_a_round_robin_takes_no_late_entry_once_running(store: Store) -> None:
    club = await started(store, teams=4, rounds="3", format="round_robin")
    before = await snapshot(club)
    effects = await club.say("Org", "/tournament register Tarde computer computer", admin=True)
    assert refused(effects) and "round robin" in effects[0].text
    assert await snapshot(club) == before


async def test_a_team_withdrawing_during_a_round_loses_that_table_and_is_paired_no_more(
    store: Store,
) -> None:
    club = await started(store, teams=6, rounds="3", minutes="0")
    while (await club.event()).round < 2:
        await club.tick(60)
    event = await club.event()
    first_results = [t for t in event.tables if t.round == 1]
    leaving = event.entry(event.round_tables()[0].sides[0][0])
    [table] = [t for t in event.round_tables() if leaving.id in t.sides[0] + t.sides[1]]
    assert table.status != "done"
    # only the organiser may withdraw a team of computers; a stranger changes nothing
    before = await snapshot(club)
    assert refused(await club.say("Eva", f"/tournament leave {leaving.name}"))
    assert await snapshot(club) == before
    effects = await club.say("Org", f"/tournament leave {leaving.name}", admin=True)
    assert not refused(effects)
    event = await club.event()
    assert event.entry(leaving.id).status == "dropped"
    lost = event.table(2, table.number)
    points = event.settings.forfeit_points
    assert (lost.status, lost.ended_by, lost.winner) == ("done", "forfeit", 1)
    assert lost.score == (0, points)
    assert (await store.games.load(lost.game_id)).status == "cancelled"
    said = club.said()
    assert f"{leaving.name} has withdrawn" in said
    # what it played stands
    assert [t for t in event.tables if t.round == 1] == first_results
    # withdrawing again: refused, nothing changed
    before = await snapshot(club)
    assert refused(await club.say("Org", f"/tournament leave {leaving.name}", admin=True))
    assert await snapshot(club) == before
    while (await club.event()).round < 3:
        await club.tick(60)
    event = await club.event()
    assert all(leaving.id not in t.sides[0] + t.sides[1] for t in event.round_tables())
    assert all(b.entry != leaving.id for b in event.byes if b.round == 3)
