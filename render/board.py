"""The picture of a table, drawn from a view: what the room sees, or what one seat sees
with its own hand below. Only the view (and the names and clocks the bot passes) is read.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property

from PIL import Image, ImageDraw, ImageFont

from engine.keys import keys_by_tile
from engine.moves import Action
from engine.outcome import HandResult
from engine.tiles import Tile
from engine.views import View
from render.faces import tile_backs, tile_face
from render.fonts import drawable, fit_text, font
from render.geometry import Box, PlacedTile
from render.line_layout import WIDTH as LINE_WIDTH
from render.line_layout import Link, layout_line
from render.measure import Measure, NoMeasure, RecordingDraw
from render.names import short_names
from render.palette import indexed
from render.plain import Table
from render.scene import INFO_LINE, WIDTH, Scene, scene_layout, seat_places
from render.sheets import draw_score_sheet
from render.theme import RGB, Theme, theme_named
from render.train_layout import TrainLayout, layout_trains
from render.words import game_over_text, goal_text, numbers_hands, passes_text, word

UNSATISFIED = (230, 40, 40)
NOTICE_ROOM = 60  # pixels of table a notice needs to stand in its middle
PANEL_NAME_SIZE = 22
PANEL_SCORE_GAP = 14  # pixels at least between a panel's name and its score
BACK_STEP = 15  # pixels from one back to the next in a panel's row of tiles held
DRAW_UNIT = 26  # pixels across a tile of the opening draw (its short side)
DRAW_GAP = 8  # pixels between a name and the tile it drew
DRAW_SPAN = 200  # pixels at most from one seat's name to the next one's
FACTS_SIZE = 20
AROUND_WIDTH = 14.0  # units across a line game's snake between seats east and west
TALL_NAME_SIZE = 18  # a name east or west of the table: "Computadora" fits its column
FACTS_SEPARATOR = "   ·   "


def _per_seat(values: tuple[str, ...], seat: int) -> str:
    """A seat's tag or note ("" for a seat the table says nothing of)."""
    return values[seat] if 0 <= seat < len(values) else ""


def draw_board(view: View, table: Table, measure: Measure | None = None) -> Image.Image:
    """The table as ``view`` shows it; a seat's view adds its hand, the end of a hand
    adds every hand revealed and the score sheet. ``measure`` (render/measure.py), when
    given, records what is drawn: the picture's geometry as data."""
    painter = _Painter(view, table, measure=measure)
    image = painter.board()
    if measure is not None:
        measure.width, measure.height = image.size
        measure.count = view.count
    return indexed(image)


def draw_hand(view: View, table: Table) -> Image.Image:
    """Only a player's hand (for a private message): the tiles and their move keys."""
    painter = _Painter(view, table, scene_layout(0, (0.0, 0.0), None, view.hand))
    return indexed(painter.hand_alone())


