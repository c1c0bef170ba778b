"""The console's part of the delivery core: effects printed in the terminal, pictures
written to files whose paths are printed.

One screen shows one room at a time (the room you are in, :class:`Screen`); of the other
rooms (a tournament's tables) it prints what is said to everyone there, marked with the
room's name, and your own hand. What only one person sees is printed marked as such: the
console's own way of "to this person only". Nothing here is ever closed to anyone.

A hot seat (several people at one screen, each in turn with ``/as``): what is private to
someone other than the person the console is now (a hand, its moves, a private answer, a
file for them) is held back, never printed; when the held hand is one to act on (their
turn, or their choice of who opens), the screen says whose turn it is and how to see it:
"Beto's turn: the others look away, and Beto types /as Beto and then /hand". The hand of
the person the console is now shows when it is theirs to act on or they ask for it, not
while another acts (at the deal). With one person at the table, who is always
themselves, everything of theirs shows as it comes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

from bot import core
from bot.core import (
    Board,
    Button,
    File,
    Hand,
    Link,
    Lobby,
    Person,
    Picture,
    Place,
    Say,
    describe_table,
)
from bot.doors.links import labelled
from bot.doors.platform import Platform
from bot.doors.texts import CONSOLE_TURN
from lang import tr

# messages after the board that push it out of view: a terminal scrolls, the board is
# printed anew with each update anyway
BURIED = 1_000_000


@dataclass
class Screen:
    """What the terminal shows: the room you are in, who you are, in which language, and
    the rooms seen (a tournament's tables too)."""

    out: TextIO
    pictures: Path
    place: Place
    name: str
    lang: str
    rooms: set[str] = field(default_factory=set)

    def print(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def here(self, place: Place) -> bool:
        return place.room == self.place.room

    def person(self) -> Person:
        """Who the console is now (``/as``): no language of their own (one screen, the
        room's language for everyone at it)."""
        return Person(self.name.lower(), self.name, None)

    def is_me(self, person: Person | None) -> bool:
        """Whether what is private to ``person`` may show now: theirs is the screen (None:
        it is everyone's)."""
        return person is None or person.platform_id == self.person().platform_id


class ConsolePlatform(Platform[None]):
    name = "console"
    buried = BURIED
    numbered = False
    private_lanes = False  # one terminal: everything in the order it happened
    notifies_privately = False  # every hand is printed on the one screen

    def __init__(self, screen: Screen, base: str = "") -> None:
        self.screen = screen
        # where the web pages are (PUBLIC_URL, else the address this process serves them
        # at): a link is a line of its own, "Watch: http://127.0.0.1:8080/g/..."
        self.base = base
        self._posted = 0

    def draws(self, place: Place) -> bool:
        return self.screen.here(place)

    def _new(self) -> str:
        self._posted += 1
        return str(self._posted)

    # ----- the board -------------------------------------------------------------------

    async def post_board(self, place: Place, board: Board, png: bytes) -> str:
        self._board(place, board, png)
        return self._new()

    async def edit_board(self, place: Place, message_id: str, board: Board, png: bytes) -> bool:
        self._board(place, board, png)
        return True

    def _board(self, place: Place, board: Board, png: bytes) -> None:
        screen = self.screen
        if not screen.here(place):
            return  # another room's board: its words reach here as what is said there
        path = screen.pictures / "board.png"
        write_private(path, png)
        if board.hand_end or board.final:
            # the hand's end stays as its own file (every hand, the sheet): the next
            # hand's board overwrites board.png only
            number = board.view.hand_number
            path = screen.pictures / f"game-{board.game_id}-hand-{number}.png"
            write_private(path, png)
        if board.repost:  # /board: its text is the table in words, once
            screen.print(board.text)
        else:
            # the opening draw was told with the deal, on this screen: not again with
            # every board of the hand's first round (/board, above, still says it)
            view = replace(board.view, opening_draw=())
            table = board.table
            described = describe_table(view, table.names, table.lang, table.clock_seconds)
            if board.text and board.text != described:
                screen.print(board.text)
            screen.print(described)
        screen.print(tr(screen.lang, "Board picture: {path}", path=path))
        self._buttons(board.buttons)
        self._link(board.link)

    # ----- text ------------------------------------------------------------------------

    async def room_text(self, place: Place, say: Say, origin: None) -> str | None:
        screen = self.screen
        if screen.here(place):
            screen.print(say.text)
            self._buttons(say.buttons)
            self._link(say.link)
        elif not isinstance(say, Lobby):  # of another room, what is said to everyone
            screen.rooms.add(place.room)
            screen.print(f"[{place.room}] " + say.text)
            self._link(say.link, f"[{place.room}] ")
        return self._new()

    async def private_text(self, place: Place, person: Person, say: Say, origin: None) -> bool:
        if self.screen.here(place) and self.screen.is_me(person):  # (held back: not theirs)
            self._only(person)
            self.screen.print(say.text)
            self._buttons(say.buttons)
        return True

    # ----- pictures and files ----------------------------------------------------------

    async def hand(self, place: Place, hand: Hand, png: bytes, origin: None) -> bool:
        screen = self.screen
        if not screen.is_me(hand.person):  # another person's at this screen: held back
            if hand.buttons and screen.here(place):  # theirs to act on: they are called
                name = hand.person.name
                screen.print(tr(screen.lang, CONSOLE_TURN, name=name))
            return True
        if not (hand.buttons or hand.asked) and hot_seat(hand):
            return True  # yours, but another person acts now (the deal): /hand shows it
        if not screen.here(place):  # your own hand at another table
            screen.rooms.add(place.room)
            screen.print(f"[{place.room}] " + hand.text)
            return True
        path = screen.pictures / f"hand-{safe(hand.person.name)}.png"
        write_private(path, png)
        self._only(hand.person)
        screen.print(hand.text)
        screen.print(tr(screen.lang, "Hand picture: {path}", path=path))
        self._buttons(hand.buttons)
        return True

    async def picture(self, place: Place, picture: Picture, png: bytes, origin: None) -> str:
        if not self.screen.is_me(picture.private):  # another person's: held back
            return self._new()
        if self.screen.here(place):
            self._only(picture.private)
            self._saved(picture.name, png, picture.text)
            self._link(picture.link)
        elif picture.private is None:  # of another room: its words, as what is said there
            # (a round's standings in the tournament's room: "Standings:" and then them)
            self.screen.rooms.add(place.room)
            self.screen.print(f"[{place.room}] " + picture.text)
            self._link(picture.link, f"[{place.room}] ")
        return self._new()

    async def file(self, place: Place, file: File, origin: None) -> str:
        if self.screen.here(place) and self.screen.is_me(file.private):  # (else held back)
            self._only(file.private)
            self._saved(file.name, file.data, file.text)
        return self._new()

    # ----- tournament tables -----------------------------------------------------------

    async def open_room(self, place: Place, title: str, key: str) -> Place:
        """A console room per table, called by its key ("r1-t2": /room r1-t2 goes there)."""
        self.screen.rooms.add(key)
        return replace(place, room=key)

    def link(self, place: Place) -> str:
        return f"/room {place.room}"

    # ----- lines -----------------------------------------------------------------------

    def _only(self, person: Person | None) -> None:
        if person is not None:
            self.screen.print(tr(self.screen.lang, "[only {name} sees this]", name=person.name))

    def _saved(self, name: str, data: bytes, text: str) -> None:
        path = self.screen.pictures / safe(name)
        write_private(path, data)
        self.screen.print(text)
        self.screen.print(tr(self.screen.lang, "Saved to {path}", path=path))

    def _link(self, link: Link | None, before: str = "") -> None:
        """A link to a web page, printed instead of a button: "Watch: http://..."."""
        shown = labelled(self.base, link)
        if shown is not None:
            self.screen.print(f"{before}{shown[0]}: {shown[1]}")

    def _buttons(self, buttons: tuple[Button, ...]) -> None:
        for button in buttons:
            name, _, rest = button.command.partition(" ")  # named in the screen's language
            typed = " ".join((core.name_in(self.screen.lang, name), rest)).strip()
            self.screen.print(f"  [{button.label}] → /{typed}")


def hot_seat(hand: Hand) -> bool:
    """Whether several people play at the hand's table (at the console: at this one
    screen, taking turns with /as); a seat's tag is empty for a person."""
    return sum(not tag for tag in hand.table.tags) > 1


def write_private(path: Path, data: bytes) -> None:
    """A picture for this user only: a hand's picture shows its tiles."""
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as file:
        os.fchmod(file.fileno(), 0o600)
        file.write(data)


def safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:60] or "x"
