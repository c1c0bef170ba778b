"""The service's effects delivered to Telegram.

Each room's effects go out in order, by one worker per room (and one per person for what
is private to them); a board followed by a newer board of the same game is skipped, so a
run of computer moves costs one edit. The board is one photo per game, edited in place
(``editMessageMedia``) and posted again when many messages have buried it. Hands and
private answers go to the person's private chat; a person who never opened it (403) is
told once in the group, with a button that opens it (``t.me/<bot>?start=<game>``).
Whatever Telegram answers (429, 403, "not modified", "message to edit not found", a
network error) is handled here: a message may come late, a move is never lost (it is
saved before anything is sent).
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any, TypeVar

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError

from bot import texts
from bot.model import Board, Effect, File, Hand, Person, Picture, Place, Say, private_to
from bot.outbox import Outbox
from bot.pictures import board_png, hand_png
from bot.service import GameService
from bot.telegram.keyboards import hand_keyboard, keyboard
from bot.telegram.places import chat_of
from bot.turn_calls import fold_turn_calls
from lang import tr

log = logging.getLogger(__name__)
T = TypeVar("T")

BURIED = 15  # messages after the board that push it out of view: post it again
CAPTION = 1024  # Telegram's limit on a photo's caption
TEXT = 4096  # and on a message
TRIES = 6  # attempts at one call through 429s and network errors


class TelegramDelivery:
    def __init__(self, bot: Bot, service: GameService, username: str) -> None:
        self.bot = bot
        self.service = service
        self.username = username
        self._outbox: Outbox[Effect] = Outbox(self._one, lambda effect: effect, "telegram")
        self._latest: dict[int, int] = {}  # chat id: the newest message id seen there
        self._told: set[tuple[int, str]] = set()  # (game, person) told to open the chat

    def seen(self, chat_id: int, message_id: int) -> None:
        """A message went by in a chat (to know when the board is buried)."""
        if message_id > self._latest.get(chat_id, 0):
            self._latest[chat_id] = message_id

    async def deliver(self, place: Place, effects: list[Effect]) -> None:
        """Queue ``effects`` for ``place``; they go out in order, in the background: the
        room's in one lane, each person's private ones in another (Telegram holds a
        group to 20 messages a minute, and a hand must not wait for the board)."""
        lanes: dict[str, list[Effect]] = {}
        for effect in fold_turn_calls(effects):
            person = private_to(effect)
            lanes.setdefault(person.platform_id if person else "", []).append(effect)
        for lane, items in lanes.items():
            self._outbox.put(place, items, lane)

    async def idle(self) -> None:
        """Wait until everything queued has gone out (tests, shutdown)."""
        await self._outbox.idle()

    async def _one(self, place: Place, effect: Effect) -> None:
        chat, topic = chat_of(place)
        if isinstance(effect, Board):
            await self._board(place, chat, topic, effect)
        elif isinstance(effect, Hand):
            await self._hand(place, effect)
        elif isinstance(effect, Say):
            if effect.private is not None:
                await self._private(place, effect.private, effect)
            else:
                await self._send_text(chat, topic, effect.text, effect.mention, effect)
        elif isinstance(effect, Picture | File):
            # to the person who asked, or to the room (in its topic)
            where = (
                {"chat_id": int(effect.private.platform_id)}
                if effect.private
                else {"chat_id": chat, "message_thread_id": topic}
            )
            caption = effect.text[:CAPTION]
            if isinstance(effect, Picture):
                await self._call(self.bot.send_photo, photo=effect.png, caption=caption, **where)
            else:
                await self._call(
                    self.bot.send_document,
                    document=effect.data,
                    filename=effect.name,
                    caption=caption,
                    **where,
                )

    # ----- the board -------------------------------------------------------------------

    async def _board(self, place: Place, chat: int, topic: int | None, board: Board) -> None:
        png = await board_png(board)
        name = photo_name("board", board.game_id, board.move_number)
        caption = board.text[:CAPTION]
        markup = keyboard(board.buttons)
        room_id = await self.service.room_id(place)
        post = await self.service.store.posts.find(room_id, "board")
        if post is not None and post.game_id == board.game_id:
            message_id = int(post.message_id)
            if self._latest.get(chat, 0) - message_id <= BURIED and not board.repost:
                try:
                    await self._call(
                        self.bot.edit_message_media,
                        chat_id=chat,
                        message_id=message_id,
                        media=InputMediaPhoto(png, caption=caption, filename=name),
                        reply_markup=markup,
                    )
                    await self._shown(room_id, board)
                    return
                except BadRequest as error:
                    if "not modified" in str(error).lower():
                        await self._shown(room_id, board)
                        return
                    # the message is gone (deleted by someone): post the board again
            else:
                await self._delete(chat, message_id)  # buried or asked for: to the bottom
        sent = await self._call(
            self.bot.send_photo,
            chat_id=chat,
            photo=png,
            filename=name,
            caption=caption,
            reply_markup=markup,
            message_thread_id=topic,
        )
        self.seen(chat, sent.message_id)
        now = self.service.clock()
        await self.service.store.posts.keep(
            room_id,
            "board",
            board.game_id,
            str(sent.message_id),
            now,
            move_number=board.move_number,
        )

    async def _shown(self, room_id: int, board: Board) -> None:
        """The room's board message shows ``board``'s move now: a restarted process that
        finds it behind the game sends the board again (GameService.resume)."""
        await self.service.store.posts.shown(room_id, "board", board.move_number)

    async def _delete(self, chat: int, message_id: int) -> None:
        # too old to delete, or already gone: then it stays where it is
        with suppress(TelegramError):
            await self._call(self.bot.delete_message, chat_id=chat, message_id=message_id)

    # ----- private -----------------------------------------------------------------------

    async def _hand(self, place: Place, hand: Hand) -> None:
        png = await hand_png(hand)
        markup = hand_keyboard(hand.buttons, hand.game_id, hand.move_number)
        try:
            await self._call(
                self.bot.send_photo,
                chat_id=int(hand.person.platform_id),
                photo=png,
                filename=photo_name("hand", hand.game_id, hand.move_number),
                caption=hand.text[:CAPTION],
                reply_markup=markup,
            )
        except Forbidden:
            await self._ask_to_open(place, hand.person, hand.game_id)

    async def _private(self, place: Place, person: Person, say: Say) -> None:
        try:
            await self._call(
                self.bot.send_message,
                chat_id=int(person.platform_id),
                text=say.text[:TEXT],
                reply_markup=keyboard(say.buttons),
            )
        except Forbidden:
            # never in the group instead: a private answer may name the person's tiles
            await self._ask_to_open(place, person, None)

    async def _ask_to_open(self, place: Place, person: Person, game_id: int | None) -> None:
        """Once per game and person: a group message with a button that opens the chat
        with the bot and brings their hand."""
        key = (game_id or 0, person.platform_id)
        if key in self._told:
            return
        self._told.add(key)
        chat, topic = chat_of(place)
        payload = f"h{game_id}" if game_id is not None else "hello"
        link = f"https://t.me/{self.username}?start={payload}"
        lang = person.locale
        markup = InlineKeyboardMarkup(
            [[InlineKeyboardButton(tr(lang, texts.OPEN_PRIVATE_BUTTON), url=link)]]
        )
        text = tr(lang, texts.OPEN_PRIVATE, name=person.name)
        await self._send_text(chat, topic, text, (person,), None, markup)

    # ----- text ----------------------------------------------------------------------------

    async def _send_text(
        self,
        chat: int,
        topic: int | None,
        text: str,
        mention: tuple[Person, ...] = (),
        say: Say | None = None,
        markup: InlineKeyboardMarkup | None = None,
    ) -> Message | None:
        if markup is None and say is not None:
            markup = keyboard(say.buttons)
        body = _with_mentions(text[:TEXT], mention)
        try:
            sent = await self._call(
                self.bot.send_message,
                chat_id=chat,
                text=body,
                parse_mode="HTML",
                reply_markup=markup,
                message_thread_id=topic,
            )
        except Forbidden:
            log.warning("telegram: chat %s does not take our messages any more", chat)
            return None
        self.seen(chat, sent.message_id)
        return sent

    async def _call(self, method: Callable[..., Awaitable[T]], **params: Any) -> T:
        """One Bot API call through 429s ("retry after", after the library's own rate
        limiter gave up) and network errors; other errors go to the caller."""
        for attempt in range(TRIES):
            try:
                return await method(**params)
            except RetryAfter as error:
                wait = error.retry_after
                seconds = wait.total_seconds() if hasattr(wait, "total_seconds") else float(wait)
                await asyncio.sleep(seconds + 0.1)
            except NetworkError as error:
                if isinstance(error, BadRequest) or attempt == TRIES - 1:
                    raise
                await asyncio.sleep(min(2**attempt * 0.5, 10))
        return await method(**params)


def photo_name(kind: str, game_id: int, move_number: int) -> str:
    """The file name of a board or hand picture: which game and move it shows. Telegram
    keeps it out of sight; it tells a reader of the traffic (a test) where the picture
    stands, as a hand and the board now travel apart."""
    return f"{kind}-{game_id}-{move_number}.png"


def _with_mentions(text: str, people: tuple[Person, ...]) -> str:
    """The text as HTML, each mentioned person's name a mention (which notifies them):
    their name where the text has it, else in front. Names are matched in the plain text
    and everything is escaped once at the end, so a name never matches inside an escape
    or a link made for someone else."""
    pieces: list[tuple[str, Person | None]] = [(text, None)]
    for person in people:
        for i, (piece, linked) in enumerate(pieces):
            at = piece.find(person.name) if linked is None and person.name else -1
            if at >= 0:
                end = at + len(person.name)
                pieces[i : i + 1] = [
                    (piece[:at], None),
                    (person.name, person),
                    (piece[end:], None),
                ]
                break
        else:
            pieces[0:0] = [(person.name, person), (" ", None)]
    return "".join(
        html.escape(piece)
        if linked is None
        else f'<a href="tg://user?id={int(linked.platform_id)}">{html.escape(piece)}</a>'
        for piece, linked in pieces
    )
