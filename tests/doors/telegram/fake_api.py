"""A fake Telegram Bot API server for end-to-end tests of the Telegram front end.

`FakeTelegram` is a small aiohttp application on 127.0.0.1 that speaks the Bot API's HTTP
protocol closely enough for the real python-telegram-bot to run against it unchanged: point
`base_url` / `base_file_url` at it and the library's own requests, parsing and error mapping are
exercised. What it covers:

* Transport: `POST|GET /bot<token>/<method>` with JSON, urlencoded or multipart bodies (files,
  `attach://` references); answers `{"ok": true, "result": ...}` or `{"ok": false, "error_code",
  "description", "parameters"}` with the same HTTP status. Method names are case-insensitive as in
  Telegram. `/file/bot<token>/<file_path>` serves uploaded files for `getFile`.
* Updates: `getUpdates` long polling (offset, limit, timeout, allowed_updates, the 409 of a second
  poller) or a webhook (`setWebhook` with secret token; updates are POSTed in order and retried).
* Messages: send / edit / delete of text, photo and document messages with per-chat message ids,
  HTML parse mode turned into text + entities the way Telegram does (so a bot sees what users see),
  inline keyboards (URL buttons checked as Telegram does: http(s) to a host with a dot, or
  tg://; one keeps its text and url only), replies, forum topics (messages in them;
  `createForumTopic` in a forum where the bot is an administrator, its service message
  opening it); every version of an edited message is kept.
* The errors a bot meets in practice: 403 for private chats the user never opened, blocked users
  and groups the bot was removed from; 400 for "message is not modified", missing messages, bad
  HTML, oversized texts and callback data, stale callback/inline query ids; injected 429/5xx
  (`fail`) and latency (`slow`).
* Privacy mode (the default for bots): in groups the bot only receives commands for it and
  replies to its own messages, unless it is an administrator there.

Tests inject what users do (`send_message`, `press`, `inline_query`, `chat_member_update`, ...)
and inspect what the bot did (`calls`, `sent_to`, `messages`, `topics`, `in_topic`,
`answered_callbacks`), waiting with `wait_for` / `wait_calls` since the bot runs concurrently.

Not modelled: Markdown parse modes (the text is stored as sent), media kinds other than photo and
document, albums, polls, reactions, payments, channels, pinning, topic management beyond
creating one (and the check that a topic exists), restricting or banning users, real flood
limits (only injected with `fail`), link previews, fetching file URLs (a placeholder stands
in), my_chat_member on `block`, and update expiry.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import io
import itertools
import json
import mimetypes
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, Self, TypeVar

from aiohttp import ClientError, ClientSession, ClientTimeout, web
from PIL import Image
from yarl import URL

JSON = dict[str, Any]
T = TypeVar("T")

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
# Updates a bot only gets when it asks for them by name in allowed_updates.
_OPT_IN_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
# Bot API parameters that are strings; any other form field is JSON-decoded, because PTB (like
# every client) sends numbers, booleans and objects json.dumps-ed in urlencoded/multipart bodies.
_STRING_FIELDS = frozenset(
    [
        "text",
        "caption",
        "parse_mode",
        "url",
        "secret_token",
        "callback_query_id",
        "inline_query_id",
        "inline_message_id",
        "language_code",
        "description",
        "short_description",
        "next_offset",
        "file_id",
        "photo",
        "document",
        "thumbnail",
        "ip_address",
        "action",
        "business_connection_id",
        "message_effect_id",
    ]
)
_ADMIN_RIGHTS = [
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_pin_messages",
    "can_manage_topics",
]
_TELEGRAM_USER = {"id": 777000, "is_bot": False, "first_name": "Telegram"}


class ApiError(Exception):
    """An error answer, raised by method handlers and sent in the Bot API's error shape."""

    def __init__(self, status: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters

    def body(self) -> JSON:
        body: JSON = {"ok": False, "error_code": self.status, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(what: str) -> ApiError:
    return ApiError(400, f"Bad Request: {what}")


@dataclass
class Call:
    """One request the bot made, as decoded by the fake, and what it was answered."""

    method: str
    params: JSON
    files: dict[str, bytes]
    time: float
    response: JSON | None = None
    status: int = 200
    injected: bool = False  # failed by a fault the test asked for (fail)
    file_names: dict[str, str] = field(default_factory=dict)  # part: the upload's name

    @property
    def ok(self) -> bool:
        return bool(self.response and self.response.get("ok"))

    @property
    def result(self) -> Any:
        return (self.response or {}).get("result")


@dataclass
class _Request:
    params: JSON
    files: dict[str, bytes]
    # part name -> (file name, content type) of uploaded files
    file_info: dict[str, tuple[str, str]]


@dataclass
class _Fault:
    method: str
    status: int
    times: int
    retry_after: int
    description: str | None
    chat_id: int | None


@dataclass
class _File:
    data: bytes
    path: str
    # the PhotoSize list or the Document this upload became; every size's file_id maps here
    photo: list[JSON] | None = None
    document: JSON | None = None
    sizes: dict[str, JSON] = field(default_factory=dict)


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of Telegram's entity offsets and limits."""
    return len(text.encode("utf-16-le")) // 2


_HTML_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_HTML_TOKEN = re.compile(r"<(/?)([^\s>/]*)([^>]*)>|&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);|<")
_HTML_ATTR = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


def parse_html(source: str) -> tuple[str, list[JSON]]:
    """Telegram's HTML parse mode: the plain text and its entities, or the 400 Telegram gives."""
    pieces: list[str] = []
    length = 0
    open_tags: list[tuple[str, int, JSON | None]] = []
    entities: list[JSON] = []
    pos = 0

    def fail(why: str, at: int) -> ApiError:
        offset = len(source[:at].encode())
        return bad_request(f"can't parse entities: {why} at byte offset {offset}")

    def add(text: str) -> None:
        nonlocal length
        pieces.append(text)
        length += utf16_len(text)

    for match in _HTML_TOKEN.finditer(source):
        add(source[pos : match.start()])
        pos = match.end()
        closing, name, attrs, char = match.groups()
        if char is not None:
            if char.startswith("#"):
                add(chr(int(char[2:], 16) if char[1] in "xX" else int(char[1:])))
            else:  # unknown named entities stay as written, as in Telegram
                add(_NAMED_ENTITIES.get(char, match.group(0)))
            continue
        if name is None:
            raise fail("Unclosed start tag", match.start())
        name = name.lower()
        if closing:
            if not open_tags:
                raise fail("Unexpected end tag", match.start())
            tag, start, entity = open_tags.pop()
            if tag != name:
                raise fail(
                    f'Unmatched end tag, expected "</{tag}>", found "</{name}>"', match.start()
                )
            if entity is not None and length > start:
                entities.append({**entity, "offset": start, "length": length - start})
            continue
        attr = {m[0].lower(): m[1] or m[2] or m[3] for m in _HTML_ATTR.findall(attrs)}
        kind = _HTML_TAGS.get(name)
        if kind is None or (name == "span" and attr.get("class") != "tg-spoiler"):
            raise fail(f'Unsupported start tag "{name}"', match.start())
        entity: JSON | None = {"type": kind}
        if name == "a":
            entity["url"] = attr.get("href", "")
        elif name == "tg-emoji":
            entity["custom_emoji_id"] = attr.get("emoji-id", "")
        elif name == "blockquote" and "expandable" in attrs:
            entity["type"] = "expandable_blockquote"
        elif name == "code" and open_tags and open_tags[-1][0] == "pre":
            # <pre><code class="language-x"> is one pre entity with a language
            language = attr.get("class", "").removeprefix("language-")
            if language and open_tags[-1][2] is not None:
                open_tags[-1][2]["language"] = language
            entity = None
        open_tags.append((name, length, entity))
    add(source[pos:])
    if open_tags:
        unclosed = open_tags[-1][0]
        raise bad_request(
            f"can't parse entities: Can't find end tag corresponding to start tag \"{unclosed}\""
        )
    return "".join(pieces), sorted(entities, key=lambda e: (e["offset"], -e["length"]))


def _strip(text: str, entities: list[JSON]) -> tuple[str, list[JSON]]:
    """Telegram trims surrounding whitespace of texts and captions; entities follow the text."""
    stripped = text.strip()
    shift = utf16_len(text[: len(text) - len(text.lstrip())])
    total = utf16_len(stripped)
    kept = []
    for entity in entities:
        start = max(entity["offset"] - shift, 0)
        end = min(entity["offset"] + entity["length"] - shift, total)
        if end > start:
            kept.append({**entity, "offset": start, "length": end - start})
    return stripped, kept


def _member(user: JSON, status: str) -> JSON:
    """A ChatMember of the given status with the fields PTB requires for it."""
    if status == "creator":
        return {"status": status, "user": user, "is_anonymous": False}
    if status == "administrator":
        flags = {"can_be_edited": False, "is_anonymous": False}
        return {"status": status, "user": user} | flags | dict.fromkeys(_ADMIN_RIGHTS, True)
    if status in ("member", "left"):
        return {"status": status, "user": user}
    if status == "kicked":
        return {"status": status, "user": user, "until_date": 0}
    raise ValueError(f"unsupported chat member status {status!r}")


def _inline_markup(markup: Any) -> JSON | None:
    """The inline keyboard a message will carry (reply keyboards are not part of Message)."""
    if not markup:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if not markup.get("inline_keyboard"):
        return None
    rows: list[list[JSON]] = []
    for row in markup["inline_keyboard"]:
        kept: list[JSON] = []
        for button in row:
            if not button.get("text"):
                raise bad_request("can't parse inline keyboard button: Text must be non-empty")
            if len(button) == 1:
                raise bad_request(
                    "can't parse inline keyboard button: "
                    "Text buttons are unallowed in the inline keyboard"
                )
            if button.get("url"):
                # the Bot API reads a button's kind in its order, url first: a URL button
                # carries nothing else (no callback_data: pressing it opens the link in the
                # user's client, and the bot hears nothing of it)
                kept.append({"text": button["text"], "url": _button_url(button["url"])})
                continue
            data = button.get("callback_data")
            if data is not None and not 1 <= len(data.encode()) <= 64:
                raise bad_request("BUTTON_DATA_INVALID")
            kept.append(button)
        rows.append(kept)
    return markup | {"inline_keyboard": rows}


def _button_url(url: Any) -> str:
    """A URL button's address as Telegram takes it: http(s) to a host with a dot (not
    localhost, not a bare name: TDLib's "Wrong HTTP URL"), or tg://."""
    if not isinstance(url, str):
        raise bad_request('can\'t parse inline keyboard button: Field "url" must be of type String')
    wrong = f"inline keyboard button URL '{url}' is invalid"
    parsed = URL(url) if "://" in url else URL("http://" + url)
    if parsed.scheme == "tg":
        return url
    if parsed.scheme not in ("http", "https"):
        raise bad_request(f"{wrong}: Unsupported URL protocol")
    host = parsed.host or ""
    if "." not in host.strip(".") or any(c.isspace() for c in url):
        raise bad_request(f"{wrong}: Wrong HTTP URL")
    return url


def _without(message: JSON, *keys: str) -> JSON:
    return {k: v for k, v in message.items() if k not in keys}


def _update_kind(update: JSON) -> str:
    return next(key for key in update if key != "update_id")


class FakeTelegram:
    """The fake Bot API server and the state of the Telegram world the bot lives in."""

    def __init__(
        self,
        token: str = "123:AAH-canary-token-of-the-fake-bot",
        username: str = "DominoTestBot",
        *,
        first_name: str = "Domino Test Bot",
        privacy_mode: bool = True,
    ) -> None:
        self.token = token
        self.username = username
        self.privacy_mode = privacy_mode
        self.bot_id = int(token.split(":")[0])
        self.bot_user: JSON = {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": first_name,
            "username": username,
        }
        self.calls: list[Call] = []
        self.updates: list[JSON] = []  # every update injected, delivered or not
        self.webhook_deliveries: list[tuple[JSON, int]] = []  # (update, HTTP status; 0 = no answer)
        self.inline_answers: dict[str, JSON] = {}  # inline query id -> answerInlineQuery params
        self.inline_messages: dict[str, JSON] = {}  # inline_message_id -> its state after edits
        self.commands: dict[tuple[str, str], list[JSON]] = {}  # (scope JSON, language) -> list
        self.descriptions: dict[tuple[str, str], str] = {}  # (kind, language) -> text

        self._users: dict[int, JSON] = {}
        self._chats: dict[int, JSON] = {}
        self._admins: dict[int, list[int]] = {}
        self._open: set[int] = set()  # private chats the user started
        self._blocked: set[int] = set()
        self._removed: set[int] = set()  # groups the bot is no longer in
        self._messages: dict[int, dict[int, JSON]] = {}  # chat id -> message id -> message
        self._deleted: dict[tuple[int, int], JSON] = {}
        self._history: dict[tuple[int, int], list[JSON]] = {}  # earlier versions of edited ones
        self._last_id: dict[int, int] = {}
        self._topics: dict[int, list[JSON]] = {}  # chat id -> forum topics the bot created
        self._files: dict[str, _File] = {}
        self._file_numbers = itertools.count(1)
        self._callbacks: dict[str, JSON] = {}  # query id -> {"data", "answer"}
        self._answers: list[JSON] = []
        self._inline_queries: set[str] = set()
        self._query_numbers = itertools.count(4_200_000_000_000_000_001)

        self._update_ids = itertools.count(100_001)
        # when each update was first handed to a getUpdates (time.monotonic): the poller
        # confirms it with its next poll, at once, while the update is still being handled
        self.taken: dict[int, float] = {}
        self._pending: list[JSON] = []  # injected, not yet confirmed (polling) or delivered
        self._allowed: list[str] | None = None
        self._poller = 0  # generation of the current getUpdates, to terminate older ones
        self._update_event = asyncio.Event()
        self._webhook: JSON | None = None
        self._webhook_error: tuple[int, str] | None = None

        self._faults: list[_Fault] = []
        self._delays: dict[str, float] = {}
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None
        self._worker: asyncio.Task[None] | None = None
        self._port = 0
        self._methods: dict[str, Callable[[_Request], Any]] = {
            name.lower(): handler
            for name, handler in {
                "getMe": self._get_me,
                "getUpdates": self._get_updates,
                "setWebhook": self._set_webhook,
                "deleteWebhook": self._delete_webhook,
                "getWebhookInfo": self._get_webhook_info,
                "setMyCommands": self._set_my_commands,
                "getMyCommands": self._get_my_commands,
                "deleteMyCommands": self._delete_my_commands,
                "setMyDescription": self._description_setter("description"),
                "getMyDescription": self._description_getter("description"),
                "setMyShortDescription": self._description_setter("short_description"),
                "getMyShortDescription": self._description_getter("short_description"),
                "sendMessage": self._send_message,
                "sendPhoto": self._send_photo,
                "sendDocument": self._send_document,
                "sendChatAction": self._send_chat_action,
                "editMessageText": self._edit_message_text,
                "editMessageCaption": self._edit_message_caption,
                "editMessageMedia": self._edit_message_media,
                "editMessageReplyMarkup": self._edit_message_reply_markup,
                "deleteMessage": self._delete_message,
                "answerCallbackQuery": self._answer_callback_query,
                "answerInlineQuery": self._answer_inline_query,
                "getChat": self._get_chat,
                "createForumTopic": self._create_forum_topic,
                "getChatMember": self._get_chat_member,
                "getChatAdministrators": self._get_chat_administrators,
                "getFile": self._get_file,
                "close": self._accept,
                "logOut": self._accept,
            }.items()
        }

    # ---- server lifecycle

    async def start(self, port: int = 0) -> None:
        """Serve on ``port`` (0: any free one)."""
        # Telegram takes photos up to 10 MB and documents up to 50 MB.
        app = web.Application(client_max_size=50 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download)
        # Short shutdown: long polls are woken by stop(), nothing else is worth waiting for.
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self._port = self._runner.addresses[0][1]
        self._session = ClientSession()
        self._worker = asyncio.create_task(self._deliver_webhook())

    async def stop(self) -> None:
        self._closing = True
        self._wake()
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
        if self._session is not None:
            await self._session.close()
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
    def base_url(self) -> str:
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.url}/file/bot"

    # ---- the Telegram world: users, chats, what they do

    def user(
        self,
        id: int,
        first_name: str,
        language_code: str | None = "es",
        *,
        username: str | None = None,
        last_name: str | None = None,
    ) -> JSON:
        """A Bot API User (and their private chat with the bot, closed until they write)."""
        user: JSON = {"id": id, "is_bot": False, "first_name": first_name}
        chat: JSON = {"id": id, "type": "private", "first_name": first_name}
        for key, value in (("last_name", last_name), ("username", username)):
            if value is not None:
                user[key] = chat[key] = value
        if language_code is not None:
            user["language_code"] = language_code
        self._users[id] = user
        self._chats[id] = chat
        return copy.deepcopy(user)

    def group(
        self,
        chat_id: int,
        title: str,
        type: str = "supergroup",
        is_forum: bool = False,
        *,
        username: str | None = None,
    ) -> JSON:
        """A group or supergroup the bot is a member of (a public one has a username)."""
        if chat_id >= 0 or type not in ("group", "supergroup"):
            raise ValueError("groups have negative ids and type 'group' or 'supergroup'")
        if is_forum and type != "supergroup":
            raise ValueError("only a supergroup can be a forum")
        chat: JSON = {"id": chat_id, "type": type, "title": title}
        if is_forum:
            chat["is_forum"] = True
        if username is not None:
            chat["username"] = username
        self._chats[chat_id] = chat
        return copy.deepcopy(chat)

    def private(self, user_id: int) -> JSON:
        """The private chat between a known user and the bot."""
        return copy.deepcopy(self._chat(user_id))

    def set_admins(self, chat_id: int, user_ids: Iterable[int]) -> None:
        """The group's administrators; the first one is its creator. May include the bot."""
        self._chat(chat_id)
        self._admins[chat_id] = list(user_ids)

    def open_private(self, user_id: int) -> None:
        """As if the user had pressed Start: the bot may write to them from now on."""
        self._chat(user_id)
        self._open.add(user_id)

    def block(self, user_id: int) -> None:
        self._chat(user_id)
        self._blocked.add(user_id)

    def unblock(self, user_id: int) -> None:
        self._blocked.discard(user_id)

    def remove_bot(self, chat_id: int, by: JSON | int | None = None) -> JSON:
        """The bot is removed from a group: sends answer 403 and a my_chat_member arrives."""
        admins = self._admins.get(chat_id, [])
        old = "administrator" if self.bot_id in admins else "member"
        actor = by if by is not None else (admins[0] if admins else _TELEGRAM_USER)
        return self.chat_member_update(chat_id, actor, old, "left")

    def chat_member_update(
        self,
        chat: JSON | int,
        from_user: JSON | int,
        old_status: str,
        new_status: str,
        member: JSON | int | None = None,
    ) -> JSON:
        """A my_chat_member update (member None = the bot) or a chat_member one; the bot's own
        status also changes what the fake lets it do in that chat."""
        chat_d = self._chat(chat)
        target = self.bot_user if member is None else self._user(member)
        payload = {
            "chat": chat_d,
            "from": self._user(from_user),
            "date": int(time.time()),
            "old_chat_member": _member(target, old_status),
            "new_chat_member": _member(target, new_status),
        }
        if target["id"] != self.bot_id:
            return self._inject("chat_member", payload)
        if chat_d["type"] == "private":
            if new_status == "kicked":
                self._blocked.add(chat_d["id"])
            else:
                self._blocked.discard(chat_d["id"])
                self._open.add(chat_d["id"])
        elif new_status in ("left", "kicked"):
            self._removed.add(chat_d["id"])
        else:
            self._removed.discard(chat_d["id"])
        return self._inject("my_chat_member", payload)

    def send_message(
        self,
        chat: JSON | int,
        from_user: JSON | int,
        text: str,
        message_thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> JSON:
        """A user writes in a chat. Stored always; delivered if privacy mode lets it through."""
        chat_d = self._chat(chat)
        message: JSON = {
            "message_id": self._next_message_id(chat_d["id"]),
            "from": self._user(from_user),
            "chat": chat_d,
            "date": int(time.time()),
            "text": text,
        }
        if text.startswith("/"):
            # CommandHandler only recognises commands marked by this entity, as Telegram sends it.
            command = text.split(maxsplit=1)[0]
            message["entities"] = [
                {"type": "bot_command", "offset": 0, "length": utf16_len(command)}
            ]
        self._set_thread(message, chat_d, message_thread_id)
        if reply_to is not None:
            original = self._messages.get(chat_d["id"], {}).get(reply_to)
            if original is None:
                raise ValueError(f"no message {reply_to} in chat {chat_d['id']} to reply to")
            message["reply_to_message"] = _without(original, "reply_to_message")
        self._store(message)
        if chat_d["type"] == "private":  # writing to the bot opens (and unblocks) the chat
            self._open.add(chat_d["id"])
            self._blocked.discard(chat_d["id"])
        if self._reaches_bot(message):
            self._inject("message", message)
        return copy.deepcopy(message)

    def press(
        self,
        chat: JSON | int,
        from_user: JSON | int,
        message_id: int,
        data: str,
        *,
        strict: bool = True,
    ) -> JSON:
        """A user presses an inline button of a bot message. With strict, the button must be on
        the message as it is now (a test can't press a button the bot already took away)."""
        chat_d = self._chat(chat)
        message = self._messages.get(chat_d["id"], {}).get(message_id)
        if message is None or message["from"]["id"] != self.bot_id:
            raise ValueError(f"no bot message {message_id} in chat {chat_d['id']}")
        keyboard = message.get("reply_markup", {}).get("inline_keyboard", [])
        if strict and data not in [
            button.get("callback_data") for row in keyboard for button in row
        ]:
            raise ValueError(f"message {message_id} has no button with callback_data {data!r}")
        query_id = str(next(self._query_numbers))
        self._callbacks[query_id] = {"data": data, "answer": None}
        return self._inject(
            "callback_query",
            {
                "id": query_id,
                "from": self._user(from_user),
                "message": message,
                "chat_instance": str(abs(chat_d["id"]) * 7919),
                "data": data,
            },
        )

    def inline_query(
        self, from_user: JSON | int, query: str, chat_type: str = "supergroup", offset: str = ""
    ) -> JSON:
        query_id = str(next(self._query_numbers))
        self._inline_queries.add(query_id)
        payload = {"id": query_id, "from": self._user(from_user), "query": query}
        return self._inject("inline_query", payload | {"offset": offset, "chat_type": chat_type})

    # ---- what the bot did

    def calls_to(self, method: str) -> list[Call]:
        return [call for call in self.calls if call.method.lower() == method.lower()]

    def sent_to(self, chat_id: int) -> list[JSON]:
        """Messages the bot sent to a chat that are still there, oldest first, as edited."""
        return [m for m in self.messages(chat_id) if m["from"]["id"] == self.bot_id]

    def topics(self, chat_id: int) -> list[JSON]:
        """The forum topics the bot created in a chat, oldest first: their ForumTopic."""
        return copy.deepcopy(self._topics.get(chat_id, []))

    def in_topic(self, chat_id: int, topic: int) -> list[JSON]:
        """Messages the bot sent in a forum topic that are still there, oldest first."""
        return [m for m in self.sent_to(chat_id) if m.get("message_thread_id") == topic]

    def messages(self, chat_id: int) -> list[JSON]:
        """Every message in the chat (users' and the bot's) that is not deleted, oldest first."""
        return copy.deepcopy(list(self._messages.get(chat_id, {}).values()))

    def message(self, chat_id: int, message_id: int) -> JSON:
        return copy.deepcopy(self._messages[chat_id][message_id])

    def edits(self, chat_id: int, message_id: int) -> list[JSON]:
        """Earlier versions of an edited message, oldest first."""
        return copy.deepcopy(self._history.get((chat_id, message_id), []))

    def was_deleted(self, chat_id: int, message_id: int) -> bool:
        return (chat_id, message_id) in self._deleted

    def file_bytes(self, file_id: str) -> bytes:
        """The bytes the bot uploaded for a photo size or document."""
        return self._files[file_id].data

    def answered_callbacks(self) -> list[JSON]:
        """Answers to callback queries in order: {"id", "data", "text", "show_alert", "url"}."""
        return copy.deepcopy(self._answers)

    def pending_updates(self) -> list[JSON]:
        return copy.deepcopy(self._pending)

    @property
    def webhook_url(self) -> str:
        return self._webhook["url"] if self._webhook else ""

    # ---- faults

    def fail(
        self,
        method: str,
        status: int = 429,
        times: int = 1,
        retry_after: int = 1,
        description: str | None = None,
        chat_id: int | None = None,
    ) -> None:
        """The next `times` calls of `method` (to `chat_id` only, if given) answer this error."""
        self._faults.append(
            _Fault(method.lower(), status, times, retry_after, description, chat_id)
        )

    def slow(self, method: str, seconds: float) -> None:
        """Every answer to `method` ("*": to any method) is delayed; 0 makes it fast again."""
        if seconds:
            self._delays[method.lower()] = seconds
        else:
            self._delays.pop(method.lower(), None)

    def calm(self) -> None:
        """No more injected failures or delays."""
        self._faults.clear()
        self._delays.clear()

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
                recent = [
                    f"{c.method}->{c.status}"
                    for c in self.calls
                    if c.method.lower() != "getupdates"
                ][-10:]
                raise AssertionError(
                    f"timed out after {timeout}s waiting for "
                    f"{what or getattr(predicate, '__qualname__', repr(predicate))}; "
                    f"last calls: {', '.join(recent) or 'none'}; "
                    f"undelivered updates: {len(self._pending)}"
                )
            await asyncio.sleep(0.02)

    async def wait_calls(self, method: str, count: int = 1, timeout: float = 10.0) -> list[Call]:
        """Wait until the bot made at least `count` calls of `method`; return them all."""

        def enough() -> list[Call]:
            calls = self.calls_to(method)
            return calls if len(calls) >= count else []

        return await self.wait_for(enough, timeout, f"{count} call(s) of {method}")

    # ---- HTTP

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response(ApiError(401, "Unauthorized").body(), status=401)
        method = request.match_info["method"]
        call = Call(method, {}, {}, time.monotonic())
        try:
            incoming = await self._read(request)
            call.params, call.files = incoming.params, incoming.files
            call.file_names = {part: name for part, (name, _) in incoming.file_info.items()}
            handler = self._methods.get(method.lower())
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            if delay := self._delays.get(method.lower(), self._delays.get("*")):
                await asyncio.sleep(delay)
            try:
                self._inject_fault(method.lower(), incoming.params)
            except ApiError:
                call.injected = True
                raise
            body: JSON = {"ok": True, "result": await handler(incoming)}
            status = 200
        except ApiError as error:
            body, status = error.body(), error.status
        call.response, call.status = body, status
        self.calls.append(call)
        return web.json_response(body, status=status)

    @staticmethod
    async def _read(request: web.Request) -> _Request:
        incoming = _Request({}, {}, {})
        fields: list[tuple[str, Any]] = list(request.query.items())
        if request.method == "POST" and request.can_read_body:
            if request.content_type == "application/json":
                try:
                    body = await request.json()
                except ValueError as error:
                    raise bad_request(f"can't parse JSON: {error}") from error
                if not isinstance(body, dict):
                    raise bad_request("the JSON body must be an object")
                incoming.params.update(body)
            else:  # urlencoded or multipart; aiohttp parses both
                for name, value in (await request.post()).items():
                    if isinstance(value, web.FileField):
                        incoming.files[name] = value.file.read()
                        incoming.file_info[name] = (value.filename, value.content_type)
                    else:
                        fields.append((name, value))
        for name, value in fields:
            text = value.decode() if isinstance(value, bytes) else value
            if name in _STRING_FIELDS:
                incoming.params[name] = text
            else:
                try:
                    incoming.params[name] = json.loads(text)
                except ValueError:  # e.g. chat_id="@channel"
                    incoming.params[name] = text
        return incoming

    async def _download(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            raise web.HTTPUnauthorized()
        path = request.match_info["path"]
        for stored in self._files.values():
            if stored.path == path:
                return web.Response(body=stored.data)
        raise web.HTTPNotFound()

    def _inject_fault(self, method: str, params: JSON) -> None:
        for fault in self._faults:
            if fault.method != method or fault.times <= 0:
                continue
            if fault.chat_id is not None and params.get("chat_id") != fault.chat_id:
                continue
            fault.times -= 1
            if fault.status == 429:
                raise ApiError(
                    429,
                    fault.description or f"Too Many Requests: retry after {fault.retry_after}",
                    {"retry_after": fault.retry_after},
                )
            phrase = HTTPStatus(fault.status).phrase
            raise ApiError(fault.status, fault.description or phrase)

    # ---- updates

    def _inject(self, kind: str, payload: JSON) -> JSON:
        # A snapshot: later edits of a stored message must not change an update already queued.
        update = {"update_id": next(self._update_ids), kind: copy.deepcopy(payload)}
        self.updates.append(update)
        self._pending.append(update)
        self._wake()
        return copy.deepcopy(payload)

    def _wake(self) -> None:
        self._update_event.set()
        self._update_event = asyncio.Event()

    def _deliverable(self) -> list[JSON]:
        """Pending updates the bot asked for; the others are dropped, as Telegram does."""
        allowed = set(self._allowed or ())

        def wanted(update: JSON) -> bool:
            kind = _update_kind(update)
            return kind in allowed if allowed else kind not in _OPT_IN_UPDATES

        self._pending = [update for update in self._pending if wanted(update)]
        return self._pending

    def _reaches_bot(self, message: JSON) -> bool:
        chat = message["chat"]
        if chat["type"] == "private":
            return True
        if chat["id"] in self._removed:
            return False
        if not self.privacy_mode or self.bot_id in self._admins.get(chat["id"], ()):
            return True
        text = message.get("text", "")
        if text.startswith("/"):
            addressee = text.split(maxsplit=1)[0].partition("@")[2]
            return not addressee or addressee.lower() == self.username.lower()
        reply = message.get("reply_to_message")
        return bool(reply and reply["from"]["id"] == self.bot_id)

    async def _get_updates(self, req: _Request) -> list[JSON]:
        if self._webhook:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        params = req.params
        offset = int(params.get("offset") or 0)
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        timeout = float(params.get("timeout") or 0)
        if "allowed_updates" in params:
            self._allowed = list(params["allowed_updates"])
        # A new poll terminates the previous one, as Telegram does for two bot instances.
        self._poller += 1
        me = self._poller
        self._wake()
        if offset > 0:
            self._pending = [u for u in self._pending if u["update_id"] >= offset]
        elif offset < 0:
            self._pending = self._pending[offset:]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            event = self._update_event
            if me != self._poller:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )
            ready = self._deliverable()
            remaining = deadline - loop.time()
            if ready or self._closing or remaining <= 0:
                now = time.monotonic()
                for update in ready[:limit]:
                    self.taken.setdefault(update["update_id"], now)
                return ready[:limit]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    async def _deliver_webhook(self) -> None:
        """POST pending updates to the webhook one at a time, oldest first, retrying failures."""
        while not self._closing:
            event = self._update_event
            if self._webhook and self._deliverable():
                update = self._pending[0]
                if await self._post(self._webhook, update):
                    with contextlib.suppress(ValueError):
                        self._pending.remove(update)
                else:
                    await asyncio.sleep(0.2)  # Telegram backs off too, more slowly
                continue
            await event.wait()

    async def _post(self, webhook: JSON, update: JSON) -> bool:
        assert self._session is not None
        headers = {}
        if webhook.get("secret_token"):
            headers["X-Telegram-Bot-Api-Secret-Token"] = webhook["secret_token"]
        try:
            async with self._session.post(
                webhook["url"], json=update, headers=headers, timeout=ClientTimeout(total=5)
            ) as response:
                status, reason = response.status, response.reason
        except (ClientError, TimeoutError) as error:
            self.webhook_deliveries.append((update, 0))
            self._webhook_error = (int(time.time()), f"Connection failed: {error}")
            return False
        self.webhook_deliveries.append((update, status))
        if 200 <= status < 300:
            return True
        self._webhook_error = (
            int(time.time()),
            f"Wrong response from the webhook: {status} {reason}",
        )
        return False

    async def _set_webhook(self, req: _Request) -> bool:
        params = req.params
        url = params.get("url") or ""
        if not url:
            return await self._delete_webhook(req)
        parsed = URL(url)
        if parsed.scheme != "https" and parsed.host not in ("127.0.0.1", "localhost"):
            # Telegram wants HTTPS; plain HTTP is allowed here only for local test endpoints.
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        secret = params.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret):
            raise bad_request("secret token contains unallowed characters")
        if params.get("drop_pending_updates"):
            self._pending.clear()
        if "allowed_updates" in params:
            self._allowed = list(params["allowed_updates"])
        self._webhook = {
            "url": url,
            "secret_token": secret,
            "max_connections": params.get("max_connections", 40),
        }
        self._webhook_error = None
        self._wake()
        return True

    async def _delete_webhook(self, req: _Request) -> bool:
        self._webhook = None
        if req.params.get("drop_pending_updates"):
            self._pending.clear()
        self._wake()
        return True

    async def _get_webhook_info(self, req: _Request) -> JSON:
        info: JSON = {
            "url": self.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(self._deliverable()),
        }
        if self._webhook:
            info["max_connections"] = self._webhook["max_connections"]
            info["ip_address"] = "127.0.0.1"
            if self._allowed is not None:
                info["allowed_updates"] = self._allowed
            if self._webhook_error:
                info["last_error_date"], info["last_error_message"] = self._webhook_error
        return info

    # ---- bot settings

    async def _get_me(self, req: _Request) -> JSON:
        return self.bot_user | {
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": True,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    @staticmethod
    def _commands_key(params: JSON) -> tuple[str, str]:
        scope = params.get("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), params.get("language_code") or ""

    async def _set_my_commands(self, req: _Request) -> bool:
        commands = req.params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request("commands must be a list of at most 100 BotCommand")
        for command in commands:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", str(command.get("command", ""))):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(command.get("description", "")) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[self._commands_key(req.params)] = commands
        return True

    async def _get_my_commands(self, req: _Request) -> list[JSON]:
        return self.commands.get(self._commands_key(req.params), [])

    async def _delete_my_commands(self, req: _Request) -> bool:
        self.commands.pop(self._commands_key(req.params), None)
        return True

    def _description_setter(self, kind: str) -> Callable[[_Request], Any]:
        async def setter(req: _Request) -> bool:
            key = (kind, req.params.get("language_code") or "")
            if text := req.params.get(kind):
                self.descriptions[key] = text
            else:
                self.descriptions.pop(key, None)
            return True

        return setter

    def _description_getter(self, kind: str) -> Callable[[_Request], Any]:
        async def getter(req: _Request) -> JSON:
            key = (kind, req.params.get("language_code") or "")
            return {kind: self.descriptions.get(key, "")}

        return getter

    async def _accept(self, req: _Request) -> bool:
        return True

    # ---- chats

    def _chat(self, chat: JSON | int) -> JSON:
        chat_id = chat["id"] if isinstance(chat, dict) else chat
        if chat_id not in self._chats:
            raise KeyError(f"unknown chat {chat_id}: create it with user() or group() first")
        return self._chats[chat_id]

    def _user(self, user: JSON | int) -> JSON:
        user_id = user["id"] if isinstance(user, dict) else user
        if user_id == self.bot_id:
            return self.bot_user
        if user_id == _TELEGRAM_USER["id"]:
            return _TELEGRAM_USER
        if user_id not in self._users:
            raise KeyError(f"unknown user {user_id}: create it with user() first")
        return self._users[user_id]

    def _known_chat(self, params: JSON) -> JSON:
        chat_id = params.get("chat_id")
        if chat_id is None:
            raise bad_request("chat_id is empty")
        if not isinstance(chat_id, int) or chat_id not in self._chats:
            raise bad_request("chat not found")
        return self._chats[chat_id]

    def _writable_chat(self, params: JSON, *, new_message: bool) -> JSON:
        """The target chat, or the 403 Telegram answers when the bot may not write there."""
        chat = self._known_chat(params)
        if chat["type"] != "private":
            if chat["id"] in self._removed:
                raise ApiError(403, f"Forbidden: bot was kicked from the {chat['type']} chat")
        elif chat["id"] in self._blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        elif new_message and chat["id"] not in self._open:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    async def _get_chat(self, req: _Request) -> JSON:
        chat = self._known_chat(req.params)
        # ChatFullInfo: fields PTB requires beyond Chat's.
        kinds = (
            "unlimited_gifts limited_gifts unique_gifts premium_subscription gifts_from_channels"
        )
        gifts = dict.fromkeys(kinds.split(), False)
        return chat | {"accent_color_id": 0, "max_reaction_count": 11, "accepted_gift_types": gifts}

    async def _create_forum_topic(self, req: _Request) -> JSON:
        """A topic of a forum supergroup, made by the bot as an administrator allowed to
        manage topics; its id is that of the service message that opens it."""
        chat = self._writable_chat(req.params, new_message=True)
        if not chat.get("is_forum"):
            raise bad_request("the chat is not a forum")
        if self.bot_id not in self._admins.get(chat["id"], ()):
            raise bad_request("not enough rights to create a topic")
        name = req.params.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 128:
            raise bad_request("TOPIC_NAME_INVALID")
        topic: JSON = {
            "message_thread_id": self._next_message_id(chat["id"]),
            "name": name,
            "icon_color": req.params.get("icon_color", 0x6FB9F0),
        }
        created = _without(topic, "message_thread_id")
        self._store(
            {
                "message_id": topic["message_thread_id"],
                "from": self.bot_user,
                "chat": chat,
                "date": int(time.time()),
                "message_thread_id": topic["message_thread_id"],
                "is_topic_message": True,
                "forum_topic_created": created,
            }
        )
        self._topics.setdefault(chat["id"], []).append(topic)
        return copy.deepcopy(topic)

    def _status(self, chat: JSON, user_id: int) -> str:
        if chat["type"] == "private":
            return "member"
        if user_id == self.bot_id and chat["id"] in self._removed:
            return "left"
        admins = self._admins.get(chat["id"], [])
        if admins and admins[0] == user_id:
            return "creator"
        return "administrator" if user_id in admins else "member"

    async def _get_chat_member(self, req: _Request) -> JSON:
        chat = self._known_chat(req.params)
        try:
            user = self._user(int(req.params.get("user_id", 0)))
        except KeyError:
            raise bad_request("user not found") from None
        return _member(user, self._status(chat, user["id"]))

    async def _get_chat_administrators(self, req: _Request) -> list[JSON]:
        chat = self._known_chat(req.params)
        if chat["type"] == "private":
            raise bad_request("there are no administrators in the private chat")
        admins = self._admins.get(chat["id"], [])
        return [_member(self._user(uid), self._status(chat, uid)) for uid in admins]

    # ---- messages

    def _next_message_id(self, chat_id: int) -> int:
        # One sequence per chat shared by users and the bot, as in groups and private chats.
        self._last_id[chat_id] = self._last_id.get(chat_id, 999) + 1
        return self._last_id[chat_id]

    def _store(self, message: JSON) -> None:
        self._messages.setdefault(message["chat"]["id"], {})[message["message_id"]] = message

    @staticmethod
    def _set_thread(message: JSON, chat: JSON, thread_id: int | None) -> None:
        if thread_id is not None:
            message["message_thread_id"] = thread_id
            if chat.get("is_forum"):
                message["is_topic_message"] = True

    @staticmethod
    def _formatted(params: JSON, key: str, entities_key: str, limit: int) -> JSON:
        """Text or caption as Telegram stores it: HTML parsed, trimmed, length-checked."""
        source = params.get(key) or ""
        entities = params.get(entities_key) or []
        if entities:
            text = source
        elif params.get("parse_mode", "").upper() == "HTML":
            text, entities = parse_html(source)
        else:  # Markdown modes are not parsed: the text is kept as sent
            text = source
        text, entities = _strip(text, entities)
        what = "text" if key == "text" else "caption"
        if utf16_len(text) > limit:
            raise bad_request(
                f"message {what} is too long" if what == "caption" else "message is too long"
            )
        if not text:
            if what == "text":
                raise bad_request("message text is empty")
            return {}
        return {key: text, entities_key: entities} if entities else {key: text}

    def _reply_target(self, chat: JSON, params: JSON) -> JSON | None:
        reply = params.get("reply_parameters")
        if reply is None and params.get("reply_to_message_id") is not None:
            reply = {"message_id": params["reply_to_message_id"]}
        if not reply:
            return None
        original = self._messages.get(chat["id"], {}).get(reply.get("message_id"))
        if original is None:
            if reply.get("allow_sending_without_reply") or params.get(
                "allow_sending_without_reply"
            ):
                return None
            raise bad_request("message to be replied not found")
        return _without(original, "reply_to_message")

    def _send(self, params: JSON, content: Callable[[], JSON]) -> JSON:
        """Checks shared by all send methods, then the new message, stored and returned."""
        chat = self._writable_chat(params, new_message=True)
        markup = _inline_markup(params.get("reply_markup"))
        reply = self._reply_target(chat, params)
        message: JSON = {"message_id": 0, "from": self.bot_user, "chat": chat, "date": 0}
        message |= content()
        message["message_id"] = self._next_message_id(chat["id"])
        message["date"] = int(time.time())
        self._set_thread(message, chat, params.get("message_thread_id"))
        if reply is not None:
            message["reply_to_message"] = reply
        if markup is not None:
            message["reply_markup"] = markup
        if params.get("protect_content"):
            message["has_protected_content"] = True
        self._store(message)
        return message

    async def _send_message(self, req: _Request) -> JSON:
        return self._send(req.params, lambda: self._formatted(req.params, "text", "entities", 4096))

    async def _send_photo(self, req: _Request) -> JSON:
        def content() -> JSON:
            photo = self._media(req, req.params.get("photo"), "photo", "photo")
            caption = self._formatted(req.params, "caption", "caption_entities", 1024)
            return {"photo": photo} | caption

        return self._send(req.params, content)

    async def _send_document(self, req: _Request) -> JSON:
        def content() -> JSON:
            document = self._media(req, req.params.get("document"), "document", "document")
            caption = self._formatted(req.params, "caption", "caption_entities", 1024)
            return {"document": document} | caption

        return self._send(req.params, content)

    async def _send_chat_action(self, req: _Request) -> bool:
        self._writable_chat(req.params, new_message=True)
        return True

    # ---- files

    def _media(self, req: _Request, value: Any, part: str, kind: str) -> Any:
        """The PhotoSize list or Document for an upload, an attach:// part or a file_id/URL."""
        if isinstance(value, str) and value.startswith("attach://"):
            part = value.removeprefix("attach://")
            if part not in req.files:
                raise bad_request(f"wrong HTTP URL specified: no file part {part!r}")
            value = None
        if value is None and part in req.files:
            filename, content_type = req.file_info.get(part, (part, ""))
            return self._upload(req.files[part], kind, filename, content_type)
        if not isinstance(value, str) or not value:
            raise bad_request(f"there is no {kind} in the request")
        if value in self._files:
            stored = self._files[value]
            found = stored.photo if kind == "photo" else stored.document
            if found is None:
                other = "Document" if kind == "photo" else "Photo"
                raise bad_request(
                    f"type of file mismatch: can't use file of type {other} as {kind}"
                )
            return copy.deepcopy(found)
        if value.startswith(("http://", "https://")):
            # The fake can't fetch URLs: a placeholder stands for whatever is there.
            return self._register(b"", kind, value.rsplit("/", 1)[-1], "", (320, 320))
        raise bad_request("wrong file identifier/HTTP URL specified")

    def _upload(self, data: bytes, kind: str, filename: str, content_type: str) -> Any:
        if not data:
            raise bad_request(f"file must be non-empty: {kind}")
        size = None
        if kind == "photo":
            try:
                with Image.open(io.BytesIO(data)) as image:
                    size = image.size
            except Exception:
                raise bad_request("IMAGE_PROCESS_FAILED") from None
            width, height = size
            if width + height > 10000 or max(size) > 20 * min(size):
                raise bad_request("PHOTO_INVALID_DIMENSIONS")
        return self._register(data, kind, filename, content_type, size)

    def _register(
        self,
        data: bytes,
        kind: str,
        filename: str,
        content_type: str,
        size: tuple[int, int] | None,
    ) -> Any:
        number = next(self._file_numbers)
        if kind == "document":
            mime = content_type or mimetypes.guess_type(filename)[0] or "application/octet-stream"
            extension = mimetypes.guess_extension(mime) or ""
            document = {
                "file_id": f"BQACAgQAAxkDAAI{number:06d}",
                "file_unique_id": f"AgAD{number:06d}",
                "file_name": filename,
                "mime_type": mime,
                "file_size": len(data),
            }
            stored = _File(data, f"documents/file_{number}{extension}", document=document)
            stored.sizes[document["file_id"]] = document
            self._files[document["file_id"]] = stored
            return copy.deepcopy(document)
        # Telegram keeps a photo in several sizes, each side at most 90, 320, 800, 1280 px.
        assert size is not None
        width, height = size
        photo: list[JSON] = []
        for tag, limit in zip("smxy", (90, 320, 800, 1280), strict=True):
            scale = min(1.0, limit / max(width, height))
            photo.append(
                {
                    "file_id": f"AgACAgQAAxkDAAI{number:06d}{tag}",
                    "file_unique_id": f"AQAD{number:06d}{tag}",
                    "width": max(1, round(width * scale)),
                    "height": max(1, round(height * scale)),
                }
            )
            if scale == 1.0:
                break
        photo[-1]["file_size"] = len(data)
        stored = _File(data, f"photos/file_{number}.jpg", photo=photo)
        for photo_size in photo:
            stored.sizes[photo_size["file_id"]] = photo_size
            self._files[photo_size["file_id"]] = stored
        return copy.deepcopy(photo)

    async def _get_file(self, req: _Request) -> JSON:
        file_id = req.params.get("file_id", "")
        if file_id not in self._files:
            raise bad_request("invalid file_id")
        stored = self._files[file_id]
        described = stored.sizes[file_id]
        return {
            "file_id": file_id,
            "file_unique_id": described["file_unique_id"],
            "file_size": len(stored.data),
            "file_path": stored.path,
        }

    # ---- edits and deletes

    def _edit(self, req: _Request, content: Callable[[JSON], JSON], drop: tuple[str, ...]) -> Any:
        """Apply an edit: `content(current)` gives the new fields, `drop` the ones replaced.
        Without reply_markup the keyboard goes away, as in Telegram."""
        params = req.params
        markup = _inline_markup(params.get("reply_markup"))
        if params.get("inline_message_id"):
            current = self.inline_messages.get(params["inline_message_id"], {})
        else:
            chat = self._writable_chat(params, new_message=False)
            current = self._messages.get(chat["id"], {}).get(params.get("message_id"))
            if current is None:
                raise bad_request("message to edit not found")
            if current["from"]["id"] != self.bot_id:
                raise bad_request("message can't be edited")
        new = _without(current, "reply_markup", *drop) | content(current)
        if markup is not None:
            new["reply_markup"] = markup
        if _without(new, "edit_date") == _without(current, "edit_date"):
            raise bad_request(NOT_MODIFIED)
        new["edit_date"] = int(time.time())
        if params.get("inline_message_id"):
            self.inline_messages[params["inline_message_id"]] = new
            return True  # Telegram has no Message to give back for inline messages
        key = (new["chat"]["id"], new["message_id"])
        self._history.setdefault(key, []).append(current)
        self._store(new)
        return new

    async def _edit_message_text(self, req: _Request) -> Any:
        def content(current: JSON) -> JSON:
            if current and "text" not in current:
                raise bad_request("there is no text in the message to edit")
            return self._formatted(req.params, "text", "entities", 4096)

        return self._edit(req, content, ("text", "entities"))

    async def _edit_message_caption(self, req: _Request) -> Any:
        def content(current: JSON) -> JSON:
            if current and "photo" not in current and "document" not in current:
                raise bad_request("there is no caption in the message to edit")
            return self._formatted(req.params, "caption", "caption_entities", 1024)

        return self._edit(req, content, ("caption", "caption_entities"))

    async def _edit_message_media(self, req: _Request) -> Any:
        media = req.params.get("media")
        if not isinstance(media, dict) or media.get("type") not in ("photo", "document"):
            raise bad_request("can't parse InputMedia: only photo and document are supported")

        def content(current: JSON) -> JSON:
            kind = media["type"]
            new_media = self._media(req, media.get("media"), kind, kind)
            return {kind: new_media} | self._formatted(media, "caption", "caption_entities", 1024)

        drop = ("text", "entities", "photo", "document", "caption", "caption_entities")
        return self._edit(req, content, drop)

    async def _edit_message_reply_markup(self, req: _Request) -> Any:
        return self._edit(req, lambda current: {}, ())

    async def _delete_message(self, req: _Request) -> bool:
        chat = self._writable_chat(req.params, new_message=False)
        message_id = req.params.get("message_id")
        message = self._messages.get(chat["id"], {}).get(message_id)
        if message is None:
            raise bad_request("message to delete not found")
        own = message["from"]["id"] == self.bot_id
        # Others' messages: in private chats always, in groups only as an administrator.
        if (
            not own
            and chat["type"] != "private"
            and self.bot_id not in self._admins.get(chat["id"], ())
        ):
            raise bad_request("message can't be deleted")
        self._deleted[(chat["id"], message_id)] = self._messages[chat["id"]].pop(message_id)
        return True

    # ---- queries

    async def _answer_callback_query(self, req: _Request) -> bool:
        query_id = req.params.get("callback_query_id", "")
        pressed = self._callbacks.get(query_id)
        if pressed is None or pressed["answer"] is not None:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        answer = {
            "id": query_id,
            "data": pressed["data"],
            "text": req.params.get("text"),
            "show_alert": bool(req.params.get("show_alert", False)),
            "url": req.params.get("url"),
        }
        pressed["answer"] = answer
        self._answers.append(answer)
        return True

    async def _answer_inline_query(self, req: _Request) -> bool:
        query_id = req.params.get("inline_query_id", "")
        if query_id not in self._inline_queries or query_id in self.inline_answers:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        results = req.params.get("results")
        if not isinstance(results, list):
            raise bad_request("results must be a list of InlineQueryResult")
        if len(results) > 50:
            raise bad_request("RESULTS_TOO_MUCH")
        ids = [result.get("id") for result in results]
        if len(set(ids)) != len(ids):
            raise bad_request("RESULT_ID_DUPLICATE")
        if not all(result.get("type") and result.get("id") for result in results):
            raise bad_request("can't parse inline query result: type and id are required")
        self.inline_answers[query_id] = req.params
        return True
