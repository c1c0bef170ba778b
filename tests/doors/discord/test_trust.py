"""Issue 18 end to end on Discord, through the real program and discord.py: an export in the
middle of a hand shows nothing hidden and the whole record comes after the end; a press
forged in a direct message acts in no room; a button of another channel's game acts in
neither; a display name full of markdown and mentions shows as typed and pings nobody."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.doors.discord.driver import (
    CHANNEL,
    GUILD,
    JSON,
    MY_HAND,
    TILE,
    BotProcess,
    Table,
    custom_ids,
    moves,
)
from tests.doors.discord.fake_discord import FakeDiscord

OTHER_CHANNEL = CHANNEL + 1
ANA, BETO, CARLA = 320_000_000_000_018_001, 320_000_000_000_018_002, 320_000_000_000_018_003


# ----- what the tests look at -------------------------------------------------------------


def game_row(bot: BotProcess, game_id: int) -> tuple[Any, ...]:
    """A game as stored: everything an action could change."""
    [row] = bot.query(
        "SELECT status, version, plies, seats, snapshot FROM games WHERE id = ?", game_id
    )
    return tuple(row)


def rooms(bot: BotProcess) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in bot.query("SELECT id, settings FROM rooms ORDER BY id")]


def channel_state(fake: FakeDiscord, channel: int) -> tuple[list[JSON], int]:
    """The channel's messages as they are, and the requests that wrote to it."""
    writes = [
        c
        for c in fake.calls
        if c.method != "GET" and c.path.startswith(f"/channels/{channel}/") and c.ok
    ]
    return fake.messages(channel), len(writes)


async def settled(table: Table, bot: BotProcess, game: int, channel: int) -> tuple[list[JSON], int]:
    """``channel``'s state once whatever the bot had queued for it has gone out: Ana
    fences it (Table.fence: the score, or the rules while ``game`` waits in its lobby),
    and the fence's own message is its newest message and its latest write."""
    sub = "score" if game_row(bot, game)[0] == "playing" else "rules"
    here, table.channel = table.channel, channel
    try:
        await table.fence("Ana", sub)
    finally:
        table.channel = here
    return channel_state(table.fake, channel)


def before_the_fence(state: tuple[list[JSON], int]) -> tuple[list[JSON], int]:
    """A channel's state as :func:`settled` found it, without the fence's message."""
    messages, writes = state
    return messages[:-1], writes - 1


def newest_id(fake: FakeDiscord, channel: int = CHANNEL) -> int:
    return max((int(m["id"]) for m in fake.messages(channel)), default=0)


def game_of(message: JSON) -> int:
    """The game a message's buttons belong to."""
    return next(int(c.split(":")[2]) for c in custom_ids(message) if c.split(":")[2] != "-")


async def hand_with_buttons(table: Table, name: str) -> JSON:
    """``name``'s newest direct message with buttons (their hand, when they are to move)."""

    def found() -> JSON | None:
        dms = [m for m in table.fake.dm_messages(table.people[name]) if custom_ids(m)]
        return dms[-1] if dms else None

    return await table.fake.wait_for(found, timeout=30, what=f"{name}'s hand with buttons")


async def to_move(
    table: Table, game: int, names: tuple[str, ...], after: int = -1
) -> tuple[str, JSON, int]:
    """(name, DM, move number) of the hand with moves of ``game`` offered last, after move
    ``after``."""

    def found() -> tuple[str, JSON, int] | None:
        best = None
        for name in names:
            for message in table.fake.dm_messages(table.people[name]):
                offered = moves(message)
                if offered and game_of(message) == game:
                    number = int(offered[0][0].split(":")[3])
                    if number > after and (best is None or number > best[2]):
                        best = (name, message, number)
        return best

    return await table.fake.wait_for(found, timeout=20, what=f"a hand of game {game}")


class Forger:
    """A tampered client: one button of a message the bot sent ``name`` made to carry
    whatever custom id, and pressed."""

    def __init__(self, table: Table, name: str, message: JSON) -> None:
        self.table, self.name, self.message = table, name, message
        self.current = custom_ids(message)[0]

    async def press(self, forged: str) -> JSON:
        """Press ``forged``: the answer only the presser sees."""
        self.table.fake.forge(int(self.message["id"]), self.current, forged)
        self.current = forged
        iid = await self.table.press(self.name, self.message, forged)
        return await self.table.refusal(iid)


async def exported(table: Table, name: str) -> tuple[dict[str, Any], bytes, str]:
    """``name`` runs /domino export: the record (as JSON and bytes) and the text with it."""
    fake = table.fake
    since = newest_id(fake, table.channel)
    iid = table.slash(name, "export")
    await table.settled(iid, "/domino export")

    def file() -> tuple[JSON, JSON] | None:
        answers = fake.interaction_messages(iid)  # the room's copy, or only the asker's
        shown = [m for m in fake.messages(table.channel) if int(m["id"]) > since]
        for message in shown + answers:
            for attachment in message["attachments"]:
                if attachment["filename"].endswith(".json"):
                    return message, attachment
        return None

    message, attachment = await fake.wait_for(file, timeout=15, what=f"{name}'s export")
    data = fake.file_bytes(attachment["id"])
    return json.loads(data), data, message["content"]


