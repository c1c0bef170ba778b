"""The Discord bot: interactions in, the service's commands out, effects delivered.

One ``/domino`` command built from the command registry (commands.py), its tiles offered
from the person's legal moves (autocomplete.py), and the buttons and menus of the bot's
messages (components.py). Every interaction is acknowledged first (a slash command with
a deferred answer only its author sees, a press with a deferred update), well inside
Discord's three seconds and before any picture is drawn; what only that person should
see fills that answer, what the room sees goes to the channel through the shared
delivery core and Discord's part of it (delivery.py). The service is asked only through
its narrow interface (bot/core/service.py): commands, and questions without the room's lock.

``DISCORD_API_BASE_URL`` and ``DISCORD_GATEWAY_URL`` point REST and the gateway
elsewhere; ``SHARD_COUNT`` and ``SHARD_IDS`` make this process those shards of the bot.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl
from discord import app_commands
from discord.app_commands import Choice

from bot import core
from bot.core import (
    Board,
    Command,
    Effect,
    GameService,
    Hand,
    Option,
    Place,
    Posts,
    StorageError,
)
from bot.doors import texts
from bot.doors.buttons import DISCORD, PAGE, SELECT, Pressed
from bot.doors.config import Settings
from bot.doors.discord.autocomplete import HOUSE_RULES, offered, rule_choices
from bot.doors.discord.commands import CatalogTranslator, alone_commands, domino_command
from bot.doors.discord.components import DYNAMIC_ITEMS, data_of, hand_view, is_ours
from bot.doors.discord.delivery import DiscordDelivery, mentioning
from bot.doors.discord.places import PLATFORM, person_of, place_of, room_place
from bot.doors.patience import pause_or_stop
from lang import tr

log = logging.getLogger(__name__)
# The bot's permissions in a channel: read it, post and edit its messages with pictures.
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,  # a tournament table plays in a thread of its own
    attach_files=True,
    read_message_history=True,
)
SHUTDOWN_SECONDS = 10  # at a stop, how long queued messages may take to go out


class TokenRefused(Exception):
    """Discord does not accept DISCORD_TOKEN."""


class DominoClient(discord.AutoShardedClient):
    """discord.py's auto-sharded client, knowing the bot it serves."""

    def __init__(self, domino: DiscordBot, **options: Any) -> None:
        super().__init__(**options)
        self.domino = domino

    async def setup_hook(self) -> None:
        await self.domino.setup()


