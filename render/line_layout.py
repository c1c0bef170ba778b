"""Where the tiles of a line game go: a snake from the centre that turns at the edges.

The opening tile sits in the middle of the centre row. One arm runs right and turns down
at the edge, then runs left, and so on; the other runs left and turns up. A double lies
across the line (upright), except on a turn and just after one, where it lies along it.
A turn is one upright tile at the edge; rows are two units apart, so upright doubles of
neighbouring rows never overlap.

In divisor games every double has halves and flanks (RULES.md): the line runs on through
a double's free flank; what is built on its halves is a branch, laid out as a snake of its
own in a band below the centre, joined to its double by a link.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.line import END, FLANK, HALF, Placement
from engine.tiles import Tile
from render.geometry import Box, PlacedTile
from render.snake import snake

WIDTH = 18.0  # units across the table: 8 tiles and a turn to a row
BAND_GAP = 1.0  # between the centre and a branch band, and between bands


@dataclass(frozen=True, slots=True)
class Link:
    """A branch's first tile joined to the half of the double it was laid on."""

    start: Box  # the double's half
    end: Box  # the branch tile's touching half
    number: int


@dataclass(frozen=True)
class LineLayout:
    width: float
    height: float
    tiles: tuple[PlacedTile, ...]
    links: tuple[Link, ...] = ()
    open_ends: tuple[tuple[Box, int], ...] = ()  # where a tile can go, and its number


def layout_line(
    placements: Sequence[Placement],
    open_sides: Sequence[tuple[int, Tile, int]] = (),
    crosswise: bool = False,
    width: float = WIDTH,
) -> LineLayout:
    """The table of ``placements`` (in the order played); ``open_sides`` as
    (number, tile, kind) are marked. ``crosswise``: the divisor family's doubles."""
    if not placements:
        return LineLayout(width, 4.0, ())
    children: dict[Tile, list[Placement]] = {}
    for p in placements[1:]:
        assert p.on is not None
        children.setdefault(p.on, []).append(p)
    root = placements[0].tile
    half = width / 2
    placed: list[PlacedTile] = []
    box = Box(-0.5, -1.0, 1.0, 2.0) if root.is_double else Box(-1.0, -0.5, 2.0, 1.0)
    placed.append(PlacedTile(root, box, root.hi, root.lo))
    branches: list[tuple[Tile, Placement]] = []  # (the double, the first tile on a half)
    kids = children.get(root, [])
    if crosswise and root.is_double:
        centre = [k for k in kids if k.kind == FLANK]
        branches += [(root, k) for k in kids if k.kind == HALF]
    else:
        centre = kids
    if root.is_double:
        right = centre[0] if centre else None
        left = centre[1] if len(centre) > 1 else None
    else:  # the high number shows on the left
        left = next((k for k in centre if k.number == root.hi), None)
        right = next((k for k in centre if k is not left), None)
    if right is not None:
        chain = _follow(right, children, crosswise, branches)
        placed += snake(_links(chain), box.right, 0.0, 1, 1, -half, half)
    if left is not None:
        chain = _follow(left, children, crosswise, branches)
        placed += snake(_links(chain), box.x, 0.0, -1, -1, -half, half)
    links: list[Link] = []
    by_tile = {t.tile: t for t in placed}
    bottom = max(t.box.bottom for t in placed)
    row, cursor = 0.0, half  # no band yet: the first branch opens one
    i = 0
    while i < len(branches):
        double, first = branches[i]
        i += 1
        parent = by_tile[double]
        chain = _follow(first, children, crosswise, branches)
        # short branches share a band's row; a long one starts a band of its own
        length = sum(1.0 if p.tile.is_double and k else 2.0 for k, p in enumerate(chain))
        if cursor + 1.0 + length + 1.0 > half:
            row, cursor = bottom + BAND_GAP + 1.0, -half
        laid = snake(_links(chain), cursor + 1.0, row, 1, 1, -half, half)
        for t in laid:
            by_tile[t.tile] = t
        placed += laid
        bottom = max(bottom, *(t.box.bottom for t in laid))
        last = laid[-1].box
        cursor = last.right if abs(last.y + last.h / 2 - row) < 1.0 else half
        start = next(b for b, n in parent.halves() if n == first.number)
        end = next(b for b, n in laid[0].halves() if n == first.number)
        links.append(Link(start, end, first.number))
    # shift everything to start at (0, 0), with a margin of half a unit
    left_edge = min(t.box.x for t in placed) - 0.5
    top = min(t.box.y for t in placed) - 0.5
    placed = [t.moved(-left_edge, -top) for t in placed]
    links = [
        Link(k.start.moved(-left_edge, -top), k.end.moved(-left_edge, -top), k.number)
        for k in links
    ]
    right_edge = max(max(t.box.right for t in placed) + 0.5, width + 1.0)
    height = max(t.box.bottom for t in placed) + 0.5
    by_tile = {t.tile: t for t in placed}
    ends = tuple(_open_end(by_tile[tile], number, kind) for number, tile, kind in open_sides)
    return LineLayout(right_edge, height, tuple(placed), tuple(links), ends)


def _follow(
    first: Placement,
    children: dict[Tile, list[Placement]],
    crosswise: bool,
    branches: list[tuple[Tile, Placement]],
) -> list[Placement]:
    """The chain that runs on from ``first``; what is built on a double's halves is noted
    in ``branches``."""
    chain = [first]
    current = first
    while True:
        kids = children.get(current.tile, [])
        if crosswise and current.tile.is_double:
            straight = [k for k in kids if k.kind == FLANK]
            side = [k for k in kids if k.kind == HALF]
        else:
            straight, side = kids[:1], kids[1:]
        branches += [(current.tile, k) for k in side]
        if not straight:
            return chain
        current = straight[0]
        chain.append(current)


def _links(chain: list[Placement]) -> list[tuple[Tile, int, Tile | None]]:
    return [(p.tile, p.number, p.on) for p in chain]


def _open_end(tile: PlacedTile, number: int, kind: int) -> tuple[Box, int]:
    """Where to mark an open side: the free half showing ``number`` of a tile that is not
    a double, or else the whole tile (a double's halves both show it; a flank is a side)."""
    if kind == END and tile.first != tile.second:
        for box, n in tile.halves():
            if n == number and n != tile.touching:
                return box, number
    return tile.box, number
