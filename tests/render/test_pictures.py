"""Fixed records drawn and compared with their reference pictures within a small
tolerance (font smoothing may differ by a shade between Pillow builds). To accept a
deliberate change: ``python -m tests.render.pictures --write``."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.game import Game
from engine.players import RandomPlayer
from engine.rules import Rules
from engine.simulate import play_hand
from engine.views import view_of
from render.board import Table, draw_board, draw_hand
from tests.render.pictures import CASES, HERE, Case, picture

MEAN_TOLERANCE = 1.0  # mean difference per channel, out of 255
FAR = 64  # a pixel this far off in some channel counts as changed
FAR_SHARE = 0.005  # at most this share of pixels may change that much


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_picture_matches_its_reference(case: Case) -> None:
    drawn = picture(case).convert("RGB")
    reference = Image.open(HERE / f"{case.name}.png").convert("RGB")
    assert drawn.size == reference.size, (
        "the layout changed: python -m tests.render.pictures --write"
    )
    difference = ImageChops.difference(drawn, reference)
    mean = sum(ImageStat.Stat(difference).mean) / 3
    far = sum(difference.convert("L").histogram()[FAR + 1 :])
    share = far / (drawn.width * drawn.height)
    assert mean < MEAN_TOLERANCE and share < FAR_SHARE, (case.name, mean, share)


@pytest.mark.parametrize(
    "preset, players",
    [("partnership", 4), ("draw", 3), ("all_fives", 4), ("fido18", 8), ("mexican_train", 8)],
)
@pytest.mark.parametrize("theme", ["classic", "dark", "contrast"])
def test_every_preset_draws_in_every_theme_and_language(
    preset: str, players: int, theme: str
) -> None:
    game = Game(Rules.from_preset(preset), players)
    play_hand(game, [RandomPlayer(s) for s in range(players)], 3)
    names = tuple(f"Jugadora número {s} con un nombre larguísimo" for s in range(players))
    for lang in ("es", "en", "pt"):
        image = draw_board(view_of(game), Table(names, lang=lang, theme=theme))
        assert image.width == 960 and image.height > 200
    hand = draw_hand(view_of(game, 0), Table(names, theme=theme))
    assert hand.width == 960


def test_a_board_stays_small() -> None:
    """Every reference board encodes under 300 KB (what a chat uploads on each move)."""
    for path in HERE.glob("*.png"):
        assert path.stat().st_size < 300_000, path.name


def test_the_room_picture_shows_no_hidden_tile() -> None:
    """Two deals that differ only in tiles still hidden give the room the same picture."""
    rules = Rules.from_preset("partnership")
    game = Game(rules, 4)
    game.start_hand(seed=5)
    deal = [list(game.logs[-1].state.hand(s)) for s in range(4)]
    opener = game.logs[-1].state.to_move
    for _ in range(4):
        game.apply(game.legal_moves()[0])
    played = {m.tile for m in game.logs[-1].state.moves}
    a = next(t for t in deal[1] if t not in played and not t.is_double)
    b = next(t for t in deal[3] if t not in played and not t.is_double)
    swapped = [list(h) for h in deal]
    swapped[1][swapped[1].index(a)] = b
    swapped[3][swapped[3].index(b)] = a
    other = Game(rules, 4)
    other.start_hand(deal=swapped, boneyard=[], opener=opener)
    for move in game.logs[-1].state.moves:
        other.apply(move)
    table = Table(("Ana", "Beto", "Carla", "Diego"))
    first = draw_board(view_of(game), table).tobytes()
    assert first == draw_board(view_of(other), table).tobytes()
    # and the seat whose hand changed does see the difference
    assert (
        draw_board(view_of(game, 1), table).tobytes()
        != draw_board(view_of(other, 1), table).tobytes()
    )
