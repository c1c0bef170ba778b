"""Waiting before trying a platform again, unless the program is asked to stop."""

from __future__ import annotations

import asyncio

from bot.doors.retry import retried

LONGEST = 60.0  # seconds between tries, at most


async def pause_or_stop(stop: asyncio.Event, seconds: float, platform: str = "") -> float:
    """Wait ``seconds``; the next, longer pause (a try again of ``platform``, counted).
    Asked to stop meanwhile: CancelledError."""
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        retried(platform)
        return min(2 * seconds, LONGEST)
    raise asyncio.CancelledError
