"""A short load through the real program with every fault of tests/doors/telegram/faults.py
injected in turn (bench/load.py runs the long one): games at once, moves pressed at a
steady rate; the bot killed and started again, the database away, a 429 storm, a slow
Telegram. Every press answered; every press answered as played is in the database;
nothing logged twice; no error logged; no group sent more than Telegram's 20 messages a
minute; and presses are played again once each fault is over. On PostgreSQL when
TEST_DATABASE_URL names one, else on an SQLite file. The thousand-game run is marked
slow: make bench runs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.doors.telegram.faults import all_faults
from tests.doors.telegram.load import broken, run_load
from tests.storage.conftest import one_database


async def test_a_short_load_with_faults(tmp_path: Path) -> None:
    database = await one_database(tmp_path)
    sqlite = database.startswith("sqlite")
    # SQLite waits 10 s for a lock before "try again": the lock must outlast that
    faults = all_faults(start=2, spacing=14 if sqlite else 10, database_lasts=12 if sqlite else 4)
    last = faults[-1]
    # the games must be seen going on after the last fault: 8 s of presses once it settled
    seconds = last.at + last.lasts + last.settle + 8
    report = await run_load(
        tmp_path, games=20, rate=4, seconds=seconds, faults=faults, database=database
    )
    lines = report.lines()
    print("\n".join(lines))
    assert len(report.presses) >= 60, lines
    assert not broken(report, faults), (broken(report, faults), lines)
    database_window = report.windows[1]
    assert any("database is not answering" in (p.popup or "") for p in database_window.presses)


@pytest.mark.slow
async def test_a_thousand_games_with_faults(tmp_path: Path) -> None:
    """make bench: bench/load.py's run, as a test."""
    database = await one_database(tmp_path)
    faults = all_faults(start=10, spacing=30, database_lasts=12 if "sqlite" in database else 5)
    report = await run_load(
        tmp_path, games=1000, rate=8, seconds=faults[-1].at + 30, faults=faults, database=database
    )
    lines = report.lines()
    print("\n".join(lines))
    assert not broken(report, faults), (broken(report, faults), lines)
