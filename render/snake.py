"""A chain of tiles laid as a snake: along a row, turning at the edges.

A turn is one upright tile at the edge; rows are two units apart, so a double lying
across the line (upright) never reaches into the next row. A double lies along the line
on a turn and just after one, where there is no room across it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.tiles import Tile
from render.geometry import Box, PlacedTile

GAP = 0.25  # units kept between tiles that do not meet

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
) -> list[PlacedTile]:
    """Lay ``chain`` from the edge ``cursor`` of the row centred on ``y``, in direction
    ``d`` (+1: right), turning towards ``v`` (+1: down) before passing ``xmin``/``xmax``.
    ``after_turn``: the first tile has no room to lie across. A double that lying across
    would touch a tile of the row before or after (``others`` or this chain's) lies along.
    """
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
