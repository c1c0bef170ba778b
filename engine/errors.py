"""The engine's errors: every one is a ``ValueError`` with a message a player can read.

The refusals of :func:`engine.resolve.resolve` carry what a caller needs to say them in
the player's language (the seat to move, the tile, the legal moves or the candidates).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.moves import Action, Move
    from engine.tiles import Tile


class DominoError(ValueError):
    """Base of every error the engine raises for bad input; nothing was changed."""


class InvalidMove(DominoError):
    """The text is not a move at all (bad syntax, unknown tile)."""


class EmptyMove(InvalidMove):
    """Nothing was typed after the command."""


class NoSuchKey(InvalidMove):
    """A move's number (its key, as a hand lists the legal moves) that names none of them."""

    def __init__(self, message: str, key: str, count: int) -> None:
        super().__init__(message)
        self.key = key
        self.count = count  # the moves listed: keys 1 to count


class IllegalMove(DominoError):
    """A well-formed move that the rules do not allow now."""


class NotYourTurn(IllegalMove):
    """A seat tried to move while another seat is to play (``to_move``)."""

    def __init__(self, message: str, to_move: int | None = None) -> None:
        super().__init__(message)
        self.to_move = to_move


class CannotNow(IllegalMove):
    """Pass, draw or end (``action``) is not a legal move now."""

    def __init__(self, message: str, action: Action) -> None:
        super().__init__(message)
        self.action = action


class CannotOpen(IllegalMove):
    """``seat`` may not claim the opening of this hand; ``choices`` are the seats that may
    (empty when nobody chooses the opener now)."""

    def __init__(self, message: str, seat: int, choices: tuple[int, ...]) -> None:
        super().__init__(message)
        self.seat = seat
        self.choices = choices


class NotYourTile(IllegalMove):
    """The seat does not hold ``tile``."""

    def __init__(self, message: str, tile: Tile) -> None:
        super().__init__(message)
        self.tile = tile


class DoesNotFit(IllegalMove):
    """The seat holds ``tile`` but it cannot go where asked (or anywhere); ``legal`` are
    the tile moves the seat may make now."""

    def __init__(self, message: str, tile: Tile, legal: tuple[Move, ...]) -> None:
        super().__init__(message)
        self.tile = tile
        self.legal = legal


class Ambiguous(IllegalMove):
    """``tile`` fits in more than one place: the ``candidates`` (the seat chooses one)."""

    def __init__(self, message: str, tile: Tile, candidates: tuple[Move, ...]) -> None:
        super().__init__(message)
        self.tile = tile
        self.candidates = candidates


class StaleAction(DominoError):
    """The action was made against a position that has since changed."""


class GameOver(IllegalMove):
    """The hand or the game has already ended (``finished``: the whole game)."""

    def __init__(self, message: str, finished: bool = False) -> None:
        super().__init__(message)
        self.finished = finished


class RulesError(DominoError):
    """An unknown preset, option or option value, or options that contradict each other."""


class RecordError(DominoError):
    """A game record that is malformed or does not replay."""
