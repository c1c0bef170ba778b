"""The Discord bot end to end: the real program and the real discord.py against the fake
Discord, from ``/domino new`` to the leaderboard."""

from __future__ import annotations

import itertools
import json
import re

from tests.doors.discord.driver import (
    CHANNEL,
    GUILD,
    MY_HAND,
    TILE,
    BotProcess,
    command_of,
    custom_ids,
    has_file,
    leaked_tiles,
    moves,
    public_moves,
    words,
)
from tests.doors.discord.fake_discord import (
    DEFERRED_CHANNEL_MESSAGE,
    EPHEMERAL,
    GUILD_MESSAGES,
    GUILDS,
    Call,
    FakeDiscord,
)

SUBCOMMANDS = {
    "new",
    "join",
    "leave",
    "add_ai",
    "kick",
    "begin",
    "hand",
    "play",
    "draw",
    "pass",
    "end",
    "open",
    "next",
    "board",
    "score",
    "cancel",
    "top",
    "stats",
    "rules",
    "settings",
    "rule",
    "export",
    "help",
    "forget",
}
PRESETS = {
    "partnership",
    "tournament_pr",
    "cuban",
    "block",
    "draw",
    "all_fives",
    "fido12",
    "fido18",
    "mexican_train",
}
OTHER_CHANNEL = CHANNEL + 1


def board_posts(fake: FakeDiscord, channel: int = CHANNEL) -> list[Call]:
    return [
        c
        for c in fake.calls_to("POST", rf"^/channels/{channel}/messages$")
        if c.ok and has_file(c.response, "board.png")
    ]


# ----- the leak detector itself ---------------------------------------------------------


_IDS = itertools.count(100)


def _message(channel: int, content: str, **extra) -> dict:
    return {"id": str(next(_IDS)), "channel_id": str(channel), "content": content, "flags": 0,
            "attachments": [], "components": [], **extra}  # fmt: skip


def _board(content: str, playing: bool) -> dict:
    hand = [{"type": 1, "components": [{"type": 2, "custom_id": "dom:c:1:-:hand"}]}]
    return _message(
        CHANNEL,
        content,
        id="1",
        attachments=[{"filename": "board.png"}],
        components=hand if playing else [],
    )


def _call(method: str, path: str, response: dict, body: dict | None = None) -> Call:
    """A request the bot made: ``body`` (by default what ``response`` shows) answered
    ``response``."""
    if body is None:
        body = {k: response[k] for k in ("content", "components") if k in response}
    return Call(method, path, {}, body, {}, 0.0, 200, response)


def test_a_tile_named_in_the_channel_while_still_in_a_hand_is_a_leak() -> None:
    fake = FakeDiscord()
    dm, messages, board = 900, f"/channels/{CHANNEL}/messages", f"/channels/{CHANNEL}/messages/1"
    ephemeral_hand = _message(
        CHANNEL, "Your tiles: 5-5", flags=EPHEMERAL, interaction_metadata={"user": {"id": "101"}}
    )
    fake.calls += [
        _call("POST", "/users/@me/channels", {"id": str(dm)}, {"recipient_id": "101"}),
        _call("POST", messages, _board("Hand 1.", True)),
        _call("POST", f"/channels/{dm}/messages", _message(dm, "Your tiles: 6-4 5-5")),
        _call("PATCH", board, _board("Ana plays 6-4", True)),
        _call("POST", messages, _message(CHANNEL, "Ana still holds 5-5")),
        _call("POST", "/webhooks/1/token", ephemeral_hand),
    ]
    # 6-4 was played: public; 5-5 is in Ana's next (ephemeral) hand of the same deal
    assert leaked_tiles(fake) == [("Ana still holds 5-5", "5-5")]
    # a public interaction follow-up is the channel's too
    public = _message(CHANNEL, "Beto thinks Ana has 5-5")
    fake.calls.insert(5, _call("POST", "/webhooks/1/token", public))
    assert [tile for _, tile in leaked_tiles(fake)] == ["5-5", "5-5"]
    # an edit that leaves the board's buttons as they were: the hand is still in play
    fake.calls.insert(4, _call("PATCH", board, _board("", True), {"content": "..."}))
    assert len(leaked_tiles(fake)) == 2
    # the hand was over (the board offers no "My hand"): every tile is shown then
    fake.calls.insert(4, _call("PATCH", board, _board("", False)))
    assert leaked_tiles(fake) == []


