"""Random playouts shared by the engine's property tests."""

from __future__ import annotations

import random
from typing import Any

from engine.game import Game
from engine.rules import Rules

# (preset, player counts, options): every preset and player count, and the options that
# change how a hand or a game unfolds.
CONFIGS: list[tuple[str, tuple[int, ...], dict[str, Any]]] = [
    ("partnership", (4,), {}),
    ("partnership", (4,), {"score_to": "winner", "target": 50}),
    ("partnership", (4,), {"blocked_both_score": True, "target": 50}),
    ("partnership", (4,), {"tens_scoring": True, "blocked_tie": "opener_team_wins"}),
    ("partnership", (4,), {"next_opener": "rotate", "must_open_with_double": True}),
    ("partnership", (4,), {"next_opener": "holder_of_highest_double", "redeal_doubles": 4}),
    ("partnership", (4,), {"blocked_tie": "nobody", "target": 50}),
    ("partnership", (4,), {"blocked_tie": "closer_loses", "redeal_doubles": None}),
    ("partnership", (4,), {"next_opener": "winner", "teams": "drawn_high_low"}),
    ("tournament_pr", (4,), {}),
    ("cuban", (4,), {}),
    ("cuban", (4,), {"blocked_tie": "nobody", "next_opener": "rotate"}),
    ("block", (2, 3, 4), {}),
    ("block", (2, 3), {"winner_subtracts_own": True, "min_opening_score": 15}),
    ("draw", (2, 3, 4), {}),
    ("draw", (2, 4), {"draw_rule": "one_then_pass", "instant_win_hand_points": 50}),
    ("draw", (3,), {"single_hand": True, "redeal_doubles": 5}),
    ("all_fives", (2, 3, 4), {}),
    ("all_fives", (2,), {"hands": 3}),
    ("fido12", (2, 4, 6, 8), {}),
    ("fido18", (2, 5, 8), {}),
    ("fido18", (4,), {"set": 21, "divisor": 3}),
    ("all_fives", (3,), {"set": 9, "divisor": 7}),
    ("all_fives", (2, 4), {"doubles_in_line": True}),
    ("fido12", (3,), {"doubles_in_line": True, "hands": 2}),
    ("mexican_train", (2, 3, 4, 5, 6, 7, 8), {}),
    ("mexican_train", (4,), {"engine_from": "holder", "satisfy_order": "newest_first"}),
    ("mexican_train", (3, 6), {"forked_doubles": True, "marker_removed_by": "anyone"}),
    ("mexican_train", (4,), {"first_turn_one_tile": True, "one_double_per_turn": True}),
    ("mexican_train", (5,), {"satisfy_doubles": False, "positive_scoring": True}),
    ("mexican_train", (2, 4), {"set": 6, "no_marker_when_satisfying": True}),
    (
        "mexican_train",
        (8,),
        {"set": 18, "marker_removed_by": "owner_plays_anywhere", "rounds": 2},
    ),
    ("mexican_train", (3,), {"set": 9, "rounds": 3}),
    ("mexican_train", (6,), {"set": 15, "rounds": 1, "engine_from": "holder"}),
]

CASES = [(preset, n, options) for preset, counts, options in CONFIGS for n in counts]


def new_game(preset: str, players: int, options: dict[str, Any]) -> Game:
    return Game(Rules.from_preset(preset, **options), players)


def play_random_hand(game: Game, rng: random.Random) -> None:
    """Deal and play one hand with uniformly random legal moves."""
    game.start_hand(seed=rng.randrange(1 << 40))
    while game.hand is not None:
        moves = game.legal_moves()
        game.apply(rng.choice(moves))
