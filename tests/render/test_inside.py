"""Nothing drawn leaves the picture (issue 33, item 8): on every preset, player count,
language, theme and seat, at any move, with long names and names with emoji, every
tile, text, badge, link, tile of the opening draw and shape (a seat's panel, a team's
total, a row of backs, a train's label and marker, the score mark) lies inside the
picture, as the geometry ``python -m render --geometry`` writes says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.players import RandomPlayer
from engine.record import export
from engine.rules import Rules
from engine.simulate import play_hand
from render.__main__ import main
from render.theme import THEMES
from render.words import LANGUAGES

PLAYERS = {
    "all_fives": (2, 3, 4),
    "block": (2, 3, 4),
    "draw": (2, 3, 4),
    "fido12": (2, 4, 6, 8),
    "fido18": (2, 4),
    "mexican_train": (2, 5, 8),
    "partnership": (4,),
}
LONG = "Jugadora número {} con un nombre larguísimo"
EMOJI = "Ana 🔥 {} 👩‍👩‍👧"


def boxes(geometry: dict[str, Any]) -> list[tuple[str, float, float, float, float]]:
    """Every thing the picture drew, as (what, left, top, right, bottom)."""
    found: list[tuple[str, float, float, float, float]] = []
    for key in ("tiles", "texts", "badges", "opening_draw", "shapes"):
        for item in geometry.get(key, []):
            what = f"{key}:{item.get('text', item.get('tile', item.get('kind', '')))}"
            x, y = item["x"], item["y"]
            found.append((what, x, y, x + item["w"], y + item["h"]))
    for link in geometry["links"]:
        xs, ys = (link["x1"], link["x2"]), (link["y1"], link["y2"])
        found.append(("link", min(xs), min(ys), max(xs), max(ys)))
    return found


def outside(geometry: dict[str, Any]) -> list[tuple[str, float, float, float, float]]:
    width, height = geometry["width"], geometry["height"]
    return [
        b
        for b in boxes(geometry)
        if b[1] < -0.5 or b[2] < -0.5 or b[3] > width + 0.5 or b[4] > height + 0.5
    ]


def geometry_of(
    path: Path, preset: str, players: int, seed: int, cut: float, extra: list[str], names: str
) -> dict[str, Any]:
    game = Game(Rules.from_preset(preset), players)
    play_hand(game, [RandomPlayer(seed + s) for s in range(players)], seed)
    record = export(game, [names.format(s) for s in range(players)])
    moves = sum(len(h.get("moves", [])) for h in record["hands"])
    (path / "r.json").write_text(json.dumps(record), encoding="utf-8")
    out = path / "g.json"
    move = ["--move", str(round(moves * cut))] if cut < 1 else []
    assert main([str(path / "r.json"), "--geometry", str(out), *move, *extra]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    game=st.sampled_from(sorted(PLAYERS)).flatmap(
        lambda p: st.tuples(st.just(p), st.sampled_from(PLAYERS[p]))
    ),
    seed=st.integers(0, 10**6),
    cut=st.sampled_from([0.0, 0.3, 0.7, 1.0]),
    lang=st.sampled_from(LANGUAGES),
    theme=st.sampled_from(sorted(THEMES)),
    seat=st.integers(-1, 7),
    names=st.sampled_from([LONG, EMOJI, "P{}"]),
)
# the board: eight trains, long names, a count badge at x 940-972 of 960
@example(("mexican_train", 8), 0, 1.0, "es", "classic", -1, LONG)
def test_nothing_drawn_leaves_the_picture(
    tmp_path: Path,
    game: tuple[str, int],
    seed: int,
    cut: float,
    lang: str,
    theme: str,
    seat: int,
    names: str,
) -> None:
    preset, players = game
    extra = ["--lang", lang, "--theme", theme]
    if 0 <= seat < players:
        extra += ["--seat", str(seat)]
    geometry = geometry_of(tmp_path, preset, players, seed, cut, extra, names)
    assert outside(geometry) == [], (geometry["width"], geometry["height"])
