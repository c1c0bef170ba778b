"""The service's effects delivered to Discord: the Discord part of the shared delivery core
(bot/doors/delivery.py), which keeps each room's order, edits the board in place, counts how
buried it is, remembers its post through the service, tells people once and drops
superseded boards.

What is Discord's own lives here. Hands go by direct message with their move buttons; a
person whose direct messages are closed (50007) gets the hand as an ephemeral answer when
they are the one who acted, and is told once per game in the room to press "My hand";
their direct messages are not tried again in that game (each refusal counts toward
Discord's limit on invalid requests) until they press "My hand", and then at most once
in ``DM_RETRY_SECONDS``. A game's lobby is edited as people take their seats and loses
its buttons when the game begins; when a game ends, the room's lobby and turn calls of
that game are tidied away.

Text goes out as plain text: the bot's own texts use no markdown, so whatever markdown or
mention a text holds came from a name someone chose, and is escaped; a message pings only
the people it calls by name (``allowed_mentions``). Rate limits are discord.py's; what
still fails with a server or network error is tried again, and a move is never lost (it
is saved before anything is sent).
"""

from __future__ import annotations

import io
import logging
import re
import time
from collections.abc import Awaitable, Callable, Collection
from contextlib import suppress
from functools import lru_cache
from typing import Any, TypeGuard, TypeVar

import aiohttp
import discord

from bot import core
from bot.core import (
    Board,
    Bounded,
    Effect,
    File,
    Hand,
    Lobby,
    Person,
    Picture,
    Place,
    Posts,
    Say,
    TurnCall,
)
from bot.doors import texts
from bot.doors.delivery import Delivery
from bot.doors.discord.components import buttons_view, hand_view
from bot.doors.discord.places import PLATFORM
from bot.doors.links import labelled
from bot.doors.platform import Platform
from bot.doors.retry import Pause, backoff, retry
from lang import LANGUAGES, tr

log = logging.getLogger(__name__)
T = TypeVar("T")
Interaction = discord.Interaction[Any]

BURIED = 10  # messages after the board that push it out of view: post it again
TEXT = 2000  # Discord's limit on a message's content
TRIES = 5  # attempts at one call through server errors and network trouble
DMS_CLOSED = 50007  # "Cannot send messages to this user"
# After a press of "My hand", closed direct messages are tried again at most this often: a
# person without them presses it every turn, and each refusal is an invalid request.
DM_RETRY_SECONDS = 600
# Discord's markup that escape_mentions leaves: <@id> <@!id> <@&id> <#id> </cmd:id> <:e:id>
# <a:e:id> <t:123>; a backslash before it shows it as typed.
_MARKUP = re.compile(r"<(?=(?:@[!&]?|#|/[^>\n]*:|a?:\w*:|t:)\d)")
_ESCAPED_CHANNEL = re.compile(r"\\<#(\d+)>")  # a channel's mention as plain() leaves it
THREAD_NAME = 100  # Discord's limit on a thread's name
# the latest hand message of each (game, person) kept, to bare one that went out late:
# the people playing at once in one process, with room to spare
HANDS_KEPT = 20_000
PEOPLE_KEPT = 20_000  # direct-message channels kept, about 1 KB each


class DiscordDelivery(Delivery[Interaction]):
    """The shared core with Discord's part; the adapter's handle on both."""

    def __init__(
        self,
        client: discord.Client,
        posts: Posts,
        wake: Callable[[], None] | None = None,
        base: str = "",
    ) -> None:
        self.discord = DiscordPart(client, base)
        super().__init__(self.discord, posts, wake)

    async def ephemeral(
        self,
        interaction: Interaction,
        text: str,
        png: bytes | None = None,
        name: str = "picture.png",
        view: discord.ui.View | None = None,
    ) -> None:
        await self.discord.ephemeral(interaction, text, png, name, view)

    def forget_room(self, channel_id: int) -> None:
        """The channel is gone: nothing more is known of it."""
        self.depth.forget(str(channel_id))
        self.discord.forget_room(channel_id)


