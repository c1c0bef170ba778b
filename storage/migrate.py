"""Bring the database's schema up to this program's, at start.

A database migrated by a newer program (a revision this one does not know) is refused
with a message that says so, instead of running on a schema the code does not match.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection

from storage.database import Database
from storage.errors import StorageError

MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATION_LOCK = 0x646F6D696E6F  # "domino": the advisory lock migrations take on PostgreSQL


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


async def upgrade(database: Database, revision: str = "head") -> None:
    """Migrate to ``revision`` (default: this program's newest)."""
    await database.run_apart(_upgrade, revision)


async def current(database: Database) -> str | None:
    return await database.run(_current)


def _current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def _upgrade(connection: Connection, revision: str) -> None:
    if connection.dialect.name == "postgresql":
        # Processes started together on a new database take turns: the first migrates, the
        # others then find the schema at its revision. (SQLite's BEGIN IMMEDIATE already
        # lets one writer at a time in.) The lock ends with the transaction.
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    config = alembic_config()
    found = _current(connection)
    known = {s.revision for s in ScriptDirectory.from_config(config).walk_revisions()}
    if found is not None and found not in known:
        raise StorageError(
            f"the database's schema (revision {found}) is newer than this program knows"
            f" (its newest is {head()}); run the newer program, or restore a backup"
        )
    config.attributes["connection"] = connection
    command.upgrade(config, revision)
