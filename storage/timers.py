"""Timers that live in the database: a warning, an automatic move, a lobby that expires,
an idle game, the tournament clock. Each is due at a time and fires once: a process
claims it (an update that only one process can win) before acting on it, and marks it
fired afterwards. A claim left by a process that died is taken over after a while."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    Connection,
    Text,
    bindparam,
    cast,
    delete,
    insert,
    literal,
    or_,
    select,
    update,
)

from storage.database import Database, changed, rows, scalar
from storage.schema import timers

CLAIM_TIMEOUT = timedelta(seconds=30)  # a claim older than this was left by a dead process


@dataclass(frozen=True)
class Timer:
    id: int
    room_id: int
    game_id: int | None
    kind: str
    due_at: datetime
    version: int | None
    # what it carries; None when what is stored cannot be read (not JSON, not an object,
    # its args not a list): the service drops it, once, rather than fail every round
    payload: dict[str, Any] | None


class TimerRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    async def set(
        self,
        room_id: int,
        kind: str,
        due_at: datetime,
        game_id: int | None = None,
        version: int | None = None,
        payload: dict[str, Any] | None = None,
    ) -> int:
        """Set a timer; one of a kind per room: setting it again replaces the old one."""
        return await self._db.run(set_timer, room_id, kind, due_at, game_id, version, payload)

    async def cancel(self, room_id: int, *kinds: str) -> int:
        """Cancel the room's pending timers (of ``kinds``, or all); how many."""
        return await self._db.run(cancel_timers, room_id, kinds)

    async def due(self, now: datetime, limit: int = 100) -> list[Timer]:
        """Timers due by ``now`` that nobody holds (or whose holder died), soonest first."""
        query = (
            select(*_COLUMNS)
            .where(
                timers.c.fired_at.is_(None),
                timers.c.due_at <= now,
                or_(timers.c.claimed_at.is_(None), timers.c.claimed_at < now - CLAIM_TIMEOUT),
            )
            .order_by(timers.c.due_at, timers.c.id)
            .limit(limit)
        )
        return [_timer(row) for row in await self._db.run(rows, query)]

    async def next_due(self) -> datetime | None:
        """When the soonest pending timer is due (to know how long to sleep)."""
        query = (
            select(timers.c.due_at)
            .where(timers.c.fired_at.is_(None))
            .order_by(timers.c.due_at)
            .limit(1)
        )
        return await self._db.run(scalar, query)

    async def claim(self, timer: Timer, holder: str, now: datetime) -> bool:
        """Take ``timer`` (as :meth:`due` read it) for ``holder``; True for exactly one of
        the processes asking. The row must still be that timer, and due: one cancelled
        since may have left its id to another (SQLite gives a freed id to the next row),
        which is not claimed for it."""
        claim = (
            update(timers)
            .where(
                timers.c.id == timer.id,
                timers.c.room_id == timer.room_id,
                timers.c.kind == timer.kind,
                timers.c.due_at == timer.due_at,
                timers.c.due_at <= now,
                timers.c.fired_at.is_(None),
                or_(timers.c.claimed_at.is_(None), timers.c.claimed_at < now - CLAIM_TIMEOUT),
            )
            .values(claimed_by=holder, claimed_at=now)
        )
        return await self._db.run(changed, claim) == 1

    async def fired(self, timer_id: int, holder: str, now: datetime) -> bool:
        """Mark the timer fired (only its holder can); False if it was taken over."""
        mark = (
            update(timers)
            .where(
                timers.c.id == timer_id,
                timers.c.claimed_by == holder,
                timers.c.fired_at.is_(None),
            )
            .values(fired_at=now)
        )
        return await self._db.run(changed, mark) == 1

    async def purge(self, before: datetime) -> int:
        """Forget timers fired before ``before`` (their rows only said "done"); how many."""
        statement = delete(timers).where(timers.c.fired_at < before)
        return await self._db.run(changed, statement)

    async def pending(self, room_id: int) -> list[Timer]:
        query = (
            select(*_COLUMNS)
            .where(timers.c.room_id == room_id, timers.c.fired_at.is_(None))
            .order_by(timers.c.due_at)
        )
        return [_timer(row) for row in await self._db.run(rows, query)]


