"""The geometry a picture reports (render/measure.py, ``python -m render --geometry``),
checked over random hands of every family: what a player sees never collides.

Promises (issue 21, docs/pictures.md): tiles never overlap each other or any text; texts
never overlap each other; touching tiles show the same number where they touch; every
played tile is drawn exactly once; the badges of a divisor table add up to its count;
every player's name is drawn whole or in its short form (render/names.py).
Pixel boxes are rounded to whole pixels; a tile's face may reach one pixel into the
tile it was laid against (the unit is not a whole number of pixels), so overlaps of a
pixel or less are rounding, not collisions.
"""

from __future__ import annotations

import json
import random
import re
from itertools import combinations
from typing import Any

import pytest

from engine.game import Game
from engine.players import RandomPlayer
from engine.rules import Rules
from engine.simulate import play_hand
from engine.views import view_of
from render.__main__ import main
from render.board import Table, draw_board
from render.measure import Measure

ROUNDING = 1.0  # pixels


def _overlap(a: dict[str, Any], b: dict[str, Any], slack: float = ROUNDING) -> bool:
    return (
        a["x"] < b["x"] + b["w"] - slack
        and b["x"] < a["x"] + a["w"] - slack
        and a["y"] < b["y"] + b["h"] - slack
        and b["y"] < a["y"] + a["h"] - slack
    )


def _halves(t: dict[str, Any]) -> list[tuple[dict[str, float], int]]:
    first, second = (int(n) for n in t["tile"].split("-"))
    x, y, w, h = t["x"], t["y"], t["w"], t["h"]
    if w >= h:
        return [
            ({"x": x, "y": y, "w": w / 2, "h": h}, first),
            ({"x": x + w / 2, "y": y, "w": w / 2, "h": h}, second),
        ]
    return [
        ({"x": x, "y": y, "w": w, "h": h / 2}, first),
        ({"x": x, "y": y + h / 2, "w": w, "h": h / 2}, second),
    ]


def _touch(a: dict[str, float], b: dict[str, float]) -> bool:
    """The two boxes meet along a stretch of edge (within rounding)."""

    def along(p: float, q: float, r: float, s: float) -> float:
        return min(q, s) - max(p, r)

    ax1, ay1, bx1, by1 = a["x"] + a["w"], a["y"] + a["h"], b["x"] + b["w"], b["y"] + b["h"]
    side = min(abs(ax1 - b["x"]), abs(bx1 - a["x"])) <= 2 and along(a["y"], ay1, b["y"], by1) > 3
    stack = min(abs(ay1 - b["y"]), abs(by1 - a["y"])) <= 2 and along(a["x"], ax1, b["x"], bx1) > 3
    return side or stack


def _short_form_of(text: str, name: str) -> bool:
    """``text`` is ``name`` or a documented short form of it: its start, an ellipsis, and
    parts of the name that follow in order (render/names.py); words in brackets at the
    end of a name ("(difícil)") may be left out, the strength being drawn as a tag."""
    text = text.replace("\n", " ")  # a name on two lines in a narrow panel
    if text == name.replace("\n", " "):
        return True
    name = re.sub(r"\s+\([^()]*\)$", "", name)
    if text == name or text.startswith(name + " "):
        return True
    if "…" not in text:
        return False
    parts = [p.strip() for p in text.split("…")]
    if not parts[0] or not name.startswith(parts[0]):
        return False
    at = len(parts[0])
    for part in parts[1:]:
        if not part:
            continue
        found = name.find(part.split("  ")[0], at)
        if found < 0:
            return False
        at = found + 1
    return True


def played(view: Any) -> list[str]:
    """The tiles on the table, low end first: a line's placements, or Mexican Train's
    engine and trains."""
    tiles = [p.tile for p in view.placements]
    if view.trains:
        tiles = [*([view.engine] if view.engine is not None else [])]
        tiles += [t for train in view.trains for t in train.tiles]
    return ["-".join(sorted(str(t).split("-"), key=int)) for t in tiles]


