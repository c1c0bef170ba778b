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
