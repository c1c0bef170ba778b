"""What a button press carries (``callback_data``, at most 64 bytes): the command, the
game and the move number it was offered at, so an old press is recognised as old.

``c|<game>|<move>|<command>`` for a command button (``-`` for no game or move),
``p|<game>|<move>|<page>`` for a page of a hand's moves. Anything else, or anything that
does not parse, is garbage: the press is answered and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.model import Button

LIMIT = 64  # bytes, Telegram's limit on callback_data


@dataclass(frozen=True)
class Pressed:
    command: str  # "play 6-4 on 6-6", or "" for a page
    game_id: int | None
    move_number: int | None
    page: int | None = None


def encode(button: Button) -> str | None:
    """The callback data of ``button``; None if it would not fit."""
    data = f"c|{_number(button.game_id)}|{_number(button.move_number)}|{button.command}"
    return data if len(data.encode()) <= LIMIT else None


def encode_page(game_id: int, move_number: int, page: int) -> str:
    return f"p|{game_id}|{move_number}|{page}"


def decode(data: str | None) -> Pressed | None:
    """The press, or None for data this bot never sent."""
    if not data or len(data.encode()) > LIMIT:
        return None
    parts = data.split("|", 3)
    if len(parts) != 4 or parts[0] not in ("c", "p"):
        return None
    try:
        game_id, move_number = _parse(parts[1]), _parse(parts[2])
    except ValueError:
        return None
    if parts[0] == "p":
        if game_id is None or move_number is None or not parts[3].isdigit():
            return None
        return Pressed("", game_id, move_number, int(parts[3]))
    command = parts[3].strip()
    if not command or not all(c.isalnum() or c in " -_:" for c in command):
        return None
    return Pressed(command, game_id, move_number)


def _number(value: int | None) -> str:
    return "-" if value is None else str(value)


def _parse(text: str) -> int | None:
    if text == "-":
        return None
    if not text.isdigit() or len(text) > 12:
        raise ValueError(text)
    return int(text)
