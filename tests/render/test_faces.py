"""Tile faces stay readable on a phone: a board 960 pixels wide shown 400 wide still
shows every number of a half differently from every other."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from render.faces import half_face, tile_face
from render.scene import WIDTH
from render.theme import THEMES

PHONE = 400
TABLE_UNITS = 19.0  # the line layout's narrowest table, the smallest unit a board uses
TRAIN_UNITS = 20.0


def shrunk(number: int, unit: int, theme: str, coloured: bool, numerals: bool) -> Image.Image:
    face = half_face(number, unit, THEMES[theme], coloured, numerals)
    size = max(1, round(unit * PHONE / WIDTH))
    return face.resize((size, size), Image.Resampling.LANCZOS).convert("L")


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize(
    "units, top, coloured, numerals",
    [
        (TABLE_UNITS, 9, False, False),
        (TABLE_UNITS, 12, True, False),
        (TRAIN_UNITS, 12, True, False),
        (TABLE_UNITS, 18, True, True),
        (TRAIN_UNITS, 18, True, True),
    ],
)
def test_numbers_tell_apart_at_phone_width(
    theme: str, units: float, top: int, coloured: bool, numerals: bool
) -> None:
    unit = round(WIDTH / units) - 2
    faces = {n: shrunk(n, unit, theme, coloured, numerals) for n in range(top + 1)}
    for a in range(top + 1):
        for b in range(a + 1, top + 1):
            difference = ImageChops.difference(faces[a], faces[b])
            # a pip more or less, or a pip elsewhere, shows as a few clearly changed pixels
            clear = sum(difference.histogram()[80:])
            assert clear >= 3, (theme, a, b, clear)


def test_faces_are_drawn_once_per_size_and_theme() -> None:
    theme = THEMES["classic"]
    first = tile_face(6, 4, 40, False, theme)
    assert tile_face(6, 4, 40, False, theme) is first
    assert tile_face(6, 4, 41, False, theme) is not first
