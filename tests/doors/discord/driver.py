"""The real bot program (``python -m bot``) against the fake Discord, and a table of people
who play through it: they run ``/domino`` commands in a channel and press the buttons and
menus the bot sent them (in their DMs, on the board, or in an ephemeral "My hand"
answer), as people do."""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.core.progress import NEXT_HAND_SECONDS
from tests.doors.discord.fake_discord import (
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    FakeDiscord,
)
from tests.program import Program

JSON = dict[str, Any]
GUILD = 1_190_000_000_000_000_000
CHANNEL = 1_190_000_000_000_000_100
TILE = re.compile(r"\b\d{1,2}-\d{1,2}\b")
MY_HAND = re.compile(r"^dom:c:\d+:-:hand$")
FENCERS = 330_000_000_000_000_000  # the user ids of the fences' askers start here


class BotProcess(Program):
    """The program talking to the fake through DISCORD_API_BASE_URL and
    DISCORD_GATEWAY_URL, its commands synced to the test guild."""

    def __init__(self, fake: FakeDiscord, home: Path, **env: str) -> None:
        super().__init__(home, **env)
        self.fake = fake

    async def start(self, timeout: float = 30) -> None:
        """Start the program and wait until it synced its commands and connected to the
        gateway (ready for interactions)."""
        synced, identified = len(self._syncs()), len(self.fake.identified)
        self.launch(
            {
                "DISCORD_TOKEN": self.fake.token,
                "DISCORD_API_BASE_URL": self.fake.api_base,
                "DISCORD_GATEWAY_URL": self.fake.gateway_url,
                "DISCORD_GUILD_IDS": str(GUILD),
                "TELEGRAM_TOKEN": "",
            }
        )
        assert self.process is not None
        process = self.process

        def ready() -> bool:
            if process.poll() is not None:
                return True
            connected = len(self.fake.identified) > identified and self.fake.connected_shards()
            return len(self._syncs()) > synced and bool(connected)

        try:
            await self.fake.wait_for(
                ready, timeout=timeout, what="the guild's commands synced and the gateway"
            )
        except AssertionError as error:
            raise AssertionError(f"{error}\n{self.log()}") from None
        assert self.process.poll() is None, f"the bot exited:\n{self.log()}"

    def _syncs(self) -> list[Any]:
        path = rf"^/applications/{self.fake.application_id}/guilds/{GUILD}/commands$"
        return [c for c in self.fake.calls_to("PUT", path) if c.status == 200]

    def query(self, sql: str, *parameters: Any) -> list[sqlite3.Row]:
        """Rows of the bot's database, read while it runs."""
        database = sqlite3.connect(self.home / "bot.sqlite3", timeout=10)
        database.row_factory = sqlite3.Row
        try:
            return database.execute(sql, parameters).fetchall()
        finally:
            database.close()

    def game(self) -> sqlite3.Row | None:
        """The newest game as stored (status, plies, version, ...)."""
        rows = self.query("SELECT * FROM games ORDER BY id DESC LIMIT 1")
        return rows[0] if rows else None


