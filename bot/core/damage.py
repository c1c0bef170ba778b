"""Stored data that cannot be read (issue 33, 7): a game whose snapshot, seats or notes do
not decode or do not replay is set aside (storage.games.SET_ASIDE) rather than failing
every command of its room for good. Logged once, by whoever sets it aside, at WARNING and
on one line: the error's type and where it was raised, never its message nor a traceback
(an engine's message, or a record's text, names the tiles of a hand; the row itself is
kept, whole, for the operator to look into: docs/deploy.md)."""

from __future__ import annotations

import logging
import os
from datetime import datetime

from storage.errors import DamagedGame
from storage.store import Store

log = logging.getLogger(__name__)

# What reading a damaged game raises: the engine's refusals of a record are ValueErrors;
# a value of the wrong kind or shape, a TypeError, a LookupError or an AttributeError.
DAMAGE = (ValueError, TypeError, LookupError, AttributeError)


def damaged(game_id: int, room_id: int, status: str, error: BaseException) -> DamagedGame:
    """The :class:`DamagedGame` of ``error``, met reading game ``game_id``."""
    return DamagedGame(game_id, room_id, status, f"{type(error).__name__} at {where(error)}")


async def set_aside(store: Store, found: DamagedGame, now: datetime) -> bool:
    """Set the game aside; True when this call did (and logged it)."""
    if not await store.games.set_aside(found.game_id, now):
        return False  # already set aside (another process, or earlier)
    log.warning(
        "game %s (room %s, %s) cannot be read (%s): set aside, its room is free",
        found.game_id,
        found.room_id,
        found.status,
        found.why,
    )
    return True


def where(error: BaseException) -> str:
    """The file and line an exception was raised at (for a log line without its message)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return "?"
    return f"{os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}"
