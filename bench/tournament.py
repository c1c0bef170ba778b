"""A big tournament's costs (issue 31, 9): a Swiss round paired, the standings counted and
told, the standings picture drawn, at 100, 500, 1,000 and 2,000 entries.

Each field has played ``--played`` rounds first (paired top down by wins, the nearest
not met, random winners and scores), so the round paired here has opponents to avoid
where it matters: among the leaders. Measured, each in a process of its own that is
stopped after ``--limit`` seconds ("> N s"):

- pair even: ``swiss()`` of the whole field; pair odd: the field less its last entry
  (a bye to give);
- loop stall: the longest an event loop went without running a task (a heartbeat every
  millisecond) while the even round was paired as the bot pairs it (off the loop, in a
  thread: ``asyncio.to_thread``; before issue 31 it ran on the loop, so the whole
  pairing was the stall);
- standings: ``standings()`` of every table played;
- told: ``standings_effects()``, the standings as a room is told them: the picture's
  rows, the caption's lines, the file when some are left out (off the loop since issue
  31; on it before);
- names: ``short_names()`` of every entry's name (long enough to be shortened) for the
  picture's column;
- picture: the standings picture the bot sends (``draw_figures`` of the rows told, then
  PNG, as bot/doors/pictures.py does, off the loop); its size in pixels and bytes, and
  the memory the drawing took (the process's peak resident size grown);
- command: what a room waits for a command of the event, through the service on a
  temporary SQLite database holding the field and its rounds: a late registration by
  the organiser (the median of five), and ``/tournament list``. The whole line's time
  includes making that database.

Times are by the clock, one run each: a room waits for the wall time.

    python bench/tournament.py
    python bench/tournament.py --sizes 100 500 --limit 20
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import multiprocessing
import random
import resource
import sys
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from bot.core.model import File, Picture
from bot.core.tournament.model import Bye, Entry, Member, Settings, Table
from bot.core.tournament.pairing import swiss
from bot.core.tournament.standings import ranking, standings

SIZES = (100, 500, 1000, 2000)
PLACES = ("Ponce", "Mayagüez", "Caguas", "Arecibo", "Bayamón", "Humacao", "Carolina")
CLUBS = ("Los Invencibles del Club Náutico de", "Las Fieras de la Liga de Dominó de")


def field(count: int, played: int, seed: int = 7) -> tuple[list[Entry], list[Table], list[Bye]]:
    """``count`` entries and ``played`` rounds of results between them."""
    rng = random.Random(seed)
    entries = [
        Entry(
            i,
            f"{CLUBS[i % 2]} {PLACES[i % len(PLACES)]} {i}",
            (Member(f"A{i}"), Member(f"B{i}")),
        )
        for i in range(1, count + 1)
    ]
    tables: list[Table] = []
    byes: list[Bye] = []
    won = dict.fromkeys(range(1, count + 1), 0)
    met: set[frozenset[int]] = set()
    for number in range(1, played + 1):
        order = sorted(won, key=lambda e: (-won[e], rng.random()))
        if len(order) % 2:
            had = {b.entry for b in byes}
            bye = next(e for e in reversed(order) if e not in had)
            order.remove(bye)
            byes.append(Bye(number, bye))
            won[bye] += 1
        table = 0
        while order:
            top = order.pop(0)
            other = next((e for e in order if frozenset((top, e)) not in met), order[0])
            order.remove(other)
            met.add(frozenset((top, other)))
            winner = rng.randrange(2)
            score = (200, rng.randrange(200)) if winner == 0 else (rng.randrange(200), 200)
            table += 1
            tables.append(Table(number, table, ((top,), (other,)), "done", score, winner))
            won[(top, other)[winner]] += 1
    return entries, tables, byes


def pair_even(entries: list[Entry], tables: list[Table], byes: list[Bye]) -> str:
    ranked = ranking(standings(entries, tables, byes, []))
    met = {frozenset((t.sides[0][0], t.sides[1][0])) for t in tables}
    swiss(ranked, met, [b.entry for b in byes])
    return ""


def pair_odd(entries: list[Entry], tables: list[Table], byes: list[Bye]) -> str:
    ranked = ranking(standings(entries, tables, byes, []))[:-1]
    met = {frozenset((t.sides[0][0], t.sides[1][0])) for t in tables}
    swiss(ranked, met, [b.entry for b in byes])
    return ""


def stall(entries: list[Entry], tables: list[Table], byes: list[Bye]) -> str:
    async def paired() -> float:
        beats = [time.perf_counter()]
        worst = 0.0

        async def heartbeat() -> None:
            nonlocal worst
            while True:
                await asyncio.sleep(0.001)
                now = time.perf_counter()
                worst = max(worst, now - beats[-1])
                beats.append(now)

        beating = asyncio.create_task(heartbeat())
        await asyncio.sleep(0.01)
        await asyncio.to_thread(pair_even, entries, tables, byes)
        beating.cancel()
        return worst

    return f"longest {asyncio.run(paired()) * 1000:.0f} ms without a turn"


def told(entries: list[Entry], tables: list[Table], byes: list[Bye]) -> str:
    effects = standings_effects(entries, tables, byes)
    picture = next(e for e in effects if isinstance(e, Picture))
    files = [e for e in effects if isinstance(e, File)]
    kept = f", a file of {len(files[0].data) / 1024:.0f} KiB" if files else ""
    return f"{len(picture.rows)} rows drawn, {len(picture.text)} characters said{kept}"


def standings_effects(entries: list[Entry], tables: list[Table], byes: list[Bye]) -> list[Any]:
    from bot.core.tournament import rounds
    from bot.core.tournament.state import Event

    row = SimpleNamespace(id=1, name="Copa Náutico", round=max(t.round for t in tables))
    event = Event(row, Settings(), entries, tables, byes, [])
    session = SimpleNamespace(lang="es", room=SimpleNamespace(settings=SimpleNamespace(theme="")))
    return rounds.standings_effects(session, event)  # type: ignore[arg-type]


def count_standings(entries: list[Entry], tables: list[Table], byes: list[Bye]) -> str:
    standings(entries, tables, byes, [])
    return ""


def shorten(entries: list[Entry], tables: list[Table], byes: list[Bye]) -> str:
    from render.fonts import font
    from render.names import short_names

    short_names([e.name for e in entries], 360, font(20))
    return ""


def picture(entries: list[Entry], tables: list[Table], byes: list[Bye]) -> str:
    from render.sheets import draw_figures

    sent = next(e for e in standings_effects(entries, tables, byes) if isinstance(e, Picture))
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    image = draw_figures(sent.title, sent.header, sent.rows, sent.theme, sent.lang)
    out = io.BytesIO()
    image.save(out, format="PNG")
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - grown
    width, height = image.size
    return f"{width}×{height} px, {len(out.getvalue()) / 1024:.0f} KiB, +{grown / 1024:.0f} MiB"


def register(entries: list[Entry], tables: list[Table], byes: list[Bye]) -> str:
    """A command's cost as a room waits for it: ``/tournament register`` of one more
    entry (late, by the organiser) through the service, on a temporary SQLite database
    holding the field and its rounds (the median of five); then ``/tournament list``."""
    import tempfile

    from bot.core.model import Command, Person, Place
    from bot.core.service import GameService
    from bot.core.tournament.state import members_json
    from storage.database import utcnow
    from storage.store import Store

    hall = Place("console", "club", "hall", "Club", "es")
    organiser = Person("org", "Org", "es", True)

    async def run() -> str:
        folder = tempfile.mkdtemp(prefix="bench-tournament-")
        store = await Store.open(f"sqlite:///{folder}/bench.sqlite3")
        service = GameService(store)
        await service.handle(Command(hall, organiser, "tournament", ("new", "Copa", "rounds=12")))
        row = await store.tournaments.active_in_community(1)
        assert row is not None
        now = utcnow()
        ids = {}
        for entry in entries:
            made = await store.tournaments.add_entry(
                row.id, entry.name, members_json(entry.members), now
            )
            ids[entry.id] = made.id
        for number in sorted({t.round for t in tables}):
            rows = [
                {"number": t.number, "sides": [[ids[t.sides[0][0]]], [ids[t.sides[1][0]]]],
                 "status": "done", "score_a": t.score[0], "score_b": t.score[1],
                 "winner": t.winner, "ended_by": "target"}
                for t in tables if t.round == number
            ]  # fmt: skip
            await store.tournaments.put_tables(row.id, number, rows)
            await store.tournaments.add_byes(
                row.id, number, [ids[b.entry] for b in byes if b.round == number]
            )
        played = max((t.round for t in tables), default=0)
        await store.tournaments.save(row, status="running", round=played + 1)
        took = []
        for n in range(5):
            started = time.perf_counter()
            words = ("register", f"Tarde {n}", "computer", "computer")
            await service.handle(Command(hall, organiser, "tournament", words))
            took.append(time.perf_counter() - started)
        started = time.perf_counter()
        await service.handle(Command(hall, organiser, "tournament", ("list",)))
        listed = time.perf_counter() - started
        await store.close()
        return f"register {sorted(took)[2] * 1000:.0f} ms, list {listed * 1000:.0f} ms"

    return asyncio.run(run())


MEASURES: tuple[tuple[str, Callable[..., str]], ...] = (
    ("pair even", pair_even),
    ("pair odd", pair_odd),
    ("loop stall", stall),
    ("standings", count_standings),
    ("told", told),
    ("names", shorten),
    ("picture", picture),
    ("command", register),
)


def _child(measure: Callable[..., str], made: tuple[Any, ...], out: Any) -> None:
    gc.collect()  # the field just made: its collection is no part of what is measured
    started = time.perf_counter()
    note = measure(*made)
    out.send((time.perf_counter() - started, note))


def timed(measure: Callable[..., str], made: tuple[Any, ...], limit: float) -> str:
    """``measure(*made)`` in a process of its own, stopped after ``limit`` seconds."""
    context = multiprocessing.get_context("fork")
    here, there = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(measure, made, there))
    process.start()
    if not here.poll(limit):
        process.kill()
        process.join()
        return f"> {limit:g} s"
    seconds, note = here.recv()
    process.join()
    return f"{seconds:.3f} s" + (f" ({note})" if note else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--played", type=int, default=4, help="rounds played before")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds a measure may take")
    args = parser.parse_args(argv)
    print(f"tournament: {args.played} Swiss rounds played, then (wall clock, one run each)")
    for count in args.sizes:
        made = field(count, args.played)
        for label, measure in MEASURES:
            print(f"{count:>6} entries  {label:<11} {timed(measure, made, args.limit)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
