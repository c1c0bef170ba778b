"""Issue 33, 2: `/new all_fives 100` with three players could not end (after five hands
-46, -11, -6). At `/begin` the room is warned that the game may never end, with games
that do (a lower target, a number of hands) as the `/new` that opens them; the game
begins all the same (docs/rules-decisions.md, "Games that may not end"). Ordinary
games are never warned, and the simulation runs off the event loop."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import bot.core.handlers.lobby
from bot.core.model import Say
from engine.reach import hands_to_end
from engine.rules import Rules
from storage.store import Store
from tests.core.driver import Room

WARNING = "may never end"


def said(effects: list) -> list[str]:
    return [e.text for e in effects if isinstance(e, Say) and not e.private]


async def begun(room: Room, new: str, computers: int) -> list[str]:
    await room.say("Ana", new)
    for _ in range(computers):
        await room.say("Ana", "/add_ai")
    return said(await room.say("Ana", "/begin"))


async def test_all_fives_to_100_with_three_warns_and_names_games_that_end(store: Store) -> None:
    room = await Room.open(store)
    texts = await begun(room, "/new all_fives 100", 2)
    warning = next(t for t in texts if WARNING in t)
    assert "3 players" in warning and "30 hands" in warning
    ways = warning.split("/cancel, then ")[1].split(" · ")
    assert ways[0].startswith("/new all_fives ") and ways[1] == "/new all_fives 100 hands=10"
    target = int(ways[0].split()[2])
    assert target < 100
    rules = Rules.from_preset("all_fives", target=target)
    assert hands_to_end(rules, 3).ends  # what it suggests ends
    assert await store.games.active_in(await room.room_id()) is not None  # begun all the same
    # and opening the suggestion begins a game with no warning
    await room.say("Ana", "/cancel")
    assert not [t for t in await begun(room, ways[0], 2) if WARNING in t]


async def test_the_warning_is_in_the_rooms_language_and_keeps_the_house_rules(
    store: Store,
) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/settings language es", admin=True)
    texts = await begun(room, "/new all_fives 100 doubles_in_line=on", 2)
    warning = next(t for t in texts if "nunca" in t)
    assert "doubles_in_line=on" in warning and "hands=10" in warning


@pytest.mark.parametrize(
    ("new", "computers"),
    [
        ("/new partnership 100", 3),
        ("/new partnership 200", 3),
        ("/new cuban", 3),
        ("/new draw", 1),
        ("/new block 100", 3),
        ("/new mexican_train", 3),
        ("/new all_fives 100", 1),  # two players score: it ends
    ],
)
async def test_ordinary_games_are_not_warned(store: Store, new: str, computers: int) -> None:
    room = await Room.open(store)
    texts = await begun(room, new, computers)
    assert texts and not [t for t in texts if WARNING in t]


async def test_the_simulation_runs_off_the_event_loop(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[Any] = []

    def estimate(rules: Rules, players: int) -> Any:
        threads.append(threading.current_thread())
        return hands_to_end(rules, players)

    monkeypatch.setattr(bot.core.handlers.lobby, "hands_to_end", estimate)
    room = await Room.open(store)
    await begun(room, "/new all_fives 100", 2)
    assert threads and threads[0] is not threading.main_thread()
