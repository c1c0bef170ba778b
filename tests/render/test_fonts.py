"""Text drawn from the fonts' cache of bitmaps (render/fonts.py, issue 23) is the text
FreeType draws: the same pixels, wherever it starts within a pixel and however anchored,
the first time and every time after."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

from render.fonts import TYPEFACES, font

TEXTS = ["Ana", "¡Dominó!: Equipo Beto / Diego gana", "12", "Pozo: 0 · cuenta 15", "+3"]


def drawn(face: ImageFont.FreeTypeFont, at: tuple[float, float], anchor: str) -> bytes:
    image = Image.new("RGB", (420, 60), (22, 94, 58))
    draw = ImageDraw.Draw(image)
    for i, text in enumerate(TEXTS):
        draw.text((at[0] + 3 * i, at[1]), text, fill=(245, 245, 235), font=face, anchor=anchor)
    return image.tobytes()


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("at", [(200.0, 30.0), (200.5, 30.5), (199.25, 29.75)])
@pytest.mark.parametrize("anchor", ["la", "lm", "mm", "rm"])
def test_cached_text_is_freetypes_text(bold: bool, at: tuple[float, float], anchor: str) -> None:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    plain = ImageFont.truetype(str(TYPEFACES / name), 20)
    expected = drawn(plain, at, anchor)
    assert drawn(font(20, bold), at, anchor) == expected  # drawn, then kept
    assert drawn(font(20, bold), at, anchor) == expected  # from the cache


def test_widths_are_freetypes() -> None:
    plain = ImageFont.truetype(str(TYPEFACES / "DejaVuSans.ttf"), 17)
    for text in TEXTS:
        assert font(17).getlength(text) == plain.getlength(text)
        assert font(17).getlength(text) == plain.getlength(text)
