"""Telegram behind a webhook served by two processes on one database, as a large bot runs
(docs/deploy.md): a proxy spreads the updates over the two, so the commands and presses
of one group reach both processes interleaved. Several games at once, each hand after
the first dealt by its timer: no move lost or applied twice (the move log is whole and
agrees with the snapshot), every timer fired once (each hand dealt once), every game
finished. On PostgreSQL when TEST_DATABASE_URL names one, else on an SQLite file."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections import Counter
from pathlib import Path

import aiohttp
from aiohttp import web

from storage.games import snapshot_moves
from storage.store import Store
from tests.doors.telegram.driver import BotProcess, Table, buttons
from tests.doors.telegram.fake_api import FakeTelegram
from tests.doors.telegram.test_bot import free_port
from tests.storage.conftest import one_database

GROUPS = (-1001000000001, -1001000000002)
DEALT = re.compile(r"^(Hand|Mano|Mão) (\d+)\.$")
SECRET = "workers-secret"


class RoundRobin:
    """A stand-in for the https proxy in front of webhook workers: each update goes to the
    next worker in turn."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = itertools.cycle(ports)
        self.forwarded: Counter[int] = Counter()
        self.port = free_port()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> RoundRobin:
        app = web.Application()
        app.router.add_post("/tg", self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._session is not None and self._runner is not None
        await self._session.close()
        await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.Response:
        assert self._session is not None
        port = next(self.ports)
        secret = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
        try:
            async with self._session.post(
                f"http://127.0.0.1:{port}/tg",
                data=await request.read(),
                headers={
                    "Content-Type": "application/json",
                    "X-Telegram-Bot-Api-Secret-Token": secret,
                },
            ) as answer:
                self.forwarded[port] += answer.status == 200
                return web.Response(status=answer.status)
        except aiohttp.ClientError:
            return web.Response(status=502)  # a worker not up yet: Telegram sends it again


async def _play(table: Table) -> int:
    """Hands played out by pressing; nobody presses "Next hand": its timer deals."""
    hands = 0
    while True:
        await table.play_out(until_hand_end=True)
        hands += 1
        board = table.board()
        assert board is not None
        if not buttons(board):
            return hands

        def dealt() -> bool:
            latest = table.board()
            return latest is not None and any(d.endswith("|hand") for d in buttons(latest))

        await table.tg.wait_for(dealt, timeout=40, what="the next hand, dealt by its timer")


async def test_two_webhook_workers_share_the_groups(tmp_path: Path) -> None:
    url = await one_database(tmp_path)
    ports = [free_port(), free_port()]
    async with FakeTelegram() as tg, RoundRobin(ports) as proxy:
        for i, chat in enumerate(GROUPS):
            tg.group(chat, f"Mesa {i + 1}")
        workers = []
        for i, port in enumerate(ports):
            home = tmp_path / f"worker{i}"
            home.mkdir()
            workers.append(
                BotProcess(
                    tg,
                    home,
                    DATABASE_URL=url,
                    TELEGRAM_WEBHOOK_URL=f"http://127.0.0.1:{proxy.port}/tg",
                    TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
                    TELEGRAM_WEBHOOK_PORT=str(port),
                    TELEGRAM_WEBHOOK_PATH="tg",
                    TELEGRAM_WEBHOOK_SECRET=SECRET,
                )
            )
        for worker in workers:
            worker.start()
        try:
            await tg.wait_calls("setWebhook", count=2, timeout=30)
            tables = []
            for n, chat in enumerate(GROUPS):
                table = Table(tg, chat=chat)
                table.person(f"Ana{n}", 700 + 10 * n)
                table.person(f"Beto{n}", 701 + 10 * n)
                tables.append(table)
            for table in tables:  # two people and a computer in each group
                await table.start_game("/new draw 30", computers=1)
            # then all the games at once
            hands = await asyncio.gather(*(_play(t) for t in tables))
            assert all(proxy.forwarded[p] > 10 for p in ports), proxy.forwarded  # both worked
        finally:
            for worker in workers:
                await worker.stop()
        for worker in workers:
            assert not worker.tracebacks(), worker.tracebacks()
        for table, played in zip(tables, hands, strict=True):
            said = [m.get("text", "") for m in tg.sent_to(table.chat)]
            dealt = [int(m[2]) for text in said if (m := DEALT.match(text))]
            assert dealt == list(range(2, played + 1)), (dealt, played)  # each hand once
    store = await Store.open(url)
    try:
        for n in range(len(GROUPS)):
            game = await store.games.load(n + 1)
            assert game.status == "finished"
            logged = [(m.hand, m.move) for m in await store.games.log(game.id)]
            assert [m.ply for m in await store.games.log(game.id)] == list(range(len(logged)))
            assert logged == snapshot_moves(
                await store.games.record(game.id)
            )  # nothing lost or doubled
            assert game.plies == len(logged)
    finally:
        await store.close()
