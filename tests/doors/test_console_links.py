"""The console prints the links to the web pages instead of buttons (issue 34, "In the
chat"): ``make run`` serves the pages on this machine, so the board's "Watch" line leads
to the game's page there at once; PUBLIC_URL, when set, is where links start; with no
pages and no PUBLIC_URL, no link; none while the community's pages are off."""

from __future__ import annotations

import re
from pathlib import Path

from aiohttp import ClientSession

from tests.doors.test_console import ConsoleProcess
from tests.doors.web.test_app import free_port

KEY = r"[A-Za-z0-9_-]{22}"
WATCH = re.compile(rf"^Watch: (http://127\.0\.0\.1:\d+)/g/({KEY})$", re.MULTILINE)
COMMUNITY = re.compile(rf"^This community's page: (\S+)/c/({KEY})$", re.MULTILINE)


async def begun(console: ConsoleProcess) -> str:
    await console.type("/new draw 20")
    await console.type("/add_ai normal")
    return await console.type("/begin")


async def test_the_board_prints_a_watch_line_to_the_games_page(tmp_path: Path) -> None:
    console = await ConsoleProcess.start(tmp_path, WEB_PORT=str(free_port()))
    start = COMMUNITY.search(console.output)
    assert start, console.output[:500]
    shown = await begun(console)
    found = WATCH.search(shown)
    assert found, shown
    base, key = found.groups()
    assert start.group(1) == base  # both on the pages this process serves
    async with ClientSession() as http:
        async with http.get(f"{base}/g/{key}.json") as response:
            assert response.status == 200
            page = await response.json()
        assert page["kind"] == "game" and page["players"][0]["name"] == "Ana"
        async with http.get(f"{base}/c/{start.group(2)}.json") as response:
            assert response.status == 200
    # the same page for every board of the game; none while the pages are off
    assert WATCH.search(await console.type("/board")).group(2) == key  # type: ignore[union-attr]
    await console.type("/settings web off")
    off = await console.type("/board")
    assert "Board picture" in off and "Watch:" not in off
    await console.type("/settings web on")
    assert WATCH.search(await console.type("/board")).group(2) == key  # type: ignore[union-attr]
    await console.quit()


async def test_public_url_is_where_the_links_start(tmp_path: Path) -> None:
    console = await ConsoleProcess.start(
        tmp_path, WEB_PORT="off", PUBLIC_URL="https://domino.example.org/club/"
    )
    start = COMMUNITY.search(console.output)
    assert start and start.group(1) == "https://domino.example.org/club"
    shown = await begun(console)
    assert re.search(rf"^Watch: https://domino\.example\.org/club/g/{KEY}$", shown, re.M), shown
    await console.quit()


async def test_no_pages_and_no_public_url_no_link(tmp_path: Path) -> None:
    console = await ConsoleProcess.start(tmp_path, WEB_PORT="off")
    shown = await begun(console)
    assert "Board picture" in shown
    assert "Watch:" not in console.output and "/c/" not in console.output
    await console.quit()
