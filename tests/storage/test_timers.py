"""Timers: set, replaced, cancelled, found when due, and fired exactly once however
many processes reach for them; a claim left by a dead process is taken over."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from storage.store import Store
from storage.timers import CLAIM_TIMEOUT
from tests.storage.conftest import NOW


async def test_set_replace_cancel_and_due(store: Store, room: int) -> None:
    timers = store.timers
    await timers.set(room, "turn", NOW + timedelta(seconds=60), payload={"seat": 1})
    second = await timers.set(room, "turn", NOW + timedelta(seconds=90), payload={"seat": 2})
    await timers.set(room, "lobby", NOW + timedelta(minutes=10))
    pending = await timers.pending(room)
    assert [t.kind for t in pending] == ["turn", "lobby"]
    assert pending[0].id == second and pending[0].payload == {"seat": 2}
    assert await timers.due(NOW) == []
    assert [t.id for t in await timers.due(NOW + timedelta(seconds=90))] == [second]
    assert await timers.next_due() == NOW + timedelta(seconds=90)
    assert await timers.cancel(room, "turn") == 1
    assert [t.kind for t in await timers.pending(room)] == ["lobby"]
    assert await timers.cancel(room) == 1
    assert await timers.next_due() is None


async def test_a_timer_fires_once_among_processes(database: str, room: int) -> None:
    stores = [await Store.open(database) for _ in range(3)]
    try:
        ids = [
            await stores[0].timers.set(room, f"k{i}", NOW + timedelta(seconds=i)) for i in range(10)
        ]
        later = NOW + timedelta(minutes=1)

        async def worker(store: Store, name: str) -> list[int]:
            won = []
            for timer in await store.timers.due(later):
                if await store.timers.claim(timer, name, later):
                    assert await store.timers.fired(timer.id, name, later)
                    won.append(timer.id)
            return won

        results = await asyncio.gather(*(worker(s, f"p{i}") for i, s in enumerate(stores)))
        fired = sorted(t for won in results for t in won)
        assert fired == sorted(ids)  # each exactly once
        assert await stores[0].timers.due(later) == []
    finally:
        for store in stores:
            await store.close()


async def test_a_dead_holders_claim_is_taken_over(store: Store, room: int) -> None:
    timer = await store.timers.set(room, "turn", NOW)
    [read] = await store.timers.pending(room)
    assert await store.timers.claim(read, "dead", NOW)
    assert not await store.timers.claim(read, "alive", NOW + timedelta(seconds=5))
    assert await store.timers.due(NOW + timedelta(seconds=5)) == []
    later = NOW + CLAIM_TIMEOUT + timedelta(seconds=1)
    assert [t.id for t in await store.timers.due(later)] == [timer]
    assert await store.timers.claim(read, "alive", later)
    assert not await store.timers.fired(timer, "dead", later)  # too late for the old holder
    assert await store.timers.fired(timer, "alive", later)


async def test_fired_timers_are_purged_after_a_while(store: Store, room: int) -> None:
    done = await store.timers.set(room, "turn", NOW)
    [read] = await store.timers.pending(room)
    waiting = await store.timers.set(room, "lobby", NOW)
    assert await store.timers.claim(read, "me", NOW)
    assert await store.timers.fired(done, "me", NOW)
    assert await store.timers.purge(NOW) == 0  # fired at NOW: not before it
    assert await store.timers.purge(NOW + timedelta(days=1)) == 1
    assert [t.id for t in await store.timers.pending(room)] == [waiting]  # never a pending one
    assert not await store.timers.claim(read, "late", NOW + timedelta(days=1))


async def test_a_timer_read_as_due_then_replaced_is_not_claimed_for_it(
    store: Store, room: int, other_room: int
) -> None:
    """A process reads a room's timer as due; before it claims it, the timer is cancelled
    and another set (SQLite gives the new row the freed id). The claim of what was read
    fails, and the new timer, not yet due, is left to fire when it is."""
    timers = store.timers
    await timers.set(room, "turn", NOW)
    [read] = await timers.due(NOW)
    await timers.cancel(room, "turn")
    later = NOW + timedelta(seconds=90)
    new = await timers.set(other_room, "turn", later, payload={"seat": 0})
    assert not await timers.claim(read, "me", NOW)
    [pending] = await timers.pending(other_room)
    assert pending.id == new and pending.due_at == later
    assert [t.id for t in await timers.due(later)] == [new]
    [due] = await timers.due(later)
    assert await timers.claim(due, "me", later)
