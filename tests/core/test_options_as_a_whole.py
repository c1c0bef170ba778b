"""Options checked as a whole (issue 33, 6): `/new partnership 100 hand_size=8` (four
hands of 8 from a set of 28) is refused at `new` with what fits, and so is a `/rule`
change that leaves no table to deal; a table too big for its hand size is refused at
`/begin` in words; nothing crashes, nothing changes."""

from __future__ import annotations

import pytest

from bot.core.model import Say
from engine.errors import RulesError
from engine.rules import Rules
from storage.store import Store
from tests.core.driver import Room


def refused(effects: list) -> str:
    assert effects and all(isinstance(e, Say) and e.private for e in effects), effects
    return effects[0].text


def test_the_engine_refuses_rules_no_table_can_be_dealt() -> None:
    with pytest.raises(RulesError, match="28 tiles"):
        Rules.from_preset("partnership", hand_size=8)
    Rules.from_preset("partnership", hand_size=7)  # four hands of 7: the whole set
    Rules.from_preset("draw", hand_size=10)  # two hands of 10 fit; three or four do not


async def test_new_refuses_a_hand_size_no_table_fits_and_says_what_does(store: Store) -> None:
    room = await Room.open(store)
    text = refused(await room.say("Ana", "/new partnership 100 hand_size=8"))
    assert "hand_size" in text and "7" in text, text
    assert await store.games.active_in(await room.room_id()) is None


async def test_a_rule_change_that_leaves_no_table_is_refused(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new partnership 100")
    row = await store.games.active_in(await room.room_id())
    assert row is not None
    text = refused(await room.say("Ana", "/rule hand_size 8"))
    assert "hand_size" in text, text
    assert (await store.games.load(row.id)).version == row.version


async def test_begin_refuses_a_table_too_big_for_its_hands(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw 100 hand_size=10")  # two fit (20), three do not (30)
    for name in ("Beto", "Carla"):
        await room.say(name, "/join")
    before = await store.games.active_in(await room.room_id())
    text = refused(await room.say("Ana", "/begin"))
    assert "3 players" in text and "30" in text and "28" in text, text
    after = await store.games.active_in(await room.room_id())
    assert after is not None and after.version == before.version and after.status == "lobby"
    await room.say("Carla", "/leave")
    assert not [e for e in await room.say("Ana", "/begin") if isinstance(e, Say) and e.private]
