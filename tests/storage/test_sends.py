"""Sends: a chat's window counted in the database, the same for every process."""

from __future__ import annotations

import asyncio

from sqlalchemy import Connection, update

from storage.schema import sends
from storage.store import Store


async def wait(
    store: Store, chat: str, limit: int, at: float, alone: tuple[float, ...] = ()
) -> float:
    return (await store.sends.take(chat, limit, 60.0, at, alone))[0]


async def test_a_full_window_says_how_long_to_wait(store: Store) -> None:
    for at in (100.0, 110.0, 120.0):
        assert await wait(store, "-5", 3, at) == 0.0
    assert await wait(store, "-5", 3, 130.0) == 30.0  # until 100 has left
    assert await wait(store, "-6", 3, 130.0) == 0.0  # another chat, its own
    assert await wait(store, "-5", 3, 160.0) == 0.0  # 100 is out: counted
    assert await store.sends.take("-5", 3, 60.0, 161.0) == (9.0, (110.0, 120.0, 160.0))


async def test_sends_made_alone_are_counted_once_told(store: Store) -> None:
    assert await wait(store, "-9", 3, 100.0) == 0.0
    # a process sent two while the database was away (and one long before): told, the
    # two count, and the window is full until 100 has left it
    told = await store.sends.take("-9", 3, 60.0, 102.0, [30.0, 101.0, 101.5])
    assert told == (58.0, (100.0, 101.0, 101.5))
    # kept: 101 and 101.5 still count a minute later
    assert await store.sends.take("-9", 3, 60.0, 160.5) == (0.0, (101.0, 101.5, 160.5))
    assert await store.sends.take("-9", 3, 60.0, 160.75) == (0.25, (101.0, 101.5, 160.5))


async def test_processes_share_the_count(database: str) -> None:
    first, second = await Store.open(database), await Store.open(database)
    try:
        waits = await asyncio.gather(
            *(wait(s, "-7", 5, 1000.0 + i / 10) for i, s in enumerate([first, second] * 6))
        )
        assert sorted(w == 0.0 for w in waits).count(True) == 5
    finally:
        await first.close()
        await second.close()


async def test_a_damaged_window_is_read_as_what_it_can(store: Store) -> None:
    await wait(store, "-8", 2, 100.0)

    def damage(db: Connection) -> None:
        db.execute(update(sends).values(stamps=["x", None, 101.0]))

    await store.database.run(damage)
    assert await wait(store, "-8", 2, 102.0) == 0.0  # only 101 was readable
    assert await wait(store, "-8", 2, 103.0) == 58.0
