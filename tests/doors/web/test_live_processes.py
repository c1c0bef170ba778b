"""Many processes on one PostgreSQL (issue 34): process A plays (the console, no pages),
process B serves the pages only (``WEB_ONLY``); a page open on B hears a move made in A
within 2 s, through LISTEN/NOTIFY. B's log holds no key and no traceback, and it stops
cleanly on SIGTERM. Skipped without ``TEST_DATABASE_URL``."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest
from aiohttp import ClientSession, ClientTimeout
from sqlalchemy import text

from storage.database import (
    rows,
    utcnow,
)
from storage.store import Store
from tests.doors.test_console import MOVE, ConsoleProcess
from tests.doors.web.test_app import free_port
from tests.doors.web.test_events import PROMISED, Stream
from tests.program import RECORD
from tests.storage.conftest import POSTGRES, reset_postgres

pytestmark = pytest.mark.skipif(not POSTGRES, reason="TEST_DATABASE_URL is not set")


async def pages_only(home: Path, port: int) -> asyncio.subprocess.Process:
    """Process B: ``python -m bot`` with WEB_ONLY, its log in ``home``/b.log."""
    assert POSTGRES is not None
    env = {
        **os.environ,
        "DATABASE_URL": POSTGRES,
        "WEB_ONLY": "1",
        "WEB_PORT": str(port),
        "LOG_LEVEL": "DEBUG",
        "PYTHONPATH": os.getcwd(),
    }
    with open(home / "b.log", "wb") as log:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=home, env=env, stdout=log, stderr=log
        )


async def game_key(url: str) -> str:
    """The key of the game A plays (made as a link to it would be)."""
    store = await Store.open(url, migrate=False)
    try:
        query = text(
            "SELECT g.id, r.community_id FROM games g JOIN rooms r ON r.id = g.room_id"
            " WHERE g.status = 'playing'"
        )
        [(game, community)] = await store.database.run(rows, query)
        return await store.web.key_for("game", game, community, utcnow())
    finally:
        await store.close()


async def test_a_move_in_one_process_reaches_a_page_served_by_another(tmp_path: Path) -> None:
    assert POSTGRES is not None
    await reset_postgres(POSTGRES)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = await ConsoleProcess.start(tmp_path / "a", DATABASE_URL=POSTGRES, WEB_PORT="off")
    b: asyncio.subprocess.Process | None = None
    try:
        await a.type("/new draw 20")
        await a.type("/add_ai normal")
        last = await a.type("/begin")
        key = await game_key(POSTGRES)
        port = free_port()
        b = await pages_only(tmp_path / "b", port)
        base = f"http://127.0.0.1:{port}"
        async with ClientSession(timeout=ClientTimeout(total=None)) as http:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while True:  # B is up once it answers
                assert b.returncode is None, (tmp_path / "b" / "b.log").read_text()
                try:
                    async with http.get(f"{base}/g/{key}.json") as response:
                        assert response.status == 200
                        break
                except OSError:
                    assert loop.time() < deadline, "B never answered"
                    await asyncio.sleep(0.1)
            response = await http.get(f"{base}/g/{key}/events")
            assert response.status == 200
            stream = Stream(response)
            assert await stream.next() is not None
            moves = 0
            for _ in range(3):
                found = [m.group(1) for m in map(MOVE.search, last.splitlines()) if m]
                if not found:
                    break
                seen = stream.versions[-1]
                typed = asyncio.ensure_future(a.type(found[0]))  # a move, made in A
                await stream.reaches(seen + 1, PROMISED)  # heard in B within 2 s
                last = await typed
                moves += 1
            assert moves >= 1
            response.close()
        b.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(b.wait(), 30) == 0
        logged = (tmp_path / "b" / "b.log").read_text()
        assert "the pages only" in logged and key not in logged  # (logged at DEBUG)
        assert "Traceback" not in logged
        assert not [line for line in logged.splitlines() if RECORD.match(line) and "ERROR" in line]
        await a.quit()
    finally:
        for process in (a.process, b):
            if process is not None and process.returncode is None:
                process.kill()
                await process.wait()