@dataclass
class Table:
    """People of the test guild in one channel, and what they do there."""

    fake: FakeDiscord
    channel: int = CHANNEL
    guild: int = GUILD
    people: dict[str, int] = field(default_factory=dict)  # name: user id
    closed: set[str] = field(default_factory=set)  # people whose DMs are closed
    interactions: list[tuple[str, int]] = field(default_factory=list)  # (name, id)
    selects: int = 0  # moves picked in a select menu
    ephemeral_moves: int = 0  # moves pressed on an ephemeral "My hand" answer
    pressed_at: int = -1  # the move number play_out pressed last
    pressed_id: str | None = None  # the message pressed last
    _asked: dict[str, int] = field(default_factory=dict)  # name: board updates at "My hand"
    _scanned: int = 0
    _updates: int = 0
    _fences: int = 0  # members who asked for a fence's answer, one each

    def person(self, name: str, user_id: int, dms: bool = True, admin: bool = False) -> int:
        if admin:
            self.fake.admin(self.guild, user_id, name, locale="en-US")
        else:
            self.fake.member(self.guild, user_id, name, locale="en-US")
        if not dms:
            self.fake.close_dms(user_id)
            self.closed.add(name)
        self.people[name] = user_id
        return user_id

    def mention(self, name: str) -> str:
        return f"<@{self.people[name]}>"

    # ----- commands --------------------------------------------------------------------

    def slash(self, name: str, sub: str, options: JSON | None = None) -> int:
        """``name`` runs ``/domino sub option:value...``; the interaction's id."""
        payload = self.fake.slash(
            self.guild, self.channel, self.people[name], "domino", sub, options
        )
        self.interactions.append((name, int(payload["id"])))
        return int(payload["id"])

    async def command(self, name: str, sub: str, options: JSON | None = None) -> list[JSON]:
        """``/domino sub`` and wait until its deferred answer was filled or deleted; what
        only ``name`` was shown (the deferred answer and follow-ups still there)."""
        iid = self.slash(name, sub, options)
        await self.settled(iid, f"/domino {sub}")
        return self.fake.interaction_messages(iid)

    async def settled(self, iid: int, what: str = "", timeout: float = 15) -> None:
        token = self.fake.interaction(iid)["token"]
        path = re.compile(rf"^/webhooks/\d+/{re.escape(token)}(/|$)")

        def done() -> bool:
            if not self.fake.interaction_responses(iid):
                return False
            return any(c.ok and path.search(c.path) for c in self.fake.calls)

        await self.fake.wait_for(done, timeout, f"the answer to {what or iid}")

    async def fence(self, name: str, sub: str = "score") -> None:
        """Return once whatever the bot had queued for the channel has gone out: ``name``
        runs ``/domino score`` (needs a game in play; ``rules`` in a lobby), whose answer
        is a message to the channel, and its deferred answer goes only when that message
        is out (DiscordPart.delivered). A channel's messages go out one after another, in
        the order they were queued (bot/doors/outbox.py), and a board is dropped only for
        a newer board, never for a text: what was queued there before the answer has gone
        out too. Call it after the interactions looked at were answered (a press's
        effects are queued before the answers they hold). Neither is a board, and
        neither changes a game. Asked by a member of its own each time: a person's
        answers in the channel are a few a minute (bot/core/reading.py), and ``name``
        may have had theirs."""
        self._fences += 1
        fencer = f"Fence {self._fences}"
        self.person(fencer, FENCERS + self._fences)
        shown = await self.command(fencer, sub)
        assert shown == [], f"the answer to /domino {sub} was not for the channel: {shown}"

    async def autocomplete(self, name: str, focused: str, value: str, sub: str = "play") -> list:
        """The choices the bot offers ``name`` typing ``value`` into option ``focused``."""
        payload = self.fake.autocomplete(
            self.guild, self.channel, self.people[name], "domino", focused, value, sub
        )
        iid = int(payload["id"])
        self.interactions.append((name, iid))
        [answer] = await self.fake.wait_for(
            lambda: self.fake.interaction_responses(iid), what="the autocomplete answer"
        )
        assert answer["type"] == AUTOCOMPLETE_RESULT, answer
        return answer["data"]["choices"]

    # ----- presses ---------------------------------------------------------------------

    def press_now(
        self, name: str, message: JSON, custom_id: str, values: list[str] | None = None
    ) -> int:
        """``name`` presses ``custom_id`` of ``message`` (a DM, channel or ephemeral one)."""
        channel = int(message["channel_id"])
        dm = self.fake.dm_channel(self.people[name])
        guild = None if dm is not None and int(dm["id"]) == channel else self.guild
        payload = self.fake.press(
            guild, channel, self.people[name], int(message["id"]), custom_id, values
        )
        self.interactions.append((name, int(payload["id"])))
        return int(payload["id"])

    async def press(
        self, name: str, message: JSON, custom_id: str, values: list[str] | None = None
    ) -> int:
        """Press and wait for the acknowledgement: a deferred update, or for a press that
        changes nothing an ephemeral answer at once; the interaction id."""
        iid = self.press_now(name, message, custom_id, values)
        [answer] = await self.fake.wait_for(
            lambda: self.fake.interaction_responses(iid), what=f"the answer to {custom_id}"
        )
        refused = answer["type"] == CHANNEL_MESSAGE and answer["ephemeral"]
        assert answer["type"] == DEFERRED_UPDATE or refused, answer
        return iid

    def followups(self, iid: int) -> list[JSON]:
        """What a press answered its presser (ephemeral follow-ups)."""
        return self.fake.interaction_messages(iid)

    def refusals(self, iid: int) -> list[JSON]:
        """A press's answers that are not a hand (a hand may follow a move ephemerally:
        the presser's next turn, when their DMs are closed)."""
        return [m for m in self.followups(iid) if not has_file(m, "hand.png")]

    async def refusal(self, iid: int, timeout: float = 10) -> JSON:
        """The ephemeral answer a press got."""
        [first, *_] = await self.fake.wait_for(
            lambda: self.refusals(iid), timeout, "an ephemeral answer"
        )
        assert first["flags"] & EPHEMERAL, first
        return first

    async def my_hand(self, name: str) -> JSON:
        """``name`` presses "My hand" on the board: the ephemeral answer with the hand."""
        board = self.board()
        assert board is not None
        mine = next(c for c in custom_ids(board) if MY_HAND.match(c))
        iid = await self.press(name, board, mine)
        [hand, *_] = await self.fake.wait_for(
            lambda: [m for m in self.followups(iid) if has_file(m, "hand.png")],
            what=f"{name}'s hand, ephemeral",
        )
        assert hand["flags"] & EPHEMERAL, hand
        return hand

    # ----- what the channel shows --------------------------------------------------------

    def board(self) -> JSON | None:
        """The channel's board message (the newest one with board.png)."""
        boards = [m for m in self.fake.messages(self.channel) if has_file(m, "board.png")]
        return boards[-1] if boards else None

    def lobby(self) -> JSON | None:
        found = [
            m
            for m in self.fake.messages(self.channel)
            if any(re.match(r"^dom:c:\d+:-:join$", c) for c in custom_ids(m))
        ]
        return found[-1] if found else None

    def board_updates(self) -> int:
        """Board posts and edits the fake answered."""
        calls = self.fake.calls
        while self._scanned < len(calls) and calls[self._scanned].status:  # answered ones
            call = calls[self._scanned]
            if call.ok and call.method in ("POST", "PATCH") and self._is_board(call.response):
                self._updates += 1
            self._scanned += 1
        return self._updates

    def _is_board(self, message: Any) -> bool:
        return (
            isinstance(message, dict)
            and message.get("channel_id") == str(self.channel)
            and not int(message.get("flags") or 0) & EPHEMERAL
            and has_file(message, "board.png")
        )

    def hands(self, name: str) -> list[JSON]:
        """Every hand message ``name`` was sent (DMs and ephemeral answers), oldest first."""
        uid = self.people[name]
        found = [m for m in self.fake.dm_messages(uid) if has_file(m, "hand.png")]
        for who, iid in self.interactions:
            if who == name:
                found += [m for m in self.fake.interaction_messages(iid) if has_file(m, "hand.png")]
        unique = {m["id"]: m for m in found}
        return sorted(unique.values(), key=lambda m: int(m["id"]))

    def newest_hand(self) -> tuple[str, JSON, int] | None:
        """(name, message, move number) of the hand to play: of everyone's latest hand that
        offers moves, the one offered at the latest move number."""
        best: tuple[int, str, JSON] | None = None
        for name in self.people:
            hands = self.hands(name)
            if not hands:
                continue
            latest = hands[-1]
            offered = moves(latest)
            if offered:
                number = move_number(offered[0][0])
                if best is None or number > best[0]:
                    best = (number, name, latest)
        return (best[1], best[2], best[0]) if best else None

    def fresh_hand(self) -> tuple[str, JSON, int] | None:
        """(name, message, move number) of a hand offered after the last move pressed."""
        found = self.newest_hand()
        if found is None or found[2] < self.pressed_at:
            return None
        # at the same move number: another hand message after claiming the opening
        # ("I open" makes no move), not the one pressed
        if found[2] == self.pressed_at and found[1].get("id") == self.pressed_id:
            return None
        return found

    async def next_hand(self) -> tuple[str, JSON, int]:
        """(name, message, move number) of the hand offered after the last move pressed."""
        return await self.fake.wait_for(self.fresh_hand, timeout=20, what="a new hand")

    # ----- playing ---------------------------------------------------------------------

    async def start_game(self, preset: JSON, computers: int = 0) -> JSON:
        """The first person runs ``/domino new`` with ``preset`` options, the others join,
        computer players take ``computers`` seats, the game begins; the first board."""
        creator, *others = self.people
        await self.command(creator, "new", preset)
        for name in others:
            await self.command(name, "join")
        for _ in range(computers):
            await self.command(creator, "add_ai", {"strength": "normal"})
        await self.command(creator, "begin")
        return await self.fake.wait_for(self.board, timeout=20, what="the first board")

    async def play_out(self, limit: int = 1500, until_hand_end: bool = False) -> int:
        """Everyone presses the first move of the newest hand (a select's first option), and
        someone presses "Next hand" between hands, until the board has no components left
        (the game is over), or with ``until_hand_end`` until a hand is over. People whose
        DMs are closed press "My hand" on the board after each update. Returns the moves
        pressed."""
        moves_pressed = 0
        for _ in range(limit):
            board = self.board()
            assert board is not None
            keys = custom_ids(board)
            if not keys:
                return moves_pressed
            updates = self.board_updates()
            next_hand = [c for c in keys if c.endswith(":next")]
            if next_hand and until_hand_end:
                return moves_pressed
            if next_hand:
                # everyone at the table presses "Next hand": dealt once all have (a moment
                # after the hand's end at the soonest), or when the pause ends
                for name in self.people:
                    if self.board_updates() > updates:
                        break
                    try:
                        await self.press(name, board, next_hand[0])
                    except LookupError:  # dealt meanwhile: the board changed
                        break
                await self.fake.wait_for(
                    lambda u=updates: self.board_updates() > u,
                    timeout=NEXT_HAND_SECONDS + 10,
                    what="the next hand",
                )
                continue
            if any(MY_HAND.match(c) for c in keys):
                for name in self.closed:
                    if self._asked.get(name) != updates:
                        self._asked[name] = updates
                        await self.my_hand(name)
            # a new hand to play, or the board changed meanwhile (a hand ended, or a
            # judge's ruling edited it): look at it again, as a person would
            found = await self.fake.wait_for(
                lambda u=updates: self.fresh_hand() or self.board_updates() > u,
                timeout=20,
                what="a new hand",
            )
            if found is True:
                continue
            name, hand, self.pressed_at = found
            self.pressed_id = hand.get("id")
            custom_id, values = moves(hand)[0]
            self.selects += values is not None
            self.ephemeral_moves += bool(int(hand["flags"]) & EPHEMERAL)
            iid = await self.press(name, hand, custom_id, values)
            moves_pressed += 1
            await self.fake.wait_for(
                lambda u=updates, i=iid: self.board_updates() > u or self.refusals(i),
                timeout=30,
                what=f"the board after {name} pressed {custom_id} {values or ''}",
            )
            if self.refusals(iid):
                text = [m["content"] for m in self.refusals(iid)]
                if all("earlier moment" in t or "already decided" in t for t in text):
                    # the game moved meanwhile (a turn's timer, a restart's hand sent again;
                    # an opening nobody claimed in 20 s, opened by the seat dealt as opener,
                    # BOT.md): the press was answered as it is now; play on from it
                    moves_pressed -= 1
                    continue
                raise AssertionError(f"{name}'s move {custom_id} {values} was refused: {text}")
            if os.environ.get("DRIVER_DEBUG"):
                print("pressed", name, custom_id, values, self.board_updates(), flush=True)
        if limit < 50:  # a few steps were asked for, not a whole game
            return moves_pressed
        raise AssertionError("the game did not end")