# ----- export ------------------------------------------------------------------------------


async def test_export_shows_only_finished_hands_until_the_end_then_the_whole_record(
    fake, bot, table, tmp_path: Path
) -> None:
    table.person("Ana", ANA)
    table.person("Beto", BETO)
    await table.start_game({"preset": "draw", "target": 100})
    fake.member(GUILD, CARLA, "Carla", locale="en-US")  # in the server, not at the table
    table.people["Carla"] = CARLA
    await table.play_out(limit=2)
    # in the first hand, by a player and by someone watching: nothing of the deal
    for name in ("Ana", "Carla"):
        record, data, text = await exported(table, name)
        assert not record.get("hands") and not TILE.search(data.decode()), data
        assert not TILE.search(text), text
    played: list[dict[str, Any]] = []  # each export during the game: what it showed
    await table.play_out(until_hand_end=True)
    if custom_ids(table.board()):  # the game goes on: the second hand, a few moves in
        await fake.wait_for(
            lambda: any(MY_HAND.match(c) for c in custom_ids(table.board())),
            timeout=30,
            what="the second hand dealt",
        )
        await table.play_out(limit=2)
        for name in ("Beto", "Carla"):
            record, data, text = await exported(table, name)
            assert len(record["hands"]) == 1 and not TILE.search(text), text
            played.append(record)
    await table.command("Ana", "cancel")  # the game is over (sooner than playing to 100)
    assert bot.game()["status"] in ("finished", "cancelled")

    whole, data, _ = await exported(table, "Carla")  # after the end, by anyone
    for record in played:  # the finished hand as it was, nothing of the one in play
        assert record["hands"] == whole["hands"][:1] and "unfinished" not in record
        # the second hand, cancelled in play, only as the room saw it (issue 32, 2)
        unfinished = whole["unfinished"]
        assert unfinished["moves"] and not {"deal", "boneyard", "seed"} & set(unfinished)
    path = tmp_path / "record.json"
    path.write_bytes(data)
    replay = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).parents[3],
    )
    assert replay.returncode == 0, replay.stderr
    assert len(json.loads(replay.stdout)["hands"]) == len(whole["hands"])


# ----- presses bound to their place -------------------------------------------------------

ROOM_ACTIONS = (
    "join", "new", "begin fill", "cancel", "export", "rules", "top", "next", "kick 2",
    "settings language en", "add_ai normal", "leave", "board", "score",
)  # fmt: skip


async def test_presses_forged_in_a_direct_message_act_nowhere(fake, bot, table) -> None:
    fake.text_channel(GUILD, OTHER_CHANNEL, "table-2")
    table.person("Ana", ANA, admin=True)
    table.person("Beto", BETO)
    table.person("Carla", CARLA, admin=True)
    # Carla plays a computer in another channel: the bot sends her hands by DM
    table.channel = OTHER_CHANNEL
    await slow_turns(table, "Carla")
    await table.command("Carla", "new", {"preset": "draw", "target": 100})
    await table.command("Carla", "begin", {"fill": True})
    carla = Forger(table, "Carla", await hand_with_buttons(table, "Carla"))
    game_b = game_of(carla.message)

    # Ana opens a game in the channel; while its lobby is open, Carla's DM presses name it
    table.channel = CHANNEL
    await slow_turns(table, "Ana")
    await table.command("Ana", "new", {"preset": "draw", "target": 100})
    game_a = game_of(await fake.wait_for(table.lobby, what="the lobby"))

    async def nothing_happens(forger: Forger, forged: list[str]) -> None:
        before = (
            await settled(table, bot, game_a, CHANNEL),
            await settled(table, bot, game_b, OTHER_CHANNEL),
        )
        games = [game_row(bot, game_a), game_row(bot, game_b)]
        settings = rooms(bot)
        for custom_id in forged:
            answer = await forger.press(custom_id)
            assert answer["content"] and answer["channel_id"] == forger.message["channel_id"]
        # anything the presses sent to a room has gone out
        after = (
            before_the_fence(await settled(table, bot, game_a, CHANNEL)),
            before_the_fence(await settled(table, bot, game_b, OTHER_CHANNEL)),
        )
        assert after == before, "a forged press wrote to a channel"
        assert [game_row(bot, game_a), game_row(bot, game_b)] == games
        assert rooms(bot) == settings

    await nothing_happens(carla, [f"dom:c:{game_a}:-:{action}" for action in ROOM_ACTIONS])

    # the game begins: the player to move gets their hand by DM
    await table.command("Beto", "join")
    await table.command("Ana", "begin")
    name, hand, number = await to_move(table, game_a, ("Ana", "Beto"))
    play = moves(hand)[0][0]
    command = play.split(":", 4)[4]
    room_actions = [f"dom:c:{game_a}:-:{action}" for action in ROOM_ACTIONS]
    # Carla, seated nowhere here: the room's actions, and the move offered to the player
    await nothing_happens(carla, [*room_actions, f"dom:c:{game_a}:{number}:{command}"])
    # nor her own game's room actions, from her DM
    await nothing_happens(carla, [f"dom:c:{game_b}:-:{a}" for a in ("cancel", "add_ai hard")])
    # the player to move, from their own hand's DM: the room's actions
    mover = Forger(table, name, hand)
    await nothing_happens(mover, room_actions)

    # they play (from "My hand", their DM's button being forged); then, no longer to
    # move, their DM's button sends the other seat's move
    copy = await table.my_hand(name)
    updates = table.board_updates()
    iid = await table.press(name, copy, play)
    await fake.wait_for(lambda: table.board_updates() > updates, what="the move")
    assert not table.refusals(iid)
    _, _, now = await to_move(table, game_a, ("Ana", "Beto"), after=number)
    theirs = [f"dom:c:{game_a}:{now}:{action}" for action in ("draw", "pass", command)]
    await nothing_happens(mover, theirs)


