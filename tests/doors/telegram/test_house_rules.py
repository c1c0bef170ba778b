"""House rules on Telegram end to end (issue 20): the real program and the real
python-telegram-bot against the fake Bot API. ``/new partnership 200 blocked_tie=nobody
redeal_doubles=4`` typed in the group, the lobby listing them, the creator's Rules button
and its menus (in the group: a press in a private chat acts only for a seat), the game
begun with them in force, ``/rules`` said from them."""

from __future__ import annotations

import json
import sqlite3

from engine.rules import Rules
from tests.doors.telegram.driver import GROUP, JSON, BotProcess, Table, buttons
from tests.doors.telegram.fake_api import FakeTelegram


def newest(tg: FakeTelegram, wanted: str) -> JSON | None:
    """The group's newest message with a button sending ``wanted``."""
    found = [m for m in tg.sent_to(GROUP) if any(d.endswith(f"|{wanted}") for d in buttons(m))]
    return found[-1] if found else None


async def test_house_rules_set_shown_and_in_force(tg: FakeTelegram, bot: BotProcess) -> None:
    table = Table(tg)
    table.person("Ana", 701)
    table.person("Beto", 702)
    await table.say("Ana", "/new partnership 200 blocked_tie=nobody redeal_doubles=4")
    lobby = await tg.wait_for(lambda: newest(tg, "rule"), what="the lobby")
    assert "blocked_tie=nobody" in lobby["text"] and "redeal_doubles=4" in lobby["text"]
    assert "reaches 200 loses" in lobby["text"]

    rules_button = next(d for d in buttons(lobby) if d.endswith("|rule"))
    answer = await table.press("Beto", lobby, rules_button)  # only the creator
    assert answer.get("text"), answer
    await table.press("Ana", lobby, rules_button)
    menu = await tg.wait_for(lambda: newest(tg, "rule blocked_tie"), what="the menu")
    await table.press(
        "Ana", menu, next(d for d in buttons(menu) if d.endswith("|rule blocked_tie"))
    )
    values = await tg.wait_for(lambda: newest(tg, "rule blocked_tie closer_loses"), what="values")
    await table.press("Ana", values, next(d for d in buttons(values) if d.endswith("closer_loses")))
    await tg.wait_for(
        lambda: any("blocked_tie=closer_loses" in m.get("text", "") for m in tg.sent_to(GROUP)),
        what="the lobby with the rule changed",
    )

    await table.say("Ana", "/begin fill")
    await tg.wait_for(table.board, what="the first board")
    database = sqlite3.connect(bot.home / "bot.sqlite3")
    try:
        [(snapshot,)] = database.execute("SELECT snapshot FROM games").fetchall()
    finally:
        database.close()
    rules = Rules.from_record(json.loads(snapshot)["record"]["rules"])
    assert (rules.target, rules.blocked_tie, rules.redeal_doubles) == (200, "closer_loses", 4)
    await table.say("Beto", "/rules")
    await tg.wait_for(
        lambda: any("(blocked_tie=closer_loses) ✱" in m.get("text", "") for m in tg.sent_to(GROUP)),
        what="the rules in force",
    )
