"""Telegram's lobby (issue 21): one message, edited as seats fill, its buttons gone once
the game begins; the leaderboard picture goes out named for what it is. The real program
against the fake Bot API."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.core import texts
from bot.core.model import File, Picture, Place
from bot.doors.telegram.delivery import TelegramPlatform
from lang import tr
from tests.doors.telegram.driver import GROUP, JSON, BotProcess, Table, buttons
from tests.doors.telegram.fake_api import FakeTelegram


def lobbies(tg: FakeTelegram) -> list[JSON]:
    """The group's messages that are or were a lobby (a Join button, or an edit of one)."""
    return [
        m
        for m in tg.sent_to(GROUP)
        if any(d.endswith("|join") for d in buttons(m))
        or any(
            any(d.endswith("|join") for d in buttons(old))
            for old in tg.edits(GROUP, m["message_id"])
        )
    ]


async def test_one_lobby_edited_as_seats_fill_and_bare_once_begun(
    tg: FakeTelegram, bot: BotProcess
) -> None:
    table = Table(tg)
    for number, name in enumerate(("Ana", "Beto", "Caro")):
        table.person(name, 711 + number)
    await table.say("Ana", "/new draw 50")
    [lobby] = await tg.wait_for(lambda: lobbies(tg), what="the lobby")
    await table.say("Beto", "/join")
    await table.say("Ana", "/add_ai")
    [seated] = await tg.wait_for(
        lambda: [m for m in lobbies(tg) if "Beto" in m["text"] and "Computer" in m["text"]],
        what="the lobby with Beto and a computer",
    )
    assert seated["message_id"] == lobby["message_id"]  # the same message, edited
    assert len(lobbies(tg)) == 1
    await table.say("Caro", "/join")
    await table.say("Ana", "/begin")
    await tg.wait_for(table.board, what="the first board")
    [begun] = await tg.wait_for(
        lambda: [m for m in lobbies(tg) if not buttons(m)], what="the lobby without buttons"
    )
    assert begun["message_id"] == lobby["message_id"] and "Caro" in begun["text"]


class _Bot:
    """The Bot API's send methods as the platform calls them: what each was given."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __getattr__(self, method: str) -> Any:
        async def call(**params: Any) -> Any:
            self.calls.append((method, params))
            return SimpleNamespace(message_id=1)

        return call


async def test_the_lobby_is_the_same_message_after_a_restart(tg: FakeTelegram, tmp_path) -> None:
    """Where the lobby is lives in the database: after a restart the next seat edits the
    same message, and a new game's lobby takes the old one's buttons away."""
    table = Table(tg)
    for number, name in enumerate(("Ana", "Beto", "Caro")):
        table.person(name, 741 + number)
    first = await BotProcess(tg, tmp_path).polling()
    await table.say("Ana", "/new draw 50")
    [lobby] = await tg.wait_for(lambda: lobbies(tg), what="the lobby")
    await first.stop()
    second = await BotProcess(tg, tmp_path).polling()
    try:
        await table.say("Beto", "/join")
        await tg.wait_for(
            lambda: [m for m in lobbies(tg) if "Beto" in m["text"]], what="Beto's seat shown"
        )
        assert [m["message_id"] for m in lobbies(tg)] == [lobby["message_id"]]
        await table.say("Ana", "/cancel")
        await table.say("Caro", "/new draw 50")
        await tg.wait_for(lambda: len(lobbies(tg)) == 2, what="the new game's lobby")
        old, new = sorted(lobbies(tg), key=lambda m: m["message_id"])
        assert old["message_id"] == lobby["message_id"]
        await tg.wait_for(lambda: not buttons(tg.message(GROUP, old["message_id"])), what="bare")
        assert buttons(new)
    finally:
        await second.stop()
    assert not second.tracebacks(), second.tracebacks()


async def test_files_are_named_for_what_they_are() -> None:
    api = _Bot()
    platform = TelegramPlatform(api, "dominobot", None)  # type: ignore[arg-type]
    place = Place("telegram", str(GROUP), str(GROUP))
    await platform.picture(place, Picture("Top", (), "The leaderboard"), b"png", None)
    await platform.file(place, File("domino-7.json", b"{}", "The record"), None)
    [(_, picture), (_, record)] = api.calls
    assert picture["filename"] == "leaderboard.png"
    assert record["filename"] == "domino-7.json"


async def test_a_stale_press_is_answered_with_how_things_are_now(
    tg: FakeTelegram, bot: BotProcess
) -> None:
    """ "That button belongs to an earlier moment ... Here is how things are now." is
    followed by the presser's hand as it is now."""
    table = Table(tg)
    table.person("Ana", 731)
    table.person("Beto", 732)
    await table.start_game("/new draw 50")
    name, hand = await tg.wait_for(table.newest_hand, what="a hand to play")
    play = next(d for d in buttons(hand) if d.startswith(("m|", "c|")))
    await table.press(name, hand, play)
    await tg.wait_for(
        lambda: (turn := table.newest_hand()) is not None and turn[0] != name,
        what="the other's turn, all of the move delivered",
    )
    # nothing else is on its way to them: the group's room sends them their messages in
    # order, and /help's answer, privately, comes after whatever was queued before it
    chat = table.people[name]["id"]
    await table.fence(name, "/help", "A game is on:", to=chat)
    before = len([m for m in tg.sent_to(chat) if m.get("photo")])
    answer = await table.press(name, hand, play)  # the same button, a move later
    assert answer["text"] == tr("en", texts.STALE), answer
    await tg.wait_for(
        lambda: len([m for m in tg.sent_to(chat) if m.get("photo")]) > before,
        what="the hand as it is now",
    )
