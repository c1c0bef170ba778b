"""Settings from the environment and ``.env`` (pydantic-settings): tokens, database,
the platforms' addresses. A broken ``.env`` stops the program with one clear line.

The tokens never reach a log line: :class:`HideSecrets`, on every log handler, writes
each as its last four characters (the libraries log URLs with the Telegram token in
them, and errors that quote it)."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from urllib.parse import quote, urlsplit

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.doors.person_names import name_refusal
from lang import LANGUAGES

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# A Telegram bot token: the bot's id, a colon, its secret (BotFather's "123456789:AAF...")
TELEGRAM_TOKEN = re.compile(r"[0-9]{1,20}:[A-Za-z0-9_-]{1,200}")
# What a Discord token can be at all: printable ASCII without spaces
DISCORD_TOKEN = re.compile(r"[!-~]{1,500}")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    telegram_token: str = ""
    discord_token: str = ""
    database_url: str = ""
    telegram_base_url: str = ""
    telegram_base_file_url: str = ""
    # Webhook mode when the URL is set (else long polling).
    telegram_webhook_url: str = ""
    telegram_webhook_secret: str = ""
    # the webhook's listener: this machine only, behind the https proxy that reaches it;
    # 0.0.0.0 (every interface) only when asked for
    telegram_webhook_listen: str = "127.0.0.1"
    telegram_webhook_port: int = Field(default=8443, ge=1, le=65535)
    telegram_webhook_path: str = ""
    telegram_poll_interval: float = Field(default=0.0, ge=0)
    telegram_poll_timeout: int = Field(default=10, ge=0, le=60)
    # Telegram's limits: 30 messages a second in all, 20 a minute in one group.
    telegram_overall_rate: float = Field(default=30, gt=0)
    telegram_group_rate: float = Field(default=20, gt=0)
    discord_api_base_url: str = ""
    discord_gateway_url: str = ""
    # Commands synced to these servers only (at once, for development); else globally.
    discord_guild_ids: str = ""
    # This process runs shards SHARD_IDS of SHARD_COUNT (unset: Discord's recommendation).
    shard_count: int | None = Field(default=None, ge=1, le=100000)
    shard_ids: str = ""
    console_name: str = Field(default="", description="who you are in the console room")
    console_language: str = "es"
    log_level: str = "WARNING"
    # the operator's view (/healthz, /metrics; bot/doors/ops): this machine only by
    # default, behind a proxy that keeps /metrics from the public; OPS_PORT=off: none
    ops_host: str = "127.0.0.1"
    ops_port: int | None = 9090
    # the libraries' requests and answers at DEBUG: they hold the private hands (a hand's
    # caption, its buttons), so they are logged only when asked for (docs/deploy.md)
    log_wire: bool = False

    # ----- the web pages (issue 34; docs/web.md) -----
    # the pages' listener: this machine only, behind the https proxy people reach
    web_host: str = "127.0.0.1"
    web_port: int | None = 8080  # WEB_PORT=off: no pages
    # where people reach the pages (the proxy's address); links are made from it
    public_url: str = ""
    # the most live streams (Server-Sent Events) one process serves at once; more: 503
    web_max_viewers: int = Field(default=2000, ge=1, le=1_000_000)
    # serve the pages (and the operator's view) and nothing else: no console, no
    # platform, no timers; beside the bot's processes on one PostgreSQL (docs/deploy.md)
    web_only: bool = False

    @field_validator("web_port", mode="before")
    @classmethod
    def _a_port_or_off(cls, value: object) -> object:
        if isinstance(value, str):
            word = value.strip().lower()
            if word in ("off", "no", "false", "0", ""):
                return None
            if not word.isdecimal() or not 1 <= int(word) <= 65535:
                raise ValueError(f"is a port from 1 to 65535, or off, not {value!r}")
            return int(word)
        if isinstance(value, int) and not 1 <= value <= 65535:
            raise ValueError(f"is a port from 1 to 65535, or off, not {value!r}")
        return value

    @field_validator("public_url")
    @classmethod
    def _an_address(cls, value: str) -> str:
        return public_address(value)

    def web_base(self) -> str:
        """Where links to the pages start: PUBLIC_URL, else this listener's address."""
        return self.public_url or f"http://{self.web_host}:{self.web_port}"

    @field_validator("log_level")
    @classmethod
    def _a_level(cls, value: str) -> str:
        return one_of(value.strip().upper(), LOG_LEVELS, value)

    @field_validator("console_language")
    @classmethod
    def _a_language(cls, value: str) -> str:
        return one_of(value.strip().lower(), LANGUAGES, value)

    @field_validator("telegram_token")
    @classmethod
    def _a_telegram_token(cls, value: str) -> str:
        token = value.strip()
        if value and not TELEGRAM_TOKEN.fullmatch(token):  # unset: no Telegram
            raise ValueError(
                "is the token BotFather gave the bot: its number, a colon, then letters,"
                f" digits, - and _ (like 123456789:AAF...), not what is set ({last_four(token)})"
            )
        return token

    @field_validator("discord_token")
    @classmethod
    def _a_discord_token(cls, value: str) -> str:
        # Discord's tokens have changed shape over the years: only what none can be is
        # refused (blank, or with a space or a character no HTTP header carries)
        token = value.strip()
        if value and not DISCORD_TOKEN.fullmatch(token):  # unset: no Discord
            raise ValueError(
                "is the bot's token from the Developer Portal: letters, digits and . - _"
                f" without spaces, not what is set ({last_four(token)})"
            )
        return token

    @field_validator("console_name")
    @classmethod
    def _a_name(cls, value: str) -> str:
        name = " ".join(value.split())
        if name and name_refusal(name) is not None:  # unset: the system's user name
            raise ValueError(
                f"is a person's name (up to 40 letters, no command, not a computer's or a"
                f" seat's), not {value!r}"
            )
        return name

    @field_validator("ops_host")
    @classmethod
    def _a_host(cls, value: str) -> str:
        host = value.strip()
        if not host or any(c.isspace() or not c.isprintable() or c in "/@?#" for c in host):
            raise ValueError(f"is an address to listen on (127.0.0.1, 0.0.0.0, ::1), not {value!r}")
        return host

    @field_validator("ops_port", mode="before")
    @classmethod
    def _an_ops_port_or_off(cls, value: object) -> object:
        if value is None:
            return None
        text = str(value).strip().lower()
        if text == "off":
            return None
        if not text.isdecimal() or not 1 <= int(text) <= 65535:
            raise ValueError(f"is a port (1 to 65535) or off, not {value!r}")
        return int(text)

    @field_validator("shard_count", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @model_validator(mode="after")
    def _check_lists(self) -> Settings:
        self.guild_id_list()
        shards = self.shard_id_list()
        if shards and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT")
        if any(s >= (self.shard_count or 0) for s in shards):
            raise ValueError(f"SHARD_IDS must be below SHARD_COUNT ({self.shard_count})")
        return self

    def secrets(self) -> list[str]:
        """What must never be shown whole: the tokens and the webhook's secret."""
        return [
            s for s in (self.telegram_token, self.discord_token, self.telegram_webhook_secret) if s
        ]

    def guild_id_list(self) -> list[int]:
        return _numbers("DISCORD_GUILD_IDS", self.discord_guild_ids)

    def shard_id_list(self) -> list[int]:
        return _numbers("SHARD_IDS", self.shard_ids)


def public_address(value: str) -> str:
    """PUBLIC_URL checked: empty, or http(s)://host[:port][/path], with no query,
    fragment or password; kept without its last slash."""
    text = value.strip()
    if not text:
        return ""
    parts = urlsplit(text)
    try:
        port_ok = parts.port is None or 0 < parts.port < 65536
    except ValueError:
        port_ok = False
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.query
        or parts.fragment
        or parts.username is not None
        or not port_ok
        or any(c.isspace() for c in text)
    ):
        shown = repr(value) if parts.username is None and parts.password is None else "that"
        raise ValueError(
            "is the address people reach the pages at, like https://domino.example.org,"
            f" not {shown}"
        )
    return text.rstrip("/")