class DiscordPart(Platform[Interaction]):
    name = PLATFORM
    buried = BURIED
    numbered = False  # Discord's ids are not consecutive: messages seen are counted
    # an answer only the person sees does not wait behind the room's board edits
    private_lanes = True
    text_limit = TEXT
    mention_room = 24  # "<@" and a user id of up to 20 digits, ">", and a space

    def __init__(self, client: discord.Client, base: str = "") -> None:
        self.client = client
        # where people reach the web pages (PUBLIC_URL): the links' addresses start there;
        # "" without it (an address on this machine is no use to people in a chat)
        self.base = base
        self.clock = time.monotonic
        # the people's direct-message channels, the most recently used kept
        self._dms: Bounded[int, discord.DMChannel] = Bounded(PEOPLE_KEPT)
        self._answered: set[int] = set()  # interactions answered with words for them only
        # (game, person) whose direct messages were closed: when it was found (monotonic)
        self._closed: dict[tuple[int, str], float] = {}
        self._passing: dict[int, list[int]] = {}  # channel id: lobby and turn-call messages
        self._lobbies: dict[int, tuple[int, int]] = {}  # channel id: (game, its lobby message)
        self._warned: set[int] = set()  # interactions told that the channel is closed to us
        self._threads: set[int] = set()  # threads opened here for tournament tables
        # (game, person): the message of their latest hand, to bare if it went out late
        self._hands: Bounded[tuple[int, str], Any] = Bounded(HANDS_KEPT)

    def forget_room(self, channel_id: int) -> None:
        self._passing.pop(channel_id, None)
        self._lobbies.pop(channel_id, None)

    def _channel(self, place: Place) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(int(place.room))

    # ----- the board -------------------------------------------------------------------

    async def post_board(self, place: Place, board: Board, png: bytes) -> str:
        channel = self._channel(place)
        sent = await _call(
            lambda: channel.send(
                plain(board.text)[:TEXT],
                file=_file(png, "board.png"),
                view=buttons_view(board.buttons, labelled(self.base, board.link))
                or discord.utils.MISSING,
                allowed_mentions=mentioning(),
            )
        )
        return str(sent.id)

    async def edit_board(self, place: Place, message_id: str, board: Board, png: bytes) -> bool:
        message = self._channel(place).get_partial_message(int(message_id))
        try:
            await _call(
                lambda: message.edit(
                    content=plain(board.text)[:TEXT],
                    attachments=[_file(png, "board.png")],
                    view=buttons_view(board.buttons, labelled(self.base, board.link)),
                    allowed_mentions=mentioning(),
                )
            )
        except discord.NotFound:
            return False
        return True

    async def delete(self, place: Place, message_id: str) -> None:
        with suppress(discord.HTTPException):
            await self._channel(place).get_partial_message(int(message_id)).delete()

    async def before_board(self, place: Place, board: Board) -> None:
        """The game has begun: its lobby's buttons go."""
        channel_id = int(place.room)
        known = self._lobbies.get(channel_id)
        if known is None or known[0] != board.game_id:
            return
        del self._lobbies[channel_id]
        with suppress(discord.HTTPException):
            await self._channel(place).get_partial_message(known[1]).edit(view=None)

    async def after_board(self, place: Place, board: Board) -> None:
        """At the game's end, the lobby and the turn calls go (the board and the summaries
        stay), and what was known of its people's direct messages."""
        if not board.final:
            return
        for key in [k for k in self._closed if k[0] == board.game_id]:
            del self._closed[key]
        channel = self._channel(place)
        for message_id in self._passing.pop(int(place.room), []):
            with suppress(discord.HTTPException):
                await channel.get_partial_message(message_id).delete()

    # ----- text ------------------------------------------------------------------------

    async def room_text(self, place: Place, say: Say, origin: Interaction | None) -> str | None:
        sent = await self._send(place, say)
        if isinstance(say, TurnCall):  # gone when the game ends
            self._passing.setdefault(int(place.room), []).append(sent.id)
        return str(sent.id)

    async def lobby(self, place: Place, lobby: Lobby, origin: Interaction | None) -> str | None:
        """The game's lobby, edited as people take their seats."""
        channel = self._channel(place)
        known = self._lobbies.get(channel.id)
        if known is not None and known[0] == lobby.game_id:
            message = channel.get_partial_message(known[1])
            try:
                await _call(
                    lambda: message.edit(
                        content=_body(lobby, self._threads),
                        view=buttons_view(lobby.buttons),
                        allowed_mentions=mentioning(lobby.mention),
                    )
                )
                return None  # nothing new in the room
            except discord.NotFound:
                pass  # deleted by someone: posted anew
        sent = await self._send(place, lobby)
        self._lobbies[channel.id] = (lobby.game_id, sent.id)
        self._passing.setdefault(channel.id, []).append(sent.id)
        return str(sent.id)

    async def _send(self, place: Place, say: Say) -> discord.Message:
        channel = self._channel(place)
        return await _call(
            lambda: channel.send(
                _body(say, self._threads),
                view=buttons_view(say.buttons, labelled(self.base, say.link))
                or discord.utils.MISSING,
                allowed_mentions=mentioning(say.mention),
            )
        )

    async def private_text(
        self, place: Place, person: Person, say: Say, origin: Interaction | None
    ) -> bool:
        """To the person who acted, an answer only they see (a refusal, help, a choice of
        places); to anyone else, a direct message."""
        view = buttons_view(say.buttons)
        if _acted(origin, person):
            await self.ephemeral(origin, say.text, view=view)
            return True
        return await self._direct(person, say.text, view=view) is not None

    async def ask_to_open(self, place: Place, person: Person, game_id: int | None) -> str | None:
        """Once per game and person: a room message calling them to press "My hand" (a
        private word outside a game that did not reach them is not worth the room's)."""
        if game_id is None:
            return None
        text = tr(person.locale, texts.PRESS_MY_HAND, name=person.name)
        sent = await self._send(place, Say(text, mention=(person,)))
        self._passing.setdefault(int(place.room), []).append(sent.id)  # gone with the game
        return str(sent.id)

    # ----- hands, pictures, files ------------------------------------------------------

    async def hand(self, place: Place, hand: Hand, png: bytes, origin: Interaction | None) -> bool:
        """By direct message; to the person who asked for it ("My hand", /domino hand, a
        press of an earlier moment), as an answer only they see."""
        view = hand_view(hand.buttons, hand.game_id, hand.move_number)
        key = (hand.game_id, hand.person.platform_id)
        if hand.asked and _acted(origin, hand.person):
            self.asked_for_hand(hand)
            self._hands.put(key, await self.ephemeral(origin, hand.text, png, "hand.png", view))
            return True
        if key not in self._closed:
            sent = await self._direct(hand.person, hand.text, png, "hand.png", view)
            if sent is not None:
                self._hands.put(key, sent)
                return True
            self._closed[key] = self.clock()
        if _acted(origin, hand.person):  # the person who acted: the hand, for them only
            self._hands.put(key, await self.ephemeral(origin, hand.text, png, "hand.png", view))
            return True
        return False

    async def bare_hand(self, hand: Hand) -> None:
        """The hand's message (a direct message, or an answer only its person sees) loses
        its buttons: it went out late, after a move."""
        sent = self._hands.get((hand.game_id, hand.person.platform_id))
        if sent is None:
            return
        try:
            await _call(lambda: sent.edit(view=None))
        except discord.HTTPException as error:
            log.info("discord: a late hand kept its buttons: %s", error.status)

    def asked_for_hand(self, hand: Hand) -> None:
        """``hand``'s person pressed "My hand" (or ran /domino hand) and sees it: their
        direct messages, closed in this game, are tried again with their next hand, if
        they were last tried ``DM_RETRY_SECONDS`` ago."""
        key = (hand.game_id, hand.person.platform_id)
        failed = self._closed.get(key)
        if failed is not None and self.clock() - failed >= DM_RETRY_SECONDS:
            del self._closed[key]

    def unreachable(self, effects: list[Effect]) -> Collection[str]:
        """People whose direct messages are closed in the games of ``effects``."""
        games = {e.game_id for e in effects if isinstance(e, Board | Hand)}
        return {person for game, person in self._closed if game in games}

    async def picture(
        self, place: Place, picture: Picture, png: bytes, origin: Interaction | None
    ) -> str | None:
        view = buttons_view((), labelled(self.base, picture.link))
        return await self._attachment(
            place, picture.private, picture.text, png, picture.name, origin, view
        )

    async def file(self, place: Place, file: File, origin: Interaction | None) -> str | None:
        return await self._attachment(place, file.private, file.text, file.data, file.name, origin)

    async def _attachment(
        self,
        place: Place,
        private: Person | None,
        text: str,
        data: bytes,
        name: str,
        origin: Interaction | None,
        view: discord.ui.View | None = None,
    ) -> str | None:
        if private is not None:  # the person who acted sees it in the answer, only they
            if _acted(origin, private):
                await self.ephemeral(origin, text, data, name, view)
            else:
                await self._direct(private, text, data, name, view)
            return None
        channel = self._channel(place)
        sent = await _call(
            lambda: channel.send(
                plain(text)[:TEXT],
                file=_file(data, name),
                view=view or discord.utils.MISSING,
                allowed_mentions=mentioning(),
            )
        )
        return str(sent.id)

    async def _direct(
        self,
        person: Person,
        text: str,
        data: bytes | None = None,
        name: str = "picture.png",
        view: discord.ui.View | None = None,
    ) -> discord.Message | None:
        """A direct message; None when the person's direct messages are closed."""
        user_id = int(person.platform_id)
        try:
            channel = self._dms.get(user_id)
            if channel is None:
                channel = await _call(lambda: self.client.create_dm(discord.Object(user_id)))
                self._dms.put(user_id, channel)
            sent = await _call(
                lambda: channel.send(
                    plain(text)[:TEXT],
                    file=_file(data, name) if data is not None else discord.utils.MISSING,
                    view=view or discord.utils.MISSING,
                    allowed_mentions=mentioning(),
                )
            )
        except discord.Forbidden as error:
            if error.code != DMS_CLOSED:
                log.warning("discord: no direct message to %s: %s", user_id, error.code)
            return None
        return sent

    # ----- tournament tables -----------------------------------------------------------

    async def open_room(self, place: Place, title: str, key: str) -> Place | None:
        """A public thread called ``title`` under the tournament's channel (under its
        channel when the tournament is in a thread: a thread holds no threads); None, and
        a line in the log, when the bot may not open one there."""
        try:
            channel = await self._text_channel(int(place.room))
            if channel is None:
                log.warning("discord: %s is no text channel: no thread %r", place.room, title)
                return None
            thread = await _call(
                lambda: channel.create_thread(
                    name=title[:THREAD_NAME],
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=1440,  # a day: a round's table is long played out
                )
            )
        except discord.HTTPException as error:
            log.warning(
                "discord: no thread %r in %s (%s %s)", title, place.room, error.status, error.code
            )
            return None
        self._threads.add(thread.id)
        return Place(
            place.platform, place.community, str(thread.id), place.community_name, place.locale
        )

    async def _text_channel(self, channel_id: int) -> discord.TextChannel | None:
        """The channel, from discord.py's cache or fetched (a channel made after the bot
        connected may not be there yet)."""
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await _call(lambda: self.client.fetch_channel(channel_id))
        if isinstance(channel, discord.Thread):
            channel = channel.parent
        return channel if isinstance(channel, discord.TextChannel) else None

    def link(self, place: Place) -> str:
        """The thread's mention: Discord shows it as a link to the thread."""
        return f"<#{int(place.room)}>"

    # ----- answers to the person who acted -----------------------------------------------

    async def ephemeral(
        self,
        interaction: Interaction,
        text: str,
        png: bytes | None = None,
        name: str = "picture.png",
        view: discord.ui.View | None = None,
    ) -> Any:
        """An answer only the person who acted sees (the interaction's follow-up); the
        message, to edit later."""
        self._answered.add(interaction.id)
        return await _call(
            lambda: interaction.followup.send(
                plain(text)[:TEXT] or "·",
                ephemeral=True,
                file=_file(png, name) if png is not None else discord.utils.MISSING,
                view=view or discord.utils.MISSING,
                allowed_mentions=mentioning(),
                wait=True,
            )
        )

    async def delivered(self, origin: Interaction) -> None:
        """A slash command's deferred answer ("thinking...") goes when nothing answered
        its author (a press's deferred update leaves nothing behind)."""
        if origin.id in self._answered:
            self._answered.discard(origin.id)
        elif origin.type is discord.InteractionType.application_command:
            with suppress(discord.HTTPException):
                await origin.delete_original_response()

    async def shut_out(self, place: Place, error: Exception, origin: Interaction | None) -> bool:
        """The channel's permissions leave the bot out: whoever acted learns why the room
        saw nothing (once per interaction)."""
        if not isinstance(error, discord.Forbidden):
            return False
        log.warning("discord: cannot post in %s (%s)", place.room, error.code)
        if origin is None or origin.id in self._warned:
            return True
        if len(self._warned) > 1000:
            self._warned.clear()
        self._warned.add(origin.id)
        with suppress(discord.HTTPException):
            await self.ephemeral(origin, tr(origin.locale.value, texts.CANNOT_POST))
        return True


