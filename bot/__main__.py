"""``python -m bot`` (``make run``): the bot. With tokens in ``.env`` it serves Discord
and Telegram; with none it opens the console room."""

from __future__ import annotations

import asyncio
import getpass
import logging
import os
import sys
from pathlib import Path
from signal import SIGINT, SIGTERM
from typing import Protocol

from bot.core import Effect, GameService, Place, Posts, StorageError
from bot.doors.config import (
    Settings,
    SettingsError,
    hide_secrets,
    hide_secrets_in_logs,
    last_four,
    load_settings,
    quiet_wire,
)
from bot.doors.console import Console, stdin_lines
from bot.doors.ops import Door, Metrics, OpsServer, Watch
from bot.doors.texts import WEB_PAGE
from bot.doors.timer_loop import TimerLoop
from bot.doors.web import WebDoor
from bot.heap import settle_heap
from lang import tr
from storage.store import Store  # the composition root: the one place that opens storage

log = logging.getLogger("bot")
DATA = Path("data")  # the SQLite database and the console's pictures, by default


async def main() -> int:
    # what this program writes (the database, its pictures) holds hands in play: for this
    # user only
    os.umask(0o077)
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(levelname)s %(name)s: %(message)s"
    )
    hide_secrets_in_logs(settings.secrets())
    if not settings.log_wire:
        quiet_wire(logging.getLogger().level)
    try:
        return await _run(settings)
    except Exception:  # one way out, through the log that hides the tokens
        log.critical("the bot stopped on an unexpected error", exc_info=True)
        return 1


async def _run(settings: Settings) -> int:
    if DATA.is_dir():
        DATA.chmod(0o700)  # as an older version left it, readable by everyone
    try:
        store = await Store.open(settings.database_url or None)
    except StorageError as error:
        _say(settings, f"database: {error}")
        return 2
    try:
        if settings.web_only:
            return await _serve_pages_only(settings, store)
        if settings.telegram_token or settings.discord_token:
            return await _serve_platforms(settings, store)
        name = settings.console_name or _user_name()
        metrics = Metrics()
        # the console's rooms wait for their people (one screen: people step away and
        # come back): no turn timer unless the room asks for one, no idle end (README)
        service = GameService(store, patient=True, observe=metrics.observe)
        settle_heap()
        pages = await _start_pages(settings, service, metrics)
        ops = None
        try:
            # the links printed lead to PUBLIC_URL, else to the pages this process serves
            # (make run: http://127.0.0.1:8080), so a newcomer can open one at once
            base = settings.public_url or (settings.web_base() if pages is not None else "")
            service.links = frozenset({"console"} if base else ())
            console = Console(
                service,
                Posts(store),
                sys.stdout,
                DATA / "console",
                name,
                settings.console_language,
                base,
            )
            stop = asyncio.Event()  # Ctrl-C (or SIGTERM): the room ends at once, saved
            for signal in (SIGINT, SIGTERM):
                asyncio.get_running_loop().add_signal_handler(signal, stop.set)
            ops = await _start_ops(settings, store, metrics, {"console": ConsoleDoor(console)})
            if base:  # the community's page (on the screen, never in the log)
                key = await service.pages.key_of(console.place)
                if key is not None:
                    url = f"{base}/c/{key}"
                    lang = await service.language_of(console.place)
                    print(tr(lang, WEB_PAGE, url=url), flush=True)
            await console.run(stdin_lines(), stop)
        finally:
            if pages is not None:
                await pages.stop()
            if ops is not None:
                await ops.stop()
    finally:
        await store.close()
    return 0


async def _start_pages(
    settings: Settings, service: GameService, metrics: Metrics
) -> WebDoor | None:
    """The web pages' listener (WEB_HOST, WEB_PORT), unless WEB_PORT is off; None when it
    is off or its port is taken (one WARNING line: the bot goes on without pages)."""
    if settings.web_port is None:
        return None
    door = WebDoor(service.pages, settings.web_host, settings.web_port, settings.web_max_viewers)
    if not await door.start():
        return None
    metrics.count_viewers(door.viewers)
    return door


async def _serve_pages_only(settings: Settings, store: Store) -> int:
    """WEB_ONLY: the pages and the operator's view, until SIGINT or SIGTERM; no console,
    no platform, no timers. Beside the bot's processes on one PostgreSQL, its live pages
    hear their moves through LISTEN/NOTIFY (docs/deploy.md)."""
    if settings.web_port is None:
        _say(settings, "WEB_ONLY serves the pages only: set WEB_PORT to a port, not off")
        return 2
    metrics = Metrics()
    service = GameService(store, observe=metrics.observe)
    settle_heap()
    pages = await _start_pages(settings, service, metrics)
    if pages is None:
        _say(
            settings,
            f"WEB_ONLY: nothing to serve, {settings.web_host}:{settings.web_port} is taken",
        )
        return 2
    stop = asyncio.Event()
    for signal in (SIGINT, SIGTERM):
        asyncio.get_running_loop().add_signal_handler(signal, stop.set)
    ops = await _start_ops(settings, store, metrics, {})
    log.info("web: the pages only, on %s:%s", settings.web_host, settings.web_port)
    try:
        await stop.wait()
    finally:
        await pages.stop()
        if ops is not None:
            await ops.stop()
    return 0


