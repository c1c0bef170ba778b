"""The pause between hands (issue 33, item 10): the hand's end stays on the table for the
room's ``hand_pause`` (20 s unless an admin changes it) and the next hand is dealt when
it ends or when every person seated has pressed Next (computers are always ready),
whichever comes first. A press is acknowledged in the room's language and remembered,
even one made early or twice; a press when no hand has ended, or by someone not seated,
is refused in words and changes nothing. The pause is a stored timer and the presses are
stored with the game: two services on one database agree."""

from __future__ import annotations

import asyncio
import atexit
import functools
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.describe import describe_table
from bot.core.model import Board, Effect, Hand, Popup, Say
from bot.core.progress import NEXT_HAND_SECONDS, NEXT_PAUSE_SECONDS
from bot.core.service import GameService
from lang import tr
from storage.notes import GameNotes
from storage.store import Store
from tests.core.driver import Clock, Room, boards, hands_for, seeded


def said(effects: list[Effect]) -> str:
    return "\n".join(e.text for e in effects if isinstance(e, Say))


def dealt(effects: list[Effect], number: int) -> bool:
    """Whether ``effects`` deal hand ``number`` (its first board)."""
    return any(b.view.hand_number == number and not b.hand_end for b in boards(effects))


async def to_hand_end(room: Room, people: list[str]) -> Board:
    """The people press their first move until the hand in play is over; its last board."""
    for _ in range(500):
        latest = boards(room.log)[-1]
        if latest.hand_end:
            return latest
        mover = [
            (name, h)
            for name in people
            for h in hands_for(room.log, name)
            if h.buttons and h.move_number == latest.move_number
        ]
        assert mover, "nobody has a move to make"
        name, hand = mover[-1]
        await room.press(name, hand.buttons[0])
    raise AssertionError("the hand did not end")


async def two_people(store: Store, room: Room | None = None, lang: str = "") -> Room:
    """Ana and Beto at a draw game with a computer, their first hand over."""
    room = room or await Room.open(store)
    if lang:
        await room.say("Ana", f"/settings language {lang}", admin=True)
    await room.say("Ana", "/new draw 300")
    await room.say("Beto", "/join")
    await room.say("Ana", "/add_ai")
    await room.say("Ana", "/begin")
    await to_hand_end(room, ["Ana", "Beto"])
    return room


async def notes(store: Store) -> GameNotes:
    row = await store.games.active_in(1)
    assert row is not None
    return GameNotes.from_json(row.snapshot.get("meta"))


async def next_due(room: Room) -> timedelta:
    """How long after now (the hand's end: the clock has not moved) the pending
    next-hand timer deals."""
    [timer] = [t for t in await room.service.store.timers.pending(1) if t.kind == "next_hand"]
    return timer.due_at.replace(tzinfo=None) - room.clock.now


async def test_the_default_pause_is_long_enough_to_read(store: Store) -> None:
    room = await two_people(store)
    assert NEXT_HAND_SECONDS == 20
    assert "Next hand in 20 s, or as soon as everyone presses Next hand." in said(room.log)
    assert await next_due(room) == timedelta(seconds=20)
    room.clock.advance(19)
    assert not dealt(await room.tick(), 2)
    room.clock.advance(2)
    assert dealt(await room.tick(), 2)


async def test_everyone_pressing_next_skips_the_pause(store: Store) -> None:
    room = await two_people(store)
    room.clock.advance(NEXT_PAUSE_SECONDS + 1)
    first = await room.say("Ana", "/next")
    assert "Ana is ready for the next hand (1/2)" in said(first), first
    assert not dealt(first, 2) and not dealt(await room.tick(), 2)
    assert (await notes(store)).ready == [0]
    [button] = [b for b in boards(room.log)[-1].buttons if b.command == "next"]
    second = await room.press("Beto", button)  # the board's button: still this moment's
    assert dealt(second, 2), second
    assert (await notes(store)).ready == []  # the next hand's presses start afresh


async def test_an_early_press_is_remembered_not_refused(store: Store) -> None:
    room = await two_people(store)
    early = await room.say("Ana", "/next")  # the very moment the hand ended
    assert not [e for e in early if isinstance(e, Popup)], early
    assert "Ana is ready for the next hand (1/2)" in said(early)
    again = await room.say("Ana", "/next")  # twice: still remembered, not counted twice
    assert "still being played" not in said(again) and "1/2" in said(again), again
    assert (await notes(store)).ready == [0]
    both = await room.say("Beto", "/next")  # everyone, still within the first moment
    assert not dealt(both, 2) and "Everyone is ready" in said(both), both
    room.clock.advance(NEXT_PAUSE_SECONDS)
    assert dealt(await room.tick(), 2)  # a moment after the end, not the whole pause


