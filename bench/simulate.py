"""``python -m engine simulate`` against the ``dominoes`` package, whole processes.

Each round starts two processes one after the other: ours,
``python -m engine simulate --preset tournament_pr --hands N`` (random seats), and one
that plays N random hands with the ``dominoes`` package (Puerto Rico rules, the same
loop as bench/engine.py's row for it). Each is timed on its own CPU time (user + system,
start-up and imports included); the table shows the median of the rounds and the ratio
of the medians (issue 23: ours at least twice as fast).

    python bench/simulate.py                  # 20,000 hands, 5 rounds
    python bench/simulate.py --hands 2000 --rounds 3
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 2.0

THEIRS = """
import random, sys
import dominoes
random.seed(0)
for _ in range(int(sys.argv[1])):
    game = dominoes.Game.new()
    while game.result is None:
        game.make_move(*random.choice(game.valid_moves))
"""


def cpu_seconds(command: list[str], cwd: Path = ROOT) -> float:
    """CPU time (user and system) of one child process run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        import dominoes  # noqa: F401
    except ImportError:
        print("the dominoes package is not installed: nothing to compare with")
        return 0
    ours_command = [sys.executable, "-m", "engine", "simulate", "--preset", "tournament_pr"]
    ours_command += ["--hands", str(args.hands)]
    theirs_command = [sys.executable, "-c", THEIRS, str(args.hands)]
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(args.rounds):
        ours.append(cpu_seconds(ours_command))
        theirs.append(cpu_seconds(theirs_command))
    mine, other = statistics.median(ours), statistics.median(theirs)
    ratio = other / mine
    verdict = "goal met" if ratio >= GOAL else "BELOW GOAL"
    print(f"{args.hands:,} random hands (tournament_pr), whole process, CPU seconds")
    print(f"  python -m engine simulate  {mine:6.2f} s  (rounds: {_each(ours)})")
    print(f"  dominoes package           {other:6.2f} s  (rounds: {_each(theirs)})")
    print(f"  ours over dominoes {ratio:.2f}x  goal >= {GOAL:g}x  {verdict}")
    return 0


def _each(values: list[float]) -> str:
    return " ".join(f"{v:.2f}" for v in values)


if __name__ == "__main__":
    sys.exit(main())