class _Painter:
    """One picture being drawn: the view, the names and the canvas, shared by its parts."""

    def __init__(
        self,
        view: View,
        table: Table,
        scene: Scene | None = None,
        measure: Measure | None = None,
    ) -> None:
        self.view = view
        # what the bundled font cannot draw (an emoji in a name) becomes a visible
        # substitute, never a box (render/fonts.py: drawable)
        self.table = table = replace(
            table,
            names=tuple(drawable(n) for n in table.names),
            tags=tuple(drawable(t) for t in table.tags),
            notes=tuple(drawable(n) for n in table.notes),
            scored=drawable(table.scored),
            notice=drawable(table.notice),
        )
        self.theme: Theme = theme_named(table.theme)
        self.coloured = view.rules.set > 9
        self.train_layout: TrainLayout | None = None
        self.links: tuple[Link, ...] = ()
        board = scene is None  # else a hand alone
        self.facts: list[tuple[str, bool]] = []
        if scene is None:
            south = view.seat if view.seat is not None else 0  # the room: seat 0 south
            places = seat_places(view.players, south, not view.trains)
            if view.trains:
                self.train_layout = layout_trains(view)
                self.tiles = self.train_layout.tiles
                self.ends = self.train_layout.open_ends
                self.badges = self.train_layout.badges
                size = (self.train_layout.width, self.train_layout.height)
            else:
                sides = [(s.number, s.tile, s.kind) for s in view.open_sides]
                crosswise = view.rules.crosswise_doubles
                # a snake between seats east and west turns sooner: its tiles stay larger
                beside = places is not None and ("east" in places or "west" in places)
                width = AROUND_WIDTH if beside and not crosswise else LINE_WIDTH
                line = layout_line(view.placements, sides, crosswise, width)
                self.tiles, self.links, self.ends = line.tiles, line.links, line.open_ends
                self.badges = line.badges
                size = (line.width, line.height)
            teams = 2 if places is not None and view.rules.partners else 0

            def laid_out(lines: int) -> Scene:
                return scene_layout(
                    view.players,
                    size,
                    view.revealed,
                    view.hand,
                    opening_draw=view.draw_is_news,
                    places=places,
                    teams=teams,
                    info_lines=lines,
                )

            scene = laid_out(1)
            self.facts = self.facts_lines(scene)
            if len(self.facts) > 1:
                scene = laid_out(len(self.facts))
        else:
            self.tiles, self.ends, self.badges = (), (), ()
        self.scene = scene
        # the end of a hand: the score sheet goes under the revealed hands; drawn first,
        # the picture is one canvas made once (a second canvas and a copy of the first
        # into it cost 1.5 ms on the eight-player Mexican Train round)
        self.sheet: Image.Image | None = None
        if board and view.revealed is not None and view.sheet:
            self.sheet = draw_score_sheet(view, table.names, table.theme, table.lang)
        self.height = max(scene.height, 60)  # above the score sheet
        below = self.sheet.height if self.sheet is not None else 0
        self.image = Image.new("RGB", (scene.width, self.height + below), self.theme.felt)
        self.measure = measure if measure is not None else NoMeasure()
        self.draw: ImageDraw.ImageDraw = (
            ImageDraw.Draw(self.image) if measure is None else RecordingDraw(self.image, measure)
        )

    # ----- the whole pictures ----------------------------------------------------------

    def board(self) -> Image.Image:
        self.panels()
        self.info()
        if self.scene.draw is not None:
            self.opening_draw()
        self.table_tiles()
        if self.scene.reveal:
            self.reveal()
        if self.scene.hand:
            self.hand()
        if self.sheet is not None:  # last: nothing drawn above runs over it
            self.image.paste(self.sheet, (0, self.height))
        return self.image

    def hand_alone(self) -> Image.Image:
        if self.scene.hand:
            self.hand()
        return self.image

    # ----- parts -----------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return self.table.name(seat)

    @cached_property
    def unit(self) -> float:
        return self.scene.unit

    def at(self, box: Box) -> tuple[int, int, int, int]:
        """``box`` (table units) in the picture's pixels."""
        return box.scaled(self.unit, self.scene.table.x, self.scene.table.y)

    def colour_of(self, seat: int) -> RGB:
        index = self.view.rules.side_of(seat)
        return self.theme.players[index % len(self.theme.players)]

    def face(self, tile: PlacedTile | Tile, size: int, upright: bool) -> Image.Image:
        first, second = (
            (tile.first, tile.second) if isinstance(tile, PlacedTile) else (tile.hi, tile.lo)
        )
        return tile_face(
            first, second, size, upright, self.theme, self.coloured, self.table.numerals
        )

    def table_tiles(self) -> None:
        theme, draw, unit = self.theme, self.draw, self.unit
        if self.train_layout is not None:
            self.trains(self.train_layout)
        for link in self.links:
            a, b = self.at(link.start), self.at(link.end)
            ends = ((a[0] + a[2]) / 2, (a[1] + a[3]) / 2, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
            self.measure.link(*ends)
            draw.line(
                ends,
                fill=theme.muted,
                width=max(2, round(unit / 12)),
            )
        last = next((m.tile for m in reversed(self.view.history) if m.tile is not None), None)
        plies = {m.tile: i for i, m in enumerate(self.view.history) if m.tile is not None}
        for t in self.tiles:
            left, top, right, _ = self.at(t.box)
            face = self.face(t, round(unit), t.upright)
            x = left + (right - left - face.width) // 2
            self.image.paste(face, (x, top), face)
            name = f"{t.first}-{t.second}"
            self.measure.tile(name, x, top, face.width, face.height, plies.get(t.tile))
        ring = max(2, round(unit / 10))
        for t in self.tiles:
            if t.tile == last:
                left, top, right, bottom = self.at(t.box)
                draw.rounded_rectangle(
                    (left - ring, top - ring, right + ring, bottom + ring),
                    radius=ring * 2,
                    outline=theme.last,
                    width=ring,
                )
        self.end_badges()
        self.score_mark(last)

    def end_badges(self) -> None:
        """Each open end's number in a badge beside it (never over a tile's pips)."""
        theme, draw, unit = self.theme, self.draw, self.unit
        badge = font(max(12, round(unit * 0.42)))
        for box, number in self.badges:
            left, top, right, bottom = self.at(box)
            self.measure.badge(number, left, top, right - left, bottom - top)
            draw.ellipse((left, top, right, bottom), fill=theme.open_end, outline=theme.felt)
            centre = ((left + right) / 2, (top + bottom) / 2)
            draw.text(centre, str(number), fill=theme.felt, font=badge, anchor="mm")

    def score_mark(self, last: Tile | None) -> None:
        """What the last play scored by the count, beside the ringed tile ("+3")."""
        scored = self.view.last_score
        if scored is None or last is None or self.view.count is None:
            return
        at = next((t for t in self.tiles if t.tile == last), None)
        if at is None:
            return
        face = font(max(14, round(self.unit * 0.45)), bold=True)
        text = f"+{scored.points}"
        left, top, right, bottom = self.at(at.box)
        w = self.draw.textlength(text, font=face) + 12
        h = face.size + 8
        others = [self.at(t.box) for t in self.tiles] + [self.at(b) for b, _ in self.badges]
        width, height = self.image.width, self.height
        ring = max(2, round(self.unit / 10)) + 3
        # beside the tile's corners and sides, then a step further out each time: the
        # first spot clear of every tile and badge
        spots = [
            (x + dx * step * h, y + dy * step * h)
            for step in range(6)
            for x, y, dx, dy in (
                (right + ring, top - h - ring / 2, 0, -1),
                (left - w - ring, top - h - ring / 2, 0, -1),
                (right + ring, bottom + ring / 2, 0, 1),
                (left - w - ring, bottom + ring / 2, 0, 1),
                (right + ring, (top + bottom - h) / 2, 1, 0),
                (left - w - ring, (top + bottom - h) / 2, -1, 0),
            )
        ]
        # on the table, else beside it where no seat, team or fact is drawn
        table = self.scene.table.scaled(1)
        frames = [b.scaled(1) for b in (*self.scene.panels, *self.scene.teams, self.scene.info)]
        chosen = spots[0]
        for roomy in (True, False):
            found = None
            for x, y in spots:
                box = (x, y, x + w, y + h)
                if roomy:
                    inside = box[0] >= table[0] and box[2] <= table[2]
                    inside = inside and box[1] >= table[1] and box[3] <= table[3]
                else:
                    inside = box[0] >= 0 and box[1] >= 0 and not any(_meets(box, f) for f in frames)
                inside = inside and box[2] <= width and box[3] <= height
                if inside and not any(_meets(box, o) for o in others):
                    found = (x, y)
                    break
            if found is not None:
                chosen = found
                break
        x, y = chosen
        self.measure.shape("mark", x, y, w, h)
        self.draw.rounded_rectangle(
            (x, y, x + w, y + h), radius=6, fill=self.theme.last, outline=self.theme.felt
        )
        centre = (x + w / 2, y + h / 2)
        self.draw.text(centre, text, fill=self.theme.felt, font=face, anchor="mm")

    def trains(self, layout: TrainLayout) -> None:
        """Spokes, labels and markers of Mexican Train, and the unsatisfied double."""
        theme, draw, unit = self.theme, self.draw, self.unit
        ox, oy = self.scene.table.x, self.scene.table.y
        label_font = font(max(12, round(unit * 0.45)))
        for spot in layout.labels:
            if spot.owner is None:
                colour, text = theme.ink, word("mexican", self.table.lang)
            else:
                colour, text = self.colour_of(spot.owner), self.name(spot.owner)
            x0, y0, x1, y1 = spot.spoke
            draw.line(
                (ox + x0 * unit, oy + y0 * unit, ox + x1 * unit, oy + y1 * unit),
                fill=colour,
                width=max(2, round(unit / 10)),
            )
            left, top, right, bottom = self.at(spot.box)
            self.measure.shape("label", left, top, right - left, bottom - top)
            draw.rounded_rectangle(
                (left, top, right, bottom), radius=6, fill=theme.panel, outline=colour, width=2
            )
            if spot.owner is None:
                text = fit_text(draw, text, label_font, right - left - 8)
            else:  # a short form that still tells the trains apart
                names = tuple(self.name(s) for s in range(self.view.players))
                text = short_names(names, right - left - 8, label_font)[spot.owner]
            centre = ((left + right) / 2, (top + bottom) / 2)
            draw.text(centre, text, fill=colour, font=label_font, anchor="mm")
            if spot.marked:
                ml, mt, mr, mb = self.at(spot.marker)
                self.measure.shape("marker", ml, mt, mr - ml, mb - mt)
                draw.ellipse((ml, mt, mr, mb), fill=colour, outline=theme.ink, width=2)
        for box in layout.unsatisfied:
            left, top, right, bottom = self.at(box)
            draw.rounded_rectangle(
                (left - 5, top - 5, right + 5, bottom + 5), radius=8, outline=UNSATISFIED, width=4
            )

    def shown_name(self, seat: int, width: float, face: ImageFont.FreeTypeFont) -> str:
        """The name at ``seat`` whole where it fits in ``width`` pixels, else a short form
        that still tells the seats apart (render/names.py)."""
        names = tuple(self.name(s) for s in range(self.view.players))
        shown = short_names(names, max(0.0, width), face)
        return shown[seat] if seat < len(shown) else self.name(seat)

    def tall_name(self, seat: int, width: float, face: ImageFont.FreeTypeFont) -> str:
        """A name in a narrow panel: whole on one line, else whole on two lines broken
        between words, else (no room even so) its short form on one line."""
        name = self.name(seat)
        if self.draw.textlength(name, font=face) <= width:
            return name
        words, lines = name.split(" "), [""]
        for w in words:
            longer = f"{lines[-1]} {w}" if lines[-1] else w
            if lines[-1] and self.draw.textlength(longer, font=face) > width:
                lines.append(w)
            else:
                lines[-1] = longer
        if len(lines) == 2 and all(self.draw.textlength(x, font=face) <= width for x in lines):
            return "\n".join(lines)
        return self.shown_name(seat, width, face)

    def seat_score(self, seat: int) -> str | None:
        """The score a seat's panel shows: its own (or its side's on cards); None where
        the teams' totals stand beside the table instead."""
        if self.scene.teams:
            return None
        side = self.view.rules.side_of(seat)
        return str(self.view.scores[side]) if side < len(self.view.scores) else None

    def passes(self, seat: int) -> int:
        """How often ``seat`` passed in this hand (a draw game's draws are not passes)."""
        return sum(1 for m in self.view.history if m.seat == seat and m.action is Action.PASS)

    def panels(self) -> None:
        """Each seat's panel: around the table, or a row of cards (render/scene.py). The
        turn frames the panel; every fact has a place of its own."""
        table, draw = self.table, self.draw
        # while the table waits (a team choosing who opens) nobody's turn is framed
        to_move = None if table.notice else self.view.to_move
        places = self.scene.places
        for seat, box in enumerate(self.scene.panels):
            left, top, right, bottom = box.scaled(1)
            place = places[seat] if places is not None else "card"
            w, h = right - left, bottom - top
            self.measure.shape("seat", left, top, w, h, seat=seat, place=place)
            draw.rectangle((left + 3, top + 3, right - 3, bottom - 3), fill=self.theme.panel)
            draw.rectangle((left + 3, top + 3, left + 9, bottom - 3), fill=self.colour_of(seat))
            if to_move == seat:
                draw.rectangle(
                    (left + 3, top + 3, right - 3, bottom - 3), outline=self.theme.last, width=3
                )
            if place not in ("east", "west"):
                self.wide_panel(seat, (left, top, right, bottom), to_move == seat)
            else:
                self.tall_panel(seat, (left, top, right, bottom), to_move == seat)
        for side, box in enumerate(self.scene.teams):
            self.team_total(side, box.scaled(1))

    def backs(self, seat: int, left: float, top: float, room: float) -> float:
        """The tiles ``seat`` holds as backs from (``left``, ``top``) and their number
        after them, in ``room`` pixels; returns where the number ends."""
        small = font(17)
        count = self.view.tile_counts[seat] if seat < len(self.view.tile_counts) else 0
        number = str(count)
        fit = room - self.draw.textlength(number, font=small) - 8
        shown = min(count, max(0, int(fit // BACK_STEP)))
        if shown:
            backs = tile_backs(shown, BACK_STEP, self.theme)
            self.image.paste(backs, (round(left), round(top)), backs)
            self.measure.shape("backs", round(left), round(top), backs.width, backs.height)
        x = left + shown * BACK_STEP + 4
        self.draw.text((x, top + 12), number, fill=self.theme.muted, font=small, anchor="lm")
        return x + self.draw.textlength(number, font=small)

    def turn(self, seat: int, right: float, row: float, room: float) -> float:
        """The clock and "to play" at the right of a row; returns where they begin."""
        table, draw, small = self.table, self.draw, font(17)
        right_end = right
        if table.turn_seconds is not None:
            seconds = max(0, round(table.turn_seconds))
            clock = f"{seconds // 60}:{seconds % 60:02d}"
            draw.text((right_end, row), clock, fill=self.theme.last, font=small, anchor="rm")
            right_end -= draw.textlength(clock, font=small) + 8
        turn = word("to_move", table.lang)
        if draw.textlength(turn, font=small) <= room:
            draw.text((right_end, row), turn, fill=self.theme.last, font=small, anchor="rm")
            right_end -= draw.textlength(turn, font=small) + 10
        else:  # a narrow panel: the frame says whose turn
            right_end -= 2
        return right_end

    def tag_and_note(self, seat: int, at_left: float, right_end: float, row: float) -> None:
        """The computer's strength as a small tag, then the seat's note, then its passes."""
        draw, theme, small, tag_font = self.draw, self.theme, font(17), font(14)
        tag = _per_seat(self.table.tags, seat)
        if tag:
            tag = fit_text(draw, tag, tag_font, max(0, right_end - at_left - 10))
            if tag and tag != "…":
                w = draw.textlength(tag, font=tag_font)
                draw.rounded_rectangle(
                    (at_left, row - 10, at_left + w + 10, row + 10),
                    radius=6,
                    outline=theme.muted,
                    width=1,
                )
                draw.text((at_left + 5, row), tag, fill=theme.muted, font=tag_font, anchor="lm")
                at_left += w + 18
        note = _per_seat(self.table.notes, seat)
        if note:
            note = fit_text(draw, note, small, max(0, right_end - at_left))
            if note and note != "…":
                draw.text((at_left, row), note, fill=theme.ink, font=small, anchor="lm")

    def wide_panel(self, seat: int, box: tuple[int, int, int, int], moves: bool) -> None:
        """Three rows: the name and the score; the tiles held and the passes; the tag and
        the note at the left, to play and the timer at the right."""
        draw, theme = self.draw, self.theme
        left, top, right, _ = box
        name_font, small = font(PANEL_NAME_SIZE), font(17)
        inner_left, inner_right = left + 16, right - 12
        score = self.seat_score(seat)
        score_w = draw.textlength(score, font=name_font) + PANEL_SCORE_GAP if score else 0
        name = self.shown_name(seat, inner_right - inner_left - score_w, name_font)
        draw.text((inner_left, top + 10), name, fill=theme.ink, font=name_font)
        if score:
            draw.text((inner_right, top + 10), score, fill=theme.ink, font=name_font, anchor="ra")
        passes = self.passes(seat)
        said = passes_text(passes, self.table.lang) if passes else ""
        room = inner_right - inner_left - (draw.textlength(said, font=small) + 16 if said else 0)
        self.backs(seat, inner_left, top + 40, room)  # fewer backs before a cut word
        if said:
            draw.text((inner_right, top + 52), said, fill=theme.muted, font=small, anchor="rm")
        row = top + 80
        right_end: float = inner_right
        if moves:
            right_end = self.turn(seat, inner_right, row, (inner_right - inner_left) / 2)
        self.tag_and_note(seat, inner_left, right_end, row)

    def tall_panel(self, seat: int, box: tuple[int, int, int, int], moves: bool) -> None:
        """A seat east or west of the table, one fact a row: the name, the tiles held,
        the score, the passes and the note, the tag, to play and the timer."""
        draw, theme, lang = self.draw, self.theme, self.table.lang
        left, top, right, _ = box
        name_font, small = font(TALL_NAME_SIZE), font(17)
        inner_left, inner_right = left + 16, right - 8
        name = self.tall_name(seat, inner_right - inner_left, name_font)
        draw.text((inner_left, top + 10), name, fill=theme.ink, font=name_font, spacing=2)
        top += 22 * name.count("\n")  # a name on two lines moves the rest down
        self.backs(seat, inner_left, top + 40, inner_right - inner_left)
        score = self.seat_score(seat)
        if score:
            text = f"{word('points', lang)}: {score}"
            text = fit_text(draw, text, small, inner_right - inner_left)
            draw.text((inner_left, top + 86), text, fill=theme.ink, font=small, anchor="lm")
        passes = self.passes(seat)
        if passes:
            text = fit_text(draw, passes_text(passes, lang), small, inner_right - inner_left)
            draw.text((inner_left, top + 110), text, fill=theme.muted, font=small, anchor="lm")
        self.tag_and_note(seat, inner_left, inner_right, top + 134 if passes else top + 110)
        if moves:
            self.turn(seat, inner_right, top + 158, inner_right - inner_left)

    def team_total(self, side: int, box: tuple[int, int, int, int]) -> None:
        """A team's total beside the table: its names in its colour, its score below."""
        draw, theme, view = self.draw, self.theme, self.view
        left, top, right, bottom = box
        self.measure.shape("team", left, top, right - left, bottom - top, side=side)
        seats = view.rules.side_seats(view.players)[side]
        colour = self.colour_of(seats[0])
        draw.rectangle((left + 3, top + 3, right - 3, bottom - 3), fill=theme.panel)
        draw.rectangle((left + 3, top + 3, left + 9, bottom - 3), fill=colour)
        face = font(19)
        room = (right - left - 28 - draw.textlength(" / ", font=face)) / 2
        names = " / ".join(self.shown_name(s, room, face) for s in seats)
        draw.text((left + 16, top + 12), names, fill=colour, font=face)
        score = str(view.scores[side]) if side < len(view.scores) else "0"
        draw.text((left + 16, top + 40), score, fill=theme.ink, font=font(36, bold=True))

    def facts_lines(self, scene: Scene) -> list[tuple[str, bool]]:
        """The line of facts, wrapped between facts (never cut: a count or a result
        is read whole), each line with whether it is bold; who won the game first."""
        view, lang = self.view, self.table.lang
        parts: list[str] = []
        goal = goal_text(view.rules, view.hand_number, lang)
        if numbers_hands(view.rules):  # "Round 3 of 13: fewest points win", "1 hand"
            parts.append(goal[:1].upper() + goal[1:])
        else:
            if view.hand_number:
                kind = word("round", lang) if view.trains else word("hand", lang)
                parts.append(f"{kind} {view.hand_number}")
            if view.revealed is None or not view.sheet:  # else the score sheet says it
                parts.append(goal)  # "to 100: whoever reaches it loses"
        if view.rules.has_boneyard or view.trains:
            parts.append(f"{word('boneyard', lang)}: {view.boneyard}")
        told = self.table.scored  # the bot's words for the last score ("Ana +3 · ...")
        if told:
            parts.append(told)
        elif view.count is not None and view.placements:
            text = f"{word('count', lang)}: {view.count}"
            scored = view.last_score
            if scored is not None:
                who = self.name(scored.seat)
                text += f" ({who} {word('scored', lang)} {scored.points})"
            parts.append(text)
        if self.table.clock_seconds is not None:
            seconds = max(0, round(self.table.clock_seconds))
            parts.append(f"{word('game_clock', lang)} {seconds // 60}:{seconds % 60:02d}")
        if view.time_up:
            parts.append(word("time_up", lang))
        if view.revealed is not None and view.result is not None:
            parts.append(self.result_text(view.result))
        notice = self.table.notice
        if notice and scene.table.h < NOTICE_ROOM:
            parts.append(notice)
        lines = [(line, False) for line in _wrap(parts, font(FACTS_SIZE), WIDTH - 36)]
        if view.outcome is not None:  # the game's last picture says who won the game
            who = self.side_name(view.outcome.winner)
            won = _wrap([game_over_text(who, lang)], font(FACTS_SIZE, bold=True), WIDTH - 36)
            lines = [(line, True) for line in won] + lines
        return lines

    def info(self) -> None:
        left, top, _, bottom = self.scene.info.scaled(1)
        lines = self.facts or self.facts_lines(self.scene)
        first = (top + bottom) / 2 - (len(lines) - 1) * INFO_LINE / 2
        for k, (line, bold) in enumerate(lines):
            face = font(FACTS_SIZE, bold=bold)
            colour = self.theme.last if bold else self.theme.ink
            at = (left + 12, first + k * INFO_LINE)
            self.draw.text(at, line, fill=colour, font=face, anchor="lm")
        notice = self.table.notice
        if notice and self.scene.table.h >= NOTICE_ROOM:
            self.notice(notice)

    def opening_draw(self) -> None:
        """The tile each seat drew for the opener, beside its name, in seat order; the
        opener's (the highest in tile order) ringed, its name in the same colour."""
        view, theme, draw = self.view, self.theme, self.draw
        assert self.scene.draw is not None
        left, top, right, bottom = self.scene.draw.scaled(1)
        middle = (top + bottom) / 2
        face_font = font(18)
        label = word("opening_draw", self.table.lang)
        draw.text((left + 12, middle), label, fill=theme.muted, font=face_font, anchor="lm")
        x = left + 12 + draw.textlength(label, font=face_font) + 24
        unit = DRAW_UNIT
        ring = 3
        per = min(DRAW_SPAN, (right - 12 - x) / max(1, len(view.opening_draw)))
        room = max(0.0, per - 2 * unit - DRAW_GAP - 2 * ring - 16)
        names = tuple(self.name(s) for s in range(view.players))
        shown = short_names(names, room, face_font)
        for seat, tile in enumerate(view.opening_draw):
            opens = seat == view.opener
            colour = theme.last if opens else theme.ink
            name = shown[seat] if seat < len(shown) else self.name(seat)
            at = x + seat * per
            if name:
                draw.text((at, middle), name, fill=colour, font=face_font, anchor="lm")
                at += draw.textlength(name, font=face_font) + DRAW_GAP
            face = self.face(tile, unit, False)
            fx, fy = round(at + ring), round(middle - face.height / 2)
            self.image.paste(face, (fx, fy), face)
            self.measure.drawn(seat, str(tile), fx, fy, face.width, face.height, opens)
            if opens:
                draw.rounded_rectangle(
                    (fx - ring, fy - ring, fx + face.width + ring, fy + face.height + ring),
                    radius=ring * 2,
                    outline=theme.last,
                    width=ring,
                )

    def notice(self, text: str) -> None:
        """What the table waits for, across the middle of the table (empty then: no tile
        is down before the opener plays)."""
        _, top, _, bottom = self.scene.table.scaled(1)
        face = font(24, bold=True)
        text = fit_text(self.draw, text, face, self.image.width - 48)
        centre = (self.image.width / 2, (top + bottom) / 2)
        self.draw.text(centre, text, fill=self.theme.last, font=face, anchor="mm")

    def result_text(self, result: HandResult) -> str:
        lang = self.table.lang
        end = result.end
        head = word(end, lang) if end in ("domino", "blocked", "void") else str(end)
        if result.winner is None and end == "void":
            return head
        if result.winner is None:
            who = word("tie", lang)
        else:
            who = f"{self.side_name(result.winner)} {word('wins', lang)}"
        # "¡Dominó! Ana gana", "Tranque: Ana gana" (never "¡Dominó!:")
        return f"{head} {who}" if head.endswith("!") else f"{head}: {who}"

    def side_name(self, side: int) -> str:
        """A seat's name, or a team's: "Equipo Ana / Carla"."""
        seats = self.view.rules.side_seats(self.view.players)[side]
        who = " / ".join(self.name(seat) for seat in seats)
        if self.view.rules.partners:
            who = f"{word('team', self.table.lang)} {who}"
        return who

    def reveal(self) -> None:
        face = font(19)
        pips = self.view.result.pips if self.view.result is not None else ()
        for row in self.scene.reveal:
            left, top, _, bottom = row.label.scaled(1)
            names = tuple(self.name(s) for s in range(self.view.players))
            name = short_names(names, 130, face)[row.seat]
            points = f"  {pips[row.seat]}" if row.seat < len(pips) else ""
            self.draw.text(
                (left, (top + bottom) / 2),
                name + points,
                fill=self.colour_of(row.seat),
                font=face,
                anchor="lm",
            )
            for tile, box in row.tiles:
                x0, y0, _, _ = box.scaled(1)
                image = self.face(tile, round(box.h), False)
                self.image.paste(image, (x0, y0), image)

    def hand(self) -> None:
        view, theme, draw = self.view, self.theme, self.draw
        assert self.scene.hand_label is not None
        left, top, _, bottom = self.scene.hand_label.scaled(1)
        seat = view.seat if view.seat is not None else 0
        title = f"{word('your_hand', self.table.lang)} · {self.name(seat)}"
        draw.text((left, (top + bottom) / 2), title, fill=theme.ink, font=font(22), anchor="lm")
        keys = keys_by_tile(view.legal_moves)
        key_font = font(18)
        for spot in self.scene.hand:
            x0, y0, x1, y1 = spot.box.scaled(1)
            face = self.face(spot.tile, round(spot.box.w), True)
            playable = spot.tile in keys
            if playable:
                draw.rounded_rectangle(
                    (x0 - 4, y0 - 4, x1 + 4, y1 + 4), radius=8, outline=theme.last, width=4
                )
            else:
                face = _dimmed(face)
            self.image.paste(face, (x0, y0), face)
            if playable:
                kx0, ky0, kx1, ky1 = spot.key_box.scaled(1)
                draw.rounded_rectangle((kx0, ky0, kx1, ky1), radius=6, fill=theme.last)
                centre = ((kx0 + kx1) / 2, (ky0 + ky1) / 2)
                text = " ".join(keys[spot.tile])
                draw.text(centre, text, fill=theme.felt, font=key_font, anchor="mm")


def _meets(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Two pixel boxes (left, top, right, bottom) share some area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _dimmed(face: Image.Image) -> Image.Image:
    """A tile that cannot be played now: faded, so the playable ones stand out."""
    faded = face.copy()
    faded.putalpha(faded.getchannel("A").point(lambda a: a * 55 // 100))
    return faded


_MEASURE = ImageDraw.Draw(Image.new("L", (1, 1)))  # widths of text, drawing nothing


def _wrap(parts: list[str], face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``parts`` joined on lines at most ``width`` pixels wide, broken between parts (a
    part wider than a line alone is broken between its words)."""
    measure = _MEASURE
    words: list[str] = []
    for part in parts:
        if measure.textlength(part, font=face) <= width:
            words.append(part)
            continue
        piece = ""
        for token in part.split(" "):
            longer = f"{piece} {token}" if piece else token
            if piece and measure.textlength(longer, font=face) > width:
                words.append(piece)
                piece = token
            else:
                piece = longer
        words.append(fit_text(measure, piece, face, width))
    lines: list[str] = []
    for part in words:
        longer = f"{lines[-1]}{FACTS_SEPARATOR}{part}" if lines else part
        if lines and measure.textlength(longer, font=face) <= width:
            lines[-1] = longer
        else:
            lines.append(part)
    return lines
