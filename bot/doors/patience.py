"""Waiting before trying a platform again, unless the program is asked to stop."""

from __future__ import annotations

import asyncio

LONGEST = 60.0  # seconds between tries, at most


async def pause_or_stop(stop: asyncio.Event, seconds: float) -> float:
    """Wait ``seconds``; the next, longer pause. Asked to stop meanwhile: CancelledError."""
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        return min(2 * seconds, LONGEST)
    raise asyncio.CancelledError
