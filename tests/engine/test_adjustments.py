"""A judge's penalty or award is written on the game's sheet (seed 001: «se restarán
veinte (-20) puntos al jugador (pareja) infractor», «la otra pareja recibe 20 puntos»):
the total follows at once, the winner and the target follow the total, and a record or a
checkpoint holds it, so a replay and a resumed game give the same game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import GameOver, IllegalMove, RecordError
from engine.game import Game
from engine.record import export, load
from engine.rules import Rules
from engine.views import view_of
from tests.engine.test_checkpoints import CASES, play, resumed_at, state, through_json

# seed 001's game: the pair reaching 200 wins (the sheet counts up for the winner)
CLUB = Rules.from_preset("tournament_pr", time_limit_minutes=0)


def first_hand_played(rules: Rules, seed: int) -> Game:
    game = Game(rules, 4)
    game.start_hand(seed=seed)
    while game.hand is not None:
        move = game.forced_move() or game.legal_moves()[0]
        game.apply(move)
    return game


def test_a_penalty_counts_at_once_and_the_sheet_keeps_it() -> None:
    game = first_hand_played(CLUB, seed=5)
    before = list(game.scores)
    game.start_hand(seed=6)
    game.apply(game.legal_moves()[0])
    written = game.adjust(0, -20, "rompió la mano")
    assert game.scores == [before[0] - 20, before[1]]
    assert written.hand == 1 and written.at == 1  # during hand 2, after its first move
    room = view_of(game)
    assert room.scores[0] == before[0] - 20
    assert room.adjustments == (written,)


def test_an_award_that_reaches_the_target_between_hands_ends_the_game() -> None:
    game = first_hand_played(CLUB, seed=5)
    side = 0 if game.scores[0] >= game.scores[1] else 1
    assert not game.over
    game.adjust(side, 200 - game.scores[side], "la otra pareja recibe 20 puntos")
    assert game.over and game.outcome is not None
    assert game.outcome.winner == side and game.outcome.reason == "target"
    with pytest.raises(GameOver):
        game.adjust(1 - side, 20)


def test_a_penalty_can_turn_the_winner() -> None:
    """190-180 for the leader, -20 for the leader: 170-180, and the next hand's points
    decide from there (the game goes to 200 as the sheet now says)."""
    game = first_hand_played(CLUB, seed=5)
    leader = 0 if game.scores[0] > game.scores[1] else 1
    game.adjust(leader, 190 - game.scores[leader])
    game.adjust(1 - leader, 180 - game.scores[1 - leader])
    game.adjust(leader, -20, "señas")
    assert game.scores[leader] == 170 and game.scores[1 - leader] == 180
    assert not game.over


@pytest.mark.parametrize(
    ("side", "points", "why"), [(2, -20, "no side 2"), (0, 0, "not 0"), (-1, 5, "no side -1")]
)
def test_a_bad_adjustment_changes_nothing(side: int, points: int, why: str) -> None:
    game = first_hand_played(Rules.from_preset("partnership"), seed=5)
    before = state(game)
    with pytest.raises(IllegalMove):
        game.adjust(side, points)
    assert state(game) == before, why


def test_nothing_to_write_on_before_the_first_deal() -> None:
    game = Game(Rules.from_preset("partnership"), 4)
    with pytest.raises(IllegalMove):
        game.adjust(0, -20)
    assert game.scores == [0, 0]


def test_a_record_with_a_bad_adjustment_is_refused_by_name() -> None:
    game = first_hand_played(Rules.from_preset("partnership"), seed=5)
    game.adjust(1, 20, "premio")
    record = through_json(export(game))
    assert record["hands"][0]["adjustments"] == [
        {"at": len(record["hands"][0]["moves"]), "side": 1, "points": 20, "reason": "premio"}
    ]
    for bad in ({"at": 0, "side": 5, "points": 20}, {"at": 999, "side": 0, "points": 20},
                {"at": 0, "side": 0, "points": 0}, "x"):  # fmt: skip
        broken = through_json(record)
        broken["hands"][0]["adjustments"] = [bad]
        with pytest.raises(RecordError, match="adjustment"):
            load(broken)


@settings(max_examples=40, deadline=None)
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(0, 2**31),
    plan=st.lists(st.tuples(st.integers(0, 300), st.integers(-40, 40)), max_size=6),
)
def test_replayed_and_resumed_games_keep_every_adjustment(
    case: tuple[str, int, dict[str, Any]], seed: int, plan: list[tuple[int, int]]
) -> None:
    preset, players, options = case
    game = Game(Rules.from_preset(preset, **options), players)
    chance = random.Random(seed)
    for played, points in sorted(plan):
        play(game, seed, played - game.ply)
        if game.over or not game.logs or points == 0:
            continue
        game.adjust(chance.randrange(len(game.scores)), points, f"r{played}")
    play(game, seed, 100)
    written = game.adjustments
    # the total is the sheet's hands plus what the judges wrote
    for side, total in enumerate(game.scores):
        hands = sum(log.result.points[side] for log in game.logs if log.result is not None)
        assert total == hands + sum(a.points for a in written if a.side == side)
    full = load(through_json(export(game)))
    assert state(full) == state(game) and full.adjustments == written
    for at in range(max(1, game.hand_number)):
        again = resumed_at(full, at)
        assert state(again) == state(full), f"resumed at hand {at}"
        assert again.adjustments == written
