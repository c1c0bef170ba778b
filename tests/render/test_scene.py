"""The picture's frame: seats' panels, facts, table, revealed hands and a player's hand
never overlap and stay inside the picture, for every table size and player count."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.tiles import set_tiles
from render.scene import scene_layout, seat_places

TILES = list(set_tiles(12))


@given(
    players=st.integers(2, 8),
    size=st.tuples(st.floats(5, 40), st.floats(2, 60)),
    revealed=st.booleans(),
    hand=st.integers(0, 25),
    around=st.booleans(),
    south=st.integers(0, 7),
    lines=st.integers(1, 4),
    draw=st.booleans(),
)
def test_nothing_overlaps_and_everything_fits(
    players: int,
    size: tuple[float, float],
    revealed: bool,
    hand: int,
    around: bool,
    south: int,
    lines: int,
    draw: bool,
) -> None:
    """Seats around the table (two to four of a line game, issue 33) or in a row of
    cards, with the teams' totals, lines of facts and the opening draw's row."""
    hands = [TILES[s * 12 : s * 12 + 12 - s] for s in range(players)] if revealed else None
    places = seat_places(players, south % players, around)
    teams = 2 if places is not None and players == 4 else 0
    scene = scene_layout(players, size, hands, TILES[:hand], draw, places, teams, lines)
    if places is not None:
        assert sorted(places) == sorted(set(places)) and places[south % players] == "south"
    boxes = scene.boxes()
    for i, a in enumerate(boxes):
        assert a.inside(scene.width, scene.height), a
        for b in boxes[i + 1 :]:
            assert not a.overlaps(b), (a, b)
    assert len(scene.panels) == players
    assert len(scene.hand) == hand
