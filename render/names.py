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
from collections import Counter
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


class Rivals:
    """The names a name must not be confused with, counted once for all of them: which
    names end in each tail, hold each word in each place, or read the same cut short.
    Asking about one name leaves out every copy of that name (only names the same in
    full may stay the same), so a table of 2,000 names is shortened in time that grows
    with its size, not with its square."""

    def __init__(self, names: Sequence[str], width: float, face: ImageFont.FreeTypeFont) -> None:
        self.names = set(names)
        self.width = width
        self.face = face
        self._ends: Counter[str] | None = None
        self._words: Counter[tuple[int, str]] | None = None
        self._cuts: Counter[str] | None = None
        self._bare: Rivals | None = None
        self._counted: Counter[str] = Counter()  # (of bare names: the full names read so)

    def _own(self, name: str) -> int:
        """1 when ``name`` is among the names (its copies are no rivals), else 0."""
        return int(name in self.names)

    def ending(self, name: str, tail: str) -> bool:
        """Whether a name other than ``name`` ends with ``tail``."""
        if self._ends is None:
            self._ends = Counter(n[k:] for n in self.names for k in range(len(n) + 1))
        return self._ends[tail] > (self._own(name) if name.endswith(tail) else 0)

    def word_at(self, name: str, place: int, word: str) -> bool:
        """Whether a name other than ``name`` (which has it) holds ``word`` in ``place``."""
        if self._words is None:
            self._words = Counter((i, w) for n in self.names for i, w in enumerate(n.split(" ")))
        return self._words[(place, word)] > self._own(name)

    def cut_alike(self, name: str, cut: str) -> bool:
        """Whether a name other than ``name`` (cut so itself) is cut the same way."""
        if self._cuts is None:
            self._cuts = Counter(fit_text(_MEASURE, n, self.face, self.width) for n in self.names)
        return self._cuts[cut] > self._own(name)

    def bare_alike(self, name: str, bare: str) -> bool:
        """Whether a name other than ``name`` reads ``bare`` (as ``name`` does) without its
        words in brackets."""
        return self.bare()._counted[bare] > self._own(name)

    def bare(self) -> Rivals:
        """The same names without their words in brackets at the end."""
        if self._bare is None:
            bare = [_without_aside(n) for n in self.names]
            self._bare = Rivals(bare, self.width, self.face)
            self._bare._counted = Counter(bare)
        return self._bare


def _tail_forms(name: str, rivals: Rivals) -> list[str]:
    """Tails of ``name`` that no other name ends with, shortest first: whole trailing
    words where it can ("  2"), else trailing characters."""
    words = name.split(" ")
    forms: list[str] = []
    for i in range(len(words) - 1, 0, -1):
        tail = " " + " ".join(words[i:])
        if not rivals.ending(name, tail.strip()):
            forms.append(tail)
            break
    for n in range(1, len(name)):
        tail = name[-n:]
        if not rivals.ending(name, tail):
            forms.append(tail)
            break
    return forms


def _word_form(name: str, rivals: Rivals, width: float, face: ImageFont.FreeTypeFont) -> str:
    """The start of ``name``, an ellipsis, the first word no other name has in that
    place, and an ellipsis if words follow it: "Jugadora… 0 con…"."""
    words = name.split(" ")
    for i, word in enumerate(words):
        if i == 0:
            continue
        if not rivals.word_at(name, i, word):
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
    return _short(name, Rivals(others, width, face), width, face)


def _short(name: str, rivals: Rivals, width: float, face: ImageFont.FreeTypeFont) -> str:
    if _width(name, face) <= width:
        return name
    base = _without_aside(name)
    if base != name and not rivals.bare_alike(name, base):
        # "Computadora 2 (difícil)": the words in brackets go first
        return _short(base, rivals.bare(), width, face)
    plain = fit_text(_MEASURE, name, face, width)
    if not rivals.cut_alike(name, plain):
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
    rivals = Rivals(names, width, face)
    return tuple(_short(n, rivals, width, face) for n in names)
