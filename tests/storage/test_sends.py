"""Sends: a chat's window counted in the database, the same for every process."""

from __future__ import annotations

import asyncio

from sqlalchemy import Connection, update

from storage.schema import sends
from storage.store import Store


async def test_a_full_window_says_how_long_to_wait(store: Store) -> None:
    for at in (100.0, 110.0, 120.0):
        assert await store.sends.take("-5", 3, 60.0, at) == 0.0
    assert await store.sends.take("-5", 3, 60.0, 130.0) == 30.0  # until 100 has left
    assert await store.sends.take("-6", 3, 60.0, 130.0) == 0.0  # another chat, its own
    assert await store.sends.take("-5", 3, 60.0, 160.0) == 0.0  # 100 is out: counted
    assert await store.sends.take("-5", 3, 60.0, 161.0) == 9.0  # 110, 120, 160 are in


async def test_processes_share_the_count(database: str) -> None:
    first, second = await Store.open(database), await Store.open(database)
    try:
        waits = await asyncio.gather(
            *(
                s.sends.take("-7", 5, 60.0, 1000.0 + i / 10)
                for i, s in enumerate([first, second] * 6)
            )
        )
        assert sorted(w == 0.0 for w in waits).count(True) == 5
    finally:
        await first.close()
        await second.close()


async def test_a_damaged_window_is_read_as_what_it_can(store: Store) -> None:
    await store.sends.take("-8", 2, 60.0, 100.0)

    def damage(db: Connection) -> None:
        db.execute(update(sends).values(stamps=["x", None, 101.0]))

    await store.database.run(damage)
    assert await store.sends.take("-8", 2, 60.0, 102.0) == 0.0  # only 101 was readable
    assert await store.sends.take("-8", 2, 60.0, 103.0) == 58.0
