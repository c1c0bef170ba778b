"""The browser tests' harness (issue 34, "Tested in a real browser"): the REAL bot program
(``python -m bot``, the console, its web pages on a free port) playing real games typed
into its console, and Chromium from the system's packages driven by Playwright (its async
API, inside the tests' event loop). Playwright's own browsers are never downloaded: the
system's ``chromium`` (or ``CHROMIUM``) is launched; where there is none, every test here
is skipped saying so.

One program and one browser serve every test of this package (package-scoped: starting
them is most of the cost); each test has its own browser context and page (``watched``),
which records every console error, uncaught error, failed request and answer of 400 or
more while the test runs: the test fails on any of them.

What the program has played, once, before the first test (``played``):
- in the console's room ``mesa``, a game of draw to 300 between Ana (the console's person)
  and a hard computer, played until two hands are over and the third is in play with Ana
  to move (so a test can make a move "in the chat" and watch an open page);
- in the room ``copa``, a Swiss tournament of four computer pairs, two rounds, round 1
  under way (computers play a hand at once, then wait 20 s before the next).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import pytest_asyncio
from aiohttp import ClientSession

from tests.doors.test_console import MOVE, ConsoleProcess
from tests.doors.web.test_app import free_port
from tests.doors.web.test_console_pages import start

if TYPE_CHECKING:
    from playwright.async_api import Browser, ConsoleMessage, Page, Request, Response

# the community's page, as the console prints it when it starts (its JSON, or the page)
COMMUNITY = re.compile(r"(http://127\.0\.0\.1:\d+)/c/([A-Za-z0-9_-]{22})")
NO_CHROMIUM = "no Chromium: apt-get install chromium (or set CHROMIUM to its path)"
NO_PLAYWRIGHT = "no Playwright: pip install -e '.[test]'"
# how long a test waits for something the program or the page is to do (a condition met
# long before, on a quiet machine); never a fixed sleep
DEADLINE = 30.0


def chromium() -> str | None:
    """The system's Chromium: ``CHROMIUM``, else ``chromium`` (Debian) on the PATH."""
    named = os.environ.get("CHROMIUM")
    if named:
        return shutil.which(named) or (named if Path(named).is_file() else None)
    return shutil.which("chromium") or shutil.which("chromium-browser")


def need_a_browser() -> str:
    """The system's Chromium, Playwright there to drive it; else the test is skipped,
    saying what is missing."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        pytest.skip(NO_PLAYWRIGHT)
    path = chromium()
    if path is None:
        pytest.skip(NO_CHROMIUM)
    return path


async def eventually(
    check: Callable[[], Awaitable[Any]], what: str, deadline: float = DEADLINE
) -> Any:
    """``check()``'s first true answer, asked again and again until ``deadline`` s."""
    until = time.monotonic() + deadline
    while True:
        found = await check()
        if found:
            return found
        if time.monotonic() > until:
            raise AssertionError(f"not within {deadline} s: {what}")
        await asyncio.sleep(0.1)


def moves_in(said: str) -> list[str]:
    """The moves the console offers Ana in what it printed (``/play 6-4 left``...)."""
    return [m.group(1) for m in (MOVE.search(line) for line in said.splitlines()) if m]


async def until(page: Page, function: str, what: str, deadline: float = DEADLINE) -> Any:
    """``function`` (JavaScript, a function's text) run in ``page`` until its answer is
    true; that answer. (Playwright's ``wait_for_function`` evaluates a string, which the
    pages' Content-Security-Policy forbids, rightly.)"""

    async def check() -> Any:
        return await page.evaluate(function)

    return await eventually(check, what, deadline)


@dataclass
class Program:
    """The real bot program: its console, where its pages are, and their keys."""

    console: ConsoleProcess
    home: Path
    base: str  # http://127.0.0.1:<port>
    community: str  # the community's key
    http: ClientSession
    game: str = ""  # the key of the game in room mesa (Ana and a hard computer)
    tournament: str = ""  # the key of the tournament Copa

    async def json(self, path: str) -> Any:
        """A page's JSON (``/g/<key>.json``...), as the program serves it now."""
        async with self.http.get(self.base + path) as response:
            assert response.status == 200, (path, response.status)
            return await response.json()

    async def game_json(self) -> Any:
        return await self.json(f"/g/{self.game}.json")

    async def room(self, name: str) -> str:
        """Move the console to room ``name``."""
        return await self.console.type(f"/room {name}")

    async def move(self, last: str) -> str:
        """Ana's first move offered in ``last`` (what the console printed), or ``/next``
        between hands; what the console printed then."""
        moves = moves_in(last)
        return await self.console.type(moves[0] if moves else "/next")

    async def ana_to_move(self) -> str:
        """Bring the game in this room to a moment where Ana has a move to make (the next
        hand dealt if need be: ``/next``, and the deal comes a moment later); the
        console's last words, her moves among them."""
        last = await self.console.type("/hand")
        for _ in range(100):
            if moves_in(last):
                return last
            await self.console.type("/next")
            await asyncio.sleep(0.2)
            last = await self.console.type("/hand")
        raise AssertionError(f"Ana never had a move: {last[-500:]}")


