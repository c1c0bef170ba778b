"""The service's effects delivered: the one way out of every door.

- Each room's effects go out in order, in the background (bot/doors/outbox.py): one worker per
  room, and on a platform that wants it one per person for what is private to them (a
  group whose minute is full does not hold up a player's hand). A board followed by a
  newer board of the same game is dropped, so a run of computer moves costs one edit; the
  moves it told go with the newer board (:func:`hand_on`), so none goes untold. A board
  that ends a hand is never dropped.
- "Ana, your turn" is folded into the board when Ana's hand reaches her privately
  (bot/doors/turn_calls.py), on a platform where that calls her.
- The board is one message per game, edited in place, and posted anew at the bottom of the
  room when newer messages have buried it or when someone asked for it (``repost``). Where
  it is is kept in storage by the doors' :class:`~bot.core.Posts` (``board_post``), so a
  restarted bot edits the same one; which move it shows too (``board_shown``), so a
  restart shows a newer one. The board that ends a hand (every hand shown, the sheet)
  stays as that hand's picture: the next board is a new message (the post is remembered
  as :data:`RELEASED`). Delivering never calls the service.
- A person whose private messages are closed is told once per game, in the room, how to
  open them (Telegram: open the chat with the bot; Discord: press "My hand").
- A round's tables: a room opened for each and noted in storage (the service makes its
  game there at once, by a timer, and calls its players), the list in the tournament's
  room.
- Pictures (boards, hands, leaderboards) are drawn here, off the event loop
  (bot/doors/pictures.py), from the effects' plain data.

Each kind of effect goes to its :class:`~bot.doors.platform.Platform` method; what differs
between platforms (how a message is posted, edited, deleted; how a person is reached
privately; what a closed chat looks like) is the platform's.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Generic

from bot.core import (
    RELEASED,
    Board,
    Bounded,
    Effect,
    Elsewhere,
    File,
    Hand,
    Lobby,
    OpenTables,
    Person,
    Picture,
    Place,
    Posts,
    Say,
    TableTold,
    private_to,
)
from bot.doors import pictures
from bot.doors.outbox import Outbox
from bot.doors.platform import Origin, Platform
from bot.doors.turn_calls import fold_turn_calls

log = logging.getLogger(__name__)
ROOMS_KEPT = 20_000  # rooms whose board's depth is followed in memory, most recent first
TOLD_KEPT = 50_000  # (game, person) told to open their private messages, about 100 B each


def texts_within(
    lines: list[tuple[str, tuple[Person, ...]]], limit: int, mention_room: int
) -> list[Say]:
    """``lines`` (each with the people it calls) joined into as few texts as hold them in
    ``limit`` characters, the people of each called by name counted in: a big round's
    list of tables told whole, in order (a line longer than a text alone is cut by the
    platform)."""
    said: list[Say] = []
    kept: list[str] = []
    people: list[Person] = []
    size = 0
    for line, mention in lines:
        cost = len(line) + 1 + sum(len(p.name) + mention_room for p in mention)
        if kept and size + cost > limit:
            said.append(Say("\n".join(kept), mention=tuple(people)))
            kept, people, size = [], [], 0
        kept.append(line)
        people += mention
        size += cost
    if kept:
        said.append(Say("\n".join(kept), mention=tuple(people)))
    return said


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
        # per room, the most recently active kept (a room forgotten counts from its next
        # board): about 100 bytes a room
        self._latest: Bounded[str, int] = Bounded(ROOMS_KEPT)  # numbered: newest id seen
        self._since: Bounded[str, int] = Bounded(ROOMS_KEPT)  # else: seen since the board

    def seen(self, key: str, message_id: str | int | None = None) -> None:
        """A message went by in ``key``'s room (other than the board)."""
        if self.numbered:
            if message_id is not None and int(message_id) > (self._latest.get(key) or 0):
                self._latest.put(key, int(message_id))
        elif key in self._since:
            self._since.put(key, (self._since.get(key) or 0) + 1)

    def posted(self, key: str, message_id: str) -> None:
        """The board was posted anew as ``message_id``."""
        if self.numbered:
            self.seen(key, message_id)
        else:
            self._since.put(key, 0)

    def buried(self, key: str, message_id: str) -> bool:
        """Whether the board ``message_id`` is out of view."""
        if self.numbered:
            return (self._latest.get(key) or 0) - int(message_id) > self.limit
        return (self._since.get(key) or 0) > self.limit

    def forget(self, key: str) -> None:
        self._latest.pop(key, None)
        self._since.pop(key, None)


class Told:
    """Who was told once in a game (how to open their private messages)."""

    def __init__(self) -> None:
        # the most recent kept: someone forgotten may be told once more, a while later
        self._told: Bounded[tuple[int, str], None] = Bounded(TOLD_KEPT)

    def first(self, game_id: int | None, person_id: str) -> bool:
        """True the first time for this game and person (game None: outside games)."""
        key = (game_id or 0, person_id)
        if key in self._told:
            return False
        self._told.put(key, None)
        return True

    def forget_game(self, game_id: int) -> None:
        for key in [k for k in self._told if k[0] == game_id]:
            self._told.pop(key)


