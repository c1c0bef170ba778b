"""Teams made by drawing tiles (option ``teams``, seed 000: "de común acuerdo o al azar").

Each of the four players draws one tile from the game's shuffled set (distinct tiles);
the draw is RULES.md's tile order (:data:`~engine.tiles.RANK`: the higher total first,
then the higher end). ``drawn_high``: the two highest drawers are partners;
``drawn_high_low``: the highest with the lowest. The new seating (the engine's choice,
RULES.md leaves it open): the highest drawer takes seat 0 and its partner seat 2
(partners sit opposite); of the other team, the higher drawer takes seat 1, the other
seat 3.

The draw is deterministic from a seed, on its own stream of it: shuffle 0 of the text
``"domino-teams:<seed>:0"`` (the seeded shuffle of :mod:`engine.deal`), the seat ``i``
(as seated before the draw) drawing the ``i``-th tile. A deal from the same seed
(``"domino:<seed>:<k>"``) shares nothing with it, so the tiles shown tell nothing of a
hand.

>>> from engine.rules import Rules
>>> drawn = draw_teams(7, Rules.from_preset("partnership", teams="drawn_high"), 4)
>>> sorted(drawn.order), len(set(drawn.tiles))
([0, 1, 2, 3], 4)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.deal import Shuffler
from engine.errors import RulesError
from engine.rules import Rules
from engine.tiles import RANK, Tile, set_tiles

SALT = "domino-teams"


@dataclass(frozen=True)
class DrawnTeams:
    """``tiles[seat]``: the tile each seat (as seated before the draw) drew;
    ``order[new_seat]``: the seat (before the draw) that sits at ``new_seat`` now."""

    tiles: tuple[Tile, ...]
    order: tuple[int, ...]

    def new_seat_of(self, seat: int) -> int:
        """Where the player seated at ``seat`` before the draw sits now."""
        return self.order.index(seat)


def draw_teams(seed: int, rules: Rules, players: int) -> DrawnTeams:
    """The teams option ``rules.teams`` (``drawn_high`` or ``drawn_high_low``) drawn from
    ``seed`` for ``players`` (four) players."""
    if not rules.partners or rules.teams == "agreed":
        raise RulesError("teams are drawn only with teams = drawn_high or drawn_high_low")
    if players != 4:
        raise RulesError(f"teams are drawn by four players, not {players}")
    tiles = tuple(Shuffler(seed, SALT).shuffled(set_tiles(rules.set))[:players])
    ranked = sorted(range(players), key=lambda seat: RANK[tiles[seat]], reverse=True)
    high, second, third, low = ranked
    if rules.teams == "drawn_high":
        order = (high, third, second, low)  # high+second together, third+low together
    else:
        order = (high, second, low, third)  # high+low together, second+third together
    return DrawnTeams(tiles, order)
