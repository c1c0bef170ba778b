"""The engine before and after a change, side by side in one run (issue 23's table).

    python bench/compare.py BEFORE_TREE [--rounds 5] [--hands 20000]

``BEFORE_TREE`` is a checkout of the engine as it was (``git worktree add /tmp/before
<commit>``). Each round runs, one after the other: this directory's bench/engine.py for
one round on the engine of ``BEFORE_TREE`` and on this tree's (each in its own process:
one process cannot hold two ``engine`` packages), then ``python -m engine simulate`` of
each tree and the ``dominoes`` package as whole processes (bench/simulate.py's timing).
Every figure is CPU time; the table shows medians over the rounds, and each row's ratio
to the ``dominoes`` package measured in the same rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from simulate import THEIRS, cpu_seconds  # noqa: E402

ROWS = {  # bench/engine.py's row: what the issue calls it
    "ours_checked_pr": "Game.legal_moves() + Game.apply() (checked)",
    "ours_push_pr": "hand.legal_moves() + push (unchecked)",
}
PER_MOVE = {  # a move's cost (deal and scoring included), against partnership's
    "ours_partnership": "partnership",
    "ours_fido18": "fido18 (divisor, double-18)",
    "ours_mexican_train_4": "Mexican Train, 4 players",
    "ours_mexican_train_8": "Mexican Train, 8 players",
}


def engine_round(tree: Path, seconds: float) -> dict[str, float]:
    """One round of bench/engine.py on the engine of ``tree``: hands (rounds) per
    CPU-second of each row, the dominoes package's among them."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, str(HERE / "engine.py"), "--json", "--rounds", "1"]
    command += ["--seconds", str(seconds), "--warmup", "0.3"]
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    data = json.loads(out)
    found = {key: row["median"] for key, row in data["rows"].items() if row["median"]}
    for key in PER_MOVE:
        if key in data["per_move"]:
            found[f"{key}_us"] = data["per_move"][key]["us_per_move"]
    return found


def simulate_seconds(tree: Path, hands: int) -> float:
    command = [sys.executable, "-m", "engine", "simulate", "--preset", "tournament_pr"]
    return cpu_seconds([*command, "--hands", str(hands)], cwd=tree)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="a checkout of the engine before")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="one engine round")
    parser.add_argument("--hands", type=int, default=20_000, help="hands of one simulate run")
    args = parser.parse_args(argv)
    trees = {"before": args.before.resolve(), "after": ROOT}
    rates: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    simulated: dict[str, list[float]] = {name: [] for name in [*trees, "dominoes"]}
    for n in range(args.rounds):
        for name, tree in trees.items():
            for key, rate in engine_round(tree, args.seconds).items():
                rates[name].setdefault(key, []).append(rate)
            simulated[name].append(simulate_seconds(tree, args.hands))
        theirs = [sys.executable, "-c", THEIRS, str(args.hands)]
        simulated["dominoes"].append(cpu_seconds(theirs))
        print(f"round {n + 1}/{args.rounds} done", file=sys.stderr)
    print(table(rates, simulated, args))
    return 0


def table(
    rates: dict[str, dict[str, list[float]]],
    simulated: dict[str, list[float]],
    args: argparse.Namespace,
) -> str:
    median = statistics.median
    theirs = median(rates["before"]["dominoes"] + rates["after"]["dominoes"])
    lines = [
        f"{args.rounds} alternating rounds (engine rows {args.seconds:g} CPU-s each;"
        f" simulate {args.hands:,} hands a run), CPU time, medians",
        f"before: {args.before}   after: {ROOT}",
        "",
        f"{'path':<46} {'before':>9} {'after':>9} {'before':>7} {'after':>7}",
        f"{'':<46} {'hands/s':>9} {'hands/s':>9} {'vs pkg':>7} {'vs pkg':>7}",
        f"{'dominoes 6.1.0, valid_moves + make_move':<46} {theirs:>9.0f} {theirs:>9.0f}"
        f" {1:>6.2f}x {1:>6.2f}x",
    ]
    for key, label in ROWS.items():
        before, after = median(rates["before"][key]), median(rates["after"][key])
        lines.append(
            f"{label:<46} {before:>9.0f} {after:>9.0f}"
            f" {before / theirs:>6.2f}x {after / theirs:>6.2f}x"
        )
    lines += [
        "",
        f"{'one move, us (deal and scoring included)':<46} {'before':>9} {'after':>9}"
        f" {'before':>7} {'after':>7}",
    ]
    line_before = median(rates["before"]["ours_partnership_us"])
    line_after = median(rates["after"]["ours_partnership_us"])
    for key, label in PER_MOVE.items():
        before, after = median(rates["before"][f"{key}_us"]), median(rates["after"][f"{key}_us"])
        lines.append(
            f"{label:<46} {before:>9.2f} {after:>9.2f}"
            f" {before / line_before:>6.2f}x {after / line_after:>6.2f}x"
        )
    pkg = median(simulated["dominoes"])
    before, after = median(simulated["before"]), median(simulated["after"])
    lines += [
        "",
        f"whole process, {args.hands:,} hands: dominoes {pkg:.2f} s;"
        f" python -m engine simulate before {before:.2f} s ({pkg / before:.2f}x),"
        f" after {after:.2f} s ({pkg / after:.2f}x)",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
