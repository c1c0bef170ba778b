"""The game service under load: many concurrent games in one process, people playing at a
steady rate, computer players in the other seats, SQLite durable (WAL, synchronous=FULL).

Prints human commands per second, p50, p99 and the longest latency of a command
(drawing pictures is not included: it is measured by bench/render.py), the process's
peak memory, its CPU time a command, and the CPU the hypervisor took from the machine
during the run (on a shared virtual machine that explains a bad tail). Goals
of the service issue: p99 under 25 ms, at least 500 human commands/s, under 300 MB for
1,000 games. ``--games`` and ``--rate`` (commands/s offered) change the load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from bot.core.model import Command, Hand, Person, Place
from bot.core.service import GameService
from bot.heap import settle_heap
from storage.store import Store


async def open_games(service: GameService, games: int) -> dict[int, Hand | None]:
    """Each game: a draw table of one person and one computer player."""
    waiting: dict[int, Hand | None] = {}
    for g in range(games):
        place = Place("console", "bench", f"room-{g}", locale="en")
        person = Person(f"p{g}", f"Player {g}")
        for action, args in (("new", ("draw", "100")), ("add_ai", ("normal",)), ("begin", ())):
            effects = await service.handle(Command(place, person, action, args))
        waiting[g] = _hand(effects)
    return waiting


def _hand(effects: list) -> Hand | None:
    hands = [e for e in effects if isinstance(e, Hand) and e.buttons]
    return hands[-1] if hands else None


async def run(games: int, rate: float, seconds: float) -> None:
    with tempfile.TemporaryDirectory() as home:
        store = await Store.open(f"sqlite:///{Path(home) / 'bench.sqlite3'}")
        deals = random.Random(1)
        service = GameService(store, seeds=lambda: deals.randrange(1 << 62))
        settle_heap()  # as the bot does once started
        started = time.perf_counter()
        waiting = await open_games(service, games)
        print(f"opened {games} games in {time.perf_counter() - started:.1f} s", flush=True)
        latencies: list[float] = []
        done = 0
        order = list(waiting)
        rng = random.Random(2)
        begin = time.perf_counter()
        cpu_before, stolen_before = time.process_time(), _stolen()
        tasks: set[asyncio.Task] = set()

        async def command(g: int) -> None:
            nonlocal done
            hand = waiting.get(g)
            place = Place("console", "bench", f"room-{g}", locale="en")
            person = Person(f"p{g}", f"Player {g}")
            if hand is None:
                cmd = Command(place, person, "next", ())
            else:
                button = hand.buttons[0]
                words = button.command.split()
                cmd = Command(
                    place,
                    person,
                    words[0],
                    tuple(words[1:]),
                    move_number=button.move_number,
                    game_id=button.game_id,
                )
            t0 = time.perf_counter()
            effects = await service.handle(cmd)
            latencies.append(time.perf_counter() - t0)
            done += 1
            waiting[g] = _hand(effects)

        busy: set[int] = set()
        next_at = begin
        while time.perf_counter() - begin < seconds:
            now = time.perf_counter()
            if now < next_at:
                await asyncio.sleep(next_at - now)
            next_at += 1 / rate
            free = [g for g in order if g not in busy]
            if not free:
                continue
            g = rng.choice(free)
            busy.add(g)
            task = asyncio.create_task(command(g))
            tasks.add(task)
            task.add_done_callback(lambda t, g=g: (tasks.discard(t), busy.discard(g)))
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - begin
        cpu = time.process_time() - cpu_before
        stolen_after = _stolen()
        stolen = (
            stolen_after - stolen_before
            if stolen_after is not None and stolen_before is not None
            else None
        )
        latencies.sort()
        p50 = statistics.median(latencies)
        p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"{games} games, offered {rate:.0f}/s: {done / elapsed:.0f} human commands/s,"
            f" p50 {1000 * p50:.1f} ms, p99 {1000 * p99:.1f} ms, max {1000 * latencies[-1]:.0f} ms,"
            f" peak memory {peak:.0f} MB; CPU {1000 * cpu / max(done, 1):.2f} ms a command"
            + (f", CPU taken by the hypervisor {stolen:.1f} s" if stolen is not None else ""),
            flush=True,
        )
        await store.close()


def _stolen() -> float | None:
    """Seconds of CPU the hypervisor gave to others (Linux "steal"), all CPUs together:
    on a shared virtual machine it explains a bad tail better than the code does."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=500.0, help="commands offered a second")
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args(argv)
    asyncio.run(run(args.games, args.rate, args.seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
