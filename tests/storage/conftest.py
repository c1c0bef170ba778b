"""Every storage test runs on SQLite, and on PostgreSQL when ``TEST_DATABASE_URL`` names
one (``.ci/run`` sets it to the server on 127.0.0.1); without it those runs are skipped."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from storage.database import database_url
from storage.store import Store

POSTGRES = os.environ.get("TEST_DATABASE_URL")
NOW = datetime(2026, 11, 22, 12, 0, 0)


async def reset_postgres(url: str) -> None:
    """An empty public schema (the CI database is the tests' own)."""
    engine = create_async_engine(database_url(url))
    async with engine.begin() as db:
        await db.execute(text("DROP SCHEMA public CASCADE"))
        await db.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


async def one_database(tmp_path: Path) -> str:
    """An empty database for several bot processes: PostgreSQL where TEST_DATABASE_URL
    names one (as a large bot runs), else an SQLite file (on a laptop)."""
    if POSTGRES:
        await reset_postgres(POSTGRES)
        return POSTGRES
    return f"sqlite:///{tmp_path / 'shared.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL to an empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    if not POSTGRES:
        pytest.skip("TEST_DATABASE_URL is not set")
    await reset_postgres(POSTGRES)
    return POSTGRES


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    opened = await Store.open(database)
    yield opened
    await opened.close()


@pytest.fixture
async def room(store: Store) -> int:
    community = await store.people.community("console", "local", NOW, "Casa")
    return (await store.people.room(community.id, "mesa", NOW)).id


@pytest.fixture
async def other_room(store: Store, room: int) -> int:
    community = await store.people.community("console", "local", NOW, "Casa")
    return (await store.people.room(community.id, "patio", NOW)).id
