"""A Mexican Train round's own machinery, beside what its views show."""

from __future__ import annotations

import random

import pytest

from engine import train
from engine.game import Game
from engine.moves import Move
from engine.rules import Rules


def round_moments(players: int, options: dict[str, object], seed: int) -> list[list[Move]]:
    """The legal moves of every moment of 4 rounds of random legal play."""
    rng = random.Random(seed)
    moments: list[list[Move]] = []
    game = Game(Rules.from_preset("mexican_train", **options), players)
    for _ in range(4):
        game.start_hand(seed=rng.randrange(1 << 30))
        while game.hand is not None:
            moves = game.legal_moves()
            moments.append(moves)
            game.apply(rng.choice(moves))
    return moments


@pytest.mark.parametrize(
    "players, options",
    [(8, {}), (4, {"forked_doubles": True}), (3, {"set": 15, "one_double_per_turn": True})],
)
def test_big_sets_build_the_plays_they_would_otherwise_keep(
    players: int, options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above double-9 a round builds its rows of plays instead of keeping them (issue 23):
    the legal moves, in their order, are those the kept rows give."""
    built = round_moments(players, options, 3)
    monkeypatch.setattr(train, "KEEP_ROWS_UP_TO", 99)
    kept = round_moments(players, options, 3)
    assert len(built) > 300
    assert kept == built
