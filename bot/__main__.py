"""``python -m bot`` (``make run``): the bot. With tokens in ``.env`` it serves Discord
and Telegram; with none it opens the console room."""

from __future__ import annotations

import asyncio
import getpass
import logging
import sys
from pathlib import Path

from bot.config import SettingsError, load_settings
from bot.console import Console, stdin_lines
from bot.heap import settle_heap
from bot.service import GameService
from lang import N_, tr
from storage.errors import StorageError
from storage.store import Store

NO_PLATFORMS_YET = N_(
    "Discord and Telegram arrive with the next versions; opening the console room."
)


async def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        store = await Store.open(settings.database_url or None)
    except StorageError as error:
        print(f"database: {error}", file=sys.stderr)
        return 2
    try:
        if settings.telegram_token or settings.discord_token:
            print(
                tr(settings.console_language, NO_PLATFORMS_YET),
                file=sys.stderr,
            )
        name = settings.console_name or _user_name()
        service = GameService(store)
        settle_heap()
        console = Console(
            service,
            sys.stdout,
            Path("data") / "console",
            name,
            settings.console_language,
        )
        await console.run(stdin_lines())
    finally:
        await store.close()
    return 0


def _user_name() -> str:
    try:
        return getpass.getuser().capitalize() or "Jugador"
    except Exception:
        return "Jugador"


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except KeyboardInterrupt:
        sys.exit(0)
