"""Per-process memory stays bounded (issue 32, 8): what a process remembers of people,
rooms and messages holds its most recently used up to a stated figure, and forgetting
costs only a read again; a room's lock lives while a command holds or waits for it."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core import session as sessions
from bot.core.bounded import Bounded
from bot.core.model import Command, Person, Place
from bot.core.service import GameService, RoomLocks
from storage.store import Store
from tests.core.driver import Clock


@given(st.integers(1, 8), st.lists(st.tuples(st.integers(0, 20), st.booleans()), max_size=80))
def test_a_bounded_mapping_keeps_the_most_recently_used(size: int, uses: list) -> None:
    """Against a model: every put or get makes a key the most recent; past ``size`` the
    least recent goes."""
    bounded: Bounded[int, int] = Bounded(size)
    model: list[int] = []  # keys, least recent first
    for key, putting in uses:
        if putting:
            bounded.put(key, key * 10)
            model = [k for k in model if k != key] + [key]
            model = model[-size:]
        elif key in model:
            assert bounded.get(key) == key * 10
            model = [k for k in model if k != key] + [key]
        else:
            assert bounded.get(key) is None
        assert list(bounded) == model and len(bounded) <= size


def test_a_bounded_mapping_holds_one_key_at_least() -> None:
    with pytest.raises(ValueError):
        Bounded(0)


async def test_the_service_remembers_at_most_its_figure_of_people_and_rooms(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sessions, "USERS_KEPT", 5)
    monkeypatch.setattr(sessions, "ROOMS_KEPT", 4)
    service = GameService(store, clock=Clock())
    for n in range(30):
        place = Place("telegram", "-1001", f"-100{n % 10}", "Grupo", "es")
        person = Person(str(n), f"Persona {n}", "es")
        await service.handle(Command(place, person, "rules"))
    assert len(service.desk.users) == 5 and len(service.desk.rooms) == 4
    # one forgotten comes back from storage, the same person
    again = await service.handle(
        Command(Place("telegram", "-1001", "-1000"), Person("0", "Persona 0", "es"), "stats")
    )
    assert again and len(service.desk.users) == 5
    assert len(service._locks) == 0  # no command running: no lock kept


async def test_a_rooms_lock_lives_while_held_or_awaited() -> None:
    locks = RoomLocks()
    order: list[str] = []

    async def command(name: str) -> None:
        async with locks.hold(7):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(command("a"), command("b"), command("c"))
    assert order == ["a in", "a out", "b in", "b out", "c in", "c out"]  # one at a time
    assert len(locks) == 0
