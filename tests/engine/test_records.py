"""Scripted game records (tests/data/records/*.json) replayed and compared with their
expected summary, or with the error they must be refused with (RECORD.md).

Each case file is ``{"about", "record", "expect"}`` or ``{"about", "record",
"expect_error"}``; ``expect`` is a subset of the replay summary and every key it gives
must match exactly. A case marked ``known_bug`` is an engine bug written with the right
expectation: it is a strict xfail, so fixing the bug turns it into a failure to unmark.
tests/data/build_records.py writes the files (see its docstring).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.errors import DominoError
from engine.record import load, summary

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"
FILES = sorted(RECORDS.glob("*.json"))
ROOT = Path(__file__).resolve().parents[2]

# A few cases that also go through the real command line.
CLI_OK = ["partnership_game_to_100", "fido18_seed004_12_8_scores_4"]
CLI_REFUSED = [
    "error_move_pass_while_able",
    "error_record_not_object",
    "partnership_redeal_doubles_5_deal_refused",
]


def read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def params() -> list[Any]:
    out = []
    for path in FILES:
        bug = read(path).get("known_bug")
        marks = [pytest.mark.xfail(reason=bug, strict=True)] if bug else []
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


def test_there_are_records() -> None:
    assert len(FILES) >= 50


def mismatches(want: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """Every key of ``want`` (hands: every key of every hand given) that ``got`` differs on."""
    out = []
    for key, value in want.items():
        if key != "hands":
            if got[key] != value:
                out.append(f"{key}: expected {value!r}, got {got[key]!r}")
            continue
        if len(got["hands"]) != len(value):
            out.append(f"hands: expected {len(value)}, got {len(got['hands'])}")
        for i, (w, g) in enumerate(zip(value, got["hands"], strict=False)):
            out += [
                f"hands[{i}].{k}: expected {v!r}, got {g[k]!r}" for k, v in w.items() if g[k] != v
            ]
    return out


@pytest.mark.parametrize("path", params())
def test_record(path: Path) -> None:
    case = read(path)
    assert case["about"]
    if "expect_error" in case:
        with pytest.raises(DominoError) as error:
            load(case["record"])
        assert case["expect_error"] in str(error.value)
        return
    got = summary(load(case["record"]))
    problems = mismatches(case["expect"], got)
    assert not problems, "\n".join(problems)


def replay(tmp_path: Path, name: str) -> subprocess.CompletedProcess[str]:
    record = tmp_path / f"{name}.json"
    record.write_text(json.dumps(read(RECORDS / f"{name}.json")["record"]), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(record)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("name", CLI_OK)
def test_cli_replay_prints_the_summary(tmp_path: Path, name: str) -> None:
    done = replay(tmp_path, name)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    got = json.loads(done.stdout)
    assert not mismatches(read(RECORDS / f"{name}.json")["expect"], got)


@pytest.mark.parametrize("name", CLI_REFUSED)
def test_cli_replay_refuses_with_one_line(tmp_path: Path, name: str) -> None:
    done = replay(tmp_path, name)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert read(RECORDS / f"{name}.json")["expect_error"] in lines[0]
