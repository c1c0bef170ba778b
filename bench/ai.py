"""Strength of the computer players: paired deals, win rates with 95% confidence intervals.

Every deal is played twice with the strengths swapped between the seats, so the luck of
the deal cancels. A match reports the share of decided hands the stronger player won
(with a 95% interval) and the points a seat made per hand, stronger : weaker, with a 95%
interval on their difference taken over the deal pairs. Run by ``make bench``; ``--hands``
sets the hands per match (2,000 by default: hard players take a while), ``--jobs`` the
processes that share the deals.

``versus-dominoes`` plays the ``dominoes`` package's own engine (Puerto Rico partnership):
our hard player partnered with itself against two of that package's
``probabilistic_alphabeta`` players.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from engine.game import Game
from engine.players import Player, make_timed_player, opening_claim
from engine.rules import Rules
from engine.simulate import decisions, play_hand

FIRST_HANDS = 1 << 40  # the seeds of the uncounted first hands of ``later`` matches


@dataclass(frozen=True)
class Match:
    preset: str
    players: int
    strong: str
    weak: str
    measure: str  # what decides: "hands" won, "points" (more is better) or "penalty"
    # (fewer is better: Mexican Train)
    # ``later``: each deal is the SECOND hand of a game (a first hand is played before it
    # and not counted), so that its opener comes from next_opener (partnership: the
    # winning team chooses, its partners claiming by claims_opening).
    later: bool = False
    # Who may claim the opening under next_opener = choose: "both" sides, or only the
    # "strong" side (the weak side never claims: the winner rule's seat opens for it).
    claims: str = "both"

    @property
    def label(self) -> str:
        label = f"{self.preset} {self.players}p {self.strong} vs {self.weak}"
        if self.later:
            label += " (2nd hands, choose)"
        if self.claims == "strong":
            label += " claims vs never"
        return label


MATCHES = [
    Match("partnership", 4, "hard", "normal", "hands"),  # goal: hard wins >= 60% of hands
    # issue 20: later hands opened by the winning team's choice (partnership's default)
    Match("partnership", 4, "hard", "normal", "hands", later=True),
    # the computer partners' judgement (claims_opening) against never claiming
    Match("partnership", 4, "normal", "normal", "hands", later=True, claims="strong"),
    Match("partnership", 4, "normal", "easy", "hands"),
    Match("draw", 2, "hard", "normal", "hands"),
    Match("draw", 2, "normal", "easy", "hands"),
    Match("all_fives", 2, "hard", "normal", "points"),
    Match("all_fives", 2, "normal", "easy", "points"),
    Match("fido12", 4, "hard", "normal", "points"),
    Match("fido12", 4, "normal", "easy", "points"),
    Match("mexican_train", 4, "hard", "normal", "penalty"),
    Match("mexican_train", 4, "normal", "easy", "penalty"),
]
VERSUS = "versus-dominoes"


@dataclass
class Tally:
    """One side of the books: what the deal pairs produced."""

    wins: int = 0
    decided: int = 0
    diffs: list[float] | None = None  # per deal pair: strong less weak, points a seat-hand
    strong_points: float = 0.0
    weak_points: float = 0.0
    hands: int = 0
    # seconds (wall clock, as the budget counts them) of each decision the strong side
    # made with a choice of moves; only the versus match records them
    decision_times: list[float] | None = None

    def add(self, other: Tally) -> None:
        self.wins += other.wins
        self.decided += other.decided
        self.diffs = (self.diffs or []) + (other.diffs or [])
        self.strong_points += other.strong_points
        self.weak_points += other.weak_points
        self.hands += other.hands
        if other.decision_times is not None:
            self.decision_times = (self.decision_times or []) + other.decision_times


def rules_for(match: Match) -> Rules:
    if match.preset in ("all_fives", "fido12", "mexican_train"):
        return Rules.from_preset(match.preset)
    if match.later:
        return Rules.from_preset(match.preset, target=10_000)  # no end after two hands
    return Rules.from_preset(match.preset, single_hand=True)


def deal_and_play(game: Game, seats: list[Player], seed: int, claimers: list[int]) -> None:
    """Deal a hand from ``seed``; the computer seats ``claimers`` may claim its opening
    (opening_claim); then the seats play it out."""
    game.start_hand(seed=seed)
    claim = opening_claim(game, claimers)
    if claim is not None:
        game.choose_opener(claim)
    for view in decisions(game):
        game.apply(seats[view.seat].choose(view))  # type: ignore[index]


def play_deals(match: Match, deals: range) -> Tally:
    """Each deal twice, strengths swapped between the seats."""
    rules = rules_for(match)
    strong_seats = (match.players + 1) // 2  # seats 0, 2, ... on the first play of a deal
    weak_seats = match.players - strong_seats
    tally = Tally(diffs=[])
    for deal in deals:
        diff = 0.0
        for swap in (0, 1):
            names = [
                match.strong if (s + swap) % 2 == 0 else match.weak for s in range(match.players)
            ]
            strong_of = [(s + swap) % 2 == 0 for s in range(match.players)]
            # hard thinks as long as the bot lets it: the budget on the wall clock
            seats = [
                make_timed_player(n, deal * 16 + s, time.perf_counter) for s, n in enumerate(names)
            ]
            game = Game(rules, match.players)
            if match.later:
                claimers = [
                    s for s in range(match.players) if match.claims == "both" or strong_of[s]
                ]
                deal_and_play(game, seats, FIRST_HANDS + deal, claimers)
                deal_and_play(game, seats, deal, claimers)
            else:
                play_hand(game, seats, deal)
            result = game.logs[-1].result
            assert result is not None
            strong = sum(p for side, p in enumerate(result.points) if strong_of[side])
            weak = sum(p for side, p in enumerate(result.points) if not strong_of[side])
            # a swap puts the strong players in the other seats: per seat, per hand
            n_strong = strong_seats if swap == 0 else weak_seats
            n_weak = match.players - n_strong
            if rules.partners:
                n_strong = n_weak = 1
            tally.strong_points += strong / n_strong
            tally.weak_points += weak / n_weak
            diff += (strong / n_strong - weak / n_weak) / 2
            tally.hands += 1
            if result.winner is not None:
                tally.decided += 1
                tally.wins += strong_of[result.winner]
        tally.diffs.append(diff)  # type: ignore[union-attr]
    return tally


def run(work: Callable[[range], Tally], hands: int, jobs: int) -> Tally:
    """Deal pairs until ``hands`` hands are decided, ``jobs`` processes sharing them."""
    total = Tally(diffs=[])
    start = 0
    with ProcessPoolExecutor(jobs) as pool:
        while total.decided < hands:
            pairs = max(jobs, (hands - total.decided + 1) // 2)
            step = math.ceil(pairs / jobs)
            chunks = [range(start + i * step, start + (i + 1) * step) for i in range(jobs)]
            start += step * jobs
            for tally in pool.map(work, chunks):
                total.add(tally)
    return total


def report(label: str, measure: str, tally: Tally, seconds: float) -> str:
    rate = tally.wins / tally.decided if tally.decided else 0.0
    half = 1.96 * math.sqrt(rate * (1 - rate) / tally.decided) if tally.decided else 0.0
    diffs = tally.diffs or [0.0]
    spread = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    gap = statistics.fmean(diffs)
    per = f"{tally.strong_points / tally.hands:.1f} : {tally.weak_points / tally.hands:.1f}"
    line = (
        f"{label:<40} {tally.decided:>6} {100 * rate:>6.1f}% +-{100 * half:<4.1f}"
        f" {per:>13} {gap:>+7.2f} +-{spread:<5.2f} {measure:<8} {seconds:>6.0f}s"
    )
    if tally.decision_times:
        times = sorted(tally.decision_times)
        p50 = times[len(times) // 2]
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        line += f"  decision p50 {1000 * p50:.0f} ms p95 {1000 * p95:.0f} ms ({len(times)})"
    return line


HEADER = (
    f"{'match':<40} {'hands':>6} {'strong wins':>14} {'pts strong:weak':>13}"
    f" {'difference':>15} {'measure':<8} {'time':>7}"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="decided hands per match")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--only",
        help=f"run the matches whose label contains one of these comma-separated texts"
        f" ('{VERSUS}' too)",
    )
    args = parser.parse_args(argv)
    print(HEADER, flush=True)
    wanted = args.only.split(",") if args.only else None
    for match in MATCHES:
        if wanted and not any(w in match.label for w in wanted):
            continue
        started = time.perf_counter()
        tally = run(_Work(match), args.hands, args.jobs)
        print(report(match.label, match.measure, tally, time.perf_counter() - started), flush=True)
    if not wanted or any(w in VERSUS for w in wanted):
        from bench.versus_dominoes import LABEL, play_versus

        started = time.perf_counter()
        tally = run(play_versus, args.hands, args.jobs)
        print(report(LABEL, "hands", tally, time.perf_counter() - started), flush=True)
    return 0


@dataclass(frozen=True)
class _Work:
    """A picklable ``play_deals`` for one match (worker processes need it by value)."""

    match: Match

    def __call__(self, deals: range) -> Tally:
        return play_deals(self.match, deals)


if __name__ == "__main__":
    sys.exit(main())
