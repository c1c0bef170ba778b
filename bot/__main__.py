"""``python -m bot`` (``make run``): the bot. With tokens in ``.env`` it serves Discord
and Telegram; with none it opens the console room."""

from __future__ import annotations

import asyncio
import getpass
import logging
import sys
from pathlib import Path
from signal import SIGINT, SIGTERM

from bot.config import Settings, SettingsError, load_settings
from bot.console import Console, stdin_lines
from bot.heap import settle_heap
from bot.service import GameService
from lang import N_, tr
from storage.errors import StorageError
from storage.store import Store

NO_PLATFORMS_YET = N_("Discord arrives with the next version; opening the console room.")


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
        if settings.telegram_token:
            return await _serve_platforms(settings, store)
        if settings.discord_token:
            print(tr(settings.console_language, NO_PLATFORMS_YET), file=sys.stderr)
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


async def _serve_platforms(settings: Settings, store: Store) -> int:
    """Telegram (and Discord, when its token is set) until SIGINT or SIGTERM."""
    from bot.telegram.app import TelegramBot, TokenRefused  # the console needs none of it

    service = GameService(store)
    bot = TelegramBot(settings, service)
    settle_heap()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal in (SIGINT, SIGTERM):
        loop.add_signal_handler(signal, stop.set)
    try:
        await bot.run(stop)
    except TokenRefused as error:
        print(
            f"telegram: TELEGRAM_TOKEN was refused ({error}); check it with BotFather",
            file=sys.stderr,
        )
        return 2
    except asyncio.CancelledError:
        pass  # stopped before Telegram answered
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
