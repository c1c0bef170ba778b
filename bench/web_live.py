"""The live stream under load (issue 34, Speed): one process serves a game played through
the service, 1,000 pages hold its stream open (from another process, as browsers would),
and each move must reach every one of them within 2 s; and a move costs the players the
same with the 1,000 watching as with none. SQLite in a temporary file.

    .venv/bin/python bench/web_live.py [viewers]
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import time

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

MOVES = 15


async def viewers(url: str, count: int) -> None:
    """The other process: ``count`` streams of ``url``; on "wait V" (standard input), the
    time the last of them heard version V or later."""
    from aiohttp import ClientSession, ClientTimeout, TCPConnector

    heard = [0] * count
    last = [0.0] * count
    ready = asyncio.Event()
    opened = 0

    async def one(i: int, http: ClientSession) -> None:
        nonlocal opened
        async with http.get(url) as response:
            assert response.status == 200, response.status
            async for line in response.content:
                if line.startswith(b"data: "):
                    if not heard[i]:  # its first event: this one is open
                        opened += 1
                        if opened == count:
                            ready.set()
                    heard[i] = json.loads(line[6:])["version"]
                    last[i] = time.time()

    async with ClientSession(
        connector=TCPConnector(limit=0), timeout=ClientTimeout(total=None)
    ) as http:
        tasks = [asyncio.create_task(one(i, http)) for i in range(count)]
        await ready.wait()
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while line := await reader.readline():
            version = int(line.split()[1])
            while min(heard) < version:
                await asyncio.sleep(0.005)
            print(max(last), flush=True)
        for task in tasks:
            task.cancel()


async def main(count: int) -> None:
    from bot.doors.web import WebDoor
    from storage.store import Store
    from tests.core.driver import Room
    from tests.core.test_pages import open_game, step
    from tests.doors.web.test_app import free_port

    folder = tempfile.mkdtemp()
    store = await Store.open(f"sqlite:///{folder}/bench.sqlite3")
    room = await Room.open(store)
    await open_game(room, "draw 500")
    door = WebDoor(room.service.pages, "127.0.0.1", free_port(), max_viewers=count + 10)
    assert await door.start()
    key = await room.service.pages.key("game", 1)
    rng = random.Random(5)

    async def move() -> float:
        began = time.perf_counter()
        while not await step(room, rng):
            room.clock.advance(30)
            room.log += await room.tick()
        return time.perf_counter() - began

    alone = [await move() for _ in range(MOVES)]
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--viewers",
        f"http://127.0.0.1:{door.port}/g/{key}/events",
        str(count),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    began = time.perf_counter()
    assert (await child.stdout.readline()).strip() == b"ready"
    opened = time.perf_counter() - began
    watched, reach = [], []
    for _ in range(MOVES):
        before = room.service.pages.live.version("game", key or "")
        assert before is not None
        sent = time.time()
        watched.append(await move())
        child.stdin.write(f"wait {before + 1}\n".encode())
        await child.stdin.drain()
        reach.append(float(await child.stdout.readline()) - sent)
    print(f"{count} streams open on one process in {opened:.2f} s ({door.viewers()} counted)")
    print(
        f"a move reaching all of them: median {statistics.median(reach) * 1000:.0f} ms,"
        f" slowest {max(reach) * 1000:.0f} ms (promised: 2,000 ms)"
    )
    print(
        f"a move's cost to the players: median {statistics.median(alone) * 1000:.1f} ms"
        f" with no viewer, {statistics.median(watched) * 1000:.1f} ms with {count}"
    )
    child.stdin.close()
    child.kill()
    await child.wait()
    await door.stop()
    await store.close()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--viewers"]:
        asyncio.run(viewers(sys.argv[2], int(sys.argv[3])))
    else:
        asyncio.run(main(int(sys.argv[1]) if sys.argv[1:] else 1000))