# ----- reading messages ----------------------------------------------------------------


def walk(components: list[JSON]) -> Iterator[JSON]:
    for component in components:
        yield component
        yield from walk(component.get("components") or [])


def custom_ids(message: JSON) -> list[str]:
    return [c["custom_id"] for c in walk(message.get("components") or []) if "custom_id" in c]


def has_file(message: JSON, filename: str) -> bool:
    return any(a.get("filename") == filename for a in message.get("attachments") or [])


def moves(message: JSON) -> list[tuple[str, list[str] | None]]:
    """The moves a hand offers, in order: (custom id, None) for a button, (custom id,
    [first option's value]) for a select menu."""
    found: list[tuple[str, list[str] | None]] = []
    for component in walk(message.get("components") or []):
        custom_id = component.get("custom_id", "")
        if component.get("type") == 2 and re.match(r"^dom:[mc]:\d+:\d+:", custom_id):
            found.append((custom_id, None))
        elif component.get("type") == 3 and custom_id.startswith("dom:s:"):
            found.append((custom_id, [component["options"][0]["value"]]))
    return found


def move_number(custom_id: str) -> int:
    return int(custom_id.split(":")[3])


def command_of(custom_id: str) -> str:
    return custom_id.split(":", 4)[4]


def words(body: Any) -> str:
    """The text of a message body: content, embeds, component labels and options."""
    if not isinstance(body, dict):
        return ""
    parts = [body.get("content") or ""]
    for embed in body.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields") or []]
        parts.append((embed.get("footer") or {}).get("text") or "")
    for component in walk(body.get("components") or []):
        parts.append(component.get("label") or "")
        parts += [o.get("label", "") for o in component.get("options") or []]
    return "\n".join(p for p in parts if p)


