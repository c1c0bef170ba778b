from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import InvalidMove
from engine.moves import MEXICAN, Action, Move, Side, parse_action
from engine.tiles import Tile

CANONICAL = [
    "0: 6-6",
    "1: 6-5 on 6-6",
    "2: pass",
    "3: draw",
    "1: end",
    "2: 18-12 on 18-18 flank",
    "3: 18-8 on 18-18 half",
    "4: 12-5 on train:2",
    "7: 5-3 on mexican",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_round_trips(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text
    assert Move.parse(str(move)) == move


def test_parse_normalises_tile_order_and_case() -> None:
    assert str(Move.parse("1:  5-6 ON 6-6")) == "1: 6-5 on 6-6"
    assert Move.parse("4: 5-12 on train:2").train == 2
    assert Move.parse("4: 5-12 on mexican").train == MEXICAN


def test_parse_action_is_what_a_player_types() -> None:
    move = parse_action("6-5 on 6-6", 3)
    assert move == Move(3, Action.PLAY, Tile.of(6, 5), Tile.of(6, 6))
    assert parse_action("pass", 1) == Move(1, Action.PASS)
    assert parse_action("18-12 on 18-18 flank", 0).side is Side.FLANK


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1",
        "x: pass",
        "1:",
        "1: jump",
        "1: 6-5 at 6-6",
        "1: 6-5 on",
        "1: 6-5 on train:x",
        "1: 6-5 on 6-6 middle",
        "1: pass now",
        "1: 6-9-9",
    ],
)
def test_bad_syntax_is_an_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMove):
        Move.parse(text)


@given(st.text(max_size=40))
def test_any_text_parses_to_a_round_tripping_move_or_is_refused_cleanly(text: str) -> None:
    try:
        move = Move.parse(text)
    except InvalidMove:
        return
    assert Move.parse(str(move)) == move
