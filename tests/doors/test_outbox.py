"""The outbox: each room's messages in order; a newer board of a game replaces an older
one still waiting; a delivery that needed the database while it was away is tried again
after a pause; any other failure loses that message only."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.core.model import Board, Effect, Hand, Person, Place, Say
from bot.doors import outbox
from bot.doors.outbox import Outbox
from storage.errors import Unavailable

ROOM = Place("telegram", "-1", "-1")
OTHER = Place("telegram", "-2", "-2")


def board(move: int, game: int = 1) -> Board:
    return Board(game, move, None, None, f"board {move}")  # type: ignore[arg-type]


class Platform:
    """Sends that fail as told: ``failures[text]`` is what the next tries raise."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []
        self.failures: dict[str, list[BaseException]] = {}

    async def send(self, place: Place, effect: Effect) -> None:
        await asyncio.sleep(0)
        pending = self.failures.get(effect.text)
        if pending:
            raise pending.pop(0)
        self.sent.append((place.room, effect.text))


@pytest.fixture(autouse=True)
def short_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outbox, "DATABASE_PAUSES", (0.01, 0.01, 0.01))


async def deliver(platform: Platform, *batches: tuple[Place, list[Effect]]) -> None:
    box: Outbox[Effect] = Outbox(platform.send, lambda e: e, "telegram")
    for place, effects in batches:
        box.put(place, effects)
    await box.idle()


async def test_in_order_and_one_edit_for_a_run_of_boards() -> None:
    platform = Platform()
    await deliver(
        platform,
        (ROOM, [Say("hello"), board(1), board(2), Say("after"), board(3)]),
        (OTHER, [board(1, game=2)]),
    )
    assert [t for r, t in platform.sent if r == "-1"] == ["hello", "after", "board 3"]
    assert [t for r, t in platform.sent if r == "-2"] == ["board 1"]


async def test_the_database_away_for_a_moment_delays_but_loses_nothing() -> None:
    platform = Platform()
    platform.failures["board 1"] = [Unavailable("down"), Unavailable("down")]
    await deliver(platform, (ROOM, [board(1), Say("next")]))
    assert platform.sent == [("-1", "board 1"), ("-1", "next")]  # once, and in order


async def test_a_newer_board_queued_during_the_pause_goes_instead() -> None:
    platform = Platform()
    platform.failures["board 1"] = [Unavailable("down")]
    box: Outbox[Effect] = Outbox(platform.send, lambda e: e, "telegram")
    box.put(ROOM, [board(1)])
    await asyncio.sleep(0.005)  # board 1 failed and waits for its next try
    box.put(ROOM, [board(2)])
    await box.idle()
    assert platform.sent == [("-1", "board 2")]


async def test_a_database_away_for_long_loses_that_message_only(
    caplog: pytest.LogCaptureFixture,
) -> None:
    platform = Platform()
    platform.failures["board 1"] = [Unavailable("down")] * 4  # more than the pauses
    platform.failures["boom"] = [RuntimeError("the platform said no")]
    with caplog.at_level(logging.WARNING):
        await deliver(platform, (ROOM, [board(1), Say("boom"), Say("still here")]))
    assert platform.sent == [("-1", "still here")]
    messages = [r.getMessage() for r in caplog.records]
    assert any("not delivered: the database is away" in m for m in messages)
    assert any("delivering Say failed" in m for m in messages)


async def test_a_lane_does_not_wait_for_the_room() -> None:
    held = asyncio.Event()
    sent: list[str] = []

    async def send(place: Place, effect: Effect) -> None:
        if effect.text == "board 1":
            await held.wait()  # the group's minute is full
        sent.append(effect.text)

    box: Outbox[Effect] = Outbox(send, lambda e: e, "telegram")
    box.put(ROOM, [board(1), Say("after the board")])
    box.put(ROOM, [Say("your hand")], lane="42")
    await asyncio.sleep(0.01)
    assert sent == ["your hand"]
    held.set()
    await box.idle()
    assert sent == ["your hand", "board 1", "after the board"]


async def test_one_room_is_one_worker_however_its_place_is_named() -> None:
    platform = Platform()
    platform.failures["first"] = [Unavailable("down")]  # the first waits a moment
    box: Outbox[Effect] = Outbox(platform.send, lambda e: e, "telegram")
    box.put(Place("telegram", "-1", "-1", community_name="Club"), [Say("first")], "42")
    box.put(ROOM, [Say("second")], "42")  # from a press in a private chat: no name
    await box.idle()
    assert platform.sent == [("-1", "first"), ("-1", "second")]


def hand(move: int, person: str = "42", game: int = 1) -> Hand:
    return Hand(Person(person, "Ana"), game, move, None, None, f"hand {game}:{person}:{move}")  # type: ignore[arg-type]


async def test_a_hand_superseded_before_it_went_out_is_not_sent() -> None:
    held = asyncio.Event()
    sent: list[str] = []

    async def send(place: Place, effect: Effect) -> None:
        if effect.text == "first":
            await held.wait()  # a 429: the lane waits
        sent.append(effect.text)

    box: Outbox[Effect] = Outbox(send, lambda e: e, "telegram")
    box.put(ROOM, [Say("first")], lane="42")
    box.put(ROOM, [hand(3)], lane="42")
    box.put(ROOM, [hand(3, game=2), Say("between")], lane="42")  # another game's hand stays
    box.put(ROOM, [hand(5)], lane="42")  # the newer hand of game 1
    box.put(ROOM, [hand(4, person="7")], lane="7")
    await asyncio.sleep(0.01)
    held.set()
    await box.idle()
    assert sent == ["hand 1:7:4", "first", "hand 2:42:3", "between", "hand 1:42:5"]


async def test_the_games_messages_go_before_answers_set_aside() -> None:
    """Issue 32, 6: a flood of /rules answered in the room waits behind the move's board
    and its turn call queued after it; among themselves each kind keeps its order."""
    platform = Platform()
    asides: list[Effect] = [Say(f"rules {n}", aside=True) for n in range(5)]
    await deliver(
        platform,
        (ROOM, asides[:3]),
        (ROOM, [board(1), Say("Beto, your turn")]),
        (ROOM, asides[3:]),
        (ROOM, [board(2, game=1), Say("after")]),
    )
    # (board 1 gives way to board 2, the newer board of its game, as always)
    assert [t for _, t in platform.sent] == [
        "Beto, your turn", "board 2", "after", "rules 0", "rules 1", "rules 2", "rules 3",
        "rules 4",
    ]  # fmt: skip
