"""Where the tiles of a Mexican Train round go: the engine at the hub on the left, each
train a spoke running right in its own band, labelled with its owner (or "Mexican") and
carrying a marker when it is open. A long train folds back and forth inside its band, so
a whole 91-tile round fits. A forked double's second branch is joined to it by a link.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.tiles import Tile
from engine.views import View
from render.geometry import Box, PlacedTile
from render.line_layout import BADGE, Link, badges_around
from render.snake import snake

WIDTH = 20.0  # units across: big tiles, readable on a phone
START = 2.5  # where a train's tiles start, right of the hub
LABEL_W, LABEL_H = 5.0, 0.9  # the owner's name, above the train
BAND_GAP = 0.5
BADGE_ROOM = BADGE + 0.2  # kept free right of a band: an open end's badge at the edge


@dataclass(frozen=True)
class TrainLabel:
    owner: int | None  # None: the Mexican train
    box: Box
    marker: Box
    marked: bool
    spoke: tuple[float, float, float, float]  # hub to the train's start, for a line


@dataclass(frozen=True)
class TrainLayout:
    width: float
    height: float
    tiles: tuple[PlacedTile, ...]  # the engine first
    labels: tuple[TrainLabel, ...]
    links: tuple[Link, ...] = ()
    open_ends: tuple[tuple[Box, int], ...] = ()
    unsatisfied: tuple[Box, ...] = ()
    badges: tuple[tuple[Box, int], ...] = ()  # each open end's number, beside it


def layout_trains(view: View) -> TrainLayout:
    """The round of ``view``: every train, its label and marker, the open ends."""
    engine = view.engine
    placed: list[PlacedTile] = []
    labels: list[TrainLabel] = []
    links: list[Link] = []
    ends: list[tuple[Box, int]] = []
    y = 0.5
    band_tops: list[float] = []
    for index, train in enumerate(view.trains):
        band_tops.append(y)
        label = Box(START, y, LABEL_W, LABEL_H)
        marker = Box(label.right + 0.25, y + 0.05, 0.8, 0.8)
        row = label.bottom + 1.1  # the centre line of the band's first row (a double's top)
        owner = train.owner
        chain = _chain(engine, train.tiles, train.ends, view.rules.forked_doubles)
        laid, train_links = _fold(chain, START, row, WIDTH - 0.5 - BADGE_ROOM, owner)
        placed += laid
        links += train_links
        bottom = max([row + 1.0, *(t.box.bottom for t in laid)])
        labels.append(TrainLabel(owner, label, marker, train.marked, (0, 0, START, row)))
        if laid:
            last = laid[-1]
            free = [b for b, n in last.halves() if n != last.touching] or [last.box]
            for number in train.ends:
                ends.append((free[-1] if not last.tile.is_double else last.box, number))
        y = bottom + BAND_GAP
        del index
    height = y + 0.5
    hub_y = height / 2
    hub: list[PlacedTile] = []
    if engine is not None:
        hub.append(PlacedTile(engine, Box(0.5, hub_y - 1.0, 1.0, 2.0), engine.hi, engine.lo))
    labels = [
        TrainLabel(k.owner, k.box, k.marker, k.marked, (1.5, hub_y, k.spoke[2], k.spoke[3]))
        for k in labels
    ]
    boxes = {t.tile: t.box for t in placed}
    unsatisfied = tuple(boxes[double] for _, double in view.unsatisfied if double in boxes)
    tiles = tuple(hub + placed)
    badges = badges_around(ends, tiles)
    # a badge that found room only past the edge widens the table: nothing drawn leaves
    # the picture (a badge used to stand at 940-972 px of a 960 px board)
    width = max([WIDTH, *(b.right + 0.25 for b, _ in badges)])
    height = max([height, *(b.bottom + 0.25 for b, _ in badges)])
    return TrainLayout(
        width, height, tiles, tuple(labels), tuple(links), tuple(ends), unsatisfied, badges
    )


def _chain(
    engine: Tile | None, tiles: tuple[Tile, ...], ends: tuple[int, ...], forked: bool
) -> list[tuple[Tile, int, Tile | None]]:
    """(tile, the number it touches, the tile it was laid on) for a train's tiles in the
    order laid. A tile may fit more than one open end; the choice that leaves the train's
    open ends as the view shows them is the one that was made (a short search, newest
    end first). With forked doubles a double opens a spare second end (a double of a first
    turn does not; an unused spare end is allowed to stay)."""
    start = [(engine.hi if engine else 0, engine, False)]
    want = Counter(ends)

    def search(i: int, open_ends: list[tuple[int, Tile | None, bool]], chain: list) -> list | None:
        if i == len(tiles):
            real = Counter(n for n, _, spare in open_ends if not spare)
            spares = Counter(n for n, _, spare in open_ends if spare)
            missing = want - real
            extra = real - want
            return chain if not extra and not (missing - spares) else None
        tile = tiles[i]
        for at in range(len(open_ends) - 1, -1, -1):
            number, parent, _ = open_ends[at]
            if not tile.has(number):
                continue
            after = list(open_ends)
            if tile.is_double:
                after[at] = (number, tile, False)
                if forked:
                    after.insert(at, (number, tile, True))
            else:
                after[at] = (tile.other(number), tile, False)
            found = search(i + 1, after, [*chain, (tile, number, parent)])
            if found is not None:
                return found
        return None

    found = search(0, start, [])
    if found is not None:
        return found
    # the view disagrees with every reading (it cannot, but a picture must not fail):
    # draw the tiles one after another
    chain: list[tuple[Tile, int, Tile | None]] = []
    number, parent = start[0][0], engine
    for tile in tiles:
        touching = number if tile.has(number) else tile.hi
        chain.append((tile, touching, parent))
        number, parent = tile.other(touching), tile
    return chain


def _fold(
    chain: list[tuple[Tile, int, Tile | None]],
    start: float,
    row: float,
    right: float,
    owner: int | None,
) -> tuple[list[PlacedTile], list[Link]]:
    """Lay a train left to right from ``start``, folding back at the right edge and at
    ``start``. A forked double's second branch starts a row of its own, joined to the
    double by a link."""
    train = -1 if owner is None else owner
    segments: list[list[tuple[Tile, int, Tile | None]]] = []
    for link in chain:
        if segments and link[2] != segments[-1][-1][0]:
            segments.append([link])
        elif segments:
            segments[-1].append(link)
        else:
            segments.append([link])
    laid: list[PlacedTile] = []
    links: list[Link] = []
    for i, segment in enumerate(segments):
        if i:
            row = max(t.box.bottom for t in laid) + 1.5
        part = snake(segment, start, row, 1, 1, start, right, train, after_turn=i > 0)
        if i:
            first = part[0]
            source = next((t for t in laid if t.tile == first.parent), None)
            if source is not None:
                n = first.touching
                start_box = next((b for b, k in source.halves() if k == n), source.box)
                end_box = next((b for b, k in first.halves() if k == n), first.box)
                links.append(Link(start_box, end_box, n if n is not None else 0))
        laid += part
    return laid, links
