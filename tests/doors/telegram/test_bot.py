"""The Telegram bot end to end: the real program and the real python-telegram-bot against
the fake Bot API, from /new to the leaderboard."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import sqlite3
import stat
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import suppress
from pathlib import Path

import aiohttp
import pytest
from sqlalchemy.engine import make_url

from bot.doors import texts
from lang import tr
from tests.doors.telegram.driver import (
    GROUP,
    JSON,
    TILE,
    BotProcess,
    Table,
    _move_shown,
    buttons,
    leaked_tiles,
)
from tests.doors.telegram.fake_api import FakeTelegram

POSTGRES = os.environ.get("TEST_DATABASE_URL")


@pytest.fixture
async def bot(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = await BotProcess(tg, tmp_path).polling()
    yield process
    await process.stop()
    assert not process.tracebacks(), process.tracebacks()
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
    photos = len([m for m in tg.sent_to(GROUP) if m.get("photo")])
    # a hand's board is edited in place, not reposted; each hand's end stays as its own
    # picture, so each hand has one board message (each after the first is named)
    said = [m.get("text", "") for m in tg.sent_to(GROUP)]
    hands = 1 + len([t for t in said if re.fullmatch(r"(Hand|Mano|Mão) \d+\.", t)])
    assert hands <= photos <= 2 * hands, (hands, photos)  # (at most one burial a hand)
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
    # never wrote to the bot; a name of HTML and a line break, named in the group's HTML
    beto = "Beto <b>&amp;</b>\nJr"
    table.person(beto, 402, open_chat=False)
    table.people["Beto"] = table.people.pop(beto)
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
    asked = next(m for m in tg.sent_to(GROUP) if "Beto" in m.get("text", ""))
    assert "Beto <b>&amp;</b> Jr" in asked["text"]  # as typed, on one line
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
    play = next(d for d in buttons(hand) if d.startswith(("m|", "c|")))
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
    first = await BotProcess(tg, tmp_path).polling()
    table = Table(tg)
    table.person("Ana", 701)
    table.person("Beto", 702)
    # to 200: no first hand reaches it (a hand scores at most the set's 168 pips), so a
    # next hand always follows
    await table.start_game("/new draw 200")
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
        def next_hand() -> bool:
            # a board of the next hand: the hand's end may be shown again first (killed
            # before its post was noted, the new process shows it once more): not a deal
            newest = table.board()
            return (
                table.board_updates() > updates
                and newest is not None
                and not any(d.endswith("|next") for d in buttons(newest))
            )

        try:
            # (if the killed process had claimed the timer, its claim lapses in 30 s)
            await tg.wait_for(next_hand, timeout=60, what="next hand")
        except AssertionError as error:
            raise AssertionError(f"{error}\n{second.log()}") from None
        # the next hand's board is a new message: the hand's end stays as its picture
        assert table.board()["message_id"] != board["message_id"]
        assert tg.message(GROUP, board["message_id"])["photo"]
        assert await table.play_out(until_hand_end=True) >= 3  # the second hand, played
    finally:
        await second.stop()
    assert not second.tracebacks(), second.tracebacks()
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
    assert not process.tracebacks(), process.tracebacks()


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


async def exit_status(process: BotProcess, timeout: float = 15) -> int | None:
    """The program's exit status, once it has stopped by itself (None: still running
    after ``timeout`` seconds)."""
    assert process.process is not None
    with suppress(subprocess.TimeoutExpired):
        return await asyncio.to_thread(process.process.wait, timeout)
    return None


async def test_a_refused_token_stops_the_program_with_one_line(tg, tmp_path) -> None:
    token = "999:AAWRONG-token-the-log-must-not-show"
    process = BotProcess(tg, tmp_path, TELEGRAM_TOKEN=token)
    process.start()
    assert await exit_status(process) == 2
    log = process.log()
    assert "TELEGRAM_TOKEN (…show) was refused" in log  # its last four tell which one
    assert not process.tracebacks()
    process.assert_no_secrets()


@pytest.mark.parametrize("broken", ["corrupt file", "unknown role", "nobody answers"])
async def test_a_broken_database_stops_the_program_with_one_line(tg, tmp_path, broken: str) -> None:
    if broken == "corrupt file":
        (tmp_path / "bot.sqlite3").write_bytes(b"garbage, not a database " * 300)
        url = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    elif broken == "unknown role":
        if not POSTGRES:
            pytest.skip("TEST_DATABASE_URL is not set")
        server = make_url(POSTGRES)
        url = f"postgresql://nobody@{server.host or '127.0.0.1'}:{server.port or 5432}/test"
    else:
        url = f"postgresql://domino:pw@127.0.0.1:{free_port()}/domino"  # nothing listens
    process = BotProcess(tg, tmp_path, DATABASE_URL=url, LOG_LEVEL="WARNING")
    process.start()
    assert await exit_status(process) == 2
    lines = process.log().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("database: "), lines
    assert ":pw@" not in lines[0]
    process.assert_no_secrets()


async def test_its_files_are_for_its_user_only(tg, tmp_path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)  # as an older version left it
    data.chmod(0o755)
    process = BotProcess(tg, tmp_path, DATABASE_URL="")  # the default: ./data
    process.start()
    try:
        await tg.wait_calls("getUpdates", timeout=30)
        table = Table(tg)
        table.person("Ana", 1501)
        await table.start_game("/new draw 30", computers=1)
    finally:
        await process.stop()
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    files = list(data.iterdir())
    assert data / "domino.sqlite3" in files
    assert {f.name: stat.S_IMODE(f.stat().st_mode) for f in files} == {f.name: 0o600 for f in files}


def stored_games(process: BotProcess) -> list[tuple[object, ...]]:
    database = sqlite3.connect(process.home / "bot.sqlite3")
    try:
        return database.execute("SELECT * FROM games ORDER BY id").fetchall()
    finally:
        database.close()


def game_of(message: JSON) -> int:
    """The game a message's buttons belong to."""
    return next(int(d.split("|")[1]) for d in buttons(message) if d.split("|")[1].isdigit())


