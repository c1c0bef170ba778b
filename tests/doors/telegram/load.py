"""A load on the real program through the fake Telegram: many games at once, each one
person against a computer player, the people pressing their moves at a steady rate over
all the games, faults injected on a schedule if asked (tests/doors/telegram/faults.py); and
what came of it (bench/load.py prints it, tests/doors/telegram/test_load.py runs short ones).

Latency is from the press reaching the fake (the update is queued for the bot) to the
bot's answer to that press (answerCallbackQuery), which it sends once the move is saved
and the computer has answered. A watcher reads the fake's calls once each, so looking
up the state of a thousand games costs nothing per game. At the end the database is
read: every press the bot answered as played must be in its game's move log, at the
move number the button named, and no move may be logged twice.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from storage.games import snapshot_moves
from storage.store import Store
from tests.doors.telegram.driver import BotProcess, buttons
from tests.doors.telegram.fake_api import FakeTelegram
from tests.doors.telegram.faults import DatabaseGate, Fault, Scene

GROUP_METHODS = frozenset(
    {"sendmessage", "sendphoto", "senddocument", "editmessagemedia", "editmessagetext",
     "editmessagecaption", "editmessagereplymarkup", "deletemessage"}
)  # fmt: skip
ANSWERS = GROUP_METHODS - {"deletemessage"}
FIRST_GROUP = -1003000000000
FIRST_USER = 9_000_000
# Each person presses about once every games/rate seconds (125 s for 1,000 games at 8 a
# second), longer than the default 90 s a turn: the rooms allow half an hour, so nobody
# times out and computers do not take over the seats mid-measurement.
TURN_TIMEOUT = 1800
# how long before a SIGKILL a press may have been taken and still be in hand (handled, not
# yet answered): a press is answered well within this on a busy machine
IN_FLIGHT = 5.0
# how long the pressing may go on past its planned time to see a move played after the
# last fault
GOING_ON_SECONDS = 30.0


@dataclass
class Press:
    query: str
    user: int
    data: str  # c|<game>|<move number>|<command>, or the board's "Next hand"
    at: float
    answered: float | None = None
    popup: str | None = None  # the answer's text: None when the move was played
    update: int = 0  # the update that carried it
    lost_in_kill: bool = False  # taken by a process killed before it answered


@dataclass
class Window:
    """What the people saw while a fault lasted (and for a settling time after)."""

    fault: str
    presses: list[Press] = field(default_factory=list)

    def lines(self) -> list[str]:
        played = [p for p in self.presses if p.answered is not None and not p.popup]
        popups = Counter(p.popup for p in self.presses if p.popup)
        unanswered = sum(p.answered is None and not p.lost_in_kill for p in self.presses)
        in_flight = sum(p.answered is None and p.lost_in_kill for p in self.presses)
        slowest = max(
            (p.answered - p.at for p in self.presses if p.answered is not None), default=0.0
        )
        said = "; ".join(f'{n} × "{text}"' for text, n in popups.most_common()) or "nothing else"
        return [
            f"{self.fault}:",
            f"  presses {len(self.presses)}: {len(played)} played, {sum(popups.values())} "
            f"answered with a popup, {unanswered} unanswered, {in_flight} taken by the "
            f"process killed before it answered; slowest answer {slowest:.1f} s",
            f"  popups: {said}",
        ]


@dataclass
class Report:
    games: int
    rate: float
    seconds: float
    presses: list[Press] = field(default_factory=list)
    group_peak_per_minute: int = 0
    group_peak_from: float = 0.0  # when that minute began, in seconds from the start
    peak_rss_mb: float = 0.0
    errors_logged: int = 0
    failed_calls: int = 0  # 4xx/5xx the fake gave, other than the faults it was asked for
    injected_failures: int = 0
    setup_seconds: float = 0.0
    started: float = 0.0  # when the pressing began (time.monotonic)
    windows: list[Window] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)  # answered as played, not in the log
    doubled: list[str] = field(default_factory=list)  # moves logged twice, logs out of step
    checked_games: int = 0

    @property
    def latencies(self) -> list[float]:
        return [p.answered - p.at for p in self.presses if p.answered is not None]

    @property
    def refused(self) -> int:
        return sum(bool(p.popup) for p in self.presses if p.answered is not None)

    @property
    def unanswered(self) -> int:
        return sum(p.answered is None and not p.lost_in_kill for p in self.presses)

    @property
    def lost_in_kill(self) -> int:
        return sum(p.answered is None and p.lost_in_kill for p in self.presses)

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    def lines(self) -> list[str]:
        latencies = self.latencies
        served = len(latencies) / self.seconds if self.seconds else 0.0
        lines = [
            f"games {self.games}, offered {self.rate:g} presses/s for {self.seconds:g} s "
            f"(setup {self.setup_seconds:.0f} s)",
            f"presses {len(self.presses)}, answered {len(latencies)} ({served:.1f}/s), "
            f"refused {self.refused}, unanswered {self.unanswered}, "
            f"taken by the killed process {self.lost_in_kill}",
            f"latency p50 {1000 * self.percentile(0.5):.0f} ms, "
            f"p99 {1000 * self.percentile(0.99):.0f} ms, "
            f"max {1000 * max(latencies, default=float('nan')):.0f} ms",
            f"messages to one group in any minute, at most: {self.group_peak_per_minute} "
            f"(the minute from {self.group_peak_from - self.started:.0f} s)",
            f"bot process peak memory {self.peak_rss_mb:.0f} MB",
            f"errors: {self.errors_logged} logged, {self.failed_calls} failed calls"
            + (f" ({self.injected_failures} failures injected)" if self.injected_failures else ""),
            f"database: {self.checked_games} games read, {len(self.lost)} answered moves "
            f"missing, {len(self.doubled)} logged twice or out of step",
        ]
        for window in self.windows:
            lines += window.lines()
        return lines


def broken(report: Report, faults: Sequence[Fault] = ()) -> list[str]:
    """What went wrong in a run, in words; nothing if all is well: every press answered,
    every press answered as played in the database and none logged twice, no error, no
    group above Telegram's 20 messages a minute, and the games going on after each
    fault."""
    wrong = []
    if not report.presses:
        wrong.append("no press was made")
    if report.unanswered:
        wrong.append(f"{report.unanswered} presses unanswered")
    wrong += [f"lost: {line}" for line in report.lost]
    wrong += [f"logged twice or out of step: {line}" for line in report.doubled]
    if report.errors_logged or report.failed_calls:
        wrong.append(f"{report.errors_logged} errors logged, {report.failed_calls} failed calls")
    if report.group_peak_per_minute > 20:
        wrong.append(f"a group got {report.group_peak_per_minute} messages in a minute")
    for fault in faults:
        after = [p for p in report.presses if p.at - report.started > fault.at + fault.lasts + 2]
        if not any(p.answered and not p.popup for p in after):
            wrong.append(f"no move was played after: {fault.name}")
    return wrong


class Watcher:
    """Reads the fake's calls as they come: each person's newest hand with moves, each
    group's newest board, the answers to presses."""

    def __init__(self, tg: FakeTelegram) -> None:
        self.tg = tg
        self.seen = 0
        self.hands: dict[int, tuple[int, str]] = {}  # user: (message, data)
        self.next_hand: dict[int, tuple[int, str]] = {}  # group: (board message, data)
        self.answers: dict[str, tuple[float, str | None]] = {}  # query: (time, popup)

    def read(self) -> None:
        calls = self.tg.calls
        while self.seen < len(calls):
            call = calls[self.seen]
            self.seen += 1
            method = call.method.lower()
            if not call.ok:
                continue
            if method == "answercallbackquery":
                query = str(call.params.get("callback_query_id"))
                self.answers.setdefault(query, (call.time, call.params.get("text")))
                continue
            if method not in ("sendphoto", "editmessagemedia"):
                continue
            result = call.result if isinstance(call.result, dict) else {}
            chat = int(call.params.get("chat_id") or 0)
            keys = buttons(result)
            message = int(result.get("message_id") or call.params.get("message_id") or 0)
            if chat > 0:
                plays = [k for k in keys if k.startswith(("m|", "c|"))]
                if plays:
                    self.hands[chat] = (message, plays[0])
            else:
                nexts = [k for k in keys if k.endswith("|next")]
                if nexts:
                    self.next_hand[chat] = (message, nexts[0])
                else:
                    self.next_hand.pop(chat, None)


