"""The web pages under viewers (issue 34, "Speed"): the REAL bot program (``python -m bot``,
the console, its pages on a free port) is the one process serving; this script is the
people watching it.

- **One long game's JSON** (first, in this process, on SQLite): a partnership game to 300
  played through the service by two people and two computers, moves chosen at random;
  its page's size, its first answer (which replays every finished hand), the next ones
  (the replays kept), and the community's page.
- **Live games**: a Swiss tournament of 100 computer pairs (50 tables of partnership to
  200, computers playing: a hand at once, then the pause between hands), and Ana (the
  console's person) playing draw against a computer in room ``mesa``.
- **Viewers**: 200 people, each on one page (most on a table's game, some on the
  tournament, a few on the community) asking in turn for what a browser there asks for
  (the page, a game's board picture, the JSON), 0.5 to 1.5 s apart. Prints p50/p95/max
  of the answer's time per address (the issue's bar: p95 ≤ 30 ms), and each address
  asked alone first.
- **Live**: 1,000 pages open on Ana's game, each on its live stream (Server-Sent
  Events, ``/g/<key>/events``): Ana's move typed, when each page was told of it (first,
  p50, last, the spread; how many later than 2 s); then the same with each page reading
  its JSON again when told, as the page does, and when each had read it.
- **A move's cost**: the time from Ana's move typed to the console's answer (the
  computer's reply in it), with nobody watching, with the viewers above, with the 1,000
  live pages.

It prints figures; nothing here asserts a time (the tests never assert wall-clock speed).
``--games``, ``--viewers``, ``--seconds``, ``--streams``, ``--moves``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import socket
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from aiohttp import ClientSession, ClientTimeout, TCPConnector

from bot.core.pages.web import WebPages
from bot.doors.console import PROMPT
from storage.store import Store
from tests.core.driver import Room
from tests.core.test_pages import open_game, step
from tests.doors.test_console import MOVE

COMMUNITY = re.compile(r"(http://127\.0\.0\.1:\d+)/c/([A-Za-z0-9_-]{22})")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def moves_in(said: str) -> list[str]:
    return [m.group(1) for m in (MOVE.search(line) for line in said.splitlines()) if m]


async def long_game() -> None:
    """One long game's JSON: its size, its first answer and the next ones (above)."""
    folder = tempfile.mkdtemp()
    store = await Store.open(f"sqlite:///{folder}/bench.sqlite3")
    try:
        room = await Room.open(store)
        await open_game(room, "partnership 300")
        rng = random.Random(5)
        for _ in range(5000):
            if not await step(room, rng):
                if (await store.games.load(1)).status == "finished":
                    break
                room.clock.advance(30)  # the pause between hands
                room.log += await room.tick()
        service = room.service
        key = await service.pages.key("game", 1)
        assert key is not None
        started = time.perf_counter()
        page = await WebPages(store, room.clock).game(key)
        first = time.perf_counter() - started
        assert page is not None
        started = time.perf_counter()
        for _ in range(20):
            await service.pages.game(key)
        warm = (time.perf_counter() - started) / 20
        size = len(json.dumps(page, separators=(",", ":")))
        community = await service.pages.key_of(room.place)
        assert community is not None
        started = time.perf_counter()
        for _ in range(5):
            await service.pages.community(community)
        board = (time.perf_counter() - started) / 5
        print(
            f"one game of {len(page['hands'])} hands, {page['moves']} moves: JSON"
            f" {size / 1024:.0f} KB; first answer {first * 1000:.0f} ms, then"
            f" {warm * 1000:.1f} ms; its community's page {board * 1000:.1f} ms"
        )
    finally:
        await store.close()
        shutil.rmtree(folder, ignore_errors=True)