def leaked_tiles(fake: FakeDiscord, channel: int = CHANNEL) -> list[tuple[str, str]]:
    """(channel text, tile) for every tile a channel message (a post, an edit, a public
    interaction follow-up) named while it was still hidden in someone's hand: a tile that
    the owner's next private hand (a DM or an ephemeral answer starting "Your tiles:"),
    later in the same deal, still lists. Messages while no hand is in play (the board
    offers no "My hand": the summary that shows every hand) are not looked at. What was
    sent is read from the requests; the answers say where a message is and whose."""
    room = str(channel)
    owners: dict[str, str] = {}  # DM channel id: user id
    hands: dict[str, list[tuple[int, int, set[str]]]] = {}  # user: (call, segment, tiles)
    said: list[tuple[int, int, str]] = []  # (call, segment, text) while a hand is in play
    segment, playing, board = 0, False, None
    for i, call in enumerate(fake.calls):
        if not call.ok:
            continue
        message = call.response
        if call.method == "POST" and call.path == "/users/@me/channels":
            owners[str(message["id"])] = str(call.json["recipient_id"])
            continue
        if call.method not in ("POST", "PATCH") or not isinstance(message, dict):
            continue
        if "channel_id" not in message or "attachments" not in message:
            continue  # not a message
        body = call.json if isinstance(call.json, dict) else {}
        ephemeral = bool(int(message.get("flags") or 0) & EPHEMERAL)
        if message["channel_id"] == room and not ephemeral:
            if call.method == "POST" and has_file(message, "board.png"):
                board = message["id"]  # the board, (posted again)
            # the board says what goes on (as the bot edits it, not a press's answer)
            own = call.path.startswith("/channels/")
            if message["id"] == board and own and "components" in body:
                now_playing = any(MY_HAND.match(c) for c in custom_ids(body))
                if now_playing != playing:
                    segment += 1
                playing = now_playing
            if playing:
                said.append((i, segment, without_opening_draw(words(body))))
            continue
        content = body.get("content") or ""
        if not content.startswith("Your tiles:"):
            continue
        if ephemeral:
            owner = str(((message.get("interaction_metadata") or {}).get("user") or {}).get("id"))
        else:
            owner = owners.get(message["channel_id"], message["channel_id"])
        tiles = set(TILE.findall(content.split("\n", 1)[0]))
        hands.setdefault(owner, []).append((i, segment, tiles))
    leaks = []
    for i, seg, text in said:
        for held in hands.values():
            later = next(((s, t) for j, s, t in held if j > i), None)
            if later is not None and later[0] == seg:
                leaks += [(text, tile) for tile in TILE.findall(text) if tile in later[1]]
    return leaks


