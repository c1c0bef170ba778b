"""The pages' live stream (issue 34): Server-Sent Events at ``/g/<key>/events`` and
``/t/<key>/events``. The first event comes at once, then one within 2 s of every move
and result (of a game, and of a tournament's tables); unknown keys answer the JSON's very
404; the stream ends when the community's pages are turned off or renewed, when the door
stops; a viewer that goes leaves nothing behind; many viewers of one page cost one
subscription and no query per change; the open streams are counted and capped; no key
reaches the log, at DEBUG, and nothing of it is an ERROR."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse, ClientSession, ClientTimeout

from bot.core.simulator import Plan, Simulator
from bot.doors.ops import Metrics
from bot.doors.web import WebDoor
from bot.doors.web.app import make_app
from bot.doors.web.events import EVENTS
from storage.store import Store
from tests.core.driver import Room
from tests.core.test_pages import open_game, step
from tests.doors.web.test_app import fetch, free_port

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
PROMISED = 2.0  # seconds: a move or a result reaches an open page within this


class Stream:
    """An SSE client: the events of one open stream as they come."""

    def __init__(self, response: ClientResponse) -> None:
        self.response = response
        self.versions: list[int] = []
        self.comments = 0
        self.retry: int | None = None

    async def next(self, seconds: float = PROMISED) -> int | None:
        """The next event's version; None when the stream ended. Fails past ``seconds``."""
        event: dict[str, str] = {}
        while True:
            line = await asyncio.wait_for(self.response.content.readline(), seconds)
            if not line:
                return None
            text = line.decode().rstrip("\n")
            if text.startswith(":"):
                self.comments += 1
            elif text.startswith("retry: "):
                self.retry = int(text.removeprefix("retry: "))
            elif text:
                name, _, value = text.partition(": ")
                event[name] = value
            elif event:
                assert event["event"] == "change", event
                version = int(json.loads(event["data"])["version"])
                self.versions.append(version)
                return version

    async def reaches(self, version: int, seconds: float = PROMISED) -> None:
        """Read events until one of ``version`` or later, within ``seconds``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not self.versions or self.versions[-1] < version:
            got = await self.next(max(0.01, deadline - loop.time()))
            assert got is not None, f"the stream ended before version {version}"

    async def ends(self, seconds: float = PROMISED) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while await self.next(max(0.01, deadline - loop.time())) is not None:
            pass


class Viewer:
    """A browser's worth of connections to the door."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.session = ClientSession(timeout=ClientTimeout(total=None))

    async def open(self, path: str) -> Stream:
        response = await self.session.get(self.base + path)
        assert response.status == 200, await response.text()
        stream = Stream(response)
        await stream.next()  # the first event, at once
        return stream

    async def close(self) -> None:
        await self.session.close()


class Told:
    """What storage's feed told this process (SQLite: at each commit, before the writer
    hears its work is done): each change told must reach the open pages within 2 s."""

    def __init__(self, store: Store, change: tuple[str, int]) -> None:
        self.change = change
        self.count = 0
        store.database.feed.listen(self._heard)

    def _heard(self, change: tuple[str, int]) -> None:
        self.count += change == self.change

    def since(self, count: int) -> bool:
        return self.count > count


