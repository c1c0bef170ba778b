"""The Telegram bot: updates in, the service's commands out, effects delivered.

Polling by default; with ``TELEGRAM_WEBHOOK_URL`` the library's webhook server listens
(``TELEGRAM_WEBHOOK_LISTEN``, ``TELEGRAM_WEBHOOK_PORT``) and refuses requests without
the secret token (``TELEGRAM_WEBHOOK_SECRET``). ``TELEGRAM_BASE_URL`` and
``TELEGRAM_BASE_FILE_URL`` point the library at another Bot API server.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

from telegram import (
    BotCommand,
    CallbackQuery,
    Chat,
    MaybeInaccessibleMessage,
    Message,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType, MessageEntityType
from telegram.error import Forbidden, InvalidToken, NetworkError, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.request import HTTPXRequest

from bot import core
from bot.core import (
    Bounded,
    Command,
    Effect,
    GameService,
    Hand,
    Place,
    Popup,
    Posts,
    StorageError,
)
from bot.doors import texts
from bot.doors.buttons import PAGE, TELEGRAM, Pressed
from bot.doors.config import Settings, hide_in_logs
from bot.doors.delivery import Delivery
from bot.doors.patience import pause_or_stop
from bot.doors.telegram.delivery import telegram_delivery
from bot.doors.telegram.keyboards import hand_keyboard
from bot.doors.telegram.limits import TelegramLimits
from bot.doors.telegram.places import PLATFORM, person_of, place_of, room_of_table
from lang import LANGUAGES, tr

log = logging.getLogger(__name__)
# the private chat's link from the group: /start h<game>, a game number as buttons carry
# one (anything else from outside, 4,000 digits say, is no game: it never reaches storage)
DEEP_LINK = re.compile(r"h[0-9]{1,15}")
ADMINS_KEPT = 20_000  # Telegram's answers on who administers a group, about 150 B each

ADMIN_SECONDS = 120  # how long an answer about admins is trusted
# /begin instead of /start, which Telegram keeps for opening a private chat.
RENAMED = {"start": "help"}


class TokenRefused(Exception):
    """Telegram does not accept TELEGRAM_TOKEN."""


class Polls(HTTPXRequest):
    """getUpdates' connection, noting whether its last call was answered (a long poll
    that fails tells at once: the connection breaks)."""

    failing = False

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        try:
            status, body = await super().do_request(*args, **kwargs)
        except Exception:
            self.failing = True
            raise
        self.failing = status != HTTPStatus.OK
        return status, body


class TelegramBot:
    def __init__(
        self,
        settings: Settings,
        service: GameService,
        posts: Posts,
        wake: Callable[[], None] | None = None,
    ) -> None:
        self.settings = settings
        self.service = service
        self.posts = posts
        self.wake = wake  # the timer loop's: a round's tables had their rooms opened
        self.polls = Polls(connection_pool_size=2)  # how the last getUpdates went
        builder = (
            ApplicationBuilder()
            .token(settings.telegram_token)
            .rate_limiter(
                TelegramLimits(
                    settings.telegram_overall_rate,
                    settings.telegram_group_rate,
                    retries=3,
                    shared=posts.take_send,
                )
            )
            .concurrent_updates(True)
            # at a stop, the library asks getUpdates once more while the long poll may
            # still hold its connection: a second one spares it a pool timeout
            .get_updates_request(self.polls)
        )
        if settings.telegram_base_url:
            builder = builder.base_url(settings.telegram_base_url)
        if settings.telegram_base_file_url:
            builder = builder.base_file_url(settings.telegram_base_file_url)
        self.app: Application = builder.build()
        self.delivery: Delivery[None] | None = None
        self.ready = asyncio.Event()  # set once Telegram answered and effects can go out
        # (chat, user): whether an admin, and when Telegram said so; the most recent kept
        self._admins: Bounded[tuple[int, int], tuple[bool, datetime]] = Bounded(ADMINS_KEPT)
        self.app.add_handler(MessageHandler(filters.COMMAND, self.on_command))
        # a move's number typed alone in a group ("2"): a move for the player to move,
        # the group's talk for anyone else (the service says nothing to them)
        number = filters.Regex(core.TYPED_NUMBER_PATTERN) & filters.ChatType.GROUPS
        self.app.add_handler(
            MessageHandler(filters.TEXT & ~filters.COMMAND & number, self.on_number)
        )
        self.app.add_handler(CallbackQueryHandler(self.on_press))
        self.app.add_handler(
            ChatMemberHandler(self.on_membership, ChatMemberHandler.MY_CHAT_MEMBER)
        )
        self.app.add_error_handler(self.on_error)

    async def run(self, stop: asyncio.Event) -> None:
        """Serve until ``stop`` is set. A token Telegram refuses raises
        :class:`TokenRefused`; an unreachable Telegram is tried again until it answers."""
        app = self.app
        await self._initialize(stop)
        me = app.bot
        self.delivery = telegram_delivery(
            me, self.posts, me.username, self.wake, self.settings.public_url
        )
        await self._register_commands()
        self.ready.set()
        await app.start()
        updater = app.updater
        assert updater is not None
        settings = self.settings
        allowed = ["message", "callback_query", "my_chat_member"]
        if settings.telegram_webhook_url:
            # a secret made here is as secret as one given: hidden in every log line
            # (the library logs setWebhook's parameters at DEBUG) before it is used
            secret = settings.telegram_webhook_secret or secrets.token_urlsafe(32)
            hide_in_logs(secret)
            await updater.start_webhook(
                listen=settings.telegram_webhook_listen,
                port=settings.telegram_webhook_port,
                url_path=settings.telegram_webhook_path,
                webhook_url=settings.telegram_webhook_url,
                secret_token=secret,
                allowed_updates=allowed,
            )
        else:
            await updater.start_polling(
                poll_interval=settings.telegram_poll_interval,
                timeout=settings.telegram_poll_timeout,
                allowed_updates=allowed,
                error_callback=_polling_failed,
            )
        try:
            await stop.wait()
        finally:
            await updater.stop()
            await app.stop()
            await self.delivery.idle()
            await app.shutdown()

    def state(self) -> str:
        """ "ok" while Telegram is reached: connected, the updates taken (polling or the
        webhook running), the last getUpdates answered; else what is wrong (/healthz)."""
        if not self.ready.is_set():
            return "connecting"
        updater = self.app.updater
        if updater is None or not updater.running:
            return "not taking updates"
        if not self.settings.telegram_webhook_url and self.polls.failing:
            return "getUpdates failing"
        return "ok"

    def pending(self) -> int:
        """The effects queued and not yet sent (/metrics)."""
        return self.delivery.pending() if self.delivery is not None else 0

    async def deliver(self, place: Place, effects: list[Effect]) -> None:
        """Effects of a timer (or anything not answering an update)."""
        await self.ready.wait()
        assert self.delivery is not None
        await self.delivery.deliver(place, effects)

    async def _initialize(self, stop: asyncio.Event) -> None:
        """Ask Telegram who the bot is (getMe) until it answers: each try that does not
        reach it is one WARNING line saying where, why and when the next try is (the
        pauses double up to a minute); nothing is served meanwhile."""
        pause = 1.0
        address = urlsplit(self.settings.telegram_base_url).netloc or "api.telegram.org"
        while True:
            try:
                await self.app.initialize()
                return
            except (InvalidToken, Forbidden) as error:
                raise TokenRefused(str(error)) from None
            except NetworkError as error:
                log.warning(
                    "telegram: %s is not reachable (%s); not serving Telegram until it"
                    " answers; trying again in %.0f s",
                    address,
                    " ".join(str(error).split()) or type(error).__name__,
                    pause,
                )
            pause = await pause_or_stop(stop, pause, PLATFORM)

    async def _register_commands(self) -> None:
        for lang in (None, *LANGUAGES):
            commands = menu_commands(lang)
            try:
                await self.app.bot.set_my_commands(commands, language_code=lang)
            except TelegramError as error:
                log.warning("telegram: the command menu was not set: %s", error)

    # ----- updates -----------------------------------------------------------------------

    async def on_command(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        message, chat, user = update.effective_message, update.effective_chat, update.effective_user
        if message is None or chat is None or user is None or not message.text or user.is_bot:
            return
        assert self.delivery is not None
        self.delivery.seen(str(chat.id), message.message_id)
        first, *args = message.text.split()
        name, _, addressed = first[1:].partition("@")
        if addressed and addressed.lower() != (self.app.bot.username or "").lower():
            return  # a command for another bot in the same group
        action = name.lower()
        if chat.type == ChatType.PRIVATE:
            await self._private_command(user, action, args)
            return
        action = RENAMED.get(action, action)
        action = core.command_named(action) or action  # "/jugar" is "/play"
        topic = message.message_thread_id if message.is_topic_message else None
        place = place_of(chat, topic, user.language_code)
        admin = core.asks_admin(action) and await self._is_admin(chat, user)
        words = stats_args(message) if action == "stats" else tuple(args)
        command = Command(place, person_of(user, admin), action, words, private_in_room=False)
        await self.delivery.deliver(place, await self.service.handle(command))

    async def on_number(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        """A move's number typed alone in a group: the service plays it for the player to
        move and answers nobody else."""
        message, chat, user = update.effective_message, update.effective_chat, update.effective_user
        if message is None or chat is None or user is None or not message.text or user.is_bot:
            return
        key = core.typed_number(message.text)
        if key is None:
            return
        assert self.delivery is not None
        self.delivery.seen(str(chat.id), message.message_id)
        topic = message.message_thread_id if message.is_topic_message else None
        place = place_of(chat, topic, user.language_code)
        command = Command(
            place, person_of(user), "number", (key,), private_in_room=False, talk=True
        )
        await self.delivery.deliver(place, await self.service.handle(command))

    async def _private_command(self, user: User, action: str, args: list[str]) -> None:
        """In the private chat: ``/start h<game>`` (the link from the group) brings the
        person's hand; anything else says where games are played."""
        assert self.delivery is not None
        lang = user.language_code
        if action == "start" and args and DEEP_LINK.fullmatch(args[0]):
            try:
                place = await self.service.place_of_game(int(args[0][1:]), PLATFORM)
            except StorageError:
                await self._say_privately(user, tr(lang, core.DATABASE_DOWN))
                return
            if place is not None:
                game_id = int(args[0][1:])
                command = Command(place, person_of(user), "hand", private=True, game_id=game_id)
                await self.delivery.deliver(place, await self.service.handle(command))
                return
            await self._say_privately(user, tr(lang, texts.NO_SUCH_GAME))
            return
        text = texts.WELCOME if action == "start" else texts.GROUPS_ONLY
        await self._say_privately(user, tr(lang, text))

    async def _say_privately(self, user: User, text: str) -> None:
        try:
            await self.app.bot.send_message(user.id, text)
        except TelegramError as error:
            log.info("telegram: no private answer to %s: %s", user.id, type(error).__name__)

    async def on_press(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        """A press of one of the bot's buttons. The press is answered first (a popup when
        it did nothing: why, or what to do), then what it changed is delivered; whatever
        fails before the answer, the presser is told and nothing changed."""
        query, user = update.callback_query, update.effective_user
        if query is None or user is None:
            return
        assert self.delivery is not None
        lang = user.language_code
        try:
            outcome = await self._press(query, user)
        except StorageError:
            outcome = tr(lang, core.DATABASE_DOWN), None
        except Exception:
            log.exception("telegram: a press failed")
            outcome = tr(lang, core.NOTHING_CHANGED), None
        popup, delivery = outcome
        try:
            await query.answer(popup[:200] if popup else None, show_alert=bool(popup))
        except TelegramError as error:  # too late, or Telegram away: the press stays unanswered
            log.info("telegram: a press was not answered: %s", error)
        if delivery is not None:
            await self.delivery.deliver(*delivery)

    async def _press(
        self, query: CallbackQuery, user: User
    ) -> tuple[str | None, tuple[Place, list[Effect]] | None]:
        """What to answer the press (a popup, or None), and what to deliver where."""
        lang = user.language_code
        pressed = TELEGRAM.decode(query.data)
        message = query.message
        if pressed is None or message is None:
            return tr(lang, texts.UNKNOWN_BUTTON), None
        chat = message.chat
        assert self.delivery is not None
        self.delivery.seen(str(chat.id), message.message_id)
        private = chat.type == ChatType.PRIVATE
        if pressed.kind == PAGE and not private:
            # pages are turned on the presser's own hand only: on the group's board a
            # forged page press would put the presser's move buttons there
            return tr(lang, texts.UNKNOWN_BUTTON), None
        if private:
            # a press in the private chat acts only as the presser's own seat actions in
            # the game it names (the service refuses the rest): the room is that game's
            if pressed.game_id is None:
                return tr(lang, texts.NO_SUCH_GAME), None
            place = await self.service.place_of_game(pressed.game_id, PLATFORM)
        else:
            place = place_of(chat, _topic_of(message), lang)
            if pressed.game_id is not None:
                # a button of a tournament table that plays in this group itself (no
                # topics): it acts at that table, a room of this very group
                table = await self.service.place_of_game(pressed.game_id, PLATFORM)
                if table is not None and room_of_table(place, table.room):
                    place = replace(place, room=table.room)
        if place is None:
            return tr(lang, texts.NO_SUCH_GAME), None
        if pressed.kind == PAGE:
            return await self._turn_page(query, place, user, pressed), None
        words = pressed.command.split()
        admin = not private and core.asks_admin(words[0]) and await self._is_admin(chat, user)
        command = Command(
            place,
            person_of(user, admin),
            words[0],
            tuple(words[1:]),
            move_number=pressed.move_number,
            game_id=pressed.game_id,
            private=private,
            move=pressed.move,
            private_in_room=False,  # private answers go to the private chat
        )
        effects = await self.service.handle(command)
        popup, rest = _popup_for(effects, str(user.id))
        return popup, (place, rest)

    async def _turn_page(
        self, query: CallbackQuery, place: Place, user: User, pressed: Pressed
    ) -> str | None:
        """Show another page of the hand's move buttons, in the same message; the popup
        if the hand is no longer that one."""
        command = Command(place, person_of(user), "hand", private=True, game_id=pressed.game_id)
        effects = await self.service.handle(command)
        hand = next((e for e in effects if isinstance(e, Hand)), None)
        if hand is None or hand.move_number != pressed.move_number or pressed.index is None:
            return tr(user.language_code, core.STALE)
        markup = hand_keyboard(hand.buttons, hand.game_id, hand.move_number, pressed.index)
        try:
            await query.edit_message_reply_markup(reply_markup=markup)
        except TelegramError as error:
            log.info("telegram: page not turned: %s", error)
        return None

    async def on_membership(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot removed from a group: its game there ends (without a result)."""
        change = update.my_chat_member
        if change is None:
            return
        status = change.new_chat_member.status
        if status not in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
            return
        chat = change.chat
        place = place_of(chat)
        try:
            await self.service.room_gone(place)  # nobody to tell
        except StorageError as error:
            log.warning("telegram: the game of a group left was left to its timer: %s", error)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("telegram: an update failed: %s", context.error, exc_info=context.error)

    async def _is_admin(self, chat: Chat, user: User) -> bool:
        key = (chat.id, user.id)
        now = datetime.now(UTC)
        known = self._admins.get(key)
        if known is not None and now - known[1] < timedelta(seconds=ADMIN_SECONDS):
            return known[0]
        try:
            member = await self.app.bot.get_chat_member(chat.id, user.id)
            admin = member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
        except TelegramError:
            admin = False
        self._admins.put(key, (admin, now))
        return admin


def _polling_failed(error: TelegramError) -> None:
    """getUpdates failed (the library tries again, waiting longer each time): one line,
    no traceback; /healthz says "getUpdates failing" meanwhile."""
    log.warning("telegram: getUpdates failed (%s); trying again", error)


def stats_args(message: Message) -> tuple[str, ...]:
    """/stats's argument: the person Telegram points at (a mention of someone without a
    username, or the author of the message replied to) as ``user:<id>``; else what was
    typed after the command, as typed (a name or @username, looked up by the service)."""
    for entity in message.entities:
        user = entity.user
        if entity.type == MessageEntityType.TEXT_MENTION and user is not None:
            return (f"user:{user.id}",)
    _command, *typed = (message.text or "").split(maxsplit=1)
    if typed:
        return (" ".join(typed[0].split()),)
    reply = message.reply_to_message
    # in a forum topic every message answers the topic's first one: not a reply to anyone
    topic_start = (
        message.is_topic_message
        and reply is not None
        and reply.message_id == message.message_thread_id
    )
    author = reply.from_user if reply is not None and not topic_start else None
    if author is not None and not author.is_bot:  # replying to a bot: their own stats
        return (f"user:{author.id}",)
    return ()


def _topic_of(message: MaybeInaccessibleMessage) -> int | None:
    """The forum topic a message is in (None outside forums)."""
    if isinstance(message, Message) and message.is_topic_message:
        return message.message_thread_id
    return None


def _popup_for(effects: list[Effect], user_id: str) -> tuple[str | None, list[Effect]]:
    """The presser's popup (shown as the press's answer, for them only), and the other
    effects."""
    for i, effect in enumerate(effects):
        if (
            isinstance(effect, Popup)
            and effect.private is not None
            and effect.private.platform_id == user_id
        ):
            return effect.text, effects[:i] + effects[i + 1 :]
    return None, effects


__all__ = ["PLATFORM", "TelegramBot"]


def menu_commands(lang: str | None) -> list[BotCommand]:
    """Telegram's command menu in ``lang`` (None: the default, Spanish), from the registry:
    each command by its name in that language ("/jugar"), as the texts name it."""
    return [
        BotCommand(core.name_in(lang, spec.name), tr(lang, spec.about)[:256])
        for spec in core.menu_commands()
    ]
