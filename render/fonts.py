"""The fonts that ship with the project (DejaVu Sans, render/typefaces/, its licence
beside it): the same letters on every machine, with the accents of Spanish and
Portuguese, never a system font."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont

TYPEFACES = Path(__file__).with_name("typefaces")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(TYPEFACES / name), max(6, size))


def fit_text(
    draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont, width: float
) -> str:
    """``text``, cut short with an ellipsis if it is wider than ``width`` pixels."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"
