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
