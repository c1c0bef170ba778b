"""A load on the real program through the fake Telegram: many games at once, each one
person against a computer player, the people pressing their moves at a steady rate over
all the games; and what came of it (bench/load.py prints it, tests/telegram/test_load.py
runs a short one).

Latency is from the press reaching the fake (the update is queued for the bot) to the
bot's answer to that press (answerCallbackQuery), which it sends once the move is saved
and the computer has answered. A watcher reads the fake's calls once each, so looking
up the state of a thousand games costs nothing per game.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from tests.telegram.driver import BotProcess
from tests.telegram.fake_api import FakeTelegram

GROUP_METHODS = frozenset(
    {"sendmessage", "sendphoto", "senddocument", "editmessagemedia", "editmessagetext",
     "editmessagecaption", "editmessagereplymarkup", "deletemessage"}
)  # fmt: skip
FIRST_GROUP = -1003000000000
FIRST_USER = 9_000_000


@dataclass
class Report:
    games: int
    rate: float
    seconds: float
    presses: int = 0
    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    unanswered: int = 0
    group_peak_per_minute: int = 0
    peak_rss_mb: float = 0.0
    errors_logged: int = 0
    failed_calls: int = 0
    setup_seconds: float = 0.0

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    def lines(self) -> list[str]:
        served = len(self.latencies) / self.seconds if self.seconds else 0.0
        return [
            f"games {self.games}, offered {self.rate:g} presses/s for {self.seconds:g} s "
            f"(setup {self.setup_seconds:.0f} s)",
            f"presses {self.presses}, answered {len(self.latencies)} ({served:.1f}/s), "
            f"refused {self.refused}, unanswered {self.unanswered}",
            f"latency p50 {1000 * self.percentile(0.5):.0f} ms, "
            f"p99 {1000 * self.percentile(0.99):.0f} ms, "
            f"max {1000 * max(self.latencies, default=float('nan')):.0f} ms",
            f"messages to one group in any minute, at most: {self.group_peak_per_minute}",
            f"bot process peak memory {self.peak_rss_mb:.0f} MB",
            f"errors: {self.errors_logged} logged, {self.failed_calls} failed calls",
        ]


class Watcher:
    """Reads the fake's calls as they come: each person's newest hand with moves, each
    group's newest board, the answers to presses."""

    def __init__(self, tg: FakeTelegram) -> None:
        self.tg = tg
        self.seen = 0
        self.hands: dict[int, tuple[int, int, str]] = {}  # user: (message, move, data)
        self.next_hand: dict[int, tuple[int, str]] = {}  # group: (board message, data)
        self.answers: dict[str, tuple[float, str | None]] = {}  # query: (time, popup)

    def read(self) -> None:
        calls = self.tg.calls
        while self.seen < len(calls):
            call = calls[self.seen]
            self.seen += 1
            method = call.method.lower()
            if method == "answercallbackquery":
                query = str(call.params.get("callback_query_id"))
                self.answers[query] = (call.time, call.params.get("text"))
                continue
            if not call.ok or method not in ("sendphoto", "editmessagemedia"):
                continue
            result = call.result if isinstance(call.result, dict) else {}
            chat = int(call.params.get("chat_id") or 0)
            keys = [
                b.get("callback_data", "")
                for row in (result.get("reply_markup") or {}).get("inline_keyboard", [])
                for b in row
            ]
            message = int(result.get("message_id") or call.params.get("message_id") or 0)
            if chat > 0:
                plays = [k for k in keys if k.startswith("c|")]
                if plays:
                    self.hands[chat] = (message, int(plays[0].split("|")[2]), plays[0])
            else:
                nexts = [k for k in keys if k.endswith("|next")]
                if nexts:
                    self.next_hand[chat] = (message, nexts[0])
                else:
                    self.next_hand.pop(chat, None)


async def _say(tg: FakeTelegram, group: int, user: int, text: str) -> None:
    """``user`` types ``text`` in ``group``; returns once the bot answered there."""
    seen = len(tg.calls)
    tg.send_message(group, user, text)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        calls = tg.calls
        if any(str(c.params.get("chat_id")) == str(group) for c in calls[seen:]):
            return
        seen = len(calls)  # what was read is not read again
        await asyncio.sleep(0.05)
    raise AssertionError(f"no answer to {text} in {group}")


