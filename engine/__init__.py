"""The rules of dominoes: pure, synchronous, no I/O, no clock, no randomness but seeds.

>>> from engine import Game, Rules
>>> game = Game(Rules.from_preset("partnership"), 4)
>>> hand = game.start_hand(seed=42)
>>> str(game.legal_moves()[0]).endswith("6-6")
True
"""

from engine.errors import (
    Ambiguous,
    CannotNow,
    CannotOpen,
    DoesNotFit,
    DominoError,
    EmptyMove,
    GameOver,
    IllegalMove,
    InvalidMove,
    NotYourTile,
    NotYourTurn,
    RecordError,
    RulesError,
    StaleAction,
)
from engine.game import Game
from engine.moves import MEXICAN, Action, Move, Side, parse_action
from engine.outcome import HandResult, Outcome
from engine.record import export, load, new_record, summary
from engine.rules import PRESETS, Rules
from engine.tiles import Tile
from engine.views import View, view_of

__all__ = [
    "MEXICAN",
    "PRESETS",
    "Action",
    "Ambiguous",
    "CannotNow",
    "CannotOpen",
    "DoesNotFit",
    "DominoError",
    "EmptyMove",
    "Game",
    "GameOver",
    "HandResult",
    "IllegalMove",
    "InvalidMove",
    "Move",
    "NotYourTile",
    "NotYourTurn",
    "Outcome",
    "RecordError",
    "Rules",
    "RulesError",
    "Side",
    "StaleAction",
    "Tile",
    "View",
    "export",
    "load",
    "new_record",
    "parse_action",
    "summary",
    "view_of",
]