async def play_until(program: Program, done: Callable[[], Awaitable[bool]], turns: int) -> str:
    """Ana's moves (the first offered each time) until ``done()``; the console's last words."""
    last = await program.console.type("/hand")
    for _ in range(turns):
        if await done():
            return last
        last = await program.move(last)
        if not moves_in(last) and "next hand" in last.lower():
            await asyncio.sleep(0.2)  # everyone is ready: dealt a moment after the hand's end
    assert await done(), program.console.output[-2000:]
    return last


async def open_program(home: Path) -> Program:
    console = await start(home, WEB_PORT=str(free_port()), LOG_LEVEL="INFO")
    found = COMMUNITY.search(console.output)
    assert found, console.output[:500]
    base, community = found.groups()
    return Program(console, home, base, community, ClientSession())


async def play_the_game(program: Program) -> None:
    """Room mesa: draw to 300, Ana and a hard computer, until two hands are over and the
    third is in play with Ana to move."""
    console = program.console
    await console.type("/new draw 300")
    await console.type("/add_ai hard")
    await console.type("/begin")
    page = await program.json(f"/c/{program.community}.json")
    game = next(g for g in page["games"] if "Ana" in g["players"])  # the newest: this one
    program.game = game["key"]

    async def two_hands_over() -> bool:
        seen = await program.game_json()
        return len(seen["hands"]) >= 2 or seen["status"] != "playing"

    await play_until(program, two_hands_over, 400)
    assert (await program.game_json())["status"] == "playing", "the game ended too soon"
    await program.ana_to_move()


async def open_the_tournament(program: Program) -> None:
    """Room copa: a Swiss tournament of four computer pairs, round 1 under way."""
    console = program.console
    await program.room("copa")
    await console.type("/tournament new Copa rounds=2 minutes=20 checkin=off")
    for team in ("Bots A", "Bots B", "Bots C", "Bots D"):
        await console.type(f"/tournament register {team} computer computer")
    await console.type("/tournament close")
    await console.type("/tournament start")
    page = await program.json(f"/c/{program.community}.json")
    [tournament] = page["tournaments"]
    program.tournament = tournament["key"]
    await program.room("mesa")


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def played(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Program]:
    """The real program, its game and tournament played (above)."""
    need_a_browser()  # none: skipped before the program is started for nothing
    program = await open_program(tmp_path_factory.mktemp("browser"))
    try:
        await play_the_game(program)
        await open_the_tournament(program)
        yield program
    finally:
        await program.http.close()
        await program.console.quit()
    logged = (program.home / "log.txt").read_text()
    assert "ERROR" not in logged and "Traceback" not in logged, logged[-3000:]


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def browser() -> AsyncIterator[Browser]:
    """Chromium from the system's packages, headless, driven by Playwright."""
    path = need_a_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=path, headless=True)
        try:
            yield launched
        finally:
            await launched.close()


@dataclass
class Watched:
    """A page and everything wrong it showed: console errors, uncaught errors, failed
    requests, answers of 400 or more."""

    page: Page
    problems: list[str] = field(default_factory=list)
    watching: bool = True

    def _note(self, problem: str) -> None:
        if self.watching:
            self.problems.append(problem)

    def console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self._note(f"console error: {message.text} at {message.location}")

    def error(self, error: Exception) -> None:
        self._note(f"uncaught: {error}")

    def failed(self, request: Request) -> None:
        if request.failure == "net::ERR_ABORTED":
            return  # cancelled by the browser: the page left (its live stream cut)
        self._note(f"request failed: {request.method} {request.url} {request.failure}")

    def answered(self, response: Response) -> None:
        if response.status >= 400:
            self._note(f"answer {response.status}: {response.url}")

    def assert_clean(self) -> None:
        assert not self.problems, "\n".join(self.problems)


async def watch(page: Page) -> Watched:
    watched = Watched(page)
    page.on("console", watched.console)
    page.on("pageerror", watched.error)
    page.on("requestfailed", watched.failed)
    page.on("response", watched.answered)
    return watched


@pytest_asyncio.fixture(loop_scope="package")
async def watched(browser: Browser) -> AsyncIterator[Watched]:
    """A fresh page (its own context: nothing kept between tests); the test fails on any
    problem the page showed while it ran (checked after it, before the page closes: the
    live stream a closing page cuts is no problem)."""
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    page.set_default_timeout(DEADLINE * 1000)
    seen = await watch(page)
    try:
        yield seen
        seen.watching = False
        seen.assert_clean()
    finally:
        seen.watching = False
        await context.close()
