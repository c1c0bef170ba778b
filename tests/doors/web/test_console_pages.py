"""The real program (console mode) serves the JSON of a game played there (issue 34):
it prints its community's page on start, the page lists the game with its key, and the
game's page is the room's view of it."""

from __future__ import annotations

import re
from pathlib import Path

from aiohttp import ClientSession

from tests.doors.test_console import MOVE, ConsoleProcess
from tests.doors.web.test_app import free_port

PAGE = re.compile(r"(http://127\.0\.0\.1:\d+)/c/([A-Za-z0-9_-]{22})\.json")


async def test_the_console_serves_the_json_of_its_game(tmp_path: Path) -> None:
    port = free_port()
    console = await ConsoleProcess.start(tmp_path, WEB_PORT=str(port), LOG_LEVEL="DEBUG")
    found = PAGE.search(console.output)
    assert found, console.output[:500]
    base, community = found.groups()
    await console.type("/new draw 20")
    await console.type("/add_ai hard")
    last = await console.type("/begin")
    for _ in range(6):  # a few moves in: a hand in play
        moves = [m.group(1) for m in (MOVE.search(line) for line in last.splitlines()) if m]
        if not moves:
            break
        last = await console.type(moves[0])
    async with ClientSession() as http:
        async with http.get(f"{base}/c/{community}.json") as response:
            assert response.status == 200
            page = await response.json()
        assert page["kind"] == "community" and len(page["games"]) == 1
        game = page["games"][0]
        assert game["players"][0] == "Ana" and game["status"] == "playing"
        async with http.get(f"{base}/g/{game['key']}.json") as response:
            assert response.status == 200
            seen = await response.json()
        assert seen["kind"] == "game" and seen["rules"]["preset"] == "draw"
        assert seen["table"]["revealed"] is None or seen["status"] == "finished"
        async with http.get(f"{base}/g/{'A' * 22}.json") as response:
            assert response.status == 404
    await console.quit()