class Bot:
    """The real program in console mode. Its output is read all the time (50 tables talk
    between the lines typed: a full pipe would stop the bot); each line typed is answered
    when the next prompt comes (one a line)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.output = ""
        self.prompts = 0
        self._more = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @staticmethod
    async def start(home: Path, port: int) -> Bot:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{home / 'db.sqlite3'}",
            "CONSOLE_NAME": "Ana",
            "CONSOLE_LANGUAGE": "en",
            "PYTHONPATH": os.getcwd(),
            "LOG_LEVEL": "WARNING",
            "WEB_PORT": str(port),
            "OPS_PORT": "off",
        }
        env.pop("TELEGRAM_TOKEN", None)
        env.pop("DISCORD_TOKEN", None)
        with open(home / "log.txt", "wb") as log:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=home,
                env=env,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
            )
        bot = Bot(process)
        await bot._until(1)
        return bot

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while data := await self.process.stdout.read(65536):
            text = data.decode(errors="replace")
            self.output += text
            self.prompts += text.count(PROMPT)
            if len(self.output) > 200_000:
                self.output = self.output[-100_000:]
            self._more.set()
        self._more.set()

    async def _until(self, prompts: int) -> None:
        while self.prompts < prompts:
            if self._reader.done():
                raise RuntimeError("the bot stopped: " + self.output[-2000:])
            self._more.clear()
            await asyncio.wait_for(self._more.wait(), timeout=120)

    async def type(self, line: str) -> str:
        """Type ``line``; what the console printed until it waits again."""
        assert self.process.stdin is not None
        start, expected = len(self.output), self.prompts + 1
        self.process.stdin.write((line + "\n").encode())
        await self.process.stdin.drain()
        await self._until(expected)
        return self.output[start:]

    async def quit(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"/quit\n")
        await self.process.stdin.drain()
        await asyncio.wait_for(self.process.wait(), timeout=60)
        await self._reader


@dataclass
class Site:
    base: str
    community: str
    mesa: str = ""  # Ana's game
    tournament: str = ""
    tables: list[str] = field(default_factory=list)  # the tournament's tables' games


async def get_json(http: ClientSession, url: str) -> dict:  # type: ignore[type-arg]
    async with http.get(url) as response:
        assert response.status == 200, (url, response.status)
        return await response.json()  # type: ignore[no-any-return]


async def set_up(bot: Bot, http: ClientSession, games: int) -> Site:
    found = COMMUNITY.search(bot.output)
    assert found, bot.output[:500]
    site = Site(*found.groups())
    await bot.type("/room copa")
    await bot.type("/tournament new Bench rounds=1 minutes=60 checkin=off")
    for n in range(2 * games):
        await bot.type(f"/tournament register Bots {n + 1} computer computer")
    await bot.type("/tournament close")
    await bot.type("/tournament start")
    await bot.type("/room mesa")
    await bot.type("/new draw 1000")
    await bot.type("/add_ai")
    await bot.type("/begin")
    community = await get_json(http, f"{site.base}/c/{site.community}.json")
    site.tournament = community["tournaments"][0]["key"]
    [mesa] = [g for g in community["games"] if "Ana" in g["players"]]
    site.mesa = mesa["key"]
    tournament = await get_json(http, f"{site.base}/t/{site.tournament}.json")
    site.tables = [t["game"] for t in tournament["rounds_played"][0]["tables"] if t["game"]]
    return site


async def ana_moves(bot: Bot, count: int) -> list[float]:
    """Ana's ``count`` moves (the first offered each time), each timed from typed to
    answered; ``/next`` between hands is not counted."""
    times: list[float] = []
    last = await bot.type("/hand")
    while len(times) < count:
        moves = moves_in(last)
        if not moves:
            await bot.type("/next")
            await asyncio.sleep(0.2)  # the deal comes a moment after everyone is ready
            last = await bot.type("/hand")
            continue
        started = time.perf_counter()
        last = await bot.type(moves[0])
        times.append(time.perf_counter() - started)
    return times


def figures(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"p50 {statistics.median(ordered) * 1000:6.1f} ms  p95 {p95 * 1000:6.1f} ms"
        f"  max {ordered[-1] * 1000:6.1f} ms  ({len(ordered)})"
    )


async def alone(http: ClientSession, site: Site, path: str, times: int = 10) -> list[float]:
    """``path`` asked ``times`` times, one after the other, nobody else asking."""
    taken = []
    for _ in range(times):
        started = time.perf_counter()
        async with http.get(site.base + path) as response:
            await response.read()
            assert response.status == 200, (path, response.status)
        taken.append(time.perf_counter() - started)
    return taken


async def viewers(
    http: ClientSession, site: Site, count: int, seconds: float
) -> tuple[dict[str, list[float]], int]:
    """``count`` viewers, each on one page for ``seconds``, asking for what a browser on
    it asks for, in turn, 0.5 to 1.5 s apart: the page, (a game's) its board picture, its
    JSON. The answers' times by address, and the answers that failed."""
    rng = random.Random(34)
    times: dict[str, list[float]] = defaultdict(list)
    failed = 0
    until = time.monotonic() + seconds

    async def viewer(letter: str, key: str) -> None:
        nonlocal failed
        asked = [("", ""), (".json", ".json")]
        if letter == "g":
            asked.insert(1, ("/board.png", "/board.png?v=1"))
        turn = rng.randrange(len(asked))
        await asyncio.sleep(rng.uniform(0, 1))  # not all at once
        while time.monotonic() < until:
            suffix, query = asked[turn % len(asked)]
            turn += 1
            started = time.perf_counter()
            try:
                async with http.get(f"{site.base}/{letter}/{key}{query}") as response:
                    await response.read()
                    ok = response.status == 200
            except Exception:
                ok = False
            if ok:
                times[f"/{letter}/<key>{suffix}"].append(time.perf_counter() - started)
            else:
                failed += 1
            await asyncio.sleep(rng.uniform(0.5, 1.5))

    watched = []
    for n in range(count):
        if n % 20 == 0:
            watched.append(("c", site.community))
        elif n % 5 == 0:
            watched.append(("t", site.tournament))
        else:
            watched.append(("g", site.tables[n % len(site.tables)] if n % 10 else site.mesa))
    await asyncio.gather(*(viewer(letter, key) for letter, key in watched))
    return times, failed


@dataclass
class Stream:
    """One open page's live stream: when it was told of a change (``told``), and when the
    page had read its JSON again after it (``shown``), as the page does."""

    told: list[float] = field(default_factory=list)
    shown: list[float] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


def first_after(moments: list[float], moment: float) -> float | None:
    """Seconds from ``moment`` to the first of ``moments`` after it, or None."""
    after = [at for at in moments if at >= moment]
    return after[0] - moment if after else None


async def listen(http: ClientSession, url: str, page: str | None, stream: Stream) -> None:
    """Read a Server-Sent Events stream until cancelled, noting each event; with ``page``,
    its JSON read again after each (changes that came meanwhile: one read)."""
    told = asyncio.Event()

    async def read_again() -> None:
        assert page is not None
        while True:
            await told.wait()
            told.clear()
            async with http.get(page) as response:
                await response.read()
            stream.shown.append(time.monotonic())

    reader = asyncio.create_task(read_again()) if page else None
    try:
        async with http.get(url, timeout=ClientTimeout(total=None, sock_read=None)) as response:
            if response.status != 200:
                raise RuntimeError(f"the stream answered {response.status}")
            while line := await response.content.readline():
                if line.startswith(b"data:"):
                    stream.told.append(time.monotonic())
                    stream.changed.set()
                    if len(stream.told) > 1:  # the first is the page as it was opened
                        told.set()
    finally:
        if reader is not None:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)


