"""Pictures drawn at delivery, off the event loop, from the plain data of the effects:
boards, hands, leaderboards and tables of figures to PNG bytes (a board takes 5 to 17 ms
of CPU, 50 on a double-18 table: bench/render.py). The service draws nothing; only the
adapters call these."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable

from PIL.Image import Image

from bot.core import Board, Hand, Picture
from render.board import draw_board, draw_hand
from render.palette import COMPRESS_LEVEL
from render.sheets import draw_figures, draw_leaderboard


async def board_png(board: Board) -> bytes:
    return await asyncio.to_thread(_png, draw_board, board.view, board.table)


async def hand_png(hand: Hand) -> bytes:
    return await asyncio.to_thread(_png, draw_hand, hand.view, hand.table)


async def picture_png(picture: Picture) -> bytes:
    """A table of figures when the picture has ``rows`` (a tournament's standings), else
    the leaderboard of its ``lines``."""
    if picture.rows:
        return await asyncio.to_thread(
            _png,
            draw_figures,
            picture.title,
            picture.header,
            picture.rows,
            picture.theme,
            picture.lang,
        )
    return await asyncio.to_thread(
        _png, draw_leaderboard, picture.title, picture.lines, picture.theme, picture.lang
    )


def _png(draw: Callable[..., Image], *args: object) -> bytes:
    out = io.BytesIO()
    # (a board image carries this level itself; said here too, for any Pillow)
    draw(*args).save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