async def _say(tg: FakeTelegram, group: int, user: int, text: str, process: BotProcess) -> None:
    """``user`` types ``text`` in ``group``; returns once the bot answered there. None
    there in a minute fails, with what the person was told privately and the bot's log."""
    seen = start = len(tg.calls)
    tg.send_message(group, user, text)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        calls = tg.calls
        # a message sent or edited there (not the bot asking about the group: its
        # getChatMember while it reads the command is no answer)
        if any(
            str(c.params.get("chat_id")) == str(group) and c.method.lower() in ANSWERS
            for c in calls[seen:]
        ):
            return
        seen = len(calls)  # what was read is not read again
        await asyncio.sleep(0.05)
    told = [
        c.params.get("text") for c in tg.calls[start:] if str(c.params.get("chat_id")) == str(user)
    ]
    raise AssertionError(
        f"no answer to {text} in {group}; privately: {told}; the log:\n{process.log()[-4000:]}"
    )


async def run_load(
    home: Path,
    games: int,
    rate: float,
    seconds: float,
    faults: Sequence[Fault] = (),
    database: str = "",
    **env: str,
) -> Report:
    """Open ``games`` games (a person and a computer each), then press ``rate`` moves a
    second over all of them for ``seconds``, injecting ``faults``; the report. The bot
    uses ``database`` (default: an SQLite file in ``home``), through a gate that can
    make it unreachable."""
    report = Report(games, rate, seconds)
    url = database or f"sqlite:///{home / 'bot.sqlite3'}"
    async with FakeTelegram() as tg, DatabaseGate(url) as gate:
        people = []
        for i in range(games):
            group, user = FIRST_GROUP - i, FIRST_USER + i
            tg.group(group, f"Mesa {i}")
            tg.user(user, f"Jugador {i}", "en")
            tg.open_private(user)
            tg.set_admins(group, [user])  # to set the room's turn timeout
            people.append((group, user))
        # logging as production does (WARNING): the figures are a measurement, and the
        # log is still read for the tokens at the stop
        process = BotProcess(
            tg,
            home,
            TELEGRAM_GROUP_RATE="20",
            DATABASE_URL=gate.url,
            **{"LOG_LEVEL": "WARNING", **env},
        )
        process.start()
        watcher = Watcher(tg)
        scene = Scene(tg, process, gate)
        try:
            await tg.wait_calls("getUpdates", timeout=60)
            started = time.monotonic()
            await _open_games(tg, people, process)
            for _ in range(600):  # every first hand out
                watcher.read()
                if len(watcher.hands) + len(watcher.next_hand) >= games:
                    break
                await asyncio.sleep(0.1)
            report.setup_seconds = time.monotonic() - started
            await _press_steadily(tg, watcher, people, report, scene, faults)
            report.peak_rss_mb = _peak_rss_mb(process)
        finally:
            await scene.clear()
            await process.stop()
        errors = re.findall(r"^(?:ERROR|CRITICAL) ", process.log(), re.MULTILINE)
        report.errors_logged = len(errors) + len(process.tracebacks())
        # (at the stop, the library's last poll meets the long poll still open: a 409 that
        # Telegram gives too, and no error)
        failed = [c for c in tg.calls if c.status >= 400 and c.method.lower() != "getupdates"]
        report.injected_failures = sum(c.injected for c in failed)
        report.failed_calls = len(failed) - report.injected_failures
        report.group_peak_per_minute, report.group_peak_from = _group_peak(tg)
    await _check_database(url, report)
    return report


