"""Engine speed: random-play hands per CPU-second, ours next to two independent engines.

Run by ``make bench`` (``python bench/engine.py``); never by pytest, and it asserts
nothing about speed: it prints figures for a person to read. The engines take turns in
short rounds timed on the process's CPU time (another process's work does not count),
after a warm-up; each row shows the median of its rounds and the best. The speed issue's
rows (Puerto Rico rules): our public, checked path (``Game.legal_moves`` and
``Game.apply``) and the hand's unchecked ``push``, each over the ``dominoes`` package,
as the median of the rounds' ratios.

    python bench/engine.py                 # the table
    python bench/engine.py --json          # one JSON object instead
    python bench/engine.py --rounds 3 --seconds 0.5
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

# ``python bench/engine.py`` puts bench/ first on sys.path, and there this very file
# would be imported as the ``engine`` package it measures; drop that entry first.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from importlib import metadata  # noqa: E402
from typing import Any  # noqa: E402

from engine.game import Game  # noqa: E402
from engine.rules import Rules  # noqa: E402

# Goals of the engine issue: ours against each other engine, partnership hands per second.
GOALS = {"dominoes": 1.5, "open_spiel": 10.0}
# Goals of the speed issue (23), Puerto Rico rules, over the dominoes package.
SPEED_GOALS = {"ours_checked_pr": 4.0, "ours_push_pr": 5.0}

PlayHand = Callable[[], None]
"""Plays one whole hand of random moves (dealing included)."""


# ----- the engines ---------------------------------------------------------------------


class Ours:
    """Our engine: seeded deals, uniformly random legal moves, the unchecked ``push``."""

    def __init__(self, preset: str, players: int, seed: int = 0) -> None:
        self.rules = Rules.from_preset(preset)
        self.players = players
        self.rng = random.Random(seed)
        self.game = Game(self.rules, players)
        self.deals = 0
        self.moves = 0  # over every hand played, for the cost of one move

    def __call__(self) -> None:
        if self.game.over:
            self.game = Game(self.rules, self.players)
        game = self.game
        self.deals += 1
        # The hand's own legal_moves/push are the fast path search uses; the game then
        # scores the ended hand when told to (a read of the game never does).
        hand = game.start_hand(seed=self.deals)
        legal, push, rand = hand.legal_moves, hand.push, self.rng.random
        while hand.ended is None:
            moves = legal()
            push(moves[int(rand() * len(moves))])
        game.settle()
        self.moves += len(hand.moves)

    @property
    def moves_per_hand(self) -> float:
        return self.moves / self.deals if self.deals else 0.0


class Checked:
    """Our public, checked path: ``Game.legal_moves()`` and ``Game.apply()`` (every move
    checked, refusals as the bot sees them), uniformly random, whole games."""

    def __init__(self, preset: str, players: int, seed: int = 0) -> None:
        self.rules = Rules.from_preset(preset)
        self.players = players
        self.rng = random.Random(seed)
        self.game = Game(self.rules, players)
        self.deals = 0

    def __call__(self) -> None:
        if self.game.over:
            self.game = Game(self.rules, self.players)
        game = self.game
        self.deals += 1
        game.start_hand(seed=self.deals)
        legal, apply, rand = game.legal_moves, game.apply, self.rng.random
        while game.hand is not None:
            moves = legal()
            apply(moves[int(rand() * len(moves))])


def dominoes_package(seed: int = 0) -> PlayHand | str:
    """The ``dominoes`` package (abw333): Puerto Rico partnership rules, 4 players."""
    try:
        import dominoes
    except ImportError:
        return "not installed"
    # Game.new() shuffles with the global random module; seed it for repeatable deals.
    random.seed(seed)

    def play_hand() -> None:
        g = dominoes.Game.new()
        while g.result is None:
            g.make_move(*random.choice(g.valid_moves))

    return play_hand


def open_spiel(seed: int = 0) -> PlayHand | str:
    """OpenSpiel's ``python_team_dominoes``: the deal is 28 chance nodes, then the play."""
    try:
        import pyspiel
        from open_spiel.python.games import team_dominoes  # noqa: F401 - registers the game
    except ImportError:
        return "not installed"
    game = pyspiel.load_game("python_team_dominoes")
    rng = random.Random(seed)

    def play_hand() -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                # Every outcome has the same probability: a uniform pick is the deal.
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])

    return play_hand


# ----- timing --------------------------------------------------------------------------


@dataclass
class Row:
    key: str
    label: str
    unit: str
    play: PlayHand | None
    missing: str | None = None  # why there is no figure
    rounds: list[float] = field(default_factory=list)  # hands (or rounds) per second

    @property
    def best(self) -> float | None:
        return max(self.rounds) if self.rounds else None

    @property
    def median(self) -> float | None:
        return statistics.median(self.rounds) if self.rounds else None


