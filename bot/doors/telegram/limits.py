"""Telegram's limits on what a bot sends: about 30 messages a second in all, and 20 a
minute in any one group. The library's AIORateLimiter keeps the overall rate and waits
out 429s; its group limit is a leaky bucket, which lets a group take 20 at once and then
one every 3 seconds: up to 39 in some minute. Here a group's sends are counted over a
sliding minute instead, so no minute ever holds more than the limit.

The count is kept in the database (storage/sends.py): several processes serving one
group share it, and so does the process started after one was killed, which would
otherwise start from nothing while the group's minute was already full. When the
database does not answer, each process goes on with its own count: it starts from the
window it last read there, and tells the database what it sent alone once it answers
again (counted only by itself, those would let the next process overfill the minute)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from telegram.ext import AIORateLimiter, BaseRateLimiter

from bot.doors.retry import retried
from bot.doors.telegram.places import PLATFORM

log = logging.getLogger(__name__)

# (chat, limit, period, now, sent alone) -> (0 once counted, else seconds to wait; the
# window's stamps after), all in wall-clock seconds
SharedTake = Callable[
    [str, int, float, float, Sequence[float]], Awaitable[tuple[float, tuple[float, ...]]]
]

# A request takes a moment to reach Telegram, and some take longer than others: the
# window is a little longer than the minute Telegram counts.
WINDOW = 61.0
FORGET_AFTER = 1024  # groups remembered before the idle ones are swept
ALONE_SECONDS = 5.0  # after the shared count failed, how long before it is asked again


class SlidingWindows:
    """For each key, at most ``limit`` turns in any ``period`` seconds; a turn waits
    until the oldest in the window has left it. Turns of one key are taken in order.
    With ``shared``, the windows are counted there too (by every process)."""

    def __init__(
        self,
        limit: int,
        period: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        shared: SharedTake | None = None,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.limit = limit
        self.period = period
        self.clock = clock
        self.sleep = sleep
        self.shared = shared
        self.wall = wall  # processes on several machines agree on the wall clock only
        self._taken: dict[Any, deque[float]] = {}
        self._locks: dict[Any, asyncio.Lock] = {}
        self._alone_until: float | None = None  # the shared count failed: not asked until
        self._sent_alone: dict[Any, list[float]] = {}  # sends the shared count has not had

    async def turn(self, key: Any) -> None:
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            taken = self._taken.setdefault(key, deque())
            if not (self.shared and not self._alone() and await self._shared_turn(key, taken)):
                await self._own_turn(key, taken)
        if len(self._taken) > FORGET_AFTER:
            self._forget_idle()

    async def _shared_turn(self, key: Any, taken: deque[float]) -> bool:
        """Take a turn in the shared window, False if it cannot be asked. ``taken``
        becomes the window as read there."""
        assert self.shared is not None
        while True:
            sent_alone = self._sent_alone.get(key, ())
            try:
                wait, stamps = await self.shared(
                    str(key), self.limit, self.period, self._now(), sent_alone
                )
            except Exception as error:  # the database is away: this process counts alone
                if self._alone_until is None:
                    log.warning("group limits counted by this process alone: %s", error)
                # for a while: asking a database that takes seconds to fail would hold
                # every group's messages that long
                self._alone_until = self.clock() + ALONE_SECONDS
                return False
            if self._alone_until is not None:
                log.info("group limits counted with the other processes again")
                self._alone_until = None
            self._sent_alone.pop(key, None)  # the database has them now
            taken.clear()
            taken.extend(stamps)
            if wait <= 0:
                return True
            await self.sleep(wait)

    def _alone(self) -> bool:
        return self._alone_until is not None and self.clock() < self._alone_until

    async def _own_turn(self, key: Any, taken: deque[float]) -> None:
        """A turn counted here only (and, with a shared count, remembered to tell it)."""
        self._count(taken, take=False)
        if len(taken) >= self.limit:
            await self.sleep(taken[-self.limit] + self.period - self._now())
            # The oldest have left the window: drop them even when rounding makes the
            # clock read a hair short of the moment waited for (asking again could loop
            # on a zero wait).
            while len(taken) >= self.limit:
                taken.popleft()
        self._count(taken)
        if self.shared:
            alone = self._sent_alone.setdefault(key, [])
            alone[:] = [s for s in alone if s > taken[-1] - self.period] + [taken[-1]]

    def _now(self) -> float:
        # shared windows are in wall-clock time: processes on several machines agree on
        # it only
        return self.wall() if self.shared else self.clock()

    def _count(self, taken: deque[float], take: bool = True) -> None:
        now = self._now()
        while taken and taken[0] + self.period <= now:
            taken.popleft()
        if take:
            taken.append(now)

    def _forget_idle(self) -> None:
        now = self._now()
        for key, taken in list(self._taken.items()):
            lock = self._locks.get(key)
            if (not taken or taken[-1] <= now - self.period) and not (lock and lock.locked()):
                del self._taken[key]
                self._locks.pop(key, None)
                self._sent_alone.pop(key, None)

    def __len__(self) -> int:
        return len(self._taken)


class TelegramLimits(BaseRateLimiter[int]):
    """AIORateLimiter for the overall rate and 429s, sliding windows for groups."""

    def __init__(
        self,
        overall_per_second: float,
        group_per_minute: float,
        retries: int,
        shared: SharedTake | None = None,
    ) -> None:
        self._library = AIORateLimiter(
            overall_max_rate=overall_per_second, group_max_rate=0, max_retries=retries
        )
        self._groups = SlidingWindows(max(1, int(group_per_minute)), WINDOW, shared=shared)

    async def initialize(self) -> None:
        await self._library.initialize()

    async def shutdown(self) -> None:
        await self._library.shutdown()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        group = group_of(data.get("chat_id"))
        tries = 0

        # the library tries again after a 429: each try past the first is counted
        async def tried(*args: Any, **kwargs: Any) -> Any:
            nonlocal tries
            tries += 1
            if tries > 1:
                retried(PLATFORM)
            return await callback(*args, **kwargs)

        if group is None:
            return await self._library.process_request(
                tried, args, kwargs, endpoint, data, rate_limit_args
            )

        # A turn for each try, taken as it goes out: the library tries again seconds
        # after a 429, and the window must hold the message when Telegram counts it.
        async def counted(*args: Any, **kwargs: Any) -> Any:
            await self._groups.turn(group)
            return await tried(*args, **kwargs)

        return await self._library.process_request(
            counted, args, kwargs, endpoint, data, rate_limit_args
        )


def group_of(chat_id: Any) -> int | str | None:
    """The group a request goes to; None for a private chat or no chat. (Group ids are
    negative; "@name" can only be a group or a channel.)"""
    if isinstance(chat_id, str):
        try:
            chat_id = int(chat_id)
        except ValueError:
            return chat_id
    if isinstance(chat_id, int) and chat_id < 0:
        return chat_id
    return None
