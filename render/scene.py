"""Where everything around the table goes, in pixels: the seats' panels, the line of
facts (boneyard, count, clock), the table itself, the revealed hands at the end of a hand
and a player's own hand. Pure geometry, like the table layouts.

Two to four seats of a line game sit around the table as at a real one (south is the
seat that looks, partners opposite each other, play passing counter-clockwise: south,
east, north, west); more seats, and Mexican Train's trains, keep a row of cards above it
(docs/pictures.md, "Around the table")."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import Tile
from render.geometry import Box

WIDTH = 960  # pixels: sharp on a desktop, and a tile's pips still tell apart at 400
PANEL_HEIGHT = 96  # three rows: name and score; tiles held; tag, note, turn and timer
INFO_HEIGHT = 44  # the line of facts, one line
INFO_LINE = 28  # each further line of facts
DRAW_HEIGHT = 40  # the opening draw's row: each seat's name and the tile it drew
PANELS_PER_ROW = 4
HAND_UNIT = 60  # a hand's tiles are bigger than the table's: they are read closely
HAND_GAP = 14
KEY_HEIGHT = 26  # the move keys under a playable tile
REVEAL_UNIT = 26
REVEAL_ROW = 40
MAX_TABLE_UNIT = 56.0
WIDE_W = 420  # a seat north or south of the table
SIDE_W = 150  # a seat east or west of it: a column beside the table
SIDE_H = 200  # the name (on two lines if it must); tiles held; score; passes and note
# (or the tag); the tag; the turn
TEAM_W = 250  # a team's total, in a corner beside the north seat
GAP = 8
PLACES = ("south", "east", "north", "west")  # in the order play passes


def seat_places(players: int, south: int, around: bool) -> tuple[str, ...] | None:
    """Where each seat sits (``PLACES``), ``south`` being the seat that looks; None where
    the seats keep a row of cards (``around`` false: Mexican Train; more than four). Two
    face each other; three leave north free; four sit on every side, partners opposite."""
    if not around or not 2 <= players <= 4:
        return None
    order = {2: ("south", "north"), 3: ("south", "east", "west"), 4: PLACES}[players]
    places = [""] * players
    for k, place in enumerate(order):
        places[(south + k) % players] = place
    return tuple(places)


@dataclass(frozen=True)
class HandSpot:
    tile: Tile
    box: Box  # the tile, upright
    key_box: Box  # where its move keys go


@dataclass(frozen=True)
class RevealRow:
    seat: int
    label: Box
    tiles: tuple[tuple[Tile, Box], ...]


@dataclass(frozen=True)
class Scene:
    width: int
    height: int
    panels: tuple[Box, ...]  # one per seat
    info: Box
    table: Box  # where the table layout is drawn
    unit: float  # pixels a table unit
    reveal: tuple[RevealRow, ...] = ()
    hand_label: Box | None = None
    hand: tuple[HandSpot, ...] = ()
    draw: Box | None = None  # the opening draw's row, under the line of facts
    places: tuple[str, ...] | None = None  # each seat's side of the table, or cards
    teams: tuple[Box, ...] = ()  # the teams' totals (partners around the table)

    def boxes(self) -> list[Box]:
        """Every box, for the tests that nothing overlaps or leaves the picture."""
        found = [*self.panels, *self.teams, self.info, self.table]
        if self.draw is not None:
            found.append(self.draw)
        for row in self.reveal:
            found.append(row.label)
            found += [box for _, box in row.tiles]
        if self.hand_label is not None:
            found.append(self.hand_label)
        for spot in self.hand:
            found += [spot.box, spot.key_box]
        return found


def scene_layout(
    players: int,
    table_size: tuple[float, float],
    revealed: Sequence[Sequence[Tile]] | None = None,
    hand: Sequence[Tile] = (),
    opening_draw: bool = False,
    places: tuple[str, ...] | None = None,
    teams: int = 0,
    info_lines: int = 1,
) -> Scene:
    """The picture's geometry for ``players`` seats and a table ``table_size`` units big;
    ``revealed``: every hand at the end of a hand; ``hand``: a player's own tiles;
    ``opening_draw``: a row for the tiles drawn for the opener, under the line of facts;
    ``places``: each seat's side of the table (:func:`seat_places`; None: cards);
    ``teams``: boxes for the teams' totals; ``info_lines``: lines of facts."""
    info_h = (INFO_HEIGHT + INFO_LINE * (max(1, info_lines) - 1)) if players else 0
    units_w, units_h = table_size
    if places is None:
        columns = max(1, min(players, PANELS_PER_ROW))
        rows = math.ceil(players / PANELS_PER_ROW)
        panel_w = WIDTH / columns
        panels = tuple(
            Box((s % columns) * panel_w, (s // columns) * PANEL_HEIGHT, panel_w, PANEL_HEIGHT)
            for s in range(players)
        )
        y: float = rows * PANEL_HEIGHT
        info = Box(0, y, WIDTH, info_h)
        y += info.h
        draw = None
        if opening_draw:
            draw = Box(0, y, WIDTH, DRAW_HEIGHT)
            y += draw.h
        unit = min(WIDTH / units_w, MAX_TABLE_UNIT) if units_w else 1.0
        table_w = units_w * unit
        table = Box((WIDTH - table_w) / 2, y, table_w, units_h * unit)
        y += table.h
        team_boxes: tuple[Box, ...] = ()
    else:
        info = Box(0, 0, WIDTH, info_h)
        y = info.h
        draw = None
        if opening_draw:
            draw = Box(0, y, WIDTH, DRAW_HEIGHT)
            y += draw.h
        seats_at: dict[str, Box] = {}
        team_boxes = ()
        if "north" in places or teams:
            y += GAP
            seats_at["north"] = Box((WIDTH - WIDE_W) / 2, y, WIDE_W, PANEL_HEIGHT)
            team_boxes = tuple(
                Box(GAP if k == 0 else WIDTH - GAP - TEAM_W, y, TEAM_W, PANEL_HEIGHT)
                for k in range(teams)
            )
            y += PANEL_HEIGHT + GAP
        beside = "east" in places or "west" in places
        side = SIDE_W + GAP if beside else 0.0
        room = WIDTH - 2 * side
        unit = min(room / units_w, MAX_TABLE_UNIT) if units_w else 1.0
        table_w, table_h = units_w * unit, units_h * unit
        middle = max(table_h, SIDE_H if beside else 0.0)
        table = Box((WIDTH - table_w) / 2, y + (middle - table_h) / 2, table_w, table_h)
        side_y = y + (middle - SIDE_H) / 2
        seats_at["west"] = Box(GAP / 2, side_y, SIDE_W, SIDE_H)
        seats_at["east"] = Box(WIDTH - GAP / 2 - SIDE_W, side_y, SIDE_W, SIDE_H)
        y += middle + GAP
        seats_at["south"] = Box((WIDTH - WIDE_W) / 2, y, WIDE_W, PANEL_HEIGHT)
        y += PANEL_HEIGHT
        panels = tuple(seats_at[place] for place in places)
    reveal: list[RevealRow] = []
    if revealed is not None:
        y += 8
        for seat, tiles in enumerate(revealed):
            label = Box(8, y, 200, REVEAL_ROW)
            x = 216.0
            spots: list[tuple[Tile, Box]] = []
            row_y = y + (REVEAL_ROW - REVEAL_UNIT) / 2
            for tile in tiles:
                if x + 2 * REVEAL_UNIT > WIDTH - 8:
                    x = 216.0
                    y += REVEAL_ROW
                    row_y = y + (REVEAL_ROW - REVEAL_UNIT) / 2
                spots.append((tile, Box(x, row_y, 2 * REVEAL_UNIT, REVEAL_UNIT)))
                x += 2 * REVEAL_UNIT + 6
            reveal.append(RevealRow(seat, label, tuple(spots)))
            y += REVEAL_ROW
    hand_label = None
    spots_in_hand: list[HandSpot] = []
    if hand:
        y += 10 if players else 0
        hand_label = Box(8, y, WIDTH - 16, 30)
        y += 34
        per_row = max(1, int((WIDTH - HAND_GAP) // (HAND_UNIT + HAND_GAP)))
        for i, tile in enumerate(hand):
            row, col = divmod(i, per_row)
            x = HAND_GAP + col * (HAND_UNIT + HAND_GAP)
            top = y + row * (2 * HAND_UNIT + KEY_HEIGHT + HAND_GAP)
            box = Box(x, top, HAND_UNIT, 2 * HAND_UNIT)
            key = Box(
                x - HAND_GAP / 2 + 1, top + 2 * HAND_UNIT + 2, HAND_UNIT + HAND_GAP - 2, KEY_HEIGHT
            )
            spots_in_hand.append(HandSpot(tile, box, key))
        rows_in_hand = math.ceil(len(hand) / per_row)
        y += rows_in_hand * (2 * HAND_UNIT + KEY_HEIGHT + HAND_GAP)
    return Scene(
        WIDTH,
        math.ceil(y + 8),
        panels,
        info,
        table,
        unit,
        tuple(reveal),
        hand_label,
        tuple(spots_in_hand),
        draw,
        places,
        team_boxes,
    )
