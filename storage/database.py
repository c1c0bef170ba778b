"""Opening the database: the URL, SQLite's durability settings, migrations at start.

``DATABASE_URL`` unset means an SQLite file under ./data/. SQLite runs in WAL mode with
``synchronous=FULL``: a commit returns only once the log is on disk, so a move reported
saved survives a power cut, not just a crash of the program (docs/storage.md).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import event, exc
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from storage.errors import StorageError, Unavailable

DEFAULT_PATH = Path("data") / "domino.sqlite3"


def database_url(url: str | None = None) -> str:
    """The URL to use: ``url``, else ``DATABASE_URL``, else the SQLite file under ./data/.
    Plain ``postgresql://`` and ``sqlite://`` URLs get their async drivers."""
    url = url or os.environ.get("DATABASE_URL") or ""
    if not url:
        DEFAULT_PATH.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{DEFAULT_PATH}"
    try:
        parsed = make_url(url)
    except Exception as error:  # sqlalchemy.exc.ArgumentError and friends
        raise StorageError(f"DATABASE_URL is not a database URL: {error}") from None
    backend = parsed.get_backend_name()
    if backend == "postgresql" and parsed.drivername != "postgresql+asyncpg":
        parsed = parsed.set(drivername="postgresql+asyncpg")
    elif backend == "sqlite" and parsed.drivername != "sqlite+aiosqlite":
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    elif backend not in ("postgresql", "sqlite"):
        raise StorageError(f"DATABASE_URL must be SQLite or PostgreSQL, not {backend}")
    if backend == "sqlite" and parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    return parsed.render_as_string(hide_password=False)


def open_engine(url: str | None = None) -> AsyncEngine:
    url = database_url(url)
    if url.startswith("sqlite"):
        # One connection: SQLite takes one writer at a time anyway, and transactions
        # queued here wait their turn at once, where several connections would meet
        # at SQLite's lock and back off by sleeping (other processes still do).
        engine = create_async_engine(url, pool_size=1, max_overflow=0, pool_timeout=60)
    else:
        engine = create_async_engine(url, pool_pre_ping=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_settings)
    return engine


def _sqlite_settings(connection: object, _record: object) -> None:
    cursor = connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")  # another process's write: wait, not fail
    cursor.close()


def utcnow() -> datetime:
    """Now, as stored: UTC without a zone."""
    return datetime.now(UTC).replace(tzinfo=None)


@asynccontextmanager
async def transaction(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """One transaction: committed when the block ends, rolled back if it raises. A
    database that does not answer becomes :class:`Unavailable`."""
    try:
        async with engine.begin() as connection:
            yield connection
    except exc.DBAPIError as error:
        if error.connection_invalidated or _unreachable(error):
            raise Unavailable("the database is not answering; try again shortly") from error
        raise
    except (OSError, TimeoutError) as error:
        raise Unavailable("the database is not answering; try again shortly") from error


def _unreachable(error: exc.DBAPIError) -> bool:
    text = str(error.orig).lower()
    return isinstance(error, exc.InterfaceError | exc.OperationalError) and any(
        word in text for word in ("connect", "closed", "terminat", "timeout", "refused", "locked")
    )
