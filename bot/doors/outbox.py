"""Each room's messages go out in order, in the background: one worker per room, so a slow
or rate-limited room never holds up another. A room can have lanes besides its own (one
per person, for their private messages), each with its worker: a group whose minute is
full does not hold up a player's hand. A board followed by a newer board of the
same game is skipped, so a run of computer moves costs one edit: the moves it told are
handed on to the newer board (``merge``), never dropped; answers set aside (a reading
command's, ``aside``) wait behind any other message queued after them; a board that ends a hand is
never skipped (it stays as the hand's picture). So is a private hand followed by a newer
one of the same person and game (under a 429 a stale hand would otherwise arrive late,
with buttons that no longer play). Shared by the platform adapters; each says how one
effect is sent."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Generic, TypeVar

from bot.core import Board, Effect, Hand, Place, Unavailable

log = logging.getLogger(__name__)
T = TypeVar("T")
# Between tries of a delivery that needed the database while it was away (31 s in all).
DATABASE_PAUSES = (1.0, 2.0, 4.0, 8.0, 16.0)
Lane = tuple[str, str, str, str]  # platform, community, room, lane


class Outbox(Generic[T]):
    def __init__(
        self,
        send: Callable[[Place, T], Awaitable[None]],
        effect_of: Callable[[T], Effect],
        platform: str,
        merge: Callable[[T, T], T] | None = None,
        done: Callable[[T], Awaitable[None]] | None = None,
    ) -> None:
        self._send = send
        self._effect_of = effect_of
        self._platform = platform
        # a skipped board handed on to the newer one: merge(skipped, newer) goes instead
        self._merge = merge
        # told of each item once it is out of the queue: sent, failed, or skipped
        self._done = done
        self._queues: dict[Lane, deque[tuple[Place, T]]] = {}
        self._workers: dict[Lane, asyncio.Task[None]] = {}
        self._sending = 0  # items out of their queue, on their way

    def put(self, place: Place, items: Iterable[T], lane: str = "") -> None:
        """Queue ``items`` for ``place`` (in ``lane``), after what is queued there."""
        # the room, whatever else the place says (a press in a private chat names the
        # game's room without its name): one room, one worker
        key = (place.platform, place.community, place.room, lane)
        queue = self._queues.setdefault(key, deque())
        for item in items:
            if self._aside(item):
                queue.append((place, item))
                continue
            # the game's messages go before the answers set aside still waiting (a
            # flood of /rules never holds up a move's board)
            at = len(queue)
            while at and self._aside(queue[at - 1][1]):
                at -= 1
            queue.insert(at, (place, item))
        worker = self._workers.get(key)
        if worker is None or worker.done():
            self._workers[key] = asyncio.create_task(self._drain(key))

    def pending(self) -> int:
        """The effects queued and not yet out (the operator's ``domino_deliveries_pending``)."""
        return self._sending + sum(len(queue) for queue in self._queues.values())

    def _aside(self, item: T) -> bool:
        return bool(getattr(self._effect_of(item), "aside", False))

    async def idle(self) -> None:
        """Wait until everything queued has gone out (tests, shutdown)."""
        while any(not w.done() for w in self._workers.values()):
            await asyncio.gather(*self._workers.values(), return_exceptions=True)

    async def _drain(self, key: Lane) -> None:
        queue = self._queues[key]
        tries = 0  # of the item at the head of the queue
        while queue:
            place, item = queue.popleft()
            effect = self._effect_of(item)
            if self._superseded(effect, queue):
                tries = 0
                self._hand_on(item, queue)
                await self._out(item)
                continue  # a newer board or hand of this game follows: it goes instead
            try:
                await self._sent(place, item)
            except Unavailable:  # (where the board is): the database is back in seconds
                if tries < len(DATABASE_PAUSES):
                    queue.appendleft((place, item))
                    await asyncio.sleep(DATABASE_PAUSES[tries])
                    tries += 1
                    continue
                log.warning(
                    "%s: %s not delivered: the database is away",
                    self._platform,
                    type(effect).__name__,
                )
            except Exception:  # one effect lost is a message, never a move: go on
                log.exception("%s: delivering %s failed", self._platform, type(effect).__name__)
            tries = 0
            await self._out(item)
        del self._queues[key]
        del self._workers[key]

    async def _sent(self, place: Place, item: T) -> None:
        self._sending += 1
        try:
            await self._send(place, item)
        finally:
            self._sending -= 1

    async def _out(self, item: T) -> None:
        if self._done is None:
            return
        try:
            await self._done(item)
        except Exception:  # what follows an update's answer is never worth a lost queue
            log.exception("%s: after a delivery", self._platform)

    def _hand_on(self, item: T, queue: deque[tuple[Place, T]]) -> None:
        """A skipped board's moves go to the next board of its game in the queue."""
        effect = self._effect_of(item)
        if self._merge is None or not isinstance(effect, Board):
            return
        for index, (place, other) in enumerate(queue):
            later = self._effect_of(other)
            if isinstance(later, Board) and later.game_id == effect.game_id:
                queue[index] = (place, self._merge(item, other))
                return

    def _superseded(self, effect: Effect, queue: deque[tuple[Place, T]]) -> bool:
        """A newer board of the same game is queued behind ``effect`` (one edit for
        both), or a newer hand of the same person and game (a stale hand, with buttons
        that no longer play, is not worth a message). A board that ends a hand (or the
        game) is never skipped: it stays in the room as that hand's picture."""
        if isinstance(effect, Board):
            if effect.hand_end or effect.final:
                return False
            return any(
                isinstance(later := self._effect_of(other), Board)
                and later.game_id == effect.game_id
                for _, other in queue
            )
        if isinstance(effect, Hand):
            return any(
                isinstance(later := self._effect_of(other), Hand)
                and later.game_id == effect.game_id
                and later.person.platform_id == effect.person.platform_id
                for _, other in queue
            )
        return False
