"""An event of a game of two players (docs/tournaments.md: "any game of two sides:
partners, or two players each for themselves"): block or draw, each player an entry of
their own, two players a table, played to the end."""

from __future__ import annotations

import pytest

from bot.core.model import Say
from bot.core.service import GameService
from storage.store import Store
from tests.core.driver import Clock, seeded
from tests.core.tournament.test_tournament_flow import Club


def refused(effects: list) -> bool:
    return any(isinstance(e, Say) and e.private is not None for e in effects)


@pytest.mark.parametrize("preset", ["block", "draw"])
async def test_an_event_of_players_on_their_own_plays_to_the_end(store: Store, preset: str) -> None:
    clock = Clock()
    club = Club(GameService(store, clock=clock, seeds=seeded(7)), clock, store)
    opened = await club.say(
        "Org", f"/tournament new Copa preset={preset} rounds=2 target=50 checkin=off", admin=True
    )
    assert not refused(opened), opened
    assert "Register: /tournament register <your name>" in club.said()
    await club.say("Ana", "/help")
    assert not refused(await club.say("Ana", "/tournament register Ana"))
    for n in range(1, 4):
        await club.say("Org", f"/tournament register Bot {n} computer", admin=True)
    event = await club.event()
    assert [len(e.members) for e in event.entries] == [1, 1, 1, 1]
    await club.say("Org", "/tournament close", admin=True)
    await club.say("Org", "/tournament start", admin=True)
    event = await club.event()
    games = [await store.games.load(t.game_id) for t in event.round_tables() if t.game_id]
    assert games and all(len(g.seats) == 2 and g.preset == preset for g in games)
    # Ana's turns time out (a computer moves for her): the event plays to its end
    for _ in range(600):
        await club.tick(60)
        if (await club.event()).row.status == "finished":
            break
    event = await club.event()
    assert event.row.status == "finished"
    assert all(t.status == "done" for t in event.tables)


async def test_the_game_stays_of_pairs_or_of_players_once_someone_registered(
    store: Store,
) -> None:
    clock = Clock()
    club = Club(GameService(store, clock=clock, seeds=seeded(7)), clock, store)
    await club.say("Org", "/tournament new Copa", admin=True)
    assert not refused(await club.say("Org", "/tournament set preset=block", admin=True))
    assert not refused(await club.say("Org", "/tournament set preset=partnership", admin=True))
    await club.say("Org", "/tournament register Bots computer computer", admin=True)
    before = (await club.event()).settings
    effects = await club.say("Org", "/tournament set preset=block", admin=True)
    assert refused(effects)
    assert "the game stays one for pairs" in effects[0].text
    assert (await club.event()).settings == before
