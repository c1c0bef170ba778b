"""A platform call tried again through the errors worth a wait: a rate limit that names
its wait, a network error (each platform says which of its errors are such). Every try
again is counted by platform (:data:`RETRIES`, the operator's
``domino_platform_retries_total``)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

# Tries again so far in this process, by platform: only ever counted up (a Prometheus
# counter reads it at each scrape, bot/doors/ops)
RETRIES: Counter[str] = Counter()


def retried(platform: str) -> None:
    """``platform`` was called once more after an error (a 429, the network)."""
    RETRIES[platform] += 1


@dataclass(frozen=True)
class Pause:
    """Wait ``seconds`` and try again; ``asked``: the platform named the wait (a 429's
    "retry after"), so it is waited out and tried once more even after the last try."""

    seconds: float
    asked: bool = False


# An error of the attempt numbered ``attempt`` (from 0): how long to pause before trying
# again, or None when trying again cannot help (the error goes to the caller).
Classify = Callable[[Exception, int], Pause | None]


async def retry(
    send: Callable[[], Awaitable[T]], classify: Classify, tries: int, platform: str = ""
) -> T:
    """``send()`` through the errors ``classify`` says are worth a wait, ``tries`` times
    at most; the last error goes to the caller. Each try again is counted for
    ``platform``."""
    for attempt in range(tries):
        try:
            return await send()
        except Exception as error:
            pause = classify(error, attempt)
            if pause is None or (attempt == tries - 1 and not pause.asked):
                raise
            await asyncio.sleep(pause.seconds)
            retried(platform)
    return await send()


def backoff(attempt: int) -> float:
    """Seconds before the next try after ``attempt`` failed: 0.5, 1, 2, 4, 8, 10, 10..."""
    return min(2**attempt * 0.5, 10.0)