async def test_forged_presses_from_a_private_chat_act_nowhere(tg, bot) -> None:
    table = Table(tg)  # a game in play in one group
    table.person("Ana", 1401)
    table.person("Beto", 1402)
    await table.start_game("/new draw 30")
    other = -1005550001  # a lobby in another
    tg.group(other, "Otro grupo")
    lobby = Table(tg, chat=other)
    lobby.person("Dani", 1404)
    await lobby.say("Dani", "/new draw 30")
    playing = game_of(table.board())
    waiting = game_of(next(m for m in reversed(tg.sent_to(other)) if buttons(m)))
    to_move, hand = await tg.wait_for(table.newest_hand, what="a hand")
    play = next(d for d in buttons(hand) if d.startswith(("m|", "c|")))
    seated = "Beto" if to_move == "Ana" else "Ana"
    # someone who plays nowhere, in their own private chat with the bot
    table.person("Mallory", 1403)
    own: dict[str, JSON] = {}  # a message of the bot's in each one's private chat
    for name in ("Mallory", seated):
        user = table.people[name]
        tg.send_message(tg.private(user["id"]), user, "/start")
        own[name] = (await tg.wait_for(lambda u=user: tg.sent_to(u["id"]), what="a welcome"))[-1]
    groups = (str(GROUP), str(other))
    sent_before = [c for c in tg.calls if str(c.params.get("chat_id")) in groups]
    games_before = stored_games(bot)
    forged = [
        (name, f"c|{game}|-|{command}")
        for game in (playing, waiting)
        for command in ("join", "new", "begin fill", "cancel", "export", "rules", "top",
                        "next", "kick 2", "settings language en", "add_ai normal", "board")
        for name in ("Mallory", seated)
    ]  # fmt: skip
    forged += [("Mallory", play), (seated, play)]  # the move of a seat not theirs
    for name, data in forged:
        user, message = table.people[name], own[name]
        query = tg.press(user["id"], user, message["message_id"], data, strict=False)
        answer = await tg.wait_for(
            lambda q=query: next((a for a in tg.answered_callbacks() if a["id"] == q["id"]), None),
            what=f"an answer to {data}",
        )
        assert answer["text"], data  # each is refused, to the presser
    # anything the presses set going for the groups has gone out before these answers
    fences = [
        await table.fence(seated, "/score", "Score:"),
        await lobby.fence("Dani", "/stats", "Fence "),  # (asked by the fence's own member)
    ]
    assert [c for c in tg.calls if str(c.params.get("chat_id")) in groups] == [
        *sent_before,
        *fences,
    ]
    assert stored_games(bot) == games_before
    # and the person to move still plays their own move
    assert not (await table.press(to_move, hand, play))["text"]


async def test_a_page_press_on_the_groups_board_changes_nothing(tg, bot) -> None:
    table = Table(tg)
    table.person("Ana", 1601)
    table.person("Beto", 1602)
    board = await table.start_game("/new draw 30")
    keys = buttons(board)
    _name, hand = await tg.wait_for(table.newest_hand, what="a hand")
    move = next(int(d.split("|")[2]) for d in buttons(hand) if d.startswith(("m|", "c|")))
    for page in (0, 1):
        query = tg.press(
            GROUP, table.people["Beto"], board["message_id"],
            f"p|{game_of(board)}|{move}|{page}", strict=False,
        )  # fmt: skip
        answer = await tg.wait_for(
            lambda q=query: next((a for a in tg.answered_callbacks() if a["id"] == q["id"]), None)
        )
        assert answer["text"] == tr("en", texts.UNKNOWN_BUTTON)
    edited = [c.params.get("message_id") for c in tg.calls_to("editMessageReplyMarkup")]
    assert board["message_id"] not in edited  # (the lobby's buttons went when it began)
    assert buttons(tg.message(GROUP, board["message_id"])) == keys


