"""The operator's view of the real program (issue 34): ``python -m bot`` in console mode
(as ``make run`` starts it) answers /healthz and /metrics on OPS_PORT; a command typed
moves its counter (refused ones as refused, a word that is no command as "unknown"); a
port taken is one WARNING line and the console still starts."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.doors.test_console import ConsoleProcess


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def start(home: Path, port: int) -> ConsoleProcess:
    """The console program, its standard error kept for the test."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{home / 'db.sqlite3'}",
        "CONSOLE_NAME": "Ana",
        "CONSOLE_LANGUAGE": "en",
        "PYTHONPATH": os.getcwd(),
        "OPS_PORT": str(port),
    }
    env.pop("TELEGRAM_TOKEN", None)
    env.pop("DISCORD_TOKEN", None)
    env.pop("OPS_HOST", None)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=home,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    console = ConsoleProcess(process)
    await console.wait()
    return console


async def fetch(port: int, path: str) -> tuple[int, str]:
    timeout = aiohttp.ClientTimeout(total=20)
    async with (
        aiohttp.ClientSession(timeout=timeout) as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def commands(port: int) -> dict[tuple[str, str, str], float]:
    """domino_commands_total by (platform, command, outcome)."""
    status, text = await fetch(port, "/metrics")
    assert status == 200
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "domino_commands_total":
                labels = sample.labels
                found[labels["platform"], labels["command"], labels["outcome"]] = sample.value
    return found


async def healthz_until(
    port: int, wanted: Callable[[int, dict[str, Any]], bool], timeout: float = 30
) -> tuple[int, dict[str, Any]]:
    """/healthz asked again until ``wanted(status, body)``, within ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen: tuple[int, dict[str, Any]] = (0, {})
    while loop.time() < deadline:
        try:
            status, body = await fetch(port, "/healthz")
            seen = status, json.loads(body)
        except OSError:  # not listening yet
            seen = (0, {})
        if wanted(*seen):
            return seen
        await asyncio.sleep(0.05)  # asking again, not waiting for time to pass
    raise AssertionError(f"/healthz never turned as wanted; last {seen}")


async def metrics_until(port: int, line: str, timeout: float = 30) -> str:
    """/metrics asked again until it shows ``line``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    text = ""
    while loop.time() < deadline:
        _status, text = await fetch(port, "/metrics")
        if line in text.splitlines():
            return text
        await asyncio.sleep(0.05)  # asking again, not waiting for time to pass
    raise AssertionError(f"/metrics never showed {line}: {text}")


async def test_the_console_serves_healthz_and_metrics(tmp_path: Path) -> None:
    port = free_port()
    console = await start(tmp_path, port)
    try:
        # the prompt is printed once the listener is up: no waiting
        status, body = await fetch(port, "/healthz")
        assert status == 200, body
        assert json.loads(body) == {
            "status": "ok",
            "database": "ok",
            "platforms": {"console": "ok"},
        }
        before = await commands(port)
        await console.type("/help")
        await console.type("/begin")  # no game in the room: refused
        await console.type("/frobnicate now")  # no such command
        after = await commands(port)
        grew = {key: after[key] - before.get(key, 0) for key in after}
        assert grew[("console", "help", "ok")] == 1
        assert grew[("console", "begin", "refused")] == 1
        assert grew[("console", "unknown", "refused")] == 1
        assert not any("frobnicate" in label for key in after for label in key)
        _status, text = await fetch(port, "/metrics")
        for name in (
            "domino_command_seconds_bucket",
            "domino_games_active",
            "domino_deliveries_pending",
            "domino_platform_retries_total",
            "domino_web_viewers",
        ):
            assert name in text
        await console.type("/new draw")
        _status, text = await fetch(port, "/metrics")
        assert 'domino_games_active{status="lobby"} 1.0' in text
    finally:
        await console.quit()
    assert console.process.stderr is not None
    assert b"Traceback" not in await console.process.stderr.read()


async def test_a_port_taken_is_one_warning_and_the_console_starts(tmp_path: Path) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        console = await start(tmp_path, port)
        shown = await console.type("/help")
        assert "/new" in shown  # the room answers as ever
        await console.quit()
    finally:
        taken.close()
    assert console.process.stderr is not None
    said = (await console.process.stderr.read()).decode().splitlines()
    assert len(said) == 1, said
    assert said[0].startswith("WARNING bot.doors.ops") and f"127.0.0.1:{port}" in said[0]


async def test_a_database_locked_by_another_program_is_503(tmp_path: Path) -> None:
    """Another program holds SQLite's write lock (as the load bench's fault does): the
    bot cannot save a move, and /healthz says the database is not answering; once the
    lock goes, it is ok again."""
    port = free_port()
    console = await start(tmp_path, port)
    other = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # the write lock, held
        status, said = await healthz_until(port, lambda s, _b: s != 0)
        assert status == 503, said
        assert said["database"] == "not answering" and said["platforms"] == {"console": "ok"}
        other.execute("ROLLBACK")
        await healthz_until(port, lambda s, _b: s == 200)
    finally:
        other.close()
        await console.quit()