async def test_the_printed_next_hand_pressed_after_the_deal_is_not_hand_still_played(
    store: Store,
) -> None:
    room = await two_people(store)
    board = boards(room.log)[-1]
    [button] = [b for b in board.buttons if b.command == "next"]
    room.clock.advance(NEXT_HAND_SECONDS + 1)
    assert dealt(await room.tick(), 2)
    version = (await store.games.active_in(1)).version
    late = await room.press("Ana", button)
    text = " ".join(e.text for e in late)
    assert "still being played" not in text and ("Hand 2" in text or "earlier" in text), late
    typed = await room.say("Beto", "/next")  # typed: whoever opened hand 2 (a computer?)
    assert isinstance(typed[-1], Popup) and "Hand 2 is already dealt" in typed[-1].text, typed
    assert (await store.games.active_in(1)).version == version


async def test_the_room_setting_changes_the_pause(store: Store) -> None:
    room = await Room.open(store)
    changed = await room.say("Ana", "/settings hand_pause 60", admin=True)
    assert "A hand's end stays 60 seconds now" in said(changed), changed
    listed = await room.say("Ana", "/settings")
    assert "hand_pause=60" in " ".join(e.text for e in listed)
    await two_people(store, room)
    assert await next_due(room) == timedelta(seconds=60)
    assert "Next hand in 60 s" in said(room.log)
    room.clock.advance(NEXT_HAND_SECONDS + 1)
    assert not dealt(await room.tick(), 2)
    room.clock.advance(60 - NEXT_HAND_SECONDS)
    assert dealt(await room.tick(), 2)


async def test_a_bad_pause_is_refused_in_words_and_changes_nothing(store: Store) -> None:
    room = await Room.open(store)
    for value in ("2", "121", "x", "-5", "20s"):
        refused = await room.say("Ana", f"/settings hand_pause {value}", admin=True)
        assert isinstance(refused[-1], Popup) and "5 to 120" in refused[-1].text, refused
    named = await room.say("Ana", "/settings hand_pause", admin=True)
    assert "5 to 120" in named[-1].text
    assert "hand_pause" not in (await store.people.room(1, "mesa", room.clock.now)).settings.shown()
    member = await room.say("Beto", "/settings hand_pause 30")
    assert isinstance(member[-1], Popup)


async def test_a_press_with_no_hand_over_or_no_seat_is_refused_and_changes_nothing(
    store: Store,
) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw 300")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    hand = [h for h in room.log if isinstance(h, Hand) and h.buttons][-1]
    await room.press(hand.person.name, hand.buttons[0])  # a move made: the hand goes on
    version = (await store.games.active_in(1)).version
    playing = await room.say("Ana", "/next")
    assert isinstance(playing[-1], Popup) and "over" in playing[-1].text, playing
    assert "still being played" not in playing[-1].text
    assert (await store.games.active_in(1)).version == version
    await to_hand_end(room, ["Ana", "Beto"])
    version = (await store.games.active_in(1)).version
    stranger = await room.say("Caro", "/next")
    assert isinstance(stranger[-1], Popup) and "no seat" in stranger[-1].text
    assert (await store.games.active_in(1)).version == version
    assert (await notes(store)).ready == []


async def test_presses_are_acknowledged_in_the_rooms_language(store: Store) -> None:
    room = await two_people(store, lang="es")
    room.clock.advance(NEXT_PAUSE_SECONDS + 1)
    first = await room.say("Ana", "/next")
    assert "Ana pidió la próxima mano (1/2)" in said(first), first


async def test_two_services_on_one_database_agree_on_the_presses(store: Store) -> None:
    clock = Clock()
    one = Room(GameService(store, clock=clock, seeds=seeded()), clock)
    two = Room(GameService(store, clock=clock, seeds=seeded()), clock)
    await two_people(store, one)
    clock.advance(NEXT_PAUSE_SECONDS + 1)
    assert not dealt(await two.say("Ana", "/next"), 2)
    again = await one.say("Ana", "/next")  # this one had not seen it: counted once
    assert not dealt(again, 2) and "ready already (1/2)" in again[-1].text, again
    assert dealt(await one.say("Beto", "/next"), 2)
    clock.advance(NEXT_HAND_SECONDS)
    assert not dealt(await two.tick(), 3)  # the pause's timer went with the deal


