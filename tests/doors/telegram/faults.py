"""Faults to inject while the load runs (tests/doors/telegram/load.py): the bot killed and
started again, the database away, Telegram answering 429s, Telegram slow. Each fault
begins at a time into the pressing, lasts a while, and is then undone; the load notes
what the people pressing meanwhile saw."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from sqlalchemy.engine import make_url

from tests.doors.telegram.driver import BotProcess
from tests.doors.telegram.fake_api import FakeTelegram

# What the bot sends to groups and people; a flood of 429s hits them all, and the
# answers to presses too.
SENDING = (
    "sendMessage", "sendPhoto", "editMessageMedia", "editMessageText",
    "editMessageCaption", "editMessageReplyMarkup", "deleteMessage", "answerCallbackQuery",
)  # fmt: skip
STORM = 1_000_000  # 429s "forever": the storm ends when the fault does


class DatabaseGate:
    """Stands between the bot and its database so a test can make it unreachable.
    PostgreSQL: a TCP proxy; cut, it drops every connection and refuses new ones, as a
    database server that went away. SQLite (a file, nothing to cut): another program
    holds the write lock, as a backup tool would."""

    def __init__(self, url: str) -> None:
        self.target = url
        self.url = url
        self.sqlite = url.startswith("sqlite")
        self._server: asyncio.Server | None = None
        self._port = 0
        self._links: set[asyncio.StreamWriter] = set()
        self._holder: sqlite3.Connection | None = None

    async def __aenter__(self) -> DatabaseGate:
        if not self.sqlite:
            await self._listen()
            self.url = (
                make_url(self.target)
                .set(host="127.0.0.1", port=self._port)
                .render_as_string(hide_password=False)
            )
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.restore()
        if self._server is not None:
            self._server.close()
            self._cut_links()

    async def cut(self) -> None:
        if self.sqlite:
            self._holder = await asyncio.to_thread(self._lock)
            return
        assert self._server is not None
        self._server.close()
        self._server = None
        self._cut_links()

    async def restore(self) -> None:
        if self._holder is not None:
            holder, self._holder = self._holder, None
            await asyncio.to_thread(holder.close)  # the lock goes with it
        if not self.sqlite and self._server is None:
            await self._listen()

    def _lock(self) -> sqlite3.Connection:
        path = make_url(self.target).database or ""
        holder = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN EXCLUSIVE")
        return holder

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._link, "127.0.0.1", self._port)
        self._port = self._server.sockets[0].getsockname()[1]

    def _cut_links(self) -> None:
        for writer in list(self._links):
            writer.transport.abort()
        self._links.clear()

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        target = make_url(self.target)
        try:
            far_reader, far_writer = await asyncio.open_connection(
                target.host or "127.0.0.1", target.port or 5432
            )
        except OSError:
            writer.transport.abort()
            return
        self._links |= {writer, far_writer}
        await asyncio.gather(_pipe(reader, far_writer), _pipe(far_reader, writer))
        self._links -= {writer, far_writer}


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.transport.abort()


@dataclass
class Scene:
    """What faults act on."""

    tg: FakeTelegram
    process: BotProcess
    gate: DatabaseGate
    kills: list[float] = field(default_factory=list)  # when the process was killed

    async def clear(self) -> None:
        self.tg.calm()
        await self.gate.restore()


Step = Callable[[Scene], Awaitable[None]]


@dataclass(frozen=True)
class Fault:
    name: str
    at: float  # seconds into the pressing
    lasts: float
    begin: Step
    end: Step
    settle: float = 5.0  # after its end, presses still count as the fault's


def killed(at: float, down: float = 3.0) -> Fault:
    """SIGKILL, as a crash or a power cut; started again ``down`` seconds later."""

    async def kill(scene: Scene) -> None:
        scene.kills.append(time.monotonic())
        scene.process.kill()

    async def start(scene: Scene) -> None:
        scene.process.start()

    return Fault(
        f"bot process killed (SIGKILL), started again {down:g} s later", at, down, kill, start
    )


def database_away(at: float, lasts: float) -> Fault:
    async def cut(scene: Scene) -> None:
        await scene.gate.cut()

    async def restore(scene: Scene) -> None:
        await scene.gate.restore()

    return Fault(f"database unreachable for {lasts:g} s", at, lasts, cut, restore)


def storm(at: float, lasts: float, retry_after: int = 2) -> Fault:
    """Every sending method answers 429 with ``retry_after``."""

    async def flood(scene: Scene) -> None:
        for method in SENDING:
            scene.tg.fail(method, 429, times=STORM, retry_after=retry_after)

    async def calm(scene: Scene) -> None:
        scene.tg.calm()

    return Fault(
        f"429 storm for {lasts:g} s (every send answered 'retry after {retry_after}')",
        at,
        lasts,
        flood,
        calm,
    )


def slow_platform(at: float, lasts: float, delay: float = 2.0) -> Fault:
    async def slow(scene: Scene) -> None:
        scene.tg.slow("*", delay)

    async def fast(scene: Scene) -> None:
        scene.tg.slow("*", 0)

    return Fault(
        f"Telegram slow for {lasts:g} s (every answer {delay:g} s late)", at, lasts, slow, fast
    )


def all_faults(start: float, spacing: float, database_lasts: float) -> list[Fault]:
    """The four, one after the other from ``start``, ``spacing`` seconds apart."""
    return [
        killed(start),
        database_away(start + spacing, database_lasts),
        storm(start + 2 * spacing, 6),
        slow_platform(start + 3 * spacing, 6),
    ]
