"""SQLite: one connection, used on the event loop's thread, committing in groups.

Work queued here runs a group at a time: whatever is waiting when the group starts (up
to :data:`GROUP` pieces), then one commit for the lot, so one wait for the disk
(``synchronous=FULL``) serves every piece. Nobody hears of a result before the commit
that makes it durable. A piece that raises gets its error and the others run again
without it, in a new transaction: so a piece of work must only touch the connection
(running it again is then safe, as nothing of it was reported).

The statements and the commit run on the event loop's thread. That blocks the loop for
as long as SQLite takes, which is little: a save is under a millisecond of SQL, a commit
0.3 ms (1.5 ms at the 99th percentile) on the machine measured. Handing them to another
thread cost more than it saved: that thread waits for the interpreter's lock while the
loop runs Python, and the median command took 6 ms instead of 2 (bench/service.py,
docs/storage.md). Work that may take long (leaderboards, ratings replayed, "forget me",
migrations) goes through :meth:`SQLiteDatabase.run_apart` and runs whole on a thread of
its own, while the loop waits for it without blocking.

Transactions begin with ``BEGIN IMMEDIATE``: the write lock is taken before the first
read, so a transaction that reads and then writes cannot be refused half-way by another
process's write, as SQLite's deferred transactions can be. Another process holding the
lock is waited for without blocking the event loop, for up to :data:`LOCK_WAIT` seconds.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, create_engine, event, exc
from sqlalchemy.engine import make_url

from storage.database import UNAVAILABLE, Database, unavailable_when_unreachable
from storage.errors import Unavailable
from storage.feed import Feed, committed, forget_announced

T = TypeVar("T")
GROUP = 64  # pieces of work committed together at most
LOCK_WAIT = 10.0  # seconds another process may hold the write lock before "try again"


@dataclass(frozen=True)
class _Work:
    run: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    apart: bool  # run whole on the other thread


Outcome = tuple[bool, Any]  # (True, result) or (False, the exception)


class SQLiteDatabase(Database):
    dialect = "sqlite"

    def __init__(self, url: str) -> None:
        # The one connection is used by one thread at a time: the event loop's, or the
        # other thread while the loop waits for it (run_apart).
        # hide_parameters: a failing statement's error names no value (a snapshot holds
        # the hidden tiles), in the log or anywhere else
        self._engine = create_engine(
            url,
            pool_size=1,
            max_overflow=0,
            connect_args={"check_same_thread": False},
            hide_parameters=True,
        )
        event.listen(self._engine, "connect", _connected)
        path = make_url(url).database
        if path and path != ":memory:":
            files = [Path(path + suffix) for suffix in ("", "-wal", "-shm")]
            event.listen(self._engine, "connect", lambda *_: _private(files))
        event.listen(self._engine, "begin", _begin)
        self._connection: Connection | None = None
        self._waiting: deque[_Work] = deque()
        self._worker: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-apart")
        self._closed = False
        self.feed = Feed()  # one process: told in memory, after each commit

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        return await self._queue(work, args, apart=False)

    async def run_apart(self, work: Callable[..., T], *args: Any) -> T:
        return await self._queue(work, args, apart=True)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self.feed.close()
        if self._worker is not None:
            await self._worker
        connection, self._connection = self._connection, None
        loop = asyncio.get_running_loop()
        if connection is not None:
            await loop.run_in_executor(self._thread, connection.close)
        await loop.run_in_executor(self._thread, self._engine.dispose)
        self._thread.shutdown(wait=True)

    async def _queue(self, work: Callable[..., T], args: tuple[Any, ...], apart: bool) -> T:
        if self._closed:
            raise Unavailable(UNAVAILABLE)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._waiting.append(_Work(work, args, future, apart))
        if self._worker is None or self._worker.done():
            self._worker = loop.create_task(self._serve())
        return await future

    async def _serve(self) -> None:
        while self._waiting:
            if self._waiting[0].apart:
                work = self._waiting.popleft()
                _settle([work], [await self._apart(work)])
                continue
            group: list[_Work] = []
            while self._waiting and not self._waiting[0].apart and len(group) < GROUP:
                group.append(self._waiting.popleft())
            _settle(group, await self._commit(group))

    async def _commit(self, group: list[_Work]) -> list[Outcome]:
        outcomes: dict[int, Outcome] = {}
        pending = list(range(len(group)))
        while pending:
            try:
                connection = await self._begin()
            except Exception as error:
                return _all_failed(group, outcomes, pending, error)
            done: dict[int, Any] = {}
            try:
                for i in pending:
                    done[i] = _call(connection, group[i])
            except Unavailable as error:
                self._abandon(connection)
                return _all_failed(group, outcomes, pending, error)
            except Exception as error:
                # undo the lot and run the others again without the piece that failed:
                # cheaper than a savepoint around every piece, as pieces rarely fail
                self._abandon(connection)
                failed = pending[len(done)]
                outcomes[failed] = (False, error)
                pending.remove(failed)
                continue
            try:
                with unavailable_when_unreachable():
                    connection.commit()
            except Exception as error:  # not committed: nothing of it was kept
                self._abandon(connection)
                return _all_failed(group, outcomes, pending, error)
            outcomes.update((i, (True, result)) for i, result in done.items())
            self.feed.tell(committed(connection))
            break
        return [outcomes[i] for i in range(len(group))]

    async def _apart(self, work: _Work) -> Outcome:
        try:
            connection = await self._begin()
        except Exception as error:
            return False, error

        def whole() -> Any:
            result = _call(connection, work)
            with unavailable_when_unreachable():
                connection.commit()
            return result

        try:
            result = await asyncio.get_running_loop().run_in_executor(self._thread, whole)
        except Exception as error:
            self._abandon(connection)
            return False, error
        self.feed.tell(committed(connection))
        return True, result

    async def _begin(self) -> Connection:
        """The connection, in a transaction holding the write lock."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LOCK_WAIT
        pause = 0.002
        while True:
            with unavailable_when_unreachable():
                if self._connection is None:
                    self._connection = self._engine.connect()
                connection = self._connection
            try:
                connection.begin()
                forget_announced(connection)  # of a transaction rolled back
                return connection
            except exc.OperationalError as error:
                if not _busy(error) or loop.time() + pause > deadline:
                    self._abandon(connection)
                    raise Unavailable(UNAVAILABLE) from error
            await asyncio.sleep(pause)  # another process writes: wait, letting others run
            pause = min(2 * pause, 0.1)

    def _abandon(self, connection: Connection) -> None:
        """After a failure: roll back, and start on a new connection if this one broke."""
        try:
            connection.rollback()
        except Exception:
            with suppress(Exception):
                connection.invalidate()
        if connection.invalidated:
            self._connection = None


