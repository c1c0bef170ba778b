"""Migrations build exactly the schema of storage/schema.py, from an empty database and
from every earlier revision; a database newer than the program is refused by name."""

from __future__ import annotations

import asyncio
import sys
from datetime import datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, insert, text

from storage.database import open_database
from storage.errors import StorageError
from storage.migrate import alembic_config, current, head, upgrade
from storage.schema import metadata
from storage.store import Store

tables = metadata.tables  # the columns these tables had at 0005 are the same today


async def differences(url: str) -> list:
    database = open_database(url)
    found = await database.run(
        lambda sync: compare_metadata(
            MigrationContext.configure(sync, opts={"compare_server_default": True}), metadata
        )
    )
    await database.close()
    return found


async def test_an_empty_database_gets_the_whole_schema(database: str) -> None:
    store = await Store.open(database)
    assert await current(store.database) == head()
    await store.close()
    assert await differences(database) == []


def revisions() -> list[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return [s.revision for s in reversed(list(script.walk_revisions()))]


@pytest.mark.parametrize("start", revisions())
async def test_every_earlier_revision_upgrades_to_the_schema(database: str, start: str) -> None:
    opened = open_database(database)
    await upgrade(opened, start)
    assert await current(opened) == start
    await upgrade(opened)  # what the program does at start
    assert await current(opened) == head()
    await opened.close()
    assert await differences(database) == []


async def test_opening_twice_changes_nothing(database: str) -> None:
    for _ in range(2):
        store = await Store.open(database)
        await store.close()
    assert await differences(database) == []


async def test_processes_starting_together_on_a_new_database_take_turns(database: str) -> None:
    """Four processes opening an empty database at once: one migrates, the others find the
    schema done; none fails."""
    program = (
        "import asyncio, sys\n"
        "from storage.store import Store\n"
        "async def main():\n"
        "    store = await Store.open(sys.argv[1])\n"
        "    await store.close()\n"
        "asyncio.run(main())\n"
    )
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-c", program, database, stderr=asyncio.subprocess.PIPE
        )
        for _ in range(4)
    ]
    for process in processes:
        _, err = await process.communicate()
        assert process.returncode == 0, err.decode()
    assert await differences(database) == []


async def test_a_newer_schema_is_refused_with_its_revision(database: str) -> None:
    store = await Store.open(database)
    await store.database.run(
        lambda db: db.execute(text("UPDATE alembic_version SET version_num = 'from_the_future'"))
    )
    await store.close()
    with pytest.raises(StorageError, match=r"from_the_future.*newer than this program"):
        await Store.open(database)


async def test_a_game_saved_before_game_hands_keeps_its_whole_record(database: str) -> None:
    """A snapshot written before revision 0006 holds the whole record; after the upgrade
    it is still the game's whole record."""
    opened = open_database(database)
    await upgrade(opened, "0005")
    record = {
        "format": "domino-record/1",
        "rules": {"preset": "draw", "options": {}},
        "players": ["Ana", "Beto"],
        "hands": [{"seed": 1, "moves": []}],
    }

    def older_game(db: Connection) -> None:
        now = datetime(2026, 11, 22)
        db.execute(
            insert(tables["communities"]).values(
                id=1, platform="console", platform_id="local", created_at=now
            )
        )
        db.execute(
            insert(tables["rooms"]).values(
                id=1, community_id=1, platform_id="mesa", settings={}, created_at=now
            )
        )
        db.execute(
            insert(tables["games"]).values(
                id=1,
                room_id=1,
                preset="draw",
                status="playing",
                seats=[],
                snapshot={"record": record, "meta": {}},
                version=3,
                plies=0,
                created_at=now,
                updated_at=now,
            )
        )

    await opened.run(older_game)
    await opened.close()
    store = await Store.open(database)
    try:
        assert await store.games.record(1) == record
    finally:
        await store.close()
