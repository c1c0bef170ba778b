"""What a seat can infer from public facts: the numbers open on the table after each play,
and the numbers another seat is known to lack because it passed (or had to draw)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.moves import Action, Move
from engine.views import View


def open_numbers_after(numbers: list[int], move: Move, crosswise: bool) -> list[int]:
    """The numbers showing at the open sides (flanks included) once ``move`` is played."""
    tile = move.tile
    assert tile is not None
    if move.on is None:
        if crosswise and tile.is_double:
            return [tile.hi] * 4
        return [tile.hi, tile.lo]
    after = list(numbers)
    number = tile.hi if tile.hi in after and (tile.lo not in after or _fits_hi(move)) else tile.lo
    after.remove(number)
    if crosswise and tile.is_double:
        after += [number] * 3
    else:
        after.append(tile.other(number))
    return after


def _fits_hi(move: Move) -> bool:
    """Which of the tile's numbers meets the tile it is laid on (it shares exactly one)."""
    tile, on = move.tile, move.on
    assert tile is not None and on is not None
    return on.has(tile.hi) and (not on.has(tile.lo) or on.is_double)


@dataclass(frozen=True)
class Knowledge:
    numbers: tuple[int, ...]  # open now, one entry per open side
    lacks: tuple[frozenset[int], ...]  # per seat: numbers it is known not to hold

    @staticmethod
    def of(view: View) -> Knowledge:
        """Replay this hand's public moves (line games) to learn who lacks what."""
        crosswise = view.rules.crosswise_doubles
        lacks: list[set[int]] = [set() for _ in range(view.players)]
        numbers: list[int] = []
        for move in view.history:
            if move.action is Action.PLAY:
                numbers = open_numbers_after(numbers, move, crosswise)
                continue
            if move.action is Action.PASS and numbers:
                lacks[move.seat] |= set(numbers)
            elif move.action is Action.DRAW:
                lacks[move.seat].clear()  # the drawn tile is unknown: start over
        return Knowledge(tuple(numbers), tuple(frozenset(s) for s in lacks))
