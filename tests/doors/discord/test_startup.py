"""Starting the Discord bot: a token Discord refuses stops the program with one line, and
an address that does not answer is tried again until it does."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from tests.doors.discord.fake_discord import FakeDiscord


def _env(fake: FakeDiscord, home: Path, **more: str) -> dict[str, str]:
    return {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE_URL": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "TELEGRAM_TOKEN": "",
        "DATABASE_URL": f"sqlite:///{home / 'bot.sqlite3'}",
        "LOG_LEVEL": "WARNING",
        **more,
    }


def _read(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


async def test_a_refused_token_stops_the_program_with_one_line(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path,
            env=_env(fake, tmp_path, DISCORD_TOKEN="not-the-token"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and re.search(r"DISCORD_TOKEN \S* ?was refused", lines[0]), lines
    assert "not-the-token" not in err.decode() + out.decode()  # its last four at most
    assert "Traceback" not in out.decode()


async def test_an_unreachable_discord_is_tried_again(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on, until the fake takes it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    fake = FakeDiscord()
    env = _env(fake, tmp_path)
    env["DISCORD_API_BASE_URL"] = f"http://127.0.0.1:{port}/api/v10"
    env["DISCORD_GATEWAY_URL"] = f"ws://127.0.0.1:{port}/gateway"
    log = (tmp_path / "bot.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, stdout=log, stderr=log
    )
    try:
        # its first try is refused (the log says so), however long its start took
        await fake.wait_for(
            lambda: process.poll() is not None or "not reachable" in _read(tmp_path / "bot.log"),
            timeout=60,
            what="a refused connection in the log",
        )
        assert process.poll() is None, _read(tmp_path / "bot.log")
        await fake.start(port=port)
        fake.guild(1 << 22, "Dominó")
        await fake.wait_for(fake.connected_shards, timeout=30, what="the bot connected")
        assert "not reachable" in (tmp_path / "bot.log").read_text()
    finally:
        process.terminate()
        process.wait(timeout=30)
        await fake.stop()
    assert "Traceback" not in (tmp_path / "bot.log").read_text()
