"""Tile faces and backs, drawn once per size, theme and style and then reused.

A half shows its number as pips (up to 12, in a 3x3 or 3x4 grid) or as a numeral. Sets
above double-9 paint each number in its own colour, as real double-12 and double-18 sets
do; above 12 pips a half would be unreadable, so those numbers are numerals.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.fonts import font
from render.theme import NUMBER_COLOURS, Theme

# Pip places on a 3x3 grid (column, row) for 0 to 9, and a 3x4 grid for 10 to 12.
_GRID3: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
    7: ((0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)),
    8: ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)),
    9: tuple((c, r) for r in range(3) for c in range(3)),
}
_ALL4 = tuple((c, r) for r in range(4) for c in range(3))
_GRID4: dict[int, tuple[tuple[int, int], ...]] = {
    10: tuple(p for p in _ALL4 if p not in ((1, 0), (1, 3))),
    11: tuple(p for p in _ALL4 if p != (1, 0)),
    12: _ALL4,
}
MAX_PIPS = 12


def number_colour(number: int, theme: Theme, coloured: bool) -> tuple[int, int, int]:
    if not coloured or theme.name == "contrast":
        return theme.pip
    return NUMBER_COLOURS[number % len(NUMBER_COLOURS)]


@lru_cache(maxsize=2048)
def half_face(number: int, size: int, theme: Theme, coloured: bool, numerals: bool) -> Image.Image:
    """One square half of a tile, ``size`` pixels a side, without its border."""
    image = Image.new("RGB", (size, size), theme.tile)
    draw = ImageDraw.Draw(image)
    colour = number_colour(number, theme, coloured)
    if numerals or number > MAX_PIPS:
        if number or numerals:
            text = str(number)
            face = font(int(size * (0.66 if number < 10 else 0.56)), bold=True)
            draw.text((size / 2, size / 2), text, fill=colour, font=face, anchor="mm")
        return image
    if number <= 9:
        places, cols, rows = _GRID3[number], 3, 3
    else:
        places, cols, rows = _GRID4[number], 3, 4
    pad = size * 0.2
    step_x = (size - 2 * pad) / (cols - 1)
    step_y = (size - 2 * pad) / (rows - 1)
    radius = size * (0.09 if rows == 3 else 0.075)
    for c, r in places:
        x, y = pad + c * step_x, pad + r * step_y
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)
    return image


@lru_cache(maxsize=4096)
def tile_face(
    first: int,
    second: int,
    unit: int,
    upright: bool,
    theme: Theme,
    coloured: bool = False,
    numerals: bool = False,
) -> Image.Image:
    """A whole tile: ``first`` on the left (or top when ``upright``), ``unit`` pixels
    across its short side."""
    w, h = (unit, 2 * unit) if upright else (2 * unit, unit)
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    inner = unit - 2
    a = half_face(first, inner, theme, coloured, numerals)
    b = half_face(second, inner, theme, coloured, numerals)
    draw = ImageDraw.Draw(image)
    radius = max(2, unit // 8)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=theme.tile, outline=theme.tile_edge)
    if upright:
        image.paste(a, (1, 1))
        image.paste(b, (1, unit + 1))
        draw.line((3, unit, w - 4, unit), fill=theme.tile_edge, width=max(1, unit // 24))
    else:
        image.paste(a, (1, 1))
        image.paste(b, (unit + 1, 1))
        draw.line((unit, 3, unit, h - 4), fill=theme.tile_edge, width=max(1, unit // 24))
    # the pasted halves are square: round the corners again over them
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, outline=theme.tile_edge)
    return image


@lru_cache(maxsize=256)
def tile_back(unit: int, upright: bool, theme: Theme) -> Image.Image:
    """A tile face down (a count of tiles in a hand is shown as backs)."""
    w, h = (unit, 2 * unit) if upright else (2 * unit, unit)
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    # edged in the tile's own colour: a back stands out on any theme's panel
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1), max(2, unit // 6), fill=theme.back, outline=theme.tile
    )
    return image


@lru_cache(maxsize=256)
def tile_backs(count: int, step: int, theme: Theme) -> Image.Image:
    """``count`` backs 12 pixels wide, upright, ``step`` pixels apart: a panel's tiles
    held, pasted as one picture (an eight-player board pasted about 40 backs one by one,
    0.5 ms)."""
    back = tile_back(12, True, theme)
    row = Image.new("RGBA", (step * (count - 1) + back.width, back.height), (0, 0, 0, 0))
    for i in range(count):
        row.paste(back, (i * step, 0))
    return row
