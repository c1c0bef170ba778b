"""The whole bot under load, through the fake Telegram: the real program (``python -m
bot``) with its real library, many games at once (one person against a computer player
each), people pressing their moves at a steady rate over all games, Telegram's limits in
force in the bot (30 messages a second, 20 a minute per group).

Prints presses answered per second, p50/p99/max latency from the press to the bot's
answer, the most messages one group got in any minute (Telegram allows 20), refused and
unanswered presses, errors, and the bot process's peak memory; every answered move is
then looked up in the database. ``--games``, ``--rate`` (presses a second offered),
``--seconds``; ``--database`` for PostgreSQL: a database for the bench alone, as it
is emptied first (the groups of one run would meet the games of the last).

``--faults`` injects, 30 s apart while the presses go on: SIGKILL of the bot and a
restart, the database unreachable (12 s on SQLite, held by another writer; 5 s on
PostgreSQL, its connections cut), a 429 storm from Telegram, and Telegram answering 2 s
late; the report says, per fault, what the people pressing saw. Whatever went wrong (a press
lost or unanswered, an error, a group above 20 a minute) is listed, and the status is 1.
``make bench`` runs the same 1,000 games with faults as a test marked slow
(tests/doors/telegram/test_load.py).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from tests.doors.telegram.faults import all_faults
from tests.doors.telegram.load import broken, run_load
from tests.storage.conftest import reset_postgres


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=8.0)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument(
        "--database", default="", help="a PostgreSQL URL, emptied first (default: SQLite)"
    )
    parser.add_argument("--faults", action="store_true", help="inject the four faults")
    args = parser.parse_args()
    faults = []
    seconds = args.seconds
    if args.faults:
        faults = all_faults(start=10, spacing=30, database_lasts=5 if args.database else 12)
        seconds = max(seconds, faults[-1].at + 30)
    if args.database:
        asyncio.run(reset_postgres(args.database))
    with tempfile.TemporaryDirectory() as home:
        report = asyncio.run(
            run_load(Path(home), args.games, args.rate, seconds, faults, args.database)
        )
    print("load through the fake Telegram (bench/load.py" + (" --faults)" if faults else ")"))
    for line in report.lines():
        print("  " + line)
    if wrong := broken(report, faults):
        print("went wrong:\n" + "\n".join("  " + line for line in wrong))
        sys.exit(1)


if __name__ == "__main__":
    main()
