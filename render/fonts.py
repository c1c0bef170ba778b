"""The fonts that ship with the project (DejaVu Sans, render/typefaces/, its licence
beside it): the same letters on every machine, with the accents of Spanish and
Portuguese, never a system font."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import ImageDraw, ImageFont

TYPEFACES = Path(__file__).with_name("typefaces")


class _Font(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the bitmaps and widths of the strings it was asked for.

    A board draws the same names, scores, labels and numbers on every move; FreeType's
    rendering was the largest part of drawing one (about 40%: 1.2 of 2.7 ms for a
    finished partnership hand, 2.8 of 7.4 ms for an eight-player Mexican Train round).
    ``ImageDraw.text`` asks the font for the bitmap of each line (``getmask2``): a plain
    request (no stroke, direction, features or language, no colour font) is answered
    from :func:`_mask`, the same bitmap FreeType gave the first time, read only.
    """

    def getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Any, tuple[int, int]]:
        plain = not (direction or features or language or stroke_width or args)
        if plain and mode != "RGBA" and set(kwargs) <= {"stroke_filled"}:
            return _mask(self, text, mode, anchor, start)
        return super().getmask2(
            text, mode, direction, features, language, stroke_width, anchor, ink, start,
            *args, **kwargs,
        )  # fmt: skip

    def getlength(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        if direction or features or language:
            return super().getlength(text, mode, direction, features, language)
        return _length(self, text, mode)


@lru_cache(maxsize=1024)
def _mask(
    face: _Font, text: str | bytes, mode: str, anchor: str | None, start: tuple[float, float] | None
) -> tuple[Any, tuple[int, int]]:
    """FreeType's bitmap of ``text``; ``start`` is the fraction of a pixel the text
    begins at (the bitmap differs with it). A board draws 30 to 80 strings; a line of
    facts is about 15 KB of bitmap (22 KB across the whole picture): 1,024 strings keep
    several tables' names and labels in under 25 MB, while each move's new line of
    facts passes through."""
    return ImageFont.FreeTypeFont.getmask2(face, text, mode, anchor=anchor, start=start)


@lru_cache(maxsize=8192)
def _length(face: _Font, text: str | bytes, mode: str) -> float:
    return ImageFont.FreeTypeFont.getlength(face, text, mode)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return _Font(str(TYPEFACES / name), max(6, size))


def fit_text(
    draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont, width: float
) -> str:
    """``text``, cut short with an ellipsis if it is wider than ``width`` pixels."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


# Characters DejaVu Sans lacks (most emoji, CJK) would draw as its empty box (.notdef).
# A name is drawn with each run of such characters replaced by one visible substitute: a
# symbol (Unicode's "So": "🔥", "⚽", a flag's letters) by "☺", anything else by "?".
# Joiners, variation selectors and skin tones only shape the character before them:
# dropped.
PICTOGRAPH = "☺"
UNKNOWN = "?"
_SHAPING = {0x200D, *range(0xFE00, 0xFE10), *range(0x1F3FB, 0x1F400)}
_NOTDEF = "\U0010fffd"  # a private-use character no font here has: its box is .notdef


@lru_cache(maxsize=4096)
def _lacks(char: str) -> bool:
    """Whether the bundled font has no glyph for ``char`` (it would draw .notdef)."""
    face = font(20)
    mask, missing = face.getmask(char), face.getmask(_NOTDEF)
    return mask.size == missing.size and bytes(mask) == bytes(missing)


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """``text`` with what the bundled font cannot draw replaced by a visible substitute
    (never a box): each run of missing characters becomes one "☺" (symbols) or "?"."""
    if text.isascii():
        return text
    out: list[str] = []
    run = False  # the last character written stands for missing ones
    for char in text:
        code = ord(char)
        if code in _SHAPING:
            continue
        if not _lacks(char):
            out.append(char)
            run = False
        elif not run:
            out.append(PICTOGRAPH if unicodedata.category(char) == "So" else UNKNOWN)
            run = True
    return "".join(out)
