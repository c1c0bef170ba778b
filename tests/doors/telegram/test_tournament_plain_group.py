"""A tournament in a Telegram group without topics (issue 22), through the real program:
each table plays in the group itself, its board a message of its own; its players take
their seats with the Join button of their table's lobby in the group, and play by the
buttons of their private hands. A press naming a game of another group acts nowhere."""

from __future__ import annotations

from tests.doors.telegram.driver import GROUP, JSON, BotProcess, Table, buttons
from tests.doors.telegram.fake_api import FakeTelegram

OTHER = -1009876543210


def invitations(tg: FakeTelegram) -> list[JSON]:
    """The group's messages asking a partner to accept."""
    return [m for m in tg.sent_to(GROUP) if any("|tournament accept " in d for d in buttons(m))]


def group_texts(tg: FakeTelegram) -> list[str]:
    return [str(m.get("text", "")) for m in tg.sent_to(GROUP)]


def table_lobbies(tg: FakeTelegram) -> list[JSON]:
    """The group's messages with a Join button of a table (its lobby, as it is now)."""
    found = []
    for m in tg.sent_to(GROUP):
        now = tg.message(GROUP, m["message_id"])
        if any(d.endswith("|join") for d in buttons(now)):
            found.append(now)
    return found


async def test_a_table_plays_in_the_group_itself_by_its_buttons(
    tg: FakeTelegram, bot: BotProcess
) -> None:
    tg.set_admins(GROUP, [701])
    table = Table(tg)
    table.person("Org", 701)
    table.person("Ana", 702)
    table.person("Beto", 703)
    await table.say("Ana", "/help")
    await table.say("Beto", "/help")
    await table.say("Org", "/tournament new Copa rounds=1 minutes=0 checkin=off")
    await table.say("Ana", "/tournament register Las Primas @Beto")
    # the named partner accepts with the button under the invitation
    [asked] = await tg.wait_for(lambda: invitations(tg), what="Beto's invitation")
    [accept] = [d for d in buttons(asked) if "|tournament accept " in d]
    await table.press("Beto", asked, accept)
    await tg.wait_for(lambda: any("Las Primas is in" in t for t in group_texts(tg)), what="in")
    await table.say("Org", "/tournament register Bots computer computer")
    await table.say("Org", "/tournament close")
    await table.say("Org", "/tournament start")
    [lobby] = await tg.wait_for(lambda: table_lobbies(tg), what="the table's lobby in the group")
    join = next(d for d in buttons(lobby) if d.endswith("|join"))
    assert [d.rsplit("|", 1)[1] for d in buttons(lobby)] == ["join"]  # only Join
    # a forged press of that button from another group acts nowhere
    tg.group(OTHER, "Otro")
    tg.send_message(OTHER, table.people["Ana"], "/tournament")
    there, *_ = await tg.wait_for(lambda: tg.sent_to(OTHER), what="an answer in the other group")
    forged = tg.press(OTHER, table.people["Ana"], there["message_id"], join, strict=False)
    answer = await tg.wait_for(
        lambda: next((a for a in tg.answered_callbacks() if a["id"] == forged["id"]), None),
        what="an answer to the forged press",
    )
    assert answer.get("text"), answer
    # the players press Join in the group: the table's game begins there
    for name in ("Ana", "Beto"):
        assert not (await table.press(name, lobby, join)).get("text")
    board = await tg.wait_for(table.board, what="the table's board in the group")
    assert "message_thread_id" not in board
    name, hand = await tg.wait_for(table.newest_hand, what="a hand in a private chat")
    assert name in ("Ana", "Beto")
    play = next(d for d in buttons(hand) if d.startswith(("m|", "c|")))
    updates = table.board_updates()
    assert not (await table.press(name, hand, play)).get("text")
    await tg.wait_for(lambda: table.board_updates() > updates, what="the move on the board")
