"""The service's effects delivered to Discord.

Each room's effects go out in order, by one worker per room; a board followed by a newer
board of the same game is skipped, so a run of computer moves costs one edit. The board is
one message per game, edited in place, its id kept in the database (``posts``) so a
restarted bot edits the same one; posted again when many messages have buried it. Hands
go by direct message with their move buttons; a person whose direct messages are closed
(50007) gets the hand as an ephemeral answer when they are the one who acted, and is
told once per game in the room to press "My hand"; their direct messages are not tried
again in that game (each refusal counts toward Discord's limit on invalid requests) until
they press "My hand", and then at most once in ``DM_RETRY_SECONDS``.

Text goes out as plain text: the bot's own texts use no markdown, so whatever markdown or
mention a text holds came from a name someone chose, and is escaped; a message pings only
the people it calls by name (``allowed_mentions``). Rate limits are discord.py's; what
still fails is tried again, and a move is never lost (it is saved before anything is
sent). When a game ends, the room's lobby and turn calls of that game are tidied away.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
import discord

from bot import texts
from bot.discord.components import buttons_view, hand_view
from bot.model import Board, Effect, File, Hand, Person, Picture, Place, Say
from bot.outbox import Outbox
from bot.pictures import board_png, hand_png
from bot.service import GameService
from bot.turn_calls import fold_turn_calls
from lang import tr

log = logging.getLogger(__name__)
T = TypeVar("T")

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


@dataclass(frozen=True)
class Queued:
    effect: Effect
    # the interaction of the person who acted: their own hand falls back to it
    interaction: discord.Interaction[Any] | None = None


class DiscordDelivery:
    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service
        self._outbox: Outbox[Queued] = Outbox(self._send, lambda item: item.effect, "discord")
        self._since_board: dict[int, int] = {}  # channel id: messages since our board
        self._dms: dict[int, discord.DMChannel] = {}
        # (game, person) whose direct messages were closed: when it was found (monotonic)
        self._closed: dict[tuple[int, str], float] = {}
        self.clock = time.monotonic
        self._told: set[tuple[int, str]] = set()  # (game, person) told to press "My hand"
        self._passing: dict[int, list[int]] = {}  # channel id: lobby and turn-call messages
        self._lobbies: dict[int, tuple[int, int]] = {}  # channel id: (game, its lobby message)
        self._warned: set[int] = set()  # interactions told that the channel is closed to us

    def seen(self, channel_id: int) -> None:
        """A message went by in a channel, other than the board (to know when the board is
        buried)."""
        if channel_id in self._since_board:
            self._since_board[channel_id] += 1

    def forget_room(self, channel_id: int) -> None:
        self._since_board.pop(channel_id, None)
        self._passing.pop(channel_id, None)
        self._lobbies.pop(channel_id, None)

    async def deliver(
        self,
        place: Place,
        effects: list[Effect],
        interaction: discord.Interaction[Any] | None = None,
    ) -> None:
        """Queue ``effects`` for ``place``; they go out in order, in the background."""
        if not effects:
            return
        folded = fold_turn_calls(effects, self._unreachable(effects))
        self._outbox.put(place, (Queued(e, interaction) for e in folded))

    def asked_for_hand(self, hand: Hand) -> None:
        """``hand``'s person pressed "My hand" (or ran /domino hand) and sees it: their
        direct messages, closed in this game, are tried again with their next hand, if
        they were last tried ``DM_RETRY_SECONDS`` ago."""
        key = (hand.game_id, hand.person.platform_id)
        failed = self._closed.get(key)
        if failed is not None and self.clock() - failed >= DM_RETRY_SECONDS:
            del self._closed[key]

    def _unreachable(self, effects: list[Effect]) -> set[str]:
        """People whose direct messages are closed in the games of ``effects``."""
        games = {e.game_id for e in effects if isinstance(e, Board | Hand)}
        return {person for game, person in self._closed if game in games}

    async def idle(self) -> None:
        """Wait until everything queued has gone out (shutdown)."""
        await self._outbox.idle()

    async def _send(self, place: Place, item: Queued) -> None:
        try:
            await self._one(place, item)
        except discord.Forbidden as error:  # the channel's permissions leave us out
            log.warning("discord: cannot post in %s (%s)", place.room, error.code)
            await self._cannot_post(item.interaction)

    async def _one(self, place: Place, item: Queued) -> None:
        effect = item.effect
        channel = self.client.get_partial_messageable(int(place.room))
        if isinstance(effect, Board):
            await self._board(place, channel, effect)
        elif isinstance(effect, Hand):
            await self._hand(place, effect, item.interaction)
        elif isinstance(effect, Say):
            if effect.private is not None:
                await self._direct(effect.private, effect.text, view=buttons_view(effect.buttons))
            else:
                await self._say(channel, effect)
        elif isinstance(effect, Picture | File):
            if isinstance(effect, Picture):
                data, name = effect.png, "picture.png"
            else:
                data, name = effect.data, effect.name
            if effect.private is not None:
                await self._direct(effect.private, effect.text, data, name)
            else:
                text = plain(effect.text)[:TEXT]
                await self._call(
                    lambda: channel.send(
                        text, file=_file(data, name), allowed_mentions=mentioning()
                    )
                )
                self.seen(channel.id)

    # ----- the board -------------------------------------------------------------------

    async def _board(self, place: Place, channel: discord.PartialMessageable, board: Board) -> None:
        await self._close_lobby(channel, board.game_id)
        png = await board_png(board)
        text = plain(board.text)[:TEXT]
        room_id = await self.service.room_id(place)
        posts = self.service.store.posts
        post = await posts.find(room_id, "board")
        if post is not None and post.game_id == board.game_id:
            message = channel.get_partial_message(int(post.message_id))
            if self._since_board.get(channel.id, 0) <= BURIED and not board.repost:
                try:
                    await self._call(
                        lambda: message.edit(
                            content=text,
                            attachments=[_file(png, "board.png")],
                            view=buttons_view(board.buttons),
                            allowed_mentions=mentioning(),
                        )
                    )
                    await posts.shown(room_id, "board", board.move_number)
                    await self._tidy(channel, board)
                    return
                except discord.NotFound:
                    pass  # the message is gone (deleted by someone): post the board again
            else:
                with suppress(discord.HTTPException):  # buried or asked for: to the bottom
                    await message.delete()
        sent = await self._call(
            lambda: channel.send(
                text,
                file=_file(png, "board.png"),
                view=buttons_view(board.buttons) or discord.utils.MISSING,
                allowed_mentions=mentioning(),
            )
        )
        self._since_board[channel.id] = 0
        await posts.keep(room_id, "board", board.game_id, str(sent.id), self.service.clock())
        await posts.shown(room_id, "board", board.move_number)
        await self._tidy(channel, board)

    async def _cannot_post(self, interaction: discord.Interaction[Any] | None) -> None:
        """Whoever acted learns why the room saw nothing (once per interaction)."""
        if interaction is None or interaction.id in self._warned:
            return
        if len(self._warned) > 1000:
            self._warned.clear()
        self._warned.add(interaction.id)
        with suppress(discord.HTTPException):
            await self.ephemeral(interaction, tr(interaction.locale.value, texts.CANNOT_POST))

    async def _tidy(self, channel: discord.PartialMessageable, board: Board) -> None:
        """At the game's end, the lobby and the turn calls go: the board and the summaries
        stay."""
        if not board.final:
            return
        self._forget_game(board.game_id)
        for message_id in self._passing.pop(channel.id, []):
            with suppress(discord.HTTPException):
                await channel.get_partial_message(message_id).delete()

    def _forget_game(self, game_id: int) -> None:
        """The game is over: what was known of its people's direct messages goes."""
        for key in [k for k in self._closed if k[0] == game_id]:
            del self._closed[key]
        self._told = {k for k in self._told if k[0] != game_id}

    # ----- text for the room -----------------------------------------------------------

    async def _say(self, channel: discord.PartialMessageable, say: Say) -> None:
        body = _with_mentions(plain(say.text), say.mention)[:TEXT]
        allowed = mentioning(say.mention)
        view = buttons_view(say.buttons) or discord.utils.MISSING
        game = _lobby_of(say)
        known = self._lobbies.get(channel.id)
        if game is not None and known is not None and known[0] == game:
            try:  # the game's lobby, edited as people take their seats
                message = channel.get_partial_message(known[1])
                await self._call(
                    lambda: message.edit(content=body, view=view, allowed_mentions=allowed)
                )
                return
            except discord.NotFound:
                pass
        sent = await self._call(lambda: channel.send(body, view=view, allowed_mentions=allowed))
        self.seen(channel.id)
        if game is not None:
            self._lobbies[channel.id] = (game, sent.id)
        if say.buttons or say.mention:  # a lobby or a turn call: gone when the game ends
            self._passing.setdefault(channel.id, []).append(sent.id)

    async def _close_lobby(self, channel: discord.PartialMessageable, game_id: int) -> None:
        """The game has begun: its lobby's buttons go."""
        known = self._lobbies.get(channel.id)
        if known is None or known[0] != game_id:
            return
        del self._lobbies[channel.id]
        with suppress(discord.HTTPException):
            await channel.get_partial_message(known[1]).edit(view=None)

    # ----- private -----------------------------------------------------------------------

    async def _hand(
        self, place: Place, hand: Hand, interaction: discord.Interaction[Any] | None
    ) -> None:
        png = await hand_png(hand)
        view = hand_view(hand.buttons, hand.game_id, hand.move_number)
        key = (hand.game_id, hand.person.platform_id)
        if key not in self._closed:
            if await self._direct(hand.person, hand.text, png, "hand.png", view):
                return
            self._closed[key] = self.clock()
        asker = interaction is not None and str(interaction.user.id) == hand.person.platform_id
        if asker and interaction is not None:
            # the person who acted: the same hand, seen by them only
            await self.ephemeral(interaction, hand.text, png, "hand.png", view)
            return
        await self._ask_for_hand_button(place, hand.person, hand.game_id)

    async def _direct(
        self,
        person: Person,
        text: str,
        data: bytes | None = None,
        name: str = "picture.png",
        view: discord.ui.View | None = None,
    ) -> bool:
        """A direct message; False when the person's direct messages are closed."""
        user_id = int(person.platform_id)
        try:
            channel = self._dms.get(user_id)
            if channel is None:
                channel = await self._call(lambda: self.client.create_dm(discord.Object(user_id)))
                self._dms[user_id] = channel
            await self._call(
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
            return False
        return True

    async def _ask_for_hand_button(self, place: Place, person: Person, game_id: int) -> None:
        """Once per game and person: a room message calling them to press "My hand"."""
        key = (game_id, person.platform_id)
        if key in self._told:
            return
        self._told.add(key)
        lang = person.locale
        text = tr(lang, texts.PRESS_MY_HAND, name=person.name)
        channel = self.client.get_partial_messageable(int(place.room))
        await self._say(channel, Say(text, mention=(person,)))

    async def ephemeral(
        self,
        interaction: discord.Interaction[Any],
        text: str,
        png: bytes | None = None,
        name: str = "picture.png",
        view: discord.ui.View | None = None,
    ) -> None:
        """An answer only the person who acted sees (the interaction's follow-up)."""
        await self._call(
            lambda: interaction.followup.send(
                plain(text)[:TEXT] or "·",
                ephemeral=True,
                file=_file(png, name) if png is not None else discord.utils.MISSING,
                view=view or discord.utils.MISSING,
                allowed_mentions=mentioning(),
            )
        )

    async def _call(self, send: Callable[[], Awaitable[T]]) -> T:
        """One request through server errors and network trouble (discord.py waits out
        429s itself); other errors go to the caller."""
        for attempt in range(TRIES):
            try:
                return await send()
            except discord.HTTPException as error:
                if (error.status < 500 and error.status != 429) or attempt == TRIES - 1:
                    raise
            except (aiohttp.ClientError, TimeoutError):
                if attempt == TRIES - 1:
                    raise
            await asyncio.sleep(min(2**attempt * 0.5, 10))
        raise AssertionError("unreachable")


def _lobby_of(say: Say) -> int | None:
    """The game whose lobby ``say`` shows (its buttons let people take a seat)."""
    if say.private is None and say.buttons and say.buttons[0].command == "join":
        return say.buttons[0].game_id
    return None


def _file(data: bytes, name: str) -> discord.File:
    # a new one for every attempt: a sent file has been read to its end
    return discord.File(io.BytesIO(data), name)


def plain(text: str) -> str:
    """``text`` shown as written: its markdown and mentions escaped. The bot's texts use
    neither on purpose; what there is came from names people chose (``**Ana**``,
    ``@everyone``, ``<@123>``)."""
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
