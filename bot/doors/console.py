"""The console room: a chat room in the terminal on the real service and storage.

Type the same commands as on the platforms (``/new``, ``/join``, ``/begin``,
``/play 6-4 on 6-6``, ...); ``/help`` says what can be done now and lists the commands of
the registry (bot/core/registry.py); ``/as Ana`` switches who you are, for a hot-seat game;
``/quit`` leaves (the game stays saved: ``make run`` resumes it). Pictures (boards, hands,
leaderboards) go to files whose paths are printed; what only one person sees is printed
marked as such.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import TextIO, TypeGuard

from bot import core
from bot.core import (
    Board,
    Button,
    Command,
    Effect,
    Elsewhere,
    File,
    GameService,
    Hand,
    Lobby,
    OpenTables,
    Person,
    Picture,
    Place,
    Say,
    TableTold,
    describe_table,
)
from bot.doors.pictures import board_png, hand_png, picture_png
from bot.doors.timer_loop import TimerLoop
from lang import language, tr

PLACE_ID = ("console", "local", "mesa")
PROMPT = "› "  # printed when the room waits for the next line
# a line that is a move by itself: "6-3", "6–3", "6-3 on 6-6", "6-3 en 6-6 left" (any dash:
# the dispatch reads them all as "-")
BARE_MOVE = re.compile(r"^\d{1,2}[-‐‑‒–—―−﹘﹣－]\d{1,2}(\s|$)")


class Console:
    def __init__(
        self,
        service: GameService,
        out: TextIO,
        pictures: Path,
        name: str,
        lang: str = "es",
    ) -> None:
        self.service = service
        self.out = out
        self.pictures = pictures
        self.name = name
        self.lang = language(lang)
        self.place = Place(*PLACE_ID, community_name="console", locale=self.lang)
        self.rooms: set[str] = {self.place.room}  # the rooms seen (tournament tables too)

    def print(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def run(self, lines: AsyncIterator[str], stop: asyncio.Event | None = None) -> None:
        """Read and answer lines until /quit, the end of the input or ``stop`` (Ctrl-C:
        at once, not at the next line)."""
        stop = stop or asyncio.Event()
        self.pictures.mkdir(mode=0o700, parents=True, exist_ok=True)
        for picture in self.pictures.iterdir():  # as an older version left them
            picture.chmod(0o600)
        timers = asyncio.create_task(TimerLoop(self.service, self.deliver).run())
        self.print(
            tr(
                self.lang,
                "Console room. You are {name}. Type /help, or /quit to leave.",
                name=self.name,
            )
        )
        self.out.write(PROMPT)
        self.out.flush()
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
                self.out.write(PROMPT)
                self.out.flush()
        finally:
            stopping.cancel()
            timers.cancel()
            aclose = getattr(lines, "aclose", None)
            if aclose is not None:
                await aclose()
        self.print(tr(self.lang, "Bye. The game is saved; make run resumes it."))

    async def line(self, text: str) -> bool:
        """Handle one typed line; False to quit."""
        if not text:
            return True
        if BARE_MOVE.match(text):  # "6-3" or "6-3 on 6-6" alone is a play
            text = "/play " + text
        if not text.startswith("/"):
            self.print(tr(self.lang, "Commands start with /. Try /help."))
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
                self.print(tr(self.lang, "Who? For example: /as Ana"))
            else:
                self.name = " ".join(args)[:40]
                self.print(tr(self.lang, "You are now {name}.", name=self.name))
            return True
        person = Person(self.name.lower(), self.name, self.lang, admin=True)
        command = Command(self.place, person, action, args)
        await self.deliver(self.place, await self.service.handle(command))
        if action == "settings" and len(args) == 2 and args[0].lower() == "language":
            chosen = args[1].lower()  # the room's new language is the console's own
            if language(chosen) == chosen:
                self.lang = chosen
                self.place = replace(self.place, locale=chosen)
        if action == "help":
            self._commands()
        return True

    def _room(self, args: tuple[str, ...]) -> None:
        """``/room`` lists the console's rooms; ``/room <name>`` moves there (a tournament's
        table, or a room of your own: any name opens one)."""
        if not args:
            rooms = ", ".join(sorted({self.place.room, *self.rooms}))
            self.print(tr(self.lang, "You are in {room}. Rooms: {rooms}", room=self.place.room,
                          rooms=rooms))  # fmt: skip
            return
        name = _safe(" ".join(args))[:40]
        self.place = replace(self.place, room=name)
        self.rooms.add(name)
        self.print(tr(self.lang, "You are in {room} now.", room=name))

    def _commands(self) -> None:
        """Every command people use, with what it does (the registry's order)."""
        self.print(tr(self.lang, "Commands:"))
        for spec in core.public_commands():
            self.print(f"  /{spec.name}: {tr(self.lang, spec.about)}")
        self.print(
            tr(
                self.lang,
                "/as <name> plays as someone else at this table; /room <name> moves to"
                " another room (a tournament's table); /quit leaves (the game stays saved).",
            )
        )

    async def deliver(self, place: Place, effects: list[Effect]) -> None:
        """Print what happens in the room you are in; of the other rooms (a tournament's
        other tables) only what is said, marked with the room's name."""
        if place.room != self.place.room:
            await self._elsewhere(place, effects)
            return
        for effect in effects:
            if await self._routed(effect):
                continue
            if isinstance(effect, Board):
                path = self.pictures / "board.png"
                png = await board_png(effect)
                _write_private(path, png)
                if getattr(effect, "hand_end", False) or effect.final:
                    # the hand's end stays as its own file (every hand, the sheet): the
                    # next hand's board overwrites board.png only
                    number = effect.view.hand_number
                    path = self.pictures / f"game-{effect.game_id}-hand-{number}.png"
                    _write_private(path, png)
                if effect.repost:  # /board: its text is the table in words, once
                    self.print(effect.text)
                else:
                    described = describe_table(effect.view, effect.table.names, effect.table.lang)
                    if effect.text and effect.text != described:
                        self.print(effect.text)
                    self.print(described)
                self.print(tr(self.lang, "Board picture: {path}", path=path))
                self._buttons(effect.buttons)
            elif isinstance(effect, Hand):
                who = effect.person.name
                path = self.pictures / f"hand-{_safe(who)}.png"
                _write_private(path, await hand_png(effect))
                self._only(effect.person)
                self.print(effect.text)
                self.print(tr(self.lang, "Hand picture: {path}", path=path))
                self._buttons(effect.buttons)
            elif isinstance(effect, Say):  # a lobby, a turn call, a reply, a popup, a text
                self._only(effect.private)
                self.print(effect.text)
                self._buttons(effect.buttons)
            elif isinstance(effect, Picture):
                self._only(effect.private)
                self._saved(effect.name, await picture_png(effect), effect.text)
            elif isinstance(effect, File):
                self._only(effect.private)
                self._saved(effect.name, effect.data, effect.text)

    async def _elsewhere(self, place: Place, effects: list[Effect]) -> None:
        self.rooms.add(place.room)
        for effect in effects:
            if not await self._routed(effect) and _heard_elsewhere(effect, self.name):
                self.print(f"[{place.room}] " + effect.text)

    async def _routed(self, effect: Effect) -> bool:
        """Deal with an effect that shows nothing where it is (tables to open, effects
        for another room, a result told); whether it was one."""
        if isinstance(effect, OpenTables):
            await self._open_tables(effect)
        elif isinstance(effect, Elsewhere):
            await self.deliver(effect.place, list(effect.effects))
        elif isinstance(effect, TableTold):
            await self.service.table_told(effect)
        else:
            return False
        return True

    async def _open_tables(self, tables: OpenTables) -> None:
        """A console room per table ("r1-t2"): its game made there; the list printed."""
        lines = [tables.text]
        for table in tables.tables:
            room = replace(self.place, room=f"r{tables.round}-t{table.number}")
            self.rooms.add(room.room)
            made = await self.service.open_table(room, tables.tournament_id, tables.round,
                                                 table.number)  # fmt: skip
            await self.deliver(room, made)
            lines.append(f"{table.line} → /room {room.room}")
        self.print("\n".join(lines))

    def _only(self, person: Person | None) -> None:
        if person is not None:
            self.print(tr(self.lang, "[only {name} sees this]", name=person.name))

    def _saved(self, name: str, data: bytes, text: str) -> None:
        path = self.pictures / _safe(name)
        _write_private(path, data)
        self.print(text)
        self.print(tr(self.lang, "Saved to {path}", path=path))

    def _buttons(self, buttons: tuple[Button, ...]) -> None:
        for button in buttons:
            self.print(f"  [{button.label}] → /{button.command}")


def _heard_elsewhere(effect: Effect, me: str) -> TypeGuard[Say | Hand]:
    """What the console prints of another room: what is said to everyone there (not its
    lobby), and your own hand."""
    if isinstance(effect, Hand):
        return effect.person.name == me
    return isinstance(effect, Say) and effect.private is None and not isinstance(effect, Lobby)


def _write_private(path: Path, data: bytes) -> None:
    """A picture for this user only: a hand's picture shows its tiles."""
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as file:
        os.fchmod(file.fileno(), 0o600)
        file.write(data)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:60] or "x"


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
