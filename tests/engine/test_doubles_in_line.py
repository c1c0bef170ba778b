"""Option ``doubles_in_line`` (RULES.md, divisor games, seed 004's "Sönke Hansen" note):
doubles are played in line like any tile, with no halves or flanks; a double laid at an
end adds nothing to the count, an opening double counts both its ends."""

from __future__ import annotations

import random

import pytest

from engine.errors import Ambiguous, DoesNotFit, RecordError, RulesError
from engine.game import Game
from engine.moves import Move
from engine.players import count_after, make_player
from engine.record import export, load, summary
from engine.resolve import resolve
from engine.rules import Rules
from engine.tiles import Tile, set_tiles
from engine.views import view_of


def tiles(*texts: str) -> list[Tile]:
    return [Tile.parse(t) for t in texts]


def in_line(preset: str = "all_fives", **options: object) -> Rules:
    return Rules.from_preset(preset, doubles_in_line=True, **options)


@pytest.mark.parametrize("preset", ["all_fives", "fido12", "fido18"])
def test_the_option_lays_doubles_in_line_in_every_divisor_preset(preset: str) -> None:
    assert Rules.from_preset(preset).crosswise_doubles
    rules = in_line(preset)
    assert not rules.crosswise_doubles
    assert rules.options() == {"doubles_in_line": True}
    assert Rules.from_record({"preset": preset, "options": rules.options()}) == rules
    assert rules.with_options(doubles_in_line=False) == Rules.from_preset(preset)
    assert rules.with_options(target=150).crosswise_doubles is False


@pytest.mark.parametrize(
    "preset", ["partnership", "tournament_pr", "block", "draw", "mexican_train"]
)
def test_the_option_belongs_to_divisor_games(preset: str) -> None:
    with pytest.raises(RulesError, match="doubles_in_line belongs to divisor games"):
        Rules.from_preset(preset, doubles_in_line=True)
    assert not Rules.from_preset(preset, doubles_in_line=False).doubles_in_line


DEAL = [
    tiles("6-6", "6-4", "4-4", "2-0", "3-2", "3-0", "5-0"),
    tiles("6-1", "1-1", "5-5", "2-2", "5-2", "0-0", "5-3"),
]


def dealt_game() -> Game:
    game = Game(in_line(), 2)
    held = {t for hand in DEAL for t in hand}
    game.start_hand(deal=DEAL, boneyard=[t for t in set_tiles(6) if t not in held])
    return game


def test_counts_with_doubles_in_line() -> None:
    game = dealt_game()
    steps = [
        ("0: 6-6", 12, [0, 0]),  # the opening double counts both ends
        ("1: 6-1 on 6-6", 7, [0, 0]),  # one line: ends 6 and 1 (no flank)
        ("0: 6-4 on 6-6", 5, [1, 0]),  # ends 4 and 1: five scores 1
        ("1: 1-1 on 6-1", 5, [1, 1]),  # a double in line adds nothing: 5 again
        ("0: 4-4 on 6-4", 5, [2, 1]),
    ]
    for text, count, scored in steps:
        move = Move.parse(text)
        view = view_of(game, move.seat)
        assert move in view.legal_moves
        assert all(m.side is None for m in view.legal_moves)  # no half, no flank
        if move.on is not None:
            assert count_after(view, move) == count
            assert game.logs[-1].state.count_after(move) == count
        game.apply(move)
        assert game.hand is not None and game.hand.count == count
        assert list(game.hand.scored) == scored
        assert len(game.hand.open_sides()) == 2 or count == 12
    room = view_of(game)
    assert sorted(s.number for s in room.open_sides) == [1, 4]
    assert room.last_score is not None and room.last_score.points == 1


def test_the_second_tile_has_one_place_on_the_opening_double() -> None:
    game = dealt_game()
    game.apply(Move.parse("0: 6-6"))
    sides = game.logs[-1].state.open_sides()
    assert [(s.number, str(s.tile)) for s in sides] == [(6, "6-6")]
    assert resolve(game, 1, "6-1") == Move.parse("1: 6-1 on 6-6")
    with pytest.raises(DoesNotFit):
        resolve(game, 1, "6-1 on 6-6 flank")


