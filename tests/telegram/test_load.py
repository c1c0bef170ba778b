"""A short load through the real program with every fault of tests/telegram/faults.py
injected in turn (bench/load.py runs the long one): games at once, moves pressed at a
steady rate; the bot killed and started again, the database away, a 429 storm, a slow
Telegram. Every press answered; every press answered as played is in the database;
nothing logged twice; no error logged; no group sent more than Telegram's 20 messages a
minute; and presses are played again once each fault is over. On PostgreSQL when
TEST_DATABASE_URL names one, else on an SQLite file."""

from __future__ import annotations

from pathlib import Path

from tests.storage.conftest import one_database
from tests.telegram.faults import all_faults
from tests.telegram.load import run_load


async def test_a_short_load_with_faults(tmp_path: Path) -> None:
    database = await one_database(tmp_path)
    sqlite = database.startswith("sqlite")
    # SQLite waits 10 s for a lock before "try again": the lock must outlast that
    faults = all_faults(start=2, spacing=14 if sqlite else 10, database_lasts=12 if sqlite else 4)
    report = await run_load(
        tmp_path, games=20, rate=4, seconds=faults[-1].at + 12, faults=faults, database=database
    )
    lines = report.lines()
    print("\n".join(lines))
    assert len(report.presses) >= 60, lines
    assert report.unanswered == 0, lines
    assert not report.lost and not report.doubled, (report.lost, report.doubled)
    assert report.errors_logged == 0 and report.failed_calls == 0, lines
    assert report.group_peak_per_minute <= 20, lines
    database_window = report.windows[1]
    assert any("database is not answering" in (p.popup or "") for p in database_window.presses)
    for fault in faults:  # the games go on after each fault
        after = [p for p in report.presses if p.at - report.started > fault.at + fault.lasts + 2]
        assert any(p.answered and not p.popup for p in after), (fault.name, lines)
