"""What the database shows of itself: a failing statement names none of its values (a
snapshot holds the hidden tiles), a database that cannot be opened says why in one line,
and its files are readable by this user only."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from storage.database import database_url, open_database
from storage.errors import StorageError, Unavailable
from storage.store import Store
from tests.storage.conftest import POSTGRES

HIDDEN = "6-4 5-5 in the boneyard"


async def test_a_failing_statement_names_none_of_its_values(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Store.open(database)

    def insert(db):  # type: ignore[no-untyped-def]
        db.execute(
            text("INSERT INTO games (id, snapshot) VALUES (:id, :snapshot)"),
            [
                {"id": 1, "snapshot": HIDDEN},
            ],
        )

    caplog.set_level(logging.DEBUG)
    with pytest.raises(Exception) as raised:
        await store.database.run(insert)
    await store.close()
    shown = [str(raised.value), repr(raised.value), caplog.text]
    assert not [s for s in shown if HIDDEN in s]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_its_directory_and_files_are_this_users_only(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    old = os.umask(0o022)  # as a shell leaves it
    try:
        (tmp_path / "data").mkdir(mode=0o755)  # as an older version made it
        store = await Store.open()
        await store.close()
    finally:
        os.umask(old)
    assert mode(tmp_path / "data") == 0o700
    files = list((tmp_path / "data").iterdir())
    assert tmp_path / "data" / "domino.sqlite3" in files
    assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}


async def test_a_file_made_readable_by_others_is_made_private_again(tmp_path) -> None:
    path = tmp_path / "bot.sqlite3"
    url = f"sqlite:///{path}"
    store = await Store.open(url)
    await store.close()
    for file in tmp_path.iterdir():
        file.chmod(0o644)
    store = await Store.open(url)
    await store.close()
    assert {f.name: mode(f) for f in tmp_path.iterdir()} == {
        f.name: 0o600 for f in tmp_path.iterdir()
    }


async def test_a_corrupt_file_says_so_in_one_line(tmp_path) -> None:
    path = tmp_path / "bot.sqlite3"
    path.write_bytes(b"not a database at all " * 400)
    with pytest.raises(StorageError) as raised:
        await Store.open(f"sqlite:///{path}")
    message = str(raised.value)
    assert "file is not a database" in message and "\n" not in message


async def test_an_unreachable_server_says_where_in_one_line() -> None:
    url = "postgresql://domino:s3cret-pw@127.0.0.1:9/nothing"  # nothing listens
    with pytest.raises(Unavailable) as raised:
        await Store.open(url)
    message = str(raised.value)
    assert "127.0.0.1:9" in message and "\n" not in message
    assert "s3cret-pw" not in message


@pytest.mark.skipif(not POSTGRES, reason="TEST_DATABASE_URL is not set")
async def test_a_role_that_does_not_exist_says_so_in_one_line() -> None:
    assert POSTGRES is not None
    server = make_url(POSTGRES)
    url = f"postgresql://nobody_at_all:pw@{server.host}:{server.port or 5432}/test"
    with pytest.raises(StorageError) as raised:
        await Store.open(url)
    message = str(raised.value)
    assert "nobody_at_all" in message and "\n" not in message and ":pw@" not in message


def test_a_directory_that_cannot_be_made_is_a_storage_error(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(StorageError):
        open_database(f"sqlite:///{blocker / 'sub' / 'bot.sqlite3'}")
    assert database_url(f"sqlite:///{tmp_path / 'new' / 'x.sqlite3'}")
    assert mode(tmp_path / "new") == 0o700
