"""A position of a game as the room sees it, as JSON: built from the room's view
(``view_of(game)``, no seat) and nothing else, so it cannot hold a tile in a hand in play
or the boneyard's tiles; once a hand is over, every hand as shown at the table
(``revealed``). docs/web.md names each field."""

from __future__ import annotations

from typing import Any

from engine.line import END, FLANK, HALF
from engine.outcome import HandResult, Outcome
from engine.tiles import Tile
from engine.views import View

PLACE_KINDS = {END: "end", HALF: "half", FLANK: "flank"}


def tile(value: Tile) -> str:
    return str(value)


def tiles(values: tuple[Tile, ...] | list[Tile]) -> list[str]:
    return [str(t) for t in values]


def position(view: View) -> dict[str, Any]:
    """What the table shows at ``view``'s moment (the room's view only)."""
    assert view.seat is None, "the web shows the room's view, never a seat's"
    return {
        "hand": view.hand_number,
        "ply": view.ply,
        "to_move": view.to_move,
        "opener": view.opener,
        "tile_counts": list(view.tile_counts),
        "boneyard": view.boneyard,
        "placements": [
            {
                "tile": tile(p.tile),
                "on": tile(p.on) if p.on is not None else None,
                "kind": PLACE_KINDS.get(p.kind, str(p.kind)),
                "number": p.number,
            }
            for p in view.placements
        ],
        "open_ends": [
            {"number": o.number, "tile": tile(o.tile), "kind": PLACE_KINDS.get(o.kind, str(o.kind))}
            for o in view.open_sides
        ],
        "count": view.count,
        "scored": list(view.scored),
        "engine": tile(view.engine) if view.engine is not None else None,
        "trains": [
            {
                "owner": t.owner,
                "tiles": tiles(t.tiles),
                "ends": list(t.ends),
                "marked": t.marked,
            }
            for t in view.trains
        ],
        "opening_draw": tiles(view.opening_draw),
        "moves": [str(m) for m in view.history],
        "revealed": [tiles(h) for h in view.revealed] if view.revealed is not None else None,
        "result": result(view.result),
    }


def result(found: HandResult | None) -> dict[str, Any] | None:
    if found is None:
        return None
    return {
        "end": found.end,
        "winner": found.winner,
        "points": list(found.points),
        "pips": list(found.pips),
        "closer": found.closer,
        "count": found.count,
    }


def outcome(found: Outcome | None) -> dict[str, Any] | None:
    if found is None:
        return None
    return {
        "winner": found.winner,
        "reason": found.reason,
        "scores": list(found.scores),
    }