def timed(play: PlayHand, seconds: float) -> tuple[int, float]:
    """(hands, CPU seconds) of whole hands played for about ``seconds`` of CPU time."""
    clock = time.process_time
    done = 0
    start = clock()
    deadline = start + seconds
    while True:
        play()
        done += 1
        now = clock()
        if now >= deadline:
            return done, now - start


# Each round runs the engines one after the other. Slicing a round finer keeps the
# machine's drift out of the ratios but flushes every engine's caches at each switch
# (0.1 s slices cost ours 40% and the others 30%), so a round is one block per engine.
SLICES = 1


def measure(rows: list[Row], rounds: int, seconds: float, warmup: float) -> None:
    live = [row for row in rows if row.play is not None]
    for row in live:
        assert row.play is not None
        timed(row.play, warmup)  # caches, interned moves, imports: not what we measure
    # The machine's speed drifts from second to second: engines alternate round by round
    # and the ratios are taken within a round.
    for number in range(rounds):
        done = {row.key: 0 for row in live}
        spent = {row.key: 0.0 for row in live}
        for _ in range(SLICES):
            for row in live:
                assert row.play is not None
                hands, elapsed = timed(row.play, seconds / SLICES)
                done[row.key] += hands
                spent[row.key] += elapsed
        for row in live:
            row.rounds.append(done[row.key] / spent[row.key])
        print(f"round {number + 1}/{rounds} done", file=sys.stderr, flush=True)


def build_rows() -> list[Row]:
    rows = [
        Row("ours_partnership", "ours, partnership, 4 players", "hands/s", Ours("partnership", 4)),
        Row("dominoes", "dominoes package, 4 players", "hands/s", None),
        Row("open_spiel", "OpenSpiel python_team_dominoes", "hands/s", None),
        Row(
            "ours_checked_pr",
            "ours, tournament_pr, Game.apply",
            "hands/s",
            Checked("tournament_pr", 4),
        ),
        Row("ours_push_pr", "ours, tournament_pr, push", "hands/s", Ours("tournament_pr", 4)),
        Row("ours_draw", "ours, draw, 4 players", "hands/s", Ours("draw", 4)),
        Row("ours_fido18", "ours, fido18, 4 players", "hands/s", Ours("fido18", 4)),
        Row(
            "ours_mexican_train_4",
            "ours, mexican_train, 4 players",
            "rounds/s",
            Ours("mexican_train", 4),
        ),
        Row(
            "ours_mexican_train_8",
            "ours, mexican_train, 8 players",
            "rounds/s",
            Ours("mexican_train", 8),
        ),
    ]
    for row, engine in ((rows[1], dominoes_package()), (rows[2], open_spiel())):
        if isinstance(engine, str):
            row.missing = engine
        else:
            row.play = engine
    return rows


# ----- reporting -----------------------------------------------------------------------


def ratios(rows: dict[str, Row]) -> dict[str, dict[str, Any]]:
    """Our partnership speed over each other engine's: the median of the rounds' ratios
    (each round measured both on the same machine), and best against best."""
    mine = rows["ours_partnership"]
    out: dict[str, dict[str, Any]] = {}
    for key, goal in GOALS.items():
        theirs = rows[key]
        paired = [a / b for a, b in zip(mine.rounds, theirs.rounds, strict=False) if b]
        ratio = statistics.median(paired) if paired else None
        best = mine.best / theirs.best if mine.best and theirs.best else None
        met = None if ratio is None else ratio >= goal
        out[key] = {"ratio": ratio, "best_over_best": best, "goal": goal, "met": met}
    return out


def speed_ratios(rows: dict[str, Row]) -> dict[str, dict[str, Any]]:
    """The speed issue's rows over the dominoes package: the median of the rounds'
    ratios (each round measured both on the same machine)."""
    theirs = rows["dominoes"]
    out: dict[str, dict[str, Any]] = {}
    for key, goal in SPEED_GOALS.items():
        mine = rows[key]
        paired = [a / b for a, b in zip(mine.rounds, theirs.rounds, strict=False) if b]
        ratio = statistics.median(paired) if paired else None
        out[key] = {"ratio": ratio, "goal": goal, "met": None if ratio is None else ratio >= goal}
    return out


