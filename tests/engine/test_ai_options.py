"""The computer players know every rule: every value of every option of RULES.md, in each
family that takes it, played by easy, normal and hard players (hard on a small time
budget) to the end of a short game. Each move chosen is one of the legal moves, every
tile stays accounted for, and the game ends. Where the winning team chooses who opens,
the computer partners claim as in simulations (opening_claim)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.ai.hard import HardPlayer
from engine.errors import RulesError
from engine.game import Game
from engine.players import Player, make_player, opening_claim
from engine.rules import OPTION_NAMES, Rules, option_choices, option_spec
from engine.views import view_of
from tests.engine.test_properties import check_accounting

# A preset of each family, with a table size, and what keeps its games short.
FAMILIES: dict[str, tuple[str, int, dict[str, Any]]] = {
    "partnership": ("partnership", 4, {"target": 30}),
    "block": ("block", 3, {"target": 30}),
    "draw": ("draw", 3, {"target": 30}),
    "divisor": ("all_fives", 3, {}),
    "train": ("mexican_train", 3, {"rounds": 1, "set": 9}),
}
# The values tried for options that are numbers (choices and flags: every value).
NUMBERS: dict[str, list[Any]] = {
    "hand_size": [None, 5],
    "min_opening_score": [0, 15],
    "target": [None, 10],  # all fives by 3 to 30 may never end: scores drift below 0
    "instant_win_hand_points": [None, 20],
    "hands": [None, 2],
    "time_limit_minutes": [0, 40],
    "rounds": [None, 2],
    "turn_timeout": [15],
    "max_timeouts": [1],
}
# Numbers or choices that need something else changed to make sense in a short game.
ALSO: dict[tuple[str, Any], dict[str, Any]] = {
    ("tens_scoring", True): {"target": 5},
    ("target", None): {"single_hand": True},
    ("hands", None): {"target": 10},
    ("rounds", None): {"set": 6},
    ("set", 6): {"rounds": 1},
}
MAX_HANDS = 40


def values_of(name: str) -> list[Any]:
    if name in NUMBERS:
        return NUMBERS[name]
    if option_spec(name).bounds is not None:
        raise AssertionError(f"option {name}: add the numbers to try to NUMBERS")
    return list(option_choices(name))


def rules_for(family: str, name: str, value: Any) -> Rules | None:
    preset, _, short = FAMILIES[family]
    options = {**short, **ALSO.get((name, value), {}), name: value}
    if name == "set" and family == "train" and value > 12:
        options["hand_size"] = 8  # the big sets' table deals 15 each: a long round
    try:
        rules = Rules.from_preset(preset, **options)
    except RulesError:
        return None
    # an option the family fixes (Mexican Train's score_to follows positive_scoring)
    return rules if getattr(rules, name) == value else None


CASES = [
    pytest.param(family, name, value, id=f"{name}={value}-{family}")
    for name in sorted(OPTION_NAMES)
    for value in values_of(name)
    for family in FAMILIES
    if rules_for(family, name, value) is not None
]


def test_every_value_of_every_option_is_played_somewhere() -> None:
    played = {(name, value) for _, name, value in (c.values for c in CASES)}
    every = {(name, value) for name in OPTION_NAMES for value in values_of(name)}
    assert every == played, every - played


def table(players: int, seed: int) -> list[Player]:
    """Hard, normal and easy around the table; hard imagines a few deals (a test, not a
    game), a number, not a time: the same moves on a slow or busy machine."""
    seats: list[Player] = []
    for seat in range(players):
        kind = ("hard", "normal", "easy")[(seat + seed) % 3]
        if kind == "hard":
            seats.append(HardPlayer(seed + seat, samples=3))
        else:
            seats.append(make_player(kind, seed + seat))
    return seats


def play_game(rules: Rules, players: int, seed: int, max_hands: int = MAX_HANDS) -> Game:
    """A whole game by computer players, each move checked; at most ``max_hands``."""
    game = Game(rules, players)
    seats = table(players, seed)
    rng = random.Random(seed)
    while not game.over and game.hands_finished < max_hands:
        game.start_hand(seed=rng.randrange(1 << 40))
        claim = opening_claim(game, range(players))
        if claim is not None:
            assert claim in game.opener_choices()
            game.choose_opener(claim)
            assert game.to_move == claim
        while game.hand is not None:
            check_accounting(game)
            forced = game.forced_move()
            if forced is not None:
                game.apply(forced)
                continue
            seat = game.to_move
            assert seat is not None
            view = view_of(game, seat)
            move = seats[seat].choose(view)
            assert move in view.legal_moves and move in game.legal_moves(), move
            game.apply(move)
        check_accounting(game)
    return game


@pytest.mark.parametrize(("family", "name", "value"), CASES)
def test_computer_players_play_every_option_to_the_end(family: str, name: str, value: Any) -> None:
    rules = rules_for(family, name, value)
    assert rules is not None and getattr(rules, name) == value
    _, players, _ = FAMILIES[family]
    game = play_game(rules, players, seed=len(name) + players)
    assert game.over, f"{name}={value} ({family}): no end after {MAX_HANDS} hands"


# A few options together, drawn at random: the values above, combined within a family.
PAIRS = [(family, name, value) for family, name, value in (c.values for c in CASES)]


@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_options_combined_keep_computer_moves_legal(data: st.DataObject) -> None:
    family = data.draw(st.sampled_from(sorted(FAMILIES)))
    pairs = [(name, value) for fam, name, value in PAIRS if fam == family]
    chosen = dict(data.draw(st.lists(st.sampled_from(pairs), min_size=2, max_size=4)))
    seed = data.draw(st.integers(min_value=0, max_value=2**20))
    preset, players, short = FAMILIES[family]
    extra: dict[str, Any] = {}
    for pair in chosen.items():
        extra.update(ALSO.get(pair, {}))
    try:
        rules = Rules.from_preset(preset, **{**short, **extra, **chosen})
    except RulesError:
        assume(False)
        raise
    play_game(rules, players, seed, max_hands=3)