def check(geometry: dict[str, Any], placements: list[str], names: list[str]) -> None:
    tiles, texts, badges = geometry["tiles"], geometry["texts"], geometry["badges"]
    drawn = sorted("-".join(sorted(t["tile"].split("-"), key=int)) for t in tiles)
    assert drawn == sorted(placements), "every played tile appears exactly once"
    for a, b in combinations(tiles, 2):
        assert not _overlap(a, b), ("tiles overlap", a, b)
    for t in tiles:
        for s in texts:
            assert not _overlap(t, s), ("a text over a tile", t, s)
        for s in badges:
            assert not _overlap(t, s), ("a badge over a tile's pips", t, s)
    for a, b in combinations(texts, 2):
        assert not _overlap(a, b), ("texts overlap", a, b)
    for a, b in combinations(tiles, 2):
        for ha, na in _halves(a):
            for hb, nb in _halves(b):
                if _touch(ha, hb):
                    assert na == nb, ("touching tiles show different numbers", a, b)
    if geometry["count"] is not None and tiles:
        assert sum(b["value"] for b in badges) == geometry["count"], "badges add up to the count"
    for name in names:
        assert any(_short_form_of(t["text"], name) for t in texts), ("name not drawn", name)


NAMES = ["Ana", "Beto", "Carla", "Dani", "Computadora 1", "Computadora 2", "Eva", "Fede"]

CASES = [
    ("all_fives", 2, {}),
    ("all_fives", 3, {}),
    ("all_fives", 4, {}),
    ("all_fives", 4, {"set": 9}),
    ("fido12", 4, {}),
    ("fido12", 6, {}),
    ("fido18", 2, {}),
    ("all_fives", 2, {"doubles_in_line": True}),
    ("partnership", 4, {}),
    ("draw", 2, {}),
    ("draw", 3, {"set": 9}),
    ("block", 4, {}),
    ("mexican_train", 4, {}),
    ("mexican_train", 8, {}),
]


@pytest.mark.parametrize(("preset", "players", "options"), CASES)
def test_random_hands_draw_without_collisions(preset: str, players: int, options: dict) -> None:
    rules = Rules.from_preset(preset, **options)
    rng = random.Random(f"{preset}{players}{options}")
    names = NAMES[:players]
    for _ in range(12):
        game = Game(rules, players)
        seed = rng.randrange(10**6)
        play_hand(game, [RandomPlayer(seed + s) for s in range(players)], seed)
        view = view_of(game)
        measure = Measure()
        draw_board(view, Table(tuple(names), lang="es"), measure)
        check(measure.as_json(), played(view), names)


@pytest.mark.parametrize("record", ["fives-flanks", "fido12-doubles", "computers4"])
def test_every_move_of_a_record(record: str, tmp_path) -> None:
    """The records of the issue, after every move, through the command line."""
    path = f"tests/data/pictures/{record}.json"
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    moves = sum(len(h.get("moves", [])) for h in data["hands"])
    for k in range(0, moves + 1, max(1, moves // 25)):
        out = tmp_path / "g.json"
        assert main([path, "--geometry", str(out), "--move", str(k)]) == 0
        geometry = json.loads(out.read_text(encoding="utf-8"))
        from engine.record import load
        from render.__main__ import until_move

        view = view_of(load(until_move(data, k)))
        check(geometry, played(view), list(data.get("players") or []))


def test_the_issues_record_lays_the_half_beside_its_double(tmp_path) -> None:
    """6-6, 6-4 on a flank, 4-4, 4-2 on the 4-4's half: the 4-2 meets the 4-4, no line."""
    path = "tests/data/pictures/fives-flanks.json"
    out = tmp_path / "g.json"
    assert main([path, "--geometry", str(out), "--move", "4"]) == 0
    g = json.loads(out.read_text(encoding="utf-8"))
    assert g["links"] == []
    by = {"-".join(sorted(t["tile"].split("-"))): t for t in g["tiles"]}
    assert _touch(by["2-4"], by["4-4"])
    assert sum(b["value"] for b in g["badges"]) == g["count"] == 18
    assert sorted(b["value"] for b in g["badges"]) == [2, 4, 6, 6]


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("all_fives", 2),
        ("all_fives", 4),
        ("fido12", 4),
        ("fido12", 6),
    ],
)
def test_no_tile_is_drawn_apart_up_to_double_12(preset: str, players: int) -> None:
    """Up to double-12 every tile meets the tile it was laid on: no connecting lines (on
    these seeded hands; docs/pictures.md gives the rate measured on 300 hands of each)."""
    from render.line_layout import layout_line

    rng = random.Random(f"apart{preset}{players}")
    for _ in range(15):
        game = Game(Rules.from_preset(preset), players)
        seed = rng.randrange(10**6)
        play_hand(game, [RandomPlayer(seed + s) for s in range(players)], seed)
        view = view_of(game)
        assert layout_line(view.placements, (), True).links == ()
