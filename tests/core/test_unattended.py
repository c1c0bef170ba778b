"""No game runs unattended (issue 18): a game with no person left ends at once without a
result, idle time counts people's actions only, a game has a maximum length, and "next"
cannot deal hand after hand."""

from __future__ import annotations

import pytest

from bot.core import progress
from bot.core.model import Board, Say
from storage.store import Store
from tests.core.driver import Room, boards, hands_for
from tests.core.test_service import play_out


def said(effects: list) -> str:
    return " ".join(e.text for e in effects if isinstance(e, Say))


async def test_a_game_whose_people_all_left_ends_at_once_without_a_result(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin fill")
    await room.say("Ana", "/leave")
    assert (await store.games.active_in(1)) is not None  # Beto still plays
    left = await room.say("Beto", "/leave")
    assert "Nobody is left" in said(left)
    assert await store.games.active_in(1) is None
    assert await store.timers.pending(1) == []  # nothing left to fire
    assert await store.results.unrecorded() == []
    assert (await store.stats.player(1, 1)).games == 0


async def test_everyone_timed_out_into_computers_ends_the_game(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Ana", "/settings turn_timeout 30", admin=True)
    await room.say("Ana", "/add_ai")
    await room.say("Ana", "/begin")
    for _ in range(20):
        room.clock.advance(31)
        await room.tick()
        if await store.games.active_in(1) is None:
            break
    assert "Nobody is left" in said(room.log)
    assert await store.games.active_in(1) is None
    # and it stays quiet: no hand is dealt afterwards
    before = len(room.log)
    for _ in range(5):
        room.clock.advance(3600)
        await room.tick()
    assert len(room.log) == before


async def test_idle_time_counts_only_peoples_actions(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw 300")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")

    async def idle_due() -> object:
        return next(t.due_at for t in await store.timers.pending(1) if t.kind == "idle")

    first = await idle_due()
    # a turn timer plays for the person to move: the game's idle time is not renewed
    room.clock.advance(200)
    await room.tick()
    assert any(isinstance(e, Board) for e in room.log[-5:])
    assert await idle_due() == first
    # a person's move renews it
    latest = boards(room.log)[-1].move_number
    mover = next(
        name
        for name in ("Ana", "Beto")
        for h in hands_for(room.log, name)
        if h.move_number == latest and h.buttons
    )
    hand = [h for h in hands_for(room.log, mover) if h.move_number == latest][-1]
    await room.press(mover, hand.buttons[0])
    assert await idle_due() > first


async def test_next_cannot_deal_faster_than_the_pause(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw 300")
    await room.say("Ana", "/add_ai")
    await room.say("Ana", "/begin")
    for _ in range(500):  # to the end of the first hand
        if any(
            isinstance(e, Board)
            and e.view.hand_number == 1
            and e.view.to_move is None
            and e.view.revealed
            for e in room.log
        ):
            break
        hand = [h for h in hands_for(room.log, "Ana") if h.buttons][-1]
        await room.press("Ana", hand.buttons[0])
    early = await room.say("Ana", "/next")  # remembered, but nothing dealt at once
    assert "Everyone is ready" in said(early) and not boards(early)
    again = await room.say("Ana", "/next")  # a second press deals no second hand
    assert not boards(again) and not boards(await room.tick())
    room.clock.advance(progress.NEXT_PAUSE_SECONDS)
    dealt = await room.tick()
    assert "Hand 2" in said(dealt)


@pytest.mark.parametrize("limit", [1, 2])
async def test_a_game_ends_at_its_maximum_length(
    store: Store, monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    monkeypatch.setattr(progress, "MAX_HANDS", limit)
    room = await Room.open(store)
    await room.say("Ana", "/new draw 1000")  # a target nobody reaches in two hands
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    final = await play_out(room, ["Ana", "Beto"])
    assert view_of_hands(final) == limit
    row = await store.games.latest_over_in(1)
    assert row is not None
    text = said(room.log)
    if final.view.outcome is not None:
        assert final.view.outcome.reason == "limit"
        assert "the most a game lasts" in text and row.status == "finished"
    else:  # the lead was tied: no result
        assert "lead is tied" in text and row.status == "cancelled"


def view_of_hands(board: Board) -> int:
    return board.view.hand_number