# A timer's columns, its payload as stored text: one that does not decode is told apart
# (its payload None) instead of failing the reading of every timer due.
_COLUMNS = (
    timers.c.id,
    timers.c.room_id,
    timers.c.game_id,
    timers.c.kind,
    timers.c.due_at,
    timers.c.version,
    cast(timers.c.payload, Text).label("payload"),
)


def _timer(row: Any) -> Timer:
    return Timer(
        row.id, row.room_id, row.game_id, row.kind, row.due_at, row.version, _payload(row.payload)
    )


def _payload(text: str | None) -> dict[str, Any] | None:
    try:
        payload = json.loads(text or "{}")
    except ValueError:
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("args", []), list):
        return None
    return payload


@dataclass(frozen=True)
class TimerPlan:
    """Timer changes made with a game's save, in its transaction: ``cancel`` these kinds
    (``ALL``: every pending timer of the room), then ``set`` (kind, due, payload) timers
    stamped with the version the save creates."""

    cancel: tuple[str, ...] = ()
    set: tuple[tuple[str, datetime, dict[str, Any]], ...] = ()
    # the game's pending timers stay as they are, stamped with the new version (a save
    # that moved nobody's turn: a judge's ruling written on the sheet)
    restamp: bool = False


ALL = "*"

_PENDING_IN_ROOM = (timers.c.room_id == bindparam("room_id")) & timers.c.fired_at.is_(None)
_CANCEL_ALL = delete(timers).where(_PENDING_IN_ROOM)
_SET = insert(timers)


@lru_cache(maxsize=64)
def _cancel_kinds(kinds: tuple[str, ...]) -> Any:
    # the kinds are the service's few constants: written into the statement, which is
    # then built once for each set of them
    return delete(timers).where(_PENDING_IN_ROOM, timers.c.kind.in_(literal(k) for k in kinds))


def set_timer(
    db: Connection,
    room_id: int,
    kind: str,
    due_at: datetime,
    game_id: int | None = None,
    version: int | None = None,
    payload: dict[str, Any] | None = None,
) -> int:
    cancel_timers(db, room_id, (kind,))
    timer_id = db.scalar(
        insert(timers)
        .values(
            room_id=room_id,
            game_id=game_id,
            kind=kind,
            due_at=due_at,
            version=version,
            payload=payload or {},
        )
        .returning(timers.c.id)
    )
    assert timer_id is not None
    return timer_id


def cancel_timers(db: Connection, room_id: int, kinds: tuple[str, ...]) -> int:
    if kinds and ALL not in kinds:
        result = db.execute(_cancel_kinds(tuple(kinds)), {"room_id": room_id})
    else:
        result = db.execute(_CANCEL_ALL, {"room_id": room_id})
    return result.rowcount or 0


def apply_plan(db: Connection, room_id: int, game_id: int, version: int, plan: TimerPlan) -> None:
    if plan.restamp:
        db.execute(
            update(timers)
            .where(
                (timers.c.room_id == room_id)
                & (timers.c.game_id == game_id)
                & timers.c.fired_at.is_(None)
                & timers.c.version.is_not(None)
            )
            .values(version=version)
        )
    kinds = {kind for kind, _, _ in plan.set}
    cancel = plan.cancel
    if ALL not in cancel:
        cancel = tuple(sorted(set(cancel) | kinds))  # a timer set again replaces the old
    if cancel:
        cancel_timers(db, room_id, cancel)
    if plan.set:
        db.execute(
            _SET,
            [
                {
                    "room_id": room_id,
                    "game_id": game_id,
                    "kind": kind,
                    "due_at": due_at,
                    "version": version,
                    "payload": payload,
                }
                for kind, due_at, payload in plan.set
            ],
        )
