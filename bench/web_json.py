"""What a web page's JSON costs (issue 34): a partnership game to 300 played through the
service by two people and two computers, moves chosen at random; then its page's JSON
(its size; the first answer, which replays every finished hand; the next ones, with the
replays kept) and the community's page (twelve leaderboards, the pairs, recent games).
SQLite in a temporary file. The HTML pages' bench (many viewers, SSE) comes with them."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from bot.core.pages.web import WebPages
from storage.store import Store
from tests.core.driver import Room
from tests.core.test_pages import open_game, step


async def main() -> None:
    folder = tempfile.mkdtemp()
    store = await Store.open(f"sqlite:///{folder}/bench.sqlite3")
    try:
        room = await Room.open(store)
        await open_game(room, "partnership 300")
        rng = random.Random(5)
        for _ in range(5000):
            if not await step(room, rng):
                if (await store.games.load(1)).status == "finished":
                    break
                room.clock.advance(30)  # the pause between hands
                room.log += await room.tick()
        service = room.service
        key = await service.pages.key("game", 1)
        assert key is not None
        started = time.perf_counter()
        page = await WebPages(store, room.clock).game(key)
        first = time.perf_counter() - started
        assert page is not None
        started = time.perf_counter()
        for _ in range(20):
            await service.pages.game(key)
        warm = (time.perf_counter() - started) / 20
        size = len(json.dumps(page, separators=(",", ":")))
        community = await service.pages.key_of(room.place)
        assert community is not None
        started = time.perf_counter()
        for _ in range(5):
            await service.pages.community(community)
        board = (time.perf_counter() - started) / 5
        print(
            f"game of {len(page['hands'])} hands, {page['moves']} moves: JSON {size / 1024:.0f} KB;"
            f" first answer {first * 1000:.0f} ms, then {warm * 1000:.1f} ms;"
            f" community page {board * 1000:.1f} ms"
        )
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