async def until(condition: Any, seconds: float = 5.0) -> None:
    """Wait for ``condition()`` to hold, with a deadline (never a fixed pause)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, "not within the deadline"
        await asyncio.sleep(0.01)


@pytest.fixture
async def played(tmp_path: Path) -> AsyncIterator[tuple[Room, WebDoor, Viewer]]:
    store = await Store.open(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    room = await Room.open(store)
    await open_game(room, "draw")
    door = WebDoor(room.service.pages, "127.0.0.1", free_port(), max_viewers=5)
    assert await door.start()
    viewer = Viewer(f"http://127.0.0.1:{door.port}")
    try:
        yield room, door, viewer
    finally:
        await viewer.close()
        await door.stop()
        await store.close()


def no_error_nor_key(caplog: pytest.LogCaptureFixture, *keys: str | None) -> None:
    for record in caplog.records:
        assert record.levelno < logging.ERROR and not record.exc_info, record.getMessage()
        for key in keys:
            assert key is None or key not in record.getMessage()


async def test_every_move_and_the_result_reach_an_open_game_page(
    played: tuple[Room, WebDoor, Viewer], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    room, _door, viewer = played
    key = await room.service.pages.key("game", 1)
    assert key is not None
    response = await viewer.session.get(f"{viewer.base}/g/{key}/events")
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Accel-Buffering"] == "no"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "Set-Cookie" not in response.headers
    stream = Stream(response)
    first = await stream.next()  # at once, before any move
    assert first is not None and stream.retry is not None
    told = Told(room.service.store, ("game", 1))
    rng = random.Random(3)
    moved = 0
    while True:
        count, seen = told.count, stream.versions[-1]
        if not await step(room, rng):
            break
        if told.since(count):  # the game was saved: its page hears of it
            moved += 1
            await stream.reaches(seen + 1)
        page = await room.service.pages.game(key)
        assert page is not None
        if page["hands"]:  # a hand's result reached the page too
            break
    assert page["hands"] and moved > 5
    assert stream.versions == sorted(stream.versions)
    no_error_nor_key(caplog, key)


async def test_unknown_keys_answer_the_jsons_very_404(
    played: tuple[Room, WebDoor, Viewer],
) -> None:
    room, door, viewer = played
    game = await room.service.pages.key("game", 1)
    community = await room.service.pages.key_of(room.place)
    client = Client(viewer)
    unknown = await fetch(client, "/g/AAAAAAAAAAAAAAAAAAAAAA.json")
    assert unknown[0] == 404
    for path in (
        "/g/AAAAAAAAAAAAAAAAAAAAAA/events",
        "/t/AAAAAAAAAAAAAAAAAAAAAA/events",
        "/g/nonsense/events",
        f"/t/{game}/events",  # a key of another kind
        f"/c/{community}/events",  # a community's page has no stream
        f"/g/{game}/events/more",
    ):
        assert await fetch(client, path) == unknown, path
    await room.say("Ana", "/settings web off", admin=True)
    assert await fetch(client, f"/g/{game}/events") == unknown
    assert door.viewers() == 0


class Client:
    """test_app's ``fetch`` over the viewer's session."""

    def __init__(self, viewer: Viewer) -> None:
        self.viewer = viewer

    def request(self, method: str, path: str) -> Any:
        return self.viewer.session.request(method, self.viewer.base + path)


@pytest.mark.parametrize("switch", ["off", "new"])
async def test_the_stream_ends_when_the_pages_are_turned_off_or_renewed(
    played: tuple[Room, WebDoor, Viewer], switch: str
) -> None:
    room, door, viewer = played
    game = await room.service.pages.key("game", 1)
    streams = [await viewer.open(f"/g/{game}/events") for _ in range(3)]
    await room.say("Ana", f"/settings web {switch}", admin=True)
    for stream in streams:
        await stream.ends(PROMISED)
    await until(lambda: door.viewers() == 0)
    assert room.service.pages.live.topics() == 0
    response = await viewer.session.get(f"{viewer.base}/g/{game}/events")
    assert response.status == 404


async def test_a_viewer_that_goes_leaves_nothing_behind(
    played: tuple[Room, WebDoor, Viewer], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    room, door, viewer = played
    game = await room.service.pages.key("game", 1)
    tasks = len(asyncio.all_tasks())
    others = Viewer(viewer.base)
    for _ in range(4):
        await others.open(f"/g/{game}/events")
    assert door.viewers() == 4 and room.service.pages.live.topics() == 1
    await others.close()  # the browser tab closed
    await until(lambda: door.viewers() == 0 and room.service.pages.live.topics() == 0)
    await until(lambda: len(asyncio.all_tasks()) <= tasks)
    no_error_nor_key(caplog, game)


async def test_open_streams_are_counted_for_the_operator_and_capped(
    played: tuple[Room, WebDoor, Viewer],
) -> None:
    room, door, viewer = played
    metrics = Metrics()
    metrics.count_viewers(door.viewers)
    game = await room.service.pages.key("game", 1)
    streams = [await viewer.open(f"/g/{game}/events") for _ in range(5)]  # the cap: 5

    def gauge() -> float | None:
        return metrics.registry.get_sample_value("domino_web_viewers")

    assert door.viewers() == 5 and gauge() == 5
    status, headers, body = await fetch(Client(viewer), f"/g/{game}/events")
    assert status == 503 and json.loads(body) == {"error": "too many viewers, try again shortly"}
    assert "Retry-After" in headers and headers["X-Content-Type-Options"] == "nosniff"
    streams[0].response.close()
    await until(lambda: door.viewers() == 4)
    assert gauge() == 4
    await viewer.open(f"/g/{game}/events")  # room again
    assert door.viewers() == 5


async def test_many_viewers_cost_one_subscription_and_no_query_per_change(
    played: tuple[Room, WebDoor, Viewer],
) -> None:
    room, _door, _viewer = played  # (a door of more viewers beside the fixture's)
    pages = room.service.pages
    store = room.service.store
    big = WebDoor(pages, "127.0.0.1", free_port(), max_viewers=100)
    assert await big.start()
    many = Viewer(f"http://127.0.0.1:{big.port}")
    try:
        key = await pages.key("game", 1)
        assert key is not None
        streams = [await many.open(f"/g/{key}/events") for _ in range(60)]
        assert big.viewers() == 60 and pages.live.topics() == 1
        runs = 0
        real = store.database.run

        async def counted(work: Any, *args: Any) -> Any:
            nonlocal runs
            runs += 1
            return await real(work, *args)

        store.database.run = counted  # type: ignore[method-assign]
        try:
            rng = random.Random(5)
            told = Told(store, ("game", 1))
            for _ in range(3):
                count, before = told.count, pages.live.version("game", key)
                assert before is not None and await step(room, rng)
                assert told.since(count)  # the move is saved and told
                runs = 0  # from here on only the viewers work
                await asyncio.gather(*(s.reaches(before + 1) for s in streams))
                assert runs == 0
        finally:
            store.database.run = real  # type: ignore[method-assign]
    finally:
        await many.close()
        await big.stop()


async def test_the_door_stopping_ends_its_streams(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    room = await Room.open(store)
    await open_game(room, "draw")
    door = WebDoor(room.service.pages, "127.0.0.1", free_port())
    assert await door.start()
    viewer = Viewer(f"http://127.0.0.1:{door.port}")
    try:
        game = await room.service.pages.key("game", 1)
        stream = await viewer.open(f"/g/{game}/events")
        loop = asyncio.get_running_loop()
        began = loop.time()
        await asyncio.wait_for(door.stop(), 10)
        assert loop.time() - began < 5
        await stream.ends(5)
        assert door.viewers() == 0
    finally:
        await viewer.close()
        await store.close()


async def test_a_quiet_stream_hears_a_comment_now_and_then(tmp_path: Path) -> None:
    from aiohttp.test_utils import TestServer

    store = await Store.open(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    room = await Room.open(store)
    await open_game(room, "draw")
    app = make_app(room.service.pages)
    app[EVENTS].heartbeat = 0.2
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    viewer = Viewer(str(server.make_url("")).rstrip("/"))
    try:
        game = await room.service.pages.key("game", 1)
        stream = await viewer.open(f"/g/{game}/events")
        task = asyncio.ensure_future(stream.next(10))
        await until(lambda: stream.comments >= 2)
        assert not task.done()  # comments, and no event: nothing changed
        task.cancel()
    finally:
        await viewer.close()
        await server.close()
        await store.close()


async def test_a_tournaments_page_hears_its_tables(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    sim = Simulator(Plan(teams=4, rounds=1, minutes=40, hand_minutes=4.0), store)
    await sim.command("new", "Copa", "rounds=1", "format=swiss", "checkin=off")
    for n in range(1, 5):
        await sim.command("register", f"Team {n}", "normal", "normal")
    door = WebDoor(sim.service.pages, "127.0.0.1", free_port())
    assert await door.start()
    viewer = Viewer(f"http://127.0.0.1:{door.port}")
    try:
        event = await sim.event()
        key = await sim.service.pages.key("tournament", event.id)
        assert key is not None
        stream = await viewer.open(f"/t/{key}/events")
        await sim.command("close")
        await sim.command("start")
        told = Told(store, ("tournament", event.id))
        moved = 0
        for _ in range(500):
            if (await sim.event()).row.status in ("finished", "cancelled"):
                break
            count, seen = told.count, stream.versions[-1]
            sim.now += timedelta(minutes=4)
            await sim.fire()  # the tables' computers play on
            if told.since(count):
                moved += 1
                await stream.reaches(seen + 1)
        assert (await sim.event()).row.status == "finished" and moved > 2
    finally:
        await viewer.close()
        await door.stop()
        await store.close()
