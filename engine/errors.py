"""The engine's errors: every one is a ``ValueError`` with a message a player can read."""

from __future__ import annotations


class DominoError(ValueError):
    """Base of every error the engine raises for bad input; nothing was changed."""


class InvalidMove(DominoError):
    """The text is not a move at all (bad syntax, unknown tile)."""


class IllegalMove(DominoError):
    """A well-formed move that the rules do not allow now."""


class NotYourTurn(IllegalMove):
    """A seat tried to move while another seat is to play."""


class StaleAction(DominoError):
    """The action was made against a position that has since changed."""


class GameOver(IllegalMove):
    """The hand or the game has already ended."""


class RulesError(DominoError):
    """An unknown preset, option or option value, or options that contradict each other."""


class RecordError(DominoError):
    """A game record that is malformed or does not replay."""
