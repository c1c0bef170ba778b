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
from render.geometry import PlacedTile, touching_numbers_match
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


def _along_long_side(double: PlacedTile, other: PlacedTile) -> bool:
    """``other`` meets ``double`` on one of its long sides (the double lies across)."""
    d, o = double.box, other.box
    if d.h > d.w:  # upright: its long sides are its left and right
        return abs(o.right - d.x) < 1e-6 or abs(d.right - o.x) < 1e-6
    return abs(o.bottom - d.y) < 1e-6 or abs(d.bottom - o.y) < 1e-6


def _across_everywhere(tiles: tuple[PlacedTile, ...], crosswise: bool) -> list[PlacedTile]:
    """The doubles that lie along the line: a tile laid against a double, or the tile it
    was laid against, meeting it on a short side (in divisor games a double's halves carry
    arms of their own: only the tile it was laid against counts there)."""
    by_tile = {t.tile: t for t in tiles}
    wrong = []
    for d in tiles:
        if not d.tile.is_double:
            continue
        near = [by_tile[d.parent]] if d.parent in by_tile else []
        if not crosswise:
            near += [t for t in tiles if t.parent == d.tile]
        if any(t.box.touches(d.box) and not _along_long_side(d, t) for t in near):
            wrong.append(d)
    return wrong


@settings(max_examples=80, deadline=None)
@given(case=st.sampled_from(LINE_GAMES), seed=st.integers(0, 10_000))
def test_doubles_lie_across_the_line_also_where_it_turns(
    case: tuple[str, int, dict], seed: int
) -> None:
    """Issue 33: a double always lies across the line, at the turns too (it used to lie
    along the line on a turn and just after one)."""
    game, _state = finished_table(case, seed)
    view = view_of(game)
    sides = [(s.number, s.tile, s.kind) for s in view.open_sides]
    crosswise = game.rules.crosswise_doubles
    layout = layout_line(view.placements, sides, crosswise)
    assert _across_everywhere(layout.tiles, crosswise) == []


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 10_000))
def test_a_trains_doubles_lie_across_it(players: int, seed: int) -> None:
    from render.train_layout import layout_trains

    game = Game(Rules.from_preset("mexican_train"), players)
    play_hand(game, [RandomPlayer(seed + s) for s in range(players)], seed)
    assert _across_everywhere(layout_trains(view_of(game)).tiles, False) == []
