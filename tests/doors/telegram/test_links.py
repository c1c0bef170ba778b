"""Links to the web pages in a Telegram group (issue 34, "In the chat"), the real program
against the fake Bot API: with PUBLIC_URL the board carries a "Watch" URL button to the
game's page (the key in it opens the page's JSON), the game's summary a "Replay" one; no
URL button without PUBLIC_URL, none while the community's pages are off; a URL button is
never a callback."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import aiohttp

from tests.doors.telegram.driver import GROUP, JSON, BotProcess, Table, buttons, url_buttons
from tests.doors.telegram.fake_api import FakeTelegram
from tests.doors.web.test_app import free_port

PUBLIC = "https://domino.example.org"
GAME_PAGE = re.compile(rf"^{re.escape(PUBLIC)}/g/([A-Za-z0-9_-]{{22}})$")
ANA = 11


def watched(table: Table) -> Callable[[], JSON | None]:
    def board() -> JSON | None:
        found = table.board()
        return found if found is not None and url_buttons(found) else None

    return board


async def test_the_board_and_the_summary_link_to_the_games_page(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    port = free_port()
    bot = await BotProcess(tg, tmp_path, PUBLIC_URL=PUBLIC, WEB_PORT=str(port)).polling()
    try:
        tg.set_admins(GROUP, [ANA])
        table = Table(tg)
        table.person("Ana", ANA)
        board = await table.start_game("/new draw 20", computers=1)
        [(label, url)] = url_buttons(board)
        assert label == "Watch" and buttons(board)  # beside "My hand" and "Board"
        found = GAME_PAGE.match(url)
        assert found, url
        key = found.group(1)
        address = f"http://127.0.0.1:{port}/g/{key}.json"
        async with aiohttp.ClientSession() as http, http.get(address) as response:
            assert response.status == 200
            page = await response.json()
        assert page["kind"] == "game" and page["players"][0]["name"] == "Ana"
        # a URL button is no callback: nothing the bot could be sent by pressing it
        markup = board["reply_markup"]["inline_keyboard"]
        assert all("callback_data" not in b for row in markup for b in row if "url" in b)
        # while the community's pages are off no board carries a link; back on, the same
        await table.say("Ana", "/settings web off")
        last = board["message_id"]
        await table.say("Ana", "/board")
        again = await tg.wait_for(
            lambda: (b := table.board()) is not None and b["message_id"] > last and b,
            what="the board asked for",
        )
        assert url_buttons(again) == [] and buttons(again)
        await table.say("Ana", "/settings web on")
        await table.say("Ana", "/board")
        shown = await tg.wait_for(watched(table), what="a board with its link again")
        assert url_buttons(shown) == [("Watch", url)]
        # to the game's end: the summary's Replay leads to the same page
        await table.play_out()
        summary = await tg.wait_for(
            lambda: next((m for m in tg.sent_to(GROUP) if ("Replay", url) in url_buttons(m)
                          and not m.get("photo")), None),
            what="the summary's Replay",
        )  # fmt: skip
        assert summary.get("text")
    finally:
        await bot.stop()
    assert not bot.tracebacks(), bot.tracebacks()
    assert key not in bot.log()  # no key in the log, at DEBUG


async def test_no_link_without_public_url(tg: FakeTelegram, tmp_path: Path) -> None:
    """The pages served on this machine are no address for people in a group."""
    bot = await BotProcess(tg, tmp_path, WEB_PORT=str(free_port())).polling()
    try:
        table = Table(tg)
        table.person("Ana", ANA)
        board = await table.start_game("/new draw 20", computers=1)
        assert buttons(board) and url_buttons(board) == []
        assert not any(url_buttons(m) for m in tg.sent_to(GROUP) if "/g/" in str(m))
    finally:
        await bot.stop()
