"""What a component carries (``custom_id``, at most 100 characters): the command, the game
and the move number it was offered at, so an old press is recognised as old.

``dom:c:<game>:<move>:<command>``  a button that sends a command (``-`` for no game or move)
``dom:s:<game>:<move>:<index>``    a select menu of a hand's moves; each value is a command
``dom:p:<game>:<move>:<page>``     a button that turns a hand's moves to another page

Anything else, or anything that does not parse, was never sent by this bot: the press is
answered and changes nothing.

>>> encode(Button("6-4", "play 6-4 on 6-6", 12, 34))
'dom:c:12:34:play 6-4 on 6-6'
>>> decode("dom:c:12:-:join")
Pressed(kind='c', game_id=12, move_number=None, command='join', index=None)
>>> decode("dom:c:12:34:drop table") is None, decode("garbage") is None
(False, True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.model import Button

LIMIT = 100  # Discord's limit on a custom id
PREFIX = "dom:"
# what the dynamic items answer to (components.py); anything else is answered "not mine"
BUTTON_TEMPLATE = r"dom:[cp]:[^\n]{1,96}"
SELECT_TEMPLATE = r"dom:s:[^\n]{1,96}"
# what a command may hold: words of BOT.md, tiles (6-4), seats, train names
_COMMAND = re.compile(r"[a-z_]+( [a-z0-9_:-]+)*")
_NUMBER = re.compile(r"-|\d{1,15}")


@dataclass(frozen=True)
class Pressed:
    kind: str  # "c" command, "s" select of moves, "p" page of moves
    game_id: int | None
    move_number: int | None
    command: str = ""  # for "c"
    index: int | None = None  # the select's or the page's number


def encode(button: Button) -> str | None:
    """The custom id of ``button``; None if it would not fit."""
    data = f"{PREFIX}c:{_text(button.game_id)}:{_text(button.move_number)}:{button.command}"
    return data if len(data) <= LIMIT else None


def encode_numbered(kind: str, game_id: int, move_number: int, index: int) -> str:
    """The custom id of a hand's select menu (``s``) or page button (``p``)."""
    return f"{PREFIX}{kind}:{game_id}:{move_number}:{index}"


def decode(data: str | None) -> Pressed | None:
    """The press, or None for a custom id this bot never sent."""
    if not data or len(data) > LIMIT or not data.startswith(PREFIX):
        return None
    parts = data[len(PREFIX) :].split(":", 3)
    if len(parts) != 4 or parts[0] not in ("c", "s", "p"):
        return None
    kind, game, move, rest = parts
    if not (_NUMBER.fullmatch(game) and _NUMBER.fullmatch(move)):
        return None
    game_id, move_number = _number(game), _number(move)
    if kind == "c":
        if not _COMMAND.fullmatch(rest):
            return None
        return Pressed(kind, game_id, move_number, rest)
    if game_id is None or move_number is None or not rest.isdigit() or len(rest) > 3:
        return None
    return Pressed(kind, game_id, move_number, index=int(rest))


def is_ours(custom_id: str) -> bool:
    """Whether one of the dynamic items answers to ``custom_id``."""
    return any(re.fullmatch(t, custom_id) for t in (BUTTON_TEMPLATE, SELECT_TEMPLATE))


def is_command(value: str) -> bool:
    """A select option's value: one of the commands a hand offers."""
    return len(value) <= LIMIT and bool(_COMMAND.fullmatch(value))


def _text(value: int | None) -> str:
    return "-" if value is None else str(value)


def _number(text: str) -> int | None:
    return None if text == "-" else int(text)
