"""The console room: a chat room in the terminal on the real service and storage.

Type the same commands as on the platforms (``/new``, ``/join``, ``/begin``,
``/play 6-4 on 6-6``, ...); ``/help`` says what can be done now and lists the commands of
the registry (bot/core/registry.py); ``/as Ana`` switches who you are, for a hot-seat game;
``/quit`` leaves (the game stays saved: ``make run`` resumes it). Effects go out through the
one delivery core like every door's (bot/doors/console/platform.py prints them).
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from bot import core
from bot.core import Command, Effect, GameService, Person, Place, Popup, Posts
from bot.doors.console.platform import ConsolePlatform, Screen, safe
from bot.doors.delivery import Delivery
from bot.doors.person_names import name_refusal
from bot.doors.timer_loop import TimerLoop
from lang import language, tr

PLACE_ID = ("console", "local", "mesa")
PROMPT = "› "  # printed when the room waits for the next line
# a line that is a move by itself: "6-3", "6–3", "6-3 on 6-6", "6-3 en 6-6 left" (any dash:
# the dispatch reads them all as "-")
BARE_MOVE = re.compile(r"^\d{1,2}[-‐‑‒–—―−﹘﹣－]\d{1,2}(\s|$)")


class Console:
    """The room in the terminal: lines typed become commands, their effects go out through
    the one delivery core (bot/doors/delivery.py) to the screen."""

    def __init__(
        self,
        service: GameService,
        posts: Posts,
        out: TextIO,
        pictures: Path,
        name: str,
        lang: str = "es",
        base: str = "",
    ) -> None:
        self.service = service
        lang = language(lang)
        place = Place(*PLACE_ID, community_name="console", locale=lang)
        self.screen = Screen(out, pictures, place, name, lang, {place.room})
        # the console's own person (CONSOLE_NAME) administers its rooms and its community;
        # those played with /as are members like any in a group (an organiser and a judge
        # are told apart)
        self.owner = name
        self.timers = TimerLoop(service, self.deliver)
        # a round's tables: their games are made by timers due at once, fired before the
        # next line is read (a line typed meanwhile finds its table set)
        self._tables_opened = False
        # ``base``: where the web pages are, for the links printed (none when "")
        platform = ConsolePlatform(self.screen, base)
        self.delivery: Delivery[None] = Delivery(platform, posts, self._woken)

    @property
    def place(self) -> Place:
        return self.screen.place

    def print(self, text: str = "") -> None:
        self.screen.print(text)

    async def run(self, lines: AsyncIterator[str], stop: asyncio.Event | None = None) -> None:
        """Read and answer lines until /quit, the end of the input or ``stop`` (Ctrl-C:
        at once, not at the next line)."""
        stop = stop or asyncio.Event()
        pictures = self.screen.pictures
        pictures.mkdir(mode=0o700, parents=True, exist_ok=True)
        for picture in pictures.iterdir():  # as an older version left them
            picture.chmod(0o600)
        timers = asyncio.create_task(self.timers.run())
        # the room's language as it was left (/settings language), not CONSOLE_LANGUAGE's
        lang = await self.service.language_of(self.place)
        self.screen.lang = lang
        self.screen.place = replace(self.place, locale=lang)
        self.print(
            tr(
                self.screen.lang,
                "Console room. You are {name}. Type /help, or /quit to leave.",
                name=self.screen.name,
            )
        )
        await self._coming_back()
        self._prompt()
        stopping = asyncio.create_task(stop.wait())
        try:
            while not stop.is_set():
                reading = asyncio.ensure_future(anext(lines, None))
                await asyncio.wait((reading, stopping), return_when=asyncio.FIRST_COMPLETED)
                if not reading.done():
                    reading.cancel()
                    await asyncio.gather(reading, return_exceptions=True)
                    self.print()
                    break
                line = reading.result()
                if line is None or not await self.line(line.strip()):
                    break
                self._prompt()
        finally:
            stopping.cancel()
            timers.cancel()
            aclose = getattr(lines, "aclose", None)
            if aclose is not None:
                await aclose()
        self.print(tr(self.screen.lang, "Bye. The game is saved; make run resumes it."))

    async def _coming_back(self) -> None:
        """``make run`` on a game in progress: its board, and the hand of the person here
        (their turn is called on the board). Nothing where there is no game in play."""
        for action in ("board", "hand"):
            effects = await self.service.handle(Command(self.place, self._person(), action))
            shown = [e for e in effects if not isinstance(e, Popup)]  # (refused: no game)
            if shown:
                await self.deliver(self.place, shown)

    def _person(self) -> Person:
        screen = self.screen
        admin = screen.name.casefold() == self.owner.casefold()
        return replace(screen.person(), admin=admin)

    def _prompt(self) -> None:
        self.screen.out.write(PROMPT)
        self.screen.out.flush()

    async def line(self, text: str) -> bool:
        """Handle one typed line; False to quit."""
        screen = self.screen
        if not text:
            return True
        if BARE_MOVE.match(text) or core.typed_number(text):
            # "6-3", "6-3 on 6-6" or a move's number ("2") alone is a play: the console has
            # no talk, every line is for the bot (a wrong one is answered, as /play's)
            text = "/play " + text
        if not text.startswith("/"):
            self.print(tr(screen.lang, "Commands start with /. Try /help."))
            return True
        words = text[1:].split()
        action, args = words[0].lower().split("@")[0], tuple(words[1:])
        if action in ("quit", "exit", "salir", "sair"):
            return False
        if action in ("room", "sala"):
            self._room(args)
            return True
        if action == "as":
            if not args:
                self.print(tr(screen.lang, "Who? For example: /as Ana"))
            elif (refused := name_refusal(" ".join(args))) is not None:
                self.print(tr(screen.lang, refused, name=safe(" ".join(args))))  # still you
            else:
                screen.name = " ".join(args)
                self.print(tr(screen.lang, "You are now {name}.", name=screen.name))
            return True
        action = core.command_named(action) or action  # "/mano" is "/hand"
        command = Command(screen.place, self._person(), action, args)
        await self.deliver(screen.place, await self.service.handle(command))
        if action == "settings" and len(args) == 2 and args[0].lower() == "language":
            chosen = args[1].lower()  # the room's new language is the console's own
            if language(chosen) == chosen:
                screen.lang = chosen
                screen.place = replace(screen.place, locale=chosen)
        if action == "help":
            self._commands()
        return True

    def _room(self, args: tuple[str, ...]) -> None:
        """``/room`` lists the console's rooms; ``/room <name>`` moves there (a tournament's
        table, or a room of your own: any name opens one)."""
        screen = self.screen
        if not args:
            rooms = ", ".join(sorted({screen.place.room, *screen.rooms}))
            self.print(tr(screen.lang, "You are in {room}. Rooms: {rooms}",
                          room=screen.place.room, rooms=rooms))  # fmt: skip
            return
        name = safe(" ".join(args))[:40]
        screen.place = replace(screen.place, room=name)
        screen.rooms.add(name)
        self.print(tr(screen.lang, "You are in {room} now.", room=name))

    def _commands(self) -> None:
        """Every command people use, with what it does (the registry's order)."""
        lang = self.screen.lang
        self.print(tr(lang, "Commands:"))
        for spec in core.public_commands():
            self.print(f"  /{core.name_in(lang, spec.name)}: {tr(lang, spec.about)}")
        self.print(
            tr(
                lang,
                "/as <name> plays as someone else at this table; /room <name> moves to"
                " another room (a tournament's table); /quit leaves (the game stays saved).",
            )
        )

    async def deliver(self, place: Place, effects: list[Effect]) -> None:
        """The effects out through the delivery core, printed before the next prompt; a
        round's tables given their games at once (their timers), and what those say."""
        await self.delivery.deliver(place, effects)
        await self.delivery.idle()
        while self._tables_opened:
            self._tables_opened = False
            await self.timers.tick()
            await self.delivery.idle()

    def _woken(self) -> None:
        self._tables_opened = True


async def stdin_lines() -> AsyncIterator[str]:
    """The lines typed, read as they come without a thread blocked in ``readline`` (which
    would keep the program from ending on Ctrl-C until Enter)."""
    loop = asyncio.get_running_loop()
    fd = sys.stdin.fileno()
    chunks: asyncio.Queue[bytes] = asyncio.Queue()

    def readable() -> None:
        chunk = os.read(fd, 65536)
        if not chunk:  # the end: read no more
            loop.remove_reader(fd)
        chunks.put_nowait(chunk)

    try:
        loop.add_reader(fd, readable)
    except (OSError, ValueError, NotImplementedError):  # a regular file: never blocks long
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            yield line
        return
    pending = b""
    try:
        while True:
            chunk = await chunks.get()
            if not chunk:
                if pending:
                    yield pending.decode(errors="replace")
                return
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                yield line.decode(errors="replace") + "\n"
    finally:
        loop.remove_reader(fd)
