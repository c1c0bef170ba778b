"""Telegram as people speak (issue 33, 14): the command menu in each language carries the
commands' names in it, and a name in any language is a command in the group; a move's
number typed alone in the group plays the move listed under it for the player to move,
and is the group's talk, unanswered, for anyone else. The real program against the fake
Bot API."""

from __future__ import annotations

import json

from bot.core import registry, texts
from lang import LANGUAGES, tr
from tests.doors.telegram.driver import GROUP, BotProcess, Table
from tests.doors.telegram.fake_api import FakeTelegram

DEFAULT = json.dumps({"type": "default"}, sort_keys=True)


async def test_each_languages_menu_names_the_commands_in_it(
    tg: FakeTelegram, bot: BotProcess
) -> None:
    for lang in LANGUAGES:
        menu = [c["command"] for c in tg.commands[(DEFAULT, lang)]]
        assert menu == [registry.name_in(lang, s.name) for s in registry.menu()], lang
    assert "jugar" in [c["command"] for c in tg.commands[(DEFAULT, "es")]]


def talk_answered(tg: FakeTelegram, since: int, chats: set[int]) -> list[str]:
    """What the bot sent to ``chats`` after call ``since``."""
    return [
        str(c.params.get("text") or c.params.get("caption"))
        for c in tg.calls[since:]
        if c.method.lower() in ("sendmessage", "sendphoto")
        and int(c.params.get("chat_id", 0)) in chats
    ]


async def test_a_moves_number_typed_in_the_group(tg: FakeTelegram, bot: BotProcess) -> None:
    tg.privacy_mode = False  # the group's talk reaches the bot (BotFather's /setprivacy)
    table = Table(tg)
    table.person("Ana", 821)
    table.person("Beto", 822)
    table.person("Zoe", 823)
    await table.say("Ana", "/nueva draw")  # Spanish names, from English-speaking people
    await table.say("Beto", "/unirme")
    await table.say("Ana", "/empezar")
    await tg.wait_for(table.board, what="the first board")
    mover, hand = await tg.wait_for(table.newest_hand, what="the hand of the player to move")
    other = "Beto" if mover == "Ana" else "Ana"
    moves = [
        b["text"]
        for row in hand["reply_markup"]["inline_keyboard"]
        for b in row
        if b.get("callback_data", "").startswith("m|")
    ]
    updates, since = table.board_updates(), len(tg.calls)
    # the others' numbers are the group's talk: nothing answers them
    tg.send_message(GROUP, table.people[other], "1")
    tg.send_message(GROUP, table.people["Zoe"], " 2 ")
    await table.fence(mover, "/score", "Score:")
    people = {table.people[n]["id"] for n in ("Ana", "Beto", "Zoe")}
    said = talk_answered(tg, since, people | {GROUP})
    assert [s for s in said if not s.startswith("Score:")] == [], said
    assert table.board_updates() == updates
    # the player to move, out of the list: told privately, nothing played
    tg.send_message(GROUP, table.people[mover], str(len(moves) + 1))
    hint = tr("en", texts.NO_SUCH_MOVE, number=len(moves) + 1)
    await tg.wait_for(
        lambda: hint in talk_answered(tg, since, {table.people[mover]["id"]}), what="the hint"
    )
    assert table.board_updates() == updates
    # the player to move, a move's number: played
    key, words = moves[-1].split(") ", 1)
    tg.send_message(GROUP, table.people[mover], key)
    await tg.wait_for(lambda: table.board_updates() > updates, what="the move typed")
    board = table.board()
    assert board is not None and f"{mover} plays {words.split()[0]}" in board["caption"], board
