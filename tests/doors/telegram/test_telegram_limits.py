"""Telegram's group limit as the bot keeps it: never more than the limit in any window
(a sliding one, unlike the library's leaky bucket), each group on its own, private chats
not counted; idle groups forgotten."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st
from telegram.error import RetryAfter

from bot.doors.telegram import limits
from bot.doors.telegram.limits import SlidingWindows, TelegramLimits, group_of
from storage.errors import Unavailable


class Clock:
    """Time that passes only when someone sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        for _ in range(5):  # whoever need not wait goes first
            await asyncio.sleep(0)
        self.now += max(0.0, seconds)


@settings(max_examples=300)
@given(st.lists(st.floats(0, 30), min_size=1, max_size=60))
def test_no_window_holds_more_than_the_limit(gaps: list[float]) -> None:
    clock = Clock()
    windows = SlidingWindows(5, 60.0, clock, clock.sleep)

    async def sends() -> list[float]:
        stamps = []
        for gap in gaps:
            clock.now += gap  # people take their time between moves
            await windows.turn(-100)
            stamps.append(clock.now)
        return stamps

    stamps = asyncio.run(sends())
    for i, start in enumerate(stamps):
        assert sum(1 for s in stamps[i:] if s < start + 60.0 - 1e-6) <= 5  # rounding aside
    # and none waited longer than needed: a send waits only for a full window
    for i in range(5, len(stamps)):
        assert stamps[i] <= max(stamps[i - 5] + 60.0, stamps[i - 1] + gaps[i]) + 1e-6


def test_groups_wait_apart_in_order() -> None:
    clock = Clock()
    windows = SlidingWindows(2, 60.0, clock, clock.sleep)

    async def burst() -> list[tuple[int, float]]:
        done: list[tuple[int, float]] = []

        async def send(group: int) -> None:
            await windows.turn(group)
            done.append((group, clock.now))

        await asyncio.gather(*(send(g) for g in (-1, -1, -1, -2, -2)))
        return done

    done = asyncio.run(burst())  # the third of -1 waits a minute; -2 does not wait for it
    assert done == [(-1, 1000.0), (-1, 1000.0), (-2, 1000.0), (-2, 1000.0), (-1, 1060.0)]


def test_idle_groups_are_forgotten(monkeypatch) -> None:
    monkeypatch.setattr(limits, "FORGET_AFTER", 3)
    clock = Clock()
    windows = SlidingWindows(20, 60.0, clock, clock.sleep)

    async def many() -> None:
        for group in range(-1, -6, -1):
            await windows.turn(group)
            clock.now += 61

    asyncio.run(many())
    assert len(windows) <= 3


def test_which_chats_are_groups() -> None:
    assert group_of(-1001234) == -1001234
    assert group_of("-1001234") == -1001234
    assert group_of("@domino_club") == "@domino_club"
    assert group_of(42) is None and group_of("42") is None and group_of(None) is None


class SharedCount:
    """The database's count (storage/sends.py), in memory; it can be taken away."""

    def __init__(self) -> None:
        self.stamps: dict[str, list[float]] = {}
        self.away = False
        self.asked = 0

    async def take(
        self, chat: str, limit: int, period: float, now: float, sent_alone: Sequence[float]
    ) -> tuple[float, tuple[float, ...]]:
        self.asked += 1
        if self.away:
            raise Unavailable("the database is not answering")
        stamps = sorted(s for s in [*self.stamps.get(chat, []), *sent_alone] if s > now - period)
        self.stamps[chat] = stamps
        if len(stamps) >= limit:
            return stamps[-limit] + period - now, tuple(stamps)
        stamps.append(now)
        return 0.0, tuple(stamps)


def test_processes_sharing_a_count_keep_the_limit_together() -> None:
    clock, shared = Clock(), SharedCount()
    # two processes, and a third started after the first was killed: one count
    processes = [SlidingWindows(3, 60.0, clock, clock.sleep, shared.take, clock) for _ in "abc"]

    async def sends() -> list[float]:
        stamps = []
        for i in range(9):
            await processes[i % 3].turn(-1)
            stamps.append(clock.now)
        return stamps

    stamps = asyncio.run(sends())
    assert stamps == [1000.0] * 3 + [1060.0] * 3 + [1120.0] * 3


def test_without_the_database_each_process_counts_alone(caplog) -> None:
    clock, shared = Clock(), SharedCount()
    windows = SlidingWindows(2, 60.0, clock, clock.sleep, shared.take, clock)

    async def sends() -> list[float]:
        stamps = []
        for i in range(5):
            shared.away = i in (1, 2, 3)
            await windows.turn(-1)
            stamps.append(clock.now)
        return stamps

    stamps = asyncio.run(sends())
    assert shared.asked == 3  # not asked again for a while after it failed
    # the send before the outage counts here too: the second during it waits a minute
    assert stamps == [1000.0, 1000.0, 1060.0, 1060.0, 1120.0]
    warnings = [r for r in caplog.records if "alone" in r.getMessage()]
    assert len(warnings) == 1  # said once, not at every send


def test_a_process_counting_alone_starts_from_the_window_it_last_read() -> None:
    clock, shared = Clock(), SharedCount()
    killed, started = (
        SlidingWindows(4, 60.0, clock, clock.sleep, shared.take, clock) for _ in "ab"
    )

    async def sends() -> list[float]:
        for _ in range(2):
            await killed.turn(-1)  # sent by a process that was killed afterwards
        await started.turn(-1)  # its successor reads the window: three in it
        shared.away = True
        stamps = []
        for _ in range(3):  # the fourth fits; the fifth and sixth wait for the minute
            await started.turn(-1)
            stamps.append(clock.now)
        return stamps

    assert asyncio.run(sends()) == [1000.0, 1060.0, 1060.0]


def test_what_a_process_sent_alone_is_counted_when_the_database_is_back() -> None:
    clock, shared = Clock(), SharedCount()
    alone, other = (SlidingWindows(4, 60.0, clock, clock.sleep, shared.take, clock) for _ in "ab")

    async def sends() -> list[float]:
        shared.away = True
        for _ in range(2):
            await alone.turn(-1)
        shared.away = False
        clock.now += limits.ALONE_SECONDS  # it asks the database again
        await alone.turn(-1)  # and tells it of the two it sent meanwhile
        stamps = []
        for _ in range(2):  # another process: one more fits in this minute
            await other.turn(-1)
            stamps.append(clock.now)
        return stamps

    assert asyncio.run(sends()) == [1000.0 + limits.ALONE_SECONDS, 1060.0]


async def test_each_try_to_a_group_takes_a_turn_as_it_goes_out(monkeypatch) -> None:
    monkeypatch.setattr(limits, "WINDOW", 0.5)
    limiter = TelegramLimits(30, 2, retries=2)
    await limiter.initialize()
    sent: list[tuple[int, float]] = []
    refused = [RetryAfter(timedelta(0))]  # the first try meets a 429, and the library tries again

    async def call(chat_id: int) -> bool:
        if chat_id == -1 and refused:
            raise refused.pop()
        sent.append((chat_id, time.monotonic()))
        return True

    async def request(chat_id: int) -> object:
        return await limiter.process_request(
            call, (chat_id,), {}, "sendMessage", {"chat_id": chat_id}, None
        )

    start = time.monotonic()
    await asyncio.gather(request(-1), request(42), request(42), request(42))
    assert sorted(c for c, _ in sent) == [-1, 42, 42, 42]
    await request(-1)  # the refused try took the second turn: this one waits
    assert sent[-1][0] == -1 and sent[-1][1] - start >= 0.5
    await limiter.shutdown()
