"""The picture of a table, drawn from a view: what the room sees, or what one seat sees
with its own hand below. Only the view (and the names and clocks the bot passes) is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.views import View
from render.faces import tile_back, tile_face
from render.fonts import font
from render.geometry import Box, PlacedTile
from render.keys import keys_by_tile
from render.line_layout import layout_line
from render.scene import Scene, scene_layout
from render.sheets import draw_score_sheet
from render.theme import Theme, theme_named
from render.train_layout import layout_trains
from render.words import word


@dataclass(frozen=True)
class Table:
    """What a picture needs besides the view: the names at the table and the clocks
    (the engine never reads a clock; the bot passes the seconds left)."""

    names: tuple[str, ...]
    turn_seconds: float | None = None  # left to the player to move
    clock_seconds: float | None = None  # left on the tournament game clock
    lang: str = "es"
    theme: str = "classic"
    numerals: bool = False  # numbers as numerals on every set, not pips


def draw_board(view: View, table: Table) -> Image.Image:
    theme = theme_named(table.theme)
    coloured = view.rules.set > 9
    if view.trains:
        layout = layout_trains(view)
        tiles, links, ends = layout.tiles, (), layout.open_ends
        size = (layout.width, layout.height)
    else:
        sides = [(s.number, s.tile, s.kind) for s in view.open_sides]
        line = layout_line(view.placements, sides, view.rules.crosswise_doubles)
        tiles, links, ends = line.tiles, line.links, line.open_ends
        size = (line.width, line.height)
    scene = scene_layout(view.players, size, view.revealed, view.hand)
    image = Image.new("RGB", (scene.width, scene.height), theme.felt)
    draw = ImageDraw.Draw(image)
    _draw_panels(draw, image, scene, view, table, theme)
    _draw_info(draw, scene, view, table, theme)
    unit = scene.unit
    ox, oy = scene.table.x, scene.table.y
    if view.trains:
        _draw_trains(draw, scene, layout, view, table, theme)  # type: ignore[arg-type]
    for link in links:
        a, b = link.start.scaled(unit, ox, oy), link.end.scaled(unit, ox, oy)
        draw.line(
            ((a[0] + a[2]) / 2, (a[1] + a[3]) / 2, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2),
            fill=theme.muted,
            width=max(2, round(unit / 12)),
        )
    last = _last_tile(view)
    for t in tiles:
        _paste_tile(image, t, unit, ox, oy, theme, coloured, table.numerals)
    for t in tiles:
        if t.tile == last:
            left, top, right, bottom = t.box.scaled(unit, ox, oy)
            ring = max(2, round(unit / 10))
            draw.rounded_rectangle(
                (left - ring, top - ring, right + ring, bottom + ring),
                radius=ring * 2,
                outline=theme.last,
                width=ring,
            )
    badge = font(max(12, round(unit * 0.42)))
    for box, number in ends:
        _draw_end(draw, box, number, unit, ox, oy, theme, badge)
    if scene.reveal:
        _draw_reveal(draw, image, scene, view, table, theme, coloured)
    if scene.hand:
        _draw_hand(draw, image, scene, view, table, theme, coloured)
    if view.revealed is not None and view.sheet:
        # the end of a hand: the score sheet goes under the revealed hands
        sheet = draw_score_sheet(view, table.names, table.theme, table.lang)
        whole = Image.new("RGB", (image.width, image.height + sheet.height), theme.felt)
        whole.paste(image, (0, 0))
        whole.paste(sheet, (0, image.height))
        return whole
    return image


def _last_tile(view: View) -> object:
    for move in reversed(view.history):
        if move.tile is not None:
            return move.tile
    return None


def _paste_tile(
    image: Image.Image,
    t: PlacedTile,
    unit: float,
    ox: float,
    oy: float,
    theme: Theme,
    coloured: bool,
    numerals: bool,
) -> None:
    left, top, right, _bottom = t.box.scaled(unit, ox, oy)
    size = round(unit)
    face = tile_face(t.first, t.second, size, t.upright, theme, coloured, numerals)
    image.paste(face, (left + (right - left - face.width) // 2, top), face)


def _draw_end(
    draw: ImageDraw.ImageDraw,
    box: Box,
    number: int,
    unit: float,
    ox: float,
    oy: float,
    theme: Theme,
    face: object,
) -> None:
    """A badge with the open number at the corner of the open half."""
    _left, top, right, _bottom = box.scaled(unit, ox, oy)
    r = max(9, round(unit * 0.3))
    cx, cy = right - r // 2, top + r // 2
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.open_end, outline=theme.felt)
    draw.text((cx, cy), str(number), fill=theme.felt, font=face, anchor="mm")  # type: ignore[arg-type]


def _seat_colour(view: View, seat: int, theme: Theme) -> tuple[int, int, int]:
    index = seat % 2 if view.rules.teams else seat
    return theme.players[index % len(theme.players)]


def _draw_panels(
    draw: ImageDraw.ImageDraw,
    image: Image.Image,
    scene: Scene,
    view: View,
    table: Table,
    theme: Theme,
) -> None:
    name_font = font(22)
    small = font(17)
    for seat, box in enumerate(scene.panels):
        left, top, right, bottom = box.scaled(1)
        colour = _seat_colour(view, seat, theme)
        draw.rectangle((left + 3, top + 3, right - 3, bottom - 3), fill=theme.panel)
        draw.rectangle((left + 3, top + 3, left + 9, bottom - 3), fill=colour)
        if view.to_move == seat:
            draw.rectangle((left + 3, top + 3, right - 3, bottom - 3), outline=theme.last, width=3)
        name = (
            table.names[seat]
            if seat < len(table.names)
            else f"{word('player', table.lang)} {seat + 1}"
        )
        name = _fit(draw, name, name_font, right - left - 110)
        draw.text((left + 16, top + 10), name, fill=theme.ink, font=name_font)
        score = _score_of(view, seat)
        if score is not None:
            draw.text(
                (right - 12, top + 10), str(score), fill=theme.ink, font=name_font, anchor="ra"
            )
        count = view.tile_counts[seat] if seat < len(view.tile_counts) else 0
        back = tile_back(12, True, theme)
        x = left + 16
        shown = min(count, max(0, int((right - left - 80) // 15)))
        for _ in range(shown):
            image.paste(back, (x, top + 44), back)
            x += 15
        draw.text((x + 4, top + 48), f"{count}", fill=theme.muted, font=small)
        if view.to_move == seat and table.turn_seconds is not None:
            seconds = max(0, round(table.turn_seconds))
            draw.text(
                (right - 12, top + 48),
                f"{seconds // 60}:{seconds % 60:02d}",
                fill=theme.last,
                font=small,
                anchor="ra",
            )


def _score_of(view: View, seat: int) -> int | None:
    """The score shown in a seat's panel: its team's in partnership games."""
    scores = view.scores
    side = seat % 2 if view.rules.teams else seat
    return scores[side] if side < len(scores) else None


def _fit(draw: ImageDraw.ImageDraw, text: str, face: object, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if draw.textlength(text, font=face) <= width:  # type: ignore[arg-type]
        return text
    while text and draw.textlength(text + "…", font=face) > width:  # type: ignore[arg-type]
        text = text[:-1]
    return text + "…"


def _draw_info(
    draw: ImageDraw.ImageDraw, scene: Scene, view: View, table: Table, theme: Theme
) -> None:
    left, top, _right, bottom = scene.info.scaled(1)
    face = font(20)
    lang = table.lang
    parts: list[str] = []
    kind = word("round", lang) if view.trains else word("hand", lang)
    if view.hand_number:
        parts.append(f"{kind} {view.hand_number}")
    if view.rules.has_boneyard or view.trains:
        parts.append(f"{word('boneyard', lang)}: {view.boneyard}")
    if view.count is not None and view.placements:
        text = f"{word('count', lang)}: {view.count}"
        divisor = view.rules.divisor or 0
        last = next((m for m in reversed(view.history) if m.tile is not None), None)
        if divisor and view.count and view.count % divisor == 0 and last is not None:
            name = _name(table, last.seat, lang)
            text += f" ({name} {word('scored', lang)} {view.count // divisor})"
        parts.append(text)
    if table.clock_seconds is not None:
        seconds = max(0, round(table.clock_seconds))
        parts.append(f"{word('game_clock', lang)} {seconds // 60}:{seconds % 60:02d}")
    if view.time_up:
        parts.append(word("time_up", lang))
    result = view.result if view.revealed is not None else None
    if result is not None:
        parts.append(_result_text(view, table, result))
    draw.text(
        (left + 12, (top + bottom) / 2),
        "   ·   ".join(parts),
        fill=theme.ink,
        font=face,
        anchor="lm",
    )


def _name(table: Table, seat: int, lang: str) -> str:
    if seat < len(table.names):
        return table.names[seat]
    return f"{word('player', lang)} {seat + 1}"


def _result_text(view: View, table: Table, result: object) -> str:
    lang = table.lang
    end = getattr(result, "end", "")
    winner = getattr(result, "winner", None)
    head = word(end, lang) if end in ("domino", "blocked", "void") else str(end)
    if winner is None:
        return f"{head}: {word('tie', lang)}" if end != "void" else head
    if view.rules.teams:
        who = (
            f"{word('team', lang)} {_name(table, winner, lang)} / {_name(table, winner + 2, lang)}"
        )
    else:
        who = _name(table, winner, lang)
    return f"{head}: {who} {word('wins', lang)}"


def _draw_reveal(
    draw: ImageDraw.ImageDraw,
    image: Image.Image,
    scene: Scene,
    view: View,
    table: Table,
    theme: Theme,
    coloured: bool,
) -> None:
    face = font(19)
    pips = view.result.pips if view.result is not None else ()
    for row in scene.reveal:
        left, top, _right, bottom = row.label.scaled(1)
        name = _fit(draw, _name(table, row.seat, table.lang), face, 130)
        points = f"  {pips[row.seat]}" if row.seat < len(pips) else ""
        draw.text(
            (left, (top + bottom) / 2),
            name + points,
            fill=_seat_colour(view, row.seat, theme),
            font=face,
            anchor="lm",
        )
        for tile, box in row.tiles:
            x0, y0, _, _ = box.scaled(1)
            tile_image = tile_face(
                tile.hi, tile.lo, round(box.h), False, theme, coloured, table.numerals
            )
            image.paste(tile_image, (x0, y0), tile_image)


def _draw_hand(
    draw: ImageDraw.ImageDraw,
    image: Image.Image,
    scene: Scene,
    view: View,
    table: Table,
    theme: Theme,
    coloured: bool,
) -> None:
    assert scene.hand_label is not None
    left, top, _, bottom = scene.hand_label.scaled(1)
    lang = table.lang
    seat = view.seat if view.seat is not None else 0
    title = f"{word('your_hand', lang)} · {_name(table, seat, lang)}"
    draw.text((left, (top + bottom) / 2), title, fill=theme.ink, font=font(22), anchor="lm")
    keys = keys_by_tile(view.legal_moves)
    key_font = font(18)
    for spot in scene.hand:
        x0, y0, x1, y1 = spot.box.scaled(1)
        tile = spot.tile
        face_image = tile_face(
            tile.hi, tile.lo, round(spot.box.w), True, theme, coloured, table.numerals
        )
        playable = tile in keys
        if playable:
            draw.rounded_rectangle(
                (x0 - 4, y0 - 4, x1 + 4, y1 + 4), radius=8, outline=theme.last, width=4
            )
        else:
            face_image = _dimmed(face_image)
        image.paste(face_image, (x0, y0), face_image)
        if playable:
            kx0, ky0, kx1, ky1 = spot.key_box.scaled(1)
            text = " ".join(keys[tile])
            draw.rounded_rectangle((kx0, ky0, kx1, ky1), radius=6, fill=theme.last)
            draw.text(
                ((kx0 + kx1) / 2, (ky0 + ky1) / 2),
                text,
                fill=theme.felt,
                font=key_font,
                anchor="mm",
            )


def _dimmed(face: Image.Image) -> Image.Image:
    """A tile that cannot be played now: faded, so the playable ones stand out."""
    faded = face.copy()
    alpha = faded.getchannel("A").point(lambda a: a * 55 // 100)
    faded.putalpha(alpha)
    return faded


def _draw_trains(
    draw: ImageDraw.ImageDraw,
    scene: Scene,
    layout: object,
    view: View,
    table: Table,
    theme: Theme,
) -> None:
    """Spokes' labels and markers, and the unsatisfied double's highlight."""
    unit = scene.unit
    ox, oy = scene.table.x, scene.table.y
    label_font = font(max(12, round(unit * 0.45)))
    for spot in getattr(layout, "labels", ()):
        left, top, right, bottom = spot.box.scaled(unit, ox, oy)
        if spot.owner is None:
            colour, text = theme.ink, word("mexican", table.lang)
        else:
            colour = theme.players[spot.owner % len(theme.players)]
            text = _name(table, spot.owner, table.lang)
        x0, y0, x1, y1 = spot.spoke
        draw.line(
            (ox + x0 * unit, oy + y0 * unit, ox + x1 * unit, oy + y1 * unit),
            fill=colour,
            width=max(2, round(unit / 10)),
        )
        draw.rounded_rectangle(
            (left, top, right, bottom), radius=6, fill=theme.panel, outline=colour, width=2
        )
        text = _fit(draw, text, label_font, right - left - 8)
        draw.text(
            ((left + right) / 2, (top + bottom) / 2),
            text,
            fill=colour,
            font=label_font,
            anchor="mm",
        )
        if spot.marked and spot.marker is not None:
            mx0, my0, mx1, my1 = spot.marker.scaled(unit, ox, oy)
            draw.ellipse((mx0, my0, mx1, my1), fill=colour, outline=theme.ink, width=2)
    for box in getattr(layout, "unsatisfied", ()):
        left, top, right, bottom = box.scaled(unit, ox, oy)
        draw.rounded_rectangle(
            (left - 5, top - 5, right + 5, bottom + 5), radius=8, outline=(230, 40, 40), width=4
        )


def draw_hand(view: View, table: Table) -> Image.Image:
    """Only a player's hand (for a private message): the tiles and their move keys."""
    theme = theme_named(table.theme)
    scene = scene_layout(0, (0.0, 0.0), None, view.hand or ())
    image = Image.new("RGB", (scene.width, max(scene.height, 60)), theme.felt)
    if scene.hand:
        _draw_hand(ImageDraw.Draw(image), image, scene, view, table, theme, view.rules.set > 9)
    return image


def names_for(players: int, names: Sequence[str] | None) -> tuple[str, ...]:
    if names:
        return tuple(names)
    return tuple(f"{word('player', 'en')} {s + 1}" for s in range(players))