async def streams_open(
    http: ClientSession, url: str, page: str | None, count: int
) -> tuple[list[Stream], list]:  # type: ignore[type-arg]
    """``count`` streams of ``url``, each once its first event came."""
    streams = [Stream() for _ in range(count)]
    tasks = [asyncio.create_task(listen(http, url, page, stream)) for stream in streams]
    until = time.monotonic() + 60
    for stream, task in zip(streams, tasks, strict=True):
        waited = asyncio.ensure_future(stream.changed.wait())
        await asyncio.wait(
            {waited, task},
            timeout=max(0.1, until - time.monotonic()),
            return_when=asyncio.FIRST_COMPLETED,
        )
        if not waited.done():
            waited.cancel()
            for other in tasks:
                other.cancel()
            if task.done() and task.exception():
                raise RuntimeError(f"a stream failed: {task.exception()}")
            raise RuntimeError("a stream's first event never came")
    return streams, tasks


async def one_move_to_all(bot: Bot, streams: list[Stream], reading: bool) -> tuple[list, list]:  # type: ignore[type-arg]
    """Ana's move typed: when each stream was told of it, and (``reading``) when each page
    had read its JSON again (None: not within 10 s)."""
    last = await bot.type("/hand")
    while not moves_in(last):
        await bot.type("/next")
        await asyncio.sleep(0.2)
        last = await bot.type("/hand")
    moment = time.monotonic()
    await bot.type(moves_in(last)[0])
    until = moment + 10

    def all_there() -> bool:
        return all(
            first_after(s.told, moment) is not None
            and (not reading or first_after(s.shown, moment) is not None)
            for s in streams
        )

    while time.monotonic() < until and not all_there():
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # the changes after the move (the computer's reply) read too
    told = [first_after(s.told, moment) for s in streams]
    shown = [first_after(s.shown, moment) for s in streams]
    return told, shown


