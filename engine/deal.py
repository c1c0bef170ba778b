"""Shuffling and dealing.

A seeded shuffle must give the same deal on every machine, Python version and language,
so it is defined on a standard hash rather than on Python's ``random`` module (whose
``shuffle`` may change between versions): shuffle number ``k`` of seed ``s`` reads
SHAKE-128 of the ASCII text ``"domino:<s>:<k>"``, takes 8 bytes per tile as a
little-endian key, and sorts the tiles (listed in set order) by key, stably. Ties have a
probability near 2**-64 and are still deterministic.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable
from typing import NamedTuple

from engine.tiles import DOUBLES_MASK, RANK, TILES, Tile, highest, set_size

_UNPACK: dict[int, Callable[[bytes], tuple[int, ...]]] = {}


class Shuffler:
    """The shuffles of one seed, in order: a hand's deal, redeals and draws replay exactly.
    ``salt`` names another stream of the same seed (``domino-teams``: the tiles drawn for
    teams, which must tell nothing of the deals)."""

    def __init__(self, seed: int, salt: str = "domino") -> None:
        self.seed = seed
        self.shuffles = 0
        self._salt = salt.encode("ascii")

    def keys(self, n: int) -> tuple[int, ...]:
        """The next shuffle's sort keys of ``n`` tiles (the shuffle is then used up)."""
        text = b"%s:%d:%d" % (self._salt, self.seed, self.shuffles)
        self.shuffles += 1
        unpack = _UNPACK.get(n) or _UNPACK.setdefault(n, struct.Struct(f"<{n}Q").unpack)
        return unpack(hashlib.shake_128(text).digest(8 * n))

    def shuffled(self, tiles: list[Tile]) -> list[Tile]:
        return list(map(tiles.__getitem__, shuffled_places(self.keys(len(tiles)))))

    def deal(self, tiles: list[Tile], players: int, size: int, boneyard: bool) -> Deal:
        """Shuffle and deal: seat i takes the i-th run of ``size`` tiles, the rest is the
        boneyard in draw order (or out of play when the game has no boneyard)."""
        order = self.shuffled(tiles)
        dealt = players * size
        hands = [order[i : i + size] for i in range(0, dealt, size)]
        return Deal(hands, order[dealt:] if boneyard else [])


class Deal(NamedTuple):
    hands: list[list[Tile]]
    boneyard: list[Tile]


def tile_draw(shuffler: Shuffler, top: int, players: int) -> int:
    """The tournament's draw for the first opener: each seat draws one, the highest in
    tile order (:data:`~engine.tiles.RANK`) opens."""
    return draw_winner(drawn_tiles(shuffler, top, players))


def drawn_tiles(shuffler: Shuffler, top: int, players: int) -> tuple[Tile, ...]:
    """The tiles of the opening draw (one shuffle of the set): seat ``i`` draws the
    ``i``-th tile of the shuffle."""
    keys = shuffler.keys(set_size(top))
    # The first tiles of the shuffle are those of the smallest keys: found without
    # sorting the set by key (1.2 us of a simulated hand's 60, as every hand of
    # ``simulate`` opens a game). Equal keys (odds near 2**-64) keep the stable sort.
    first = sorted(keys)[:players]
    if len(set(first)) < players:
        drawn = shuffled_places(keys)[:players]
    else:
        drawn = [keys.index(key) for key in first]  # tiles in set order: index = tile id
    return tuple(map(TILES.__getitem__, drawn))


def draw_winner(drawn: tuple[Tile, ...]) -> int:
    """The seat that opens after the opening draw: the highest tile in tile order (the
    higher total, then the higher end: 6-2 beats 5-3); the tiles are distinct, so there
    is no tie and no second draw."""
    return max(range(len(drawn)), key=lambda seat: RANK[drawn[seat]])


def doubles_held(hand: int) -> int:
    """Doubles in a hand given as a bitmask."""
    return (hand & DOUBLES_MASK).bit_count()


def highest_double_holder(hands: list[int]) -> tuple[int, Tile] | None:
    """(seat, double) of the highest double held, for hands given as bitmasks."""
    best = -1
    seat = -1
    for s, hand in enumerate(hands):
        top = (hand & DOUBLES_MASK).bit_length() - 1
        if top > best:
            best, seat = top, s
    return None if seat < 0 else (seat, TILES[best])


def highest_tile_holder(hands: list[int]) -> tuple[int, Tile]:
    """(seat, tile) of the highest tile held in tile order, for non-empty bitmask hands."""
    tops = [highest(hand) for hand in hands]
    seat = max(range(len(hands)), key=lambda s: RANK[tops[s]])
    return seat, tops[seat]


def shuffled_places(keys: tuple[int, ...]) -> list[int]:
    """Places 0..n-1 in shuffled order: by key, equal keys in set order (a stable sort)."""
    return sorted(range(len(keys)), key=keys.__getitem__)
