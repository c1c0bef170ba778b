"""A record's table after move K as the bot posts it after issue 21: 1:30 left to the
seat to move, names without the computer's strength, the strength as a tag and a note
per seat ("pasa", "roba 3", "+10"). At a commit before issue 21 (no ``tags`` field) the
names are passed whole, as the bot passed them then.

Usage: ``python tests/data/pictures/issue21_timer.py RECORD OUT.png K`` (run with the
checkout to draw with first on PYTHONPATH; tests/data/pictures/issue21.sh does).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

from engine.record import load
from engine.views import view_of
from render.__main__ import until_move
from render.board import Table, draw_board

NOTES = ("", "pasa", "roba 3", "+10")


def main(record: str, out: str, move: int) -> None:
    with open(record, encoding="utf-8") as file:
        data = until_move(json.load(file), move)
    game = load(data)
    names = tuple(data["players"])
    fields: dict[str, Any] = {"names": names}
    if "tags" in {f.name for f in dataclasses.fields(Table)}:
        fields["names"] = tuple(n.split(" (")[0] for n in names)
        fields["tags"] = tuple(n.split(" (")[1].rstrip(")") if " (" in n else "" for n in names)
        fields["notes"] = tuple(NOTES[s % len(NOTES)] for s in range(len(names)))
    clock = 90 if game.to_move is not None else None
    image = draw_board(view_of(game), Table(turn_seconds=clock, **fields))
    image.save(out, format="PNG")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
