"""A fake Discord (REST API v10 and gateway) for end-to-end tests of the Discord front end.

`FakeDiscord` is a small aiohttp application on 127.0.0.1 that speaks Discord's HTTP and gateway
protocols closely enough for the real discord.py 2.7 to run against it unchanged, so the library's
own requests, rate-limit handling, parsing and error mapping are exercised. Point discord.py at it
with `fake.patch_discord()` (or set `discord.http.Route.BASE = fake.api_base` and
`discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)` yourself: discord.py
2.7 connects a `Client`, and an `AutoShardedClient` given `shard_count`, straight to
`DEFAULT_GATEWAY`; only an `AutoShardedClient` without `shard_count` asks `GET /gateway/bot`).

What it covers:

* Transport: JSON bodies served as `Content-Type: application/json` exactly (discord.py parses
  nothing else), errors as `{"message", "code"}` (plus `errors` for 50035 "Invalid Form Body"),
  `X-RateLimit-*` headers on every routed answer, the `Via: 1.1 google` header, multipart bodies
  (`payload_json` + `files[n]`), `Bot <token>` authorization (401 otherwise; webhook and
  interaction callback routes take no authorization, as in Discord), 404/405 for unknown routes.
* Gateway: `/gateway?v=10&encoding=json&compress=zlib-stream|zstd-stream` (one zlib stream per
  connection, every frame ending with Z_SYNC_FLUSH, as Discord; zstd only if `zstandard` is
  importable), HELLO, heartbeats and ACKs, IDENTIFY (token, intents, privileged intents, shard
  checks with Discord's close codes), READY (+ one GUILD_CREATE per guild of the shard), RESUME
  with replay of missed events and RESUMED (or INVALID_SESSION), REQUEST_GUILD_MEMBERS, presence
  updates; several simultaneous connections, guilds routed to shard `(guild_id >> 22) % count`;
  events filtered by intents (message content stripped without MESSAGE_CONTENT, as Discord).
* Interactions: slash commands (sub-commands, groups, typed options checked against the commands
  the bot registered, resolved users/members/channels/roles), autocomplete, message components
  (buttons, string and entity selects) with the stored message; the callback (types 1, 4-9, JSON or
  multipart, `with_response`), answered once only (40060) and within 3 s (10062); a deferred
  (type 5) answer is a LOADING message that the first follow-up fills in, as Discord does;
  follow-ups and `@original`/`{id}` GET/PATCH/DELETE through the interaction webhook (15 min).
* Messages in guild channels, threads and DMs: create (replies, mentions as far as
  `allowed_mentions` lets them notify, embeds, components, attachments with
  ids/urls/sizes/content types/image sizes, served under `/attachments/...`),
  edit (keeping/removing/adding attachments), delete, fetch, history (limit/before/after/around),
  typing; MESSAGE_CREATE/UPDATE/DELETE dispatched to the gateway. Validation of lengths, empty
  messages, component layout and custom_id duplicates, file size (10 MiB), bot permissions from
  roles and channel overwrites (50001/50013), closed DMs (50007).
* Public threads started without a message (`POST /channels/{id}/threads`: the bot's
  permission to create them, a text channel only, the name's length; THREAD_CREATE).
* Users, guilds, channels, members (GET routes), DM channels, application info, global and guild
  application commands (bulk overwrite keeps ids by name and type; localizations stripped from
  GET answers unless `with_localizations=true`; name/description/locale validation).
* Faults: `fail()` (429 with all of Discord's headers, or any status) and `slow()`.

Tests build the world (`guild`, `text_channel`, `thread`, `member`, `admin`, `role`, `user`,
`close_dms`, `lock_channel`), inject what users do (`slash`, `autocomplete`, `press`, `forge`,
`post`, `delete_channel`, `update_member`, `drop`, `request_reconnect`, `invalidate_session`) and
inspect what the bot did (`calls`, `threads`, `messages`, `message`, `dm_messages`,
`interaction_responses`, `interaction_messages`, `commands`, `identified`, `resumed`), waiting
with `wait_for`.

Not modelled: modal submits (type 9 answers are recorded, but no MODAL_SUBMIT injection), ETF
encoding, payload (non-transport) compression, gateway send rate limits and session start
concurrency, real rate-limit buckets (only injected with `fail`), voice, presences, reactions,
pins, polls, stickers, private threads, threads started from a message, channel/role/guild
management routes, webhooks other than interaction webhooks, audit logs, entitlements,
user-installed apps, the exact error-tree wording of some validations (locale keys, callback
types) and the CDN's signed attachment URLs.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import io
import json
import math
import mimetypes
import re
import secrets
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any, Self, TypeVar

from aiohttp import WSMsgType, web

JSON = dict[str, Any]
T = TypeVar("T")

DISCORD_EPOCH = 1_420_070_400_000
API_VERSIONS = ("9", "10")
ATTACHMENT_LIMIT = 10 * 1024 * 1024
INTERACTION_TOKEN_LIFETIME = 15 * 60

# ---- permission bits (https://discord.com/developers/docs/topics/permissions)
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
CONNECT = 1 << 20
SPEAK = 1 << 21
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CONNECT
    | SPEAK
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | SEND_MESSAGES_IN_THREADS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | MANAGE_MESSAGES
    | MANAGE_THREADS
    | CREATE_PUBLIC_THREADS
)
MODERATOR_PERMISSIONS = MANAGE_GUILD | MANAGE_CHANNELS

# ---- gateway intents
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
ALL_INTENTS = (1 << 26) - 1

# ---- message flags, channel types, interaction and callback types
EPHEMERAL = 1 << 6
LOADING = 1 << 7
CHANNEL_TEXT, CHANNEL_DM, CHANNEL_PUBLIC_THREAD, CHANNEL_PRIVATE_THREAD = 0, 1, 11, 12
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
ALLOWED_CALLBACKS = {
    PING: {PONG},
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}

# https://discord.com/developers/docs/reference#locales
# fmt: off
LOCALES = frozenset((
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko",
))
# fmt: on
# Discord's rule is ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$; \w is the nearest in `re`.
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
_SELECTS = {3, 5, 6, 7, 8}  # string, user, role, mentionable, channel selects
_OPTION_TARGETS = {6: "user", 7: "channel", 8: "role", 9: "mentionable"}
_SELECT_TARGETS = {5: "user", 6: "role", 7: "mentionable", 8: "channel"}
_CLOSE_REASONS = {
    4000: "Unknown error.",
    4001: "Unknown opcode.",
    4002: "Error while decoding payload.",
    4003: "Not authenticated.",
    4004: "Authentication failed.",
    4005: "Already authenticated.",
    4010: "Invalid shard.",
    4012: "Invalid API version.",
    4013: "Invalid intent(s).",
    4014: "Disallowed intent(s).",
}

try:  # discord.py asks for zstd-stream when it can decompress it
    import zstandard as _zstd
except ImportError:  # pragma: no cover - depends on the environment
    _zstd = None


class ApiError(Exception):
    """An error answer, raised by route handlers and sent in Discord's error shape."""

    def __init__(
        self,
        status: int,
        message: str,
        code: int = 0,
        errors: JSON | None = None,
        headers: dict[str, str] | None = None,
        extra: JSON | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra

    def body(self) -> JSON:
        if self.extra is not None:
            return self.extra
        body: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def _form_error(path: tuple[str | int, ...], code: str, message: str) -> ApiError:
    node: JSON = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path):
        node = {str(key): node}
    return ApiError(400, "Invalid Form Body", 50035, errors=node)


def _unknown(what: str, code: int) -> ApiError:
    return ApiError(404, f"Unknown {what}", code)


MISSING_ACCESS = (403, "Missing Access", 50001)
MISSING_PERMISSIONS = (403, "Missing Permissions", 50013)


@dataclass
class Upload:
    """A file part of a multipart request."""

    filename: str
    content_type: str
    data: bytes


@dataclass
class Call:
    """One request the bot made, as decoded by the fake, and what it was answered."""

    method: str
    path: str  # below /api/v10, e.g. "/channels/1/messages"
    query: dict[str, str]
    json: Any  # the JSON body, or the parsed payload_json of a multipart body
    files: dict[str, Upload]
    time: float
    status: int = 0
    response: Any = None

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


@dataclass
class _Req:
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    files: dict[str, Upload]


@dataclass
class _Route:
    method: str
    pattern: re.Pattern[str]
    handler: Callable[[_Req], Any]
    auth: bool
    bucket: str


@dataclass
class _Fault:
    method: str
    pattern: re.Pattern[str]
    status: int
    times: int
    retry_after: float
    message: str | None
    code: int
    is_global: bool


@dataclass
class _Interaction:
    payload: JSON
    created: float  # time.monotonic() of the injection
    kind: int
    token: str
    guild_id: int | None
    channel_id: int
    command_name: str | None = None
    component_message_id: int | None = None
    acked: bool = False
    deferred: bool = False  # a type 5 answer whose LOADING message no follow-up filled yet
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    responses: list[JSON] = field(default_factory=list)


class _Connection:
    """One gateway WebSocket; frames go out in order through a writer task."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request, compress: str | None):
        self.ws = ws
        self.request = request
        self.compress = compress
        self.queue: asyncio.Queue[JSON | None] = asyncio.Queue()
        self.session: _Session | None = None
        self.dropped = False
        self.zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self.zstd = (
            _zstd.ZstdCompressor().compressobj()
            if compress == "zstd-stream" and _zstd is not None
            else None
        )
        self.writer: asyncio.Task[None] | None = None

    def send(self, payload: JSON) -> None:
        self.queue.put_nowait(payload)

    async def write(self) -> None:
        while (payload := await self.queue.get()) is not None:
            data = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
            try:
                if self.zlib is not None:
                    frame = self.zlib.compress(data) + self.zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(frame)
                elif self.zstd is not None:
                    frame = self.zstd.compress(data) + self.zstd.flush(
                        _zstd.COMPRESSOBJ_FLUSH_BLOCK
                    )
                    await self.ws.send_bytes(frame)
                else:
                    await self.ws.send_str(data.decode())
            except (ConnectionError, RuntimeError):
                return


@dataclass
class _Session:
    id: str
    shard: tuple[int, int] | None
    intents: int
    identify: JSON
    seq: int = 0
    events: list[JSON] = field(default_factory=list)
    conn: _Connection | None = None

    def shard_of(self, guild_id: int | None) -> bool:
        """Whether this session receives the events of that guild (None: DMs, shard 0)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _username(name: str) -> str:
    return re.sub(r"[^a-z0-9_.]", "_", name.lower())[:32] or "user"


def _validate_link_button(button: JSON, where: tuple[str | int, ...]) -> None:
    """A link button as Discord takes it: a url of http, https or discord (512 characters
    at most), a label of 80, and no custom_id (it never comes back as an interaction)."""
    if button.get("custom_id") is not None:
        raise _form_error(
            (*where, "custom_id"),
            "BUTTON_COMPONENT_LINK_CUSTOM_ID_NOT_ALLOWED",
            "A link button cannot have a custom id",
        )
    url = button.get("url")
    if not isinstance(url, str) or not url:
        raise _form_error((*where, "url"), "BASE_TYPE_REQUIRED", "This field is required")
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme not in ("http", "https", "discord"):
        raise _form_error(
            (*where, "url"),
            "URL_TYPE_INVALID_SCHEME",
            f'Scheme "{scheme}" is not supported.'
            " Scheme must be one of ('http', 'https', 'discord').",
        )
    if len(url) > 512:
        raise _form_error(
            (*where, "url"), "BASE_TYPE_MAX_LENGTH", "Must be 512 or fewer in length."
        )
    if len(button.get("label") or "") > 80:
        raise _form_error(
            (*where, "label"), "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length."
        )


