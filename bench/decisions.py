"""How long a computer player takes to decide: p50, p95 and the slowest, per preset.

Only real decisions count (more than one legal move). Goals of the computer-players
issue: ``hard`` at most 250 ms at p95 in line games and 500 ms in Mexican Train, ``easy``
and ``normal`` under 5 ms. Run by ``make bench``; ``--hands`` per preset and strength.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from engine.game import Game
from engine.players import make_timed_player
from engine.rules import Rules
from engine.simulate import decisions

PRESETS = [
    ("partnership", 4),
    ("draw", 2),
    ("all_fives", 2),
    ("fido12", 4),
    ("fido18", 4),
    ("mexican_train", 4),
]


def times(preset: str, players: int, strength: str, hands: int) -> list[float]:
    took: list[float] = []
    for deal in range(hands):
        game = Game(Rules.from_preset(preset), players)
        # hard stops where the bot stops it: its budget on the same wall clock
        seats = [
            make_timed_player(strength, deal * 8 + s, time.perf_counter) for s in range(players)
        ]
        game.start_hand(seed=deal)
        for view in decisions(game):
            started = time.perf_counter()
            move = seats[view.seat].choose(view)  # type: ignore[index]
            if len(view.legal_moves) > 1:
                took.append(time.perf_counter() - started)
            game.apply(move)
    return took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10, help="hands per preset and strength")
    args = parser.parse_args(argv)
    print(
        f"{'preset':<16} {'strength':<8} {'decisions':>9} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}"
    )
    for preset, players in PRESETS:
        for strength in ("easy", "normal", "hard"):
            took = sorted(times(preset, players, strength, args.hands))
            p50 = statistics.median(took)
            p95 = took[min(len(took) - 1, int(0.95 * len(took)))]
            print(
                f"{preset:<16} {strength:<8} {len(took):>9} {1000 * p50:>8.2f}"
                f" {1000 * p95:>8.2f} {1000 * took[-1]:>8.2f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
