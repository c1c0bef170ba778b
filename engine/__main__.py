"""``python -m engine``: replay a record, simulate games, or watch a demonstration game."""

# The one module of the engine that reads files, prints, draws a seed from the system or
# reads the clock: the rules and players it runs are given them (issue 30).

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from engine.demo import demo
from engine.errors import DominoError
from engine.record import load, summary
from engine.rules import PRESETS
from engine.simulate import simulate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="domino", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    replay = commands.add_parser("replay", help="play a game record and print its scores")
    replay.add_argument("record", help="a record file (RECORD.md), or - for standard input")

    sim = commands.add_parser("simulate", help="play computer games and print statistics")
    sim.add_argument("--preset", default="partnership", choices=sorted(PRESETS))
    sim.add_argument("--players", type=int, default=None)
    count = sim.add_mutually_exclusive_group(required=True)
    count.add_argument("--hands", type=int)
    count.add_argument("--games", type=int)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--seats", help="one player per seat, e.g. greedy,random,greedy,random")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")

    show = commands.add_parser("demo", help="watch computer players play one game")
    show.add_argument("--preset", default="partnership", choices=sorted(PRESETS))
    show.add_argument("--players", type=int, default=None)
    show.add_argument("--seed", type=int, default=None)

    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.record)
    if args.command == "demo":
        seed = random.SystemRandom().randrange(1 << 31) if args.seed is None else args.seed
        for line in demo(args.preset, args.players, seed):
            print(line)
        return 0
    try:
        options = dict(_option(text) for text in args.option)
        players = args.players or _default_players(args.preset)
        seats = args.seats.split(",") if args.seats else None
        stats = simulate(
            args.preset,
            players,
            hands=args.hands,
            games=args.games,
            seed=args.seed,
            seats=seats,
            options=options,
            clock=time.perf_counter,
        )
    except (DominoError, ValueError) as error:
        print(f"simulate: {error}", file=sys.stderr)
        return 2
    print(json.dumps(stats))
    return 0


def _replay(path: str) -> int:
    try:
        if path == "-":
            data = json.load(sys.stdin)
        else:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
        game = load(data)
    except OSError as error:
        print(f"replay: cannot read {path}: {error.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as error:
        print(f"replay: {path} is not JSON: {error.msg} at line {error.lineno}", file=sys.stderr)
        return 2
    except DominoError as error:
        print(f"replay: {error}", file=sys.stderr)
        return 2
    print(json.dumps(summary(game)))
    return 0


def _option(text: str) -> tuple[str, Any]:
    name, equals, value = text.partition("=")
    if not equals:
        raise ValueError(f"--option {text}: write it as name=value")
    try:
        return name.strip(), json.loads(value)
    except json.JSONDecodeError:
        return name.strip(), value.strip()


def _default_players(preset: str) -> int:
    return 4


if __name__ == "__main__":
    sys.exit(main())
