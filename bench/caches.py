"""A process's memory under many distinct people and rooms (issue 32, 8): 50,000 people,
each once, ask for the rules and their record in 5,000 rooms, through the service and the
delivery core (a platform that only counts), on a temporary SQLite database. Printed
every 10,000 people (or a fifth of them): the process's resident memory and what each
per-process memory holds. Bounded (bot/core/bounded.py), they stop at their figure; the
memory levels off.

    python bench/caches.py
    python bench/caches.py --people 20000 --rooms 2000
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from bot.core.model import Command, Person, Place
from bot.core.posts import Posts
from bot.core.service import GameService
from bot.doors.delivery import Delivery
from storage.store import Store
from tests.doors.test_delivery import Fake


def resident_mib() -> float:
    """The process's resident memory now (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096 / 2**20


def sizes(service: GameService, posts: Posts, delivery: Delivery[str]) -> str:
    desk = service.desk
    held = {
        "users": len(desk.users),
        "rooms": len(desk.rooms),
        "communities": len(desk.communities),
        "room ids": len(posts._rooms),
        "locks": len(service._locks),
        "reading": len(getattr(desk, "reading", ())),  # (none before issue 32)
        "told": len(delivery.told._told),
    }
    return ", ".join(f"{k} {v}" for k, v in held.items())


async def run(people: int, rooms: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-caches-"))
    store = await Store.open(f"sqlite:///{folder / 'bench.sqlite3'}")
    service = GameService(store)
    posts = Posts(store)
    platform = Fake()
    platform.log = deque(maxlen=100)  # type: ignore[assignment]  # a platform that only counts
    delivery: Delivery[str] = Delivery(platform, posts)
    started = time.monotonic()
    step = min(10_000, max(1, people // 5))  # a line every this many people
    print(f"caches: {people:,} people in {rooms:,} rooms, each asking /rules and /stats once")
    print(f"{0:>8,} people  {resident_mib():7.1f} MiB  {sizes(service, posts, delivery)}")
    for n in range(1, people + 1):
        room = n % rooms
        place = Place("telegram", f"-100{room // 4}", f"-100{room}", f"Grupo {room}", "es")
        person = Person(str(10_000_000 + n), f"Persona {n}", "es", handle=f"persona{n}")
        for action in ("rules", "stats"):
            effects = await service.handle(Command(place, person, action))
            await delivery.deliver(place, effects)
        if n % 500 == 0:
            await delivery.idle()
        if n % step == 0:
            await delivery.idle()
            gc.collect()
            print(
                f"{n:>8,} people  {resident_mib():7.1f} MiB  {sizes(service, posts, delivery)}"
                f"  ({time.monotonic() - started:.0f} s)",
                flush=True,
            )
    await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=50_000)
    parser.add_argument("--rooms", type=int, default=5_000)
    args = parser.parse_args(argv)
    asyncio.run(run(args.people, args.rooms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
