"""The standings say what their title says (issue 33, 5): asked during round 2, they are
"after round 1" and count round 1 alone, not the tables of round 2 already done."""

from __future__ import annotations

from bot.core.model import Picture
from storage.store import Store
from tests.core.tournament.test_tournament_flow import Club


async def test_standings_during_a_round_are_those_after_the_last_one_finished(
    store: Store,
) -> None:
    club = await Club.started(store, "rounds=2 grace=1 minutes=0", ("Bots A", "Bots B", "Bots C"))
    for _ in range(30):  # Primos never come: they forfeit each round after the grace minute
        await club.tick(30)
        event = await club.event()
        if event.round == 2:
            break
    for _ in range(60):  # one table of round 2 is over (Primos forfeit), the other plays
        event = await club.event()
        if any(t.status == "done" for t in event.round_tables(2)):
            break
        await club.tick(5)
    assert event.round == 2
    round_two = event.round_tables(2)
    assert any(t.status == "done" for t in round_two)
    assert not all(t.status == "done" for t in round_two)
    [picture] = [
        e for e in await club.say("Eva", "/tournament standings") if isinstance(e, Picture)
    ]
    assert "after round 1" in picture.title
    played = sum(int(row[2]) for row in picture.rows)  # tables played, summed over entries
    assert played == 2 * len(event.round_tables(1))  # round 1's, each counted by both sides
    points = sum(int(row[4]) for row in picture.rows)
    assert points == sum(sum(t.score) for t in event.round_tables(1))
