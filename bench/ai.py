"""Strength of the computer players: paired deals, win rates with 95% confidence intervals.

Every deal is played twice with the strengths swapped between the seats, so the luck of
the deal cancels. Run by ``make bench``; ``--hands`` sets the number of hands per match
(2,000 by default: hard players take several minutes).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass

if sys.path and sys.path[0].endswith("bench"):
    sys.path.pop(0)  # bench/engine.py would shadow the engine package

from engine.game import Game
from engine.players import make_player
from engine.rules import Rules
from engine.simulate import play_hand


@dataclass(frozen=True)
class Match:
    preset: str
    players: int
    strong: str
    weak: str
    measure: str  # which figure decides: "hands" won, or "points" (more is better), or
    # "penalty" (fewer is better; also partnership, whose points are written on the loser)


MATCHES = [
    Match("partnership", 4, "hard", "normal", "hands"),  # goal: hard wins >= 60% of hands
    Match("partnership", 4, "normal", "easy", "hands"),
    Match("draw", 2, "hard", "normal", "hands"),
    Match("draw", 2, "normal", "easy", "hands"),
    Match("all_fives", 2, "hard", "normal", "points"),
    Match("all_fives", 2, "normal", "easy", "points"),
    Match("fido12", 4, "hard", "normal", "points"),
    Match("fido12", 4, "normal", "easy", "points"),
    Match("mexican_train", 4, "normal", "easy", "penalty"),
]


def play(match: Match, hands: int) -> dict[str, float]:
    rules = (
        Rules.from_preset(match.preset, single_hand=True)
        if match.preset not in ("all_fives", "fido12", "mexican_train")
        else Rules.from_preset(match.preset)
    )
    wins = decided = 0
    strong_points = weak_points = 0.0
    deal = 0
    started = time.perf_counter()
    while decided < hands and deal < hands * 4:
        for swap in (0, 1):
            names = [
                match.strong if (s + swap) % 2 == 0 else match.weak for s in range(match.players)
            ]
            seats = [make_player(n, seed=deal * 16 + s) for s, n in enumerate(names)]
            game = Game(rules, match.players)
            play_hand(game, seats, deal)
            result = game.logs[-1].result
            assert result is not None
            for side, points in enumerate(result.points):
                strength = names[side]  # team 0/1 are seats 0/1's strengths
                if strength == match.strong:
                    strong_points += points
                else:
                    weak_points += points
            if result.winner is not None:
                decided += 1
                wins += names[result.winner] == match.strong
        deal += 1
    rate = wins / decided if decided else 0.0
    half = 1.96 * math.sqrt(rate * (1 - rate) / decided) if decided else 0.0
    strong_seats = sum(1 for s in range(match.players) if s % 2 == 0)
    return {
        "hands": decided,
        "win_rate": rate,
        "ci95": half,
        "strong_points_per_seat_hand": strong_points / strong_seats / (2 * deal),
        "weak_points_per_seat_hand": weak_points / (match.players - strong_seats) / (2 * deal),
        "seconds": time.perf_counter() - started,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="decided hands per match")
    parser.add_argument("--only", help="run the matches whose preset contains this text")
    args = parser.parse_args(argv)
    print(f"{'match':<38} {'hands':>6} {'strong wins':>16} {'points/hand strong : weak':>28}")
    for match in MATCHES:
        if args.only and args.only not in match.preset:
            continue
        r = play(match, args.hands)
        label = f"{match.preset} {match.players}p {match.strong} vs {match.weak}"
        won = f"{100 * r['win_rate']:.1f}% +-{100 * r['ci95']:.1f}"
        points = (
            f"{r['strong_points_per_seat_hand']:.1f} : {r['weak_points_per_seat_hand']:.1f}"
            f" ({match.measure})"
        )
        print(f"{label:<38} {r['hands']:>6} {won:>16} {points:>28}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
