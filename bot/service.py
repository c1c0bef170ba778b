"""The game service: commands in, effects out, no platform library in sight.

One room's commands run one at a time (a lock per room in this process; across
processes the stored game's version refuses a lost race, and the command is tried again
on the fresh game). Every answer is text already in the reader's language.
"""

from __future__ import annotations

from bot.core import Context, Loaded, Refusal, ServiceCore
from bot.lobby import Lobby
from bot.looking import Looking
from bot.play import Play
from bot.timed import Timed

__all__ = ["Context", "GameService", "Loaded", "Refusal", "ServiceCore"]


class GameService(Lobby, Play, Looking, Timed):
    """Every command of BOT.md, from the lobby to the game's end, and the timers."""
