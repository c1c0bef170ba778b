"""Line-game layouts over random finished hands: nothing overlaps, nothing leaves the
table, every tile is there once, and touching tiles (or linked ones) show one number."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.line import LineHand
from engine.players import RandomPlayer
from engine.rules import Rules
from engine.simulate import play_hand
from engine.views import view_of
from render.geometry import touching_numbers_match
from render.line_layout import layout_line

LINE_GAMES = [
    ("partnership", 4, {}),
    ("tournament_pr", 4, {}),
    ("block", 2, {}),
    ("block", 3, {}),
    ("block", 4, {}),
    ("draw", 2, {}),
    ("draw", 4, {}),
    ("draw", 2, {"set": 9}),
    ("draw", 3, {"set": 12}),
    ("all_fives", 2, {}),
    ("all_fives", 4, {}),
    ("all_fives", 3, {"set": 9}),
    ("fido12", 6, {}),
    ("fido12", 4, {}),
    ("fido18", 2, {}),
    ("fido18", 8, {}),
]


def finished_table(case: tuple[str, int, dict], seed: int):
    preset, players, options = case
    game = Game(Rules.from_preset(preset, **options), players)
    play_hand(game, [RandomPlayer(seed + s) for s in range(players)], seed)
    state = game.logs[-1].state
    assert isinstance(state, LineHand)
    return game, state


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(LINE_GAMES), seed=st.integers(0, 10_000))
def test_a_finished_hand_lays_out_cleanly(case: tuple[str, int, dict], seed: int) -> None:
    game, _state = finished_table(case, seed)
    view = view_of(game)
    sides = [(s.number, s.tile, s.kind) for s in view.open_sides]
    layout = layout_line(view.placements, sides, game.rules.crosswise_doubles)
    tiles = layout.tiles
    assert sorted(t.tile for t in tiles) == sorted(p.tile for p in view.placements)
    for i, a in enumerate(tiles):
        assert a.box.inside(layout.width, layout.height), a
        for b in tiles[i + 1 :]:
            assert not a.box.overlaps(b.box), (a, b)
    by_tile = {t.tile: t for t in tiles}
    linked = {(round(k.end.x, 6), round(k.end.y, 6)) for k in layout.links}
    for t in tiles:
        if t.parent is None:
            continue
        parent = by_tile[t.parent]
        if touching_numbers_match(t, parent):
            continue
        # a branch: its link runs from the double's half to this tile's touching half
        halves = [b for b, n in t.halves() if n == t.touching]
        assert any((round(h.x, 6), round(h.y, 6)) in linked for h in halves), (t, parent)
    assert len(layout.open_ends) == len(view.open_sides)
