"""Telegram's part of delivery (the rest is bot/doors/delivery.py): how a board, a hand, a text
and a file go out through the Bot API.

The board is a photo edited in place (``editMessageMedia``); Telegram's message ids count
up through a chat, so the board is buried when the newest id is far past its own. Hands
and private answers go to the person's private chat, each person in a lane of their own;
a person who never opened it (403) is told once in the group, with a button that opens it
(``t.me/<bot>?start=<game>``). Texts go as HTML, each person called by name a mention.
Whatever Telegram answers (429, 403, "not modified", "message to edit not found", a
network error) is handled here or in the core: a message may come late, a move is never
lost (it is saved before anything is sent).
"""

from __future__ import annotations

import html
import logging
import secrets
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any, TypeVar

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError

from bot.core import Board, Bounded, File, Hand, Lobby, Person, Picture, Place, Posts, Say
from bot.doors import texts
from bot.doors.delivery import Delivery
from bot.doors.links import labelled
from bot.doors.platform import Platform
from bot.doors.retry import Pause, backoff, retry
from bot.doors.telegram.keyboards import hand_keyboard, keyboard
from bot.doors.telegram.places import PLATFORM, chat_of, table_room
from lang import tr

log = logging.getLogger(__name__)
T = TypeVar("T")

BURIED = 15  # messages after the board that push it out of view: post it again
CAPTION = 1024  # Telegram's limit on a photo's caption
TEXT = 4096  # and on a message
TRIES = 6  # attempts at one call through 429s and network errors
TOPIC_NAME = 128  # Telegram's limit on a forum topic's name
# the latest hand message of each (game, person) kept, to bare one that went out late:
# the people playing at once in one process, with room to spare (about 80 bytes each)
HANDS_KEPT = 20_000
CHATS_KEPT = 20_000  # chats whose @username is remembered


def pause_for(error: Exception, attempt: int) -> Pause | None:
    """A 429 ("retry after", once the library's own rate limiter gave up) is waited out
    as Telegram asks; a network error is tried again after a growing pause; anything else
    (a refusal: 400, 403) is not."""
    if isinstance(error, RetryAfter):
        wait = error.retry_after
        seconds = wait.total_seconds() if hasattr(wait, "total_seconds") else float(wait)
        return Pause(seconds + 0.1, asked=True)
    if isinstance(error, NetworkError) and not isinstance(error, BadRequest):
        return Pause(backoff(attempt))
    return None


