"""Boxes in layout units (a tile's short side is one unit) and tiles placed in them.

Layouts are pure geometry: they say where every tile and label goes, and are tested
without drawing a pixel. Drawing scales units to pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.tiles import Tile

EPS = 1e-9


@dataclass(frozen=True, slots=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def overlaps(self, other: Box) -> bool:
        """The two share some area (touching along an edge is not overlapping)."""
        return (
            self.x < other.right - EPS
            and other.x < self.right - EPS
            and self.y < other.bottom - EPS
            and other.y < self.bottom - EPS
        )

    def touches(self, other: Box) -> bool:
        """The two share a stretch of edge and no area."""
        if self.overlaps(other):
            return False
        side_by_side = (abs(self.right - other.x) < EPS or abs(other.right - self.x) < EPS) and min(
            self.bottom, other.bottom
        ) - max(self.y, other.y) > EPS
        stacked = (abs(self.bottom - other.y) < EPS or abs(other.bottom - self.y) < EPS) and min(
            self.right, other.right
        ) - max(self.x, other.x) > EPS
        return side_by_side or stacked

    def inside(self, width: float, height: float) -> bool:
        return (
            self.x >= -EPS
            and self.y >= -EPS
            and self.right <= width + EPS
            and (self.bottom <= height + EPS)
        )

    def moved(self, dx: float, dy: float) -> Box:
        return Box(self.x + dx, self.y + dy, self.w, self.h)

    def scaled(self, unit: float, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int, int, int]:
        """Pixel corners (left, top, right, bottom) at ``unit`` pixels a unit."""
        return (
            round(dx + self.x * unit),
            round(dy + self.y * unit),
            round(dx + self.right * unit),
            round(dy + self.bottom * unit),
        )


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile on the table: its box, and the numbers on its first half (left, or top
    when it stands upright) and its second half."""

    tile: Tile
    box: Box
    first: int
    second: int
    parent: Tile | None = None  # the tile it was laid against
    touching: int | None = None  # the number it shows against its parent
    owner: int | None = None  # Mexican Train: the train it belongs to (-1: Mexican)

    @property
    def upright(self) -> bool:
        return self.box.h > self.box.w

    def halves(self) -> tuple[tuple[Box, int], tuple[Box, int]]:
        b = self.box
        if self.upright:
            half = b.h / 2
            return (Box(b.x, b.y, b.w, half), self.first), (
                Box(b.x, b.y + half, b.w, half),
                self.second,
            )
        half = b.w / 2
        return (Box(b.x, b.y, half, b.h), self.first), (
            Box(b.x + half, b.y, half, b.h),
            self.second,
        )

    def moved(self, dx: float, dy: float) -> PlacedTile:
        return PlacedTile(
            self.tile,
            self.box.moved(dx, dy),
            self.first,
            self.second,
            self.parent,
            self.touching,
            self.owner,
        )


def touching_numbers_match(child: PlacedTile, parent: PlacedTile) -> bool:
    """Where ``child`` meets ``parent``, both show the number ``child`` was laid on.

    A double across the line meets with its long side: both its halves show the number.
    """
    number = child.touching
    mine = [box for box, n in child.halves() if n == number]
    theirs = [box for box, n in parent.halves() if n == number]
    return any(a.touches(b) for a in mine for b in theirs)
