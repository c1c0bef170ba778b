"""The Telegram bot end to end: the real program and the real python-telegram-bot against
the fake Bot API, from /new to the leaderboard."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.telegram.driver import GROUP, BotProcess, Table, buttons
from tests.telegram.fake_api import FakeTelegram


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        fake.group(GROUP, "Dominó del barrio")
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(tg, tmp_path)
    process.start()
    await tg.wait_calls("getUpdates", timeout=30)
    yield process
    await process.stop()
    assert "Traceback" not in process.log(), process.log()


async def test_four_people_play_partnership_to_the_leaderboard(tg, bot) -> None:
    table = Table(tg)
    for i, name in enumerate(["Ana", "Beto", "Carla", "Dani"]):
        table.person(name, 101 + i)
    await table.say("Ana", "/new partnership 50")
    for name in ["Beto", "Carla", "Dani"]:
        await table.say(name, f"/join@{tg.username}")
    await table.say("Ana", "/begin")
    await tg.wait_for(table.board, what="the board")
    moves = await table.play_out()
    assert moves >= 10
    board = table.board()
    assert board is not None and not buttons(board)
    assert len([m for m in tg.sent_to(GROUP) if m.get("photo")]) <= 2  # edited, not reposted
    await table.say("Beto", "/top")
    assert any(m.get("photo") for m in tg.sent_to(GROUP)[-2:])  # the leaderboard picture
    commands = tg.calls_to("setMyCommands")
    assert {c.params.get("language_code") for c in commands} >= {None, "es", "en", "pt"}
