"""Score sheets and leaderboards as table pictures: a title, a header row and rows of
cells; the geometry (:func:`grid`) is separate from the drawing."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from engine.game import Adjustment
from engine.goal import more_is_better
from engine.views import View
from render.fonts import drawable, fit_text, font
from render.geometry import Box
from render.names import short_names
from render.plain import PICTURE_ROWS, Standing
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
    words: Sequence[bool] | None = None,
    tinted: Sequence[bool] | None = None,
    width: int = 960,
) -> Image.Image:
    """``left_columns``: how many columns from the left hold words (aligned left); the
    rest hold numbers (aligned right). ``colours`` tint those word columns per row.
    ``aside``: a few words at the right of the title (the score sheet's goal).
    ``words`` and ``tinted`` say the same column by column where the columns of words
    are not all at the left; ``width`` is the picture's."""
    words = words or [c < left_columns for c in range(len(widths))]
    tinted = tinted or words
    g = grid(widths, len(rows) + 1, width)
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
            if r > 0 and tinted[c] and r - 1 < len(colours) and colours[r - 1] is not None:
                colour = colours[r - 1]  # type: ignore[assignment]
            face = bold if r == 0 else body
            text = fit_text(draw, text, face, cx1 - cx0 - 12)
            if words[c]:
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
MEDALS: tuple[tuple[int, int, int], ...] = ((230, 190, 60), (200, 200, 210), (205, 130, 70))


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
    names = [drawable(n) for n in names]  # an emoji the font lacks: a visible substitute
    columns = grid([1.2] + [1.0] * len(view.rules.side_seats(view.players)), 1)
    sides = side_names(view, names, columns.cells[0][-1].w - 12)
    kind = word("round", lang) if view.rules.family == "train" else word("hand", lang)
    first = view.sheet_first + 1
    rows: list[list[str]] = []
    for i, row in enumerate([*view.sheet, None]):  # None: after the last hand's row
        if row is not None:
            rows.append([f"{kind} {first + i}", *(str(p) for p in row)])
        hand = view.sheet_first + i  # the judges' rows written during it come after it
        for written in view.adjustments:
            if written.hand == hand or (row is None and written.hand > hand):
                rows.append(adjustment_row(view, written, lang))
    rows.append([word("total", lang), *(str(s) for s in view.scores)])
    widths = [1.2] + [1.0] * len(sides)
    goal = goal_text(view.rules, view.hand_number, lang)  # "a 100: pierde quien llega"
    title = word("score_sheet", lang)
    return _draw_table(title, [kind, *sides], rows, widths, theme, aside=goal)


def adjustment_row(view: View, written: Adjustment, lang: str) -> list[str]:
    """A judge's row on the sheet: "Penalty" or "Award" (as the sheet counts: on a
    sheet where reaching the target loses, an award takes points off), the points on
    the side's column."""
    helps = (written.points > 0) == more_is_better(view.rules)
    cells = ["" for _ in view.scores]
    cells[written.side] = f"{written.points:+d}".replace("-", "\u2212")
    return [word("award" if helps else "penalty", lang), *cells]


def draw_leaderboard(
    title: str, standings: Sequence[Standing], theme_name: str = "classic", lang: str = "es"
) -> Image.Image:
    theme = theme_named(theme_name)
    header = ["#", word("player", lang), word("games", lang), word("won", lang), "%"]
    widths = [0.5, 3.0, 1.0, 1.0, 1.0]
    with_rating = any(s.rating is not None for s in standings)
    if with_rating:
        header.append(word("rating", lang))
        widths.append(1.2)
    rows = []
    medals = MEDALS
    colours: list[tuple[int, int, int] | None] = []
    for rank, s in enumerate(standings[:PICTURE_ROWS], 1):  # the top ones
        share = f"{100 * s.wins / s.games:.0f}" if s.games else "-"
        row = [str(rank), drawable(s.name), str(s.games), str(s.wins), share]
        if with_rating:
            row.append(f"{s.rating:.0f}" if s.rating is not None else "-")
        rows.append(row)
        colours.append(medals[rank - 1] if rank <= 3 else None)
    title = title or word("leaderboard", lang)
    return _draw_table(title, header, rows, widths, theme, colours, left_columns=2)


# A cell of figures: "12", "-3", "+5", "12.5", "7,5", "66%", or a dash for none.
_FIGURE = re.compile(r"^([+\-\u2212]?\d+([.,]\d+)?%?|[-\u2013\u2014]?)$")
_PLACE = re.compile(r"^\d+$")
FIGURE_MIN = 56  # the narrowest column of figures ("#"), in pixels
WORDS_MIN = 220  # the narrowest column of words (a team's name); the picture widens first
TABLE_WIDTH = 960
CELL_ROOM = 12  # what a cell keeps free of text (_draw_table draws 8 from the edge)


def draw_figures(
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    theme: str = "classic",
    lang: str = "es",
) -> Image.Image:
    """A table of figures drawn like the leaderboard: a tournament's standings ("#",
    "Equipo", "J", "G", "PF", "PC", "Dif", "Buchholz"). A column whose cells are all
    figures is as narrow as its widest one and aligned right; columns of words share
    the rest, their names shortened so that no two read the same (render/names.py).
    When the first column holds places, places 1 to 3 wear the leaderboard's medals.
    ``title`` empty: the leaderboard's title in ``lang``."""
    if not header:
        raise ValueError("a table of figures needs at least one column")
    if any(len(row) != len(header) for row in rows):
        raise ValueError(f"every row needs {len(header)} cells, one per column of the header")
    rows = rows[:PICTURE_ROWS]  # the top ones (whoever has more sends them as a file)
    rows = [[drawable(cell) for cell in row] for row in rows]  # no box for an emoji
    columns = [[row[c] for row in rows] for c in range(len(header))]
    figures = [bool(rows) and all(_FIGURE.match(t) for t in cells) for cells in columns]
    words = [not f for f in figures]
    widths = _column_widths(header, columns, figures)
    width = max(TABLE_WIDTH, round(sum(widths)) + 2 * PAD)
    body = font(20)
    for c in range(len(header)):
        if words[c]:
            columns[c] = list(short_names(columns[c], widths[c] - CELL_ROOM, body))
    shown = [[column[r] for column in columns] for r in range(len(rows))]
    places = figures[0] and all(_PLACE.match(row[0]) for row in rows)
    medals: list[tuple[int, int, int] | None] = [
        MEDALS[int(row[0]) - 1] if places and 1 <= int(row[0]) <= len(MEDALS) else None
        for row in rows
    ]
    tinted = [words[c] or (c == 0 and places) for c in range(len(header))]
    title = title or word("leaderboard", lang)
    return _draw_table(
        title,
        header,
        shown,
        widths,
        theme_named(theme),
        medals,
        words=words,
        tinted=tinted,
        width=width,
    )


def _column_widths(
    header: Sequence[str], columns: Sequence[Sequence[str]], figures: Sequence[bool]
) -> list[float]:
    """Pixels per column: figures as wide as their widest text; words share what is left
    of the usual width, never below WORDS_MIN (the picture widens instead)."""
    body, bold = font(20), font(20, bold=True)
    widths = [
        max(FIGURE_MIN, _widest(head, cells, body, bold) + 2 * CELL_ROOM) if figure else 0.0
        for head, cells, figure in zip(header, columns, figures, strict=True)
    ]
    wordy = figures.count(False)
    if wordy:
        share = max(WORDS_MIN, (TABLE_WIDTH - 2 * PAD - sum(widths)) / wordy)
        widths = [w if figure else share for w, figure in zip(widths, figures, strict=True)]
    spare = TABLE_WIDTH - 2 * PAD - sum(widths)
    if spare > 0:  # figures alone: spread over the usual width, as the leaderboard is
        widths = [w + spare / len(widths) for w in widths]
    return widths


def _widest(
    head: str, cells: Sequence[str], body: ImageFont.FreeTypeFont, bold: ImageFont.FreeTypeFont
) -> float:
    return max(
        [_MEASURE.textlength(head, font=bold)] + [_MEASURE.textlength(t, font=body) for t in cells]
    )
