"""The winning team chooses who opens (next_opener = choose), end to end through the real
program and python-telegram-bot against the fake Bot API: each partner gets their hand in
their private chat with "I open"; the one who presses it there opens, the group is told,
and the partner's press after that changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from lang import tr
from tests.doors.telegram.driver import GROUP, JSON, BotProcess, Table, buttons, leaked_tiles
from tests.doors.telegram.fake_api import FakeTelegram

PEOPLE = {"Ana": 701, "Beto": 702, "Carla": 703, "Dani": 704}


@pytest.fixture
async def bot(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = await BotProcess(tg, tmp_path).polling()
    yield process
    await process.stop()
    assert not process.tracebacks(), process.tracebacks()
    assert not leaked_tiles(tg)


def claims(tg: FakeTelegram, table: Table) -> dict[str, tuple[JSON, str]]:
    """Each person whose latest hand in their private chat offers "I open": that message
    and the button's data."""
    found: dict[str, tuple[JSON, str]] = {}
    for name, user in table.people.items():
        hands = [m for m in tg.sent_to(user["id"]) if m.get("photo")]
        if hands:
            data = [d for d in buttons(hands[-1]) if d.endswith("|open")]
            if data:
                found[name] = (hands[-1], data[0])
    return found


async def test_a_partner_opens_by_pressing_i_open_in_the_private_chat(tg, bot) -> None:
    table = Table(tg)
    for name, user_id in PEOPLE.items():
        table.person(name, user_id)
    await table.start_game("/new partnership 1000")
    # a hand always has a winning team (a blocked tie goes to the closer's): the next
    # hand's opener is chosen
    await table.play_out(until_hand_end=True)
    board = table.board()
    assert board is not None
    await table.deal("Ana", board)  # once the pause between hands is over
    chooser = await tg.wait_for(
        lambda: (found := claims(tg, table)) and len(found) == 2 and found, what="I open"
    )
    # the partner whose hand offers no tile to play claims (the other was dealt the opening)
    name = next(n for n, (hand, _) in chooser.items() if len(buttons(hand)) == 1)
    partner = next(n for n in chooser if n != name)
    hand, data = chooser[name]
    assert hand["chat"]["id"] == PEOPLE[name]  # in the private chat
    before = len(tg.sent_to(GROUP))
    answer = await table.press(name, hand, data)
    assert not answer.get("text")
    opens = tr("en", "{name} opens.", name=name)
    await tg.wait_for(
        lambda: any(opens in m.get("text", "") for m in tg.sent_to(GROUP)[before:]),
        what="the group told who opens",
    )
    # the one who claimed now has moves to play; the partner's press comes too late
    await tg.wait_for(
        lambda: table.newest_hand() and table.newest_hand()[0] == name,  # type: ignore[index]
        what="the opener's moves",
    )
    late_hand, late = chooser[partner]
    answer = await table.press(partner, late_hand, late)
    assert answer["text"] == tr("en", "Who opens this hand is already decided; nothing changed.")