def test_the_driver_picks_a_select_menus_first_option() -> None:
    row = {"type": 1, "components": [{"type": 3, "custom_id": "dom:s:7:40:0", "options": [
        {"label": "6-4 on 6-6", "value": "play 6-4 on 6-6"},
        {"label": "draw", "value": "draw"},
    ]}]}  # fmt: skip
    buttons = {"type": 1, "components": [
        {"type": 2, "custom_id": "dom:p:7:40:1", "label": "More"},
        {"type": 2, "custom_id": "dom:c:7:40:pass", "label": "pass"},
    ]}  # fmt: skip
    hand = {"components": [row, buttons]}
    assert moves(hand) == [("dom:s:7:40:0", ["play 6-4 on 6-6"]), ("dom:c:7:40:pass", None)]


# ----- games ----------------------------------------------------------------------------


async def test_four_people_play_partnership_to_the_leaderboard(fake, bot, table) -> None:
    for i, name in enumerate(["Ana", "Beto", "Carla", "Dani"]):
        table.person(name, 320_000_000_000_000_101 + i)
    assert f"https://discord.com/oauth2/authorize?client_id={fake.application_id}" in bot.log()
    assert fake.identified[-1]["intents"] == GUILDS | GUILD_MESSAGES

    new = table.slash("Ana", "new", {"preset": "partnership", "target": 50})
    await table.settled(new, "/domino new")
    [answer] = fake.interaction_responses(new)
    assert answer["type"] == DEFERRED_CHANNEL_MESSAGE and answer["ephemeral"], answer
    assert fake.interaction_messages(new) == []  # nothing private: the answer was deleted
    lobby = await fake.wait_for(table.lobby, what="the lobby in the channel")
    assert not lobby["flags"] & EPHEMERAL and "interaction_metadata" not in lobby
    join = next(c for c in custom_ids(lobby) if c.endswith(":join"))
    assert {re.sub(r"^dom:c:\d+:-:", "", c) for c in custom_ids(lobby)} >= {
        "join",
        "add_ai normal",
        "begin fill",
        "cancel",
    }
    await table.press("Beto", lobby, join)  # Join on the lobby
    await fake.wait_for(
        lambda: "Beto" in words(table.lobby() or {}), what="Beto seated in the lobby"
    )
    for name in ["Carla", "Dani"]:
        assert await table.command(name, "join") == []
    assert await table.command("Ana", "begin") == []
    board = await fake.wait_for(table.board, what="the board")
    keys = custom_ids(board)
    assert any(MY_HAND.match(c) for c in keys) and any(c.endswith(":-:board") for c in keys)
    moves_pressed = await table.play_out()
    assert moves_pressed >= 10
    final = table.board()
    assert final is not None and not custom_ids(final)
    # a hand's board is edited in place, not posted again; each hand's end stays as its
    # own picture, so each hand has one board message (each after the first is named)
    said = [m["content"] or "" for m in fake.messages(CHANNEL)]
    hands = 1 + len([t for t in said if re.fullmatch(r"(Hand|Mano|Mão) \d+\.", t)])
    posts = len(board_posts(fake))
    assert hands <= posts <= 2 * hands, (hands, posts)  # (at most one burial a hand)

    def summaries() -> list[dict]:
        return [
            m
            for m in fake.messages(CHANNEL)
            if int(m["id"]) > int(board["id"]) and m["content"] and not m["attachments"]
        ]

    # (the summary may follow the final board out: waited for, not read at once)
    await fake.wait_for(summaries, what="a summary of the game in the channel")
    # everyone's hand came by DM: "<name>, your turn" rides on the board, no mention of its own
    assert "your turn" in board["content"]
    calls = [
        text
        for c in fake.calls_to("POST", rf"^/channels/{CHANNEL}/messages$")
        if c.ok and not has_file(c.response, "board.png") and "your turn" in (text := words(c.json))
    ]
    assert not calls, calls

    newest = max(int(m["id"]) for m in fake.messages(CHANNEL))
    await table.command("Beto", "top")

    def leaderboard() -> dict | None:
        for message in fake.messages(CHANNEL):
            if int(message["id"]) <= newest:
                continue
            pictures = [a for a in message["attachments"] if a["filename"].endswith(".png")]
            if pictures and not has_file(message, "board.png"):
                return message
        return None

    top = await fake.wait_for(leaderboard, what="the leaderboard picture in the channel")
    assert any(name in words(top) for name in table.people), top["content"]

    # /domino, and /tournament beside it, in this guild only, their words in Spanish and
    # Portuguese too
    assert fake.commands() == []
    assert sorted(c["name"] for c in fake.commands(GUILD)) == ["domino", "tournament"]
    [domino] = [c for c in fake.commands(GUILD) if c["name"] == "domino"]
    assert domino["name"] == "domino"
    assert domino.get("contexts") == [0] or domino.get("dm_permission") is False
    options = {o["name"]: o for o in domino["options"]}
    assert set(options) == SUBCOMMANDS
    for option in options.values():
        assert option["type"] == 1
        for key in ("name_localizations", "description_localizations"):
            assert {"es-ES", "es-419", "pt-BR"} <= set(option.get(key) or {}), (option, key)
    translated = [o for o in options.values() if o["name_localizations"]["es-ES"] != o["name"]]
    assert translated, "no subcommand has a Spanish name of its own"
    described = [
        o for o in options.values() if o["description_localizations"]["pt-BR"] != o["description"]
    ]
    assert len(described) > len(options) / 2, "the descriptions are not in Portuguese"
    new_options = {o["name"]: o for o in options["new"]["options"]}
    assert {c["value"] for c in new_options["preset"]["choices"]} == PRESETS
    assert new_options["target"]["type"] == 4
    play = {o["name"]: o for o in options["play"]["options"]}
    assert play["tile"]["required"] and play["tile"]["autocomplete"]
    assert play["on"].get("autocomplete")