def one_of(read: str, choices: Sequence[str], typed: str) -> str:
    """``read`` (``typed`` as the setting reads it) if it is one of ``choices``."""
    if read not in choices:
        raise ValueError(f"is one of {', '.join(choices)}, not {typed!r}")
    return read


def _numbers(name: str, text: str) -> list[int]:
    """A comma-separated list of ids."""
    words = [w.strip() for w in text.replace(" ", ",").split(",") if w.strip()]
    if not all(w.isdecimal() for w in words):
        raise ValueError(f"{name} takes numbers separated by commas, not {text!r}")
    return [int(w) for w in words]


class SettingsError(Exception):
    pass


def load_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())).upper()
        message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        raise SettingsError(f".env: {where}: {message}" if where else f".env: {message}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(f".env cannot be read: {error}") from None


def last_four(secret: str) -> str:
    """How a secret is shown: enough to tell which one it is, never enough to use it."""
    return "…" + secret[-4:] if len(secret) >= 12 else "…"


def hide_secrets(text: str, secrets: list[str]) -> str:
    """``text`` with each secret (also as a URL writes it) shown as its last four."""
    for secret in sorted(secrets, key=len, reverse=True):
        for form in {secret, quote(secret, safe="")}:
            text = text.replace(form, last_four(secret))
    return text


class HideSecrets(logging.Filter):
    """A log handler's filter: the record's message, arguments, exception and stack are
    written out once, with the secrets hidden."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit the message: as logging shows them
            message = f"{record.msg!r} {record.args!r}"
        record.msg, record.args = hide_secrets(message, self.secrets), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        record.exc_info = None  # the formatter writes exc_text, as hidden here
        if record.exc_text:
            record.exc_text = hide_secrets(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = hide_secrets(record.stack_info, self.secrets)
        return True


_HIDER = HideSecrets([])  # the one filter on every handler: the secrets known so far

# The loggers of the libraries that write each request and answer at DEBUG (Telegram's
# Bot API calls with their captions, Discord's HTTP payloads and gateway events, the HTTP
# clients under them)
WIRE_LOGGERS = ("telegram", "httpx", "httpcore", "discord", "aiohttp", "websockets")


def hide_secrets_in_logs(secrets: list[str]) -> None:
    """Every handler of the root logger hides ``secrets`` (call after logging is set up;
    the libraries' loggers reach these handlers)."""
    hide_in_logs(*secrets)
    for handler in logging.getLogger().handlers:
        if _HIDER not in handler.filters:
            handler.addFilter(_HIDER)


def hide_in_logs(*secrets: str) -> None:
    """``secrets`` made while the program runs (a webhook's secret it chose) are hidden
    from every log line from now on, as the ones it was given."""
    _HIDER.secrets += [s for s in secrets if s and s not in _HIDER.secrets]


def quiet_wire(level: int) -> None:
    """The libraries' wire logs no lower than INFO (their DEBUG lines hold the private
    hands), whatever ``level`` the rest logs at; LOG_WIRE=on leaves them at ``level``."""
    for name in WIRE_LOGGERS:
        logging.getLogger(name).setLevel(max(level, logging.INFO))
