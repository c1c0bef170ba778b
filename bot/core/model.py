"""What goes into the service and what comes out: plain values, no platform in sight (a
picture's own plain values, its :class:`Table` and a leaderboard's :class:`Standing`,
are render/plain.py's: the service builds them, the doors draw them).

A :class:`Command` says who did what where; the service answers with a list of effects
for the adapter to deliver. Text in an effect is already in the language of whoever
reads it (the room's, or the user's for private messages).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.views import View
from render.plain import Standing, Table
from render.theme import THEMES as DRAWN_THEMES


@dataclass(frozen=True)
class Place:
    """A room on a platform: the community (server, group) and the room in it."""

    platform: str  # "discord", "telegram", "console"
    community: str  # platform id of the server or group
    room: str  # platform id of the channel, thread, group or topic
    community_name: str | None = None
    locale: str | None = None  # the community's language, as the platform says


@dataclass(frozen=True)
class Person:
    platform_id: str
    name: str
    locale: str | None = None
    admin: bool = False  # the platform says this person administers the room
    handle: str | None = None  # the platform's @username, when it has one (without the @)


@dataclass(frozen=True)
class Command:
    place: Place
    person: Person
    action: str  # new, join, play, ... (BOT.md's vocabulary)
    args: tuple[str, ...] = ()
    # the move number the command was made against (a button carries it): a command
    # made against an older one is stale and refused
    move_number: int | None = None
    game_id: int | None = None
    # sent from a private chat or a direct message: ``place`` is then the room of the game
    # ``game_id`` names (the adapter looked it up), and the service accepts only the
    # person's own seat actions there (Where.SEAT in bot/core/registry.py)
    private: bool = False
    # the move a pressed button carries, in RECORD.md notation ("1: 6-4 on 6-6"): the
    # engine reads it, once (``action`` is then "play", and ``args`` are empty)
    move: str | None = None
    # the door shows an answer for this person alone in the room itself, where its
    # buttons act (Discord's answers only they see, the console); False: its private
    # answers go elsewhere, where a press acts only for a seat (Telegram's private chat)
    private_in_room: bool = True
    # a line of the room's talk read by the door as a command (a move's number typed
    # alone: ``action`` "number"), not a command anyone typed: only the player to move is
    # answered (bot/core/registry.py, Where.CHAT)
    talk: bool = False


# The looks a room may choose (/settings theme): render/theme.py draws each of them.
THEMES = tuple(DRAWN_THEMES)


@dataclass(frozen=True)
class Offer:
    """One of a person's legal moves now, as autocomplete offers it."""

    tile: str  # "6-4"
    on: str | None  # "6-6", "6-6 flank", "mexican", "train:2"; None: the only place
    label: str  # as the hand's button says it
    command: str  # "play 6-4 on 6-6"


@dataclass(frozen=True)
class Post:
    """Where a room's board message is."""

    game_id: int
    message_id: str
    move_number: int | None  # the move it shows


@dataclass(frozen=True)
class Button:
    label: str
    # what pressing it sends, as typed: "play 6-4 on 6-6", "join 2", "next"
    command: str
    game_id: int | None = None
    move_number: int | None = None
    # a move's button carries the move itself, in RECORD.md notation ("1: 6-4 on 6-6"):
    # a door sends it whole (``Command.move``), so the core reads it once
    move: str | None = None


@dataclass(frozen=True)
class Link:
    """A link to a web page (issue 34): the game's ("Watch", "Replay"), the tournament's
    ("Standings"). The core names the page (``kind`` and storage's ``target``); the page's
    ``key`` is put on only when the service makes links for the door's platform, the page
    is of the community the message goes to and its pages are on (bot/core/links.py).
    A door makes the address from its base (PUBLIC_URL) and shows a link with a key only:
    a Telegram URL button, a Discord link button, a line in the console."""

    label: str  # in the reader's language
    kind: str  # "game", "tournament", "community"
    target: int  # the game's, the tournament's or the community's id
    key: str = ""  # the page's key; "" until the service puts it on


@dataclass(frozen=True)
class Say:
    """Text for the room, or for one person only (``private``)."""

    text: str
    private: Person | None = None  # only this person sees it (ephemeral or DM)
    mention: tuple[Person, ...] = ()  # people called by name (the player to move)
    buttons: tuple[Button, ...] = ()
    # an answer to a reading command (bot/core/reading.py): the game's messages queued
    # after it in its room go first
    aside: bool = False
    link: Link | None = None  # a web page (the game's summary: its replay)


@dataclass(frozen=True)
class Lobby(Say):
    """The lobby of game ``game_id``: who sits where, and the buttons to join, add a
    computer, begin, cancel. A newer one of the same game replaces it."""

    game_id: int = 0