class DiscordBot:
    def __init__(
        self,
        settings: Settings,
        service: GameService,
        posts: Posts,
        wake: Callable[[], None] | None = None,
    ) -> None:
        self.settings = settings
        self.service = service
        _point_at(settings)
        # the bot has no voice: discord.py's warnings about voice libraries say nothing
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads, and when they are deleted
        intents.guild_messages = True  # to know when the board is buried (no content)
        self.client = DominoClient(
            self,
            intents=intents,
            shard_count=settings.shard_count,
            shard_ids=settings.shard_id_list() or None,
            # nobody is notified unless a message names them (delivery.mentioning)
            allowed_mentions=discord.AllowedMentions.none(),
            chunk_guilds_at_startup=False,
            member_cache_flags=discord.MemberCacheFlags.none(),
        )
        self.tree = app_commands.CommandTree(self.client)
        self.tree.on_error = self.on_command_error  # type: ignore[method-assign]
        self.delivery = DiscordDelivery(self.client, posts, wake, settings.public_url)
        self.ready = asyncio.Event()
        client = self.client
        client.add_dynamic_items(*DYNAMIC_ITEMS)
        client.event(self.on_interaction)
        client.event(self.on_message)
        client.event(self.on_guild_channel_delete)
        client.event(self.on_raw_thread_delete)
        client.event(self.on_guild_remove)

    # ----- running ------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        """Serve until ``stop`` is set. A token Discord refuses raises
        :class:`TokenRefused`; an unreachable Discord is tried again until it answers."""
        await self._login(stop)
        task = asyncio.create_task(self.client.connect(reconnect=True))
        stopping = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait({task, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if task.done():
                task.result()  # the connection ended by itself: say why
        finally:
            stopping.cancel()
            # what is on its way goes out first (a while at most), then the connection goes
            with suppress(TimeoutError):
                await asyncio.wait_for(self.delivery.idle(), SHUTDOWN_SECONDS)
            await self.client.close()
            task.cancel()  # the shards' loop waits for events that no longer come
            with suppress(Exception, asyncio.CancelledError):
                await task

    async def _login(self, stop: asyncio.Event) -> None:
        pause = 1.0
        while True:
            try:
                await self.client.login(self.settings.discord_token)
                return
            except discord.LoginFailure as error:
                raise TokenRefused(str(error)) from None
            except (aiohttp.ClientError, OSError, discord.HTTPException) as error:
                if isinstance(error, discord.HTTPException) and error.status < 500:
                    raise TokenRefused(str(error)) from None
                log.warning("discord: not reachable (%s); trying again in %.0f s", error, pause)
            pause = await pause_or_stop(stop, pause, PLATFORM)

    async def setup(self) -> None:
        """After login: the shard count if Discord is to choose it, the commands synced,
        the invite link printed."""
        client = self.client
        if client.shard_count is None and self.settings.discord_gateway_url:
            # the library would take the gateway's address from Discord's answer too
            client.shard_count, _url, _limit = await client.http.get_bot_gateway()
        # built now, from the registry as it is (a preset registered at start is offered)
        self.tree.add_command(domino_command(self.run_command, self.complete))
        for command in alone_commands(self.run_command, self.complete):
            self.tree.add_command(command)
        await self.tree.set_translator(CatalogTranslator())
        guilds = self.settings.guild_id_list()
        if guilds:
            for guild_id in guilds:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        app = await client.application_info()
        invite = discord.utils.oauth_url(
            app.id, permissions=PERMISSIONS, scopes=("bot", "applications.commands")
        )
        print(f"discord: invite the bot with {invite}", flush=True)
        self.ready.set()

    def state(self) -> str:
        """ "ok" while every shard of this process is connected to the gateway; else what
        is wrong (/healthz)."""
        client = self.client
        if client.is_closed():
            return "closed"
        shards = client.shards
        if not self.ready.is_set() or not client.is_ready() or not shards:
            return "connecting"
        down = sorted(number for number, shard in shards.items() if shard.is_closed())
        if down:
            return "gateway disconnected (shard " + ", ".join(map(str, down)) + ")"
        return "ok"

    def pending(self) -> int:
        """The effects queued and not yet sent (/metrics)."""
        return self.delivery.pending()

    async def deliver(self, place: Place, effects: list[Effect]) -> None:
        """Effects of a timer (or anything not answering an interaction)."""
        await self.ready.wait()
        await self.delivery.deliver(place, effects)

    # ----- slash commands -------------------------------------------------------------

    async def run_command(
        self, interaction: discord.Interaction[Any], action: str, args: tuple[str, ...]
    ) -> None:
        """A ``/domino`` subcommand: acknowledged at once, privately; the service's answer
        for its author fills that answer, the rest goes to the channel."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        place = place_of(interaction)
        person = person_of(interaction, action)
        if place is None:
            await self.delivery.ephemeral(interaction, tr(person.locale, texts.GROUPS_ONLY))
            return
        effects = await self.service.handle(Command(place, person, action, args))
        await self.delivery.deliver(place, effects, interaction)

    async def on_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        cause = getattr(error, "original", error)
        if isinstance(cause, StorageError):
            await self._sorry(interaction, core.DATABASE_DOWN)
            return
        if isinstance(cause, discord.HTTPException):  # Discord refused an answer
            log.warning("discord: a command was not answered: %s", cause)
            return
        log.error("discord: a command failed: %s", error, exc_info=error)
        await self._sorry(interaction, core.NOTHING_CHANGED)

    # ----- autocomplete -----------------------------------------------------------------

    async def complete(
        self, interaction: discord.Interaction[Any], option: Option, current: str
    ) -> list[Choice[str]]:
        """What ``option`` offers as the person types ``current``, from their legal moves
        now (autocomplete.py)."""
        place = place_of(interaction)
        if place is None:
            return []
        if option.complete in HOUSE_RULES:  # the preset's options and their values
            given = dict(iter(interaction.namespace))
            lang = interaction.locale.value
            try:
                found = await self.service.rule_offers(place, option.complete, current, given, lang)
            except StorageError:
                return []
            return rule_choices(found)
        try:
            offers = await self.service.offers(place, person_of(interaction))
        except StorageError:
            return []
        tile = str(getattr(interaction.namespace, "tile", "") or "")
        return offered(option, offers, current, tile)

    # ----- buttons and menus ------------------------------------------------------------

    async def on_component(
        self, interaction: discord.Interaction[Any], custom_id: str, values: tuple[str, ...]
    ) -> None:
        """A press of one of the bot's buttons or menus; whatever fails, the presser is
        answered and nothing changed."""
        try:
            await self._component(interaction, custom_id, values)
        except StorageError:
            await self._sorry(interaction, core.DATABASE_DOWN)
        except discord.HTTPException as error:  # Discord refused an answer: nothing to say
            log.warning("discord: a press was not answered: %s", error)
        except Exception:
            log.exception("discord: a press failed")
            await self._sorry(interaction, core.NOTHING_CHANGED)

    async def _sorry(self, interaction: discord.Interaction[Any], message: str) -> None:
        text = tr(interaction.locale.value, message)
        with suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True, allowed_mentions=mentioning())
            else:
                await interaction.response.send_message(
                    text, ephemeral=True, allowed_mentions=mentioning()
                )

    async def _component(
        self, interaction: discord.Interaction[Any], custom_id: str, values: tuple[str, ...]
    ) -> None:
        lang = interaction.locale.value
        pressed = DISCORD.decode(custom_id)
        if pressed is not None and pressed.kind == SELECT:  # the option chosen
            pressed = DISCORD.chosen(pressed, values[0]) if len(values) == 1 else None
        if pressed is None:
            await self._not_mine(interaction)
            return
        await interaction.response.defer()
        private = interaction.guild_id is None
        place = await self._place_of_press(interaction, pressed)
        if place is None:
            await self.delivery.ephemeral(interaction, tr(lang, texts.NO_SUCH_GAME))
            return
        if pressed.kind == PAGE:
            await self._turn_page(interaction, place, pressed)
            return

        words = pressed.command.split()
        effects = await self.service.handle(
            Command(
                place,
                person_of(interaction, words[0]),
                words[0],
                tuple(words[1:]),
                move_number=pressed.move_number,
                game_id=pressed.game_id,
                private=private,
                move=pressed.move,
            )
        )
        made = words[0] in core.move_commands() and any(isinstance(e, Board) for e in effects)
        if made and _on_own_message(interaction):
            # the move was made: the hand it was pressed on offers nothing any more (a move
            # pressed on the room's board, "Next hand", leaves the board to its new edit)
            with suppress(discord.HTTPException):
                await interaction.edit_original_response(view=None)
        await self.delivery.deliver(place, effects, interaction)

    async def _place_of_press(
        self, interaction: discord.Interaction[Any], pressed: Pressed
    ) -> Place | None:
        """The room a press acts in: the channel it was pressed in; in a direct message, the
        room of the game the button names (the service then accepts only the presser's own
        seat actions there). What a button carries never chooses a channel for it."""
        place = place_of(interaction)
        if place is not None or interaction.guild_id is not None:
            return place
        if pressed.game_id is None:
            return None
        return await self.service.place_of_game(pressed.game_id, PLATFORM)

    async def _turn_page(
        self, interaction: discord.Interaction[Any], place: Place, pressed: Pressed
    ) -> None:
        """Another page of a hand's moves, in the same message: the presser's own hand (a
        direct message, or an answer only they see), never a message of the room."""
        if not _on_own_message(interaction):
            await self.delivery.ephemeral(
                interaction, tr(interaction.locale.value, texts.UNKNOWN_BUTTON)
            )
            return
        effects = await self.service.handle(
            Command(
                place,
                person_of(interaction, "hand"),
                "hand",
                game_id=pressed.game_id,
                private=interaction.guild_id is None,
            )
        )
        hand = next((e for e in effects if isinstance(e, Hand)), None)
        if hand is None or (hand.game_id, hand.move_number) != (
            pressed.game_id,
            pressed.move_number,
        ):
            await self.delivery.ephemeral(interaction, tr(interaction.locale.value, core.STALE))
            return
        view = hand_view(hand.buttons, hand.game_id, hand.move_number, pressed.index or 0)
        with suppress(discord.HTTPException):
            await interaction.edit_original_response(view=view)

    async def _not_mine(self, interaction: discord.Interaction[Any]) -> None:
        text = tr(interaction.locale.value, texts.UNKNOWN_BUTTON)
        with suppress(discord.HTTPException):
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=mentioning()
            )

    # ----- gateway events ---------------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A press of a component whose custom id no item of ours answers to."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str(data_of(interaction).get("custom_id", ""))
        if not is_ours(custom_id):
            await self._not_mine(interaction)

    async def on_message(self, message: discord.Message) -> None:
        me = self.client.user
        if message.guild is not None and (me is None or message.author.id != me.id):
            self.delivery.seen(str(message.channel.id))

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._room_gone(channel.guild.id, channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._room_gone(payload.guild_id, payload.thread_id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot removed from a server (or the server deleted): its games end."""
        try:
            rooms = await self.service.rooms_in(PLATFORM, str(guild.id))
        except StorageError as error:
            log.warning("discord: the games of a server left were left to their timers: %s", error)
            return
        for place in rooms:
            await self._room_gone(guild.id, int(place.room))

    async def _room_gone(self, guild_id: int, channel_id: int) -> None:
        """A deleted channel or thread: its game ends without a result, nobody told (with
        the database away, its idle timer ends it later)."""
        try:
            await self.service.room_gone(room_place(guild_id, channel_id))
        except StorageError as error:
            log.warning("discord: the game of a deleted room was left to its timer: %s", error)
        self.delivery.forget_room(channel_id)


def _on_own_message(interaction: discord.Interaction[Any]) -> bool:
    """The press was on a message only the presser sees: their direct messages, or an
    answer only they see (their "My hand")."""
    message = interaction.message
    return interaction.guild_id is None or (message is not None and message.flags.ephemeral)


def _point_at(settings: Settings) -> None:
    """REST and the gateway at the addresses of the settings (a proxy, a test server)."""
    if settings.discord_api_base_url:
        discord.http.Route.BASE = settings.discord_api_base_url.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)