def _acted(origin: Interaction | None, person: Person) -> TypeGuard[Interaction]:
    """Whether ``person`` is the one whose interaction ``origin`` is."""
    return origin is not None and str(origin.user.id) == person.platform_id


def _worth_retrying(error: Exception, attempt: int) -> Pause | None:
    """Server errors and network trouble are tried again (discord.py waits out 429s
    itself); other errors go to the caller."""
    if isinstance(error, discord.HTTPException):
        return Pause(backoff(attempt)) if error.status >= 500 or error.status == 429 else None
    if isinstance(error, aiohttp.ClientError | TimeoutError):
        return Pause(backoff(attempt))
    return None


async def _call(send: Callable[[], Awaitable[T]]) -> T:
    return await retry(send, _worth_retrying, TRIES, PLATFORM)


def _body(say: Say, threads: Collection[int] = ()) -> str:
    """The text of ``say`` as Discord shows it: plain, its people mentioned, and the links
    to the threads the bot opened (``threads``) working links."""
    text = _with_mentions(plain(say.text), say.mention)
    if threads:
        text = _ESCAPED_CHANNEL.sub(lambda m: m[0][1:] if int(m[1]) in threads else m[0], text)
    return text[:TEXT]


def _file(data: bytes, name: str) -> discord.File:
    # a new one for every attempt: a sent file has been read to its end
    return discord.File(io.BytesIO(data), name)


