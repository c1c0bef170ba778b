"""The real program (console mode) serves the JSON of a game played there (issue 34): it
prints its community's page on start, the page lists the game with its key, and the
game's page is the room's view of it; no key reaches its log, at DEBUG. A port already
taken costs one WARNING line, and the bot goes on without pages."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import sys
from pathlib import Path

from aiohttp import ClientSession

from tests.doors.test_console import MOVE, ConsoleProcess
from tests.doors.web.test_app import free_port

PAGE = re.compile(r"(http://127\.0\.0\.1:\d+)/c/([A-Za-z0-9_-]{22})$", re.MULTILINE)


async def start(home: Path, **extra: str) -> ConsoleProcess:
    """The bot in console mode, its log (stderr) written to ``home``/log.txt."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{home / 'db.sqlite3'}",
        "CONSOLE_NAME": "Ana",
        "CONSOLE_LANGUAGE": "en",
        "PYTHONPATH": os.getcwd(),
        "LOG_LEVEL": "DEBUG",
        **extra,
    }
    env.pop("TELEGRAM_TOKEN", None)
    env.pop("DISCORD_TOKEN", None)
    with open(home / "log.txt", "wb") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=home,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=log,
        )
    console = ConsoleProcess(process)
    await console.wait()
    return console


async def test_the_console_serves_the_json_of_its_game(tmp_path: Path) -> None:
    console = await start(tmp_path, WEB_PORT=str(free_port()))
    found = PAGE.search(console.output)
    assert found, console.output[:500]
    base, community = found.groups()
    await console.type("/new draw 200")  # no first hand can end it
    await console.type("/add_ai hard")
    last = await console.type("/begin")
    for _ in range(6):  # a few moves in: a hand in play
        moves = [m.group(1) for m in (MOVE.search(line) for line in last.splitlines()) if m]
        if not moves:
            break
        last = await console.type(moves[0])
    keys = [community]
    async with ClientSession() as http:
        async with http.get(f"{base}/c/{community}.json") as response:
            assert response.status == 200
            page = await response.json()
        assert page["kind"] == "community" and len(page["games"]) == 1
        game = page["games"][0]
        keys.append(game["key"])
        assert game["players"][0] == "Ana" and game["status"] == "playing"
        async with http.get(f"{base}/g/{game['key']}.json?lang=es") as response:
            assert response.status == 200
            seen = await response.json()
        assert seen["kind"] == "game" and seen["rules"]["preset"] == "draw"
        assert seen["lang"] == "es" and seen["players"][1]["name"].startswith("Computadora")
        # hands are shown only once the hand is over (the hard computer may end it fast)
        assert seen["table"]["revealed"] is None or seen["table"]["result"] is not None
        async with http.get(f"{base}/g/{'A' * 22}.json") as response:
            assert response.status == 404
    await console.quit()
    logged = (tmp_path / "log.txt").read_text()
    assert "DEBUG" in logged  # the log was written at DEBUG
    for key in keys:
        assert key not in logged


async def test_a_port_taken_costs_one_warning_and_the_bot_goes_on(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        console = await start(tmp_path, WEB_PORT=str(port), LOG_LEVEL="WARNING")
        assert not PAGE.search(console.output)
        answer = await console.type("/new draw")
        assert "draw" in answer.lower()
        await console.quit()
    logged = (tmp_path / "log.txt").read_text().splitlines()
    warnings = [line for line in logged if "web pages off" in line]
    assert len(warnings) == 1 and warnings[0].startswith("WARNING"), logged
    assert "WEB_PORT" in warnings[0]
