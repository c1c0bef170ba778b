"""The Telegram bot end to end: the real program and the real python-telegram-bot against
the fake Bot API, from /new to the leaderboard."""

from __future__ import annotations

import asyncio
import socket
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tests.telegram.driver import GROUP, BotProcess, Table, buttons, leaked_tiles
from tests.telegram.fake_api import FakeTelegram


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        fake.group(GROUP, "Dominó del barrio")
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(tg, tmp_path)
    process.start()
    await tg.wait_calls("getUpdates", timeout=30)
    yield process
    await process.stop()
    assert "Traceback" not in process.log(), process.log()
    assert not leaked_tiles(tg)  # nothing in the group ever showed a hidden tile


async def test_four_people_play_partnership_to_the_leaderboard(tg, bot) -> None:
    table = Table(tg)
    for i, name in enumerate(["Ana", "Beto", "Carla", "Dani"]):
        table.person(name, 101 + i)
    await table.say("Ana", "/new partnership 50")
    for name in ["Beto", "Carla", "Dani"]:
        await table.say(name, f"/join@{tg.username}")
    await table.say("Ana", "/begin")
    await tg.wait_for(table.board, what="the board")
    moves = await table.play_out()
    assert moves >= 10
    board = table.board()
    assert board is not None and not buttons(board)
    assert len([m for m in tg.sent_to(GROUP) if m.get("photo")]) <= 2  # edited, not reposted
    photos = len([m for m in tg.sent_to(GROUP) if m.get("photo")])
    await table.say("Beto", "/top")
    await tg.wait_for(
        lambda: len([m for m in tg.sent_to(GROUP) if m.get("photo")]) > photos,
        what="the leaderboard picture",
    )
    assert "Beto" in tg.sent_to(GROUP)[-1]["caption"]
    commands = tg.calls_to("setMyCommands")
    assert {c.params.get("language_code") for c in commands} >= {None, "es", "en", "pt"}


async def test_one_person_and_three_computers(tg, bot) -> None:
    table = Table(tg)
    table.person("Ana", 201)
    await table.start_game("/new partnership 30", computers=3)
    assert await table.play_out() >= 3
    assert not buttons(table.board())


async def test_mexican_train_of_five(tg, bot) -> None:
    table = Table(tg)
    for i, name in enumerate(["Ana", "Beto", "Carla", "Dani", "Eva"]):
        table.person(name, 301 + i)
    await table.start_game("/new mexican_train 1")
    assert await table.play_out() >= 10
    assert not buttons(table.board())


async def test_a_closed_private_chat_is_opened_through_the_link(tg, bot) -> None:
    table = Table(tg)
    table.person("Ana", 401)
    table.person("Beto", 402, open_chat=False)  # never wrote to the bot
    await table.say("Ana", "/new draw 30")
    await table.say("Beto", "/join")
    await table.say("Ana", "/begin")

    def link() -> str | None:
        for message in tg.sent_to(GROUP):
            for row in (message.get("reply_markup") or {}).get("inline_keyboard", []):
                for key in row:
                    if key.get("url", "").startswith(f"https://t.me/{tg.username}?start="):
                        return key["url"]
        return None

    url = await tg.wait_for(link, what="the link to the private chat")
    payload = url.rsplit("=", 1)[1]
    assert len(payload) <= 64 and payload.replace("_", "").replace("-", "").isalnum()
    before = len(tg.sent_to(402))
    tg.send_message(tg.private(402), table.people["Beto"], f"/start {payload}")
    hand = await tg.wait_for(
        lambda: [m for m in tg.sent_to(402)[before:] if m.get("photo")], what="Beto's hand"
    )
    assert "tiles" in hand[-1]["caption"]
    assert await table.play_out() >= 3  # and the game goes on to its end


async def test_too_many_requests_lose_no_move(tg, bot) -> None:
    table = Table(tg)
    table.person("Ana", 501)
    table.person("Beto", 502)
    await table.say("Ana", "/new draw 30")
    await table.say("Beto", "/join")
    tg.fail("sendPhoto", times=3, retry_after=1)
    tg.fail("editMessageMedia", times=3, retry_after=1)
    await table.say("Ana", "/begin")
    await tg.wait_for(table.board, timeout=30, what="the board, late")
    moves = await table.play_out()
    refused = [c for c in tg.calls if c.status == 429]
    assert len(refused) >= 3 and moves >= 3
    assert not buttons(table.board())  # every move made it: the game reached its end


async def test_stale_foreign_and_forged_presses_change_nothing(tg, bot) -> None:
    table = Table(tg)
    table.person("Ana", 601)
    table.person("Beto", 602)
    await table.start_game("/new draw 30")
    name, hand = await tg.wait_for(table.newest_hand, what="a hand")
    other = "Beto" if name == "Ana" else "Ana"
    play = next(d for d in buttons(hand) if d.startswith("c|"))
    updates = table.board_updates()
    # someone else presses the button of a hand that is not theirs
    answer = await table.press(other, hand, play)
    assert answer["text"] and answer["show_alert"]
    # forged data, on the board message
    board = table.board()
    tg_query = tg.press(
        GROUP, table.people[other], board["message_id"], "c|1|0|play 6-6; x", strict=False
    )
    await tg.wait_for(lambda: any(a["id"] == tg_query["id"] for a in tg.answered_callbacks()))
    garbage = tg.press(GROUP, table.people[other], board["message_id"], "nonsense", strict=False)
    await tg.wait_for(lambda: any(a["id"] == garbage["id"] for a in tg.answered_callbacks()))
    assert table.board_updates() == updates  # nothing moved
    # the right person plays; then the same button again is old
    assert not (await table.press(name, hand, play))["text"]
    await tg.wait_for(lambda: table.board_updates() > updates, what="the move")
    again = await table.press(name, hand, play)
    assert again["text"] and again["show_alert"]
    # "My hand" on the board brings the presser's hand privately
    mine = next(d for d in buttons(table.board()) if d.endswith("|hand"))
    before = len(tg.sent_to(table.people[other]["id"]))
    assert not (await table.press(other, table.board(), mine))["text"]
    await tg.wait_for(
        lambda: len(tg.sent_to(table.people[other]["id"])) > before, what="the hand, privately"
    )


