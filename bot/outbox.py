"""Each room's messages go out in order, in the background: one worker per room, so a slow
or rate-limited room never holds up another. A board followed by a newer board of the
same game is skipped, so a run of computer moves costs one edit. Shared by the platform
adapters; each says how one effect is sent."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Generic, TypeVar

from bot.model import Board, Effect, Place

log = logging.getLogger(__name__)
T = TypeVar("T")


class Outbox(Generic[T]):
    def __init__(
        self,
        send: Callable[[Place, T], Awaitable[None]],
        effect_of: Callable[[T], Effect],
        platform: str,
    ) -> None:
        self._send = send
        self._effect_of = effect_of
        self._platform = platform
        self._queues: dict[Place, deque[T]] = {}
        self._workers: dict[Place, asyncio.Task[None]] = {}

    def put(self, place: Place, items: Iterable[T]) -> None:
        """Queue ``items`` for ``place``, after what is queued there already."""
        self._queues.setdefault(place, deque()).extend(items)
        worker = self._workers.get(place)
        if worker is None or worker.done():
            self._workers[place] = asyncio.create_task(self._drain(place))

    async def idle(self) -> None:
        """Wait until everything queued has gone out (tests, shutdown)."""
        while any(not w.done() for w in self._workers.values()):
            await asyncio.gather(*self._workers.values(), return_exceptions=True)

    async def _drain(self, place: Place) -> None:
        queue = self._queues[place]
        while queue:
            item = queue.popleft()
            effect = self._effect_of(item)
            if isinstance(effect, Board) and any(
                isinstance(later := self._effect_of(other), Board)
                and later.game_id == effect.game_id
                for other in queue
            ):
                continue  # a newer board of this game follows: one edit for both
            try:
                await self._send(place, item)
            except Exception:  # one effect lost is a message, never a move: go on
                log.exception("%s: delivering %s failed", self._platform, type(effect).__name__)
        del self._queues[place]
        del self._workers[place]
