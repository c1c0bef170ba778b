"""A game cut short at the table's agreed maximum length.

A bot's room cannot wait forever for a target nobody reaches (a run of tied blocked
hands, a table of computer players), so the service sets a maximum number of hands.
Reaching it between hands ends the game with the standings as they are: the side ahead
wins; sides tied for the lead leave the game without a winner.

>>> from engine.game import Game
>>> from engine.rules import Rules
>>> g = Game(Rules.from_preset("draw"), 2)
>>> g.scores = [40, 25]
>>> stop_at_limit(g), g.outcome.winner, g.outcome.reason
(True, 0, 'limit')
>>> penalties = Game(Rules.from_preset("partnership"), 4)  # points written on the losers
>>> penalties.scores = [40, 25]
>>> stop_at_limit(penalties), penalties.outcome.winner
(True, 1)
>>> tied = Game(Rules.from_preset("draw"), 2)
>>> stop_at_limit(tied), tied.outcome
(False, None)
"""

from __future__ import annotations

from engine.errors import IllegalMove
from engine.game import Game
from engine.outcome import Outcome


def stop_at_limit(game: Game) -> bool:
    """End ``game`` (between hands) with the standings as they are; False, and nothing
    changed, when sides are tied for the lead (the game then ends with no result)."""
    if game.outcome is not None:
        return True
    if game.hand is not None:
        raise IllegalMove("a game is stopped between hands, not during one")
    places = game.places()
    leaders = [side for side, place in enumerate(places) if place == 1]
    if len(leaders) != 1:
        return False
    game.outcome = Outcome(leaders[0], "limit", tuple(game.scores))
    return True
