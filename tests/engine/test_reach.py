"""Issue 33, 2: a game played to a target that it practically never reaches. The
estimate (engine/reach.py) simulates the rules; the lobby warns of a game that takes
more than 30 hands on average and names games that end."""

from __future__ import annotations

import time
from typing import Any

import pytest

import engine.reach
from engine.reach import CAP, GAMES, LONGEST, hands_to_end
from engine.rules import PRESETS, Rules


def test_all_fives_to_100_with_three_players_does_not_end_and_the_ways_out_do() -> None:
    """The issue's game: 438 hands of normal players; the others subtract their pips."""
    rules = Rules.from_preset("all_fives", target=100)
    reach = hands_to_end(rules, 3)
    assert not reach.ends and sum(reach.played) / len(reach.played) > LONGEST
    assert reach.target is not None and reach.target < 100
    assert hands_to_end(rules.with_options(target=reach.target), 3).ends
    assert reach.hands is not None and reach.hands <= LONGEST
    assert hands_to_end(rules.with_options(hands=reach.hands), 3).ends


def counts(preset: str) -> range:
    rules = Rules.from_preset(preset)
    return range(rules.min_players, rules.max_players + 1)


ORDINARY: list[tuple[str, dict[str, Any]]] = [
    ("partnership", {}),
    ("partnership", {"target": 200}),
    ("partnership", {"target": 50}),
    ("partnership", {"score_to": "winner"}),
    ("cuban", {}),
    ("tournament_pr", {}),
    ("draw", {}),
    ("block", {}),
    ("mexican_train", {}),
    ("all_fives", {}),  # one hand
    ("fido12", {"target": 100}),
]


@pytest.mark.parametrize(("preset", "options"), ORDINARY)
def test_ordinary_games_are_never_warned(preset: str, options: dict[str, Any]) -> None:
    for players in counts(preset):
        if preset == "fido12" and players > 4:
            continue  # (the bigger tables are slow to simulate; 2-4 are the usual)
        assert hands_to_end(Rules.from_preset(preset, **options), players).ends, players


def test_every_preset_as_it_comes_ends() -> None:
    for preset in PRESETS:
        rules = Rules.from_preset(preset)
        assert hands_to_end(rules, rules.min_players).ends, preset


def test_games_that_end_by_themselves_are_not_simulated(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_: Any) -> None:
        raise AssertionError("simulated")

    monkeypatch.setattr(engine.reach, "play_hand", never)
    for preset, options in [
        ("all_fives", {"target": 100, "hands": 40}),  # 40 hands at most
        ("mexican_train", {"rounds": 40}),
        ("partnership", {"single_hand": True, "target": None}),
        ("tournament_pr", {"target": 5000}),  # the 40-minute clock ends it
    ]:
        reach = hands_to_end(Rules.from_preset(preset, **options), 4)
        assert reach.bounded and reach.ends and reach.played == ()


def test_the_estimate_is_bounded_and_the_same_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """At most GAMES games of CAP hands for the rules, and as many for each lower target
    tried (a handful); and the answer repeats (a fixed seed), cached or not."""
    played = []
    real = engine.reach.play_hand
    monkeypatch.setattr(engine.reach, "play_hand", lambda *a: (played.append(1), real(*a)))
    rules = Rules.from_preset("all_fives", target=90)  # not asked elsewhere: not cached
    first = hands_to_end(rules, 4)
    assert len(played) <= GAMES * CAP * 4
    engine.reach._hands_to_end.cache_clear()
    engine.reach._simulated.cache_clear()
    assert hands_to_end(rules, 4) == first
    started = time.perf_counter()
    hands_to_end(rules, 4)  # the lobby asks again: cached
    assert time.perf_counter() - started < 0.01
