"""What goes into the service and what comes out: plain values, no platform in sight.

A :class:`Command` says who did what where; the service answers with a list of effects
for the adapter to deliver. Text in an effect is already in the language of whoever
reads it (the room's, or the user's for private messages).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.views import View
from render.board import Table


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
    # person's own seat actions there (PRIVATE_ACTIONS in bot/core.py)
    private: bool = False


@dataclass(frozen=True)
class Button:
    label: str
    command: str  # what pressing it sends: "play 6-4 on 6-6", "join 2", "next"
    game_id: int | None = None
    move_number: int | None = None


@dataclass(frozen=True)
class Say:
    """Text for the room, or for one person only (``private``)."""

    text: str
    private: Person | None = None  # only this person sees it (ephemeral or DM)
    mention: tuple[Person, ...] = ()  # people called by name (the player to move)
    buttons: tuple[Button, ...] = ()


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


@dataclass(frozen=True)
class File:
    """A file for the room (a game record)."""

    name: str
    data: bytes
    text: str
    private: Person | None = None


@dataclass(frozen=True)
class Picture:
    """A ready-made picture for the room (a leaderboard, a score sheet)."""

    png: bytes
    text: str
    private: Person | None = None


Effect = Say | Board | Hand | File | Picture


def private_to(effect: Effect) -> Person | None:
    """Who alone sees ``effect``; None for the room."""
    if isinstance(effect, Hand):
        return effect.person
    if isinstance(effect, Board):
        return None
    return effect.private
