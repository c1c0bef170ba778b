"""``python -m engine``: simulate and demo (replay is covered with the scripted records)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.__main__ import main


def test_simulate_prints_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--preset", "draw", "--players", "3", "--games", "3", "--seed", "1"])
    stats = json.loads(capsys.readouterr().out)
    assert code == 0
    assert stats["games"] == 3 and sum(stats["game_wins"]) == 3
    assert stats["hands"] == sum(stats["results"].values())
    assert stats["hands_per_second"] > 0


def test_simulate_takes_one_player_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    seats = "greedy,random,greedy,random"
    assert main(["simulate", "--hands", "20", "--seats", seats]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["seats"] == seats.split(",")
    assert sum(stats["teams"].values()) + stats["hand_ties"] == 20


def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for _ in range(2):
        main(["simulate", "--preset", "fido12", "--players", "5", "--hands", "5", "--seed", "7"])
        stats = json.loads(capsys.readouterr().out)
        outputs.append((stats["points"], stats["moves"]))
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "--hands", "3", "--players", "3"], "4 players"),
        (["simulate", "--hands", "3", "--seats", "random,genius,random,random"], "genius"),
        (["simulate", "--hands", "3", "--option", "target=0"], "target"),
        (["simulate", "--hands", "3", "--option", "target"], "name=value"),
    ],
)
def test_simulate_errors_are_one_line(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err


def test_demo_plays_a_whole_game() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "engine", "demo", "--seed", "5"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "Hand 1" in run.stdout and "win the game" in run.stdout


def test_simulate_mexican_train_with_eight_players(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--preset", "mexican_train", "--players", "8", "--hands", "3"]
    assert main(args) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["hands"] == 3 and len(stats["points"]) == 8
