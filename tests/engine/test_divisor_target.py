"""RULES.md, divisor family: a target after the preset (``/new all_fives 150``) plays
hands until a player reaches it; a number of hands alone plays that many."""

from __future__ import annotations

import random

import pytest

from engine.game import Game
from engine.players import make_player
from engine.rules import Rules
from engine.simulate import play_hand
from tests.engine.playouts import play_random_hand


@pytest.mark.parametrize("seed", range(3))
def test_a_target_plays_hands_until_someone_reaches_it(seed: int) -> None:
    # (each hand's pips are subtracted: random play drifts below zero, the computer
    # players' counting reaches a small target in a few hands)
    rules = Rules.from_preset("all_fives", target=25)
    assert rules.hands is None
    game = Game(rules, 3)
    seats = [make_player("normal", seed * 3 + i) for i in range(3)]
    while game.outcome is None:
        play_hand(game, seats, seed * 1000 + game.hands_finished)
        assert game.hands_finished < 300, "the game never ended"
        if game.outcome is None:
            assert max(game.scores) < 25, game.scores
    assert max(game.outcome.scores) >= 25
    assert game.outcome.reason == "target"
    assert game.hands_finished > 1


def test_hands_alone_play_that_many() -> None:
    game = Game(Rules.from_preset("all_fives", hands=2), 2)
    rng = random.Random(1)
    while game.outcome is None:
        play_random_hand(game, rng)
    assert game.hands_finished == 2


def test_both_named_end_at_whichever_comes_first() -> None:
    rules = Rules.from_preset("all_fives", target=10_000, hands=2)
    game = Game(rules, 2)
    rng = random.Random(2)
    while game.outcome is None:
        play_random_hand(game, rng)
    assert game.hands_finished == 2
