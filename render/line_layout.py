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

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.line import END, FLANK, HALF, Placement
from engine.tiles import Tile
from render.geometry import EPS, Box, PlacedTile
from render.snake import snake, snake_across

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
    badges: tuple[tuple[Box, int], ...] = ()  # where each open end's number is drawn


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
    if crosswise:
        return layout_divisor(placements, open_sides, width)
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
    arms: list[tuple[list[tuple[Tile, int, Tile | None]], float, int]] = []
    if right is not None:  # (the chain, where it starts, its way: right, turning down)
        arms.append((_links(_follow(right, children, crosswise, branches)), box.right, 1))
    if left is not None:
        arms.append((_links(_follow(left, children, crosswise, branches)), box.x, -1))
    placed += _arms(arms, placed, half, root.is_double)
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
    by_tile = {t.tile: t for t in placed}
    ends = [_open_end(by_tile[tile], number, kind) for number, tile, kind in open_sides]
    badges = list(badges_around(ends, placed))
    if root.is_double and not kids and ends:  # the opening double alone: two open ends
        box = placed[0].box
        badges = [(_badge_spot(box.x, 0.0, -1, 0, [box], []), root.hi)]
        badges.append((_badge_spot(box.right, 0.0, 1, 0, [box], []), root.hi))
    # shift everything to start at (0, 0), with a margin of half a unit
    every = [t.box for t in placed] + [b for b, _ in badges]
    lo, hi = min(b.x for b in every), max(b.right for b in every)
    # what is laid stands in the middle of a table wider than it (one arm still empty)
    left_edge = lo - 0.5 - max(0.0, width - (hi - lo)) / 2
    top = min(b.y for b in every) - 0.5
    placed = [t.moved(-left_edge, -top) for t in placed]
    links = [
        Link(k.start.moved(-left_edge, -top), k.end.moved(-left_edge, -top), k.number)
        for k in links
    ]
    right_edge = max(max(b.right for b in every) - left_edge + 0.5, width + 1.0)
    height = max(b.bottom for b in every) - top + 0.5
    return LineLayout(
        right_edge,
        height,
        tuple(placed),
        tuple(links),
        tuple((b.moved(-left_edge, -top), n) for b, n in ends),
        tuple((b.moved(-left_edge, -top), n) for b, n in badges),
    )


def _arms(
    arms: list[tuple[list[tuple[Tile, int, Tile | None]], float, int]],
    placed: list[PlacedTile],
    half: float,
    double: bool,
) -> list[PlacedTile]:
    """The two arms of a line from its opening tile, every double across: the right arm
    first, else the left one first (an arm's returning row may box in the other arm's
    first double); only if neither order keeps every double across, as it used to."""
    for order in (arms, arms[::-1]):
        laid: list[PlacedTile] = []
        for chain, start, way in order:
            found = snake_across(
                chain, start, 0.0, way, way, -half, half, others=[*placed, *laid],
                after_double=double,
            )  # fmt: skip
            if found is None:
                break
            laid += found
        else:
            return laid
    laid = []
    for chain, start, way in arms:
        laid += snake(chain, start, 0.0, way, way, -half, half, others=[*placed, *laid])
    return laid


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


# ----- divisor games: the spinner and its arms, as laid at a table ---------------------

GAP = 0.25  # units between tiles that do not meet: a visible gap
BADGE = 0.66  # a badge's diameter in units
_DIRS = ((1, 0), (0, 1), (-1, 0), (0, -1))


@dataclass(frozen=True, slots=True)
class _Exit:
    """A free side of a placed tile: the middle of its edge and the way out of it."""

    x: float
    y: float
    dx: int
    dy: int
    kind: int
    number: int  # the number it shows (what it counts when it is not a flank)
    heading: int  # the arm's way along a row (+1: right), for its snake
    turn: int  # where the arm's snake turns (+1: down)
    run: int  # tiles laid one after another up or down since the arm last ran along a row
    room: float = 0.0  # kept free beyond it: a double's half that an arm will grow from
    # where its badge goes (see :func:`_zone`): computed once, read by every later tile
    # of an attempt (:meth:`_Board.free`)
    zone: Box = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "zone", _zone(self))


