"""Score sheets and leaderboards as table pictures: a title, a header row and rows of
cells; the geometry (:func:`grid`) is separate from the drawing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from PIL import Image, ImageDraw

from engine.views import View
from render.fonts import fit_text, font
from render.geometry import Box
from render.names import short_names
from render.theme import Theme, theme_named
from render.words import goal_text, word

ROW = 40
_MEASURE = ImageDraw.Draw(Image.new("L", (1, 1)))
TITLE = 52
PAD = 16


@dataclass(frozen=True)
class Grid:
    width: int
    height: int
    title: Box
    cells: tuple[tuple[Box, ...], ...]  # rows of cells, the header first


def grid(widths: Sequence[float], rows: int, width: int = 960) -> Grid:
    """Cells for ``rows`` rows (the header included) of columns in the ratios ``widths``."""
    total = sum(widths)
    usable = width - 2 * PAD
    xs = [PAD + usable * sum(widths[:i]) / total for i in range(len(widths) + 1)]
    cells = tuple(
        tuple(Box(xs[c], TITLE + r * ROW, xs[c + 1] - xs[c], ROW) for c in range(len(widths)))
        for r in range(rows)
    )
    return Grid(width, TITLE + rows * ROW + PAD, Box(PAD, 0, usable, TITLE), cells)


def _draw_table(
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    widths: Sequence[float],
    theme: Theme,
    colours: Sequence[tuple[int, int, int] | None] = (),
    left_columns: int = 1,
    aside: str = "",
) -> Image.Image:
    """``left_columns``: how many columns from the left hold words (aligned left); the
    rest hold numbers (aligned right). ``colours`` tint those word columns per row.
    ``aside``: a few words at the right of the title (the score sheet's goal)."""
    g = grid(widths, len(rows) + 1)
    image = Image.new("RGB", (g.width, g.height), theme.felt)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = g.title.scaled(1)
    heading = font(26, bold=True)
    draw.text((left, (top + bottom) / 2), title, fill=theme.ink, font=heading, anchor="lm")
    if aside:
        room = right - left - draw.textlength(title, font=heading) - 24
        aside = fit_text(draw, aside, font(20), room)
        draw.text((right, (top + bottom) / 2), aside, fill=theme.ink, font=font(20), anchor="rm")
    body, bold = font(20), font(20, bold=True)
    for r, cells in enumerate(g.cells):
        texts = header if r == 0 else rows[r - 1]
        x0, y0, _, y1 = cells[0].scaled(1)
        _, _, x1, _ = cells[-1].scaled(1)
        if r == 0:
            draw.rectangle((x0, y0, x1, y1), fill=theme.panel)
        elif r % 2 == 0:
            draw.rectangle((x0, y0, x1, y1), fill=_mix(theme.felt, theme.panel))
        for c, (cell, text) in enumerate(zip(cells, texts, strict=True)):
            cx0, cy0, cx1, cy1 = cell.scaled(1)
            colour = theme.ink
            if r > 0 and c < left_columns and r - 1 < len(colours) and colours[r - 1] is not None:
                colour = colours[r - 1]  # type: ignore[assignment]
            face = bold if r == 0 else body
            text = fit_text(draw, text, face, cx1 - cx0 - 12)
            if c < left_columns:
                draw.text((cx0 + 8, (cy0 + cy1) / 2), text, fill=colour, font=face, anchor="lm")
            else:
                draw.text((cx1 - 8, (cy0 + cy1) / 2), text, fill=colour, font=face, anchor="rm")
    return image


def _mix(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return (
        (a[0] + b[0]) // 2,
        (a[1] + b[1]) // 2,
        (a[2] + b[2]) // 2,
    )


SEPARATOR = " / "


def side_names(view: View, names: Sequence[str], width: float | None = None) -> list[str]:
    """Column names of the score sheet: the teams' two names, or each seat's; with
    ``width`` (pixels of a column's text), names too wide for it are shortened so that
    the seats stay distinguishable (render/names.py), never "Computador…" for all."""
    whole = [names[s] if s < len(names) else str(s + 1) for s in range(view.players)]
    sides = view.rules.side_seats(view.players)
    shown = whole
    if width is not None:
        face = font(20, bold=True)
        members = max(len(seats) for seats in sides) if sides else 1
        room = (width - _MEASURE.textlength(SEPARATOR, font=face) * (members - 1)) / members
        fits = all(
            _MEASURE.textlength(SEPARATOR.join(whole[s] for s in seats), font=face) <= width
            for seats in sides
        )
        if not fits:
            shown = list(short_names(whole, room, face))
    return [SEPARATOR.join(shown[s] for s in seats) for seats in sides]


def draw_score_sheet(
    view: View, names: Sequence[str], theme_name: str = "classic", lang: str = "es"
) -> Image.Image:
    """The latest finished hands' points by side, numbered in the whole game, and the
    totals, from a view's sheet."""
    theme = theme_named(theme_name)
    columns = grid([1.2] + [1.0] * len(view.rules.side_seats(view.players)), 1)
    sides = side_names(view, names, columns.cells[0][-1].w - 12)
    kind = word("round", lang) if view.rules.family == "train" else word("hand", lang)
    first = view.sheet_first + 1
    rows = [[f"{kind} {first + i}", *(str(p) for p in row)] for i, row in enumerate(view.sheet)]
    rows.append([word("total", lang), *(str(s) for s in view.scores)])
    widths = [1.2] + [1.0] * len(sides)
    goal = goal_text(view.rules, view.hand_number, lang)  # "a 100: pierde quien llega"
    title = word("score_sheet", lang)
    return _draw_table(title, [kind, *sides], rows, widths, theme, aside=goal)


class StandingLike(Protocol):
    """One line of a leaderboard: any object with these fields will do (the bot passes
    its own plain ``Standing``)."""

    @property
    def name(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def rating(self) -> float | None: ...
    @property
    def points(self) -> int | None: ...


@dataclass(frozen=True)
class Standing:
    """render's own :class:`StandingLike` (the command line and the tests build one)."""

    name: str
    games: int
    wins: int
    rating: float | None = None
    points: int | None = None


def draw_leaderboard(
    title: str, standings: Sequence[StandingLike], theme_name: str = "classic", lang: str = "es"
) -> Image.Image:
    theme = theme_named(theme_name)
    header = ["#", word("player", lang), word("games", lang), word("won", lang), "%"]
    widths = [0.5, 3.0, 1.0, 1.0, 1.0]
    with_rating = any(s.rating is not None for s in standings)
    if with_rating:
        header.append(word("rating", lang))
        widths.append(1.2)
    rows = []
    medals = [(230, 190, 60), (200, 200, 210), (205, 130, 70)]
    colours: list[tuple[int, int, int] | None] = []
    for rank, s in enumerate(standings, 1):
        share = f"{100 * s.wins / s.games:.0f}" if s.games else "-"
        row = [str(rank), s.name, str(s.games), str(s.wins), share]
        if with_rating:
            row.append(f"{s.rating:.1f}" if s.rating is not None else "-")
        rows.append(row)
        colours.append(medals[rank - 1] if rank <= 3 else None)
    title = title or word("leaderboard", lang)
    return _draw_table(title, header, rows, widths, theme, colours, left_columns=2)