def test_a_record_with_doubles_in_line_round_trips() -> None:
    game = dealt_game()
    for text in ("0: 6-6", "1: 6-1 on 6-6", "0: 6-4 on 6-6", "1: 1-1 on 6-1"):
        game.apply(Move.parse(text))
    record = export(game)
    assert record["rules"]["options"] == {"doubles_in_line": True}
    assert record["hands"][0]["moves"][3] == "1: 1-1 on 6-1"
    again = load(record)
    assert summary(again) == summary(game)
    assert summary(game)["hands"][0]["count"] == 5
    crosswise = {**record, "rules": {"preset": "all_fives", "options": {}}}
    with pytest.raises(RecordError, match="move 1"):
        load(crosswise)  # the same moves are not a crosswise game's


@pytest.mark.parametrize(("preset", "players"), [("all_fives", 2), ("all_fives", 4), ("fido12", 3)])
def test_random_hands_count_only_open_ends(preset: str, players: int) -> None:
    rng = random.Random(players)
    for seed in range(15):
        game = Game(in_line(preset), players)
        game.start_hand(seed=seed)
        scored = [0] * players
        while game.hand is not None:
            hand = game.hand
            move = rng.choice(game.legal_moves())
            if move.tile is not None and move.on is not None:
                before = hand.count
                expect = hand.count_after(move)
                tile = move.tile
                if tile.is_double:
                    assert expect == before  # a double in line adds zero
                game.apply(move)
            else:
                game.apply(move)
            state = game.logs[-1].state
            ends = [s[0] for s in state.sides]
            assert len(ends) == 2 and state.count == sum(ends)
            if move.tile is not None:
                count = state.count
                if count and count % game.rules.divisor == 0:  # type: ignore[operator]
                    scored[move.seat] += count // game.rules.divisor  # type: ignore[operator]
            assert list(state.scored) == scored


@pytest.mark.parametrize("strength", ["easy", "normal", "hard"])
def test_computer_players_play_doubles_in_line(strength: str) -> None:
    rules = in_line("all_fives", hands=None, target=60)
    game = Game(rules, 2)
    seats = [make_player(strength, 1), make_player("normal", 2)]
    hands = 0
    while not game.over and hands < 3:
        game.start_hand(seed=hands)
        hands += 1
        while game.hand is not None:
            seat = game.to_move
            assert seat is not None
            view = view_of(game, seat)
            move = seats[seat].choose(view)
            assert move in view.legal_moves
            game.apply(move)


def test_a_tile_fitting_both_ends_is_asked_where_and_a_double_adds_nothing() -> None:
    deal = [
        tiles("6-6", "6-3", "3-3", "2-0", "4-2", "1-0", "0-0"),
        tiles("6-1", "1-1", "5-5", "2-2", "5-2", "5-0", "5-3"),
    ]
    game = Game(in_line(), 2)
    held = {t for hand in deal for t in hand}
    game.start_hand(deal=deal, boneyard=[t for t in set_tiles(6) if t not in held])
    for text in ("0: 6-6", "1: 6-1 on 6-6", "0: 6-3 on 6-6", "1: 5-3 on 6-3", "0: 1-0 on 6-1"):
        game.apply(Move.parse(text))
    # ends 5 (on 5-3) and 0 (on 1-0): 5-0 fits both
    with pytest.raises(Ambiguous) as asked:
        resolve(game, 1, "5-0")
    assert {m.action_text() for m in asked.value.candidates} == {"5-0 on 5-3", "5-0 on 1-0"}
    assert game.hand is not None and game.hand.count == 5
    move = resolve(game, 1, "5-5")
    assert move == Move.parse("1: 5-5 on 5-3")
    game.apply(move)
    assert game.hand is not None and game.hand.count == 5  # 5-5 in line: still 5
    # counts 12, 7, 4, 6, then 5 (1-0: seat 0 scores 1) and 5 again (5-5: seat 1 scores 1)
    assert game.hand.scored == [1, 1]
