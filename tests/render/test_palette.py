"""A board is handed over as a palette image (render/palette.py, issue 23): it looks the
same as the picture drawn in full colour (every flat colour exact; only the edges of
text move, by a few levels), and it encodes, the way the bot saves it, to a small PNG."""

from __future__ import annotations

import io
from typing import cast

import pytest
from PIL import Image, ImageChops

import render.board
from engine.game import Game
from engine.players import RandomPlayer
from engine.rules import Rules
from engine.simulate import play_hand
from engine.views import View, view_of
from render.board import Table, draw_board, draw_hand
from render.palette import FILLS, LIMIT, RGB, indexed

EDGE = 40  # levels out of 255: no pixel moves further (30 measured, on a numeral's edge)
NEAR = 12  # levels: all but a few edge pixels stay this close...
FAR_SHARE = 0.002  # ...at most this share of the picture moves further (0.06% measured)


def finished(preset: str, players: int, seed: int = 3, **options: int) -> Game:
    game = Game(Rules.from_preset(preset, **options), players)
    play_hand(game, [RandomPlayer(s) for s in range(players)], seed)
    return game


def full_colour(monkeypatch: pytest.MonkeyPatch, draw: object, *args: object) -> Image.Image:
    """The same picture without its palette step: as drawn, in RGB."""
    with monkeypatch.context() as patched:
        patched.setattr(render.board, "indexed", lambda image: image)
        return draw(*args)  # type: ignore[operator]


def counts(image: Image.Image) -> dict[RGB, int]:
    """How many pixels of each colour."""
    return {colour: n for n, colour in cast("list[tuple[int, RGB]]", image.getcolors(LIMIT))}


def _apart(a: RGB, b: RGB) -> int:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def assert_looks_the_same(drawn: Image.Image, given: Image.Image) -> None:
    assert given.mode == "P" and given.size == drawn.size
    shown = given.convert("RGB")
    before, after = counts(drawn), counts(shown)
    fills = sorted(before, key=before.__getitem__, reverse=True)[:FILLS]
    for rank, colour in enumerate(fills):
        # a flat colour keeps every pixel it had (edge shades may join it), but for one
        # that shares Pillow's cells with a more frequent one (8 levels apart at most)
        shared = any(_apart(colour, other) <= 8 for other in fills[:rank])
        assert after.get(colour, 0) >= before[colour] or shared, colour
    difference = ImageChops.difference(drawn, shown)
    assert max(high for _, high in cast("list[tuple[int, int]]", difference.getextrema())) <= EDGE
    far = difference.point(lambda v: 255 if v > NEAR else 0).convert("L")
    assert sum(far.histogram()[1:]) <= FAR_SHARE * drawn.width * drawn.height


@pytest.mark.parametrize(
    "preset, players, options",
    [
        ("partnership", 4, {}),
        ("draw", 3, {"set": 12}),
        ("all_fives", 4, {}),
        ("fido18", 8, {}),
        ("mexican_train", 8, {}),
    ],
)
@pytest.mark.parametrize("theme", ["classic", "dark", "contrast"])
def test_a_finished_board_looks_as_drawn_in_full_colour(
    monkeypatch: pytest.MonkeyPatch, preset: str, players: int, options: dict, theme: str
) -> None:
    view = view_of(finished(preset, players, **options))
    table = Table(tuple(f"Jugadora {s + 1}" for s in range(players)), theme=theme)
    drawn = full_colour(monkeypatch, draw_board, view, table)
    assert_looks_the_same(drawn, draw_board(view, table))


@pytest.mark.parametrize("numerals", [False, True])
def test_a_seat_and_its_hand_look_as_drawn_in_full_colour(
    monkeypatch: pytest.MonkeyPatch, numerals: bool
) -> None:
    """A seat's view adds its hand, tiles it cannot play faded over the felt."""
    game = Game(Rules.from_preset("fido18"), 4)
    game.start_hand(seed=11)
    for _ in range(6):
        game.apply(game.legal_moves()[0])
    seat = game.to_move
    assert seat is not None
    view: View = view_of(game, seat)
    table = Table(("Ana", "Beto", "Carla", "Diego"), numerals=numerals)
    for draw in (draw_board, draw_hand):
        assert_looks_the_same(full_colour(monkeypatch, draw, view, table), draw(view, table))


def test_a_board_saved_as_the_bot_saves_it_is_a_small_palette_png() -> None:
    """bot/doors/pictures.py saves with no option: the picture carries its own settings."""
    view = view_of(finished("mexican_train", 8))
    out = io.BytesIO()
    draw_board(view, Table(tuple(f"P{s}" for s in range(8)))).save(out, format="PNG")
    assert out.tell() < 300_000
    out.seek(0)
    with Image.open(out) as png:
        assert png.mode == "P"


@pytest.mark.parametrize("shades", [1, 400])
def test_a_flat_colour_is_never_taken_by_a_shade_next_to_it(shades: int) -> None:
    """Pillow maps a colour to the entry nearest the corner of its 4x4x4 cell: the felt
    (22, 94, 58) is nearer (21, 93, 57) there than itself. The felt stays exact, with or
    without more colours than a palette holds."""
    felt, near = (22, 94, 58), (21, 93, 57)
    image = Image.new("RGB", (500, 100), felt)
    image.putpixel((0, 0), near)
    for i in range(1, shades):
        image.putpixel((i, 1), (i % 256, i // 256 * 100, 200))
    before, after = counts(image), counts(indexed(image).convert("RGB"))
    assert after.get(felt, 0) >= before[felt] == 500 * 100 - shades


def test_a_picture_of_too_many_colours_stays_as_it_is() -> None:
    side = 129  # 16,641 colours: more than a board ever has
    image = Image.new("RGB", (side, side))
    image.putdata([(i % 256, i // 256, 7) for i in range(side * side)])
    assert side * side > LIMIT
    assert indexed(image) is image
