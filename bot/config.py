"""Settings from the environment and ``.env`` (pydantic-settings): tokens, database,
the platforms' addresses. A broken ``.env`` stops the program with one clear line."""

from __future__ import annotations

from pydantic import Field, ValidationError
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
    console_name: str = Field(default="", description="who you are in the console room")
    console_language: str = "es"
    log_level: str = "WARNING"


class SettingsError(Exception):
    pass


def load_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "?"
        raise SettingsError(f".env: {where}: {first.get('msg', 'invalid')}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(f".env cannot be read: {error}") from None