async def slow_turns(table: Table, admin: str) -> None:
    """Turns that take a day: no turn timer speaks in the room while a test looks at it."""
    await table.command(admin, "settings", {"name": "turn_timeout", "value": "86400"})


async def test_a_button_of_another_channels_game_acts_in_neither(fake, bot, table) -> None:
    fake.text_channel(GUILD, OTHER_CHANNEL, "table-2")
    table.person("Ana", ANA)
    table.person("Beto", BETO)
    table.channel = OTHER_CHANNEL
    await table.start_game({"preset": "draw", "target": 100})
    game_b = game_of(table.board())
    table.channel = CHANNEL
    board = await table.start_game({"preset": "block", "target": 100})
    game_a = game_of(board)
    games = [game_row(bot, game_a), game_row(bot, game_b)]
    other = channel_state(fake, OTHER_CHANNEL)
    forger = Forger(table, "Ana", table.board())
    forger.current = next(c for c in custom_ids(board) if c.endswith(":board"))
    for action in ("cancel", "hand", "board", "next", "leave", "add_ai normal"):
        answer = await forger.press(f"dom:c:{game_b}:-:{action}")
        assert "earlier moment" in answer["content"], answer["content"]
    # stopped, the program first sends whatever is on its way, to any channel
    # (DiscordBot.run waits for the delivery to be idle before it disconnects)
    assert await bot.stop() == 0
    assert channel_state(fake, OTHER_CHANNEL) == other
    assert [game_row(bot, game_a), game_row(bot, game_b)] == games


# ----- names --------------------------------------------------------------------------------


async def test_a_name_with_markdown_and_mentions_shows_as_typed_and_pings_nobody(
    fake, bot, table
) -> None:
    name = f"**Zed** @everyone <@{ANA}> __x__\n# big"
    table.person("Ana", ANA)  # she opens and begins: Zed's hand is not his answer
    zed = table.person(name, 320_000_000_000_018_009, dms=False)  # called in the room
    await table.start_game({"preset": "draw", "target": 100})
    await fake.wait_for(
        lambda: any(f"<@{zed}>" in (m["content"] or "") for m in fake.messages(CHANNEL)),
        what="Zed called in the channel",
    )
    await table.play_out(limit=3)
    sent = [
        c
        for c in fake.calls
        if c.ok
        and c.method in ("POST", "PATCH")
        and isinstance(c.response, dict)
        and c.response.get("channel_id") == str(CHANNEL)
        and isinstance(c.json, dict)
        and "content" in c.json
    ]
    assert sent
    shown = "\n".join(c.response["content"] for c in sent)
    assert "Zed" in shown and "\\*\\*Zed\\*\\*" in shown  # the name, its stars escaped
    for call in sent:
        content, message = call.json["content"] or "", call.response
        assert "**" not in re.sub(r"\\.", "", content), content
        assert not re.search(r"(?<!\\)@(everyone|here)", content), content
        assert f"<@{ANA}>" not in content, content
        assert not re.search(r"(?m)^#", content), content
        # whom it notifies: nobody, or Zed alone when it calls him
        allowed = call.json.get("allowed_mentions")
        assert allowed is not None and allowed["parse"] == [], call.json
        assert {str(u) for u in allowed.get("users") or []} <= {str(zed)}, allowed
        assert not message["mention_everyone"] and not message["mention_roles"], message
        assert {u["id"] for u in message["mentions"]} <= {str(zed)}, message["mentions"]
    called = [c for c in sent if f"<@{zed}>" in (c.json["content"] or "")]
    assert called and all(c.response["mentions"][0]["id"] == str(zed) for c in called)
