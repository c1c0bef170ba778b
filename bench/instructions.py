"""Instructions a hand, counted by valgrind (callgrind): a figure that load cannot move.

The CPU-time benches (bench/engine.py, bench/compare.py) move by 5% or more from run to
run on a shared machine; counting the instructions a hand takes does not move at all
between runs, so two versions of the engine can be told apart by 1%. It is not a time:
a big set's memory traffic costs more than its count shows. Needs ``valgrind`` (not in
``make bench``: each figure takes a minute).

    python bench/instructions.py                       # this checkout, every workload
    python bench/instructions.py --tree /tmp/before    # another checkout's engine
    python bench/instructions.py --only checked

Each workload plays ``--warm`` hands first (the caches fill), then ``--hands`` more; the
figure is the difference between that run and one with the warm hands alone, over
``--hands``. Random legal moves, seeded deals, ``PYTHONHASHSEED=0``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WORKLOADS = {  # name: (preset, players, path, hands)
    "checked": ("tournament_pr", 4, "checked", 1000),
    "push": ("tournament_pr", 4, "push", 1000),
    "fido18": ("fido18", 4, "push", 300),
    "mexican_train_4": ("mexican_train", 4, "push", 300),
    "mexican_train_8": ("mexican_train", 8, "push", 300),
}

PLAY = """
import random, sys
from engine.game import Game
from engine.rules import Rules
preset, players, path, hands = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
rules = Rules.from_preset(preset)
rng = random.Random(0)
game = Game(rules, players)
for seed in range(1, hands + 1):
    if game.over:
        game = Game(rules, players)
    hand = game.start_hand(seed=seed)
    if path == "checked":
        legal, apply = game.legal_moves, game.apply
        while game.hand is not None:
            moves = legal()
            apply(moves[int(rng.random() * len(moves))])
    else:
        legal, push = hand.legal_moves, hand.push
        while hand.ended is None:
            moves = legal()
            push(moves[int(rng.random() * len(moves))])
        game.settle()
"""


def count(tree: Path, preset: str, players: int, path: str, hands: int) -> int:
    """Instructions of one whole process playing ``hands`` hands."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(tree))
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, "-c", PLAY, preset, str(players), path, str(hands),
    ]  # fmt: skip
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no count from valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose engine")
    parser.add_argument("--only", help="workloads whose name holds this text")
    parser.add_argument("--warm", type=int, default=1500, help="hands before counting")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: no figures")
        return 0
    print(f"instructions a hand (callgrind), engine of {args.tree}")
    for name, (preset, players, path, hands) in WORKLOADS.items():
        if args.only and args.only not in name:
            continue
        warm = count(args.tree, preset, players, path, args.warm)
        both = count(args.tree, preset, players, path, args.warm + hands)
        print(f"  {name:18s} {(both - warm) // hands:>10,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