class _Board:
    """One attempt at laying a divisor table: tiles go in arm by arm, each arm turning
    (a snake) where it would leave the table or come near another arm."""

    def __init__(self, half: float, vmax: int, order: int) -> None:
        self.half = half
        self.vmax = vmax
        self.order = order
        self.placed: list[PlacedTile] = []
        self.exits: dict[Tile, list[_Exit]] = {}
        self.loose: list[tuple[Box, int]] = []  # open ends of tiles left out of the arms
        self.budget = 0
        self.rng = random.Random(order) if order >= 2 else None
        self.variant: dict[Tile, int] = {}  # an arm's first tile -> which shape to try
        self.arm: Tile | None = None  # the first tile of the arm being laid
        self.halves: dict[Tile, int] = {}  # a double -> the arms laid on its halves
        self.arm_of: dict[Tile, Tile] = {}  # a tile -> the first tile of its arm
        self.arm_on: dict[Tile, Tile] = {}  # an arm's first tile -> the tile it hangs from

    def free(self, tile: PlacedTile, at: _Exit, exits: list[_Exit]) -> bool:
        """``tile`` (laid against ``at``) stays on the table, clear of every tile but its
        parent by a visible gap, off the place of every open end's badge, and with room
        for the badges of its own open ends (``exits``).

        Every box test is :meth:`Box.overlaps` written out on plain numbers (the same
        sums, so the same answers): the finished fido18 hand of bench/render.py asks
        about a million of them; its layout took 72 ms through the method, 34 ms so
        (with each badge zone computed once, :class:`_Exit`)."""
        box, parent = tile.box, tile.parent
        left, top = box.x, box.y
        right, bottom = box.x + box.w, box.y + box.h
        if left < -self.half - EPS or right > self.half + EPS:
            return False
        # the box grown by the gap, as Box(left - GAP, top - GAP, w + 2 GAP, h + 2 GAP)
        g_left, g_top = left - GAP, top - GAP
        g_right, g_bottom = g_left + (box.w + 2 * GAP) - EPS, g_top + (box.h + 2 * GAP) - EPS
        in_right, in_bottom = right - EPS, bottom - EPS
        for t in self.placed:
            b = t.box
            if t.tile == parent:
                if (
                    b.x < in_right
                    and left < b.x + b.w - EPS
                    and b.y < in_bottom
                    and top < b.y + b.h - EPS
                ):
                    return False
            elif (
                b.x < g_right
                and g_left < b.x + b.w - EPS
                and b.y < g_bottom
                and g_top < b.y + b.h - EPS
            ):
                return False
        for others in self.exits.values():
            for x in others:
                if x is at or x.kind == FLANK:
                    continue
                z = x.zone
                if (
                    z.x < in_right
                    and left < z.x + z.w - EPS
                    and z.y < in_bottom
                    and top < z.y + z.h - EPS
                ):
                    return False
        for x in exits:
            if x.kind == FLANK:
                continue
            z = x.zone
            z_right, z_bottom = z.x + z.w - EPS, z.y + z.h - EPS
            for t in self.placed:
                b = t.box
                if (
                    b.x < z_right
                    and z.x < b.x + b.w - EPS
                    and b.y < z_bottom
                    and z.y < b.y + b.h - EPS
                ):
                    return False
        return True

    def put(self, p: Placement, at: _Exit, g: tuple[int, int]) -> tuple[PlacedTile, list[_Exit]]:
        """``p``'s tile laid against ``at`` growing towards ``g``, and its free sides."""
        tile, n = p.tile, p.number
        cx, cy = at.x + at.dx * 0.5, at.y + at.dy * 0.5  # the touching half's centre
        gx, gy = g
        run = at.run + 1 if gy else 0
        heading = gx if gx else at.heading
        if tile.is_double:
            if at.dx:
                box = Box(cx - 0.5, cy - 1.0, 1.0, 2.0)
                ends = [(cx, cy - 1.0, 0, -1), (cx, cy + 1.0, 0, 1)]
            else:
                box = Box(cx - 1.0, cy - 0.5, 2.0, 1.0)
                ends = [(cx - 1.0, cy, -1, 0), (cx + 1.0, cy, 1, 0)]
            fx, fy = cx + at.dx * 0.5, cy + at.dy * 0.5
            exits = [_Exit(fx, fy, at.dx, at.dy, FLANK, n, heading, at.turn, run)]
            room = ROOM if self.halves.get(tile) else 0.0
            exits += [
                _Exit(x, y, dx, dy, HALF, n, heading, dy or at.turn, 0, room)
                for x, y, dx, dy in ends
            ]
            return PlacedTile(tile, box, n, n, p.on, n), exits
        other = tile.other(n)
        fx, fy = cx + gx, cy + gy  # the far half's centre
        box = Box(min(cx, fx) - 0.5, min(cy, fy) - 0.5, 1.0 + abs(gx), 1.0 + abs(gy))
        first, second = (other, n) if (fx < cx or fy < cy) else (n, other)
        out = _Exit(fx + gx * 0.5, fy + gy * 0.5, gx, gy, END, other, heading, at.turn, run)
        return PlacedTile(tile, box, first, second, p.on, n), [out]

    def ways(self, p: Placement, at: _Exit) -> list[tuple[int, int]]:
        """Where the tile may grow from ``at``, the likeliest first."""
        e = (at.dx, at.dy)
        if p.tile.is_double or at.kind == FLANK:
            # a tile turning at a double's flank would lie along the double's other half
            return [e]
        if at.dx:  # along a row: on, else turn (the arm's way first)
            ways = [e, (0, at.turn), (0, -at.turn)]
        else:
            rooms = sorted(((self.half - at.x * s, s) for s in (1, -1)), reverse=True)
            sideways = [(s, 0) for _, s in rooms]
            ways = [*sideways, e] if at.run >= self.vmax else [e, *sideways]
        if self.rng is not None:  # a shuffled attempt: other shapes than the likeliest
            self.rng.shuffle(ways)
        turn = self.variant.get(self.arm, 0) if self.arm is not None else 0
        if turn:  # an arm whose shape boxed in an arm of its own: another shape this time
            k = turn % len(ways)
            ways = ways[k:] + ways[:k]
        return ways

    def lay(self, chain: list[Placement], i: int, at: _Exit, best: list[int]) -> bool:
        if i == len(chain):
            return True
        p = chain[i]
        for g in self.ways(p, at):
            self.budget -= 1
            if self.budget < 0:
                return False
            tile, exits = self.put(p, at, g)
            if not self.free(tile, at, exits):
                continue
            self.placed.append(tile)
            self.exits[p.tile] = exits
            if i + 1 > best[0]:
                best[0] = i + 1
            flank = [x for x in exits if x.kind != HALF]
            if not flank and i + 1 < len(chain):
                return False  # cannot happen: every tile has an end or a flank to go on
            if i + 1 == len(chain):
                return True
            if self.lay(chain, i + 1, flank[0], best):
                self.exits[p.tile] = [x for x in exits if x is not flank[0]]
                return True
            self.placed.pop()
            del self.exits[p.tile]
        return False


