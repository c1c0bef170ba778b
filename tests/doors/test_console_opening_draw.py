"""The opening draw in the console (issue 31, item 4), the real program: a tournament
game's first hand tells the room who drew which tile and who opens, and the text board
(/board) says it too while the hand's first turns are played."""

from __future__ import annotations

import re
from pathlib import Path

from engine.tiles import RANK, Tile
from tests.doors.test_console import ConsoleProcess

DRAW = re.compile(r"Opening draw: (.+?)\. (.+?) drew the highest tile and opens\.")
TIE = re.compile(r"Opening draw: (.+?)\. \S+ and \S+ have as many pips; .* so (.+?) opens\.")


async def test_the_console_shows_the_opening_draw(tmp_path: Path) -> None:
    console = await ConsoleProcess.start(tmp_path)
    await console.type("/new tournament_pr")
    for _ in range(3):
        await console.type("/add_ai")
    shown = await console.type("/begin")
    found = DRAW.search(shown) or TIE.search(shown)
    assert found, shown
    pairs = [part.rsplit(" ", 1) for part in found.group(1).split(", ")]
    assert len(pairs) == 4
    drawn = {name: Tile.parse(tile) for name, tile in pairs}
    highest = max(drawn, key=lambda name: RANK[drawn[name]])
    assert found.group(2) == highest
    await console.quit()