def _call(connection: Connection, work: _Work) -> Any:
    with unavailable_when_unreachable():
        return work.run(connection, *work.args)


def _all_failed(
    group: list[_Work], outcomes: dict[int, Outcome], pending: list[int], error: Exception
) -> list[Outcome]:
    outcomes.update((i, (False, error)) for i in pending)
    return [outcomes[i] for i in range(len(group))]


def _settle(group: list[_Work], outcomes: list[Outcome]) -> None:
    for work, (ok, value) in zip(group, outcomes, strict=True):
        if work.future.cancelled():
            continue
        if ok:
            work.future.set_result(value)
        else:
            work.future.set_exception(value)


def _busy(error: exc.OperationalError) -> bool:
    text = str(error.orig).lower()
    return "locked" in text or "busy" in text


def _connected(connection: Any, _record: object) -> None:
    # The sqlite3 module's own transaction handling would begin transactions late and
    # break savepoints; SQLAlchemy's recipe: switch it off and begin in _begin.
    connection.isolation_level = None
    cursor = connection.cursor()
    cursor.execute("PRAGMA busy_timeout=10000")  # for the settings, made once
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=0")  # then _begin waits, letting the loop run
    cursor.close()


def _private(files: list[Path]) -> None:
    """The database's files readable by this user only: they hold every hand in play.
    (SQLite gives its -wal and -shm files the database's own mode.)"""
    for file in files:
        with suppress(FileNotFoundError):
            file.chmod(0o600)


def _begin(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")
