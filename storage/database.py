"""Opening the database and running work on it, one transaction at a time.

``DATABASE_URL`` unset means an SQLite file under ./data/. SQLite runs in WAL mode with
``synchronous=FULL``: a commit returns only once the log is on disk, so a move reported
saved survives a power cut, not just a crash of the program (docs/storage.md).

Repositories hand :meth:`Database.run` a plain function of a SQLAlchemy ``Connection``:
the whole function is one transaction. On SQLite it runs on the database's own thread,
start to commit in one go (storage/sqlite.py); on PostgreSQL it runs on an asyncpg
connection through SQLAlchemy's ``run_sync``. Why not aiosqlite: it sends every
statement to its thread and back through the event loop, so a busy loop stretched each
transaction over many of its turns while the one SQLite connection waited; offered 500
commands a second, the service managed 65 (bench/service.py, docs/storage.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, exc
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from storage.errors import StorageError, Unavailable
from storage.feed import Feed, PostgreSQLFeed

DEFAULT_PATH = Path("data") / "domino.sqlite3"
UNAVAILABLE = "the database is not answering; try again shortly"

T = TypeVar("T")


def database_url(url: str | None = None) -> str:
    """The URL to use: ``url``, else ``DATABASE_URL``, else the SQLite file under ./data/.
    Plain ``postgresql://`` and ``sqlite://`` URLs get the drivers this program uses
    (asyncpg; the standard library's sqlite3)."""
    url = url or os.environ.get("DATABASE_URL") or ""
    if not url:
        private_directory(DEFAULT_PATH.parent)
        return f"sqlite+pysqlite:///{DEFAULT_PATH}"
    try:
        parsed = make_url(url)
    except Exception as error:  # sqlalchemy.exc.ArgumentError and friends
        raise StorageError(f"DATABASE_URL is not a database URL: {error}") from None
    backend = parsed.get_backend_name()
    if backend == "postgresql" and parsed.drivername != "postgresql+asyncpg":
        parsed = parsed.set(drivername="postgresql+asyncpg")
    elif backend == "sqlite" and parsed.drivername != "sqlite+pysqlite":
        parsed = parsed.set(drivername="sqlite+pysqlite")
    elif backend not in ("postgresql", "sqlite"):
        raise StorageError(f"DATABASE_URL must be SQLite or PostgreSQL, not {backend}")
    if backend == "sqlite" and parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    return parsed.render_as_string(hide_password=False)


def private_directory(path: Path) -> None:
    """``path`` made if missing, and readable by this user only: the database in it
    holds every hand in play."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    path.chmod(0o700)


def shown_url(url: str) -> str:
    """``url`` as a message may show it: without its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "DATABASE_URL"


def reason(error: BaseException) -> str:
    """Why ``error`` happened, in the driver's words: one line, and never the statement
    or its parameters (a snapshot holds hidden tiles)."""
    cause: BaseException = error
    while True:
        if isinstance(cause, exc.DBAPIError) and cause.orig is not None:
            cause = cause.orig
        elif isinstance(cause, StorageError) and cause.__cause__ is not None:
            cause = cause.__cause__
        else:
            break
    lines = str(cause).strip().splitlines()
    return lines[0] if lines else type(cause).__name__


class Database:
    """Where the repositories' work runs. ``dialect`` is "sqlite" or "postgresql";
    ``feed``: what its writers announce as they commit (storage/feed.py)."""

    dialect: str
    feed: Feed

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(connection, *args)`` as one transaction: committed when it returns,
        rolled back if it raises. A database that does not answer raises
        :class:`Unavailable`."""
        raise NotImplementedError

    async def run_apart(self, work: Callable[..., T], *args: Any) -> T:
        """:meth:`run`, for work that may take long: it must not hold up the rest."""
        return await self.run(work, *args)

    async def close(self) -> None:
        raise NotImplementedError


class PostgreSQLDatabase(Database):
    dialect = "postgresql"

    def __init__(self, url: str) -> None:
        # hide_parameters: a failing statement's error names no value (a snapshot holds
        # the hidden tiles), in the log or anywhere else
        self._engine: AsyncEngine = create_async_engine(
            url, pool_pre_ping=True, hide_parameters=True
        )
        _args, connect = self._engine.dialect.create_connect_args(self._engine.url)
        self.feed = PostgreSQLFeed(connect)

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        with unavailable_when_unreachable():
            async with self._engine.begin() as connection:
                return await connection.run_sync(work, *args)

    async def close(self) -> None:
        await self.feed.close()
        await self._engine.dispose()


def open_database(url: str | None = None) -> Database:
    try:
        url = database_url(url)
    except OSError as error:  # its directory cannot be made
        raise StorageError(f"the database's directory cannot be made: {error}") from None
    if url.startswith("sqlite"):
        from storage.sqlite import SQLiteDatabase  # it builds on this module

        return SQLiteDatabase(url)
    return PostgreSQLDatabase(url)


# Work for Database.run. ``params`` fill a prepared statement's bindparam()s: the hot
# paths build their statements once, as SQLAlchemy spends more time building and keying
# a statement than SQLite spends running it.


def first(db: Connection, query: Any, params: dict[str, Any] | None = None) -> Any:
    """The query's first row, or None."""
    return db.execute(query, params).first()


def rows(db: Connection, query: Any, params: dict[str, Any] | None = None) -> list[Any]:
    """The query's rows."""
    return list(db.execute(query, params))


def scalar(db: Connection, query: Any, params: dict[str, Any] | None = None) -> Any:
    """The query's first column of its first row, or None."""
    return db.scalar(query, params)


def changed(db: Connection, statement: Any, params: dict[str, Any] | None = None) -> int:
    """How many rows the statement changed."""
    return db.execute(statement, params).rowcount


def utcnow() -> datetime:
    """Now, as stored: UTC without a zone."""
    return datetime.now(UTC).replace(tzinfo=None)


@contextmanager
def unavailable_when_unreachable() -> Iterator[None]:
    """Errors that mean "the database is not answering" become :class:`Unavailable`;
    every other error passes unchanged."""
    try:
        yield
    except exc.DBAPIError as error:
        if error.connection_invalidated or _unreachable(error):
            raise Unavailable(UNAVAILABLE) from error
        raise
    except (OSError, TimeoutError) as error:
        raise Unavailable(UNAVAILABLE) from error


def _unreachable(error: exc.DBAPIError) -> bool:
    text = str(error.orig).lower()
    return isinstance(error, exc.InterfaceError | exc.OperationalError) and any(
        word in text for word in ("connect", "closed", "terminat", "timeout", "refused", "locked")
    )