@dataclass(frozen=True)
class TurnCall(Say):
    """ "Ana, your turn" (or "Ana, 30 seconds left"), calling ``mention`` by name in the
    room; folded into the board's text when the hand reached that person privately."""

    game_id: int = 0


@dataclass(frozen=True)
class Reply(Say):
    """An answer only the person who acted sees (``private``): help, settings, a choice
    of places for a tile. On a press, delivered in private, not as a popup."""


@dataclass(frozen=True)
class Popup(Say):
    """A short notice to the person who acted (``private``): a refusal, "nothing
    changed". On a press it is the press's popup (Telegram) or ephemeral answer
    (Discord); on a typed command it is a private answer."""

    stale: bool = False  # refused as made at an earlier moment: the person's hand follows


@dataclass(frozen=True)
class Board:
    """The room's board: draw ``view`` (the room's view) with ``table`` and edit the
    board message in place; ``text`` goes with it (whose turn, what just happened)."""

    game_id: int
    move_number: int
    view: View
    table: Table
    text: str
    buttons: tuple[Button, ...] = ()
    final: bool = False  # the game is over: this board stays as its summary
    repost: bool = False  # asked for (/board): posted anew at the bottom of the room
    # the hand is over (every hand shown, the sheet): this board stays as the hand's
    # picture; never skipped for a newer board, and the next board is a new message
    hand_end: bool = False
    # the move lines of ``text`` (what was played since the last board): a board skipped
    # for a newer one hands them on, so no move goes untold
    story: tuple[str, ...] = ()
    link: Link | None = None  # the game's web page ("Watch"; "Replay" once it is over)


@dataclass(frozen=True)
class Hand:
    """A player's hand, privately: draw ``view`` (their seat's view) and offer the
    buttons (one per legal move, keyed as the picture labels them)."""

    person: Person
    game_id: int
    move_number: int
    view: View
    table: Table
    text: str
    buttons: tuple[Button, ...] = ()
    # the person asked for it (/hand, "My hand", a press of an earlier moment): a platform
    # that can answers them where they asked (Discord: an answer only they see)
    asked: bool = False


@dataclass(frozen=True)
class File:
    """A file for the room (a game record)."""

    name: str
    data: bytes
    text: str
    private: Person | None = None


@dataclass(frozen=True)
class Picture:
    """A leaderboard for the room, drawn at delivery (bot/doors/pictures.py) from ``lines``;
    ``text`` says the same in words. With ``rows`` it is another table of figures (a
    tournament's standings): ``header`` names the columns, ``rows`` hold them as text,
    and the file is called ``name``."""

    title: str
    lines: tuple[Standing, ...]
    text: str
    lang: str = "es"
    theme: str = "classic"
    private: Person | None = None
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    name: str = "leaderboard.png"
    aside: bool = False  # as Say's
    link: Link | None = None  # a web page (a tournament's standings: its page)


@dataclass(frozen=True)
class TableToOpen:
    """One table of a tournament round, to be given a room of its own."""

    number: int
    title: str  # the room's name ("Mesa 3 · Ronda 1")
    mention: tuple[Person, ...]  # its players, called in the tournament room's list
    line: str  # its line in the tournament room's list ("Mesa 3: Los Primos – Las Fieras")


@dataclass(frozen=True)
class OpenTables:
    """Open a room per table under the tournament's room (a Discord thread, a Telegram
    forum topic, a console room) and note it (``Posts.table_opened``: the service then
    makes the table's game there, calling its players); then post ``text`` in the
    tournament room followed by each table's ``line`` with a link to its room."""

    tournament_id: int
    round: int
    tables: tuple[TableToOpen, ...]
    text: str
    link: Link | None = None  # the tournament's web page, with the list of tables


@dataclass(frozen=True)
class Elsewhere:
    """Effects for another room than the command's (a table's result told in the
    tournament room, the next round opened from the last table to finish)."""

    place: Place
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class TableTold:
    """Not a message: the tournament table's result (the effects before this one) went
    out. Delivery tells the service, which notes it; a restart tells the results never
    noted."""

    tournament_id: int
    round: int
    table: int


Effect = Say | Board | Hand | File | Picture | OpenTables | Elsewhere | TableTold


def private_to(effect: Effect) -> Person | None:
    """Who alone sees ``effect``; None for the room (and for what is no message: tables
    to open, effects for another room, a result told)."""
    if isinstance(effect, Hand):
        return effect.person
    private = getattr(effect, "private", None)
    return private if isinstance(private, Person) else None
