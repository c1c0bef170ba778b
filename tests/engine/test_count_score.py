"""Who scored what and why after a move (divisor games): the view says it, the same as
the points the hand wrote."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.moves import Action
from engine.rules import Rules
from engine.views import view_of


@pytest.mark.parametrize(
    ("preset", "players", "options"),
    [
        ("all_fives", 2, {}),
        ("all_fives", 4, {}),
        ("fido12", 3, {}),
        ("fido18", 5, {}),
        ("all_fives", 3, {"set": 9, "divisor": 3}),
    ],
)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_the_last_score_is_what_the_last_play_scored(
    preset: str, players: int, options: dict[str, int], seed: int
) -> None:
    game = Game(Rules.from_preset(preset, **options), players)
    rng = random.Random(seed)
    game.start_hand(seed=seed)
    scored_by_last_play: tuple[int, int] | None = None  # (seat, points)
    while game.hand is not None:
        move = rng.choice(game.legal_moves())
        before = list(game.hand.scored)
        game.apply(move)
        log = game.logs[-1]
        gained = [a - b for a, b in zip(log.state.scored, before, strict=True)]
        if move.action is Action.PLAY:
            scored_by_last_play = (move.seat, gained[move.seat]) if gained[move.seat] else None
        else:
            assert not any(gained)
        last = view_of(game).last_score
        if scored_by_last_play is None:
            assert last is None
        else:
            assert last is not None
            assert (last.seat, last.points) == scored_by_last_play
            assert last.count == last.points * last.divisor == view_of(game).count
            assert last.divisor == game.rules.divisor


@pytest.mark.parametrize("preset", ["partnership", "block", "draw", "mexican_train"])
def test_no_count_scores_without_a_divisor(preset: str) -> None:
    rules = Rules.from_preset(preset)
    game = Game(rules, rules.min_players)
    rng = random.Random(5)
    game.start_hand(seed=5)
    while game.hand is not None:
        game.apply(rng.choice(game.legal_moves()))
        assert view_of(game).last_score is None