@dataclass
class Batch(Generic[Origin]):
    """The effects of one update still on their way: when the last has gone out (or was
    dropped for a newer one), the platform hears that the update is answered."""

    origin: Origin
    left: int


@dataclass(frozen=True)
class Queued(Generic[Origin]):
    effect: Effect
    origin: Origin | None = None
    batch: Batch[Origin] | None = field(default=None, compare=False)


class Delivery(Generic[Origin]):
    """Effects out to one platform, through its :class:`Platform` part."""

    def __init__(
        self, platform: Platform[Origin], posts: Posts, wake: Callable[[], None] | None = None
    ) -> None:
        self.platform = platform
        self.posts = posts
        # tables' rooms were opened: the service's timers make their games now, not at
        # their next poll (the timer loop's wake)
        self.wake = wake
        self.depth = Depth(platform.buried, platform.numbered)
        self.told = Told()
        self._outbox: Outbox[Queued[Origin]] = Outbox(
            self._send, lambda item: item.effect, platform.name, _hand_on, self._done
        )
        # each kind of effect's way out; a kind not named here goes to the platform's
        # method of its name (``Platform.picture`` for a Picture)
        self._ways: dict[type, Callable[[Place, Any, Origin | None], Awaitable[None]]] = {
            Board: self._board,
            Hand: self._hand,
            Lobby: self._lobby,
            Say: self._say,
            Picture: self._picture,
            File: self._file,
            Elsewhere: self._elsewhere,
            OpenTables: self._open_tables,
            TableTold: self._told,
        }

    def seen(self, key: str, message_id: str | int | None = None) -> None:
        """A message went by in a room (see :meth:`Platform.room_key`)."""
        self.depth.seen(key, message_id)

    async def deliver(
        self, place: Place, effects: list[Effect], origin: Origin | None = None
    ) -> None:
        """Queue ``effects`` for ``place``; they go out in order, in the background. The
        platform hears when every effect of ``origin`` went out
        (:meth:`Platform.delivered`)."""
        platform = self.platform
        if platform.notifies_privately:
            effects = fold_turn_calls(effects, platform.unreachable(effects))
        lanes: dict[str, list[Effect]] = {}
        for effect in effects:
            person = private_to(effect) if platform.private_lanes else None
            lanes.setdefault(person.platform_id if person is not None else "", []).append(effect)
        batch = None
        if origin is not None:
            if not effects:
                await platform.delivered(origin)
            batch = Batch(origin, len(effects))
        for lane, items in lanes.items():
            self._outbox.put(place, (Queued(e, origin, batch) for e in items), lane)

    async def idle(self) -> None:
        """Wait until everything queued has gone out (tests, shutdown)."""
        await self._outbox.idle()

    def pending(self) -> int:
        """The effects queued and not yet out (the operator's view, bot/doors/ops)."""
        return self._outbox.pending()

    async def _send(self, place: Place, item: Queued[Origin]) -> None:
        try:
            await self._one(place, item.effect, item.origin)
        except Exception as error:
            if not await self.platform.shut_out(place, error, item.origin):
                raise

    async def _done(self, item: Queued[Origin]) -> None:
        batch = item.batch
        if batch is not None:
            batch.left -= 1
            if batch.left == 0:
                await self.platform.delivered(batch.origin)

    async def _one(self, place: Place, effect: Effect, origin: Origin | None) -> None:
        for kind in type(effect).__mro__:
            way = self._ways.get(kind)
            if way is not None:
                await way(place, effect, origin)
                return
        # a kind of effect this door has no way of its own for: the platform's method
        method = getattr(self.platform, _method_name(type(effect)))
        self._posted(place, await method(place, effect, origin))

    # ----- each kind of effect ---------------------------------------------------------

    async def _hand(self, place: Place, hand: Hand, origin: Origin | None) -> None:
        platform = self.platform
        if hand.buttons and not await self.posts.hand_current(
            place, hand.game_id, hand.move_number
        ):
            # the game moved on while it waited (a restart's hand, made before a press
            # that overtook it): its buttons no longer play and its tiles may be gone
            log.info("%s: a hand of move %d left unsent", platform.name, hand.move_number)
            return
        png = await pictures.hand_png(hand) if platform.draws(place) else b""
        if not await platform.hand(place, hand, png, origin):
            await self._tell(place, hand.person, hand.game_id)
        elif hand.buttons:  # a hand to act on went out: a restart need not send it
            await self.posts.hand_shown(place, hand.game_id, hand.move_number)
            if not await self.posts.hand_current(place, hand.game_id, hand.move_number):
                # it went out late (the platform made it wait, a 429 retried inside its
                # library) and a move was made meanwhile: its buttons go at once
                log.info("%s: a hand of move %d bared, late", platform.name, hand.move_number)
                await platform.bare_hand(hand)

    async def _lobby(self, place: Place, lobby: Lobby, origin: Origin | None) -> None:
        self._posted(place, await self.platform.lobby(place, lobby, origin))

    async def _say(self, place: Place, say: Say, origin: Origin | None) -> None:
        """A turn call, a reply, a popup, a text: to the room, or to one person."""
        platform = self.platform
        if say.private is None:
            self._posted(place, await platform.room_text(place, say, origin))
        elif not await platform.private_text(place, say.private, say, origin):
            # never in the room instead: a private answer may name the person's tiles
            await self._tell(place, say.private, None)

    async def _picture(self, place: Place, picture: Picture, origin: Origin | None) -> None:
        png = await pictures.picture_png(picture) if self.platform.draws(place) else b""
        self._posted(place, await self.platform.picture(place, picture, png, origin))

    async def _file(self, place: Place, file: File, origin: Origin | None) -> None:
        self._posted(place, await self.platform.file(place, file, origin))

    async def _elsewhere(self, place: Place, elsewhere: Elsewhere, origin: Origin | None) -> None:
        await self.deliver(elsewhere.place, list(elsewhere.effects))

    async def _told(self, place: Place, told: TableTold, origin: Origin | None) -> None:
        await self.posts.table_told(told)  # the result before it went out

    async def _open_tables(self, place: Place, tables: OpenTables, origin: Origin | None) -> None:
        """A room per table, noted for the service, which makes the table's game there
        and calls its players (its timer, due at once); then the list of tables, each
        with a link to its room, in the tournament's room."""
        lines: list[tuple[str, tuple[Person, ...]]] = [(tables.text, ())]
        for table in tables.tables:
            key = f"r{tables.round}-t{table.number}"
            room = await self.platform.open_room(place, table.title, key)
            if room is None:
                lines.append((table.line, table.mention))
                continue
            await self.posts.table_opened(room, tables.tournament_id, tables.round, table.number)
            link = self.platform.link(room)
            lines.append((f"{table.line} → {link}" if link else table.line, table.mention))
        if self.wake is not None:
            self.wake()
        said = texts_within(lines, self.platform.text_limit, self.platform.mention_room)
        if said and tables.link is not None:  # the tournament's page, after the whole list
            said[-1] = replace(said[-1], link=tables.link)
        for text in said:
            self._posted(place, await self.platform.room_text(place, text, origin))

    def _posted(self, place: Place, message_id: str | None) -> None:
        if message_id is not None:
            self.depth.seen(self.platform.room_key(place), message_id)

    async def _tell(self, place: Place, person: Person, game_id: int | None) -> None:
        if self.told.first(game_id, person.platform_id):
            self._posted(place, await self.platform.ask_to_open(place, person, game_id))

    # ----- the board -------------------------------------------------------------------

    async def _board(self, place: Place, board: Board, origin: Origin | None) -> None:
        platform, posts = self.platform, self.posts
        post = await posts.board_post(place)
        if (
            post is not None
            and post.game_id == board.game_id
            and post.move_number is not None
            and post.move_number > board.move_number
        ):
            # a later move is shown already (this board was made in another room, a
            # judge's ruling, and delivered after the table moved on): never go back
            log.info("%s: a board of move %d left unsent", platform.name, board.move_number)
            return
        await platform.before_board(place, board)
        png = await pictures.board_png(board) if platform.draws(place) else b""
        key = platform.room_key(place)
        if post is not None and post.game_id == board.game_id and post.message_id != RELEASED:
            if not board.repost and not self.depth.buried(key, post.message_id):
                if board.hand_end:
                    # released before the edit: a process killed between the two must
                    # not leave the next hand's board to overwrite this hand's end
                    # (still showing the move before: a restart shows the board again)
                    await posts.keep_board_post(place, board.game_id, RELEASED, post.move_number)
                if await platform.edit_board(place, post.message_id, board, png):
                    await posts.board_shown(place, board.move_number)
                    await self._after_board(place, board)
                    return
                # the message is gone (deleted by someone): post the board again
            else:
                await platform.delete(place, post.message_id)  # buried or asked for
        message_id = await platform.post_board(place, board, png)
        self.depth.posted(key, message_id)
        # the board that ends a hand stays as the hand's picture: the next is new
        kept = RELEASED if board.hand_end else message_id
        await posts.keep_board_post(place, board.game_id, kept, board.move_number)
        await self._after_board(place, board)

    async def _after_board(self, place: Place, board: Board) -> None:
        if board.final:  # nobody is told anything more in this game
            self.told.forget_game(board.game_id)
        await self.platform.after_board(place, board)


def _method_name(kind: type) -> str:
    """The platform's method for a kind of effect: ``TableCall`` → ``table_call``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", kind.__name__).lower()


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
        return replace(newer, effect=hand_on(skipped.effect, newer.effect))
    return newer
