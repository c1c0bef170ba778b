"""Every command's handler: a plain ``async def name(session) -> None`` attached to its
entry of bot/core/registry.py with ``@handles("name")``. Importing this package attaches them
all; the dispatch (bot/core/dispatch.py) has already loaded the game and checked the seat,
the creator or the admin, as the entry says."""

from bot.core.handlers import lobby, looking, play, records, room, timers
from bot.core.tournament import commands as tournament
from bot.core.tournament import tables as tournament_tables

__all__ = [
    "lobby",
    "looking",
    "play",
    "records",
    "room",
    "timers",
    "tournament",
    "tournament_tables",
]
