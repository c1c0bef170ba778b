"""Every picture is drawn at delivery from the plain data of its effect."""

from __future__ import annotations

from bot.core.model import Board, Hand
from bot.doors.pictures import board_png, hand_png
from storage.store import Store
from tests.core.driver import Room

PNG = b"\x89PNG"


async def test_a_board_and_a_hand_are_drawn_from_their_effects(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new partnership")
    begun = await room.say("Ana", "/begin fill")
    board = next(e for e in begun if isinstance(e, Board))
    hand = next(e for e in begun if isinstance(e, Hand))
    assert (await board_png(board)).startswith(PNG)
    assert (await hand_png(hand)).startswith(PNG)
