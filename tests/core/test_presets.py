"""A preset registered at run time (engine/ only) is a game of the service at once:
opened by /new, described by /rules, a room's default, a leaderboard's filter."""

from __future__ import annotations

import pytest

import engine.presets
import engine.rules
from bot.core.model import Lobby, Say
from engine.presets import register_preset
from storage.store import Store
from tests.core.driver import Room

TITLE = "quick draw"
ABOUT = "Draw dominoes to 50, for a short game."
RULES = "target=50"  # /rules says the rules in force, generated from the engine's (issue 20)


@pytest.fixture
def quick_draw(monkeypatch: pytest.MonkeyPatch) -> str:
    """The preset ``quick_draw``, gone again after the test."""
    monkeypatch.setattr(engine.rules, "PRESETS", dict(engine.rules.PRESETS))
    monkeypatch.setattr(engine.presets, "_TITLES", dict(engine.presets._TITLES))
    monkeypatch.setattr(engine.presets, "_ABOUT", dict(engine.presets._ABOUT))
    register_preset("quick_draw", {**engine.rules.PRESETS["draw"], "target": 50}, TITLE, ABOUT)
    return "quick_draw"


def words(effects: list) -> str:
    return "\n".join(e.text for e in effects if isinstance(e, Say))


async def test_a_preset_registered_at_run_time_is_played(store: Store, quick_draw: str) -> None:
    room = await Room.open(store)
    assert RULES in words(await room.say("Ana", f"/rules {quick_draw}"))
    opened = await room.say("Ana", f"/new {quick_draw}")
    assert [e for e in opened if isinstance(e, Lobby)] and TITLE in words(opened)
    game = await store.games.active_in(1)
    assert game is not None and game.snapshot["record"]["rules"]["preset"] == quick_draw
    assert RULES in words(await room.say("Beto", "/rules"))  # the game on the table
    await room.say("Ana", "/cancel")
    changed = await room.say("Ana", f"/settings preset {quick_draw}", admin=True)
    assert TITLE in words(changed)  # the preset by its name: "New games here are quick draw now."
    assert TITLE in words(await room.say("Ana", "/new"))
    assert "No games finished" in words(await room.say("Ana", f"/top {quick_draw}"))
    refused = words(await room.say("Ana", "/rules chess"))
    assert quick_draw in refused  # among the games offered
