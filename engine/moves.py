"""Moves: frozen values with one canonical text form (RECORD.md notation).

>>> m = Move.parse("1: 5-6 on 6-6")
>>> str(m)
'1: 6-5 on 6-6'
>>> Move.parse(str(m)) == m
True
>>> str(Move.parse("2: 18-12 on 18-18 flank")), str(Move.parse("3: 5-12 on train:2"))
('2: 18-12 on 18-18 flank', '3: 12-5 on train:2')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from engine.errors import InvalidMove
from engine.tiles import Tile


class Action(StrEnum):
    PLAY = "play"
    PASS = "pass"
    DRAW = "draw"
    END = "end"


class Side(StrEnum):
    """Which free side of a crosswise double a tile goes on (divisor games)."""

    HALF = "half"
    FLANK = "flank"


MEXICAN = -1
"""The ``train`` of a move on the Mexican train."""


@dataclass(frozen=True, slots=True)
class Move:
    seat: int
    action: Action
    tile: Tile | None = None
    on: Tile | None = None
    side: Side | None = None
    train: int | None = None

    @property
    def is_play(self) -> bool:
        return self.action is Action.PLAY

    def action_text(self) -> str:
        """The move without its seat, as a player types it after ``/play``."""
        if self.action is not Action.PLAY:
            return self.action.value
        text = str(self.tile)
        if self.train is not None:
            place = "mexican" if self.train == MEXICAN else f"train:{self.train}"
            return f"{text} on {place}"
        if self.on is not None:
            text = f"{text} on {self.on}"
            if self.side is not None:
                text = f"{text} {self.side.value}"
        return text

    def __str__(self) -> str:
        return f"{self.seat}: {self.action_text()}"

    @staticmethod
    def parse(text: str) -> Move:
        """Read ``"<seat>: <action>"``; raises :class:`InvalidMove` on bad syntax."""
        seat_text, colon, rest = text.partition(":")
        if not colon or not seat_text.strip().isdecimal():
            raise InvalidMove(f"'{text}' is not a move; write it like '1: 6-5 on 6-6'")
        return parse_action(rest, int(seat_text))


def parse_action(text: str, seat: int) -> Move:
    """Read what a player types (``6-5 on 6-6``, ``pass``, ...) as a move of ``seat``."""
    words = text.strip().lower().split()
    if not words:
        raise InvalidMove("empty move; write a tile like 6-4, or pass, draw, end")
    head = words[0]
    if len(words) == 1 and head in ("pass", "draw", "end"):
        return Move(seat, Action(head))
    tile = Tile.parse(head)
    if len(words) == 1:
        return Move(seat, Action.PLAY, tile)
    if words[1] != "on" or len(words) < 3:
        raise InvalidMove(f"'{text.strip()}' is not a move; write it like '6-5 on 6-6'")
    target = words[2]
    if len(words) == 3 and target == "mexican":
        return Move(seat, Action.PLAY, tile, train=MEXICAN)
    if len(words) == 3 and target.startswith("train:"):
        owner = target[len("train:") :]
        if not owner.isdecimal():
            raise InvalidMove(f"'{target}' is not a train; write it like train:2")
        return Move(seat, Action.PLAY, tile, train=int(owner))
    on = Tile.parse(target)
    if len(words) == 3:
        return Move(seat, Action.PLAY, tile, on=on)
    if len(words) == 4 and words[3] in ("half", "flank"):
        return Move(seat, Action.PLAY, tile, on=on, side=Side(words[3]))
    raise InvalidMove(f"'{text.strip()}' is not a move; write it like '6-5 on 6-6'")


# The biggest set whose rows of plays a hand keeps to look up again. Above it a row is
# mostly new (75% on double-18), and looking it up first, then keeping it, cost more time
# than building it, though fewer instructions: the kept rows' dicts miss the CPU's caches.
# Measured per move, deal included: fido18 4.4 -> 4.0 us, fido12 4.7 -> 4.4 us, Mexican
# Train (double-12) with 8 players 4.4 -> 4.0 us; double-6 and double-9 games keep their
# rows (building them: all-fives 4.1 -> 4.7 us, Mexican Train on double-9 2.6 -> 2.8 us).
KEEP_ROWS_UP_TO = 9


def interned_row(
    fit: int,
    base: int,
    interned: dict[int, Move],
    make: Callable[..., Move],
    seat: int,
    *where: int,
) -> list[Move]:
    """The plays by ``seat`` of the tiles in the mask ``fit``, in set order:
    ``interned[base + tile]``, made by ``make(seat, tile, *where)`` the first time. A row of
    plays is mostly new on big sets (fido18: 75%), so a tile costs no call here (a quarter
    of a fido18 move's cost)."""
    get = interned.get
    row: list[Move] = []
    while fit:
        low = fit & -fit
        tile = low.bit_length() - 1
        row.append(get(base + tile) or make(seat, tile, *where))
        fit ^= low
    return row
