"""Live pages (issue 34): who in this process watches which game's or tournament's page,
over the one subscription to storage's change feed they share (storage/feed.py).

A change is heard once per process and fanned out here in memory: the viewers of a page
share one :class:`Topic`, whose version moves at each change of its game or tournament;
a viewer costs no query per change (it reads the page again itself, when it is told).
Changes that come while a viewer is busy are one step for it: it only needs the latest.

A key stops naming a page when its community's pages are turned off or given new keys:
that is announced (``("community", id)``), and each topic of the community looks its key
up again, once, and ends its viewers if the key names nothing now. When the feed may have
missed changes (:data:`~storage.feed.LOST`), every topic moves and is looked up again.
Keys are kept in memory only: nothing here logs one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Callable
from typing import Literal

from storage.errors import StorageError
from storage.feed import LOST, Change, Feed
from storage.web import Named, WebRepository

log = logging.getLogger(__name__)
Watched = Literal["game", "tournament"]
READY_SECONDS = 2.0  # how long a first viewer waits for the feed to be heard
# Changes are passed on this long after the first of them: the command that made them
# (a move, and the computer's answer after it) has finished by then, and its saves make
# one step for the viewers, whose waking costs the players nothing.
GATHER_SECONDS = 0.05


class Topic:
    """One page watched in this process: its version and its viewers."""

    def __init__(self, kind: Watched, key: str, named: Named) -> None:
        self.kind, self.key, self.named = kind, key, named
        self.version = 1
        self.viewers = 0
        self.closed = False
        self._moved = asyncio.Event()

    def move(self) -> None:
        self.version += 1
        self._moved.set()  # everyone waiting on it wakes; the next wait is on a new one
        self._moved = asyncio.Event()

    def close(self) -> None:
        self.closed = True
        self._moved.set()

    async def after(self, seen: int) -> None:
        """Wait until the version is past ``seen``, or the page is gone."""
        while self.version == seen and not self.closed:
            await self._moved.wait()


class Live:
    def __init__(self, web: WebRepository, feed: Feed) -> None:
        self._web = web
        self._feed = feed
        self._topics: dict[tuple[Watched, str], Topic] = {}
        self._by_target: dict[Change, set[Topic]] = {}
        self._stop: Callable[[], None] | None = None
        self._checks: set[asyncio.Task[None]] = set()
        self._moved: set[Change] = set()  # heard, not yet passed on
        self._passing: asyncio.TimerHandle | None = None

    def topics(self) -> int:
        """How many pages are watched in this process."""
        return len(self._topics)

    def version(self, kind: Watched, key: str) -> int | None:
        """The version of a page watched in this process now (None: not watched)."""
        topic = self._topics.get((kind, key))
        return topic.version if topic is not None else None

    async def watch(self, kind: Watched, key: str) -> AsyncGenerator[int, None]:
        """The page's version now, then again each time its data may have changed; it
        ends when ``key`` names no page of ``kind`` (at once, if it names none now)."""
        topic = await self._join(kind, key)
        if topic is None:
            return
        try:
            seen = topic.version
            yield seen
            while True:
                await topic.after(seen)
                if topic.closed:
                    return
                seen = topic.version
                yield seen
        finally:
            self._leave(topic)

    async def _join(self, kind: Watched, key: str) -> Topic | None:
        topic = self._topics.get((kind, key))
        if topic is None or topic.closed:
            named = await self._web.find(kind, key)
            if named is None:
                return None
            if self._stop is None:
                self._stop = self._feed.listen(self._heard)
            await self._feed.ready(READY_SECONDS)  # a change from now on is heard
            topic = self._topics.get((kind, key))
            if topic is None or topic.closed:  # (another viewer may have made it meanwhile)
                topic = Topic(kind, key, named)
                self._topics[(kind, key)] = topic
                self._by_target.setdefault((kind, named.target), set()).add(topic)
        topic.viewers += 1
        return topic

    def _leave(self, topic: Topic) -> None:
        topic.viewers -= 1
        if topic.viewers <= 0:
            self._forget(topic)

    def _forget(self, topic: Topic) -> None:
        if self._topics.get((topic.kind, topic.key)) is topic:
            del self._topics[(topic.kind, topic.key)]
        target = (topic.kind, topic.named.target)
        same = self._by_target.get(target)
        if same is not None:
            same.discard(topic)
            if not same:
                del self._by_target[target]

    def _heard(self, change: Change) -> None:
        """The feed's listener: a change, told once in this process."""
        kind, target = change
        if change == LOST:
            for topic in self._topics.values():
                topic.move()
            self._check(list(self._topics.values()))
        elif kind == "community":
            self._check([t for t in self._topics.values() if t.named.community_id == target])
        elif change in self._by_target:
            self._moved.add(change)
            if self._passing is None:
                loop = asyncio.get_running_loop()
                self._passing = loop.call_later(GATHER_SECONDS, self._pass_on)

    def _pass_on(self) -> None:
        self._passing = None
        moved, self._moved = self._moved, set()
        for change in moved:
            for topic in self._by_target.get(change, ()):
                topic.move()

    def _check(self, topics: list[Topic]) -> None:
        if topics:
            task = asyncio.get_running_loop().create_task(self._look_again(topics))
            self._checks.add(task)
            task.add_done_callback(self._checks.discard)

    async def _look_again(self, topics: list[Topic]) -> None:
        """Each topic's key looked up again: one that names nothing now ends its viewers."""
        for topic in topics:
            try:
                named = await self._web.find(topic.kind, topic.key)
            except StorageError as error:  # kept open; the next change looks again
                log.info("web: a live page was not looked up again: %s", type(error).__name__)
                continue
            if named is None or named.target != topic.named.target:
                topic.close()
                self._forget(topic)
