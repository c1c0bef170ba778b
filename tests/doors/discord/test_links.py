"""Links to the web pages in a Discord channel (issue 34, "In the chat"), the real program
against the fake Discord: with PUBLIC_URL the board carries a "Watch" link button to the
game's page (the key in it opens the page's JSON), the game's summary a "Replay" one; no
link button without PUBLIC_URL, none while the community's pages are off; a link button
carries no custom id, so it never comes back as an interaction."""

from __future__ import annotations

import re
from pathlib import Path

import aiohttp

from tests.doors.discord.driver import (
    CHANNEL,
    JSON,
    BotProcess,
    Table,
    custom_ids,
    has_file,
    walk,
)
from tests.doors.discord.fake_discord import FakeDiscord
from tests.doors.web.test_app import free_port

PUBLIC = "https://domino.example.org"
GAME_PAGE = re.compile(rf"^{re.escape(PUBLIC)}/g/([A-Za-z0-9_-]{{22}})$")
ANA = 320_000_000_000_000_901


def links(message: JSON) -> list[tuple[str, str]]:
    """(label, url) of each link button of ``message``."""
    found = []
    for component in walk(message.get("components") or []):
        if component.get("type") == 2 and component.get("style") == 5:
            assert "custom_id" not in component, component
            found.append((component["label"], component["url"]))
    return found


async def started(table: Table) -> JSON:
    table.person("Ana", ANA, admin=True)
    await table.command("Ana", "new", {"preset": "draw", "target": 20})
    await table.command("Ana", "add_ai", {"strength": "normal"})
    await table.command("Ana", "begin")
    board = await table.fake.wait_for(table.board, timeout=20, what="the board")
    assert board is not None
    return board


async def test_the_board_and_the_summary_link_to_the_games_page(
    fake: FakeDiscord, table: Table, tmp_path: Path
) -> None:
    port = free_port()
    bot = BotProcess(fake, tmp_path, PUBLIC_URL=PUBLIC, WEB_PORT=str(port))
    await bot.start()
    try:
        board = await started(table)
        [(label, url)] = links(board)
        assert label == "Watch" and custom_ids(board)  # beside "My hand" and "Board"
        found = GAME_PAGE.match(url)
        assert found, url
        key = found.group(1)
        address = f"http://127.0.0.1:{port}/g/{key}.json"
        async with aiohttp.ClientSession() as http, http.get(address) as response:
            assert response.status == 200
            page = await response.json()
        assert page["kind"] == "game" and page["players"][0]["name"] == "Ana"
        # while the community's pages are off no board carries a link; back on, the same
        await table.command("Ana", "settings", {"name": "web", "value": "off"})
        last = int(board["id"])
        await table.command("Ana", "board")
        again = await fake.wait_for(
            lambda: (b := table.board()) is not None and int(b["id"]) > last and b,
            what="the board asked for",
        )
        assert links(again) == [] and custom_ids(again)
        await table.command("Ana", "settings", {"name": "web", "value": "on"})
        await table.command("Ana", "board")
        shown = await fake.wait_for(
            lambda: (b := table.board()) is not None and links(b) and b, what="a linked board"
        )
        assert links(shown) == [("Watch", url)]
        # to the game's end: the summary's Replay leads to the same page
        await table.play_out()
        summary = await fake.wait_for(
            lambda: next((m for m in fake.messages(CHANNEL) if ("Replay", url) in links(m)
                          and not has_file(m, "board.png")), None),
            what="the summary's Replay",
        )  # fmt: skip
        assert summary["content"]
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log(), bot.log()
    assert key not in bot.log()  # no key in the log, at DEBUG


async def test_no_link_without_public_url(fake: FakeDiscord, table: Table, tmp_path: Path) -> None:
    """The pages served on this machine are no address for people in a channel."""
    bot = BotProcess(fake, tmp_path, WEB_PORT=str(free_port()))
    await bot.start()
    try:
        board = await started(table)
        assert custom_ids(board) and links(board) == []
        assert not any(links(m) for m in fake.messages(CHANNEL))
    finally:
        await bot.stop()