def _loose_ends(
    chain: list[Placement], laid: list[PlacedTile], children: dict[Tile, list[Placement]]
) -> list[tuple[Box, int]]:
    """The open ends of a chain laid apart: its last tile's free end, and the halves of
    its doubles that nothing was laid on."""
    ends: list[tuple[Box, int]] = []
    for p, t in zip(chain, laid, strict=True):
        kids = children.get(p.tile, [])
        if p.tile.is_double:
            taken = sum(1 for k in kids if k.kind == HALF)
            ends += [(t.box, p.tile.hi)] * (2 - taken)
    last = chain[-1]
    if not last.tile.is_double:
        far = next(b for b, n in laid[-1].halves() if n == last.tile.other(last.number))
        ends.append((far, last.tile.other(last.number)))
    return ends


def _zone(x: _Exit) -> Box:
    """The place just outside an open end where its badge goes, or, for a double's half
    an arm will grow from, the room of that arm's first tile."""
    size = BADGE + 0.1
    depth, across = (x.room, 1.0) if x.room else (size, size)
    cx, cy = x.x + x.dx * depth / 2, x.y + x.dy * depth / 2
    w, h = (depth, across) if x.dx else (across, depth)
    return Box(cx - w / 2, cy - h / 2, w, h)


def _chain(
    first: Placement, children: dict[Tile, list[Placement]], arms: list[tuple[Tile, Placement]]
) -> list[Placement]:
    """The tiles that run on from ``first`` (through doubles' flanks); what is laid on a
    double's halves starts an arm of its own, noted in ``arms``."""
    chain = [first]
    current = first
    while True:
        kids = children.get(current.tile, [])
        if current.tile.is_double:
            on = [k for k in kids if k.kind == FLANK]
            arms += [(current.tile, k) for k in kids if k.kind == HALF]
        else:
            on = kids[:1]
            arms += [(current.tile, k) for k in kids[1:]]
        if not on:
            return chain
        current = on[0]
        chain.append(current)