async def test_one_person_and_three_computers(fake, bot, table) -> None:
    table.person("Ana", 320_000_000_000_000_201)
    assert await table.command("Ana", "new", {"preset": "partnership", "target": 30}) == []
    assert await table.command("Ana", "add_ai", {"strength": "hard"}) == []

    def begin_fill() -> tuple[dict, str] | None:
        lobby = table.lobby()
        found = [c for c in custom_ids(lobby or {}) if c.endswith(":begin fill")]
        return (lobby, found[0]) if lobby and found else None

    lobby, begin = await fake.wait_for(begin_fill, what="the lobby's Begin button")
    await table.press("Ana", lobby, begin)  # the empty seats get computer players
    await fake.wait_for(table.board, timeout=20, what="the board")
    assert await table.play_out() >= 3
    assert not custom_ids(table.board())
    assert bot.game()["status"] == "finished"


async def test_mexican_train_of_three(fake, bot, table) -> None:
    for i, name in enumerate(["Ana", "Beto", "Carla"]):
        table.person(name, 320_000_000_000_000_301 + i)
    await table.start_game({"preset": "mexican_train", "target": 1})
    assert await table.play_out() >= 10
    assert not custom_ids(table.board())
    assert bot.game()["status"] == "finished"


async def test_closed_dms_play_through_my_hand(fake, bot, table) -> None:
    table.person("Ana", 320_000_000_000_000_401)
    beto = table.person("Beto", 320_000_000_000_000_402, dms=False)
    await table.start_game({"preset": "draw", "target": 30})

    def notices() -> list[str]:  # posted (the bot may tidy them away when the game ends)
        return [
            text
            for c in fake.calls_to("POST", rf"^/channels/{CHANNEL}/messages$")
            if c.ok and f"<@{beto}>" in (text := words(c.json)) and "My hand" in text
        ]

    await fake.wait_for(notices, what="the notice to press My hand")
    assert await table.play_out() >= 3
    assert not custom_ids(table.board())
    assert table.ephemeral_moves >= 1  # Beto played from the ephemeral "My hand"
    assert len(notices()) == 1  # told once in the game
    # Beto's hand never reached him by DM: his turn is called in the channel, mentioning him
    turn_calls = [
        text
        for c in fake.calls_to("POST", rf"^/channels/{CHANNEL}/messages$")
        if c.ok and "your turn" in (text := words(c.json)) and f"<@{beto}>" in text
    ]
    assert turn_calls, "Beto's turn was never called in the channel"
    dm = fake.dm_channel(beto)
    if dm is not None:
        sent = fake.calls_to("POST", rf"^/channels/{dm['id']}/messages$")
        assert sent and all(c.status == 403 and c.response["code"] == 50007 for c in sent)