def _say(settings: Settings, message: str) -> None:
    """One line on stderr, why the program stops."""
    print(hide_secrets(" ".join(message.split()), settings.secrets()), file=sys.stderr)


async def _start_ops(
    settings: Settings, store: Store, metrics: Metrics, doors: dict[str, Door]
) -> OpsServer | None:
    """The operator's view (/healthz, /metrics) on OPS_HOST:OPS_PORT, unless OPS_PORT is
    off; a port taken is one WARNING line, and the bot goes on without it."""
    if settings.ops_port is None:
        return None
    watch = Watch(store.ping, store.games.active_count, doors)
    server = OpsServer(watch, metrics, settings.ops_host, settings.ops_port)
    return server if await server.start() else None


class ConsoleDoor:
    """The console as the operator sees it: always connected (it is the terminal)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def state(self) -> str:
        return "ok"

    def pending(self) -> int:
        return self.console.delivery.pending()


class Platform(Protocol):
    ready: asyncio.Event

    def state(self) -> str: ...

    def pending(self) -> int: ...

    async def run(self, stop: asyncio.Event) -> None: ...

    async def deliver(self, place: Place, effects: list[Effect]) -> None: ...


async def _serve_platforms(settings: Settings, store: Store) -> int:
    """Telegram and Discord, whichever has a token, until SIGINT or SIGTERM; one timer
    loop for both, each timer's effects to the platform of its room."""
    metrics = Metrics()
    # with PUBLIC_URL, the boards, summaries and tournaments' messages link to the web
    # pages (an address on this machine is no use to people in a chat: none without it)
    links = ("telegram", "discord") if settings.public_url else ()
    service = GameService(store, observe=metrics.observe, links=links)
    posts = Posts(store)  # what the doors keep of their messages: theirs, not the service's
    platforms: dict[str, Platform] = {}
    refused: dict[type[Exception], str] = {}

    async def deliver(place: Place, effects: list[Effect]) -> None:
        platform = platforms.get(place.platform)
        if platform is None:
            log.warning("timers: no %s here for a timer's effects", place.platform)
            return
        await platform.deliver(place, effects)

    timer_loop = TimerLoop(service, deliver)
    if settings.telegram_token:
        from bot.doors.telegram.app import TelegramBot  # the console needs none of it
        from bot.doors.telegram.app import TokenRefused as TelegramRefused

        platforms["telegram"] = TelegramBot(settings, service, posts, timer_loop.wake)
        # another server's address that is wrong looks the same to the library
        also = ", and TELEGRAM_BASE_URL" if settings.telegram_base_url else ""
        refused[TelegramRefused] = (
            f"telegram: TELEGRAM_TOKEN ({last_four(settings.telegram_token)}) was refused"
            f" ({{error}}); check it with BotFather{also}"
        )
    if settings.discord_token:
        from bot.doors.discord.app import DiscordBot
        from bot.doors.discord.app import TokenRefused as DiscordRefused

        platforms["discord"] = DiscordBot(settings, service, posts, timer_loop.wake)
        refused[DiscordRefused] = (
            f"discord: DISCORD_TOKEN ({last_four(settings.discord_token)}) was refused"
            " ({error}); check it in the Developer Portal"
        )

    settle_heap()
    pages = await _start_pages(settings, service, metrics)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal in (SIGINT, SIGTERM):
        loop.add_signal_handler(signal, stop.set)
    ops = await _start_ops(settings, store, metrics, dict(platforms))
    timers = asyncio.create_task(timer_loop.run())
    runs = [asyncio.create_task(p.run(stop)) for p in platforms.values()]
    resumes = [
        asyncio.create_task(_resume(name, platform, service))
        for name, platform in platforms.items()
    ]
    try:
        for done in asyncio.as_completed(runs):
            try:
                await done
            except asyncio.CancelledError:
                pass  # stopped before the platform answered
            except tuple(refused) as error:
                message = next(m for kind, m in refused.items() if isinstance(error, kind))
                _say(settings, message.format(error=error))
                stop.set()
                return 2
            stop.set()  # one platform ended: the process ends (a supervisor restarts it)
    finally:
        stop.set()
        timers.cancel()
        for resume in resumes:
            resume.cancel()
        await asyncio.gather(*runs, *resumes, return_exceptions=True)
        if ops is not None:
            await ops.stop()
        if pages is not None:
            await pages.stop()
    return 0


async def _resume(name: str, platform: Platform, service: GameService) -> None:
    """Once the platform answers: each game in play there whose board does not show its
    latest move (the last process stopped between saving a move and showing it) gets
    its board, and the person to move their hand."""
    await platform.ready.wait()
    try:
        for place, effects in await service.resume(name):
            await platform.deliver(place, effects)
    except StorageError as error:  # the timers move these games along meanwhile
        log.warning("%s: games in play not shown again: %s", name, type(error).__name__)


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