async def test_killed_and_started_again_the_game_goes_on(tg, tmp_path) -> None:
    first = BotProcess(tg, tmp_path)
    first.start()
    await tg.wait_calls("getUpdates", timeout=30)
    table = Table(tg)
    table.person("Ana", 701)
    table.person("Beto", 702)
    await table.start_game("/new draw 100")
    assert await table.play_out(until_hand_end=True) >= 3
    first.kill()  # the hand is over; its "next hand" timer is in the database
    board = table.board()
    updates = table.board_updates()
    polls = len(tg.calls_to("getUpdates"))
    second = BotProcess(tg, tmp_path)
    second.start()
    try:
        await tg.wait_calls("getUpdates", count=polls + 1, timeout=30)
        # nobody presses "Next hand": the timer deals it, in the new process
        try:
            # (if the killed process had claimed the timer, its claim lapses in 30 s)
            await tg.wait_for(lambda: table.board_updates() > updates, timeout=60, what="next hand")
        except AssertionError as error:
            raise AssertionError(f"{error}\n{second.log()}") from None
        assert table.board()["message_id"] == board["message_id"]  # the same board, edited
        assert await table.play_out() >= 3
        assert not buttons(table.board())
    finally:
        await second.stop()
    assert "Traceback" not in second.log(), second.log()
    assert not leaked_tiles(tg)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_webhook_mode_with_its_secret(tg, tmp_path) -> None:
    port = free_port()
    process = BotProcess(
        tg,
        tmp_path,
        TELEGRAM_WEBHOOK_URL=f"http://127.0.0.1:{port}/tg",
        TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
        TELEGRAM_WEBHOOK_PORT=str(port),
        TELEGRAM_WEBHOOK_PATH="tg",
        TELEGRAM_WEBHOOK_SECRET="s3cret-token",
    )
    process.start()
    try:
        hooks = await tg.wait_calls("setWebhook", timeout=30)
        assert hooks[-1].params["secret_token"] == "s3cret-token"
        table = Table(tg)
        table.person("Ana", 801)
        await table.start_game("/new draw 30", computers=1)  # through the webhook
        assert not tg.calls_to("getUpdates")
        async with aiohttp.ClientSession() as session:  # a request without the secret
            forged = {"update_id": 999999, "message": {}}
            async with session.post(f"http://127.0.0.1:{port}/tg", json=forged) as response:
                assert response.status == 403
    finally:
        await process.stop()
    assert "Traceback" not in process.log(), process.log()


async def test_a_group_that_removes_the_bot_ends_its_game(tg, bot) -> None:
    table = Table(tg)
    table.person("Ana", 901)
    table.person("Beto", 902)
    await table.start_game("/new draw 30")
    tg.remove_bot(GROUP)
    database = sqlite3.connect(bot.home / "bot.sqlite3")

    def ended() -> bool:
        row = database.execute("SELECT status FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return row is not None and row[0] == "cancelled"

    await tg.wait_for(ended, what="the game to end")
    database.close()


async def test_each_topic_of_a_forum_is_a_room(tg, bot) -> None:
    forum = -1009999
    tg.group(forum, "Club", is_forum=True)
    table = Table(tg, chat=forum)
    table.person("Ana", 1001)
    for topic in (11, 12):
        tg.send_message(forum, table.people["Ana"], "/new draw 30", message_thread_id=topic)
    await tg.wait_for(
        lambda: {m.get("message_thread_id") for m in tg.sent_to(forum)} >= {11, 12},
        what="a lobby in each topic",
    )


async def test_a_buried_or_lost_board_is_posted_again(tg, bot) -> None:
    table = Table(tg)
    table.person("Ana", 1101)
    first = await table.start_game("/new draw 100", computers=1)
    # the board's message is gone (someone deleted it): the next move posts a new one
    tg.fail("editMessageMedia", status=400, description="Bad Request: message to edit not found")
    await table.play_out(limit=1)
    second = table.board()
    assert second["message_id"] != first["message_id"]
    # twenty messages later the board is out of view: it moves to the bottom
    for _ in range(20):
        await table.say("Ana", "/help")
    await table.play_out(limit=1)
    third = await tg.wait_for(
        lambda: (b := table.board()) and b["message_id"] != second["message_id"] and b,
        what="the board posted again",
    )
    assert (
        tg.was_deleted(GROUP, second["message_id"]) and third["message_id"] > second["message_id"]
    )


async def test_a_refused_token_stops_the_program_with_one_line(tg, tmp_path) -> None:
    process = BotProcess(tg, tmp_path, TELEGRAM_TOKEN="999:WRONG")
    process.start()
    assert process.process is not None
    for _ in range(300):
        if process.process.poll() is not None:
            break
        await asyncio.sleep(0.05)
    assert process.process.returncode == 2
    assert "TELEGRAM_TOKEN was refused" in process.log()
    assert "Traceback" not in process.log()
