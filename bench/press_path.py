"""One Telegram press, traced in the real program: the project's files and functions it
runs from the press reaching the Telegram door to the board edited in place (issue 30's
"one press hop by hop", measured rather than read).

The program (``python -m bot``) runs against the fake Bot API of the tests, two people
at a table of ``draw``; the person to move presses the first tile of their hand. A
``sitecustomize`` wraps ``TelegramBot.on_press`` in the program: while the press is
handled and its effects delivered (``delivery.idle()``), a profile hook notes every call
into the project's own packages (bot, engine, storage, render, lang) made by that press's
task, the delivery's workers, or the threads they start. Other tasks meanwhile (polling,
the timer loop) are left out.

    .venv/bin/python bench/press_path.py            # prints the figures, and the files
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import textwrap
from pathlib import Path

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

ROOT = Path(__file__).resolve().parent.parent

try:  # the tests' layout since issue 30, and before
    from tests.doors.telegram.driver import BotProcess, Table, buttons
    from tests.doors.telegram.fake_api import FakeTelegram
except ImportError:  # pragma: no cover - the layout before issue 30
    from tests.telegram.driver import BotProcess, Table, buttons  # type: ignore[no-redef]
    from tests.telegram.fake_api import FakeTelegram  # type: ignore[no-redef]

TRACER = textwrap.dedent(
    """
    import asyncio, json, os, sys, threading

    OUT, ROOT = os.environ["DOMINO_TRACE_PRESS"], os.environ["DOMINO_TRACE_ROOT"]
    PACKAGES = tuple(os.path.join(ROOT, p) + os.sep for p in
                     ("bot", "engine", "storage", "render", "lang"))

    def install():
        try:
            from bot.doors.telegram import app
        except ImportError:
            from bot.telegram import app
        original = app.TelegramBot.on_press

        async def traced(self, update, context):
            query = update.callback_query
            data = query.data if query is not None else ""
            if not (data.startswith("m|") or "|play " in data):
                return await original(self, update, context)
            press = asyncio.current_task()
            calls = {}
            workers = set()

            def ours():
                try:
                    task = asyncio.current_task()
                except RuntimeError:
                    return True  # a thread the press started (a picture drawn)
                if task is None:
                    return True
                if task is press:
                    return True
                coro = task.get_coro()
                return "_drain" in getattr(coro, "__qualname__", "")

            def profile(frame, event, arg):
                if event != "call":
                    return
                name = frame.f_code.co_filename
                if name.startswith(PACKAGES) and ours():
                    key = os.path.relpath(name, ROOT) + ":" + frame.f_code.co_name
                    # who called it: the nearest caller in the project (a crossing from
                    # one layer to another is a caller and a callee in two)
                    back = frame.f_back
                    while back is not None and not back.f_code.co_filename.startswith(PACKAGES):
                        back = back.f_back
                    caller = os.path.relpath(back.f_code.co_filename, ROOT) if back else "-"
                    edge = key + " <- " + caller
                    calls[edge] = calls.get(edge, 0) + 1

            threading.setprofile(profile)
            sys.setprofile(profile)
            try:
                await original(self, update, context)
                await self.delivery.idle()
            finally:
                sys.setprofile(None)
                threading.setprofile(None)
            with open(OUT, "w") as out:
                json.dump(calls, out)

        app.TelegramBot.on_press = traced

    install()
    """
)


async def trace(home: Path) -> dict[str, int]:
    """The calls of one press, as the program's tracer wrote them."""
    (home / "site").mkdir()
    (home / "site" / "sitecustomize.py").write_text(TRACER)
    out = home / "press.json"
    env = {
        "PYTHONPATH": f"{home / 'site'}:{ROOT}",
        "DOMINO_TRACE_PRESS": str(out),
        "DOMINO_TRACE_ROOT": str(ROOT),
        "LOG_LEVEL": "WARNING",
    }
    async with FakeTelegram() as tg:
        tg.group(-1001234567890, "Casa")
        process = BotProcess(tg, home, **env)
        await process.polling()
        try:
            table = Table(tg)
            table.person("Ana", 701)
            table.person("Beto", 702)
            await table.start_game("/new draw")
            for name, user in table.people.items():
                if not [m for m in tg.sent_to(user["id"]) if m.get("photo")]:
                    continue
                hands = [m for m in tg.sent_to(user["id"]) if m.get("photo")]
                plays = [d for d in buttons(hands[-1]) if d.startswith("m|") or "|play " in d]
                if plays:
                    await table.press(name, hands[-1], plays[0])
                    break
            await tg.wait_for(out.exists, timeout=30, what="the trace of the press")
        finally:
            await process.stop()
    calls: dict[str, int] = json.loads(out.read_text())
    return calls


def layer(path: str) -> str:
    """bot/core, bot/doors (bot/ before issue 30: its doors by name), engine, storage..."""
    parts = path.split("/")
    if parts[0] != "bot":
        return parts[0]
    if parts[1] in ("core", "doors"):
        return "/".join(parts[:2])
    doors = ("telegram", "discord", "console.py", "delivery.py", "outbox.py", "buttons.py",
             "pictures.py", "turn_calls.py", "timer_loop.py")  # fmt: skip
    return "bot/doors" if parts[1] in doors else "bot/core"


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        edges = asyncio.run(trace(Path(home)))
    calls: dict[str, int] = {}
    for edge, count in edges.items():
        callee = edge.split(" <- ", 1)[0]
        calls[callee] = calls.get(callee, 0) + count
    # the doors asking the core while they deliver: calls from bot/doors into bot/core
    # made by the delivery (the press's own handle excepted)
    asked = sorted(
        (edge, n)
        for edge, n in edges.items()
        if layer(edge.split(" <- ")[1]) == "bot/doors"
        and layer(edge.split(":", 1)[0]) == "bot/core"
    )
    wanted = (
        "engine/views.py:view_of",  # a view built (the room's or a seat's)
        "engine/moves.py:parse",  # a move read whole, in its notation
        "engine/moves.py:parse_action",  # a move read from words
        "engine/resolve.py:resolve",  # typed words matched to a legal move
        "engine/resolve.py:confirm",  # a move given whole confirmed legal
        "engine/rules.py:from_record",  # a stored game's rules parsed
    )
    counted = {f.split(":")[1]: calls.get(f, 0) for f in wanted}
    files = sorted({key.split(":", 1)[0] for key in calls})
    by_layer: dict[str, set[str]] = {}
    for name in files:
        by_layer.setdefault(layer(name), set()).add(name)
    print(
        f"one press: {len(files)} files, {len(calls)} functions, "
        f"{sum(calls.values())} calls into the project"
    )
    for group, names in sorted(by_layer.items()):
        print(f"  {group}: {len(names)} files")
    print("calls of: " + ", ".join(f"{f} {n}" for f, n in counted.items()))
    print(f"the doors calling into the core ({sum(n for _, n in asked)} calls):")
    for edge, n in asked:
        print(f"  {edge} x{n}")
    for name in files:
        print(f"    {name}")


if __name__ == "__main__":
    main()