async def test_too_many_requests_lose_no_move(fake, bot, table) -> None:
    table.person("Ana", 320_000_000_000_000_501)
    table.person("Beto", 320_000_000_000_000_502)
    await table.command("Ana", "new", {"preset": "draw", "target": 30})
    await table.command("Beto", "join")
    fake.fail("POST", r"^/channels/\d+/messages$", times=3, retry_after=1)
    fake.fail("PATCH", r"^/channels/\d+/messages/\d+$", times=3, retry_after=1)
    await table.command("Ana", "begin")
    await fake.wait_for(table.board, timeout=30, what="the board, late")
    moves_pressed = await table.play_out()
    refused = [c for c in fake.calls if c.status == 429]
    assert len(refused) == 6 and moves_pressed >= 3
    assert not custom_ids(table.board())  # every move made it: the game reached its end
    assert bot.game()["status"] == "finished"


async def test_killed_and_started_again_the_game_goes_on(fake, table, tmp_path) -> None:
    processes = [BotProcess(fake, tmp_path)]
    await processes[0].start()
    try:
        table.person("Ana", 320_000_000_000_000_601)
        table.person("Beto", 320_000_000_000_000_602)
        # to 200: no first hand reaches it (a hand scores at most the set's 168 pips), so
        # a next hand always follows
        board = await table.start_game({"preset": "draw", "target": 200})
        assert await table.play_out(limit=2) == 2
        name, hand, number = await table.next_hand()  # sent before the kill
        processes[0].kill()  # mid-hand

        processes.append(BotProcess(fake, tmp_path))
        await processes[1].start()
        # the hand's button, sent before the restart, still plays
        updates = table.board_updates()
        custom_id, values = moves(hand)[0]
        iid = await table.press(name, hand, custom_id, values)
        table.pressed_at = number
        await fake.wait_for(
            lambda: table.board_updates() > updates or table.refusals(iid), what="the move"
        )
        assert not table.refusals(iid), table.refusals(iid)
        assert table.board()["id"] == board["id"]  # the same board, edited
        await table.play_out(until_hand_end=True)
        processes[1].kill()  # the hand is over: its "next hand" timer is in the database

        updates = table.board_updates()
        processes.append(BotProcess(fake, tmp_path))
        await processes[2].start()
        # nobody presses "Next hand": the timer deals it, in the new process
        await fake.wait_for(
            lambda: (
                table.board_updates() > updates
                and any(MY_HAND.match(c) for c in custom_ids(table.board()))
            ),
            timeout=60,
            what="the next hand dealt by the timer",
        )
        # the next hand's board is a new message: the hand's end stays as its picture
        assert table.board()["id"] != board["id"]
        assert any(m["id"] == board["id"] for m in fake.messages(table.channel))
        assert await table.play_out(until_hand_end=True) >= 3  # the second hand, played
    finally:
        for process in processes:
            await process.stop()
    log = processes[-1].log()
    assert "Traceback" not in log, log
    assert not leaked_tiles(fake) and not public_moves(fake)