async def run_load(home: Path, games: int, rate: float, seconds: float, **env: str) -> Report:
    """Open ``games`` games (a person and a computer each), then press ``rate`` moves a
    second over all of them for ``seconds``; the report."""
    report = Report(games, rate, seconds)
    async with FakeTelegram() as tg:
        people = []
        for i in range(games):
            group, user = FIRST_GROUP - i, FIRST_USER + i
            tg.group(group, f"Mesa {i}")
            tg.user(user, f"Jugador {i}", "en")
            tg.open_private(user)
            people.append((group, user))
        process = BotProcess(tg, home, TELEGRAM_GROUP_RATE="20", **env)
        process.start()
        watcher = Watcher(tg)
        try:
            await tg.wait_calls("getUpdates", timeout=60)
            started = time.monotonic()
            opening = asyncio.Semaphore(50)

            async def open_game(group: int, user: int) -> None:
                async with opening:
                    for text in ("/new draw 1000", "/add_ai normal", "/begin"):
                        await _say(tg, group, user, text)

            await asyncio.gather(*(open_game(g, u) for g, u in people))
            for _ in range(600):  # every first hand out
                watcher.read()
                if len(watcher.hands) + len(watcher.next_hand) >= games:
                    break
                await asyncio.sleep(0.1)
            report.setup_seconds = time.monotonic() - started
            await _press_steadily(tg, watcher, people, report)
            report.peak_rss_mb = _peak_rss_mb(process)
        finally:
            await process.stop()
        log = process.log()
        report.errors_logged = log.count("ERROR") + log.count("Traceback")
        # (at the stop, the library's last poll meets the long poll still open: a 409 that
        # Telegram gives too, and no error)
        report.failed_calls = sum(
            1 for c in tg.calls if c.status >= 400 and c.method.lower() != "getupdates"
        )
        report.group_peak_per_minute = _group_peak(tg)
    return report


async def _press_steadily(
    tg: FakeTelegram, watcher: Watcher, people: list[tuple[int, int]], report: Report
) -> None:
    chooser = random.Random(7)
    pressed: dict[int, int] = {}  # user: the hand message pressed last
    waiting: dict[str, float] = {}  # query: when pressed
    interval = 1.0 / report.rate
    start = time.monotonic()
    tick = 0
    while time.monotonic() - start < report.seconds:
        tick += 1
        watcher.read()
        ready = [
            (group, user)
            for group, user in people
            if (user in watcher.hands and watcher.hands[user][0] != pressed.get(user))
            or group in watcher.next_hand
        ]
        if ready:
            group, user = chooser.choice(ready)
            if group in watcher.next_hand:
                message, data = watcher.next_hand.pop(group)
                chat = group
            else:
                message, _move, data = watcher.hands[user]
                pressed[user] = message
                chat = user
            try:
                query = tg.press(chat, user, message, data, strict=False)
            except ValueError:
                query = None
            if query is not None:
                waiting[query["id"]] = time.monotonic()
                report.presses += 1
        _settle(watcher, waiting, report)
        await asyncio.sleep(max(0.0, start + tick * interval - time.monotonic()))
    for _ in range(300):  # the last answers
        watcher.read()
        _settle(watcher, waiting, report)
        if not waiting:
            break
        await asyncio.sleep(0.1)
    report.unanswered = len(waiting)


def _settle(watcher: Watcher, waiting: dict[str, float], report: Report) -> None:
    for query in [q for q in waiting if q in watcher.answers]:
        answered_at, popup = watcher.answers[query]
        report.latencies.append(answered_at - waiting.pop(query))
        report.refused += bool(popup)


def _group_peak(tg: FakeTelegram) -> int:
    """The most messages the bot sent one group in any 60 seconds."""
    times: dict[str, list[float]] = {}
    for call in tg.calls:
        chat = str(call.params.get("chat_id", ""))
        if chat.startswith("-") and call.method.lower() in GROUP_METHODS and call.ok:
            times.setdefault(chat, []).append(call.time)
    peak = 0
    for stamps in times.values():
        window: deque[float] = deque()
        for stamp in sorted(stamps):
            window.append(stamp)
            while window[0] < stamp - 60:
                window.popleft()
            peak = max(peak, len(window))
    return peak


def _peak_rss_mb(process: BotProcess) -> float:
    assert process.process is not None
    try:
        status = Path(f"/proc/{process.process.pid}/status").read_text()
    except OSError:
        return float("nan")
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")
