"""SQLite's group commits: pieces of work committed together, a failing piece alone
refused, another process's write lock waited for without stopping the event loop."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import Connection, text

import storage.sqlite
from storage.database import open_database
from storage.errors import Conflict, Unavailable
from storage.sqlite import SQLiteDatabase


@pytest.fixture
async def database(tmp_path: Path):
    opened = open_database(f"sqlite:///{tmp_path / 'group.sqlite3'}")
    assert isinstance(opened, SQLiteDatabase)
    await opened.run(lambda db: db.execute(text("CREATE TABLE kept (n INTEGER PRIMARY KEY)")))
    yield opened
    await opened.close()


def keep(db: Connection, n: int) -> int:
    db.execute(text("INSERT INTO kept (n) VALUES (:n)"), {"n": n})
    return n


def keep_then_fail(db: Connection, n: int) -> int:
    keep(db, n)
    raise Conflict(f"{n} lost a race")


async def kept(database: SQLiteDatabase) -> list[int]:
    found = await database.run(lambda db: db.execute(text("SELECT n FROM kept ORDER BY n")))
    return [row.n for row in found]


async def test_a_failing_piece_is_refused_alone_and_the_others_are_kept(database) -> None:
    pieces = [database.run(keep_then_fail if n % 3 == 0 else keep, n) for n in range(30)]
    outcomes = await asyncio.gather(*pieces, return_exceptions=True)
    for n, outcome in enumerate(outcomes):
        if n % 3 == 0:
            assert isinstance(outcome, Conflict) and str(outcome) == f"{n} lost a race"
        else:
            assert outcome == n
    assert await kept(database) == [n for n in range(30) if n % 3]


async def test_pieces_asked_together_share_commits(database, monkeypatch) -> None:
    commits = 0
    original = Connection.commit

    def counted(self: Connection) -> None:
        nonlocal commits
        commits += 1
        original(self)

    monkeypatch.setattr(Connection, "commit", counted)
    assert await asyncio.gather(*(database.run(keep, n) for n in range(100))) == list(range(100))
    assert commits < 10  # one per group, not one per piece
    assert len(await kept(database)) == 100


async def test_another_process_holding_the_lock_is_waited_for(database, tmp_path) -> None:
    other = sqlite3.connect(tmp_path / "group.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    waiting = asyncio.create_task(database.run(keep, 1))
    for _ in range(20):  # the event loop keeps running other work meanwhile
        await asyncio.sleep(0.01)
    assert not waiting.done()  # the lock is still held: the work waits for it
    other.execute("COMMIT")
    assert await waiting == 1
    other.close()


async def test_a_lock_held_too_long_is_unavailable(database, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(storage.sqlite, "LOCK_WAIT", 0.2)
    other = sqlite3.connect(tmp_path / "group.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(Unavailable):
        await database.run(keep, 1)
    other.execute("ROLLBACK")
    other.close()
    assert await database.run(keep, 2) == 2  # and it recovers by itself
    assert await kept(database) == [2]


async def test_long_work_runs_apart_between_groups(database) -> None:
    results = await asyncio.gather(
        database.run(keep, 1), database.run_apart(keep, 2), database.run(keep, 3)
    )
    assert results == [1, 2, 3]
    assert await kept(database) == [1, 2, 3]


async def test_work_after_closing_is_unavailable(database) -> None:
    await database.close()
    with pytest.raises(Unavailable):
        await database.run(keep, 1)
