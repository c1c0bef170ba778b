"""Starting the Telegram bot (issue 33, 12): a token that cannot be one stops the program
with one line before anything is tried; a Telegram that does not answer is tried again,
each try one WARNING line saying where, why and when the next one is, until it answers."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from tests.doors.telegram.driver import BotProcess
from tests.doors.telegram.fake_api import FakeTelegram
from tests.program import RECORD

RETRY = re.compile(
    r"^WARNING bot\.doors\.telegram\.app: telegram: 127\.0\.0\.1:\d+ is not reachable \(.+\);"
    r" not serving Telegram until it answers; trying again in (\d+) s$"
)


async def test_a_token_that_cannot_be_one_stops_the_program_with_one_line(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env={
            **os.environ,
            "TELEGRAM_TOKEN": "abc",
            "DISCORD_TOKEN": "",
            "TELEGRAM_BASE_URL": "http://127.0.0.1:9/bot",  # never asked
            "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.sqlite3'}",
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(".env: TELEGRAM_TOKEN: is the token"), lines
    assert not out


async def test_an_unreachable_telegram_is_tried_again_and_said_so(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on, until the fake takes it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    fake = FakeTelegram()
    process = BotProcess(fake, tmp_path, LOG_LEVEL="WARNING")
    process.launch(
        {
            "TELEGRAM_TOKEN": fake.token,
            "TELEGRAM_BASE_URL": f"http://127.0.0.1:{port}/bot",
            "TELEGRAM_BASE_FILE_URL": f"http://127.0.0.1:{port}/file/bot",
            "TELEGRAM_POLL_TIMEOUT": "1",
            "DISCORD_TOKEN": "",
        }
    )

    def retries() -> list[int]:
        lines = [RETRY.match(line) for line in process.log().splitlines()]
        return [int(m.group(1)) for m in lines if m]

    try:
        # two tries refused, each said in one line, the pause doubling
        await fake.wait_for(
            lambda: process.process.poll() is not None or len(retries()) >= 2,
            timeout=60,
            what="two refused tries in the log",
        )
        assert process.process.poll() is None, process.log()
        assert retries()[:2] == [1, 2], process.log()
        await fake.start(port=port)
        await fake.wait_calls("getUpdates", timeout=60)  # it answered: the bot serves
    finally:
        await process.stop()
        await fake.stop()
    records = [line for line in process.log().splitlines() if RECORD.match(line)]
    assert all(RETRY.match(line) for line in records), records  # nothing else went wrong
    assert not process.tracebacks() and "Traceback" not in process.log()