async def _open_games(tg: FakeTelegram, people: list[tuple[int, int]], process: BotProcess) -> None:
    opening = asyncio.Semaphore(50)

    async def open_game(group: int, user: int) -> None:
        async with opening:
            for text in (
                f"/settings turn_timeout {TURN_TIMEOUT}",
                "/new draw 1000",
                "/add_ai normal",
                "/begin",
            ):
                await _say(tg, group, user, text, process)

    await asyncio.gather(*(open_game(g, u) for g, u in people))


async def _press_steadily(
    tg: FakeTelegram,
    watcher: Watcher,
    people: list[tuple[int, int]],
    report: Report,
    scene: Scene,
    faults: Sequence[Fault],
) -> None:
    chooser = random.Random(7)
    pressed: dict[int, int] = {}  # user: the hand message pressed last
    waiting: dict[str, Press] = {}
    schedule = sorted(faults, key=lambda f: f.at)
    running: list[tuple[Fault, Window]] = []
    ended: set[str] = set()  # the faults undone
    interval = 1.0 / report.rate
    start = report.started = time.monotonic()
    tick = 0
    # the games must be seen going on after the last fault: pressing goes on past the
    # planned time until a move is played after it, with a deadline (a loaded machine
    # takes longer to send the hands the slow Telegram held back)
    last_end = max((f.at + f.lasts for f in faults), default=0.0) + 2

    def going_on() -> bool:
        return any(p.answered and not p.popup and p.at - start > last_end for p in report.presses)

    while (elapsed := time.monotonic() - start) < report.seconds or (
        elapsed < report.seconds + GOING_ON_SECONDS and not going_on()
    ):
        tick += 1
        now = time.monotonic() - start
        while schedule and schedule[0].at <= now:
            fault = schedule.pop(0)
            window = Window(fault.name)
            report.windows.append(window)
            running.append((fault, window))
            await fault.begin(scene)
        for fault, window in list(running):
            if now >= fault.at + fault.lasts and fault.name not in ended:
                ended.add(fault.name)
                await fault.end(scene)
            if now >= fault.at + fault.lasts + fault.settle:
                running.remove((fault, window))
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
                message, data = watcher.hands[user]
                pressed[user] = message
                chat = user
            try:
                query = tg.press(chat, user, message, data, strict=False)
            except ValueError:
                query = None
            if query is not None:
                update = tg.updates[-1]["update_id"]  # (the press's, made just now)
                press = Press(query["id"], user, data, time.monotonic(), update=update)
                waiting[press.query] = press
                report.presses.append(press)
                for _fault, window in running:
                    window.presses.append(press)
        _settle(watcher, waiting)
        await asyncio.sleep(max(0.0, start + tick * interval - time.monotonic()))
    for fault, _window in running:
        if fault.name not in ended:
            await fault.end(scene)
    for _ in range(600):  # the last answers
        watcher.read()
        _settle(watcher, waiting)
        if not waiting:
            break
        await asyncio.sleep(0.1)
    for press in waiting.values():
        press.lost_in_kill = _lost_in_kill(tg, scene, press)