async def exported(tg: FakeTelegram, table: Table, name: str) -> dict[str, object]:
    """``name`` types /export in the group: the record the bot sent."""

    def documents() -> list[JSON]:
        chats = (GROUP, table.people[name]["id"])
        return [m for chat in chats for m in tg.sent_to(chat) if m.get("document")]

    before = len(documents())
    await table.say(name, "/export")
    found = await tg.wait_for(lambda: documents()[before:], what=f"{name}'s export")
    return json.loads(tg.file_bytes(found[-1]["document"]["file_id"]))


async def test_export_during_a_game_holds_its_finished_hands_only(tg, bot, tmp_path) -> None:
    table = Table(tg)
    table.person("Ana", 1701)
    table.person("Beto", 1702)
    await table.start_game("/new draw 100")
    table.person("Carla", 1703)  # a member of the group who does not play
    for name in ("Ana", "Carla"):  # a player and a watcher, during the first hand
        record = await exported(tg, table, name)
        assert record["hands"] == [], record  # where a record holds tiles: none
        text = json.dumps(record)
        for user in table.people.values():
            for held in photos(tg, user["id"])[-1:]:
                tiles = TILE.findall(held["caption"].split("\n", 1)[0])
                assert tiles and not [t for t in tiles if re.search(rf"\b{t}\b", text)]
    assert await table.play_out(until_hand_end=True) >= 3
    while any(d.endswith("|next") for d in buttons(table.board())):
        await table.play_out(limit=1)  # "Next hand" once the pause is over
    during = await exported(tg, table, "Carla")  # during the second hand
    await table.say("Ana", "/cancel")  # the game is over (sooner than playing to 100)
    whole = await exported(tg, table, "Carla")  # all the room saw of it
    # the finished hand whole; the second, cancelled in play, as the room saw it: its
    # moves, none of its hidden tiles (issue 32, 2)
    assert during["hands"] == whole["hands"]  # type: ignore[index]
    unfinished = whole["unfinished"]  # type: ignore[index]
    assert isinstance(unfinished["moves"], list)
    assert not {"deal", "boneyard", "seed"} & set(unfinished)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(whole))
    replay = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, timeout=60
    )
    assert replay.returncode == 0, replay.stderr.decode()
    assert len(json.loads(replay.stdout)["hands"]) == 1  # the unfinished hand is not replayed


async def test_a_move_not_shown_before_a_crash_is_shown_after_it_once(tg, tmp_path) -> None:
    first = await BotProcess(tg, tmp_path).polling()
    table = Table(tg)
    table.person("Ana", 1801)
    table.person("Beto", 1802)
    await table.start_game("/new draw 100")
    name, hand = await tg.wait_for(table.newest_hand, what="a hand")
    play = next(d for d in buttons(hand) if d.startswith(("m|", "c|")))
    shown = _move_shown_last(tg)
    # Telegram holds every picture back: the move is saved, neither board nor hand goes out
    for method in ("editMessageMedia", "sendPhoto"):
        tg.fail(method, times=1000, retry_after=60)
    assert not (await table.press(name, hand, play))["text"]
    await tg.wait_for(lambda: [c for c in tg.calls if c.status == 429], what="a held picture")
    first.kill()
    tg.calm()
    hands = {n: len(photos(tg, u["id"])) for n, u in table.people.items()}
    second = BotProcess(tg, tmp_path)
    second.start()
    try:
        # the board shows the move, and whoever is to move now gets their hand
        await tg.wait_for(
            lambda: (_move_shown_last(tg) or 0) > (shown or 0), timeout=30, what="the board"
        )
        await tg.wait_for(
            lambda: any(len(photos(tg, u["id"])) > hands[n] for n, u in table.people.items()),
            what="a hand",
        )
    finally:
        await second.stop()
    calls = len(tg.calls_to("editMessageMedia")) + len(tg.calls_to("sendPhoto"))
    third = BotProcess(tg, tmp_path)  # nothing changed since: nothing is sent again
    third.start()
    try:
        polls = len(tg.calls_to("getUpdates"))
        await tg.wait_calls("getUpdates", count=polls + 2, timeout=30)
    finally:
        # stopped, the program first sends whatever is on its way (TelegramBot.run waits
        # for the delivery to be idle); its look at the games to show again began before
        # it polled (at ready), a whole long poll earlier
        status = await third.stop()
    assert status == 0
    assert len(tg.calls_to("editMessageMedia")) + len(tg.calls_to("sendPhoto")) == calls
    assert not leaked_tiles(tg)


def photos(tg: FakeTelegram, chat: int) -> list[JSON]:
    return [m for m in tg.sent_to(chat) if m.get("photo")]


def _move_shown_last(tg: FakeTelegram) -> int | None:
    """The move the group's board picture shows, by the latest picture that went out."""
    for call in reversed(tg.calls):
        if (
            call.ok
            and str(call.params.get("chat_id")) == str(GROUP)
            and call.method.lower() in ("sendphoto", "editmessagemedia")
        ):
            return _move_shown(call)
    return None
