"""The database URL and its failures: clear errors, never a traceback to a user."""

from __future__ import annotations

import pytest

from storage.database import database_url, open_database
from storage.errors import StorageError, Unavailable
from storage.people import PeopleRepository
from tests.storage.conftest import NOW


def test_urls_get_their_drivers(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    assert database_url() == "sqlite+pysqlite:///data/domino.sqlite3"
    assert (tmp_path / "data").is_dir()
    assert database_url("postgresql://u:p@h/db") == "postgresql+asyncpg://u:p@h/db"
    assert database_url("sqlite:///x.db") == "sqlite+pysqlite:///x.db"
    assert database_url("sqlite+aiosqlite:///x.db") == "sqlite+pysqlite:///x.db"
    monkeypatch.setenv("DATABASE_URL", "postgresql://h/env")
    assert database_url() == "postgresql+asyncpg://h/env"


@pytest.mark.parametrize("url", ["not a url", "mysql://h/db", "://"])
def test_a_bad_url_says_so(url: str) -> None:
    with pytest.raises(StorageError):
        database_url(url)


async def test_an_unreachable_database_is_unavailable() -> None:
    database = open_database("postgresql://postgres@127.0.0.1:9/nothing")  # nothing listens
    with pytest.raises(Unavailable):
        await database.run(lambda db: None)
    with pytest.raises(Unavailable):
        await PeopleRepository(database).user("console", "x", "X", NOW)
    await database.close()


async def test_a_closed_sqlite_database_is_unavailable(tmp_path) -> None:
    database = open_database(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    assert await database.run(lambda db: db.exec_driver_sql("select 1").scalar()) == 1
    await database.close()
    with pytest.raises(Unavailable):
        await database.run(lambda db: None)
