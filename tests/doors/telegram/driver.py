"""The real bot program (``python -m bot``) against the fake Bot API, and a table of
people who play through it: they type commands in the group and press the buttons the
bot sent them, as people do."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.core.progress import NEXT_HAND_SECONDS
from tests.doors.telegram.fake_api import Call, FakeTelegram
from tests.program import Program

JSON = dict[str, Any]
GROUP = -1001234567890
FENCERS = 3_300_000  # the user ids of the fences' askers start here


class BotProcess(Program):
    """The program talking to the fake through TELEGRAM_BASE_URL."""

    def __init__(self, tg: FakeTelegram, home: Path, **env: str) -> None:
        super().__init__(home, **env)
        self.tg = tg

    def start(self) -> None:
        self.launch(
            {
                "TELEGRAM_TOKEN": self.tg.token,
                "TELEGRAM_BASE_URL": self.tg.base_url,
                "TELEGRAM_BASE_FILE_URL": self.tg.base_file_url,
                "TELEGRAM_POLL_TIMEOUT": "1",
                # a whole game in seconds: far above Telegram's 20 a minute in a group (the
                # limiter's work is the library's; the bot's coalescing is tested apart)
                "TELEGRAM_GROUP_RATE": "6000",
                "DISCORD_TOKEN": "",
            }
        )

    async def polling(self) -> BotProcess:
        """Start, and wait until the program asks Telegram for updates."""
        self.start()
        await self.tg.wait_calls("getUpdates", timeout=30)
        return self


@dataclass
class Table:
    tg: FakeTelegram
    chat: int = GROUP
    people: dict[str, JSON] = field(default_factory=dict)
    _fences: int = 0  # members who asked for a fence's answer, one each

    def person(self, name: str, user_id: int, lang: str = "en", open_chat: bool = True) -> JSON:
        user = self.tg.user(user_id, name, lang)
        self.people[name] = user
        if open_chat:
            self.tg.open_private(user_id)
        return user

    async def say(self, name: str, text: str) -> None:
        """``name`` types ``text`` in the group; returns once the bot has answered."""
        before = len(self.tg.calls)
        self.tg.send_message(self.chat, self.people[name], text)
        await self.tg.wait_for(
            lambda: any(_answer(c) for c in self.tg.calls[before:]), what=f"an answer to {text}"
        )

    async def start_game(self, new: str, computers: int = 0) -> JSON:
        """The first person types ``new`` ("/new draw 30"), the others join, computer
        players fill ``computers`` seats, the game begins; the first board."""
        creator, *others = self.people
        await self.say(creator, new)
        for name in others:
            await self.say(name, "/join")
        for _ in range(computers):
            await self.say(creator, "/add_ai normal")
        await self.say(creator, "/begin")
        return await self.tg.wait_for(self.board, what="the first board")

    def board(self) -> JSON | None:
        """The group's board message (the newest photo the bot keeps in the group)."""
        photos = [m for m in self.tg.sent_to(self.chat) if m.get("photo")]
        return photos[-1] if photos else None

    def board_updates(self) -> int:
        return sum(
            1
            for c in self.tg.calls
            if c.method.lower() in ("sendphoto", "editmessagemedia")
            and str(c.params.get("chat_id")) == str(self.chat)
            and c.ok
        )

    def newest_hand(self) -> tuple[str, JSON] | None:
        """(name, message) of the hand to play: of everyone's latest hand that offers
        moves, the one offered at the latest move number."""
        best: tuple[int, str, JSON] | None = None
        for name, user in self.people.items():
            hands = [m for m in self.tg.sent_to(user["id"]) if m.get("photo")]
            if not hands:
                continue
            latest = hands[-1]
            plays = [d for d in buttons(latest) if d.startswith(("m|", "c|"))]
            if plays:
                number = int(plays[0].split("|")[2])
                if best is None or number > best[0]:
                    best = (number, name, latest)
        return (best[1], best[2]) if best else None

    async def press(self, name: str, message: JSON, data: str) -> JSON:
        """``name`` presses the button ``data`` of ``message``; the answer to the press."""
        query = self.tg.press(message["chat"]["id"], self.people[name], message["message_id"], data)

        def answer() -> JSON | None:  # this press's, whatever other tables press meanwhile
            return next((a for a in self.tg.answered_callbacks() if a["id"] == query["id"]), None)

        return await self.tg.wait_for(answer, what=f"an answer to {data}")

    async def fence(self, name: str, command: str, answer: str, to: int | None = None) -> Call:
        """Return once whatever the bot had queued for this chat has gone out: ``name``
        types ``command`` there, whose answer is a message to the chat starting with
        ``answer`` (``/score`` in a game: "Score:"). A chat's messages go out one after
        another, in the order they were queued (bot/doors/outbox.py), and a board is
        dropped only for a newer board, never for a text: what was queued there before
        the answer has gone out too. With ``to`` (``name``'s private chat), the answer is
        private (``/help``): what the chat's room sends ``name`` privately goes out in
        order too, in a lane of its own. Call it after the updates looked at were
        answered (a press's effects are queued as soon as its answer is taken, while
        this command goes through getUpdates and the service first). The answer's call."""
        before = len(self.tg.calls)
        asker = self.people[name]
        if to is None:  # asked in the chat by a member of its own each time: a person's
            # answers in a chat are a few a minute (bot/core/reading.py)
            self._fences += 1
            asker = self.tg.user(FENCERS + self._fences, f"Fence {self._fences}", "en")
        self.tg.send_message(self.chat, asker, command)
        chat = self.chat if to is None else to

        def answered() -> Call | None:
            return next(
                (
                    c
                    for c in self.tg.calls[before:]
                    if c.ok
                    and c.method.lower() == "sendmessage"
                    and str(c.params.get("chat_id")) == str(chat)
                    and str(c.params.get("text", "")).startswith(answer)
                ),
                None,
            )

        return await self.tg.wait_for(answered, what=f"the answer to {command}")

    async def deal(self, name: str, board: JSON) -> JSON | None:
        """Everyone at the table presses "Next hand" on ``board``, a hand's end, ``name``
        first: the next hand is dealt once all have (a moment after the hand's end at the
        soonest, bot/core/between_hands.py), or when the pause ends. Returns once it is
        dealt: ``name``'s answer (an acknowledgement, no text), None when the bot dealt
        before ``name`` pressed."""
        [data] = [d for d in buttons(board) if d.endswith("|next")]
        updates = self.board_updates()

        def dealt() -> bool:
            # a board of the next hand: a board updated, and no longer this hand's end (the
            # hand's end may be shown again meanwhile, late under load: not a deal)
            newest = self.board()
            return (
                self.board_updates() > updates
                and newest is not None
                and data not in buttons(newest)
            )

        first: JSON | None = None
        for who in [name, *(n for n in self.people if n != name)]:
            if dealt():
                break
            answer = await self.press(who, board, data)
            first = answer if who == name else first
        await self.tg.wait_for(dealt, timeout=NEXT_HAND_SECONDS + 10, what="the next hand")
        return first

    async def play_out(self, limit: int = 1500, until_hand_end: bool = False) -> int:
        """Everyone presses the first move of the newest hand, and someone presses "Next
        hand" between hands, until the board has no buttons left (the game is over), or
        with ``until_hand_end`` until a hand is over. Returns the moves pressed."""
        moves = 0
        pressed: tuple[int, int] | None = None  # the hand message pressed last
        for _ in range(limit):
            board = self.board()
            assert board is not None
            keys = buttons(board)
            if not keys:
                return moves
            updates = self.board_updates()
            next_hand = [d for d in keys if d.endswith("|next")]
            if next_hand and until_hand_end:
                return moves
            if next_hand:
                name = next(iter(self.people))
                dealt = await self.deal(name, board)
                if dealt is None:  # the timer dealt it
                    continue
                answer = dealt
            else:

                def fresh(last: tuple[int, int] | None = pressed) -> tuple[str, JSON] | None:
                    found = self.newest_hand()
                    if found and (found[1]["chat"]["id"], found[1]["message_id"]) != last:
                        return found
                    return None

                name, hand = await self.tg.wait_for(fresh, what="a new hand")
                pressed = (hand["chat"]["id"], hand["message_id"])
                plays = [d for d in buttons(hand) if d.startswith(("m|", "c|"))]
                assert plays, hand
                answer = await self.press(name, hand, plays[0])
                moves += 1
            if os.environ.get("DRIVER_DEBUG"):
                print("pressed", name, answer, self.board_updates(), flush=True)
            if not answer.get("text"):  # applied: wait for the board to change
                await self.tg.wait_for(
                    lambda u=updates: self.board_updates() > u, timeout=20, what="a new board"
                )
        if limit < 50:  # a few steps were asked for, not a whole game
            return moves
        raise AssertionError("the game did not end")