def spread(heard: list[float | None]) -> str:
    times = sorted(t for t in heard if t is not None)
    late = sum(1 for t in heard if t is None or t > 2)
    if not times:
        return "none arrived"
    return (
        f"first {times[0] * 1000:.0f} ms, p50 {statistics.median(times) * 1000:.0f} ms,"
        f" last {times[-1] * 1000:.0f} ms (spread {(times[-1] - times[0]) * 1000:.0f} ms);"
        f" later than 2 s or never: {late}"
    )


async def live(bot: Bot, http: ClientSession, site: Site, count: int, moves: int) -> None:
    """``count`` pages open on Ana's game (their live streams): how long a move takes to
    reach them all (told on the stream; and the page's JSON read again, as the page does),
    and what a move costs Ana while they watch."""
    url = f"{site.base}/g/{site.mesa}/events"
    async with http.get(url) as probe:
        if probe.status == 404:
            print("live stream: not served here (no /g/<key>/events)")
            return
    before = await ana_moves(bot, moves)
    print(f"Ana's move, nobody watching (again):     {figures(before)}")
    for reading in (False, True):
        page = f"{site.base}/g/{site.mesa}.json" if reading else None
        started = time.perf_counter()
        streams, tasks = await streams_open(http, url, page, count)
        how = "each reading the JSON again when told" if reading else "told only"
        print(
            f"{count} pages open live on Ana's game ({how}), opened in"
            f" {time.perf_counter() - started:.1f} s"
        )
        try:
            for attempt in range(3):
                told, shown = await one_move_to_all(bot, streams, reading)
                print(f"  a move ({attempt + 1}) told all:  {spread(told)}")
                if reading:
                    print(f"  a move ({attempt + 1}) shown all: {spread(shown)}")
            watched = await ana_moves(bot, moves)
            print(f"  Ana's move, {count} pages watching:  {figures(watched)}")
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="tables of computers playing")
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long they watch")
    parser.add_argument("--streams", type=int, default=1000, help="pages open live")
    parser.add_argument("--moves", type=int, default=20, help="Ana's moves timed each time")
    args = parser.parse_args()
    print("web pages (bench/web.py)")
    await long_game()
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        bot = await Bot.start(home, free_port())
        connector = TCPConnector(limit=0)
        async with ClientSession(connector=connector, timeout=ClientTimeout(total=30)) as http:
            try:
                site = await set_up(bot, http, args.games)
                print(
                    f"the real program, one process: {len(site.tables)} tables of computers"
                    " playing, Ana's game in mesa"
                )
                print("each address asked alone, ten times:")
                for letter, key in [
                    ("g", site.tables[0]),
                    ("t", site.tournament),
                    ("c", site.community),
                ]:
                    for suffix in ("", ".json", "/board.png") if letter == "g" else ("", ".json"):
                        path = f"/{letter}/{key}{suffix}"
                        taken = figures(await alone(http, site, path))
                        print(f"  /{letter}/<key>{suffix:<11} {taken}")
                alone_moves = await ana_moves(bot, args.moves)
                print(f"Ana's move, nobody watching:           {figures(alone_moves)}")
                watching = asyncio.create_task(viewers(http, site, args.viewers, args.seconds))
                await asyncio.sleep(2)  # the viewers under way
                watched = await ana_moves(bot, args.moves)
                times, failed = await watching
                print(f"Ana's move, {args.viewers} viewers asking:       {figures(watched)}")
                print(f"{args.viewers} viewers for {args.seconds:.0f} s, failed answers: {failed}")
                for address in sorted(times):
                    print(f"  {address:<20} {figures(times[address])}")
                await live(bot, http, site, args.streams, args.moves)
            finally:
                await bot.quit()
        logged = (home / "log.txt").read_text()
        if "ERROR" in logged or "Traceback" in logged:
            print("the bot's log has errors:\n" + logged[-3000:])


if __name__ == "__main__":
    asyncio.run(main())
