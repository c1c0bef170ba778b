"""Turns without a timer (issue 33, 3): a service whose rooms wait for their people
(``patient``: the console's) gives a turn no timer and a game no idle end unless the room
asks for a timer (``/settings turn_timeout 60``); any room may turn its timer off
(``/settings turn_timeout off``); elsewhere turns keep the preset's time."""

from __future__ import annotations

from bot.core import texts
from bot.core.model import Board, TurnCall
from bot.core.service import GameService
from lang import tr
from storage.store import Store
from tests.core.driver import Clock, Room, seeded


async def patient_room(store: Store) -> Room:
    clock = Clock()
    return Room(GameService(store, clock=clock, seeds=seeded(), patient=True), clock)


async def kinds(store: Store) -> set[str]:
    return {t.kind for t in await store.timers.pending(1)}


async def a_game(room: Room) -> None:
    await room.say("Ana", "/new draw 300")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")


def calls(room: Room) -> list[str]:
    return [e.text for e in room.log if isinstance(e, TurnCall)]


async def test_a_patient_room_waits_for_its_people(store: Store) -> None:
    room = await patient_room(store)
    said = await room.say("Ana", "/rules draw")
    assert tr("en", texts.NO_TURN_TIMER) in said[0].text  # not the preset's 90 s
    await a_game(room)
    assert not {"turn", "warning", "idle"} & await kinds(store), await kinds(store)
    assert calls(room)[-1].endswith(tr("en", texts.YOUR_TURN_UNTIMED, name="").strip())
    before = len(room.log)
    for _ in range(3):  # two days go by: the turn waits, the game stays
        room.clock.advance(24 * 3600)
        await room.tick()
    assert len(room.log) == before
    row = await room.service.store.games.active_in(1)
    assert row is not None and row.status == "playing"
    assert [e for e in room.log if isinstance(e, Board)][-1].table.turn_seconds is None


async def test_a_patient_room_asks_for_a_timer(store: Store) -> None:
    room = await patient_room(store)
    said = await room.say("Ana", "/settings turn_timeout 60", admin=True)
    assert tr("en", texts.SETTINGS_CHANGED["turn_timeout"], value=60) in said[0].text
    assert "(turn_timeout=60)" in (await room.say("Ana", "/rules draw"))[0].text
    await a_game(room)
    assert {"turn", "warning"} <= await kinds(store)
    assert calls(room)[-1].endswith("(60 s).")


async def test_any_room_turns_its_timer_off_and_says_so(store: Store) -> None:
    room = await Room.open(store)  # a platform's room: timed by default
    said = await room.say("Ana", "/settings turn_timeout off", admin=True)
    assert tr("en", texts.SETTINGS_CHANGED["turn_timeout:off"]) in said[0].text
    shown = await room.say("Ana", "/settings")
    assert "turn_timeout=off" in shown[0].text
    await a_game(room)
    assert not {"turn", "warning"} & await kinds(store)
    assert "idle" in await kinds(store)  # a platform's game left alone still ends


async def test_a_platforms_room_keeps_its_timer(store: Store) -> None:
    room = await Room.open(store)
    await a_game(room)
    assert {"turn", "warning", "idle"} <= await kinds(store)
    assert calls(room)[-1].endswith("(90 s).")


async def test_a_wrong_timeout_says_off_is_one(store: Store) -> None:
    room = await Room.open(store)
    said = await room.say("Ana", "/settings turn_timeout soon", admin=True)
    assert said[0].text == tr("en", texts.BAD_TIMEOUT)
    assert "off" in said[0].text


async def test_a_patient_room_keeps_a_game_clock_and_a_house_rules_timer(store: Store) -> None:
    room = await patient_room(store)
    await room.say("Ana", "/new tournament_pr")
    await room.say("Ana", "/begin fill")
    assert "clock" in await kinds(store)  # the preset's 40 minutes run
    assert not {"turn", "warning"} & await kinds(store)
    await room.say("Ana", "/cancel")
    await room.say("Ana", "/new draw turn_timeout=45")  # the game's own house rule
    await room.say("Ana", "/begin fill")
    assert {"turn", "warning"} <= await kinds(store)
    assert calls(room)[-1].endswith("(45 s).")


async def test_the_lobbys_menu_says_turns_have_no_timer(store: Store) -> None:
    """/rule turn_timeout in a room without a turn timer said "Now: 90" (marked ✓)."""
    room = await patient_room(store)
    await room.say("Ana", "/new draw 300")
    shown = await room.say("Ana", "/rule turn_timeout")
    assert "Now: no timer." in shown[0].text, shown[0].text
    assert not any(b.label.startswith("✓") for b in shown[0].buttons), shown[0].buttons
    await room.say("Ana", "/rule turn_timeout 60")  # a house rule: the game's own time
    shown = await room.say("Ana", "/rule turn_timeout")
    assert "Now: 60" in shown[0].text, shown[0].text