async def test_stale_foreign_and_forged_presses_change_nothing(fake, bot, table) -> None:
    table.person("Ana", 320_000_000_000_000_701)
    table.person("Beto", 320_000_000_000_000_702)
    await table.start_game({"preset": "draw", "target": 30})
    table.person("Carla", 320_000_000_000_000_703)  # not seated
    name, hand, number = await table.next_hand()
    other = "Beto" if name == "Ana" else "Ana"
    play, _ = moves(hand)[0]
    copy = await table.my_hand(name)  # the same hand, ephemeral, from the board
    assert play in custom_ids(copy) and copy["content"].startswith("Your tiles:")
    game = bot.game()
    updates = table.board_updates()

    def unchanged() -> None:
        assert table.board_updates() == updates
        now = bot.game()
        assert (now["plies"], now["version"]) == (game["plies"], game["version"])

    # someone else sends the player's move (a custom id taken from the player's hand)
    board = table.board()
    fake.forge(int(board["id"]), next(c for c in custom_ids(board) if c.endswith(":board")), play)
    answer = await table.refusal(await table.press(other, table.board(), play))
    assert f"It is {name}'s turn, not yours." in answer["content"]
    # custom ids the bot never sent
    for forged in ("dom:c:99999:1:play 6-6", "dom:zzz", "garbage"):
        board = table.board()
        fake.forge(int(board["id"]), custom_ids(board)[-1], forged)
        answer = await table.refusal(await table.press(other, table.board(), forged))
        assert answer["content"], forged
    # a hand's page button where there is no hand (on the board), by both players
    for presser in (name, other):
        board = table.board()
        page = f"dom:p:{game['id']}:{number}:1"
        fake.forge(int(board["id"]), custom_ids(board)[-1], page)
        await table.refusal(await table.press(presser, table.board(), page))
        await table.fence(name)  # whatever the press set going for the channel is out
        assert table.board_updates() == updates, f"{presser}'s page press edited the board"
    # someone without a seat asks for a hand
    mine = next(c for c in custom_ids(table.board()) if MY_HAND.match(c))
    answer = await table.refusal(await table.press("Carla", table.board(), mine))
    assert not has_file(answer, "hand.png")
    await table.fence(name)
    unchanged()

    # the right person plays; the pressed hand loses its buttons
    iid = await table.press(name, hand, play)
    await fake.wait_for(lambda: table.board_updates() > updates, what="the move")
    assert not table.refusals(iid)
    await fake.wait_for(
        lambda: not custom_ids(fake.message(int(hand["id"])) or {}),
        what="the hand's buttons removed",
    )
    # the same move again, from the ephemeral copy, is old
    updates = table.board_updates()
    game = bot.game()
    iid = await table.press(name, copy, play)
    answer = await table.refusal(iid)
    assert "earlier moment" in answer["content"]
    # "Here is how things are now": the presser's hand follows, only they see it
    [now] = await fake.wait_for(
        lambda: [m for m in table.followups(iid) if has_file(m, "hand.png")],
        what="the hand as it is now",
    )
    assert now["flags"] & EPHEMERAL, now
    await table.fence(name)
    unchanged()


async def test_autocomplete_offers_legal_moves(fake, bot, table) -> None:
    table.person("Ana", 320_000_000_000_000_801)
    table.person("Beto", 320_000_000_000_000_802)
    await table.start_game({"preset": "draw", "target": 30})
    table.person("Carla", 320_000_000_000_000_803)  # not seated
    name, hand, _ = await table.next_hand()
    offered = [command_of(c) for c, values in moves(hand) if values is None]
    offered += [v for c, values in moves(hand) if values for v in values]
    legal = {found.group() for c in offered if (found := TILE.search(c))}
    assert legal, offered
    typed = sorted(legal)[0][0]
    choices = await table.autocomplete(name, "tile", typed)
    assert choices, f"no choices for {typed!r}; legal: {legal}"
    for choice in choices:
        assert TILE.search(str(choice["value"])).group() in legal, (choice, legal)
    assert await table.autocomplete("Carla", "tile", typed) == []

    updates, plies = table.board_updates(), bot.game()["plies"]
    value = next(c["value"] for c in choices)
    assert await table.command(name, "play", {"tile": value}) == []  # nothing private
    await fake.wait_for(lambda: table.board_updates() > updates, what="the move on the board")
    assert bot.game()["plies"] > plies  # (the next player may have drawn too)
    tile = TILE.search(str(value)).group()
    # the move made is the chosen one (the board's text shows only the last few moves,
    # and forced draws may follow it)
    made = bot.query(
        "SELECT move FROM moves WHERE game_id = ? AND ply >= ? ORDER BY ply",
        bot.game()["id"],
        plies,
    )
    assert made and made[0]["move"].split(": ", 1)[1].startswith(tile), [m["move"] for m in made]


