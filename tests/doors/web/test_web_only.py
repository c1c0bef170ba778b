"""``WEB_ONLY=1`` (docs/deploy.md): a process that serves the pages and nothing else, until
SIGTERM; without a port to serve them on it stops at once with one line."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from aiohttp import ClientSession

from tests.doors.web.test_app import free_port


async def launch(home: Path, **extra: str) -> asyncio.subprocess.Process:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{home / 'db.sqlite3'}",
        "WEB_ONLY": "1",
        "PYTHONPATH": os.getcwd(),
        **extra,
    }
    env.pop("TELEGRAM_TOKEN", None)
    env.pop("DISCORD_TOKEN", None)
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=home,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_pages_only_without_a_port_stops_with_one_line(tmp_path: Path) -> None:
    process = await launch(tmp_path, WEB_PORT="off")
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2 and out == b""
    lines = err.decode().splitlines()
    assert len(lines) == 1 and "WEB_PORT" in lines[0], lines


async def test_pages_only_serves_until_sigterm(tmp_path: Path) -> None:
    port = free_port()
    process = await launch(tmp_path, WEB_PORT=str(port))
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        async with ClientSession() as http:
            while True:
                assert process.returncode is None
                try:
                    async with http.get(f"http://127.0.0.1:{port}/g/{'A' * 22}/events") as answer:
                        assert answer.status == 404
                        break
                except OSError:
                    assert loop.time() < deadline, "the pages never answered"
                    await asyncio.sleep(0.1)
        process.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 0, err.decode()
        assert out == b"" and b"Traceback" not in err  # no console in it
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