class TelegramPlatform(Platform[None]):
    name = PLATFORM
    buried = BURIED
    numbered = True  # message ids count up through a chat, topics and all
    private_lanes = True  # a group's full minute must not hold up a hand
    text_limit = TEXT

    def __init__(self, bot: Bot, username: str, posts: Posts, base: str = "") -> None:
        self.bot = bot
        self.username = username
        # where people reach the web pages (PUBLIC_URL): the links' addresses start there;
        # "" without it (an address on this machine is no use to people in a chat)
        self.base = base
        # each room's lobby is one message, edited as seats fill; where it is, the
        # service remembers (a restarted bot edits the same message)
        self.posts = posts
        # chat id: its public @username, if any (the most recent kept)
        self._usernames: Bounded[int, str | None] = Bounded(CHATS_KEPT)
        # (game, person): the message of their latest hand, to bare if it went out late
        self._hands: Bounded[tuple[int, str], int] = Bounded(HANDS_KEPT)

    def room_key(self, place: Place) -> str:
        return str(chat_of(place)[0])

    # ----- the board -------------------------------------------------------------------

    async def post_board(self, place: Place, board: Board, png: bytes) -> str:
        chat, topic = chat_of(place)
        caption = await self._told_before(place, board.text)
        sent = await self._call(
            self.bot.send_photo,
            chat_id=chat,
            photo=png,
            filename=photo_name("board", board.game_id, board.move_number),
            caption=caption,
            reply_markup=keyboard(board.buttons, labelled(self.base, board.link)),
            message_thread_id=topic,
        )
        return str(sent.message_id)

    async def edit_board(self, place: Place, message_id: str, board: Board, png: bytes) -> bool:
        name = photo_name("board", board.game_id, board.move_number)
        caption = await self._told_before(place, board.text)
        try:
            await self._call(
                self.bot.edit_message_media,
                chat_id=chat_of(place)[0],
                message_id=int(message_id),
                media=InputMediaPhoto(png, caption=caption, filename=name),
                reply_markup=keyboard(board.buttons, labelled(self.base, board.link)),
            )
        except BadRequest as error:
            # "not modified": it shows the board already; else the message is gone
            return "not modified" in str(error).lower()
        return True

    async def _told_before(self, place: Place, text: str) -> str:
        """The board's caption; what a caption cannot hold (a long run of moves: an
        eight-player first round) goes first as texts of its own, whole lines, so no
        move of the room's story is cut off."""
        head, caption = split_caption(text)
        for part in head:
            await self._send_text(place, part, (), None)
        return caption

    async def delete(self, place: Place, message_id: str) -> None:
        # too old to delete, or already gone: then it stays where it is
        with suppress(TelegramError):
            await self._call(
                self.bot.delete_message, chat_id=chat_of(place)[0], message_id=int(message_id)
            )

    # ----- text ------------------------------------------------------------------------

    async def room_text(self, place: Place, say: Say, origin: None) -> str | None:
        markup = keyboard(say.buttons, labelled(self.base, say.link))
        return await self._send_text(place, say.text, say.mention, markup)

    async def lobby(self, place: Place, lobby: Lobby, origin: None) -> str | None:
        """The game's lobby: one message, edited as people take their seats; an earlier
        game's lobby loses its buttons."""
        known = await self.posts.lobby_post(place)
        if known is not None:
            if known.game_id == lobby.game_id and await self._edit_lobby(
                place, int(known.message_id), lobby
            ):
                return None  # nothing new in the room
            await self._bare(place, int(known.message_id))
            await self.posts.drop_lobby_post(place)
        sent = await self.room_text(place, lobby, origin)
        if sent is not None:
            await self.posts.keep_lobby_post(place, lobby.game_id, sent)
        return sent

    async def before_board(self, place: Place, board: Board) -> None:
        """The game has begun: its lobby's buttons go."""
        known = await self.posts.lobby_post(place)
        if known is not None and known.game_id == board.game_id:
            await self.posts.drop_lobby_post(place)
            await self._bare(place, int(known.message_id))

    async def _edit_lobby(self, place: Place, message_id: int, lobby: Lobby) -> bool:
        """Show ``lobby`` in its message; False when the message is gone (deleted, too
        old to edit)."""
        try:
            await self._call(
                self.bot.edit_message_text,
                chat_id=chat_of(place)[0],
                message_id=message_id,
                text=_with_mentions(lobby.text[:TEXT], lobby.mention),
                parse_mode="HTML",
                reply_markup=keyboard(lobby.buttons),
            )
        except BadRequest as error:
            return "not modified" in str(error).lower()
        except TelegramError:
            return False
        return True

    async def _bare(self, place: Place, message_id: int) -> None:
        """An old lobby's buttons taken away (its text stays)."""
        await self._bare_in(chat_of(place)[0], message_id, "an old lobby")

    async def _bare_in(self, chat: int, message_id: int, what: str) -> None:
        try:
            await self._call(
                self.bot.edit_message_reply_markup,
                chat_id=chat,
                message_id=message_id,
                reply_markup=None,
            )
        except TelegramError as error:
            log.info("telegram: %s kept its buttons: %s", what, type(error).__name__)

    async def private_text(self, place: Place, person: Person, say: Say, origin: None) -> bool:
        try:
            await self._call(
                self.bot.send_message,
                chat_id=int(person.platform_id),
                text=say.text[:TEXT],
                reply_markup=keyboard(say.buttons, labelled(self.base, say.link)),
            )
        except Forbidden:
            return False
        return True

    async def ask_to_open(self, place: Place, person: Person, game_id: int | None) -> str | None:
        """A group message with a button that opens the chat with the bot and brings the
        person's hand."""
        payload = f"h{game_id}" if game_id is not None else "hello"
        link = f"https://t.me/{self.username}?start={payload}"
        lang = person.locale
        markup = InlineKeyboardMarkup(
            [[InlineKeyboardButton(tr(lang, texts.OPEN_PRIVATE_BUTTON), url=link)]]
        )
        text = tr(lang, texts.OPEN_PRIVATE, name=person.name)
        return await self._send_text(place, text, (person,), markup)

    async def _send_text(
        self,
        place: Place,
        text: str,
        mention: tuple[Person, ...],
        markup: InlineKeyboardMarkup | None,
    ) -> str:
        chat, topic = chat_of(place)
        sent = await self._call(
            self.bot.send_message,
            chat_id=chat,
            text=_with_mentions(text[:TEXT], mention),
            parse_mode="HTML",
            reply_markup=markup,
            message_thread_id=topic,
        )
        return str(sent.message_id)

    # ----- pictures and files ----------------------------------------------------------

    async def hand(self, place: Place, hand: Hand, png: bytes, origin: None) -> bool:
        try:
            sent = await self._call(
                self.bot.send_photo,
                chat_id=int(hand.person.platform_id),
                photo=png,
                filename=photo_name("hand", hand.game_id, hand.move_number),
                caption=hand.text[:CAPTION],
                reply_markup=hand_keyboard(hand.buttons, hand.game_id, hand.move_number),
            )
        except Forbidden:
            return False
        self._hands.put((hand.game_id, hand.person.platform_id), sent.message_id)
        return True

    async def bare_hand(self, hand: Hand) -> None:
        message_id = self._hands.get((hand.game_id, hand.person.platform_id))
        if message_id is not None:
            await self._bare_in(int(hand.person.platform_id), message_id, "a late hand")

    async def picture(self, place: Place, picture: Picture, png: bytes, origin: None) -> None:
        await self._call(
            self.bot.send_photo,
            photo=png,
            filename=picture.name,
            caption=picture.text[:CAPTION],
            reply_markup=keyboard((), labelled(self.base, picture.link)),
            **_to(place, picture),
        )

    async def file(self, place: Place, file: File, origin: None) -> None:
        await self._call(
            self.bot.send_document,
            document=file.data,
            filename=file.name,
            caption=file.text[:CAPTION],
            **_to(place, file),
        )

    # ----- tournament tables -----------------------------------------------------------

    async def open_room(self, place: Place, title: str, key: str) -> Place | None:
        """A forum topic called ``title`` in the tournament's group. Where the group has
        no topics (or the bot may not open one: it must be an administrator allowed to
        manage topics), a room of the group itself: its board is a message of its own in
        the group, edited in place, and its players act by the buttons of that message and
        of their private hands (docs/bot.md, "Tournament tables")."""
        chat = chat_of(place)[0]
        try:
            found = await self._call(self.bot.get_chat, chat_id=chat)
            self._usernames.put(chat, found.username)
            if found.is_forum:
                topic = await self._call(
                    self.bot.create_forum_topic, chat_id=chat, name=title[:TOPIC_NAME]
                )
                room = f"{chat}:{topic.message_thread_id}"
                return Place(PLATFORM, place.community, room, place.community_name, place.locale)
        except TelegramError as error:
            log.warning("telegram: no topic %r in %s: %s", title, chat, error)
        log.info("telegram: table %r plays in %s itself (no topic)", title, chat)
        room = table_room(chat, secrets.token_hex(4))
        return Place(PLATFORM, place.community, room, place.community_name, place.locale)

    def link(self, place: Place) -> str:
        """A link to the topic: by the group's @username when it is public, else the
        members' link of a supergroup (``t.me/c/<id without -100>/<topic>``)."""
        chat, topic = chat_of(place)
        if topic is None:
            return ""
        username = self._usernames.get(chat)
        if username:
            return f"https://t.me/{username}/{topic}"
        digits = str(chat)
        if digits.startswith("-100"):
            return f"https://t.me/c/{digits[4:]}/{topic}"
        return ""  # a basic group has neither topics nor links to its messages

    # ----- failures --------------------------------------------------------------------

    async def shut_out(self, place: Place, error: Exception, origin: None) -> bool:
        if isinstance(error, Forbidden):
            log.warning("telegram: chat %s does not take our messages any more", place.room)
            return True
        return False

    async def _call(self, method: Callable[..., Awaitable[T]], **params: Any) -> T:
        return await retry(lambda: method(**params), pause_for, TRIES, PLATFORM)