async def test_a_deleted_channel_ends_its_game(fake, bot, table) -> None:
    fake.text_channel(GUILD, OTHER_CHANNEL, "table-2")
    table.channel = OTHER_CHANNEL
    table.person("Ana", 320_000_000_000_000_901)
    table.person("Beto", 320_000_000_000_000_902)
    await table.start_game({"preset": "draw", "target": 30})
    name, hand, _ = await table.next_hand()
    fake.delete_channel(OTHER_CHANNEL)
    deleted = len(fake.calls)
    await fake.wait_for(lambda: bot.game()["status"] == "cancelled", what="the game to end")
    # the old hand's buttons change nothing now
    custom_id, values = moves(hand)[0]
    answer = await table.refusal(await table.press(name, hand, custom_id, values))
    assert answer["content"]
    assert bot.game()["status"] == "cancelled"
    # a new game in another channel
    table.channel = CHANNEL
    assert await table.command("Ana", "new", {"preset": "draw", "target": 30}) == []
    await fake.wait_for(table.lobby, what="the new lobby")
    # stopped, the program first sends whatever is on its way, to any channel
    # (DiscordBot.run waits for the delivery to be idle before it disconnects)
    assert await bot.stop() == 0
    late = [
        f"{c.method} {c.path}"
        for c in fake.calls[deleted:]
        if c.path.startswith(f"/channels/{OTHER_CHANNEL}/") and c.method != "GET"
    ]
    assert not late  # the old game's board is left alone
    assert not leaked_tiles(fake, OTHER_CHANNEL) and not public_moves(fake, OTHER_CHANNEL)


async def test_a_thread_is_a_room_of_its_own(fake, bot, table) -> None:
    thread = CHANNEL + 2
    fake.thread(GUILD, CHANNEL, thread, "mesa-1")
    table.person("Ana", 320_000_000_000_000_911)
    table.person("Beto", 320_000_000_000_000_912)
    await table.start_game({"preset": "draw", "target": 30})  # in the channel
    table.channel = thread
    await table.start_game({"preset": "block", "target": 30})  # and in its thread at once
    games = bot.query("SELECT status, preset FROM games ORDER BY id")
    assert [tuple(g) for g in games] == [("playing", "draw"), ("playing", "block")]
    assert table.board() is not None and fake.messages(thread)
    fake.delete_channel(thread)
    await fake.wait_for(
        lambda: bot.query("SELECT status FROM games ORDER BY id")[1]["status"] == "cancelled",
        what="the thread's game to end",
    )
    assert bot.query("SELECT status FROM games ORDER BY id")[0]["status"] == "playing"


async def test_only_the_creator_or_an_admin_cancels_and_admins_change_settings(
    fake, bot, table
) -> None:
    table.person("Ana", 320_000_000_000_001_001)
    table.person("Beto", 320_000_000_000_001_002)
    table.person("Luis", 320_000_000_000_001_003, admin=True)  # Manage Server, Manage Channels
    await table.command("Ana", "new", {"preset": "draw", "target": 30})
    await fake.wait_for(table.lobby, what="the lobby")

    def settings() -> dict:
        [row] = bot.query("SELECT settings FROM rooms")
        value = row["settings"]
        return json.loads(value) if isinstance(value, str) else value

    [refused] = await table.command("Beto", "cancel")  # neither the creator nor an admin
    assert refused["flags"] & EPHEMERAL and "cancel" in refused["content"], refused
    [refused] = await table.command("Beto", "settings", {"name": "turn_timeout", "value": "30"})
    assert refused["flags"] & EPHEMERAL and "admins" in refused["content"], refused
    assert bot.game()["status"] == "lobby" and "turn_timeout" not in settings()

    await table.command("Luis", "settings", {"name": "turn_timeout", "value": "30"})
    await fake.wait_for(lambda: settings().get("turn_timeout") == 30, what="the new timeout")
    await table.command("Luis", "cancel")
    await fake.wait_for(lambda: bot.game()["status"] == "cancelled", what="the game cancelled")


async def test_a_buried_board_is_posted_again(fake, bot, table) -> None:
    ana = table.person("Ana", 320_000_000_000_001_101)
    first = await table.start_game({"preset": "draw", "target": 100}, computers=1)
    for number in range(15):  # people talk: the board goes out of view
        said = fake.post(CHANNEL, ana, f"what a game {number}")
    await table.play_out(limit=1)
    second = await fake.wait_for(
        lambda: (board := table.board()) and board["id"] != first["id"] and board,
        what="the board posted again at the bottom",
    )
    assert int(second["id"]) > int(said["id"])  # below the talk
    old = fake.message(int(first["id"]))
    assert old is None or not custom_ids(old)  # one board with buttons, the new one
    assert any(MY_HAND.match(c) for c in custom_ids(second))
