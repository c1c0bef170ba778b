"""``python -m render``: draws a record's table, and refuses bad input with one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from render.__main__ import main
from tests.render.pictures import HERE

RECORD = str(HERE / "partnership.json")


def test_it_draws_the_end_and_any_move_as_the_room_or_a_seat(tmp_path: Path) -> None:
    sizes = []
    for extra in ([], ["--move", "0"], ["--move", "7", "--seat", "2"], ["--move", "999"]):
        out = tmp_path / "board.png"
        assert main([RECORD, "--out", str(out), *extra]) == 0
        with Image.open(out) as image:
            sizes.append(image.size)
    assert sizes[0] == sizes[3]  # past the last move: the end
    assert sizes[2][1] > sizes[1][1]  # a seat's view adds its hand


@pytest.mark.parametrize(
    "args, says",
    [
        (["missing.json"], "cannot read"),
        (["--move", "-1"], "--move"),
        (["--seat", "4"], "--seat"),
    ],
)
def test_bad_input_gets_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    record = args[0] if args[0].endswith(".json") else RECORD
    rest = args[1:] if args[0].endswith(".json") else args
    assert main([record, "--out", str(tmp_path / "x.png"), *rest]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and err.count("\n") == 1


def test_a_corrupt_record_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    players = '["a", "b", "c", "d"]'
    bad.write_text(f'{{"players": {players}, "hands": [{{"moves": ["x"]}}]}}')
    assert main([str(bad), "--out", str(tmp_path / "x.png")]) == 2
    assert "hand 0" in capsys.readouterr().err
    bad.write_text("{not json")
    assert main([str(bad), "--out", str(tmp_path / "x.png")]) == 2
