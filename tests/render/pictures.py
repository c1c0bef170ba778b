"""Reference pictures: fixed records drawn and kept as PNGs (tests/data/pictures/, and
docs/pictures/ so a reader sees what the bot posts).

``python -m tests.render.pictures --write`` draws them again on purpose (after a change to
the pictures); ``--records`` first plays the fixed records again (after a change to the
players). The test compares within a small tolerance and never rewrites anything.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from engine.game import Game
from engine.players import make_player
from engine.record import export, load
from engine.rules import Rules
from engine.simulate import play_hand
from engine.views import view_of
from render.__main__ import until_move
from render.board import Table, draw_board

HERE = Path(__file__).resolve().parents[1] / "data" / "pictures"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "pictures"
NAMES = ["Ana", "Beto", "Carla", "Diego", "Eva", "Fran", "Gabi", "Hugo"]


@dataclass(frozen=True)
class Case:
    name: str
    record: str  # file in tests/data/pictures
    move: int | None = None
    seat: int | None = None
    options: dict[str, Any] = field(default_factory=dict)  # Table options


RECORDS: dict[str, tuple[str, int, dict[str, Any]]] = {
    "partnership": ("partnership", 4, {}),
    "draw9": ("draw", 2, {"set": 9}),
    "all_fives": ("all_fives", 3, {}),
    "fido18": ("fido18", 4, {}),
    "mexican8": ("mexican_train", 8, {}),
}

CASES = [
    Case("partnership-end", "partnership"),
    Case("partnership-seat", "partnership", move=9, seat=1),
    Case("draw9-end", "draw9", options={"lang": "en"}),
    Case("all_fives-dark", "all_fives", move=8, options={"theme": "dark"}),
    Case("fido18-end", "fido18", options={"lang": "pt"}),
    Case("mexican8-end", "mexican8"),
    Case("partnership-contrast", "partnership", move=14, options={"theme": "contrast"}),
    Case("fido18-numerals", "fido18", move=20, seat=2, options={"numerals": True}),
]


def record_data(name: str) -> dict[str, Any]:
    return json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))


def picture(case: Case) -> Image.Image:
    data = record_data(case.record)
    if case.move is not None:
        data = until_move(data, case.move)
    game = load(data)
    seat = case.seat
    if seat is not None and game.to_move is not None:
        seat = game.to_move  # the seat to move: its hand shows its move keys
    table = Table(tuple(data["players"]), **case.options)
    return draw_board(view_of(game, seat), table)


def play_records() -> None:
    for name, (preset, players, options) in RECORDS.items():
        game = Game(Rules.from_preset(preset, **options), players)
        play_hand(game, [make_player("normal", seed=s) for s in range(players)], 7)
        text = json.dumps(export(game, NAMES[:players]), indent=1)
        (HERE / f"{name}.json").write_text(text + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="draw the reference pictures")
    parser.add_argument("--records", action="store_true", help="play the records again first")
    args = parser.parse_args(argv)
    if args.records:
        play_records()
    if not args.write:
        parser.print_help()
        return 0
    DOCS.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        path = HERE / f"{case.name}.png"
        picture(case).save(path, format="PNG")
        shutil.copyfile(path, DOCS / path.name)
        print(path.relative_to(HERE.parents[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
