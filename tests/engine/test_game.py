"""The game's API as the bot uses it: precise errors, forced moves, the clock, views."""

from __future__ import annotations

import pytest

from engine.errors import GameOver, IllegalMove, NotYourTurn, RecordError
from engine.game import Game
from engine.moves import Move, parse_action
from engine.rules import Rules
from engine.tiles import Tile
from engine.views import view_of

# A partnership deal written out: seat 0 holds 6-6.
DEAL = [
    ["6-6", "6-5", "5-5", "4-4", "3-3", "2-1", "1-0"],
    ["6-4", "6-3", "5-4", "5-3", "4-3", "2-2", "1-1"],
    ["6-2", "6-1", "5-2", "5-1", "4-2", "4-1", "3-2"],
    ["6-0", "5-0", "4-0", "3-1", "3-0", "2-0", "0-0"],
]


def dealt(rules: Rules | None = None) -> Game:
    game = Game(rules or Rules.from_preset("partnership", redeal_doubles=None), 4)
    game.start_hand(deal=[[Tile.parse(t) for t in hand] for hand in DEAL])
    return game


def test_the_first_hand_opens_with_the_double_six() -> None:
    game = dealt()
    assert game.to_move == 0
    assert [str(m) for m in game.legal_moves()] == ["0: 6-6"]


@pytest.mark.parametrize(
    "text, error, words",
    [
        ("1: 6-4", NotYourTurn, "seat 0's turn"),
        ("0: 5-5", IllegalMove, "must open with"),
        ("0: 6-4", IllegalMove, "do not have 6-4"),
        ("0: pass", IllegalMove, "cannot pass"),
        ("0: draw", IllegalMove, "nothing to draw"),
        ("0: 6-6 on 6-5", IllegalMove, "table is empty"),
    ],
)
def test_illegal_moves_say_why_and_change_nothing(
    text: str, error: type[Exception], words: str
) -> None:
    game = dealt()
    with pytest.raises(error, match=words):
        game.apply(Move.parse(text))
    assert game.ply == 0 and game.to_move == 0


def test_errors_after_the_opening_name_the_places() -> None:
    game = dealt()
    game.apply(Move.parse("0: 6-6"))
    with pytest.raises(IllegalMove, match="say where 6-4 goes: 6-4 on 6-6"):
        game.apply(parse_action("6-4", 1))
    with pytest.raises(IllegalMove, match="5-4 does not fit on 6-6"):
        game.apply(parse_action("5-4 on 6-6", 1))
    with pytest.raises(IllegalMove, match="not an open end"):
        game.apply(parse_action("6-4 on 2-2", 1))
    game.apply(parse_action("6-4 on 6-6", 1))
    assert {m.action_text() for m in game.legal_moves()} == {
        "6-2 on 6-6",
        "6-1 on 6-6",
        "4-2 on 6-4",
        "4-1 on 6-4",
    }


def test_forced_passes_follow_auto_pass() -> None:
    for auto_pass in (True, False):
        game = Game(Rules.from_preset("partnership", auto_pass=auto_pass), 4)
        game.start_hand(seed=11)
        while [m.action.value for m in game.legal_moves()] != ["pass"]:
            game.apply(game.legal_moves()[0])
        forced = game.forced_move()
        assert (forced == game.legal_moves()[0]) if auto_pass else forced is None
    game = Game(Rules.from_preset("draw"), 2)
    game.start_hand(seed=2)
    while [m.action.value for m in game.legal_moves()] != ["draw"]:
        game.apply(game.legal_moves()[0])
    assert game.forced_move() == game.legal_moves()[0]


def test_a_finished_game_refuses_more() -> None:
    game = Game(Rules.from_preset("block", single_hand=True), 2)
    game.start_hand(seed=3)
    while game.hand is not None:
        game.apply(game.legal_moves()[0])
    assert game.over
    with pytest.raises(GameOver):
        game.apply(Move.parse("0: pass"))
    with pytest.raises(GameOver):
        game.start_hand(seed=4)


def test_start_hand_needs_exactly_one_source_of_tiles() -> None:
    game = Game(Rules.from_preset("partnership"), 4)
    with pytest.raises(RecordError):
        game.start_hand()
    game.start_hand(seed=1)
    with pytest.raises(IllegalMove, match="still being played"):
        game.start_hand(seed=2)


def test_the_clock_is_read_by_the_caller() -> None:
    game = Game(Rules.from_preset("tournament_pr"), 4, started_at=1000.0)
    assert game.seconds_left(1000.0 + 60) == 39 * 60
    assert game.seconds_left(1000.0 + 39 * 60) == 60 and not game.time_up
    game.start_hand(seed=1)
    assert game.seconds_left(1000.0 + 40 * 60) == 0  # the caller reads its clock, and says
    game.expire_clock()
    assert game.time_up and not game.over  # the hand in progress is played to its end
    while game.hand is not None:
        game.apply(game.legal_moves()[0])
    assert game.over or game.scores[0] == game.scores[1]
    with pytest.raises(IllegalMove, match="no clock"):
        Game(Rules.from_preset("partnership"), 4).expire_clock()


def test_views_show_a_seat_its_own_tiles_and_the_room_none() -> None:
    game = dealt()
    mine = view_of(game, 0)
    assert [str(t) for t in mine.hand] == sorted(DEAL[0], key=Tile.parse)
    assert mine.my_turn and [str(m) for m in mine.legal_moves] == ["0: 6-6"]
    other = view_of(game, 1)
    assert not other.my_turn and other.legal_moves == ()
    room = view_of(game)
    assert room.hand == () and room.legal_moves == () and room.revealed is None
    assert room.tile_counts == (7, 7, 7, 7)
    with pytest.raises(ValueError):
        view_of(game, 4)


def test_the_hand_is_revealed_when_it_ends() -> None:
    game = Game(Rules.from_preset("block", single_hand=True), 2)
    game.start_hand(seed=9)
    while game.hand is not None:
        game.apply(game.legal_moves()[0])
    room = view_of(game)
    assert room.revealed is not None and len(room.revealed) == 2
    assert room.result is not None and room.outcome is not None


def test_places_follow_how_the_rules_count() -> None:
    penalty = Game(Rules.from_preset("mexican_train"), 4)
    penalty.scores = [30, 12, 30, 50]
    assert penalty.places() == [2, 1, 2, 4]  # fewest pips first; equal scores share
    counts = Game(Rules.from_preset("all_fives"), 3)
    counts.scores = [40, 65, 10]
    assert counts.places() == [2, 1, 3]  # points written on the winner: highest first
