from __future__ import annotations

import pytest

from engine.errors import InvalidMove
from engine.tiles import (
    TILES,
    Tile,
    double,
    mask_of,
    pips_of,
    set_size,
    set_tiles,
    tiles_of,
)


@pytest.mark.parametrize("top, size", [(6, 28), (9, 55), (12, 91), (15, 136), (18, 190), (21, 253)])
def test_set_sizes(top: int, size: int) -> None:
    assert set_size(top) == size == len(set_tiles(top))
    assert all(t.hi <= top for t in set_tiles(top))


@pytest.mark.parametrize("text", ["6-4", "4-6", " 4|6 ", "[6:4]", "4/6"])
def test_parse_accepts_either_order_and_common_separators(text: str) -> None:
    assert Tile.parse(text) == Tile.of(6, 4)
    assert str(Tile.parse(text)) == "6-4"


@pytest.mark.parametrize("text", ["", "6", "6-", "a-b", "6-22", "-1-3", "6--4", "six-four"])
def test_parse_refuses_what_is_not_a_tile(text: str) -> None:
    with pytest.raises(InvalidMove):
        Tile.parse(text)


def test_tile_order_is_higher_end_then_lower_end() -> None:
    # seed 001: 6-2 is higher than 5-3; 6-6 is higher than 6-5
    assert Tile.parse("6-2") > Tile.parse("5-3")
    assert Tile.parse("6-6") > Tile.parse("6-5")
    assert sorted(set_tiles(6)) == set_tiles(6)


def test_tile_facts() -> None:
    t = Tile.of(5, 2)
    assert (t.hi, t.lo, t.value, t.is_double) == (5, 2, 7, False)
    assert t.other(5) == 2 and t.other(2) == 5
    assert double(6).is_double and double(6) == Tile.of(6, 6)
    assert repr(t) == "Tile('5-2')"


def test_masks_round_trip() -> None:
    hand = [Tile.of(6, 6), Tile.of(3, 1), Tile.of(0, 0)]
    assert tiles_of(mask_of(hand)) == sorted(hand)
    assert pips_of(mask_of(hand)) == 16
    assert len(TILES) == 253
