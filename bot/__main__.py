"""``python -m bot`` (``make run``): the bot. With tokens in ``.env`` it serves Discord
and Telegram; with none it opens the console room."""

from __future__ import annotations

import asyncio
import getpass
import logging
import sys
from pathlib import Path
from signal import SIGINT, SIGTERM
from typing import Protocol

from bot.config import Settings, SettingsError, load_settings
from bot.console import Console, stdin_lines
from bot.heap import settle_heap
from bot.model import Effect, Place
from bot.service import GameService
from bot.timer_loop import TimerLoop
from storage.errors import StorageError
from storage.store import Store

log = logging.getLogger("bot")


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
            return await _serve_platforms(settings, store)
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


class Platform(Protocol):
    ready: asyncio.Event

    async def run(self, stop: asyncio.Event) -> None: ...

    async def deliver(self, place: Place, effects: list[Effect]) -> None: ...


async def _serve_platforms(settings: Settings, store: Store) -> int:
    """Telegram and Discord, whichever has a token, until SIGINT or SIGTERM; one timer
    loop for both, each timer's effects to the platform of its room."""
    service = GameService(store)
    platforms: dict[str, Platform] = {}
    refused: dict[type[Exception], str] = {}
    if settings.telegram_token:
        from bot.telegram.app import TelegramBot  # the console needs none of it
        from bot.telegram.app import TokenRefused as TelegramRefused

        platforms["telegram"] = TelegramBot(settings, service)
        refused[TelegramRefused] = (
            "telegram: TELEGRAM_TOKEN was refused ({error}); check it with BotFather"
        )
    if settings.discord_token:
        from bot.discord.app import DiscordBot
        from bot.discord.app import TokenRefused as DiscordRefused

        platforms["discord"] = DiscordBot(settings, service)
        refused[DiscordRefused] = (
            "discord: DISCORD_TOKEN was refused ({error}); check it in the Developer Portal"
        )

    async def deliver(place: Place, effects: list[Effect]) -> None:
        platform = platforms.get(place.platform)
        if platform is None:
            log.warning("timers: no %s here for a timer's effects", place.platform)
            return
        await platform.deliver(place, effects)

    settle_heap()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal in (SIGINT, SIGTERM):
        loop.add_signal_handler(signal, stop.set)
    timers = asyncio.create_task(TimerLoop(service, deliver).run())
    runs = [asyncio.create_task(p.run(stop)) for p in platforms.values()]
    try:
        for done in asyncio.as_completed(runs):
            try:
                await done
            except asyncio.CancelledError:
                pass  # stopped before the platform answered
            except tuple(refused) as error:
                message = next(m for kind, m in refused.items() if isinstance(error, kind))
                print(message.format(error=error), file=sys.stderr)
                stop.set()
                return 2
            stop.set()  # one platform ended: the process ends (a supervisor restarts it)
    finally:
        stop.set()
        timers.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
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
