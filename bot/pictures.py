"""Pictures drawn at delivery, off the event loop, from the plain data of the effects:
boards, hands and leaderboards to PNG bytes (a picture takes tens of milliseconds:
bench/render.py). The service draws nothing; only the adapters call these."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable

from PIL.Image import Image

from bot.model import Board, Hand, Picture
from render.board import draw_board, draw_hand
from render.sheets import draw_leaderboard


async def board_png(board: Board) -> bytes:
    return await asyncio.to_thread(_png, draw_board, board.view, board.table)


async def hand_png(hand: Hand) -> bytes:
    return await asyncio.to_thread(_png, draw_hand, hand.view, hand.table)


async def leaderboard_png(picture: Picture) -> bytes:
    return await asyncio.to_thread(
        _png, draw_leaderboard, picture.title, picture.lines, picture.theme, picture.lang
    )


def _png(draw: Callable[..., Image], *args: object) -> bytes:
    out = io.BytesIO()
    draw(*args).save(out, format="PNG")
    return out.getvalue()
