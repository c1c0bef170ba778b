"""Mexican Train layouts over random finished rounds of 2 to 8 players: nothing overlaps,
nothing leaves the table, every tile is there once, and each tile meets the tile it was
laid on with the same number (or is joined to it: the engine by a spoke, a fork by a link)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.players import RandomPlayer
from engine.rules import Rules
from engine.simulate import play_hand
from engine.views import view_of
from render.geometry import touching_numbers_match
from render.train_layout import layout_trains


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 8),
    seed=st.integers(0, 10_000),
    forked=st.booleans(),
    cut=st.floats(0.0, 1.0),
)
def test_a_round_lays_out_cleanly(players: int, seed: int, forked: bool, cut: float) -> None:
    game = Game(Rules.from_preset("mexican_train", forked_doubles=forked), players)
    play_hand(game, [RandomPlayer(seed + s) for s in range(players)], seed)
    view = view_of(game)
    layout = layout_trains(view)
    on_table = [t for train in view.trains for t in train.tiles]
    assert view.engine is not None
    assert sorted(t.tile for t in layout.tiles) == sorted([view.engine, *on_table])
    boxes = [t.box for t in layout.tiles]
    boxes += [k.box for k in layout.labels] + [k.marker for k in layout.labels]
    for i, a in enumerate(boxes):
        assert a.inside(layout.width, layout.height), a
        for b in boxes[i + 1 :]:
            assert not a.overlaps(b), (a, b)
    by_tile = {t.tile: t for t in layout.tiles}
    linked = {(k.end.x, k.end.y) for k in layout.links}
    for t in layout.tiles:
        if t.parent is None or t.parent == view.engine:
            continue
        if touching_numbers_match(t, by_tile[t.parent]):
            continue
        assert any((b.x, b.y) in linked for b, n in t.halves() if n == t.touching), t
    assert len(layout.labels) == players + 1
    assert len(layout.unsatisfied) == len(view.unsatisfied)


def test_a_whole_round_of_eight_fits() -> None:
    """91 tiles between 8 players: the longest rounds still lay out inside the table."""
    longest = 0
    for seed in range(30):
        game = Game(Rules.from_preset("mexican_train"), 8)
        play_hand(game, [RandomPlayer(seed * 8 + s) for s in range(8)], seed)
        layout = layout_trains(view_of(game))
        longest = max(longest, len(layout.tiles))
        assert all(t.box.inside(layout.width, layout.height) for t in layout.tiles)
    assert longest > 60
