"""Fires the timers stored in the database when they fall due, in whichever process
claims each one first; effects go to the adapter of the timer's room. Started with the
bot, it first fires everything that fell due while no process was running."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.core import Effect, GameService, Place, StorageError

log = logging.getLogger(__name__)

Deliver = Callable[[Place, list[Effect]], Awaitable[None]]
POLL_SECONDS = 1.0
SETTLE_EVERY = timedelta(hours=1)
FIRED_KEPT = timedelta(days=1)  # fired timers' rows, kept a while for anyone looking into a game


class TimerLoop:
    def __init__(self, service: GameService, deliver: Deliver, poll: float = POLL_SECONDS) -> None:
        self.service = service
        self.deliver = deliver
        self.poll = poll
        self._expired_on: object = None  # the day results older than a year were last taken out
        self._settled_at: datetime | None = None  # when unwritten results were last looked for

    async def run(self) -> None:
        while True:
            try:
                await self.tick()
            except StorageError as error:  # the database is away: try again shortly
                log.warning("timers: %s", error)
            except Exception:
                log.exception("timers: a tick failed")
            await asyncio.sleep(self.poll)

    async def tick(self) -> int:
        """Fire every timer due now; how many this process fired."""
        service = self.service
        fired = 0
        now = service.clock()
        if self._settled_at is None or now - self._settled_at >= SETTLE_EVERY:
            await service.settle()  # at start, then hourly: not a query every second
            self._settled_at = now
        if self._expired_on != now.date():  # once a day: a year-old result leaves the
            await service.chores(now - FIRED_KEPT)  # rating, old fired timers go
            self._expired_on = now.date()
        for timer in await service.due_timers():
            done = await service.fire_timer(timer)
            if done is None:
                continue  # another process has it
            place, effects = done
            fired += 1
            if effects:
                await self.deliver(place, effects)
        return fired
