"""A short load through the real program (bench/load.py runs the long one): games at
once, moves pressed at a steady rate; every press answered, none refused, nothing
logged as an error, and no group sent more than Telegram's 20 messages a minute."""

from __future__ import annotations

from pathlib import Path

from tests.telegram.load import run_load


async def test_a_short_load(tmp_path: Path) -> None:
    report = await run_load(tmp_path, games=20, rate=4, seconds=8)
    print("\n".join(report.lines()))
    assert report.presses >= 20
    assert report.unanswered == 0 and report.refused == 0, report.lines()
    assert report.errors_logged == 0 and report.failed_calls == 0, report.lines()
    assert report.group_peak_per_minute <= 20, report.lines()