# When an arm finds no room, the table is laid again wider (smaller tiles) before any
# arm is drawn apart: on 40 random fido12 hands of 4, 6 and 8 players, arms drawn apart
# fell from 8, 18 and 11 to 2, 3 and 0 at 5/3; the rest (about 3 in 100) needed 5/2,
# where the rows seldom turn, or the arms laid in a shuffled order.
WIDER = (5 / 3, 5 / 2)
SHUFFLES = 6
ATTEMPTS = 240  # attempts at most after the first width: about half a second
ROOM = 1.25  # units kept free beyond a double's half that carries an arm


def layout_divisor(
    placements: Sequence[Placement],
    open_sides: Sequence[tuple[int, Tile, int]] = (),
    width: float = WIDTH,
) -> LineLayout:
    """:func:`layout_divisor_at` ``width``, or wider when an arm would be drawn apart."""
    layout = layout_divisor_at(placements, open_sides, width)
    if max((p.tile.hi for p in placements), default=0) > 12:
        return layout  # double-15 and up: too many tiles for a wider try to pay
    tries: list[tuple[float, tuple[int, ...]]] = [(f, (0, 1)) for f in WIDER]
    tries += [(f, (seed,)) for seed in range(2, 2 + SHUFFLES) for f in (1.0, *WIDER)]
    tries.sort(key=lambda t: t[1][0] >= 2)
    budget = [ATTEMPTS]
    for factor, orders in tries:
        if not layout.links or budget[0] <= 0:
            break
        wider = layout_divisor_at(
            placements, open_sides, width * factor, orders, budget, frame=width
        )
        if len(wider.links) < len(layout.links):
            layout = wider
    return layout


def layout_divisor_at(
    placements: Sequence[Placement],
    open_sides: Sequence[tuple[int, Tile, int]] = (),
    width: float = WIDTH,
    orders: Sequence[int] = (0, 1),
    budget: list[int] | None = None,
    frame: float | None = None,
) -> LineLayout:
    """The divisor family's table as it is laid: the opening double (the spinner) in the
    middle with the line running both ways from its flanks and arms up and down from its
    halves; a later double lies across its arm with arms of its own from its halves.
    Every arm turns (a snake) before it would leave the table or come near another arm,
    so every tile meets the tile it was laid on. Several ways of laying are tried; the
    first that seats every tile wins."""
    best: tuple[tuple[float, float], _Board, list[Link]] | None = None
    for vmax in (1, 2, 3):
        for order in orders:
            urgent: dict[Tile, int] = {}
            variant: dict[Tile, int] = {}
            for _ in range(8 if budget is None else 4):  # an arm that found no room: earlier
                if budget is not None:
                    if budget[0] <= 0:
                        break
                    budget[0] -= 1
                board, links, failed = _attempt(placements, width, vmax, order, urgent, variant)
                left_out = sum(len(c) for _, c in failed)
                height = max(t.box.bottom for t in board.placed) - min(
                    t.box.y for t in board.placed
                )
                score = (left_out, height)
                if best is None or score < best[0]:
                    best = (score, board, links)
                if not failed:
                    break
                for on, chain in failed:
                    # the arm it hangs from takes another shape next time (its double may
                    # then lie where its halves have room)
                    above = board.arm_of.get(on)
                    if above is not None:
                        variant[above] = variant.get(above, 0) + 1
                    # the arm, and every arm it hangs from: a half boxed in by an earlier
                    # arm gets room only when its own ancestors are laid before that arm
                    first, hang = chain[0].tile, on
                    while True:
                        urgent[first] = urgent.get(first, 0) + 1
                        above = board.arm_of.get(hang)
                        if above is None or above == first or above not in board.arm_on:
                            break
                        first, hang = above, board.arm_on[above]
            if best is not None and best[0][0] == 0:
                break
        if best is not None and best[0][0] == 0:
            break
    assert best is not None
    _, board, links = best
    # a table laid wider shows only what it uses, at least the usual width: the tiles are
    # then as large as the picture allows, not as small as the wider try made room for
    return _finish(board, links, open_sides, width if frame is None else frame)


