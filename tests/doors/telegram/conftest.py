"""The fake Telegram with the group of the end-to-end tests, and the real program polling
it (its tracebacks checked at the stop)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.doors.telegram.driver import GROUP, BotProcess
from tests.doors.telegram.fake_api import FakeTelegram


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        fake.group(GROUP, "Dominó del barrio")
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = await BotProcess(tg, tmp_path).polling()
    yield process
    await process.stop()
    assert not process.tracebacks(), process.tracebacks()
    # no private hand in its log, read at DEBUG (issue 32, 5)
    assert "Your tiles" not in process.log()
