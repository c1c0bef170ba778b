"""The game service: commands in, effects out, platform-neutral.

This package's names are its whole public surface: the doors (bot/doors/) import these and
nothing else of the core (an import-linter contract in pyproject.toml holds them to it).

- :class:`GameService`: the door (``handle``) and the few read-only questions the doors
  ask (ten public methods in all).
- :class:`WebPages` (``GameService.pages``): the web pages' read-only questions (a page's
  key, a key's page as JSON-ready data, docs/web.md); the web door is given this alone.
- :class:`Command` and the people and places in it; the effects that come back (``Say``,
  ``Board``, ``Hand``...), plain values for a door to deliver; a ``Link`` to a web page on
  some of them (its key put on only for the platforms the service makes links for).
- :class:`Posts`: what the doors keep in storage while they deliver (which message is a
  room's board, which hand went out, the rooms of a tournament's tables); a door is given
  one beside the service, and delivering never calls the service.
- The registry's questions: which commands people use, which are in a menu, which ask
  the platform whether the person administers the room, how a button that sends one
  looks, what each is called in a language and which one a typed name names, whether a
  line typed is a move's number.
- The few catalog ids a door says of its own accord (the database away, a stale press).
"""

from __future__ import annotations

from bot.core.bounded import Bounded
from bot.core.describe import describe_table
from bot.core.model import (
    THEMES,
    Board,
    Button,
    Command,
    Effect,
    Elsewhere,
    File,
    Hand,
    Link,
    Lobby,
    Offer,
    OpenTables,
    Person,
    Picture,
    Place,
    Popup,
    Post,
    Reply,
    Say,
    Standing,
    Table,
    TableTold,
    TableToOpen,
    TurnCall,
    private_to,
)
from bot.core.pages.web import WebPages
from bot.core.posts import RELEASED, Posts
from bot.core.registry import (
    TYPED_NUMBER_PATTERN,
    Kind,
    Option,
    Spec,
    Style,
    asks_admin,
    command_named,
    community_admins,
    name_in,
    style_of,
    typed_number,
)
from bot.core.registry import menu as menu_commands
from bot.core.registry import moves as move_commands
from bot.core.registry import public as public_commands
from bot.core.service import GameService, StorageError, Unavailable
from bot.core.texts import DATABASE_DOWN, NOTHING_CHANGED, STALE

__all__ = [
    "DATABASE_DOWN",
    "NOTHING_CHANGED",
    "RELEASED",
    "STALE",
    "THEMES",
    "TYPED_NUMBER_PATTERN",
    "Board",
    "Bounded",
    "Button",
    "Command",
    "Effect",
    "Elsewhere",
    "File",
    "GameService",
    "Hand",
    "Kind",
    "Link",
    "Lobby",
    "Offer",
    "OpenTables",
    "Option",
    "Person",
    "Picture",
    "Place",
    "Popup",
    "Post",
    "Posts",
    "Reply",
    "Say",
    "Spec",
    "Standing",
    "StorageError",
    "Style",
    "Table",
    "TableToOpen",
    "TableTold",
    "TurnCall",
    "Unavailable",
    "WebPages",
    "asks_admin",
    "command_named",
    "community_admins",
    "describe_table",
    "menu_commands",
    "move_commands",
    "name_in",
    "private_to",
    "public_commands",
    "style_of",
    "typed_number",
]
