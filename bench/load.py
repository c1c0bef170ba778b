"""The whole bot under load, through the fake Telegram: the real program (``python -m
bot``) with its real library, many games at once (one person against a computer player
each), people pressing their moves at a steady rate over all games, Telegram's limits in
force in the bot (30 messages a second, 20 a minute per group).

Prints presses answered per second, p50/p99/max latency from the press to the bot's
answer, the most messages one group got in any minute (Telegram allows 20), refused and
unanswered presses, errors, and the bot process's peak memory. ``--games``, ``--rate``
(presses a second offered), ``--seconds``; ``--database`` for PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from tests.telegram.load import run_load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=8.0)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--database", default="", help="a PostgreSQL URL (default: SQLite)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {"DATABASE_URL": args.database} if args.database else {}
        report = asyncio.run(run_load(Path(home), args.games, args.rate, args.seconds, **env))
    print("load through the fake Telegram (bench/load.py)")
    for line in report.lines():
        print("  " + line)


if __name__ == "__main__":
    main()
