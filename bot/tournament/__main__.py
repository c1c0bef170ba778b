"""``python -m bot.tournament simulate --teams N --rounds R --format swiss|round_robin|rotating
[--preset P] [--target T] [--minutes M] [--seed S] [--json]``: a whole tournament of
computer players through the real service, on a temporary database and a simulated clock.
Bad arguments: one line, exit status 2."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any, NoReturn

from bot.core.simulator import FORMATS, Plan, simulate
from engine.players import STRENGTHS
from engine.presets import preset_names


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"python -m bot.tournament: {message}", file=sys.stderr)
        raise SystemExit(2)


def parser() -> Parser:
    p = Parser(prog="python -m bot.tournament", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    s = sub.add_parser("simulate", help="a whole tournament of computer players")
    s.add_argument("--teams", type=int, required=True, help="teams (players when rotating)")
    s.add_argument("--rounds", type=int, required=True)
    s.add_argument("--format", choices=FORMATS, default="swiss")
    s.add_argument("--preset", default="tournament_pr")
    s.add_argument("--target", type=int, default=200)
    s.add_argument("--minutes", type=int, default=40, help="the round clock (0: none)")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--hand-minutes", type=float, default=4.0, help="a hand's simulated length")
    s.add_argument("--strength", choices=STRENGTHS, default="normal")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def check(p: Parser, args: Any) -> None:
    least = 4 if args.format == "rotating" else 2
    if not least <= args.teams <= 256:
        p.error(f"--teams must be from {least} to 256 for {args.format}")
    if not 1 <= args.rounds <= 30:
        p.error("--rounds must be from 1 to 30")
    if args.preset not in preset_names():
        p.error(f"--preset {args.preset} is not a game; the games: {', '.join(preset_names())}")
    if not 1 <= args.target <= 10_000 or not 0 <= args.minutes <= 600:
        p.error("--target must be from 1 to 10000 and --minutes from 0 to 600")
    if not 0.1 <= args.hand_minutes <= 120:
        p.error("--hand-minutes must be from 0.1 to 120")


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    check(p, args)
    plan = Plan(
        teams=args.teams, rounds=args.rounds, format=args.format, preset=args.preset,
        target=args.target, minutes=args.minutes, seed=args.seed,
        hand_minutes=args.hand_minutes, strength=args.strength,
    )  # fmt: skip
    started = time.perf_counter()
    try:
        result = asyncio.run(simulate(plan))
    except Exception as error:  # the service's refusal of these settings, said in one line
        print(f"python -m bot.tournament: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    took = time.perf_counter() - started
    print(f"{result['format']}: {len(result['rounds'])} rounds in {took:.1f} s")
    for line in report(result):
        print(line)
    return 0


# the standings' own columns already show these two tie-breaks
SHOWN = ("difference", "points_for")


def report(result: dict[str, Any]) -> list[str]:
    """The rounds' tables and byes, then the standings as a table: a line an entry, a
    column a figure (games counted with the byes, which count as won), and a column for
    each tie-break the event orders by."""
    lines = []
    for r in result["rounds"]:
        lines += ["", f"Round {r['round']}"]
        for t in r["tables"]:
            a, b = t["teams"]
            x, y = t["score"]
            how = f"{t['ended_by']}, {t['hands']} hands"
            lines.append(f"  table {t['table']}: {a} vs {b}, {x}-{y} ({how})")
        if r["byes"]:
            lines.append(f"  byes: {', '.join(r['byes'])}")
    breaks = [t for t in result.get("tiebreaks", []) if t not in SHOWN]
    entry = "Player" if "players" in result else "Team"
    header = ["#", entry, "Played", "Won", "Byes", "For", "Against", "Pen.", "Diff."]
    header += [t.replace("_", " ").capitalize() for t in breaks]
    rows = [header]
    for place, s in enumerate(result["standings"], 1):
        figures = [s["played"] + s["byes"], s["won"], s["byes"], s["points_for"]]
        figures += [s["points_against"], s["penalties"]]
        figures.append(s["tiebreaks"]["difference"])  # penalties taken off
        figures += [s["tiebreaks"].get(t, 0) for t in breaks]
        rows.append([str(place), s["team"], *(f"{f:g}" for f in figures)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines += ["", "Standings (a bye counts as a game won)"]
    for row in rows:
        shown = zip(row[2:], widths[2:], strict=True)
        cells = [row[1].ljust(widths[1]), *(c.rjust(w) for c, w in shown)]
        lines.append(f"  {row[0].rjust(widths[0])}  " + "  ".join(cells).rstrip())
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
