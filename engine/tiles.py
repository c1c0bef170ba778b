"""Tiles and sets.

A tile is an ``int`` subclass whose value is its id in the *set order* (higher end
first, then lower end: 0-0, 1-0, 1-1, 2-0, ...). The id of a tile does not depend on the
set it belongs to, so double-6 tiles keep their ids in a double-12 set, and a hand is a
bitmask ``sum(1 << tile)``. The *tile order* of RULES.md, wherever tiles are ranked
("the highest tile"), is another order: the higher total first, then the higher end
(:data:`RANK`, :func:`highest`).

>>> Tile.parse("5-6")
Tile('6-5')
>>> six_two, five_three, five_four, six_zero = map(Tile.parse, ["6-2", "5-3", "5-4", "6-0"])
>>> RANK[six_two] > RANK[five_three], RANK[five_four] > RANK[six_zero], five_four > six_zero
(True, True, False)
>>> highest(mask_of([Tile.parse("6-0"), Tile.parse("5-4"), Tile.parse("5-0")]))
Tile('5-4')
>>> len(set_tiles(6)), len(set_tiles(12))
(28, 91)
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import InvalidMove

MAX_NUMBER = 21
SET_SIZES = (6, 9, 12, 15, 18, 21)


class Tile(int):
    """One domino. Build it with :meth:`Tile.of` or :meth:`Tile.parse`; never with ``Tile(n)``."""

    __slots__ = ()

    @property
    def hi(self) -> int:
        return _HI[self]

    @property
    def lo(self) -> int:
        return _LO[self]

    @property
    def value(self) -> int:
        """Pips on the tile."""
        return _HI[self] + _LO[self]

    @property
    def is_double(self) -> bool:
        return _HI[self] == _LO[self]

    def has(self, number: int) -> bool:
        return _HI[self] == number or _LO[self] == number

    def other(self, number: int) -> int:
        """The number at the far end when the tile is laid against ``number``."""
        return _LO[self] if _HI[self] == number else _HI[self]

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Tile('{_TEXT[self]}')"

    @staticmethod
    def of(a: int, b: int) -> Tile:
        hi, lo = (a, b) if a >= b else (b, a)
        if lo < 0 or hi > MAX_NUMBER:
            raise InvalidMove(f"{a}-{b} is not a domino (numbers go from 0 to {MAX_NUMBER})")
        return TILES[hi * (hi + 1) // 2 + lo]

    @staticmethod
    def parse(text: str) -> Tile:
        """Read ``a-b`` in either order; also accepts ``a|b`` and ``a:b`` as players type them."""
        cleaned = text.strip().strip("[]")
        for separator in ("-", "|", ":", "/"):
            if separator in cleaned:
                left, _, right = cleaned.partition(separator)
                break
        else:
            raise InvalidMove(f"'{text}' is not a tile; write it like 6-4")
        try:
            return Tile.of(int(left), int(right))
        except ValueError:
            raise InvalidMove(f"'{text}' is not a tile; write it like 6-4") from None


def _build() -> tuple[list[Tile], list[int], list[int], list[str]]:
    tiles: list[Tile] = []
    his: list[int] = []
    los: list[int] = []
    texts: list[str] = []
    for hi in range(MAX_NUMBER + 1):
        for lo in range(hi + 1):
            his.append(hi)
            los.append(lo)
            texts.append(f"{hi}-{lo}")
            tiles.append(int.__new__(Tile, len(tiles)))
    return tiles, his, los, texts


TILES, _HI, _LO, _TEXT = _build()
HI: list[int] = _HI
"""HI[t], LO[t], VALUE[t]: plain tables for hot loops (no property call)."""
LO: list[int] = _LO
VALUE: list[int] = [h + lo for h, lo in zip(_HI, _LO, strict=True)]
BIT: list[int] = [1 << t for t in range(len(TILES))]
RANK: list[int] = [(h + lo) * (MAX_NUMBER + 1) + h for h, lo in zip(_HI, _LO, strict=True)]
"""RANK[t]: the tile's place in RULES.md's tile order (seeds 001 and 003): the higher
total first; equal totals, the higher end (6-2 > 5-3, 5-4 > 6-0). Doubles keep their
set order (n-n ranks by n)."""

# NUMBER_MASK[n]: bitmask of every tile (of any set) that shows the number n.
NUMBER_MASK: list[int] = [0] * (MAX_NUMBER + 1)
DOUBLES_MASK = 0
for _t in TILES:
    NUMBER_MASK[_t.hi] |= 1 << _t
    NUMBER_MASK[_t.lo] |= 1 << _t
    if _t.is_double:
        DOUBLES_MASK |= 1 << _t
del _t


def set_size(top: int) -> int:
    """Number of tiles in the double-``top`` set."""
    return (top + 1) * (top + 2) // 2


def set_tiles(top: int) -> list[Tile]:
    """Every tile of the double-``top`` set, in set order."""
    return TILES[: set_size(top)]


def set_mask(top: int) -> int:
    return (1 << set_size(top)) - 1


def double(n: int) -> Tile:
    return TILES[n * (n + 1) // 2 + n]


def mask_of(tiles: Iterable[int]) -> int:
    """Bitmask of distinct tiles."""
    return sum(map(BIT.__getitem__, tiles))


def tiles_of(mask: int) -> list[Tile]:
    """Tiles of a bitmask in set order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(TILES[low.bit_length() - 1])
        mask ^= low
    return out


# _BYTE_PIPS[i][b]: the pips of tiles 8i to 8i+7 whose bits byte b sets. A hand's pips
# are then a lookup a byte (4 for a double-six hand): 150 ns a hand, not 270 tile by tile.
# Each entry is an earlier one plus its lowest tile (1 ms to build at import, not 6).
_BYTE_PIPS: list[list[int]] = []
for _i in range((len(TILES) + 7) // 8):
    _row = [0] * 256
    for _b in range(1, 256):
        _low = (_b & -_b).bit_length() - 1
        _tile = 8 * _i + _low
        _row[_b] = _row[_b & (_b - 1)] + (VALUE[_tile] if _tile < len(TILES) else 0)
    _BYTE_PIPS.append(_row)
del _i, _row, _b, _low, _tile


def pips_of(mask: int) -> int:
    """Pips of the tiles of a bitmask."""
    total = 0
    table = 0
    while mask:
        total += _BYTE_PIPS[table][mask & 255]
        mask >>= 8
        table += 1
    return total


def highest(mask: int) -> Tile:
    """The highest tile in tile order (:data:`RANK`) of a non-empty bitmask."""
    if not mask & ~DOUBLES_MASK:  # doubles only: set order is tile order
        return TILES[mask.bit_length() - 1]
    return max(tiles_of(mask), key=RANK.__getitem__)
