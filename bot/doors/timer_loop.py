"""Fires the timers stored in the database when they fall due, in whichever process
claims each one first (``GameService.fire_due``); their effects go to the door of the
timer's room. Started with the bot, it first fires everything that fell due while no
process was running. :meth:`TimerLoop.wake` fires what is due at once instead of at the
next poll (a tournament's tables, whose games are made by timers due the moment their
rooms open)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress

from bot.core import Effect, GameService, Place, StorageError

log = logging.getLogger(__name__)

Deliver = Callable[[Place, list[Effect]], Awaitable[None]]
POLL_SECONDS = 1.0


class TimerLoop:
    def __init__(self, service: GameService, deliver: Deliver, poll: float = POLL_SECONDS) -> None:
        self.service = service
        self.deliver = deliver
        self.poll = poll
        self._woken = asyncio.Event()

    async def run(self) -> None:
        while True:
            try:
                await self.tick()
            except StorageError as error:  # the database is away: try again shortly
                log.warning("timers: %s", error)
            except Exception:
                log.exception("timers: a tick failed")
            with suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), self.poll)
            self._woken.clear()

    def wake(self) -> None:
        """Fire what is due now, without waiting for the next poll."""
        self._woken.set()

    async def tick(self) -> int:
        """Fire every timer due now; how many this process fired."""
        fired = 0
        async for place, effects in self.service.fire_due():
            fired += 1
            if effects:
                await self.deliver(place, effects)
        return fired
