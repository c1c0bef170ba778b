"""What storage can say went wrong; callers turn these into friendly words."""

from __future__ import annotations


class StorageError(Exception):
    """The database cannot be used as it is (a clear message, never a traceback)."""


class Unavailable(StorageError):
    """The database did not answer (down, restarting, unreachable): try again shortly."""


class Conflict(StorageError):
    """A save named a version that is no longer current: another process moved first.
    Reload and try again."""


class NotFound(StorageError):
    """No such row (a game, a room, a user)."""


class DamagedGame(StorageError):
    """A game whose stored data cannot be read: its JSON does not decode, is not of a
    game's shape, or does not replay. Whoever meets it sets it aside
    (``GameRepository.set_aside``): kept for the operator, its room free again."""

    def __init__(self, game_id: int, room_id: int, status: str, why: str) -> None:
        super().__init__(f"game {game_id} cannot be read: {why}")
        self.game_id = game_id
        self.room_id = room_id
        self.status = status
        self.why = why  # the error's type and where, never its message (it may name tiles)
