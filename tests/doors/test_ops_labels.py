"""/metrics' label values are bounded (issue 34): whatever people type, a command is
counted under the registry's name or "unknown", with one of the known outcomes, once
per command handled: typing never makes a new time series."""

from __future__ import annotations

import string
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.registry import COMMANDS
from bot.core.service import GameService
from bot.doors.ops import OUTCOMES, Metrics
from storage.store import Store
from tests.core.driver import Clock, Room, seeded

NAMES = sorted(COMMANDS)
WORDS = ["6-6", "6-4", "on", "en", "left", "draw", "2", "100", "x=y", "@ana", "hard", "all"]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    yield opened
    await opened.close()


def counted(metrics: Metrics) -> dict[tuple[str, str, str], float]:
    found = {}
    for family in metrics.registry.collect():
        for sample in family.samples:
            if sample.name == "domino_commands_total":
                labels = sample.labels
                found[labels["platform"], labels["command"], labels["outcome"]] = sample.value
    return found


typed_action = st.one_of(
    st.sampled_from(NAMES),
    st.sampled_from(NAMES).map(str.upper),
    st.text(string.ascii_letters + string.digits + "_-", min_size=1, max_size=20),
    st.text(min_size=1, max_size=30).filter(lambda t: t.split() == [t]),
)
typed_args = st.lists(
    st.one_of(st.sampled_from(WORDS), st.text(min_size=1, max_size=12)), max_size=3
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(typed=st.lists(st.tuples(typed_action, typed_args), min_size=1, max_size=8))
async def test_typed_commands_never_make_a_new_label(
    store: Store, typed: list[tuple[str, list[str]]]
) -> None:
    metrics = Metrics()
    service = GameService(store, clock=Clock(), seeds=seeded(), observe=metrics.observe)
    room = Room(service, Clock())
    for number, (action, args) in enumerate(typed, 1):
        name = ("Ana", "Beto")[number % 2]
        await room.say(name, " ".join(["/" + action, *args]))
        found = counted(metrics)
        assert sum(found.values()) == number  # each command counted, once
        for platform, command, outcome in found:
            assert platform == "console"
            assert command in COMMANDS or command == "unknown", command
            assert outcome in OUTCOMES, outcome
    # and what was typed as an action never shows unless it is a registry name
    shown = {command for _platform, command, _outcome in counted(metrics)}
    assert shown <= {*COMMANDS, "unknown"}


async def test_a_stale_press_is_counted_stale(store: Store) -> None:
    """A move pressed on an earlier moment of the game is counted "stale", not "ok"."""
    metrics = Metrics()
    service = GameService(store, clock=Clock(), seeds=seeded(), observe=metrics.observe)
    room = Room(service, Clock())
    await room.say("Ana", "/new draw")
    await room.say("Ana", "/add_ai")
    await room.say("Ana", "/begin")
    await room.say("Ana", "/play 6-6", move_number=999, game_id=await game_id(store, room))
    found = counted(metrics)
    assert found.get(("console", "play", "stale")) == 1, found
    assert found.get(("console", "begin", "ok")) == 1, found


async def game_id(store: Store, room: Room) -> int:
    row = await store.games.active_in(await room.room_id())
    assert row is not None
    return row.id
