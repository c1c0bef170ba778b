"""What a button carries, on every platform: the command, the game and the move number it
was offered at (so an old press is recognised as old), in a few bytes the platform keeps
for us (Telegram's ``callback_data``, 64 bytes; Discord's ``custom_id``, 100 characters).

``<prefix>m<sep><game><sep><move><sep><notation>`` a button that makes a move, carried
    whole in RECORD.md notation (``1: 6-4 on 6-6``): the core reads it once
``<prefix>c<sep><game><sep><move><sep><command>``  a button that sends a command
    (``-`` for no game or no move)
``<prefix>s<sep><game><sep><move><sep><index>``    a select menu of a hand's moves (Discord;
    each option's value is a command)
``<prefix>p<sep><game><sep><move><sep><page>``     a button that turns a hand's moves to
    another page

Each platform keeps the format its live buttons already carry: Telegram ``c|12|34|draw``,
Discord ``dom:c:12:34:draw`` (a move's button of an earlier version still plays as the
words it sends). Anything else, or anything that does not parse, was never sent by this
bot: the press is answered and changes nothing.

>>> TELEGRAM.encode(Button("6-4", "play 6-4 on 6-6", 12, 34, "1: 6-4 on 6-6"))
'm|12|34|1: 6-4 on 6-6'
>>> TELEGRAM.encode(Button("Join", "join", 12))
'c|12|-|join'
>>> DISCORD.decode("dom:m:12:34:1: 6-4 on 6-6")
Pressed(kind='m', game_id=12, move_number=34, command='play', index=None, move='1: 6-4 on 6-6')
>>> TELEGRAM.decode("c|12|34|drop table;") is None, DISCORD.decode("garbage") is None
(True, True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.core import Button

MOVE = "m"  # a button that makes a move
COMMAND = "c"  # a button that sends a command
SELECT = "s"  # a select menu of a hand's moves
PAGE = "p"  # a button that turns a hand's moves to another page

# What a command may hold: words of BOT.md, tiles (6-4), seats, train names (train:2).
_COMMAND = re.compile(r"[a-z_]+( [a-z0-9_:-]+)*")
# A move in RECORD.md notation, as engine.moves writes it (the engine checks the rest).
_MOVE = re.compile(
    r"[0-9]{1,2}: (pass|draw|end|[0-9]{1,2}-[0-9]{1,2}"
    r"( on ([0-9]{1,2}-[0-9]{1,2}( half| flank)?|train:[0-9]{1,2}|mexican))?)"
)
_NUMBER = re.compile(r"-|[0-9]{1,15}")  # a game or move number, "-" for none
_INDEX = re.compile(r"[0-9]{1,3}")  # a page or a select menu's number


@dataclass(frozen=True)
class Pressed:
    """A press read back: what the button said."""

    kind: str  # MOVE, COMMAND, SELECT or PAGE
    game_id: int | None
    move_number: int | None
    command: str = ""  # for COMMAND ("play" for MOVE)
    index: int | None = None  # the page's or the select menu's number
    move: str | None = None  # for MOVE: the move, in RECORD.md notation


@dataclass(frozen=True)
class Codec:
    """One platform's button data: its prefix and separator, the kinds of button it
    sends, and its size limit (in bytes of UTF-8 or in characters)."""

    prefix: str
    separator: str
    limit: int
    kinds: str  # the kinds this platform sends: "mcp", "mcsp"
    in_bytes: bool  # the limit counts bytes (Telegram), not characters (Discord)

    def encode(self, button: Button) -> str | None:
        """The data of ``button``; None if it would not read back, or the data would not
        fit (the button is then left out)."""
        if button.move is not None:
            if not _MOVE.fullmatch(button.move):
                return None
            data = self._join(MOVE, button.game_id, button.move_number, button.move)
        elif _COMMAND.fullmatch(button.command):
            data = self._join(COMMAND, button.game_id, button.move_number, button.command)
        else:
            return None
        return data if self.fits(data) else None

    def encode_numbered(self, kind: str, game_id: int, move_number: int, index: int) -> str:
        """The data of a hand's page button (PAGE) or select menu (SELECT)."""
        assert kind in (SELECT, PAGE) and kind in self.kinds and 0 <= index < 1000
        return self._join(kind, game_id, move_number, str(index))

    def decode(self, data: str | None) -> Pressed | None:
        """The press, or None for data this bot never sent."""
        if not data or not self.fits(data) or not data.startswith(self.prefix):
            return None
        parts = data[len(self.prefix) :].split(self.separator, 3)
        if len(parts) != 4 or len(parts[0]) != 1 or parts[0] not in self.kinds:
            return None
        kind, game, move, rest = parts
        if not (_NUMBER.fullmatch(game) and _NUMBER.fullmatch(move)):
            return None
        game_id, move_number = _number(game), _number(move)
        if kind == COMMAND:
            if not _COMMAND.fullmatch(rest):
                return None
            return Pressed(kind, game_id, move_number, rest)
        if kind == MOVE:
            if game_id is None or move_number is None or not _MOVE.fullmatch(rest):
                return None
            return Pressed(kind, game_id, move_number, "play", move=rest)
        if game_id is None or move_number is None or not _INDEX.fullmatch(rest):
            return None
        return Pressed(kind, game_id, move_number, index=int(rest))

    def option(self, button: Button) -> str:
        """What a select menu's option carries for ``button``: its move, or its command."""
        return button.move if button.move is not None else button.command

    def chosen(self, pressed: Pressed, value: str) -> Pressed | None:
        """A select menu's press (``pressed``) with the option chosen, ``value``: a move,
        or a command a button may send (None: neither)."""
        if not self.fits(value):
            return None
        if _MOVE.fullmatch(value):
            return Pressed(MOVE, pressed.game_id, pressed.move_number, "play", move=value)
        if _COMMAND.fullmatch(value):
            return Pressed(COMMAND, pressed.game_id, pressed.move_number, value)
        return None

    def fits(self, data: str) -> bool:
        return (len(data.encode()) if self.in_bytes else len(data)) <= self.limit

    def template(self, kinds: str) -> str:
        """A regular expression matching the data of buttons of ``kinds`` (what
        Discord's dynamic items answer to); whether it parses is :meth:`decode`'s."""
        longest = self.limit - len(self.prefix) - 2
        return f"{re.escape(self.prefix)}[{kinds}]{re.escape(self.separator)}[^\\n]{{1,{longest}}}"

    def _join(self, kind: str, game_id: int | None, move_number: int | None, rest: str) -> str:
        fields = (kind, _text(game_id), _text(move_number), rest)
        return self.prefix + self.separator.join(fields)


TELEGRAM = Codec(prefix="", separator="|", limit=64, kinds=MOVE + COMMAND + PAGE, in_bytes=True)
DISCORD = Codec(
    prefix="dom:", separator=":", limit=100, kinds=MOVE + COMMAND + SELECT + PAGE, in_bytes=False
)


def _text(value: int | None) -> str:
    return "-" if value is None else str(value)


def _number(text: str) -> int | None:
    return None if text == "-" else int(text)