def version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def report(rows: list[Row], rounds: int, seconds: float) -> dict[str, Any]:
    by_key = {row.key: row for row in rows}
    return {
        "bench": "engine",
        "rounds": rounds,
        "seconds_per_round": seconds,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "versions": {p: version(p) for p in ("domino-bot", "dominoes", "open-spiel")},
        "rows": {
            row.key: {
                "label": row.label,
                "unit": row.unit,
                "best": row.best,
                "median": row.median,
                "rounds": row.rounds,
                "missing": row.missing,
            }
            for row in rows
        },
        "ratios": ratios(by_key),
        "speed": speed_ratios(by_key),
        "per_move": per_move(by_key),
    }


PER_MOVE = ("ours_partnership", "ours_fido18", "ours_mexican_train_4", "ours_mexican_train_8")
PER_MOVE_GOAL = 2.0  # issue 23: Mexican Train and divisor games within 2x of partnership


def per_move(rows: dict[str, Row]) -> dict[str, Any]:
    """Microseconds per move at the median rate, and each other game's cost over the
    line's (partnership)."""
    out: dict[str, Any] = {}
    for key in PER_MOVE:
        row = rows[key]
        if isinstance(row.play, Ours) and row.median:
            out[key] = {
                "moves_per_hand": round(row.play.moves_per_hand, 1),
                "us_per_move": round(1e6 / (row.median * row.play.moves_per_hand), 2),
            }
    line = out.get("ours_partnership")
    over: dict[str, Any] = {}
    for key in PER_MOVE[1:]:
        if line and key in out:
            ratio = out[key]["us_per_move"] / line["us_per_move"]
            over[key] = {"ratio": round(ratio, 2), "goal": PER_MOVE_GOAL, "met": ratio <= 2.0}
    out["over_partnership"] = over
    rate = rows["ours_mexican_train_4"].best
    out["mexican_4_rounds"] = {"best": rate, "goal": 1500, "met": bool(rate and rate >= 1500)}
    return out


def table(data: dict[str, Any]) -> str:
    lines = [
        f"Random play, {data['rounds']} alternating rounds of {data['seconds_per_round']:g}"
        f" CPU-s each (Python {data['python']}, {data['machine']}); per CPU-second",
        "",
        f"{'engine':<34} {'median':>9} {'best':>9} {'unit':<9}  every round",
    ]
    for row in data["rows"].values():
        if row["best"] is None:
            lines.append(f"{row['label']:<34} {'-':>9} {'-':>9} {row['unit']:<9}  {row['missing']}")
            continue
        each = " ".join(f"{r:.0f}" for r in row["rounds"])
        lines.append(
            f"{row['label']:<34} {row['median']:>9.0f} {row['best']:>9.0f} {row['unit']:<9}  {each}"
        )
    lines += ["", "the speed issue's rows over the dominoes package (median of the rounds' ratios)"]
    for key, r in data["speed"].items():
        shown = "-" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        verdict = "no figure" if r["met"] is None else "goal met" if r["met"] else "BELOW GOAL"
        lines.append(f"  {key:<18} {shown:>8}  goal >= {r['goal']:g}x  {verdict}")
    lines += ["", "ours (partnership hands/s) over the others: median of the rounds (best/best)"]
    for key, r in data["ratios"].items():
        if r["ratio"] is None:
            shown, verdict = "-", "no figure"
        else:
            shown = f"{r['ratio']:.2f}x ({r['best_over_best']:.2f}x)"
            verdict = "goal met" if r["met"] else "BELOW GOAL"
        lines.append(f"  vs {key:<12} {shown:>16}  goal >= {r['goal']:g}x  {verdict}")
    moves = data["per_move"]
    lines += ["", "cost of one move (deal and scoring included), at the median rate:"]
    for key in PER_MOVE:
        if key in moves:
            m = moves[key]
            lines.append(
                f"  {key:<22} {m['us_per_move']:>6.2f} us  ({m['moves_per_hand']} moves a hand)"
            )
    for key, m in moves["over_partnership"].items():
        verdict = "goal met" if m["met"] else "BELOW GOAL"
        lines.append(f"  {key} / partnership {m['ratio']:.2f}x  goal <= 2x  {verdict}")
    m = moves["mexican_4_rounds"]
    verdict = "goal met" if m["met"] else "BELOW GOAL"
    best = f"{m['best']:.0f}" if m["best"] else "-"
    lines.append(f"  mexican_train 4 players {best} rounds/s  goal >= 1500  {verdict}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--rounds", type=int, default=9, help="timed rounds per engine")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one round")
    parser.add_argument("--warmup", type=float, default=0.5, help="untimed play per engine")
    args = parser.parse_args(argv)
    rows = build_rows()
    measure(rows, args.rounds, args.seconds, args.warmup)
    data = report(rows, args.rounds, args.seconds)
    print(json.dumps(data, indent=2) if args.json else table(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
