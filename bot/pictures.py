"""Boards and hands drawn to PNG bytes, off the event loop (a picture takes tens of
milliseconds: bench/render.py)."""

from __future__ import annotations

import asyncio
import io

from bot.model import Board, Hand
from render.board import draw_board, draw_hand


async def board_png(board: Board) -> bytes:
    return await asyncio.to_thread(_board_png, board)


async def hand_png(hand: Hand) -> bytes:
    return await asyncio.to_thread(_hand_png, hand)


def _board_png(board: Board) -> bytes:
    return _encode(draw_board(board.view, board.table))


def _hand_png(hand: Hand) -> bytes:
    return _encode(draw_hand(hand.view, hand.table))


def _encode(image: object) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")  # type: ignore[attr-defined]
    return out.getvalue()
