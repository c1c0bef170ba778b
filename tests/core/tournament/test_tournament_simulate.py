"""``python -m bot.tournament simulate``: whole tournaments of computer players through the
real service, checked against what the issue promises of each format."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from bot.core.simulator import Plan, Simulator
from bot.tournament.__main__ import main
from storage.store import Store


def simulate(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["simulate", *args, "--json", "--hand-minutes", "6"]) == 0
    return json.loads(capsys.readouterr().out)


def adds_up(result: dict[str, Any]) -> None:
    """Points for equal points against; wins equal decided tables plus byes."""
    standings = result["standings"]
    assert sum(s["points_for"] for s in standings) == sum(s["points_against"] for s in standings)
    tables = [t for r in result["rounds"] for t in r["tables"]]
    byes = sum(len(r["byes"]) for r in result["rounds"])
    decided = sum(1 for t in tables if t["winner"] is not None)
    solo = "players" in result
    per_table = 2 if solo else 1  # in individual events both partners win the table
    assert sum(s["won"] for s in standings) == decided * per_table + byes
    for t in tables:
        assert t["ended_by"] in ("target", "clock", "forfeit")
        assert t["winner"] in (*t["teams"], None)


def test_swiss_pairs_nobody_twice_and_gives_byes_to_different_teams(capsys) -> None:
    result = simulate(capsys, "--teams", "7", "--rounds", "3", "--format", "swiss")
    assert result["format"] == "swiss" and len(result["teams"]) == 7
    assert [r["round"] for r in result["rounds"]] == [1, 2, 3]
    met = [frozenset(t["teams"]) for r in result["rounds"] for t in r["tables"]]
    assert len(met) == len(set(met)), "a pair of teams met twice"
    byes = [b for r in result["rounds"] for b in r["byes"]]
    assert len(byes) == 3 and len(set(byes)) == 3
    for r in result["rounds"]:  # everyone plays or rests once a round
        seated = [team for t in r["tables"] for team in t["teams"]] + r["byes"]
        assert sorted(seated) == sorted(result["teams"])
    adds_up(result)
    assert {t["ended_by"] for r in result["rounds"] for t in r["tables"]} & {"target", "clock"}


def test_round_robin_everyone_meets_everyone_once(capsys) -> None:
    result = simulate(capsys, "--teams", "5", "--rounds", "5", "--format", "round_robin",
                      "--minutes", "30")  # fmt: skip
    met = Counter(frozenset(t["teams"]) for r in result["rounds"] for t in r["tables"])
    assert set(met) == {frozenset(p) for p in combinations(result["teams"], 2)}
    assert set(met.values()) == {1}
    adds_up(result)


def test_rotating_partners_never_repeat(capsys) -> None:
    result = simulate(capsys, "--teams", "8", "--rounds", "3", "--format", "rotating",
                      "--minutes", "20", "--target", "100")  # fmt: skip
    assert len(result["players"]) == 8
    partners = [
        frozenset(side.split(" / "))
        for r in result["rounds"]
        for t in r["tables"]
        for side in t["teams"]
    ]
    assert len(partners) == len(set(partners)), "a partner repeated"
    adds_up(result)


@pytest.mark.parametrize(
    "args",
    [
        ["--teams", "1", "--rounds", "3"],
        ["--teams", "8", "--rounds", "0"],
        ["--teams", "8", "--rounds", "3", "--format", "knockout"],
        ["--teams", "8", "--rounds", "3", "--preset", "chess"],
        ["--teams", "x", "--rounds", "3"],
        ["--rounds", "3"],
    ],
)
def test_bad_arguments_are_one_line_and_status_2(args: list[str]) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bot.tournament", "simulate", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2, run
    assert run.stdout == "" and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert "Traceback" not in run.stderr


def test_tables_that_end_the_moment_they_open_do_not_hang() -> None:
    """Computers to 5 points: a table's game ends inside the command that opened it, whose
    tournament lock the game's end takes again (a lock the task holds is taken again)."""
    run = subprocess.run(
        [sys.executable, "-m", "bot.tournament", "simulate", "--teams", "4", "--rounds", "2",
         "--target", "5", "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    tables = [t for r in result["rounds"] for t in r["tables"]]
    assert len(tables) == 4 and all(t["ended_by"] == "target" for t in tables)


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_rotating_with_four_to_seven_players_ends_and_adds_up(capsys, players: int) -> None:
    """Issue 33, 13: rotating partners with 4-7 players (one table, the rest rest)."""
    result = simulate(capsys, "--teams", str(players), "--rounds", "3", "--format", "rotating")
    assert [r["round"] for r in result["rounds"]] == [1, 2, 3]
    for r in result["rounds"]:  # everyone plays or rests once a round
        seated = [p for t in r["tables"] for side in t["teams"] for p in side.split(" / ")]
        assert sorted(seated + r["byes"]) == sorted(result["players"])
    for s in result["standings"]:
        assert s["won"] <= s["played"] + s["byes"]
    adds_up(result)


def test_the_standings_print_as_a_table_with_the_players_names(capsys) -> None:
    """Not a Python dict, and a computer entered alone is named as its entry
    ("Player 2", not "Player 2 1")."""
    assert main(["simulate", "--teams", "5", "--rounds", "2", "--format", "rotating"]) == 0
    out = capsys.readouterr().out
    assert not any(mark in out for mark in ("{", "}", "'")), out
    assert not re.search(r"Player \d+ \d", out), out
    lines = out.splitlines()
    head = lines.index("Standings (a bye counts as a game won)")
    header = lines[head + 1].split()
    assert header[:9] == ["#", "Player", "Played", "Won", "Byes", "For", "Against", "Pen.", "Diff."]
    rows = [line.split() for line in lines[head + 2 :]]
    assert [row[0] for row in rows] == ["1", "2", "3", "4", "5"]
    for row in rows:  # place, "Player", number, then one figure a column
        assert row[1] == "Player" and all(x.lstrip("-").isdigit() for x in row[2:])
        played, won, byes = (int(x) for x in row[3:6])
        assert played == 2 and byes <= 1 and won <= played


async def test_a_computer_alone_in_its_entry_is_named_as_the_entry() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(f"sqlite:///{Path(tmp) / 'sim.sqlite3'}")
        try:
            event = await Simulator(Plan(teams=4, rounds=1, format="rotating"), store).run()
            assert [[m.name for m in e.members] for e in event.entries] == [
                [f"Player {n}"] for n in range(1, 5)
            ]
            pairs = await Simulator(Plan(teams=2, rounds=1), store).run()
            assert [m.name for m in pairs.entries[0].members] == ["Team 1 A", "Team 1 B"]
        finally:
            await store.close()
