"""The engine reads no clock (issue 30): the hard player asks its caller whether time is
up, and a simulation is timed on the caller's clock."""

from __future__ import annotations

import itertools
import time

import pytest

from engine.ai.hard import HardPlayer, TimedHardPlayer, decision_seconds
from engine.game import Game
from engine.players import make_player
from engine.rules import Rules
from engine.simulate import decisions, simulate
from engine.views import View


def searched_view(preset: str, players: int) -> View:
    """The first decision of the hand that the hard player searches (a choice of moves,
    past the opening, and past Mexican Train's first turns)."""
    game = Game(Rules.from_preset(preset), players)
    game.start_hand(seed=5)
    normal = make_player("normal", seed=1)
    for view in decisions(game):
        searched = (view.trains and not view.first_round) or view.placements
        if len(view.legal_moves) > 1 and searched:
            return view
        game.apply(normal.choose(view))
    raise AssertionError("no decision to search in this hand")


class Asked:
    """An ``out_of_time`` that counts its calls and says yes from call ``yes_from`` on."""

    def __init__(self, yes_from: int | None = None) -> None:
        self.calls = 0
        self.yes_from = yes_from

    def __call__(self) -> bool:
        self.calls += 1
        return self.yes_from is not None and self.calls >= self.yes_from


KINDS = [("partnership", 4), ("all_fives", 2), ("fido12", 4), ("mexican_train", 4)]


@pytest.mark.parametrize("preset, players", KINDS)
def test_hard_asks_once_between_each_imagined_deal(preset: str, players: int) -> None:
    view = searched_view(preset, players)
    asked = Asked()
    HardPlayer(seed=2, samples=6, out_of_time=asked).choose(view)
    assert asked.calls == 6


@pytest.mark.parametrize("preset, players", KINDS)
def test_hard_stops_imagining_when_told_time_is_up(preset: str, players: int) -> None:
    view = searched_view(preset, players)
    at_once = Asked(yes_from=1)
    assert HardPlayer(seed=2, samples=6, out_of_time=at_once).choose(view) in view.legal_moves
    assert at_once.calls == 1  # one deal imagined, then a move
    third = Asked(yes_from=3)
    HardPlayer(seed=2, samples=6, out_of_time=third).choose(view)
    assert third.calls == 3


@pytest.mark.parametrize("preset, players", KINDS)
def test_time_never_up_chooses_as_no_limit(preset: str, players: int) -> None:
    view = searched_view(preset, players)
    unlimited = HardPlayer(seed=4, samples=12)
    asked = HardPlayer(seed=4, samples=12, out_of_time=Asked())
    for _ in range(3):  # and the next decisions too: the same draws from the seed
        assert asked.choose(view) == unlimited.choose(view)


def test_make_player_hands_out_of_time_to_hard_alone() -> None:
    view = searched_view("partnership", 4)
    asked = Asked(yes_from=1)
    make_player("hard", seed=3, out_of_time=asked).choose(view)
    assert asked.calls == 1
    for name in ("easy", "normal", "random", "greedy"):
        assert make_player(name, seed=3, out_of_time=asked).choose(view) in view.legal_moves
    assert asked.calls == 1


def test_a_decision_takes_the_bots_budget() -> None:
    assert decision_seconds(searched_view("partnership", 4)) == pytest.approx(0.16)
    assert decision_seconds(searched_view("all_fives", 2)) == pytest.approx(0.16)
    assert decision_seconds(searched_view("mexican_train", 4)) == pytest.approx(0.32)


def test_timed_hard_player_gives_each_decision_its_budget_on_the_callers_clock() -> None:
    """On a clock that jumps an hour at each reading, every decision is out of time after
    its first deal; on a stopped clock, never: it then chooses as with no limit."""
    view = searched_view("partnership", 4)
    hours = itertools.count(0.0, 3600.0)
    jumping = TimedHardPlayer(seed=2, clock=lambda: next(hours), samples=6)
    for _ in range(2):
        before = next(hours)
        assert jumping.choose(view) in view.legal_moves
        assert next(hours) - before == 3 * 3600.0  # its deadline, then one check
    readings: list[float] = []

    def stopped() -> float:
        readings.append(0.0)
        return 0.0

    still = TimedHardPlayer(seed=2, clock=stopped, samples=6)
    unlimited = HardPlayer(seed=2, samples=6)
    for _ in range(2):
        readings.clear()
        assert still.choose(view) == unlimited.choose(view)
        assert len(readings) == 1 + 6  # its deadline, then a check after each deal


def raises(*args: object) -> float:
    raise AssertionError("the engine read a clock")


CLOCKS = ["perf_counter", "monotonic", "time", "process_time", "perf_counter_ns", "time_ns"]


@pytest.fixture
def no_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in CLOCKS:
        monkeypatch.setattr(time, name, raises)


@pytest.mark.parametrize("preset, players", KINDS)
def test_hard_decides_without_a_clock(no_clock: None, preset: str, players: int) -> None:
    view = searched_view(preset, players)
    for player in (make_player("hard", seed=1), HardPlayer(seed=1, samples=4)):
        assert player.choose(view) in view.legal_moves


def test_a_simulation_reads_no_clock_unless_given_one(no_clock: None) -> None:
    stats = simulate("partnership", 4, hands=3, seats=["hard", "normal", "random", "greedy"])
    assert stats["hands"] == 3
    assert stats["seconds"] is None and stats["hands_per_second"] is None


def test_a_simulation_is_timed_on_the_callers_clock() -> None:
    ticks = itertools.count(10.0, 0.5)
    stats = simulate("draw", 2, hands=4, clock=lambda: next(ticks))
    assert stats["seconds"] == 0.5  # read when it starts and when it ends: no seat is hard
    assert stats["hands_per_second"] == 8.0
