"""Settings from the environment and ``.env`` (pydantic-settings): tokens, database,
the platforms' addresses. A broken ``.env`` stops the program with one clear line."""

from __future__ import annotations

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    telegram_webhook_listen: str = "0.0.0.0"
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

    def guild_id_list(self) -> list[int]:
        return _numbers("DISCORD_GUILD_IDS", self.discord_guild_ids)

    def shard_id_list(self) -> list[int]:
        return _numbers("SHARD_IDS", self.shard_ids)


def _numbers(name: str, text: str) -> list[int]:
    """A comma-separated list of ids."""
    words = [w.strip() for w in text.replace(" ", ",").split(",") if w.strip()]
    if not all(w.isdigit() for w in words):
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
