"""The four computers after 13 moves as the bot posts it: 1:30 left to move, 15 tiles
would not fit a partnership panel, so the seat to move holds its count next to the timer."""
import json, sys
from engine.record import load
from engine.views import view_of
from render.__main__ import until_move
from render.board import Table, draw_board
data = until_move(json.load(open(sys.argv[1], encoding="utf-8")), int(sys.argv[3]))
game = load(data)
names = tuple(data["players"])
fields = {}
import dataclasses
known = {f.name for f in dataclasses.fields(Table)}
if "tags" in known:  # after issue 21: names apart from strengths, notes
    fields["names"] = tuple(n.split(" (")[0] for n in names)
    fields["tags"] = tuple(n.split(" (")[1].rstrip(")") if " (" in n else "" for n in names)
    fields["notes"] = tuple(["", "pasa", "roba 3", "+10"][s % 4] for s in range(len(names)))
else:
    fields["names"] = names
image = draw_board(view_of(game), Table(turn_seconds=90, **fields))
image.save(sys.argv[2], format="PNG")