async def test_the_hands_end_in_words_lists_every_hand_revealed(store: Store) -> None:
    """The console prints the table in words (and /board says it on every door): at a
    hand's end, each player's tiles left and their pips, as the picture shows them."""
    room = await two_people(store, lang="es")
    end = boards(room.log)[-1]
    view = end.view
    assert view.revealed is not None and view.result is not None
    names = ["Ana", "Beto", "Computadora 3 (normal)"]
    for lang in ("en", "es", "pt"):
        words = describe_table(view, names, lang)
        assert tr(lang, "Tiles left:") in words
        assert tr(lang, "Tiles in hand: {counts}", counts="").split(":")[0] not in words
        for seat, tiles in enumerate(view.revealed):
            shown = " ".join(str(t) for t in tiles) or tr(lang, "none")
            pips = view.result.pips[seat]
            assert f"{names[seat]}: {shown} ({pips} " in words, words
    assert "Fichas que quedaron:" in describe_table(view, names, "es")
    assert describe_table(view, names, "en").count("pip") >= 3
    room.clock.advance(NEXT_HAND_SECONDS)
    await room.tick()
    playing = describe_table(boards(room.log)[-1].view, names, "en")
    assert "Tiles left:" not in playing and "Tiles in hand:" in playing


# ----- a property: whatever the presses and the time, the next hand comes once, no sooner
# than a moment after the end, at once when the last person presses after that moment, and
# no later than the pause ------------------------------------------------------------------

PEOPLE = ("Ana", "Beto")
EVENTS = st.lists(
    st.sampled_from(("Ana", "Beto", "Caro")) | st.integers(1, 12), min_size=1, max_size=10
)


@functools.cache
def hand_over_database() -> Path:
    """A database whose game (Ana, Beto, a computer) has just ended its first hand, at
    the driver clock's first moment; made once, copied for each example."""
    folder = Path(tempfile.mkdtemp(prefix="hand-pause-"))
    atexit.register(shutil.rmtree, folder, True)

    async def make() -> None:
        store = await Store.open(f"sqlite:///{folder / 'bot.sqlite3'}")
        try:
            await two_people(store)
        finally:
            await store.close()

    asyncio.run(make())
    return folder / "bot.sqlite3"


@settings(max_examples=30, deadline=None)
@given(EVENTS)
def test_the_next_hand_comes_once_between_the_moment_and_the_pause(events: list) -> None:
    folder = Path(tempfile.mkdtemp(prefix="hand-pause-"))
    shutil.copy(hand_over_database(), folder / "bot.sqlite3")
    try:
        asyncio.run(follow(folder / "bot.sqlite3", events))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def follow(path: Path, events: list) -> None:
    store = await Store.open(f"sqlite:///{path}")
    try:
        room = await Room.open(store)  # the clock at the hand's end
        t, pressed, deals = 0, set(), 0
        for event in events:
            was_dealt = deals > 0
            if isinstance(event, str):
                effects = await room.say(event, "/next")
                everyone = pressed | ({event} & set(PEOPLE)) >= set(PEOPLE)
                expected = not was_dealt and everyone and t >= NEXT_PAUSE_SECONDS
                if event in PEOPLE and not was_dealt:
                    pressed.add(event)
                if event not in PEOPLE or was_dealt:  # refused: nothing changes
                    assert isinstance(effects[-1], Popup), (event, effects)
            else:
                t += event
                room.clock.advance(event)
                effects = await room.tick()
                due = NEXT_PAUSE_SECONDS if pressed >= set(PEOPLE) else NEXT_HAND_SECONDS
                expected = not was_dealt and t >= due
            got = "Hand 2." in said(effects)
            assert got == expected, (events, event, t, pressed, effects)
            assert "Hand 3." not in said(effects)
            assert "still being played" not in " ".join(e.text for e in effects)
            deals += got
    finally:
        await store.close()


async def test_the_last_person_not_ready_leaving_deals_the_next_hand(store: Store) -> None:
    """Ana pressed Next; Beto, the one waited for, leaves (a computer sits in, always
    ready): everyone left at the table is ready, so the next hand comes a moment after
    the hand's end, not at the end of the pause (BOT.md: dealt when every person seated
    has pressed Next)."""
    room = await two_people(store)
    room.clock.advance(NEXT_PAUSE_SECONDS + 1)
    await room.say("Ana", "/next")
    left = await room.say("Beto", "/leave")
    assert dealt(left, 2), said(left)


async def test_leaving_within_the_first_moment_deals_once_it_is_over(store: Store) -> None:
    room = await two_people(store)
    await room.say("Ana", "/next")
    left = await room.say("Beto", "/leave")  # the very moment the hand ended
    assert not dealt(left, 2) and "Everyone is ready" in said(left), left
    room.clock.advance(NEXT_PAUSE_SECONDS)
    assert dealt(await room.tick(), 2)


async def test_leaving_while_others_are_not_ready_changes_no_pause(store: Store) -> None:
    room = await two_people(store)
    await room.say("Carla", "/join")  # no seat free: nothing changes
    room.clock.advance(NEXT_PAUSE_SECONDS + 1)
    left = await room.say("Beto", "/leave")  # Ana has not pressed: the pause goes on
    assert not dealt(left, 2), said(left)
    assert await next_due(room) == timedelta(seconds=NEXT_HAND_SECONDS - NEXT_PAUSE_SECONDS - 1)