def _attempt(
    placements: Sequence[Placement],
    width: float,
    vmax: int,
    order: int,
    urgent: dict[Tile, int],
    variant: dict[Tile, int] | None = None,
) -> tuple[_Board, list[Link], list[tuple[Tile, list[Placement]]]]:
    children: dict[Tile, list[Placement]] = {}
    ply = {p.tile: i for i, p in enumerate(placements)}
    for p in placements[1:]:
        assert p.on is not None
        children.setdefault(p.on, []).append(p)
    board = _Board(width / 2, vmax, order)
    board.variant = variant if variant is not None else {}
    for p in placements[1:]:
        if p.kind == HALF and p.on is not None:
            board.halves[p.on] = board.halves.get(p.on, 0) + 1
    shuffle = {p.tile: random.Random(order * 7919 + i).random() for i, p in enumerate(placements)}
    root = placements[0].tile
    if root.is_double:
        box = Box(-0.5, -1.0, 1.0, 2.0)
        n = root.hi
        board.exits[root] = [
            _Exit(0.5, 0.0, 1, 0, FLANK, n, 1, 1, 0),
            _Exit(-0.5, 0.0, -1, 0, FLANK, n, -1, -1, 0),
            _Exit(0.0, -1.0, 0, -1, HALF, n, 1, -1, 0),
            _Exit(0.0, 1.0, 0, 1, HALF, n, -1, 1, 0),
        ]
    else:
        box = Box(-1.0, -0.5, 2.0, 1.0)
        board.exits[root] = [
            _Exit(1.0, 0.0, 1, 0, END, root.lo, 1, 1, 0),
            _Exit(-1.0, 0.0, -1, 0, END, root.hi, -1, -1, 0),
        ]
    board.placed.append(PlacedTile(root, box, root.hi, root.lo))
    pending: list[tuple[Tile, Placement]] = [(root, k) for k in children.get(root, [])]
    links: list[Link] = []
    detached: list[tuple[Tile, list[Placement]]] = []
    while pending:
        if order == 0:  # in the order played
            pending.sort(key=lambda a: (-urgent.get(a[1].tile, 0), ply[a[1].tile]))
        elif order >= 2:  # a shuffled order, seeded: tried when the two above left an arm out
            pending.sort(key=lambda a: (-urgent.get(a[1].tile, 0), shuffle[a[1].tile]))
        else:  # the main line first, then arms on halves
            pending.sort(
                key=lambda a: (-urgent.get(a[1].tile, 0), a[1].kind == HALF, ply[a[1].tile])
            )
        on, first = pending.pop(0)
        arms: list[tuple[Tile, Placement]] = []
        chain = _chain(first, children, arms)
        board.arm_on[first.tile] = on
        board.arm_of.update((p.tile, first.tile) for p in chain)
        kind = first.kind
        free = [x for x in board.exits.get(on, []) if x.kind == kind]
        if not root.is_double and on == root and first.number != root.hi:
            free = free[::-1]  # the high number shows on the left
        laid = False
        best = [0]
        board.arm = first.tile
        for at in free:
            board.budget = 400
            if board.lay(chain, 0, at, best):
                board.exits[on] = [x for x in board.exits[on] if x is not at]
                laid = True
                break
        if not laid:
            detached.append((on, chain))
            if free:  # the side it hangs from is taken all the same
                board.exits[on] = [x for x in board.exits[on] if x is not free[0]]
        pending += arms
    # what found no room goes below, as snakes of their own joined to their tile by a line
    for on, chain in detached:
        bottom = max(t.box.bottom for t in board.placed) + BAND_GAP + 1.0
        laid_chain = snake(_links(chain), -board.half + 1.0, bottom, 1, 1, -board.half, board.half)
        by_tile = {t.tile: t for t in board.placed}
        parent = by_tile.get(on)
        board.placed += laid_chain
        if parent is not None:
            start = next((b for b, n in parent.halves() if n == chain[0].number), parent.box)
            end = next(b for b, n in laid_chain[0].halves() if n == chain[0].number)
            links.append(Link(start, end, chain[0].number))
        for t in laid_chain:
            board.exits[t.tile] = []
        board.loose += _loose_ends(chain, laid_chain, children)
    return board, links, detached