def telegram_delivery(
    bot: Bot,
    posts: Posts,
    username: str,
    wake: Callable[[], None] | None = None,
    base: str = "",
) -> Delivery[None]:
    """Delivery to Telegram: the shared core with Telegram's part (``base``: PUBLIC_URL,
    where the web pages' links start)."""
    return Delivery(TelegramPlatform(bot, username, posts, base), posts, wake)


def photo_name(kind: str, game_id: int, move_number: int) -> str:
    """The file name of a board or hand picture: which game and move it shows. Telegram
    keeps it out of sight; it tells a reader of the traffic (a test) where the picture
    stands, as a hand and the board now travel apart."""
    return f"{kind}-{game_id}-{move_number}.png"


def _to(place: Place, effect: Picture | File) -> dict[str, Any]:
    """To the person who asked, or to the room (in its topic)."""
    if effect.private is not None:
        return {"chat_id": int(effect.private.platform_id)}
    chat, topic = chat_of(place)
    return {"chat_id": chat, "message_thread_id": topic}


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


def split_caption(text: str, limit: int = CAPTION) -> tuple[list[str], str]:
    """``text`` as texts to send first (each within a message's length) and a caption
    within ``limit``: whole lines, the last ones in the caption."""
    if len(text) <= limit:
        return [], text
    lines = text.split("\n")
    kept: list[str] = []
    while lines and len("\n".join([lines[-1], *kept])) <= limit:
        kept.insert(0, lines.pop())
    if not kept:  # one line longer than a caption: its end is what the picture says
        line = lines.pop()
        lines.append(line[: len(line) - limit + 1] + "…")
        kept = ["…" + line[len(line) - limit + 1 :]]
    head: list[str] = []
    for line in lines:
        if head and len(head[-1]) + 1 + len(line) <= TEXT:
            head[-1] += "\n" + line
        else:
            head.append(line[:TEXT])
    return head, "\n".join(kept)
