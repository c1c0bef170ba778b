from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.store import Store
from tests.storage.conftest import POSTGRES, reset_postgres


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    yield opened
    await opened.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    else:
        if not POSTGRES:
            pytest.skip("TEST_DATABASE_URL is not set")
        await reset_postgres(POSTGRES)
        url = POSTGRES
    opened = await Store.open(url)
    yield opened
    await opened.close()