@lru_cache(maxsize=1)
def _commands() -> re.Pattern[str]:
    """The registry's commands as the texts name them, in any language ("/new", "/play",
    "/jugar" ...: a text names them in its own)."""
    names = sorted(
        {
            core.name_in(lang, s.name)
            for s in core.public_commands()
            if not s.alone
            for lang in LANGUAGES
        },
        key=len,
        reverse=True,
    )
    return re.compile(r"(?<![\w/])/(" + "|".join(map(re.escape, names)) + r")\b")


def as_discord_spells(text: str) -> str:
    """``text`` naming each command as Discord spells it: ``/domino new`` for ``/new``, and
    ``/domino nueva`` for ``/nueva`` (the text is Spanish: so is its reader's client, whose
    menu shows the Spanish names)."""
    return _commands().sub(r"/domino \1", text)


def plain(text: str) -> str:
    """``text`` shown as written: its markdown and mentions escaped. The bot's texts use
    neither on purpose; what there is came from names people chose (``**Ana**``,
    ``@everyone``, ``<@123>``). Commands are named as Discord spells them."""
    text = as_discord_spells(text)
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(text))
    return _MARKUP.sub(r"\\<", text)


def mentioning(people: tuple[Person, ...] = ()) -> discord.AllowedMentions:
    """Whom a message may notify: the people it calls by name, nobody else (no
    @everyone, no role, whatever the text holds)."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(int(p.platform_id)) for p in people],
        replied_user=False,
    )


def _with_mentions(text: str, people: tuple[Person, ...]) -> str:
    """Each mentioned person's name in ``text`` (already plain) as a mention, which
    notifies them."""
    for person in people:
        mention = f"<@{int(person.platform_id)}>"
        name = plain(person.name)
        text = text.replace(name, mention, 1) if name and name in text else f"{mention} {text}"
    return text