def _lost_in_kill(tg: FakeTelegram, scene: Scene, press: Press) -> bool:
    """Whether ``press`` was taken by a process that was killed before it answered: its
    update handed to a getUpdates shortly before a SIGKILL. The library confirms what it
    took with its next poll, at once, while it still handles it (so does Telegram), so
    the new process never gets it: the person sees the press go unanswered and presses
    again. Only presses in flight at the kill: one taken long before it is not."""
    taken = tg.taken.get(press.update)
    return taken is not None and any(0 <= kill - taken <= IN_FLIGHT for kill in scene.kills)


def _settle(watcher: Watcher, waiting: dict[str, Press]) -> None:
    for query in [q for q in waiting if q in watcher.answers]:
        press = waiting.pop(query)
        press.answered, press.popup = watcher.answers[query]


async def _check_database(url: str, report: Report) -> None:
    """Every press answered as played is in the move log at the number its button
    named; each game's log is numbered 0, 1, 2... without gaps or repeats and agrees
    with the game's snapshot."""
    played: dict[int, list[Press]] = {}
    for press in report.presses:
        kind, game, number, command = press.data.split("|", 3)
        move = kind == "m" or (kind == "c" and command.startswith(("play ", "draw", "pass")))
        if move and press.answered is not None and not press.popup:
            played.setdefault(int(game), []).append(press)
    store = await Store.open(url, migrate=False)
    try:
        for game_id, presses in played.items():
            log = await store.games.log(game_id)
            row = await store.games.load(game_id)
            report.checked_games += 1
            if (
                [m.ply for m in log] != list(range(len(log)))
                or snapshot_moves(await store.games.record(game_id))
                != [(m.hand, m.move) for m in log]
                or row.plies != len(log)
            ):
                report.doubled.append(f"game {game_id}: log out of step")
            by_ply = {m.ply: m.move for m in log}
            for press in presses:
                kind, _game, number, command = press.data.split("|", 3)
                logged = by_ply.get(int(number), "")
                if kind == "m":  # the move itself, as the log writes it
                    command = command.partition(": ")[2]
                if command.startswith("play "):
                    command = command.removeprefix("play ")
                if logged.partition(": ")[2] != command:
                    report.lost.append(
                        f"game {game_id} move {number} {command!r} pressed at "
                        f"{press.at - report.started:.1f} s, answered at "
                        f"{(press.answered or 0) - report.started:.1f} s; logged {logged!r}"
                    )
    finally:
        await store.close()


def _group_peak(tg: FakeTelegram) -> tuple[int, float]:
    """The most messages the bot sent one group in any 60 seconds, and when that began."""
    times: dict[str, list[float]] = {}
    for call in tg.calls:
        chat = str(call.params.get("chat_id", ""))
        if chat.startswith("-") and call.method.lower() in GROUP_METHODS and call.ok:
            times.setdefault(chat, []).append(call.time)
    peak, start = 0, 0.0
    for stamps in times.values():
        window: deque[float] = deque()
        for stamp in sorted(stamps):
            window.append(stamp)
            while window[0] < stamp - 60:
                window.popleft()
            if len(window) > peak:
                peak, start = len(window), window[0]
    return peak, start


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
