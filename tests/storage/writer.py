"""A process that appends moves to one game as fast as it can, for the durability and
concurrency tests: ``python -m tests.storage.writer URL GAME NAME COUNT``.

Each save carries the whole move list in its snapshot and one new move for the log; a
save that loses a race reloads and tries again. After each save it prints
``saved <version> <move>`` (and flushes): a line printed is a save reported done.
"""

from __future__ import annotations

import asyncio
import sys

from storage.database import utcnow
from storage.errors import Conflict
from storage.store import Store


async def write(url: str, game_id: int, name: str, count: int) -> None:
    store = await Store.open(url, migrate=False)
    try:
        for k in range(count):
            move = f"{name}-{k}"
            while True:
                game = await store.games.load(game_id)
                hands = game.snapshot.get("hands") or [{"moves": []}]
                snapshot = dict(game.snapshot, hands=[{"moves": [*hands[0]["moves"], move]}])
                try:
                    version = await store.games.save(
                        game_id, game.version, snapshot, [(0, move)], utcnow()
                    )
                except Conflict:
                    continue
                print(f"saved {version} {move}", flush=True)
                break
    finally:
        await store.close()


if __name__ == "__main__":
    url, game, name, count = sys.argv[1:5]
    asyncio.run(write(url, int(game), name, int(count)))