def _component(message: JSON, message_id: int, custom_id: str) -> JSON:
    """The component of ``message`` with ``custom_id`` (LookupError if it has none)."""
    for component in _walk_components(message.get("components") or []):
        if component.get("custom_id") == custom_id:
            return component
    raise LookupError(f"message {message_id} has no component {custom_id!r}")


def _walk_components(components: list[JSON]) -> Iterator[JSON]:
    for component in components:
        yield component
        yield from _walk_components(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield component["accessory"]
        if isinstance(component.get("component"), dict):
            yield component["component"]


class FakeDiscord:
    """The fake Discord server and the state of the Discord world the bot lives in."""

    def __init__(
        self,
        token: str = "MTA0NTk2.FAKE.discord-test-token",
        application_id: int = 1045963170312282132,
        bot_name: str = "Domino",
        *,
        bot_permissions: int = BOT_PERMISSIONS,
        privileged_intents: int = PRIVILEGED_INTENTS,
        recommended_shards: int = 1,
        heartbeat_interval: int = 41250,
        interaction_deadline: float = 3.0,
    ) -> None:
        self.token = token
        self.application_id = application_id
        self.bot_id = application_id  # a bot user shares its application's id
        self.bot_permissions = bot_permissions
        self.privileged_intents = privileged_intents
        self.recommended_shards = recommended_shards
        self.heartbeat_interval = heartbeat_interval
        self.interaction_deadline = interaction_deadline
        self.owner_id = 180000000000000001
        self.bot_user: JSON = {
            "id": str(self.bot_id),
            "username": bot_name,
            "global_name": None,
            "discriminator": "4172",
            "avatar": None,
            "bot": True,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "collectibles": None,
            "primary_guild": None,
        }
        self.calls: list[Call] = []
        self.identified: list[JSON] = []  # IDENTIFY payloads ("d"), in order
        self.resumed: list[JSON] = []  # RESUME payloads ("d"), in order
        self.presences: list[JSON] = []  # presence updates (op 3) the bot sent
        self.gateway_queries: list[dict[str, str]] = []  # query of every gateway connection

        self._users: dict[int, JSON] = {self.bot_id: self.bot_user}
        self._locales: dict[int, str] = {}
        self._guilds: dict[int, JSON] = {}
        self._channels: dict[int, JSON] = {}
        self._members: dict[int, dict[int, JSON]] = {}
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self._closed_dms: set[int] = set()
        self._messages: dict[int, dict[int, JSON]] = {}  # channel id -> id -> message
        self._ephemeral: dict[int, JSON] = {}  # id -> message (never in channel history)
        self._deleted: dict[int, JSON] = {}
        self._files: dict[int, bytes] = {}  # attachment id -> bytes
        self._commands: dict[int | None, list[JSON]] = {}  # guild id (None: global) -> list
        self._interactions: dict[int, _Interaction] = {}
        self._by_token: dict[str, _Interaction] = {}
        self._sessions: dict[str, _Session] = {}
        self._connections: list[_Connection] = []
        self._session_starts = 1000
        self._last_snowflake = 0

        self._faults: list[_Fault] = []
        self._delays: list[tuple[re.Pattern[str], float]] = []
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._routes = self._route_table()

    # ---- server lifecycle

    async def start(self, port: int = 0) -> None:
        """Listen on 127.0.0.1 (``port``, or any free one)."""
        app = web.Application(client_max_size=100 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel}/{attachment}/{filename}", self._download)
        app.router.add_route("*", "/api/v{version}/{path:.*}", self._api)
        app.router.add_route("*", "/{path:.*}", self._not_found)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self._port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        for conn in list(self._connections):
            conn.dropped = True
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.ws.close(code=1001, message=b"Going away"), 2.0)
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base(self) -> str:
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self._port}/gateway"

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point the imported discord.py at this fake (REST base and default gateway)."""
        import discord.gateway
        import discord.http
        import yarl

        base = discord.http.Route.BASE
        gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway

    # ---- ids

    def snowflake(self) -> int:
        """A new, increasing Discord id carrying the current time."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH
        value = max((ms << 22) | (1 << 17), self._last_snowflake + 1)
        self._last_snowflake = value
        return value

    # ---- the world

    def user(self, user_id: int, name: str, *, bot: bool = False, locale: str = "es-ES") -> JSON:
        """A Discord user (created once; later calls return the same object)."""
        if user_id not in self._users:
            user: JSON = {
                "id": str(user_id),
                "username": _username(name),
                "global_name": name,
                "discriminator": "0",
                "avatar": None,
                "public_flags": 0,
                "flags": 0,
                "banner": None,
                "accent_color": None,
                "avatar_decoration_data": None,
                "collectibles": None,
                "primary_guild": None,
            }
            if bot:
                user["bot"] = True
            self._users[user_id] = user
            self._locales[user_id] = locale
        return self._users[user_id]

    def guild(
        self, guild_id: int, name: str, locale: str = "es-ES", *, owner_id: int | None = None
    ) -> JSON:
        """A guild the bot is in, with @everyone and the bot's managed role. Created after the
        bot connected, it arrives as GUILD_CREATE (the bot joined)."""
        bot_role_id = self.snowflake()
        guild: JSON = {
            "id": str(guild_id),
            "name": name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(owner_id or self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 1,
            "default_message_notifications": 1,
            "explicit_content_filter": 2,
            "roles": [
                self._role_object(guild_id, "@everyone", EVERYONE_PERMISSIONS, 0),
                {
                    **self._role_object(bot_role_id, self.bot_user["username"], 0, 1),
                    "permissions": str(self.bot_permissions),
                    "managed": True,
                    "tags": {"bot_id": str(self.bot_id)},
                },
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": locale,
            "nsfw_level": 0,
            "nsfw": False,
            "incidents_data": None,
        }
        self._guilds[guild_id] = guild
        self._members[guild_id] = {}
        self._add_member(guild_id, self.bot_id, [bot_role_id])
        for session in self._sessions_for(guild_id):
            if session.intents & GUILDS:
                self._emit(session, "GUILD_CREATE", self._guild_create(guild_id, session))
        return guild

    def role(self, guild_id: int, role_id: int, name: str, permissions: int) -> JSON:
        """A role of the guild; give it to members with `member(..., roles=[role_id])`."""
        roles = self._guilds[guild_id]["roles"]
        role = self._role_object(role_id, name, permissions, len(roles))
        roles.append(role)
        event = {"guild_id": str(guild_id), "role": role}
        self._emit_guild(guild_id, "GUILD_ROLE_CREATE", event, GUILDS)
        return role

    def text_channel(
        self, guild_id: int, channel_id: int, name: str, *, topic: str | None = None
    ) -> JSON:
        """A text channel; created after the bot connected, it arrives as CHANNEL_CREATE."""
        position = sum(1 for c in self._channels.values() if c.get("guild_id") == str(guild_id))
        channel: JSON = {
            "id": str(channel_id),
            "type": CHANNEL_TEXT,
            "guild_id": str(guild_id),
            "name": name,
            "position": position,
            "permission_overwrites": [],
            "topic": topic,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }
        self._channels[channel_id] = channel
        self._messages[channel_id] = {}
        self._emit_guild(guild_id, "CHANNEL_CREATE", channel, GUILDS)
        return channel

    def thread(self, guild_id: int, parent_id: int, thread_id: int, name: str) -> JSON:
        """A public thread of a text channel; after the bot connected, a THREAD_CREATE."""
        return self._new_thread(guild_id, parent_id, thread_id, name, self.owner_id)

    def threads(self, parent_id: int) -> list[JSON]:
        """The threads of a channel, oldest first."""
        return [
            copy.deepcopy(c)
            for c in self._channels.values()
            if c["type"] == CHANNEL_PUBLIC_THREAD and c.get("parent_id") == str(parent_id)
        ]

    def _new_thread(
        self, guild_id: int, parent_id: int, thread_id: int, name: str, owner_id: int
    ) -> JSON:
        created = _now()
        thread: JSON = {
            "id": str(thread_id),
            "type": CHANNEL_PUBLIC_THREAD,
            "guild_id": str(guild_id),
            "parent_id": str(parent_id),
            "owner_id": str(owner_id),
            "name": name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": created,
                "locked": False,
                "create_timestamp": created,
            },
        }
        self._channels[thread_id] = thread
        self._messages[thread_id] = {}
        self._emit_guild(guild_id, "THREAD_CREATE", {**thread, "newly_created": True}, GUILDS)
        return thread

    def member(
        self,
        guild_id: int,
        user_id: int,
        name: str,
        permissions: int | None = None,
        locale: str = "es-ES",
        *,
        roles: list[int] | None = None,
        nick: str | None = None,
    ) -> JSON:
        """A member of the guild (its user is created if needed). `permissions` adds a role
        of its own with those permission bits; `roles` gives existing roles."""
        self.user(user_id, name, locale=locale)
        self._locales[user_id] = locale
        role_ids = list(roles or [])
        if permissions is not None:
            role_id = self.snowflake()
            self.role(guild_id, role_id, f"{name} ({permissions:#x})", permissions)
            role_ids.append(role_id)
        member = self._add_member(guild_id, user_id, role_ids, nick=nick)
        self._emit_guild(
            guild_id, "GUILD_MEMBER_ADD", {**member, "guild_id": str(guild_id)}, GUILD_MEMBERS
        )
        return member

    def admin(self, guild_id: int, user_id: int, name: str, locale: str = "es-ES") -> JSON:
        """A member with the guild's moderator role (Manage Server and Manage Channels)."""
        guild = self._guilds[guild_id]
        role = next((r for r in guild["roles"] if r["name"] == "Moderadores"), None)
        if role is None:
            role = self.role(guild_id, self.snowflake(), "Moderadores", MODERATOR_PERMISSIONS)
        return self.member(guild_id, user_id, name, locale=locale, roles=[int(role["id"])])

    def update_member(
        self,
        guild_id: int,
        user_id: int,
        *,
        roles: list[int] | None = None,
        nick: str | None = None,
    ) -> JSON:
        """Change a member's roles or nickname; GUILD_MEMBER_UPDATE (GUILD_MEMBERS intent)."""
        member = self._members[guild_id][user_id]
        if roles is not None:
            member["roles"] = [str(r) for r in roles]
        if nick is not None:
            member["nick"] = nick
        event = {**copy.deepcopy(member), "guild_id": str(guild_id)}
        self._emit_guild(guild_id, "GUILD_MEMBER_UPDATE", event, GUILD_MEMBERS)
        return member

    def close_dms(self, user_id: int) -> None:
        """The user does not accept DMs from the bot: sending there answers 403/50007."""
        self._closed_dms.add(user_id)

    def open_dms(self, user_id: int) -> None:
        self._closed_dms.discard(user_id)

    def lock_channel(self, channel_id: int, deny: int = SEND_MESSAGES) -> None:
        """A permission overwrite on the channel denying the bot `deny` (default: sending)."""
        channel = self._channels[channel_id]
        channel["permission_overwrites"].append(
            {"id": str(self.bot_id), "type": 1, "allow": "0", "deny": str(deny)}
        )
        guild_id = int(channel["guild_id"])
        self._emit_guild(guild_id, "CHANNEL_UPDATE", copy.deepcopy(channel), GUILDS)

    def delete_channel(self, channel_id: int) -> JSON:
        """Delete a guild channel or thread: CHANNEL_DELETE / THREAD_DELETE to the bot."""
        channel = self._channels.pop(channel_id)
        guild_id = int(channel["guild_id"])
        if channel["type"] == CHANNEL_PUBLIC_THREAD:
            event = {k: channel[k] for k in ("id", "guild_id", "parent_id", "type")}
            self._emit_guild(guild_id, "THREAD_DELETE", event, GUILDS)
        else:
            self._emit_guild(guild_id, "CHANNEL_DELETE", copy.deepcopy(channel), GUILDS)
            for thread_id, thread in list(self._channels.items()):
                if thread.get("parent_id") == str(channel_id):
                    self._channels.pop(thread_id)
        return channel

    # ---- what users do

    def slash(
        self,
        guild: int | None,
        channel: int,
        user: int,
        name: str,
        subcommand: str | None = None,
        options: dict[str, Any] | None = None,
        locale: str | None = None,
    ) -> JSON:
        """The user runs `/name [group] [subcommand] option:value...` (a command the bot
        registered): INTERACTION_CREATE type 2. `subcommand` may be "group sub". User, channel
        and role options take ids; values are checked against choices and limits as Discord's
        client does. Returns the interaction payload."""
        command = self._find_command(guild, name)
        definitions, wrap = self._subcommand_path(command, subcommand)
        resolved: JSON = {}
        built = [
            self._build_option(guild, definitions, key, value, resolved, user)
            for key, value in (options or {}).items()
        ]
        for definition in definitions:
            if definition.get("required") and definition["name"] not in (options or {}):
                raise ValueError(f"option {definition['name']!r} of /{name} is required")
        data = self._command_data(command, wrap(built), resolved)
        full_name = " ".join([name, *(subcommand.split() if subcommand else [])])
        return self._interact(APPLICATION_COMMAND, guild, channel, user, data, locale, full_name)

    def autocomplete(
        self,
        guild: int | None,
        channel: int,
        user: int,
        name: str,
        focused: str,
        value: str,
        subcommand: str | None = None,
        options: dict[str, Any] | None = None,
        locale: str | None = None,
    ) -> JSON:
        """The user is typing `value` into option `focused` (declared with autocomplete):
        INTERACTION_CREATE type 4, the partial input sent as a string, as Discord does."""
        command = self._find_command(guild, name)
        definitions, wrap = self._subcommand_path(command, subcommand)
        definition = next((d for d in definitions if d["name"] == focused), None)
        if definition is None or not definition.get("autocomplete"):
            raise ValueError(f"option {focused!r} of /{name} has no autocomplete")
        resolved: JSON = {}
        built = [
            self._build_option(guild, definitions, key, val, resolved, user)
            for key, val in (options or {}).items()
            if key != focused
        ]
        built.append(
            {"type": definition["type"], "name": focused, "value": str(value), "focused": True}
        )
        data = self._command_data(command, wrap(built), resolved)
        return self._interact(AUTOCOMPLETE, guild, channel, user, data, locale, None)

    def press(
        self,
        guild: int | None,
        channel: int,
        user: int,
        message_id: int,
        custom_id: str,
        values: list[Any] | None = None,
        locale: str | None = None,
    ) -> JSON:
        """The user presses a button (or picks `values` in a select menu) of a message the bot
        sent: INTERACTION_CREATE type 3 carrying the stored message."""
        message = self._find_message(message_id)
        if message is None or int(message["channel_id"]) != channel:
            raise LookupError(f"no message {message_id} in channel {channel}")
        component = _component(message, message_id, custom_id)
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        data: JSON = {"custom_id": custom_id, "component_type": component["type"]}
        if "id" in component:
            data["id"] = component["id"]
        if component["type"] in _SELECTS:
            picked = [str(v) for v in values or []]
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not low <= len(picked) <= high:
                raise ValueError(f"select {custom_id!r} takes {low}..{high} values")
            if component["type"] == 3:
                allowed = {o["value"] for o in component.get("options", [])}
                if not set(picked) <= allowed:
                    raise ValueError(f"{picked} not among the options of {custom_id!r}")
            else:
                resolved: JSON = {}
                for value in picked:
                    target = _SELECT_TARGETS[component["type"]]
                    self._resolve(guild, int(value), target, resolved, user)
                if resolved:
                    data["resolved"] = resolved
            data["values"] = picked
        elif values is not None:
            raise ValueError(f"component {custom_id!r} is a button; it takes no values")
        return self._interact(
            MESSAGE_COMPONENT, guild, channel, user, data, locale, None, message=message
        )

    def forge(self, message_id: int, custom_id: str, forged: str) -> None:
        """A tampered client: the component `custom_id` of a stored message carries `forged`
        from now on, so `press(..., forged)` sends the bot a custom id it never sent."""
        message = self._find_message(message_id)
        if message is None:
            raise LookupError(f"no message {message_id}")
        component = _component(message, message_id, custom_id)
        component["custom_id"] = forged

    def post(
        self, channel: int, user: int, content: str, *, attachments: list[Upload] | None = None
    ) -> JSON:
        """A user writes in a channel (or in their DM with the bot): MESSAGE_CREATE, its content
        hidden from bots without the MESSAGE_CONTENT intent unless it mentions the bot or is
        a DM, as Discord does."""
        channel_obj = self._channels[channel]
        payload: JSON = {"content": content}
        uploads = {f"files[{i}]": upload for i, upload in enumerate(attachments or [])}
        return self._create_message(channel_obj, payload, uploads, author=self._users[user])

    # ---- gateway controls

    async def drop(self, shard_id: int | None = None, code: int | None = 4000) -> None:
        """Close a live gateway connection (of `shard_id`, or the first one) with `code`, or
        abruptly (no close frame) when `code` is None. The session stays resumable."""
        conn = self._live_connection(shard_id)
        conn.dropped = True
        conn.queue.put_nowait(None)
        if code is None:
            transport = conn.request.transport
            if transport is not None:
                transport.abort()
            return
        await conn.ws.close(code=code, message=_CLOSE_REASONS.get(code, "").encode())

    def request_reconnect(self, shard_id: int | None = None) -> None:
        """Send RECONNECT (op 7): the client must reconnect and resume."""
        self._live_connection(shard_id).send({"op": 7, "d": None, "s": None, "t": None})

    def invalidate_session(self, shard_id: int | None = None, resumable: bool = False) -> None:
        """Send INVALID_SESSION (op 9); a non-resumable session is forgotten."""
        conn = self._live_connection(shard_id)
        if not resumable and conn.session is not None:
            self._sessions.pop(conn.session.id, None)
        conn.send({"op": 9, "d": resumable, "s": None, "t": None})

    def connected_shards(self) -> list[tuple[int, int] | None]:
        """The shards ((id, count), or None if unsharded) with a live, identified connection."""
        return [
            s.shard for s in self._sessions.values() if s.conn is not None and not s.conn.dropped
        ]

    # ---- inspection

    def calls_to(self, method: str, path_regex: str) -> list[Call]:
        pattern = re.compile(path_regex)
        return [
            c
            for c in self.calls
            if (method == "*" or c.method == method.upper()) and pattern.search(c.path)
        ]

    def messages(self, channel_id: int) -> list[JSON]:
        """The channel's (non-ephemeral) messages, oldest first, as they are now."""
        return copy.deepcopy(list(self._messages.get(channel_id, {}).values()))

    def message(self, message_id: int) -> JSON | None:
        """A message as it is now (ephemeral ones too), None if unknown or deleted."""
        found = self._find_message(message_id)
        return copy.deepcopy(found) if found is not None else None

    def was_deleted(self, message_id: int) -> bool:
        return message_id in self._deleted

    def dm_channel(self, user_id: int) -> JSON | None:
        channel_id = self._dm_channels.get(user_id)
        return copy.deepcopy(self._channels[channel_id]) if channel_id else None

    def dm_messages(self, user_id: int) -> list[JSON]:
        channel_id = self._dm_channels.get(user_id)
        return self.messages(channel_id) if channel_id else []

    def interaction(self, interaction_id: int) -> JSON:
        return copy.deepcopy(self._interactions[interaction_id].payload)

    def interaction_responses(self, interaction_id: int) -> list[JSON]:
        """The accepted callbacks of an interaction: {"type", "data", "ephemeral", "files",
        "message_id"} (there is at most one: a second answer is refused)."""
        return copy.deepcopy(self._interactions[interaction_id].responses)

    def interaction_messages(self, interaction_id: int) -> list[JSON]:
        """The messages the interaction's answer and follow-ups created, as they are now
        (deleted ones left out), the original response first; ephemeral ones included."""
        interaction = self._interactions[interaction_id]
        ids = [interaction.original_id, *interaction.followup_ids]
        if interaction.original_id == interaction.component_message_id:
            ids = interaction.followup_ids
        return [copy.deepcopy(m) for i in ids if i and (m := self._find_message(i)) is not None]

    def commands(self, guild_id: int | None = None) -> list[JSON]:
        """The application commands registered globally (None) or in a guild."""
        return copy.deepcopy(self._commands.get(guild_id, []))

    def file_bytes(self, attachment_id: int | str) -> bytes:
        return self._files[int(attachment_id)]

    # ---- faults

    def fail(
        self,
        method: str,
        path_regex: str,
        status: int = 429,
        times: int = 1,
        retry_after: float = 1.0,
        *,
        message: str | None = None,
        code: int = 0,
        is_global: bool = False,
    ) -> None:
        """The next `times` requests `method` ("*": any) whose path below /api/v10 matches
        `path_regex` (re.search) answer `status`: a 429 in Discord's rate-limit shape and
        headers, otherwise {"message", "code"}."""
        self._faults.append(
            _Fault(
                method.upper(),
                re.compile(path_regex),
                status,
                times,
                retry_after,
                message,
                code,
                is_global,
            )
        )

    def slow(self, path_regex: str, seconds: float) -> None:
        """Delay every answer to paths matching `path_regex`; 0 makes them fast again."""
        self._delays = [(p, s) for p, s in self._delays if p.pattern != path_regex]
        if seconds:
            self._delays.append((re.compile(path_regex), seconds))

    # ---- waiting

    async def wait_for(
        self, predicate: Callable[[], T], timeout: float = 10.0, what: str = ""
    ) -> T:
        """Poll until predicate() is truthy and return it; the bot works concurrently."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if loop.time() >= deadline:
                recent = [f"{c.method} {c.path}->{c.status}" for c in self.calls][-10:]
                raise AssertionError(
                    f"timed out after {timeout}s waiting for "
                    f"{what or getattr(predicate, '__qualname__', repr(predicate))}; "
                    f"last calls: {', '.join(recent) or 'none'}; "
                    f"connected shards: {self.connected_shards()}"
                )
            await asyncio.sleep(0.02)

    async def wait_calls(
        self, method: str, path_regex: str, count: int = 1, timeout: float = 10.0
    ) -> list[Call]:
        """Wait until at least `count` answered requests matched; return them all."""

        def enough() -> list[Call]:
            calls = self.calls_to(method, path_regex)
            return calls if len(calls) >= count else []

        return await self.wait_for(enough, timeout, f"{count} x {method} {path_regex}")

    # ---- state helpers

    @staticmethod
    def _role_object(role_id: int, name: str, permissions: int, position: int) -> JSON:
        return {
            "id": str(role_id),
            "name": name,
            "description": None,
            "permissions": str(permissions),
            "position": position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }

    def _add_member(
        self, guild_id: int, user_id: int, role_ids: list[int], *, nick: str | None = None
    ) -> JSON:
        member: JSON = {
            "user": self._users[user_id],
            "nick": nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in role_ids],
            "joined_at": _now(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
            "unusual_dm_activity_until": None,
        }
        self._members[guild_id][user_id] = member
        return member

    def _guild_permissions(self, guild_id: int, user_id: int) -> int:
        guild = self._guilds[guild_id]
        if int(guild["owner_id"]) == user_id:
            return ALL_PERMISSIONS
        member = self._members[guild_id][user_id]
        roles = {int(r["id"]): int(r["permissions"]) for r in guild["roles"]}
        value = roles[guild_id]
        for role_id in member["roles"]:
            value |= roles.get(int(role_id), 0)
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def _permissions(self, channel: JSON, user_id: int) -> int:
        """Permissions in a channel: roles, then @everyone, role and member overwrites."""
        if "guild_id" not in channel:  # DM
            return VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
        guild_id = int(channel["guild_id"])
        value = self._guild_permissions(guild_id, user_id)
        if value & ADMINISTRATOR or value == ALL_PERMISSIONS:
            return value
        if channel["type"] == CHANNEL_PUBLIC_THREAD:
            parent = self._channels.get(int(channel["parent_id"]))
            return self._permissions(parent, user_id) if parent else value
        member_roles = set(self._members[guild_id][user_id]["roles"])
        overwrites = channel.get("permission_overwrites", [])
        ordered = (
            [o for o in overwrites if o["id"] == str(guild_id)],
            [o for o in overwrites if o["type"] == 0 and o["id"] in member_roles],
            [o for o in overwrites if o["type"] == 1 and o["id"] == str(user_id)],
        )
        for group in ordered:
            deny = allow = 0
            for overwrite in group:
                deny |= int(overwrite["deny"])
                allow |= int(overwrite["allow"])
            value = (value & ~deny) | allow
        return value

    def _channel(self, channel_id: int) -> JSON:
        channel = self._channels.get(channel_id)
        if channel is None:
            raise _unknown("Channel", 10003)
        return channel

    def _find_message(self, message_id: int) -> JSON | None:
        if message_id in self._ephemeral:
            return self._ephemeral[message_id]
        for messages in self._messages.values():
            if message_id in messages:
                return messages[message_id]
        return None

    def _member_payload(self, guild_id: int, user_id: int, channel: JSON) -> JSON:
        member = copy.deepcopy(self._members[guild_id][user_id])
        member["permissions"] = str(self._permissions(channel, user_id))
        return member

    def _guild_create(self, guild_id: int, session: _Session) -> JSON:
        guild = copy.deepcopy(self._guilds[guild_id])
        members = self._members[guild_id]
        threshold = session.identify.get("large_threshold", 50)
        channels, threads = [], []
        for channel in self._channels.values():
            if channel.get("guild_id") != str(guild_id):
                continue
            if channel["type"] == CHANNEL_PUBLIC_THREAD:
                threads.append(copy.deepcopy(channel))
            else:
                channels.append({k: v for k, v in channel.items() if k != "guild_id"})
        if session.intents & GUILD_MEMBERS:
            listed = list(members.values())
        else:
            listed = [members[self.bot_id]]
        guild.update(
            joined_at=members[self.bot_id]["joined_at"],
            large=len(members) > threshold,
            unavailable=False,
            member_count=len(members),
            voice_states=[],
            members=copy.deepcopy(listed),
            channels=copy.deepcopy(channels),
            threads=threads,
            presences=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
            embedded_activities=[],
            activity_instances=[],
            application_command_counts={},
            lazy=True,
            version=int(time.time() * 1000),
        )
        return guild

    # ---- gateway

    def _sessions_for(self, guild_id: int | None) -> list[_Session]:
        return [s for s in self._sessions.values() if s.shard_of(guild_id)]

    def _emit(self, session: _Session, event: str, data: JSON) -> None:
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": copy.deepcopy(data)}
        session.events.append(payload)
        if session.conn is not None:
            session.conn.send(payload)

    def _emit_guild(
        self, guild_id: int | None, event: str, data: JSON, intent: int | None = None
    ) -> int:
        sessions = [s for s in self._sessions_for(guild_id) if intent is None or s.intents & intent]
        for session in sessions:
            self._emit(session, event, data)
        return len(sessions)

    def _live_connection(self, shard_id: int | None) -> _Connection:
        for session in self._sessions.values():
            conn = session.conn
            if conn is None or conn.dropped:
                continue
            if shard_id is None or (session.shard is not None and session.shard[0] == shard_id):
                return conn
        raise LookupError(f"no live gateway connection for shard {shard_id}")

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        query = request.query
        self.gateway_queries.append(dict(query))
        compress = query.get("compress")
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = _Connection(ws, request, compress)
        self._connections.append(conn)
        conn.writer = asyncio.create_task(conn.write())
        try:
            if query.get("v", "10") not in API_VERSIONS:
                await self._close(conn, 4012)
                return ws
            if query.get("encoding", "json") != "json" or compress not in (
                None,
                "zlib-stream",
                *(("zstd-stream",) if _zstd is not None else ()),
            ):
                await self._close(conn, 4002)
                return ws
            conn.send(
                {
                    "op": 10,
                    "d": {"heartbeat_interval": self.heartbeat_interval, "_trace": ['["fake"]']},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type is WSMsgType.BINARY:
                    await self._close(conn, 4002)
                    break
                if msg.type is not WSMsgType.TEXT:
                    break
                try:
                    payload = json.loads(msg.data)
                    op = payload["op"]
                except (ValueError, KeyError, TypeError):
                    await self._close(conn, 4002)
                    break
                await self._gateway_op(conn, op, payload.get("d"))
        finally:
            conn.queue.put_nowait(None)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                # a client closing with 1000/1001 ends its session; other closes can resume
                if not conn.dropped and ws.close_code in (1000, 1001):
                    self._sessions.pop(session.id, None)
            if conn in self._connections:
                self._connections.remove(conn)
        return ws

    async def _close(self, conn: _Connection, code: int) -> None:
        conn.dropped = True
        conn.queue.put_nowait(None)
        if conn.writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.writer, 1.0)
        await conn.ws.close(code=code, message=_CLOSE_REASONS.get(code, "").encode())

    async def _gateway_op(self, conn: _Connection, op: Any, data: Any) -> None:
        if op == 1:
            conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(conn, data if isinstance(data, dict) else {})
        elif op == 6:
            await self._resume(conn, data if isinstance(data, dict) else {})
        elif conn.session is None:
            await self._close(conn, 4003)
        elif op == 3:
            self.presences.append(copy.deepcopy(data))
        elif op == 8:
            self._request_members(conn.session, data if isinstance(data, dict) else {})
        elif op == 4:  # voice state update: nothing to do without voice
            pass
        else:
            await self._close(conn, 4001)

    async def _identify(self, conn: _Connection, data: JSON) -> None:
        self.identified.append(copy.deepcopy(data))
        if conn.session is not None:
            await self._close(conn, 4005)
            return
        if data.get("token") != self.token:
            await self._close(conn, 4004)
            return
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) for n in shard)
            and 0 <= shard[0] < shard[1]
        ):
            await self._close(conn, 4010)
            return
        intents = data.get("intents")
        if not isinstance(intents, int) or intents < 0 or intents & ~ALL_INTENTS:
            await self._close(conn, 4013)
            return
        if intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await self._close(conn, 4014)
            return
        key = tuple(shard) if shard else None
        for old in list(self._sessions.values()):
            if old.shard == key and old.conn is None:
                del self._sessions[old.id]
        session = _Session(secrets.token_hex(16), key, intents, copy.deepcopy(data))
        self._sessions[session.id] = session
        self._session_starts -= 1
        conn.session, session.conn = session, conn
        guild_ids = [g for g in self._guilds if session.shard_of(g)]
        ready: JSON = {
            "v": 10,
            "user_settings": {},
            "user": {
                **self.bot_user,
                "verified": True,
                "mfa_enabled": False,
                "email": None,
                "bio": "",
            },
            "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": self._application_flags()},
            "private_channels": [],
            "presences": [],
            "relationships": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["madrid", "rotterdam", "frankfurt"],
            "auth": {},
            "_trace": ['["fake-gateway",{"micros":0}]'],
        }
        if key is not None:
            ready["shard"] = list(key)
        self._emit(session, "READY", ready)
        if intents & GUILDS:
            for guild_id in guild_ids:
                self._emit(session, "GUILD_CREATE", self._guild_create(guild_id, session))

    async def _resume(self, conn: _Connection, data: JSON) -> None:
        self.resumed.append(copy.deepcopy(data))
        if data.get("token") != self.token:
            await self._close(conn, 4004)
            return
        session = self._sessions.get(str(data.get("session_id")))
        seq = data.get("seq")
        if session is None or not isinstance(seq, int) or seq > session.seq:
            conn.send({"op": 9, "d": False, "s": None, "t": None})
            return
        old = session.conn
        if old is not None and old is not conn:
            old.session = None
            old.dropped = True
            old.queue.put_nowait(None)
            asyncio.get_running_loop().create_task(old.ws.close(code=4000))
        conn.session, session.conn = session, conn
        for event in session.events:
            if event["s"] > seq:
                conn.send(event)
        self._emit(session, "RESUMED", {"_trace": ['["fake-gateway",{"micros":0}]']})

    def _request_members(self, session: _Session, data: JSON) -> None:
        guild_id = int(data.get("guild_id", 0))
        members = self._members.get(guild_id, {})
        user_ids = data.get("user_ids")
        if user_ids is not None:
            wanted = [int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])]
            found = [members[u] for u in wanted if u in members]
            not_found = [str(u) for u in wanted if u not in members]
        else:
            query = str(data.get("query", "")).lower()
            found = [m for m in members.values() if m["user"]["username"].startswith(query)]
            limit = int(data.get("limit", 0))
            found = found[:limit] if limit else found
            not_found = []
        chunk: JSON = {
            "guild_id": str(guild_id),
            "members": found,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": not_found,
        }
        if "nonce" in data:
            chunk["nonce"] = data["nonce"]
        if data.get("presences"):
            chunk["presences"] = []
        self._emit(session, "GUILD_MEMBERS_CHUNK", chunk)

    def _application_flags(self) -> int:
        flags = 1 << 23  # APPLICATION_COMMAND_BADGE
        if self.privileged_intents & GUILD_PRESENCES:
            flags |= 1 << 13
        if self.privileged_intents & GUILD_MEMBERS:
            flags |= 1 << 15
        if self.privileged_intents & MESSAGE_CONTENT:
            flags |= 1 << 19
        return flags

    # ---- interactions (injection)

    def _find_command(self, guild_id: int | None, name: str) -> JSON:
        candidates = [*self._commands.get(guild_id, []), *self._commands.get(None, [])]
        for command in candidates:
            if command["name"] == name and command.get("type", 1) == 1:
                return command
        raise LookupError(
            f"/{name} is not registered globally nor in guild {guild_id}: "
            f"the bot must sync its commands first"
        )

    @staticmethod
    def _subcommand_path(
        command: JSON, subcommand: str | None
    ) -> tuple[list[JSON], Callable[[list[JSON]], list[JSON]]]:
        """The option definitions of the invoked (sub)command and how to nest its options."""
        definitions: list[JSON] = command.get("options") or []
        names = subcommand.split() if subcommand else []
        path: list[JSON] = []
        for part in names:
            option = next(
                (o for o in definitions if o["name"] == part and o["type"] in (1, 2)), None
            )
            if option is None:
                raise LookupError(f"/{command['name']} has no sub-command {subcommand!r}")
            path.append(option)
            definitions = option.get("options") or []
        if any(o["type"] in (1, 2) for o in definitions):
            raise ValueError(f"/{command['name']} needs a sub-command")

        def wrap(built: list[JSON]) -> list[JSON]:
            for option in reversed(path):
                built = [{"type": option["type"], "name": option["name"], "options": built}]
            return built

        return definitions, wrap

    def _command_data(self, command: JSON, options: list[JSON], resolved: JSON) -> JSON:
        data: JSON = {"id": command["id"], "name": command["name"], "type": 1}
        if options:
            data["options"] = options
        if resolved:
            data["resolved"] = resolved
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        return data

    def _build_option(
        self,
        guild_id: int | None,
        definitions: list[JSON],
        name: str,
        value: Any,
        resolved: JSON,
        viewer: int,
    ) -> JSON:
        definition = next((d for d in definitions if d["name"] == name), None)
        if definition is None:
            raise LookupError(f"no option {name!r}")
        kind = definition["type"]
        converted: Any
        if kind == 3:
            converted = str(value)
            low, high = definition.get("min_length", 0), definition.get("max_length", 6000)
            if not low <= len(converted) <= high:
                raise ValueError(f"option {name!r} takes {low}..{high} characters")
        elif kind in (4, 10):
            number = isinstance(value, int | float) and not isinstance(value, bool)
            converted = int(value) if kind == 4 else value if number else float(value)
            low, high = definition.get("min_value"), definition.get("max_value")
            if (low is not None and converted < low) or (high is not None and converted > high):
                raise ValueError(f"option {name!r} takes values in {low}..{high}")
        elif kind == 5:
            converted = bool(value)
        elif kind in (6, 7, 8, 9):
            converted = str(value)
            self._resolve(guild_id, int(value), _OPTION_TARGETS[kind], resolved, viewer)
        else:
            raise NotImplementedError(f"option type {kind} is not modelled")
        choices = definition.get("choices")
        if choices and converted not in [c["value"] for c in choices]:
            raise ValueError(f"{converted!r} is not a choice of option {name!r}")
        return {"type": kind, "name": name, "value": converted}

    def _resolve(
        self, guild_id: int | None, target: int, what: str, resolved: JSON, viewer: int
    ) -> None:
        """Fill `resolved` for the id of a "user", "channel", "role" or "mentionable"; channel
        permissions are the invoking user's (`viewer`)."""
        if what == "user" or (what == "mentionable" and target in self._users):
            if target not in self._users:
                raise LookupError(f"unknown user {target}")
            resolved.setdefault("users", {})[str(target)] = copy.deepcopy(self._users[target])
            if guild_id is not None and target in self._members.get(guild_id, {}):
                member = copy.deepcopy(self._members[guild_id][target])
                member.pop("user")
                member["permissions"] = str(self._guild_permissions(guild_id, target))
                resolved.setdefault("members", {})[str(target)] = member
        elif what == "channel":
            if target not in self._channels:
                raise LookupError(f"unknown channel {target}")
            channel = self._channels[target]
            partial = {
                k: channel[k]
                for k in ("id", "name", "type", "parent_id", "thread_metadata")
                if k in channel
            }
            partial["permissions"] = str(self._permissions(channel, viewer))
            resolved.setdefault("channels", {})[str(target)] = partial
        else:
            roles = self._guilds[guild_id]["roles"] if guild_id is not None else []
            role = next((r for r in roles if r["id"] == str(target)), None)
            if role is None:
                raise LookupError(f"unknown user, channel or role {target}")
            resolved.setdefault("roles", {})[str(target)] = copy.deepcopy(role)

    def _interact(
        self,
        kind: int,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        data: JSON,
        locale: str | None,
        command_name: str | None,
        *,
        message: JSON | None = None,
    ) -> JSON:
        channel = self._channels.get(channel_id)
        if channel is None:
            raise LookupError(f"unknown channel {channel_id}")
        if user_id not in self._users:
            raise LookupError(f"unknown user {user_id}")
        interaction_id = self.snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96)
        partial = {k: v for k, v in channel.items() if k != "recipients"}
        partial["permissions"] = str(self._permissions(channel, user_id))
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel": partial,
            "channel_id": str(channel_id),
            "token": token,
            "version": 1,
            "locale": locale or self._locales.get(user_id, "en-US"),
            "app_permissions": str(self._permissions(channel, self.bot_id)),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_LIMIT,
        }
        if guild_id is not None:
            if user_id not in self._members.get(guild_id, {}):
                raise LookupError(f"user {user_id} is not a member of guild {guild_id}")
            guild = self._guilds[guild_id]
            payload.update(
                guild_id=str(guild_id),
                guild={"id": str(guild_id), "locale": guild["preferred_locale"], "features": []},
                guild_locale=guild["preferred_locale"],
                member=self._member_payload(guild_id, user_id, channel),
                authorizing_integration_owners={"0": str(guild_id)},
                context=0,
            )
        else:
            payload.update(
                user=copy.deepcopy(self._users[user_id]),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
            partial.setdefault("recipients", [copy.deepcopy(self._users[user_id])])
        if message is not None:
            payload["message"] = copy.deepcopy(message)
        if not self._sessions_for(guild_id):
            raise RuntimeError(f"no gateway session receives the events of guild {guild_id}")
        self._interactions[interaction_id] = interaction = _Interaction(
            payload=payload,
            created=time.monotonic(),
            kind=kind,
            token=token,
            guild_id=guild_id,
            channel_id=channel_id,
            command_name=command_name,
            component_message_id=int(message["id"]) if message is not None else None,
        )
        self._by_token[token] = interaction
        # INTERACTION_CREATE needs no intent; only the shard of the guild receives it
        self._emit(self._sessions_for(guild_id)[-1], "INTERACTION_CREATE", payload)
        return copy.deepcopy(payload)

    # ---- HTTP plumbing

    def _route_table(self) -> list[_Route]:
        snow = r"(?P<{}>\d+)"
        token = r"(?P<token>[^/]+)"
        table: list[tuple[str, str, Callable[[_Req], Any], bool]] = [
            ("GET", "/gateway", self._get_gateway, False),
            ("GET", "/gateway/bot", self._get_gateway_bot, True),
            ("GET", "/users/@me", self._get_me, True),
            ("GET", f"/users/{snow.format('user')}", self._get_user, True),
            ("POST", "/users/@me/channels", self._open_dm, True),
            ("GET", "/oauth2/applications/@me", self._application_info, True),
            ("GET", "/applications/@me", self._application_info, True),
            ("GET", f"/applications/{snow.format('app')}/commands", self._get_commands, True),
            ("PUT", f"/applications/{snow.format('app')}/commands", self._put_commands, True),
            (
                "GET",
                f"/applications/{snow.format('app')}/guilds/{snow.format('guild')}/commands",
                self._get_commands,
                True,
            ),
            (
                "PUT",
                f"/applications/{snow.format('app')}/guilds/{snow.format('guild')}/commands",
                self._put_commands,
                True,
            ),
            (
                "POST",
                f"/interactions/{snow.format('interaction')}/{token}/callback",
                self._callback,
                False,
            ),
            ("POST", f"/webhooks/{snow.format('app')}/{token}", self._followup, False),
            *(
                (
                    method,
                    f"/webhooks/{snow.format('app')}/{token}/messages/(?P<message>@original|\\d+)",
                    handler,
                    False,
                )
                for method, handler in (
                    ("GET", self._get_webhook_message),
                    ("PATCH", self._edit_webhook_message),
                    ("DELETE", self._delete_webhook_message),
                )
            ),
            ("GET", f"/channels/{snow.format('channel')}", self._get_channel, True),
            ("GET", f"/channels/{snow.format('channel')}/messages", self._history, True),
            ("POST", f"/channels/{snow.format('channel')}/messages", self._send_message, True),
            *(
                (
                    method,
                    f"/channels/{snow.format('channel')}/messages/{snow.format('message')}",
                    handler,
                    True,
                )
                for method, handler in (
                    ("GET", self._get_message),
                    ("PATCH", self._edit_message),
                    ("DELETE", self._delete_message),
                )
            ),
            ("POST", f"/channels/{snow.format('channel')}/typing", self._typing, True),
            ("POST", f"/channels/{snow.format('channel')}/threads", self._start_thread, True),
            ("GET", f"/guilds/{snow.format('guild')}", self._get_guild, True),
            ("GET", f"/guilds/{snow.format('guild')}/channels", self._guild_channels, True),
            ("GET", f"/guilds/{snow.format('guild')}/members", self._list_members, True),
            (
                "GET",
                f"/guilds/{snow.format('guild')}/members/{snow.format('user')}",
                self._get_member,
                True,
            ),
        ]
        routes = []
        for method, pattern, handler, auth in table:
            template = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", pattern)
            bucket = hashlib.md5(f"{method} {template}".encode()).hexdigest()
            routes.append(_Route(method, re.compile(pattern + "$"), handler, auth, bucket))
        return routes

    @staticmethod
    def _json_response(
        body: Any, status: int = 200, headers: dict[str, str] | None = None
    ) -> web.Response:
        data = json.dumps(body, ensure_ascii=False).encode()
        all_headers = {"Content-Type": "application/json", "Via": "1.1 google", **(headers or {})}
        return web.Response(body=data, status=status, headers=all_headers)

    async def _not_found(self, request: web.Request) -> web.Response:
        return self._json_response({"message": "404: Not Found", "code": 0}, 404)

    async def _download(self, request: web.Request) -> web.Response:
        data = self._files.get(int(request.match_info["attachment"]))
        if data is None:
            return web.Response(status=404, text="Not Found")
        content_type = mimetypes.guess_type(request.match_info["filename"])[0]
        return web.Response(body=data, content_type=content_type or "application/octet-stream")

    @staticmethod
    def _ratelimit_headers(bucket: str, remaining: int, reset_after: float) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }

    async def _api(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        call = Call(request.method, path, dict(request.query), None, {}, time.monotonic())
        headers: dict[str, str] = {}
        try:
            try:
                call.json, call.files = await self._read(request)
            finally:
                self.calls.append(call)
            if request.match_info["version"] not in API_VERSIONS:
                raise ApiError(400, "Invalid API version", 50041)
            route, params = self._match(request.method, path)
            if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise ApiError(401, "401: Unauthorized", 0)
            for pattern, seconds in self._delays:
                if pattern.search(path):
                    await asyncio.sleep(seconds)
            self._inject_fault(request.method, path, route.bucket)
            headers = self._ratelimit_headers(route.bucket, 4, 1.0)
            req = _Req(request.method, path, params, dict(request.query), call.json, call.files)
            result = await route.handler(req)
        except ApiError as error:
            call.status, call.response = error.status, error.body()
            return self._json_response(call.response, error.status, {**headers, **error.headers})
        if result is None:
            call.status = 204
            return web.Response(status=204, headers={"Via": "1.1 google", **headers})
        # a copy: the stored message changes with later edits, the answer does not
        call.status, call.response = 200, copy.deepcopy(result)
        return self._json_response(result, 200, headers)

    def _match(self, method: str, path: str) -> tuple[_Route, dict[str, str]]:
        path_known = False
        for route in self._routes:
            found = route.pattern.match(path)
            if found is None:
                continue
            path_known = True
            if route.method == method:
                return route, found.groupdict()
        if path_known:
            raise ApiError(405, "405: Method Not Allowed", 0)
        raise ApiError(404, "404: Not Found", 0)

    @staticmethod
    async def _read(request: web.Request) -> tuple[Any, dict[str, Upload]]:
        if not request.can_read_body:
            return None, {}
        if request.content_type == "multipart/form-data":
            files: dict[str, Upload] = {}
            body: Any = None
            form = await request.post()
            for name, value in form.items():
                if isinstance(value, web.FileField):
                    files[name] = Upload(value.filename, value.content_type, value.file.read())
                elif name == "payload_json":
                    text = value if isinstance(value, str) else value.decode()
                    try:
                        body = json.loads(text)
                    except ValueError as error:
                        raise ApiError(400, "The request body contains invalid JSON.", 50109) from (
                            error
                        )
            return body, files
        text = await request.text()
        if not text:
            return None, {}
        try:
            return json.loads(text), {}
        except ValueError as error:
            raise ApiError(400, "The request body contains invalid JSON.", 50109) from error

    def _inject_fault(self, method: str, path: str, bucket: str) -> None:
        for fault in self._faults:
            if fault.times <= 0 or fault.method not in ("*", method):
                continue
            if not fault.pattern.search(path):
                continue
            fault.times -= 1
            if fault.status == 429:
                headers = {
                    **self._ratelimit_headers(bucket, 0, fault.retry_after),
                    "Retry-After": str(math.ceil(fault.retry_after)),
                    "X-RateLimit-Scope": "global" if fault.is_global else "user",
                }
                if fault.is_global:
                    headers["X-RateLimit-Global"] = "true"
                body = {
                    "message": fault.message or "You are being rate limited.",
                    "retry_after": fault.retry_after,
                    "global": fault.is_global,
                }
                if fault.code:
                    body["code"] = fault.code
                raise ApiError(429, body["message"], fault.code, headers=headers, extra=body)
            message = fault.message or f"{fault.status}: {HTTPStatus(fault.status).phrase}"
            raise ApiError(fault.status, message, fault.code)

    # ---- REST: gateway, users, application

    async def _get_gateway(self, req: _Req) -> JSON:
        return {"url": self.gateway_url}

    async def _get_gateway_bot(self, req: _Req) -> JSON:
        return {
            "url": self.gateway_url,
            "shards": self.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": self._session_starts,
                "reset_after": 14_400_000,
                "max_concurrency": 1,
            },
        }

    async def _get_me(self, req: _Req) -> JSON:
        return {
            **self.bot_user,
            "verified": True,
            "mfa_enabled": False,
            "email": None,
            "locale": "en-US",
            "premium_type": 0,
            "bio": "",
        }

    async def _get_user(self, req: _Req) -> JSON:
        user = self._users.get(int(req.params["user"]))
        if user is None:
            raise _unknown("User", 10013)
        return user

    async def _open_dm(self, req: _Req) -> JSON:
        body = req.json if isinstance(req.json, dict) else {}
        try:
            user_id = int(body["recipient_id"])
        except (KeyError, TypeError, ValueError):
            raise _form_error(
                ("recipient_id",), "BASE_TYPE_REQUIRED", "This field is required"
            ) from None
        if user_id not in self._users or user_id == self.bot_id:
            raise ApiError(400, "Invalid Recipient(s)", 50033)
        if user_id not in self._dm_channels:
            channel_id = self.snowflake()
            self._channels[channel_id] = {
                "id": str(channel_id),
                "type": CHANNEL_DM,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self._users[user_id]],
            }
            self._messages[channel_id] = {}
            self._dm_channels[user_id] = channel_id
        return self._channels[self._dm_channels[user_id]]

    async def _application_info(self, req: _Req) -> JSON:
        owner = self._users.get(self.owner_id) or {
            "id": str(self.owner_id),
            "username": "owner",
            "global_name": "Owner",
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
        }
        return {
            "id": str(self.application_id),
            "name": self.bot_user["username"],
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": hashlib.sha256(self.token.encode()).hexdigest(),
            "owner": owner,
            "team": None,
            "flags": self._application_flags(),
            "bot": self.bot_user,
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "tags": [],
            "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
            "integration_types_config": {"0": {}},
            "approximate_guild_count": len(self._guilds),
            "approximate_user_install_count": 0,
        }

    # ---- REST: application commands

    def _command_scope(self, req: _Req) -> int | None:
        if int(req.params["app"]) != self.application_id:
            raise ApiError(*MISSING_ACCESS)
        guild = req.params.get("guild")
        if guild is None:
            return None
        if int(guild) not in self._guilds:
            raise ApiError(*MISSING_ACCESS)
        return int(guild)

    @staticmethod
    def _strip_localizations(value: Any) -> Any:
        if isinstance(value, list):
            return [FakeDiscord._strip_localizations(v) for v in value]
        if isinstance(value, dict):
            return {
                k: FakeDiscord._strip_localizations(v)
                for k, v in value.items()
                if k not in ("name_localizations", "description_localizations")
            }
        return value

    async def _get_commands(self, req: _Req) -> list[JSON]:
        commands = self._commands.get(self._command_scope(req), [])
        if req.query.get("with_localizations", "").lower() in ("true", "1"):
            return commands
        return self._strip_localizations(commands)

    async def _put_commands(self, req: _Req) -> list[JSON]:
        scope = self._command_scope(req)
        if not isinstance(req.json, list):
            raise _form_error((), "BASE_TYPE_ARRAY", "Must be an array.")
        seen: set[tuple[str, int]] = set()
        for index, command in enumerate(req.json):
            self._validate_command(index, command)
            key = (command["name"], command.get("type", 1))
            if key in seen:
                raise _form_error(
                    (index, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique ({command['name']})",
                )
            seen.add(key)
        old = {(c["name"], c["type"]): c for c in self._commands.get(scope, [])}
        stored = []
        for command in req.json:
            kind = command.get("type", 1)
            previous = old.get((command["name"], kind))
            item: JSON = {
                "id": previous["id"] if previous else str(self.snowflake()),
                "application_id": str(self.application_id),
                "version": str(self.snowflake()),
                "default_member_permissions": command.get("default_member_permissions"),
                "type": kind,
                "name": command["name"],
                "name_localizations": command.get("name_localizations"),
                "description": command.get("description", ""),
                "description_localizations": command.get("description_localizations"),
                "dm_permission": command.get("dm_permission", True),
                "contexts": command.get("contexts"),
                "integration_types": command.get("integration_types") or [0],
                "nsfw": command.get("nsfw", False),
            }
            if command.get("options"):
                item["options"] = copy.deepcopy(command["options"])
            if scope is not None:
                item["guild_id"] = str(scope)
            stored.append(item)
        self._commands[scope] = stored
        return stored

    def _validate_command(self, index: int, command: Any) -> None:
        if not isinstance(command, dict) or not isinstance(command.get("name"), str):
            raise _form_error((index, "name"), "BASE_TYPE_REQUIRED", "This field is required")
        kind = command.get("type", 1)
        if kind == 1:
            self._validate_named(
                (index,), command, self._chat_name_ok, "APPLICATION_COMMAND_INVALID_NAME"
            )
            self._validate_options((index, "options"), command.get("options") or [], depth=0)
        else:
            if not 1 <= len(command["name"]) <= 32:
                raise _form_error(
                    (index, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length."
                )
            if command.get("description"):
                raise _form_error(
                    (index, "description"),
                    "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
                    "Context menu commands cannot have description",
                )

    @staticmethod
    def _chat_name_ok(name: str) -> bool:
        return bool(_COMMAND_NAME.match(name)) and name == name.lower()

    @staticmethod
    def _validate_named(
        path: tuple[str | int, ...],
        item: JSON,
        name_ok: Callable[[str], bool],
        name_code: str,
        *,
        describe: bool = True,
    ) -> None:
        name = item.get("name")
        if not isinstance(name, str) or not name_ok(name):
            raise _form_error((*path, "name"), name_code, "Command name is invalid")
        if describe:
            description = item.get("description")
            if not isinstance(description, str) or not 1 <= len(description) <= 100:
                raise _form_error(
                    (*path, "description"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                )
        for key, limit in (("name_localizations", 32), ("description_localizations", 100)):
            localized = item.get(key) or {}
            for locale, text in localized.items():
                if locale not in LOCALES:
                    raise _form_error(
                        (*path, key, locale),
                        "BASE_TYPE_CHOICES",
                        f"Value must be one of {sorted(LOCALES)}.",
                    )
                if key == "name_localizations" and not name_ok(text):
                    raise _form_error((*path, key, locale), name_code, "Command name is invalid")
                if not 1 <= len(text) <= limit:
                    raise _form_error(
                        (*path, key, locale),
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and {limit} in length.",
                    )

    def _validate_options(
        self, path: tuple[str | int, ...], options: list[JSON], depth: int
    ) -> None:
        if len(options) > 25:
            raise _form_error(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        optional_seen = False
        names: set[str] = set()
        for index, option in enumerate(options):
            where = (*path, index)
            self._validate_named(
                where, option, self._chat_name_ok, "APPLICATION_COMMAND_INVALID_NAME"
            )
            if option["name"] in names:
                raise _form_error(
                    (*where, "name"),
                    "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                    "Option names must be unique",
                )
            names.add(option["name"])
            kind = option.get("type")
            if kind in (1, 2):
                if depth >= (1 if kind == 2 else 2):
                    raise _form_error(
                        (*where, "type"), "BASE_TYPE_CHOICES", "Sub-commands are nested too deep."
                    )
                self._validate_options((*where, "options"), option.get("options") or [], depth + 1)
                continue
            if option.get("required"):
                if optional_seen:
                    raise _form_error(
                        where,
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
            else:
                optional_seen = True
            choices = option.get("choices") or []
            if len(choices) > 25:
                raise _form_error(
                    (*where, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )
            for number, choice in enumerate(choices):
                self._validate_named(
                    (*where, "choices", number),
                    choice,
                    lambda text: 1 <= len(text) <= 100,
                    "BASE_TYPE_BAD_LENGTH",
                    describe=False,
                )
            if choices and option.get("autocomplete"):
                raise _form_error(
                    (*where, "autocomplete"),
                    "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                    "Autocomplete cannot be set for options with choices",
                )

    # ---- REST: interactions

    def _live_interaction(self, app_id: str, token: str) -> _Interaction:
        interaction = self._by_token.get(token)
        if interaction is None or int(app_id) != self.application_id:
            raise _unknown("Webhook", 10015)
        if time.monotonic() - interaction.created > INTERACTION_TOKEN_LIFETIME:
            raise ApiError(401, "Invalid Webhook Token", 50027)
        return interaction

    async def _callback(self, req: _Req) -> JSON | None:
        interaction = self._interactions.get(int(req.params["interaction"]))
        if interaction is None or interaction.token != req.params["token"]:
            raise _unknown("interaction", 10062)
        if interaction.acked:
            raise ApiError(400, "Interaction has already been acknowledged.", 40060)
        if time.monotonic() - interaction.created > self.interaction_deadline:
            raise _unknown("interaction", 10062)
        body = req.json if isinstance(req.json, dict) else {}
        kind = body.get("type")
        if kind not in ALLOWED_CALLBACKS[interaction.kind]:
            allowed = ", ".join(str(t) for t in sorted(ALLOWED_CALLBACKS[interaction.kind]))
            raise _form_error(
                ("type",), "BASE_TYPE_CHOICES", f"Value must be one of {{{allowed}}}."
            )
        data = body.get("data") or {}
        flags = int(data.get("flags") or 0)
        ephemeral = bool(flags & EPHEMERAL)
        channel = self._channel(interaction.channel_id)
        message: JSON | None = None
        if kind == CHANNEL_MESSAGE:
            message = self._create_message(
                channel, data, req.files, interaction=interaction, ephemeral=ephemeral
            )
            interaction.original_id = int(message["id"])
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            message = self._create_message(
                channel,
                {"content": ""},
                {},
                interaction=interaction,
                ephemeral=ephemeral,
                loading=True,
            )
            interaction.original_id = int(message["id"])
            interaction.deferred = True
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            target = self._find_message(interaction.component_message_id or 0)
            if target is None:
                raise _unknown("Message", 10008)
            interaction.original_id = int(target["id"])
            ephemeral = bool(target["flags"] & EPHEMERAL)
            if kind == UPDATE_MESSAGE:
                message = self._edit(target, data, req.files)
        elif kind == AUTOCOMPLETE_RESULT:
            choices = data.get("choices")
            if not isinstance(choices, list) or len(choices) > 25:
                raise _form_error(
                    ("data", "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )
        elif kind == MODAL:
            for key, limit in (("custom_id", 100), ("title", 45)):
                value = data.get(key)
                if not isinstance(value, str) or not 1 <= len(value) <= limit:
                    raise _form_error(
                        ("data", key),
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and {limit} in length.",
                    )
        interaction.acked = True
        interaction.responses.append(
            {
                "type": kind,
                "data": copy.deepcopy(data),
                "ephemeral": ephemeral,
                "files": [u.filename for u in req.files.values()],
                "message_id": message["id"] if message else None,
            }
        )
        if req.query.get("with_response", "").lower() not in ("1", "true"):
            return None
        answer: JSON = {
            "interaction": {
                "id": str(interaction.payload["id"]),
                "type": interaction.kind,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": ephemeral,
            }
        }
        if interaction.original_id is not None:
            answer["interaction"]["response_message_id"] = str(interaction.original_id)
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE):
            answer["resource"] = {"type": kind, "message": message}
        elif kind == DEFERRED_UPDATE:
            answer["resource"] = {"type": kind}
        return answer

    async def _followup(self, req: _Req) -> JSON:
        interaction = self._live_interaction(req.params["app"], req.params["token"])
        if not interaction.acked:
            raise _unknown("Webhook", 10015)
        body = req.json if isinstance(req.json, dict) else {}
        if interaction.deferred:
            # the first follow-up after a deferred answer is that answer (same id, same
            # ephemerality, not marked edited), as Discord does
            original = self._find_message(interaction.original_id or 0)
            if original is None:
                raise _unknown("Message", 10008)
            interaction.deferred = False
            return self._edit(original, body, req.files, fill=True)
        channel = self._channel(interaction.channel_id)
        ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
        message = self._create_message(
            channel, body, req.files, interaction=interaction, ephemeral=ephemeral, followup=True
        )
        interaction.followup_ids.append(int(message["id"]))
        return message

    def _webhook_target(self, req: _Req) -> tuple[_Interaction, JSON]:
        interaction = self._live_interaction(req.params["app"], req.params["token"])
        if req.params["message"] == "@original":
            message_id = interaction.original_id
        else:
            message_id = int(req.params["message"])
            if message_id not in (interaction.original_id, *interaction.followup_ids):
                message_id = None
        message = self._find_message(message_id) if message_id else None
        if message is None:
            raise _unknown("Message", 10008)
        return interaction, message

    async def _get_webhook_message(self, req: _Req) -> JSON:
        return self._webhook_target(req)[1]

    async def _edit_webhook_message(self, req: _Req) -> JSON:
        interaction, message = self._webhook_target(req)
        body = req.json if isinstance(req.json, dict) else {}
        filling = interaction.deferred and int(message["id"]) == interaction.original_id
        if filling:
            interaction.deferred = False
        return self._edit(message, body, req.files, fill=filling)

    async def _delete_webhook_message(self, req: _Req) -> None:
        interaction, message = self._webhook_target(req)
        if int(message["id"]) == interaction.original_id:
            interaction.deferred = False
        self._remove_message(message)

    # ---- REST: channels and messages

    def _visible_channel(self, channel_id: int, need: int = VIEW_CHANNEL) -> JSON:
        channel = self._channel(channel_id)
        permissions = self._permissions(channel, self.bot_id)
        if not permissions & VIEW_CHANNEL:
            raise ApiError(*MISSING_ACCESS)
        if need & ~permissions:
            raise ApiError(*MISSING_PERMISSIONS)
        return channel

    async def _get_channel(self, req: _Req) -> JSON:
        return self._visible_channel(int(req.params["channel"]))

    async def _history(self, req: _Req) -> list[JSON]:
        channel_id = int(req.params["channel"])
        self._visible_channel(channel_id, VIEW_CHANNEL | READ_MESSAGE_HISTORY)
        try:
            limit = int(req.query.get("limit", 50))
        except ValueError:
            raise _form_error(("limit",), "NUMBER_TYPE_COERCE", "Value is not int.") from None
        if not 1 <= limit <= 100:
            raise _form_error(
                ("limit",), "NUMBER_TYPE_MAX", "int value should be less than or equal to 100."
            )
        messages = sorted(self._messages[channel_id].values(), key=lambda m: -int(m["id"]))
        if "before" in req.query:
            before = int(req.query["before"])
            messages = [m for m in messages if int(m["id"]) < before][:limit]
        elif "after" in req.query:
            after = int(req.query["after"])
            messages = [m for m in messages if int(m["id"]) > after][-limit:]
        elif "around" in req.query:
            around = int(req.query["around"])
            newer = [m for m in messages if int(m["id"]) > around][-(limit // 2) :]
            older = [m for m in messages if int(m["id"]) <= around][: limit - len(newer)]
            messages = newer + older
        else:
            messages = messages[:limit]
        return messages

    async def _send_message(self, req: _Req) -> JSON:
        channel = self._visible_channel(int(req.params["channel"]))
        need = (
            SEND_MESSAGES_IN_THREADS if channel["type"] == CHANNEL_PUBLIC_THREAD else SEND_MESSAGES
        )
        if req.files:
            need |= ATTACH_FILES
        if need & ~self._permissions(channel, self.bot_id):
            raise ApiError(*MISSING_PERMISSIONS)
        if channel["type"] == CHANNEL_DM:
            user_id = int(channel["recipients"][0]["id"])
            shares_guild = any(user_id in members for members in self._members.values())
            if user_id in self._closed_dms or not shares_guild:
                raise ApiError(403, "Cannot send messages to this user", 50007)
        body = req.json if isinstance(req.json, dict) else {}
        return self._create_message(channel, body, req.files)

    def _channel_message(self, req: _Req) -> tuple[JSON, JSON]:
        channel = self._visible_channel(int(req.params["channel"]))
        message = self._messages[int(channel["id"])].get(int(req.params["message"]))
        if message is None:
            raise _unknown("Message", 10008)
        return channel, message

    async def _get_message(self, req: _Req) -> JSON:
        channel, message = self._channel_message(req)
        if not self._permissions(channel, self.bot_id) & READ_MESSAGE_HISTORY:
            raise ApiError(*MISSING_PERMISSIONS)
        return message

    async def _edit_message(self, req: _Req) -> JSON:
        _, message = self._channel_message(req)
        if message["author"]["id"] != str(self.bot_id):
            raise ApiError(403, "Cannot edit a message authored by another user", 50005)
        body = req.json if isinstance(req.json, dict) else {}
        return self._edit(message, body, req.files)

    async def _delete_message(self, req: _Req) -> None:
        channel, message = self._channel_message(req)
        own = message["author"]["id"] == str(self.bot_id)
        if not own and not self._permissions(channel, self.bot_id) & MANAGE_MESSAGES:
            raise ApiError(*MISSING_PERMISSIONS)
        self._remove_message(message)

    async def _start_thread(self, req: _Req) -> JSON:
        """A public thread without a starter message (POST /channels/{id}/threads)."""
        channel = self._visible_channel(int(req.params["channel"]), VIEW_CHANNEL)
        if channel["type"] != CHANNEL_TEXT:
            raise ApiError(400, "Cannot execute action on this channel type", 50024)
        body = req.json if isinstance(req.json, dict) else {}
        if body.get("type", CHANNEL_PRIVATE_THREAD) != CHANNEL_PUBLIC_THREAD:
            # private threads (the API's default) are not modelled
            raise _form_error(("type",), "BASE_TYPE_CHOICES", "Only public threads (11) here.")
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise _form_error(
                ("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
            )
        if CREATE_PUBLIC_THREADS & ~self._permissions(channel, self.bot_id):
            raise ApiError(*MISSING_PERMISSIONS)
        guild_id = int(channel["guild_id"])
        thread = self._new_thread(guild_id, int(channel["id"]), self.snowflake(), name, self.bot_id)
        return copy.deepcopy(thread)

    async def _typing(self, req: _Req) -> None:
        channel = self._visible_channel(int(req.params["channel"]))
        if not self._permissions(channel, self.bot_id) & SEND_MESSAGES:
            raise ApiError(*MISSING_PERMISSIONS)

    # ---- REST: guilds

    def _known_guild(self, req: _Req) -> int:
        guild_id = int(req.params["guild"])
        if guild_id not in self._guilds:
            raise _unknown("Guild", 10004)
        return guild_id

    async def _get_guild(self, req: _Req) -> JSON:
        guild_id = self._known_guild(req)
        guild = dict(self._guilds[guild_id])
        if req.query.get("with_counts", "").lower() in ("true", "1"):
            guild["approximate_member_count"] = len(self._members[guild_id])
            guild["approximate_presence_count"] = 0
        return guild

    async def _guild_channels(self, req: _Req) -> list[JSON]:
        guild_id = self._known_guild(req)
        return [
            c
            for c in self._channels.values()
            if c.get("guild_id") == str(guild_id) and c["type"] != CHANNEL_PUBLIC_THREAD
        ]

    async def _get_member(self, req: _Req) -> JSON:
        guild_id = self._known_guild(req)
        member = self._members[guild_id].get(int(req.params["user"]))
        if member is None:
            raise _unknown("Member", 10007)
        return member

    async def _list_members(self, req: _Req) -> list[JSON]:
        guild_id = self._known_guild(req)
        if not self.privileged_intents & GUILD_MEMBERS:
            raise ApiError(*MISSING_ACCESS)
        limit = int(req.query.get("limit", 1))
        after = int(req.query.get("after", 0))
        members = sorted(self._members[guild_id].items())
        return [m for user_id, m in members if user_id > after][:limit]

    # ---- messages

    def _validate_content(self, body: JSON, uploads: dict[str, Upload]) -> None:
        content = body.get("content")
        if content is not None and not isinstance(content, str):
            raise _form_error(("content",), "BASE_TYPE_STRING", "Must be a string.")
        if content and len(content) > 2000:
            raise _form_error(
                ("content",), "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."
            )
        embeds = body.get("embeds") or []
        if len(embeds) > 10:
            raise _form_error(("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        for index, embed in enumerate(embeds):
            for key, limit in (("title", 256), ("description", 4096)):
                if len(embed.get(key) or "") > limit:
                    raise _form_error(
                        ("embeds", index, key),
                        "BASE_TYPE_MAX_LENGTH",
                        f"Must be {limit} or fewer in length.",
                    )
            if len(embed.get("fields") or []) > 25:
                raise _form_error(
                    ("embeds", index, "fields"),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 25 or fewer in length.",
                )
        if len(uploads) > 10:
            raise _form_error(("files",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        for upload in uploads.values():
            if len(upload.data) > ATTACHMENT_LIMIT:
                raise ApiError(413, "Request entity too large", 40005)
        self._validate_components(body.get("components") or [], int(body.get("flags") or 0))

    @staticmethod
    def _validate_components(components: list[JSON], flags: int) -> None:
        if flags & (1 << 15):  # IS_COMPONENTS_V2: only custom_id uniqueness is checked here
            rows: list[JSON] = []
        else:
            rows = components
            if len(rows) > 5:
                raise _form_error(
                    ("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."
                )
        for index, row in enumerate(rows):
            children = row.get("components") or []
            if row.get("type") != 1:
                raise _form_error(
                    ("components", index, "type"),
                    "UNION_TYPE_CHOICES",
                    'Value of field "type" must be one of (1,).',
                )
            selects = [c for c in children if c.get("type") in _SELECTS]
            if len(children) > 5 or (selects and len(children) > 1) or not children:
                raise _form_error(
                    ("components", index, "components"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 5 in length.",
                )
            for number, child in enumerate(children):
                where = ("components", index, "components", number)
                if child.get("type") == 2:
                    if child.get("style") == 5:  # a link button: opens its url, no interaction
                        _validate_link_button(child, where)
                        continue
                    if child.get("style") == 6:
                        continue
                    if child.get("url") is not None:
                        raise _form_error(
                            (*where, "url"),
                            "BUTTON_COMPONENT_INVALID_URL_NOT_ALLOWED",
                            "Only link buttons may have a url",
                        )
                    if len(child.get("label") or "") > 80:
                        raise _form_error(
                            (*where, "label"),
                            "BASE_TYPE_MAX_LENGTH",
                            "Must be 80 or fewer in length.",
                        )
                    if not child.get("custom_id"):
                        raise _form_error(
                            (*where, "custom_id"),
                            "BASE_TYPE_REQUIRED",
                            "This field is required",
                        )
                if child.get("type") == 3 and not 1 <= len(child.get("options") or []) <= 25:
                    raise _form_error(
                        (*where, "options"),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 25 in length.",
                    )
        seen: set[str] = set()
        for component in _walk_components(components):
            custom_id = component.get("custom_id")
            if custom_id is None:
                continue
            if not 1 <= len(custom_id) <= 100:
                raise _form_error(
                    ("components",),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                )
            if custom_id in seen:
                raise _form_error(
                    ("components",),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            seen.add(custom_id)

    @staticmethod
    def _number_components(components: list[JSON]) -> list[JSON]:
        components = copy.deepcopy(components)
        used = {c["id"] for c in _walk_components(components) if "id" in c}
        counter = 0
        for component in _walk_components(components):
            if "id" not in component:
                counter += 1
                while counter in used:
                    counter += 1
                component["id"] = counter
        return components

    def _attachments(
        self,
        channel_id: int,
        body: JSON,
        uploads: dict[str, Upload],
        existing: list[JSON],
        ephemeral: bool,
    ) -> list[JSON]:
        """The attachments a create/edit leaves: kept existing ones and the new files, in the
        order of `attachments` if given (new ones referenced by their files[n] index)."""
        indexed: dict[str, Upload] = {}
        unnamed: list[Upload] = []
        for name, upload in uploads.items():
            found = re.fullmatch(r"files\[(\d+)\]", name)
            if found:
                indexed[found.group(1)] = upload
            else:
                unnamed.append(upload)
        by_id = {a["id"]: a for a in existing}
        if "attachments" not in body or body.get("attachments") is None:
            result = list(existing)
            result += [self._attachment(channel_id, u, {}, ephemeral) for u in indexed.values()]
            result += [self._attachment(channel_id, u, {}, ephemeral) for u in unnamed]
            return result
        result = []
        for index, entry in enumerate(body["attachments"]):
            key = str(entry.get("id"))
            if key in indexed:
                result.append(self._attachment(channel_id, indexed.pop(key), entry, ephemeral))
            elif key in by_id:
                result.append(by_id[key])
            else:
                raise _form_error(
                    ("attachments", index, "id"),
                    "ATTACHMENT_NOT_FOUND",
                    "Attachment data not found",
                )
        return result

    def _attachment(self, channel_id: int, upload: Upload, entry: JSON, ephemeral: bool) -> JSON:
        attachment_id = self.snowflake()
        filename = re.sub(r"\s+", "_", entry.get("filename") or upload.filename or "unknown")
        url = f"{self.url}/attachments/{channel_id}/{attachment_id}/{filename}"
        content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        if content_type.startswith("text/"):
            content_type += "; charset=utf-8"
        attachment: JSON = {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url,
            "content_type": content_type,
        }
        if entry.get("description"):
            attachment["description"] = entry["description"]
        if content_type.startswith("image/"):
            with contextlib.suppress(Exception):
                from PIL import Image

                with Image.open(io.BytesIO(upload.data)) as image:
                    attachment["width"], attachment["height"] = image.size
        if ephemeral:
            attachment["ephemeral"] = True
        self._files[attachment_id] = upload.data
        return attachment

    def _mentions(self, content: str, allowed: Any = None) -> tuple[list[JSON], list[str], bool]:
        """Whom a message notifies: the users, roles and @everyone/@here its content
        mentions, as far as its `allowed_mentions` lets it (absent: all of them)."""
        parse, allowed_users, allowed_roles = self._allowed_mentions(allowed)
        users = []
        for user_id in dict.fromkeys(int(m) for m in re.findall(r"<@!?(\d+)>", content)):
            if user_id in self._users and ("users" in parse or str(user_id) in allowed_users):
                users.append(copy.deepcopy(self._users[user_id]))
        roles = [
            r
            for r in dict.fromkeys(re.findall(r"<@&(\d+)>", content))
            if "roles" in parse or r in allowed_roles
        ]
        everyone = "everyone" in parse and bool(re.search(r"@(everyone|here)\b", content))
        return users, roles, everyone

    @staticmethod
    def _allowed_mentions(allowed: Any) -> tuple[set[str], set[str], set[str]]:
        """(parse, users, roles) of an `allowed_mentions` object, checked as Discord does."""
        if allowed is None:
            return {"users", "roles", "everyone"}, set(), set()
        if not isinstance(allowed, dict):
            raise _form_error(
                ("allowed_mentions",),
                "DICT_TYPE_CONVERT",
                "Only dictionaries may be used in a DictType",
            )
        parse = set(allowed.get("parse") or [])
        users = {str(u) for u in allowed.get("users") or []}
        roles = {str(r) for r in allowed.get("roles") or []}
        if not parse <= {"users", "roles", "everyone"}:
            raise _form_error(
                ("allowed_mentions", "parse"),
                "BASE_TYPE_CHOICES",
                "Value must be one of {'users', 'roles', 'everyone'}.",
            )
        for kind, listed in (("users", users), ("roles", roles)):
            if kind in parse and listed:
                raise _form_error(
                    ("allowed_mentions",),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
                )
            if len(listed) > 100:
                raise _form_error(
                    ("allowed_mentions", kind),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 100 or fewer in length.",
                )
        return parse, users, roles

    def _create_message(
        self,
        channel: JSON,
        body: JSON,
        uploads: dict[str, Upload],
        *,
        author: JSON | None = None,
        interaction: _Interaction | None = None,
        ephemeral: bool = False,
        loading: bool = False,
        followup: bool = False,
    ) -> JSON:
        self._validate_content(body, uploads)
        channel_id = int(channel["id"])
        content = body.get("content") or ""
        if not loading and not (
            content
            or body.get("embeds")
            or uploads
            or body.get("components")
            or body.get("sticker_ids")
            or body.get("poll")
        ):
            raise ApiError(400, "Cannot send an empty message", 50006)
        author = author or self.bot_user
        flags = int(body.get("flags") or 0) & ((1 << 2) | (1 << 12) | (1 << 15))
        if ephemeral:
            flags |= EPHEMERAL
        if loading:
            flags |= LOADING
        mentions, mention_roles, everyone = self._mentions(content, body.get("allowed_mentions"))
        message_id = self.snowflake()
        message: JSON = {
            "type": 0,
            "channel_id": str(channel_id),
            "content": content,
            "attachments": self._attachments(channel_id, body, uploads, [], ephemeral),
            "embeds": [{"type": "rich", **e} for e in body.get("embeds") or []],
            "timestamp": _now(),
            "edited_timestamp": None,
            "flags": flags,
            "components": self._number_components(body.get("components") or []),
            "id": str(message_id),
            "author": copy.deepcopy(author),
            "mentions": mentions,
            "mention_roles": mention_roles,
            "mention_everyone": everyone,
            "pinned": False,
            "tts": bool(body.get("tts")),
        }
        if body.get("nonce") is not None:
            message["nonce"] = body["nonce"]
        reference = body.get("message_reference")
        if reference:
            referenced = self._messages[channel_id].get(int(reference.get("message_id", 0)))
            if referenced is None and reference.get("fail_if_not_exists", True):
                raise _form_error(
                    ("message_reference",),
                    "REPLIES_UNKNOWN_MESSAGE",
                    "Unknown message",
                )
            if referenced is not None:
                message["type"] = 19
                message["message_reference"] = {
                    "type": 0,
                    "channel_id": str(channel_id),
                    "message_id": referenced["id"],
                    **({"guild_id": channel["guild_id"]} if "guild_id" in channel else {}),
                }
                message["referenced_message"] = copy.deepcopy(referenced)
        if interaction is not None:
            self._mark_interaction(message, interaction, followup)
        if ephemeral:
            self._ephemeral[message_id] = message
        else:
            self._messages[channel_id][message_id] = message
            channel["last_message_id"] = str(message_id)
            self._dispatch_message("MESSAGE_CREATE", channel, message)
        return message

    def _mark_interaction(self, message: JSON, interaction: _Interaction, followup: bool) -> None:
        user = interaction.payload.get("member", {}).get("user") or interaction.payload.get("user")
        metadata: JSON = {
            "id": interaction.payload["id"],
            "type": interaction.kind,
            "user": copy.deepcopy(user),
            "authorizing_integration_owners": interaction.payload["authorizing_integration_owners"],
        }
        if interaction.kind == APPLICATION_COMMAND:
            message["type"] = 20
            metadata["name"] = interaction.command_name
            metadata["command_type"] = 1
        if interaction.component_message_id is not None:
            metadata["interacted_message_id"] = str(interaction.component_message_id)
        if followup and interaction.original_id is not None:
            metadata["original_response_message_id"] = str(interaction.original_id)
        message["webhook_id"] = str(self.application_id)
        message["application_id"] = str(self.application_id)
        message["interaction_metadata"] = metadata
        message["interaction"] = {
            "id": interaction.payload["id"],
            "type": interaction.kind,
            "name": interaction.command_name or "",
            "user": copy.deepcopy(user),
        }

    def _edit(
        self, message: JSON, body: JSON, uploads: dict[str, Upload], fill: bool = False
    ) -> JSON:
        """Apply a PATCH (or the filling of a deferred answer) to a stored message."""
        self._validate_content(body, uploads)
        ephemeral = bool(message["flags"] & EPHEMERAL)
        channel_id = int(message["channel_id"])
        updated = copy.deepcopy(message)
        if "content" in body:
            updated["content"] = body["content"] or ""
            mentioned = self._mentions(updated["content"], body.get("allowed_mentions"))
            updated["mentions"], updated["mention_roles"], updated["mention_everyone"] = mentioned
        if "embeds" in body:
            updated["embeds"] = [{"type": "rich", **e} for e in body["embeds"] or []]
        if "components" in body:
            updated["components"] = self._number_components(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            keep = updated["flags"] & (EPHEMERAL | (1 << 15))
            updated["flags"] = keep | (int(body["flags"]) & ((1 << 2) | (1 << 15)))
        if "attachments" in body or uploads:
            updated["attachments"] = self._attachments(
                channel_id, body, uploads, message["attachments"], ephemeral
            )
        if fill:
            updated["flags"] &= ~LOADING
        else:
            updated["edited_timestamp"] = _now()
        if not (
            updated["content"]
            or updated["embeds"]
            or updated["attachments"]
            or updated["components"]
            or updated["flags"] & LOADING
        ):
            raise ApiError(400, "Cannot send an empty message", 50006)
        message.clear()
        message.update(updated)
        if not ephemeral:
            channel = self._channels.get(channel_id)
            if channel is not None:
                self._dispatch_message("MESSAGE_UPDATE", channel, message)
        return message

    def _remove_message(self, message: JSON) -> None:
        message_id = int(message["id"])
        channel_id = int(message["channel_id"])
        self._deleted[message_id] = copy.deepcopy(message)
        if self._ephemeral.pop(message_id, None) is not None:
            return
        self._messages[channel_id].pop(message_id, None)
        channel = self._channels.get(channel_id)
        if channel is not None:
            event: JSON = {"id": str(message_id), "channel_id": str(channel_id)}
            if "guild_id" in channel:
                event["guild_id"] = channel["guild_id"]
            self._dispatch_message("MESSAGE_DELETE", channel, event, is_full=False)

    def _dispatch_message(
        self, event: str, channel: JSON, message: JSON, *, is_full: bool = True
    ) -> None:
        """MESSAGE_* to the sessions with the intent; content hidden without MESSAGE_CONTENT
        except for the bot's own messages, DMs and messages mentioning the bot."""
        guild_id = int(channel["guild_id"]) if "guild_id" in channel else None
        intent = GUILD_MESSAGES if guild_id is not None else DIRECT_MESSAGES
        data = copy.deepcopy(message)
        if is_full and guild_id is not None:
            data["guild_id"] = str(guild_id)
            author_id = int(message["author"]["id"])
            member = self._members[guild_id].get(author_id)
            if member is not None:
                data["member"] = {k: v for k, v in copy.deepcopy(member).items() if k != "user"}
        for session in self._sessions_for(guild_id):
            if not session.intents & intent:
                continue
            payload = data
            if is_full and not self._sees_content(session, message, guild_id):
                payload = {
                    **data,
                    "content": "",
                    "embeds": [],
                    "attachments": [],
                    "components": [],
                }
                payload.pop("poll", None)
            self._emit(session, event, payload)

    def _sees_content(self, session: _Session, message: JSON, guild_id: int | None) -> bool:
        if session.intents & MESSAGE_CONTENT or guild_id is None:
            return True
        if message["author"]["id"] == str(self.bot_id):
            return True
        return any(u["id"] == str(self.bot_id) for u in message.get("mentions", []))