def _finish(
    board: _Board,
    links: list[Link],
    open_sides: Sequence[tuple[int, Tile, int]],
    width: float,
) -> LineLayout:
    placed = board.placed
    # the badges of the open ends: just outside the free side, clear of every tile
    boxes = [t.box for t in placed]
    badges: list[tuple[Box, int]] = []
    ends: list[tuple[Box, int]] = []
    by_tile = {t.tile: t for t in placed}
    for number, tile, kind in open_sides:
        t = by_tile.get(tile)
        if t is not None:
            ends.append(_open_end(t, number, kind))
    # every free end and free half carries its number (both halves of a double count,
    # though the view names a place once); a free flank counts nothing: no badge
    for tile in by_tile:
        for x in board.exits.get(tile, []):
            if x.kind != FLANK:
                spot = _badge_spot(x.x, x.y, x.dx, x.dy, boxes, [b for b, _ in badges])
                badges.append((spot, x.number))
    for box, number in board.loose:
        badges.append((_badge_around(box, boxes, [b for b, _ in badges]), number))
    # shift everything to start at (0, 0), with a margin of half a unit
    every = [t.box for t in placed] + [b for b, _ in badges]
    lo, hi = min(b.x for b in every), max(b.right for b in every)
    # the usual table around the spinner; a table wider than that, just what it uses
    left_edge = lo - 0.5 if hi - lo > width else min(lo - 0.5, -width / 2 - 0.5)
    top = min(b.y for b in every) - 0.5
    placed = [t.moved(-left_edge, -top) for t in placed]
    links = [
        Link(k.start.moved(-left_edge, -top), k.end.moved(-left_edge, -top), k.number)
        for k in links
    ]
    right_edge = max(hi - left_edge + 0.5, width + 1.0)
    height = max(b.bottom for b in every) - top + 0.5
    return LineLayout(
        right_edge,
        height,
        tuple(placed),
        tuple(links),
        tuple((b.moved(-left_edge, -top), n) for b, n in ends),
        tuple((b.moved(-left_edge, -top), n) for b, n in badges),
    )


def _clear(spot: Box, tiles: Sequence[Box], badges: Sequence[Box]) -> bool:
    return not any(spot.overlaps(b) for b in tiles) and not any(spot.overlaps(b) for b in badges)


def _badge_spot(
    x: float, y: float, dx: int, dy: int, tiles: Sequence[Box], badges: Sequence[Box]
) -> Box:
    """A badge in front of the free side at (x, y) facing (dx, dy), or beside it."""
    r = BADGE / 2
    px, py = -dy, dx  # across the way out
    tries = [
        (x + dx * (r + out) + px * s, y + dy * (r + out) + py * s)
        for out in (0.08, 0.4, 0.8)
        for s in (0.0, 0.5, -0.5, 0.9, -0.9)
    ]
    for cx, cy in tries:
        spot = Box(cx - r, cy - r, BADGE, BADGE)
        room = Box(spot.x - 0.05, spot.y - 0.05, BADGE + 0.1, BADGE + 0.1)
        if _clear(room, tiles, badges):
            return spot
    cx, cy = tries[0]
    return Box(cx - r, cy - r, BADGE, BADGE)


def _badge_around(box: Box, tiles: Sequence[Box], badges: Sequence[Box]) -> Box:
    """A badge beside ``box`` (an open half) where it covers no tile."""
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    for dx, dy in _DIRS:
        x = cx + dx * box.w / 2
        y = cy + dy * box.h / 2
        spot = _badge_spot(x, y, dx, dy, tiles, badges)
        if _clear(spot, tiles, badges):
            return spot
    return _badge_spot(cx + box.w / 2, cy, 1, 0, tiles, badges)


def badges_around(
    ends: Sequence[tuple[Box, int]], tiles: Sequence[PlacedTile]
) -> tuple[tuple[Box, int], ...]:
    """Badges for open ends given as the open half (or tile): beside it, on no tile."""
    boxes = [t.box for t in tiles]
    badges: list[tuple[Box, int]] = []
    for box, number in ends:
        badges.append((_badge_around(box, boxes, [b for b, _ in badges]), number))
    return tuple(badges)
