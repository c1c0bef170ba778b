"""A chain of tiles laid as a snake: along a row, turning at the edges.

A turn is one upright tile at the edge; rows are two units apart, so a double lying
across the line (upright) never reaches into the next row. A double always lies across
the line (issue 33): it is never the tile that turns; a double that comes just after a
turn lies across the turn's column (the line goes on down the column through it, and
the next row starts under the next tile), and where a double would touch a tile of
another row the line turns earlier (a short search that tries the usual snake first
and backtracks). After a double across, the turning tile is laid
beside the double's end half (its other half clears the double) and the next row runs
half a unit further; so it does where a double of the next row would touch one of this
row. Only if no way is found within the search's budget does a double lie
along the line, as it used to.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.tiles import Tile
from render.geometry import EPS, Box, PlacedTile

GAP = 0.25  # units kept between tiles that do not meet
BUDGET = 600  # tiles tried at most by the search (a 90-tile chain needs about 100)

# (the tile, the number it shows against the tile before it, the tile it was laid on)
Link = tuple[Tile, int, Tile | None]


def snake(
    chain: Sequence[Link],
    cursor: float,
    y: float,
    d: int,
    v: int,
    xmin: float,
    xmax: float,
    owner: int | None = None,
    after_turn: bool = False,
    others: Sequence[PlacedTile] = (),
    after_double: bool = False,
) -> list[PlacedTile]:
    """Lay ``chain`` from the edge ``cursor`` of the row centred on ``y``, in direction
    ``d`` (+1: right), turning towards ``v`` (+1: down) before passing ``xmin``/``xmax``,
    every double across the line, clear of ``others`` (the tiles laid before) by a gap.
    ``after_turn``: the first tile is laid under a turn (it is never a double);
    ``after_double``: it is laid against a double across the line."""
    found = snake_across(
        chain, cursor, y, d, v, xmin, xmax, owner, after_turn, others, after_double
    )
    if found is not None:
        return found
    return _greedy(chain, cursor, y, d, v, xmin, xmax, owner, after_turn, others)


def snake_across(
    chain: Sequence[Link],
    cursor: float,
    y: float,
    d: int,
    v: int,
    xmin: float,
    xmax: float,
    owner: int | None = None,
    after_turn: bool = False,
    others: Sequence[PlacedTile] = (),
    after_double: bool = False,
) -> list[PlacedTile] | None:
    """:func:`snake` with every double across, or None where the search finds no way."""
    laid: list[PlacedTile] = []
    state = _Snake(chain, xmin, xmax, v, owner, others)
    return laid if state.lay(0, cursor, y, d, after_turn, after_double, laid) else None


class _Snake:
    """One search for a snake whose doubles all lie across: each tile goes on along the
    row, or else (a non-double, not just after a turn) turns; a dead end (a double
    where it could not lie across) goes back to turn earlier."""

    def __init__(
        self,
        chain: Sequence[Link],
        xmin: float,
        xmax: float,
        v: int,
        owner: int | None,
        others: Sequence[PlacedTile],
    ) -> None:
        self.chain, self.xmin, self.xmax, self.v = chain, xmin, xmax, v
        self.owner, self.others = owner, others
        self.budget = BUDGET

    def clear(self, room: Box, on: Tile | None, laid: list[PlacedTile]) -> bool:
        """``room`` meets no tile but the one laid on (``on``)."""
        near = (t for t in (*self.others, *laid) if t.tile != on)
        return not any(t.box.overlaps(room) for t in near)

    def lay(
        self,
        i: int,
        cursor: float,
        y: float,
        d: int,
        after_turn: bool,
        after_double: bool,
        laid: list[PlacedTile],
    ) -> bool:
        if i == len(self.chain):
            return True
        self.budget -= 1
        if self.budget < 0:
            return False
        tile, n, on = self.chain[i]
        other, owner = tile.other(n), self.owner
        # on along the row (a double across it), leaving a column for a turn after it
        if not (after_turn and tile.is_double):
            length = 1.0 if tile.is_double else 2.0
            if d > 0:
                fits = cursor + length + 1 <= self.xmax + EPS
            else:
                fits = cursor - length - 1 >= self.xmin - EPS
            x = cursor if d > 0 else cursor - length
            if tile.is_double:
                placed = PlacedTile(tile, Box(x, y - 1, 1.0, 2.0), n, n, on, n, owner)
                room = Box(x - GAP, y - 1 - GAP, 1.0 + 2 * GAP, 2.0 + 2 * GAP)
            else:
                first, second = (n, other) if d > 0 else (other, n)
                placed = PlacedTile(tile, Box(x, y - 0.5, 2.0, 1.0), first, second, on, n, owner)
                room = placed.box
            if fits and self.clear(room, on, laid):
                laid.append(placed)
                if self.lay(i + 1, cursor + d * length, y, d, False, tile.is_double, laid):
                    return True
                laid.pop()
        # or turn here: an upright tile at the edge of the row, the next row under it
        if tile.is_double or after_turn:
            return False
        column = cursor if d > 0 else cursor - 1
        # the next row two units on; else (a double across before the turn, or a double
        # of the next row that would touch one of this row) half a unit further, the
        # turning tile's touching half then facing the end half of the tile before it
        for further in (0.5,) if after_double else (0.0, 0.5):
            if self.v > 0:
                box = Box(column, y - 0.5 + further, 1.0, 2.0)
                first, second = n, other
            else:
                box = Box(column, y - 1.5 - further, 1.0, 2.0)
                first, second = other, n
            if not self.clear(box, on, laid):
                continue
            laid.append(PlacedTile(tile, box, first, second, on, n, owner))
            end = box.bottom if self.v > 0 else box.y
            if self.down(i + 1, column, end, d, laid):
                return True
            laid.pop()
        return False

    def down(self, i: int, column: float, end: float, d: int, laid: list[PlacedTile]) -> bool:
        """The line goes on from the free end (at ``end``) of an upright tile in the edge
        ``column``: a tile that is not a double starts the next row under it; a double
        lies across, under it (its far half inwards), and the tile after it stands
        upright under the double, going on down the column."""
        if i == len(self.chain):
            return True
        tile, n, on = self.chain[i]
        v, owner = self.v, self.owner
        if not tile.is_double:
            below = end + 0.5 if v > 0 else end - 0.5
            start = column + 1 if d > 0 else column
            return self.lay(i, start, below, -d, True, False, laid)
        self.budget -= 1
        if self.budget < 0:
            return False
        left = column - 1 if d > 0 else column
        double = Box(left, end if v > 0 else end - 1, 2.0, 1.0)
        room = Box(left - GAP, double.y - GAP, 2.0 + 2 * GAP, 1.0 + 2 * GAP)
        if not self.clear(room, on, laid):
            return False
        laid.append(PlacedTile(tile, double, n, n, on, n, owner))
        if i + 1 == len(self.chain):
            return True
        after, m, under = self.chain[i + 1]  # never a double: it was laid on one
        other = after.other(m)
        box = Box(column, double.bottom if v > 0 else double.y - 2.0, 1.0, 2.0)
        first, second = (m, other) if v > 0 else (other, m)
        if self.clear(box, under, laid):
            laid.append(PlacedTile(after, box, first, second, under, m, owner))
            if self.down(i + 2, column, box.bottom if v > 0 else box.y, d, laid):
                return True
            laid.pop()
        laid.pop()
        return False


def _greedy(
    chain: Sequence[Link],
    cursor: float,
    y: float,
    d: int,
    v: int,
    xmin: float,
    xmax: float,
    owner: int | None,
    after_turn: bool,
    others: Sequence[PlacedTile],
) -> list[PlacedTile]:
    """The snake as it was laid before issue 33: a double lies along the line on a turn,
    just after one, and where lying across would touch a tile of another row."""
    laid: list[PlacedTile] = []
    for tile, n, on in chain:
        other = tile.other(n)
        across = tile.is_double and not after_turn
        if across:  # not just before a turn: the turning tile would touch its far half
            across = cursor + 4 <= xmax if d > 0 else cursor - 4 >= xmin
        if across:
            x = cursor if d > 0 else cursor - 1.0
            room = Box(x - GAP, y - 1 - GAP, 1.0 + 2 * GAP, 2.0 + 2 * GAP)
            near = [t for t in (*others, *laid) if t.tile != on]
            across = not any(t.box.overlaps(room) for t in near)
        length = 1.0 if across else 2.0
        fits = cursor + length + 1 <= xmax if d > 0 else cursor - length - 1 >= xmin
        if not fits:
            column = cursor if d > 0 else cursor - 1
            if v > 0:
                laid.append(
                    PlacedTile(tile, Box(column, y - 0.5, 1.0, 2.0), n, other, on, n, owner)
                )
            else:
                laid.append(
                    PlacedTile(tile, Box(column, y - 1.5, 1.0, 2.0), other, n, on, n, owner)
                )
            y += 2 * v
            d = -d
            cursor = column + 1 if d < 0 else column
            after_turn = True
            continue
        x = cursor if d > 0 else cursor - length
        if across:
            laid.append(PlacedTile(tile, Box(x, y - 1, 1.0, 2.0), n, n, on, n, owner))
        elif d > 0:
            laid.append(PlacedTile(tile, Box(x, y - 0.5, 2.0, 1.0), n, other, on, n, owner))
        else:
            laid.append(PlacedTile(tile, Box(x, y - 0.5, 2.0, 1.0), other, n, on, n, owner))
        cursor += d * length
        after_turn = False
    return laid
