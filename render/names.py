"""Names short enough for their place that still tell the seats apart.

A name that fits is drawn whole. A name too wide is cut, but never into a form another
seat shares: four computers do not all read "Computa…". Words in brackets at the end go
first ("Computadora 2 (difícil)" reads "Computadora 2": the bot draws a computer's
strength as a tag of its own). The cut keeps what tells the name apart from the others:
the tail that differs ("Comp… 2", "Jugad… 3"), else the
first word that differs, marked by an ellipsis where words were left out
("Jugadora… 0 con…"). Only names that are the same in full stay the same.
docs/pictures.md ("Names") describes the forms.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.fonts import fit_text

_MEASURE = ImageDraw.Draw(Image.new("L", (1, 1)))
ELLIPSIS = "…"
_ASIDE = re.compile(r"^(.*\S)\s+\([^()]*\)$")


def _width(text: str, face: ImageFont.FreeTypeFont) -> float:
    return _MEASURE.textlength(text, font=face)


def _cut_with_tail(head: str, tail: str, width: float, face: ImageFont.FreeTypeFont) -> str:
    """The longest start of ``head`` with an ellipsis, then ``tail``, that fits; "" if
    even the ellipsis and ``tail`` alone do not fit."""
    for k in range(len(head), -1, -1):
        text = head[:k].rstrip() + ELLIPSIS + tail
        if _width(text, face) <= width:
            return text
    return ""


def _tail_forms(name: str, others: Sequence[str]) -> list[str]:
    """Tails of ``name`` that no other name ends with, shortest first: whole trailing
    words where it can ("  2"), else trailing characters."""
    words = name.split(" ")
    forms: list[str] = []
    for i in range(len(words) - 1, 0, -1):
        tail = " " + " ".join(words[i:])
        if not any(o.endswith(tail.strip()) and o != name for o in others):
            forms.append(tail)
            break
    for n in range(1, len(name)):
        tail = name[-n:]
        if not any(o.endswith(tail) and o != name for o in others):
            forms.append(tail)
            break
    return forms


def _word_form(name: str, others: Sequence[str], width: float, face: ImageFont.FreeTypeFont) -> str:
    """The start of ``name``, an ellipsis, the first word no other name has in that
    place, and an ellipsis if words follow it: "Jugadora… 0 con…"."""
    words = name.split(" ")
    for i, word in enumerate(words):
        if i == 0:
            continue
        if all(len(o.split(" ")) <= i or o.split(" ")[i] != word for o in others if o != name):
            more = ELLIPSIS if i + 1 < len(words) else ""
            for rest in (f" {word}{more}", f" {word}", word):  # tighter where it must
                short = _cut_with_tail(" ".join(words[:i]), rest, width, face)
                if short:
                    return short
            return ""
    return ""


def _without_aside(name: str) -> str:
    """``name`` without words in brackets at its end ("Computadora 2 (difícil)")."""
    found = _ASIDE.match(name)
    return found.group(1) if found else name


def short_name(name: str, others: Sequence[str], width: float, face: ImageFont.FreeTypeFont) -> str:
    """``name`` whole if it fits in ``width`` pixels, else a short form that no other of
    ``others`` (the names at the same table) shares."""
    if _width(name, face) <= width:
        return name
    rivals = [o for o in others if o != name]
    base = _without_aside(name)
    if base != name and base not in map(_without_aside, rivals):
        # "Computadora 2 (difícil)": the words in brackets go first
        return short_name(base, [_without_aside(o) for o in rivals], width, face)
    plain = fit_text(_MEASURE, name, face, width)
    if not any(fit_text(_MEASURE, o, face, width) == plain for o in rivals):
        return plain
    tails = [
        _cut_with_tail(name[: len(name) - len(tail)], tail, width, face)
        for tail in _tail_forms(name, rivals)
    ]
    kept = [t for t in tails if t and not t.startswith(ELLIPSIS)]  # with a start
    kept.append(_word_form(name, rivals, width, face))
    kept += [t for t in tails if t]
    return next((t for t in kept if t), plain)


def short_names(
    names: Sequence[str], width_px: float, font: ImageFont.FreeTypeFont
) -> tuple[str, ...]:
    """Each of ``names`` whole if it fits in ``width_px`` pixels drawn in ``font``, else
    shortened so that seats stay distinguishable (see the module's description)."""
    return _short_names(tuple(names), float(width_px), font)


@lru_cache(maxsize=256)  # a board asks again for every label; fonts are cached objects
def _short_names(
    names: tuple[str, ...], width: float, face: ImageFont.FreeTypeFont
) -> tuple[str, ...]:
    return tuple(short_name(n, names, width, face) for n in names)