def public_moves(fake: FakeDiscord, channel: int = CHANNEL) -> list[str]:
    """Move buttons and menus (a hand's) the bot put on a channel message, which everyone
    sees: "<method> <path>: <custom id>"."""
    found = []
    for call in fake.calls:
        message = call.response
        if not call.ok or call.method not in ("POST", "PATCH") or not isinstance(message, dict):
            continue
        if message.get("channel_id") != str(channel) or "attachments" not in message:
            continue
        if int(message.get("flags") or 0) & EPHEMERAL or not isinstance(call.json, dict):
            continue
        for custom_id in custom_ids(call.json):
            if re.match(r"^dom:(s|p|m):", custom_id) or re.match(
                r"^dom:c:\d+:\d+:(play|draw|pass|end)\b", custom_id
            ):
                found.append(f"{call.method} {call.path}: {custom_id}")
    return found


def answer_problems(fake: FakeDiscord, interactions: list[tuple[str, int]]) -> list[str]:
    """What went wrong with answering interactions: none answered, refused callbacks
    (late: 10062, twice: 40060)."""
    problems = [
        f"{name}: interaction {iid} got {len(fake.interaction_responses(iid))} answers"
        for name, iid in interactions
        if len(fake.interaction_responses(iid)) != 1
    ]
    problems += [
        f"{c.method} {c.path} -> {c.status} {c.response}"
        for c in fake.calls
        if c.path.startswith("/interactions/") and not c.ok
    ]
    return problems


def without_opening_draw(text: str) -> str:
    """``text`` without the opening draw's line: its tiles were drawn face up and put back
    before the shuffle and the deal (RULES.md), so they are no one's hand."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("Opening draw:"))
