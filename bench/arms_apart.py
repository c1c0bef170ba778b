"""How often a divisor table draws an arm apart (joined by a line) because no way of
laying it found room: random finished fido12 hands of 4, 6 and 8 players, and the layout's
CPU time per hand. ``python bench/arms_apart.py [--hands N]`` (300 by default)."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from engine.game import Game
from engine.players import RandomPlayer
from engine.rules import Rules
from engine.simulate import play_hand
from engine.views import view_of
from render.line_layout import layout_line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--preset", default="fido12")
    hands = parser.parse_args().hands
    preset = parser.parse_args().preset
    for players in (4, 6, 8):
        rng = random.Random(f"x{players}")  # the same hands in every run
        apart, times = 0, []
        for _ in range(hands):
            game = Game(Rules.from_preset(preset), players)
            seed = rng.randrange(10**6)
            play_hand(game, [RandomPlayer(seed + s) for s in range(players)], seed)
            placements = view_of(game).placements
            start = time.process_time()
            links = layout_line(placements, (), True).links
            times.append(time.process_time() - start)
            apart += bool(links)
        times.sort()
        print(
            f"{preset}, {players} players: {apart} of {hands} finished hands draw an arm apart; "
            f"layout CPU median {statistics.median(times) * 1000:.0f} ms, "
            f"p90 {times[int(len(times) * 0.9)] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
