"""The service's effects delivered, the part every platform shares.

- Each room's effects go out in order, in the background (bot/doors/outbox.py): one worker per
  room, and on a platform that wants it one per person for what is private to them (a
  group whose minute is full does not hold up a player's hand). A board followed by a
  newer board of the same game is dropped, so a run of computer moves costs one edit; the
  moves it told go with the newer board (:func:`hand_on`), so none goes untold. A board
  that ends a hand is never dropped.
- "Ana, your turn" is folded into the board when Ana's hand reaches her privately
  (bot/doors/turn_calls.py).
- The board is one message per game, edited in place, and posted anew at the bottom of the
  room when newer messages have buried it or when someone asked for it (``repost``). Where
  it is, is the service's to remember (``board_post``), so a restarted bot edits the same
  one; which move it shows too (``board_shown``), so a restart shows a newer one. The
  board that ends a hand (every hand shown, the sheet) stays as that hand's picture: the
  next board is a new message (the post is remembered as :data:`RELEASED`).
- A person whose private messages are closed is told once per game, in the room, how to
  open them (Telegram: open the chat with the bot; Discord: press "My hand").
- A call that meets a rate limit or a network error is tried again (:func:`retry`), each
  platform saying which errors are worth it and how long to wait.
- Pictures (boards, hands, leaderboards) are drawn here, off the event loop
  (bot/doors/pictures.py), from the effects' plain data.

What differs between platforms (how a message is posted, edited, deleted; how a name
becomes a mention; what a closed chat looks like) is a :class:`Platform`.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, replace
from typing import Generic, Protocol, TypeVar

from bot.core import (
    Board,
    Effect,
    Elsewhere,
    File,
    Hand,
    Lobby,
    OpenTables,
    Person,
    Picture,
    Place,
    Post,
    Say,
    TableTold,
    private_to,
)
from bot.doors import pictures
from bot.doors.outbox import Outbox
from bot.doors.turn_calls import fold_turn_calls

log = logging.getLogger(__name__)
T = TypeVar("T")
# The message id remembered for a board that ended a hand: that message stays as it is
# (the hand's picture) and the next board is posted anew, with nothing deleted.
RELEASED = ""
# What a platform keeps of the update that caused the effects (Discord's interaction, to
# answer the person who acted), or nothing.
Origin = TypeVar("Origin")


# ----- retries ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Pause:
    """Wait ``seconds`` and try again; ``asked``: the platform named the wait (a 429's
    "retry after"), so it is waited out and tried once more even after the last try."""

    seconds: float
    asked: bool = False


# An error of the attempt numbered ``attempt`` (from 0): how long to pause before trying
# again, or None when trying again cannot help (the error goes to the caller).
Classify = Callable[[Exception, int], Pause | None]


async def retry(send: Callable[[], Awaitable[T]], classify: Classify, tries: int) -> T:
    """``send()`` through the errors ``classify`` says are worth a wait, ``tries`` times
    at most; the last error goes to the caller."""
    for attempt in range(tries):
        try:
            return await send()
        except Exception as error:
            pause = classify(error, attempt)
            if pause is None or (attempt == tries - 1 and not pause.asked):
                raise
            await asyncio.sleep(pause.seconds)
    return await send()


def backoff(attempt: int) -> float:
    """Seconds before the next try after ``attempt`` failed: 0.5, 1, 2, 4, 8, 10, 10..."""
    return min(2**attempt * 0.5, 10.0)


# ----- what the core keeps -----------------------------------------------------------------


class Depth:
    """How far each room's board has sunk under newer messages.

    Where message ids count up through a chat (``numbered``: Telegram), the distance is
    the newest id seen less the board's, which counts also the messages the bot never
    sees. Elsewhere (Discord's ids are not consecutive), the messages seen since the
    board was posted are counted; a room whose board this process never posted counts
    nothing."""

    def __init__(self, limit: int, numbered: bool) -> None:
        self.limit = limit
        self.numbered = numbered
        self._latest: dict[str, int] = {}  # numbered: the newest message id seen
        self._since: dict[str, int] = {}  # else: messages seen since the board

    def seen(self, key: str, message_id: str | int | None = None) -> None:
        """A message went by in ``key``'s room (other than the board)."""
        if self.numbered:
            if message_id is not None and int(message_id) > self._latest.get(key, 0):
                self._latest[key] = int(message_id)
        elif key in self._since:
            self._since[key] += 1

    def posted(self, key: str, message_id: str) -> None:
        """The board was posted anew as ``message_id``."""
        if self.numbered:
            self.seen(key, message_id)
        else:
            self._since[key] = 0

    def buried(self, key: str, message_id: str) -> bool:
        """Whether the board ``message_id`` is out of view."""
        if self.numbered:
            return self._latest.get(key, 0) - int(message_id) > self.limit
        return self._since.get(key, 0) > self.limit

    def forget(self, key: str) -> None:
        self._latest.pop(key, None)
        self._since.pop(key, None)


class Told:
    """Who was told once in a game (how to open their private messages)."""

    def __init__(self) -> None:
        self._told: set[tuple[int, str]] = set()

    def first(self, game_id: int | None, person_id: str) -> bool:
        """True the first time for this game and person (game None: outside games)."""
        key = (game_id or 0, person_id)
        if key in self._told:
            return False
        self._told.add(key)
        return True

    def forget_game(self, game_id: int) -> None:
        self._told = {k for k in self._told if k[0] != game_id}


# ----- what the core needs ---------------------------------------------------------------


class Posts(Protocol):
    """The service's memory of each room's board and lobby messages (bot/core/service.py)."""

    async def board_post(self, place: Place) -> Post | None: ...

    async def keep_board_post(
        self, place: Place, game_id: int, message_id: str, move_number: int | None = None
    ) -> None: ...

    async def board_shown(self, place: Place, move_number: int) -> None: ...

    async def lobby_post(self, place: Place) -> Post | None: ...

    async def hand_shown(self, place: Place, game_id: int, move_number: int) -> None: ...

    async def hand_current(self, place: Place, game_id: int, move_number: int) -> bool: ...

    async def keep_lobby_post(self, place: Place, game_id: int, message_id: str) -> None: ...

    async def drop_lobby_post(self, place: Place) -> None: ...

    async def open_table(
        self, place: Place, tournament_id: int, round_number: int, table: int
    ) -> list[Effect]: ...

    async def table_told(self, told: TableTold) -> None: ...


class Platform(ABC, Generic[Origin]):
    """A platform's primitives. Each posting method returns the id of the message posted
    in the room (None when nothing was posted there), which the core counts toward the
    board's burial; the private ones say whether the person could be reached."""

    name: str  # "telegram", "discord": for the logs
    buried: int  # messages after the board that push it out of view
    numbered: bool  # message ids count up through a chat (see Depth)
    private_lanes: bool  # each person's private effects go out in a lane of their own

    @abstractmethod
    def room_key(self, place: Place) -> str:
        """Where messages are counted toward the board's burial (a chat, a channel)."""

    # the board

    @abstractmethod
    async def post_board(self, place: Place, board: Board, png: bytes) -> str:
        """Post the board at the bottom of the room; its message id."""

    @abstractmethod
    async def edit_board(self, place: Place, message_id: str, board: Board, png: bytes) -> bool:
        """Show ``board`` in the message ``message_id``; False when that message is gone
        (then it is posted anew). "Not modified" is True."""

    @abstractmethod
    async def delete(self, place: Place, message_id: str) -> None:
        """Delete a message of the room; one that is too old or gone stays (no error)."""

    async def before_board(self, place: Place, board: Board) -> None:
        """Before a board goes out (Discord closes the game's lobby)."""

    async def after_board(self, place: Place, board: Board) -> None:
        """After a board went out (Discord tidies a finished game's lobby away)."""

    # text

    @abstractmethod
    async def room_text(self, place: Place, say: Say, origin: Origin | None) -> str | None:
        """A text for the room (a turn call, a summary...), calling ``say.mention``."""

    async def lobby(self, place: Place, lobby: Lobby, origin: Origin | None) -> str | None:
        """A game's lobby; a newer one of the same game may replace it (Discord)."""
        return await self.room_text(place, lobby, origin)

    async def open_room(self, place: Place, title: str) -> Place | None:
        """A new room under ``place`` for a tournament table, called ``title`` (a Discord
        thread, a Telegram forum topic, a console room); None when there can be none."""
        return None

    def link(self, place: Place) -> str:
        """How a message in another room points at the room ``place`` ("" for none)."""
        return ""

    @abstractmethod
    async def private_text(
        self, place: Place, person: Person, say: Say, origin: Origin | None
    ) -> bool:
        """A text for ``person`` only (a Reply, a Popup of a typed command); False when
        their private messages are closed."""

    @abstractmethod
    async def ask_to_open(self, place: Place, person: Person, game_id: int | None) -> str | None:
        """Tell ``person`` in the room how to open their private messages (called once
        per game and person). ``game_id`` None: a private answer outside a game failed."""

    # pictures and files

    @abstractmethod
    async def hand(self, place: Place, hand: Hand, png: bytes, origin: Origin | None) -> bool:
        """The hand to its person privately; False when it did not reach them."""

    @abstractmethod
    async def picture(
        self, place: Place, picture: Picture, png: bytes, origin: Origin | None
    ) -> str | None:
        """A leaderboard, to the room or privately (``picture.private``)."""

    @abstractmethod
    async def file(self, place: Place, file: File, origin: Origin | None) -> str | None:
        """A file, to the room or privately (``file.private``)."""

    # failures

    async def shut_out(self, place: Place, error: Exception, origin: Origin | None) -> bool:
        """Whether ``error`` says the room does not take the bot's messages (then it was
        dealt with here: logged, the person who acted told); else it goes on to the
        outbox, which logs it (or tries again when the database was away)."""
        return False

    def unreachable(self, effects: list[Effect]) -> Collection[str]:
        """People known not to take private messages in the games of ``effects`` (their
        turn calls stay in the room)."""
        return ()


@dataclass(frozen=True)
class Queued(Generic[Origin]):
    effect: Effect
    origin: Origin | None = None


class Delivery(Generic[Origin]):
    """Effects out to one platform, through its :class:`Platform` part."""

    def __init__(self, platform: Platform[Origin], service: Posts) -> None:
        self.platform = platform
        self.service = service
        self.depth = Depth(platform.buried, platform.numbered)
        self.told = Told()
        self._outbox: Outbox[Queued[Origin]] = Outbox(
            self._send, lambda item: item.effect, platform.name, _hand_on
        )

    def seen(self, key: str, message_id: str | int | None = None) -> None:
        """A message went by in a room (see :meth:`Platform.room_key`)."""
        self.depth.seen(key, message_id)

    async def deliver(
        self, place: Place, effects: list[Effect], origin: Origin | None = None
    ) -> None:
        """Queue ``effects`` for ``place``; they go out in order, in the background."""
        if not effects:
            return
        lanes: dict[str, list[Queued[Origin]]] = {}
        for effect in fold_turn_calls(effects, self.platform.unreachable(effects)):
            person = private_to(effect) if self.platform.private_lanes else None
            lane = person.platform_id if person is not None else ""
            lanes.setdefault(lane, []).append(Queued(effect, origin))
        for lane, items in lanes.items():
            self._outbox.put(place, items, lane)

    async def idle(self) -> None:
        """Wait until everything queued has gone out (tests, shutdown)."""
        await self._outbox.idle()

    async def _send(self, place: Place, item: Queued[Origin]) -> None:
        try:
            await self._one(place, item.effect, item.origin)
        except Exception as error:
            if not await self.platform.shut_out(place, error, item.origin):
                raise

    async def _one(self, place: Place, effect: Effect, origin: Origin | None) -> None:
        platform = self.platform
        if isinstance(effect, Board):
            await self._board(place, effect)
        elif isinstance(effect, Hand):
            if effect.buttons and not await self.service.hand_current(
                place, effect.game_id, effect.move_number
            ):
                # the game moved on while it waited (a restart's hand, made before a press
                # that overtook it): its buttons no longer play and its tiles may be gone
                log.info("%s: a hand of move %d left unsent", platform.name, effect.move_number)
                return
            png = await pictures.hand_png(effect)
            if not await platform.hand(place, effect, png, origin):
                await self._tell(place, effect.person, effect.game_id)
            elif effect.buttons:  # a hand to act on went out: a restart need not send it
                await self.service.hand_shown(place, effect.game_id, effect.move_number)
        elif isinstance(effect, Lobby):
            self._posted(place, await platform.lobby(place, effect, origin))
        elif isinstance(effect, Say):  # a turn call, a reply, a popup, a text
            if effect.private is None:
                self._posted(place, await platform.room_text(place, effect, origin))
            elif not await platform.private_text(place, effect.private, effect, origin):
                # never in the room instead: a private answer may name the person's tiles
                await self._tell(place, effect.private, None)
        elif isinstance(effect, Picture):
            png = await pictures.leaderboard_png(effect)
            self._posted(place, await platform.picture(place, effect, png, origin))
        elif isinstance(effect, File):
            self._posted(place, await platform.file(place, effect, origin))
        elif isinstance(effect, Elsewhere):
            await self.deliver(effect.place, list(effect.effects))
        elif isinstance(effect, OpenTables):
            await self._open_tables(place, effect, origin)
        elif isinstance(effect, TableTold):  # the result before it went out
            await self.service.table_told(effect)

    async def _open_tables(self, place: Place, tables: OpenTables, origin: Origin | None) -> None:
        """A room per table, its players called there and its game made; then the list of
        tables, each with a link to its room, in the tournament's room."""
        lines = [tables.text]
        everyone: list[Person] = []
        for table in tables.tables:
            room = await self.platform.open_room(place, table.title)
            everyone += table.mention
            if room is None:
                lines.append(table.line)
                continue
            await self.platform.room_text(room, Say(table.text, mention=table.mention), None)
            effects = await self.service.open_table(
                room, tables.tournament_id, tables.round, table.number
            )
            await self.deliver(room, effects)
            link = self.platform.link(room)
            lines.append(f"{table.line} → {link}" if link else table.line)
        said = Say("\n".join(lines), mention=tuple(everyone))
        self._posted(place, await self.platform.room_text(place, said, origin))

    def _posted(self, place: Place, message_id: str | None) -> None:
        if message_id is not None:
            self.depth.seen(self.platform.room_key(place), message_id)

    async def _tell(self, place: Place, person: Person, game_id: int | None) -> None:
        if self.told.first(game_id, person.platform_id):
            self._posted(place, await self.platform.ask_to_open(place, person, game_id))

    # ----- the board -------------------------------------------------------------------

    async def _board(self, place: Place, board: Board) -> None:
        platform = self.platform
        await platform.before_board(place, board)
        png = await pictures.board_png(board)
        key = platform.room_key(place)
        post = await self.service.board_post(place)
        if post is not None and post.game_id == board.game_id and post.message_id != RELEASED:
            if not board.repost and not self.depth.buried(key, post.message_id):
                if board.hand_end:
                    # released before the edit: a process killed between the two must
                    # not leave the next hand's board to overwrite this hand's end
                    # (still showing the move before: a restart shows the board again)
                    await self.service.keep_board_post(
                        place, board.game_id, RELEASED, post.move_number
                    )
                if await platform.edit_board(place, post.message_id, board, png):
                    await self.service.board_shown(place, board.move_number)
                    await self._after_board(place, board)
                    return
                # the message is gone (deleted by someone): post the board again
            else:
                await platform.delete(place, post.message_id)  # buried or asked for
        message_id = await platform.post_board(place, board, png)
        self.depth.posted(key, message_id)
        if board.hand_end:
            await self._release(place, board)
        else:
            await self.service.keep_board_post(place, board.game_id, message_id, board.move_number)
        await self._after_board(place, board)

    async def _release(self, place: Place, board: Board) -> None:
        """The board that ends a hand stays as the hand's picture: the next is new."""
        await self.service.keep_board_post(place, board.game_id, RELEASED, board.move_number)

    async def _after_board(self, place: Place, board: Board) -> None:
        if board.final:  # nobody is told anything more in this game
            self.told.forget_game(board.game_id)
        await self.platform.after_board(place, board)


def hand_on(skipped: Board, newer: Board) -> Board:
    """``newer`` telling also the moves of ``skipped``, a board of the same game that
    will not be shown (its turn calls are stale: they go)."""
    if not skipped.story:
        return newer
    story = (*skipped.story, *newer.story)
    text = "\n".join([*skipped.story, newer.text]).strip()
    return replace(newer, text=text, story=story)


def _hand_on(skipped: Queued[Origin], newer: Queued[Origin]) -> Queued[Origin]:
    if isinstance(skipped.effect, Board) and isinstance(newer.effect, Board):
        return Queued(hand_on(skipped.effect, newer.effect), newer.origin)
    return newer
