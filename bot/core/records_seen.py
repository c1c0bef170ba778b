"""A game's record as its room may see it (RECORD.md; issue 32, 1 and 2): the row and the
record are read at once (``GameRepository.with_record``), so what is cut is decided on the
very state exported, whatever another process deals or plays meanwhile. The hands
finished go whole, as they were shown at their end. A hand in play goes not at all; a hand
that never ended (the game cancelled, or a tournament table stopped by the judges, in
the middle of it) goes as the room saw it: its moves, no deal, no boneyard, no seed, as
the record's ``unfinished`` (docs/records.md)."""

from __future__ import annotations

from typing import Any

from bot.core.session import Desk
from storage.games import ACTIVE, GameRow
from storage.store import Store

HIDDEN = ("deal", "boneyard", "seed")  # what of a hand nobody saw while it was played


async def record_as_seen(store: Store, desk: Desk, game_id: int) -> tuple[GameRow, dict[str, Any]]:
    """The game's row and its record as the room may see it."""
    row, record = await store.games.with_record(game_id)
    if row.status == "lobby":
        return row, record
    game = desk.loaded(row, keep=False).game
    if game is None or game.hand is None or not record.get("hands"):
        return row, record  # every hand in it is over
    *finished, last = record["hands"]
    seen = dict(record, hands=finished)
    if row.status not in ACTIVE:  # over in the middle of a hand: the moves made
        seen["unfinished"] = {k: v for k, v in last.items() if k not in HIDDEN}
    return row, seen
