"""Migrations build exactly the schema of storage/schema.py, from an empty database and
from every earlier revision; a database newer than the program is refused by name."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

from storage.database import open_engine
from storage.errors import StorageError
from storage.migrate import alembic_config, current, head, upgrade
from storage.schema import metadata
from storage.store import Store


async def differences(url: str) -> list:
    engine = open_engine(url)
    async with engine.connect() as db:
        found = await db.run_sync(
            lambda sync: compare_metadata(
                MigrationContext.configure(sync, opts={"compare_server_default": True}), metadata
            )
        )
    await engine.dispose()
    return found


async def test_an_empty_database_gets_the_whole_schema(database: str) -> None:
    store = await Store.open(database)
    assert await current(store.engine) == head()
    await store.close()
    assert await differences(database) == []


def revisions() -> list[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return [s.revision for s in reversed(list(script.walk_revisions()))]


@pytest.mark.parametrize("start", revisions())
async def test_every_earlier_revision_upgrades_to_the_schema(database: str, start: str) -> None:
    engine = open_engine(database)
    await upgrade(engine, start)
    assert await current(engine) == start
    await upgrade(engine)  # what the program does at start
    assert await current(engine) == head()
    await engine.dispose()
    assert await differences(database) == []


async def test_opening_twice_changes_nothing(database: str) -> None:
    for _ in range(2):
        store = await Store.open(database)
        await store.close()
    assert await differences(database) == []


async def test_a_newer_schema_is_refused_with_its_revision(database: str) -> None:
    store = await Store.open(database)
    async with store.engine.begin() as db:
        await db.execute(text("UPDATE alembic_version SET version_num = 'from_the_future'"))
    await store.close()
    with pytest.raises(StorageError, match=r"from_the_future.*newer than this program"):
        await Store.open(database)
