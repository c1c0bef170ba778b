"""Pages' data kept between requests (issue 34, Speed): two hundred people watching a
tournament's page cost one build of it per change, not one per request.

What is kept is used again only while nothing it is built from was heard to change:
storage's change feed (storage/feed.py) tells this process of every save of a game or a
tournament, whichever process made it. Each change heard takes the next number; a page
kept when the number was ``n`` is fresh while its own target has changed at ``n`` or
before. A change heard while a page is built makes that build stale at once. A
community's change (its pages turned off, on, or given new keys) and a feed that may
have missed changes (:data:`~storage.feed.LOST`) forget everything. While the feed is not
heard (PostgreSQL's listening connection away), nothing is kept. Each page also has a
longest life (``seconds``), for what the feed does not announce (results and ratings, a
room's language). Those asking for a page while it is built, since its last change, wait
for that one build.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from bot.core.bounded import Bounded
from storage.feed import LOST, Change, Feed

KEPT = 256  # pages kept (a target in a language)
CHANGES = 4096  # targets whose last change is remembered; older ones count as changed


class Kept:
    def __init__(self, feed: Feed, clock: Callable[[], datetime]) -> None:
        self._feed = feed
        self._clock = clock
        self._stop: Callable[[], None] | None = None
        self._number = 0  # of the last change heard
        self._floor = 0  # the last change of a target no longer remembered
        self._changed: dict[Change, int] = {}
        self._pages: Bounded[tuple[Change, str], tuple[int, datetime, Any]] = Bounded(KEPT)
        # pages being built now: (the change number when the build began, the build)
        self._building: dict[tuple[Change, str], tuple[int, asyncio.Future[Any]]] = {}

    async def get(
        self,
        target: Change,
        lang: str,
        seconds: float,
        build: Callable[[], Awaitable[Any]],
    ) -> tuple[Any, float]:
        """``target``'s page in ``lang`` and how many seconds ago it was built: kept,
        when still fresh, else ``build()`` now (and kept). ``build`` may answer None (no
        such page): that is not kept."""
        if self._stop is None:
            self._stop = self._feed.listen(self._heard)
        if not await self._feed.ready(0):
            return await build(), 0.0
        now = self._clock()
        found = self._pages.get((target, lang))
        if found is not None:
            number, built, data = found
            fresh = self._changed.get(target, self._floor) <= number
            if fresh and now - built <= timedelta(seconds=seconds):
                return data, (now - built).total_seconds()
        key = (target, lang)
        building = self._building.get(key)
        if building is not None and self._changed.get(target, self._floor) <= building[0]:
            # being built since its last change: one build for everyone asking meanwhile
            return await asyncio.shield(building[1]), 0.0
        number = self._number
        task = asyncio.ensure_future(build())
        self._building[key] = (number, task)
        try:
            data = await asyncio.shield(task)
        finally:
            if self._building.get(key, (0, None))[1] is task:
                del self._building[key]
        if data is not None:
            self._pages.put(key, (number, now, data))
        return data, 0.0

    def _heard(self, change: Change) -> None:
        self._number += 1
        if change == LOST or change[0] == "community":
            self._pages = Bounded(KEPT)
            self._floor = self._number
            self._changed.clear()
            return
        self._changed.pop(change, None)
        self._changed[change] = self._number  # (the newest last: the oldest go first)
        if len(self._changed) > CHANGES:
            oldest = next(iter(self._changed))
            self._floor = max(self._floor, self._changed.pop(oldest))