def buttons(message: JSON) -> list[str]:
    """The callback data of the buttons a person can press on ``message`` (a URL button,
    a link to a web page, is no press: it opens the page)."""
    markup = message.get("reply_markup") or {}
    return [
        b["callback_data"]
        for row in markup.get("inline_keyboard", [])
        for b in row
        if "callback_data" in b
    ]


def url_buttons(message: JSON) -> list[tuple[str, str]]:
    """(text, url) of each URL button of ``message``."""
    markup = message.get("reply_markup") or {}
    return [
        (b["text"], b["url"])
        for row in markup.get("inline_keyboard", [])
        for b in row
        if "url" in b
    ]


def _answer(call: Any) -> bool:
    # a lobby is edited as seats fill (editMessageText)
    return call.method.lower() in (
        "sendmessage", "sendphoto", "editmessagemedia", "senddocument", "editmessagetext"
    )  # fmt: skip


TILE = re.compile(r"\b\d{1,2}-\d{1,2}\b")


def leaked_tiles(tg: FakeTelegram, chat: int = GROUP) -> list[tuple[str, str]]:
    """(group text, tile) for every tile a message to the group named while it was still
    hidden in someone's hand: a tile that the owner's next private hand, later in the
    same hand of the game, still lists. Messages while no hand is in play (the summary
    that shows every hand) are not looked at.

    "Next" is by the move a picture shows (its file name, see ``photo_name``) where the
    pictures say it: a hand and the group's board go out apart, and a hand from before
    a move can arrive after the board that tells of it. Otherwise it is by arrival."""
    group = str(chat)
    # person: (call, move, segment, tiles)
    hands: dict[str, list[tuple[int, int | None, int, set[str]]]] = {}
    said: list[tuple[int, int | None, int, str]] = []  # (call, move, segment, text)
    segment, playing, move = 0, False, None
    segments: dict[int, int] = {}  # move: the segment its board was in
    for i, call in enumerate(tg.calls):
        if not call.ok:
            continue
        method, to = call.method.lower(), str(call.params.get("chat_id"))
        media = call.params.get("media") or {}
        text = call.params.get("text") or call.params.get("caption") or media.get("caption") or ""
        if to == group:
            if method in ("sendphoto", "editmessagemedia"):  # the board says what goes on
                data = " ".join(buttons({"reply_markup": call.params.get("reply_markup")}))
                now_playing = "|hand" in data
                if now_playing and not playing:
                    segment += 1
                playing = now_playing
                move = _move_shown(call)
                if move is not None:
                    segments[move] = segment
            if playing:
                said.append((i, move, segment, without_opening_draw(text)))
        elif method == "sendphoto" and text.startswith("Your tiles:"):
            tiles = set(TILE.findall(text.split("\n", 1)[0]))
            hands.setdefault(to, []).append((i, _move_shown(call), segment, tiles))
    for person, held in hands.items():  # a hand is in the deal its move is in
        hands[person] = [
            (
                j,
                m,
                max((s for b, s in segments.items() if b <= m), default=g) if m is not None else g,
                t,
            )
            for j, m, g, t in held
        ]
    leaks = []
    for i, move, seg, text in said:
        for held in hands.values():
            later = next(
                (
                    (s, t)
                    for j, m, s, t in held
                    if (m >= move if m is not None and move is not None else j > i)
                ),
                None,
            )
            if later is not None and later[0] == seg:
                leaks += [(text, tile) for tile in TILE.findall(text) if tile in later[1]]
    return leaks


PHOTO_NAME = re.compile(r"^(?:board|hand)-\d+-(\d+)\.png$")


def _move_shown(call: Any) -> int | None:
    """The move a board or hand picture shows, from its file name (None if unnamed)."""
    for name in call.file_names.values():
        if found := PHOTO_NAME.match(name):
            return int(found.group(1))
    return None


def without_opening_draw(text: str) -> str:
    """``text`` without the opening draw's line: its tiles were drawn face up and put back
    before the shuffle and the deal (RULES.md), so they are no one's hand."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("Opening draw:"))
