"""Sliding windows of sends per chat, kept in the database: every process serving a
group, and the process started after one was killed, count the same messages."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from storage.database import Database
from storage.schema import sends

SHORTEST_WAIT = 0.01  # seconds; rounding can make the wait for a full window read 0


class SendRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    async def take(
        self, chat: str, limit: int, period: float, now: float, sent_alone: Sequence[float] = ()
    ) -> tuple[float, tuple[float, ...]]:
        """Count a send to ``chat`` at ``now`` (seconds) if fewer than ``limit`` were
        counted in the ``period`` before: then the wait is 0. Otherwise nothing is counted
        and the wait is how long until enough have left the window. ``sent_alone``: sends
        a process counted by itself while the database was away, added first. The answer
        is the wait and the window's stamps after."""
        return await self._db.run(_take, chat, limit, period, now, tuple(sent_alone))


def _take(
    db: Connection, chat: str, limit: int, period: float, now: float, sent_alone: tuple[float, ...]
) -> tuple[float, tuple[float, ...]]:
    insert = postgresql_insert if db.dialect.name == "postgresql" else sqlite_insert
    # the row exists before it is locked, so two processes wait on the same row
    db.execute(insert(sends).values(chat=chat, stamps=[]).on_conflict_do_nothing())
    found = db.scalar(select(sends.c.stamps).where(sends.c.chat == chat).with_for_update())
    stamps = sorted(
        s for s in [*(found or []), *sent_alone] if isinstance(s, int | float) and s > now - period
    )
    if len(stamps) >= limit:
        if sent_alone:
            db.execute(update(sends).where(sends.c.chat == chat).values(stamps=stamps))
        return max(SHORTEST_WAIT, stamps[-limit] + period - now), tuple(stamps)
    stamps.append(now)
    db.execute(update(sends).where(sends.c.chat == chat).values(stamps=stamps))
    return 0.0, tuple(stamps)
