"""The world of the Discord end-to-end tests: the fake Discord with the test guild and its
channel, the real program against it, and the people of the table."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.doors.discord.driver import (
    CHANNEL,
    GUILD,
    BotProcess,
    Table,
    answer_problems,
    leaked_tiles,
    public_moves,
)
from tests.doors.discord.fake_discord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        server.guild(GUILD, "Dominó del barrio", locale="en-US")
        server.text_channel(GUILD, CHANNEL, "dominoes")
        yield server


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(fake, tmp_path)
    await process.start()
    yield process
    await process.stop()
    assert "Traceback" not in process.log(), process.log()
    assert not leaked_tiles(fake)  # nothing in the channel ever showed a hidden tile
    assert not public_moves(fake)  # nor a hand's buttons
    # nor its log, read at DEBUG (issue 32, 5: discord.py logs each payload there)
    assert "Your tiles" not in process.log()


@pytest.fixture
async def table(fake: FakeDiscord) -> AsyncIterator[Table]:
    people = Table(fake)
    yield people
    # every interaction was answered once, in time
    assert not answer_problems(fake, people.interactions)
