"""LineHand helpers that search relies on."""

from __future__ import annotations

import random

import pytest

from engine.game import Game
from engine.line import LineHand
from engine.rules import Rules


@pytest.mark.parametrize("preset, players", [("all_fives", 2), ("fido12", 4), ("fido18", 3)])
def test_count_after_agrees_with_making_the_move(preset: str, players: int) -> None:
    rng = random.Random(7)
    for seed in range(10):
        game = Game(Rules.from_preset(preset), players)
        hand = game.start_hand(seed=seed)
        while game.hand is not None:
            for move in hand.legal_moves():
                if move.tile is not None:
                    trial = hand.copy()
                    expected = hand.count_after(move)
                    trial.push(move)
                    assert trial.count == expected, str(move)
            game.apply(rng.choice(hand.legal_moves()))


def test_from_public_rebuilds_the_table() -> None:
    game = Game(Rules.from_preset("fido12"), 3)
    hand = game.start_hand(seed=2)
    rng = random.Random(2)
    for _ in range(12):
        game.apply(rng.choice(hand.legal_moves()))
    again = LineHand.from_public(
        hand.rules,
        hand.hands,
        hand.boneyard[len(hand.boneyard) - hand.boneyard_left :],
        hand.placements,
        hand.moves,
        hand.to_move,
        hand.opener,
        hand.scored,
    )
    assert sorted(again.sides) == sorted(hand.sides)
    assert again.count == hand.count
    assert again.legal_moves() == hand.legal_moves()
