"""Stepping away from a console game (issue 33, 3): the console's turns have no timer
unless the room asks for one (``/settings turn_timeout 60``), and a person a computer
sat in for comes back with ``/join`` and plays the game to its end."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

from bot.core import Place, Posts, texts
from bot.doors.console import Console
from bot.doors.console.app import PLACE_ID
from lang import tr
from storage.store import Store
from tests.core.driver import Clock
from tests.doors.test_console import MOVE, ConsoleProcess
from tests.doors.test_console_hot_seat import CALLED, OVER, HotSeat, Recording

TO_PLAY = re.compile(r"^To play: (\S+)$", re.M)


async def turn_timers(home: Path) -> set[str]:
    """The timers pending in the console's room, by kind (the program stopped)."""
    store = await Store.open(f"sqlite:///{home / 'db.sqlite3'}")
    try:
        room = await Posts(store).room_id(Place(*PLACE_ID))
        return {t.kind for t in await store.timers.pending(room)}
    finally:
        await store.close()


async def test_the_consoles_turns_have_a_timer_only_when_asked(tmp_path: Path) -> None:
    console = await ConsoleProcess.start(tmp_path)
    await console.type("/new draw")
    await console.type("/add_ai")
    begun = await console.type("/begin")
    assert "Ana, your turn." in begun, begun
    await console.quit()
    kinds = await turn_timers(tmp_path)
    assert not {"turn", "warning", "idle"} & kinds, kinds
    again = await ConsoleProcess.start(tmp_path)
    await again.type("/cancel")
    said = await again.type("/settings turn_timeout 60")
    assert tr("en", texts.SETTINGS_CHANGED["turn_timeout"], value=60) in said
    await again.type("/new draw")
    await again.type("/add_ai")
    assert "Ana, your turn (60 s)." in await again.type("/begin")
    await again.quit()
    assert {"turn", "warning"} <= await turn_timers(tmp_path)


async def test_a_person_a_computer_sat_in_for_joins_back_and_the_game_ends(
    tmp_path: Path,
) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        clock = Clock()
        service = Recording(store, clock)
        out = io.StringIO()
        (tmp_path / "pics").mkdir()
        console = Console(service, Posts(store), out, tmp_path / "pics", "Ana", "en")
        seat = HotSeat(console, service, clock, out)
        await seat.step("/settings turn_timeout 60")
        await seat.step("/new draw 30")
        await seat.step("/as Beto")
        await seat.step("/join")
        await seat.step("/as Ana")
        chunk = await seat.step("/begin")
        taken = tr("en", texts.TAKEN_OVER, name="Beto")
        away, back, rng = False, False, random.Random(3)
        for _ in range(300):
            if OVER in chunk:
                break
            called = CALLED.findall(chunk)
            moves = [m.group(1) for m in map(MOVE.search, chunk.splitlines()) if m]
            if taken in chunk:  # Beto stepped away: a computer plays for him
                away = True
            if away and not back and called != ["Beto"]:  # he comes back
                await seat.step("/as Beto")
                chunk = await seat.step("/join")
                assert tr("en", texts.BACK, name="Beto") in chunk, chunk
                back = True
            elif called == ["Beto"] and not away:  # Beto is not at the screen: time goes on
                chunk = await seat.step(None)
            elif called:
                await seat.step(f"/as {called[-1]}")
                chunk = await seat.step("/hand")
            elif moves:
                chunk = await seat.step(rng.choice(moves))
            else:  # whose turn is it? (a timer runs: the clock goes on between hands only)
                mover = TO_PLAY.search(await seat.step("/board"))
                if mover and mover.group(1) in ("Ana", "Beto"):
                    await seat.step(f"/as {mover.group(1)}")
                    chunk = await seat.step("/hand")
                if not mover or not any(map(MOVE.search, chunk.splitlines())):
                    chunk = await seat.step(None)
        shown = out.getvalue()
        assert away and back, shown[-3000:]
        assert tr("en", texts.NOBODY_LEFT) not in shown
        assert OVER in shown and " wins!" in shown, shown[-3000:]
        assert shown.count(tr("en", texts.BACK, name="Beto")) == 1
        assert seat.shown.get("Beto"), "Beto played again"
    finally:
        await store.close()
