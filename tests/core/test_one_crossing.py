"""A move crosses the service once (issue 30): a pressed button carries the move in its
RECORD.md notation, the engine reads it once and the press's moment is checked once, and
each update builds the room's view once. A move given whole that is not the person's, or
not of now, is refused and changes nothing."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import bot.core.progress
import bot.core.showing
from bot.core.model import Hand, Popup
from engine import moves, views
from storage.store import Store
from tests.core.driver import Room, hands_for


async def a_game(store: Store) -> tuple[Room, Hand]:
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    hand = next(h for name in ("Ana", "Beto") for h in hands_for(room.log, name)[-1:] if h.buttons)
    return room, hand


async def test_a_hands_buttons_carry_their_moves_whole(store: Store) -> None:
    _room, hand = await a_game(store)
    for button, move in zip(hand.buttons, hand.view.legal_moves, strict=True):
        assert button.move == str(move) and moves.Move.parse(button.move) == move
        assert button.move_number == hand.move_number and button.game_id == hand.game_id


async def test_a_press_is_read_once_and_its_moment_checked_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, hand = await a_game(store)
    parsed: list[str] = []
    views_built: list[int | None] = []
    parse, view_of = moves.Move.parse, views.view_of

    def parsing(text: str) -> moves.Move:
        parsed.append(text)
        return parse(text)

    def viewing(game: Any, seat: int | None = None) -> views.View:
        views_built.append(seat)
        return view_of(game, seat)

    monkeypatch.setattr(moves.Move, "parse", staticmethod(parsing))
    for module in (bot.core.progress, bot.core.showing):
        monkeypatch.setattr(module, "view_of", viewing)
    pressed = await room.press(hand.person.name, hand.buttons[0])
    assert not [e for e in pressed if isinstance(e, Popup)]
    assert parsed == [hand.buttons[0].move]
    assert views_built.count(None) == 1  # the room's, for the board and the story


async def test_a_move_given_whole_that_is_not_theirs_or_not_now_changes_nothing(
    store: Store,
) -> None:
    room, hand = await a_game(store)
    other = "Beto" if hand.person.name == "Ana" else "Ana"
    row = await store.games.active_in(await room.room_id())
    assert row is not None
    button = hand.buttons[0]
    # the other player presses it (a forged press), a move of now with the wrong seat, a
    # move that is no move at all: each refused, nothing saved
    assert any(isinstance(e, Popup) for e in await room.press(other, button))
    seat = moves.Move.parse(button.move or "").seat
    theirs = button.move.replace(f"{seat}:", f"{1 - seat}:", 1) if button.move else None
    for forged in (theirs, "0: 9-9 on 9-9", "0: draw on", "garbage"):
        effects = await room.press(hand.person.name, replace(button, move=forged))
        assert any(isinstance(e, Popup) for e in effects), forged
    after = await store.games.active_in(await room.room_id())
    assert after is not None and after.plies == row.plies and after.version == row.version
