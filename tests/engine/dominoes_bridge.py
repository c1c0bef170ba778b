"""The ``dominoes`` package (abw333) and our engine side by side: tiles, deals and the
bookkeeping that turns one engine's moves into the other's.

Used by the differential test and by ``bench/ai.py``'s match against that package's
players.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import dominoes

from engine.moves import Move
from engine.tiles import Tile, set_tiles


def their_domino(tile: Tile) -> dominoes.Domino:
    return dominoes.Domino(tile.hi, tile.lo)


def our_tile(d: dominoes.Domino) -> Tile:
    return Tile.of(d.first, d.second)


def random_deal(rng: random.Random) -> list[list[Tile]]:
    """Four hands of seven from a shuffled double-6 set.

    The preset redeals when a hand holds 5 or more doubles and refuses such a deal when it
    is given explicitly; the other engine has no such rule, so those deals are shuffled again.
    """
    while True:
        tiles = list(set_tiles(6))
        rng.shuffle(tiles)
        hands = [tiles[i * 7 : (i + 1) * 7] for i in range(4)]
        if all(sum(t.is_double for t in hand) < 5 for hand in hands):
            return hands


@dataclass
class Ends:
    """Our own account of the tiles at the other engine's left and right ends.

    Their board only knows numbers; ours names the tile a move goes on, so we track which
    tile (and the number it shows) sits at each physical end of their line.
    """

    left: tuple[Tile, int] | None = None
    right: tuple[Tile, int] | None = None

    def open(self, tile: Tile) -> None:
        # make_move(Domino(hi, lo), True) on an empty board lays [hi|lo]: hi shows left
        self.left, self.right = (tile, tile.hi), (tile, tile.lo)

    def side_for(self, move: Move) -> bool:
        """True for their left end: the end that holds the tile ``move`` goes on."""
        assert self.left is not None and self.right is not None and move.tile is not None
        (left_tile, left_number), (right_tile, _) = self.left, self.right
        if left_tile == right_tile == move.on:
            # Only the opening tile is down, at both ends: the number decides (our engine
            # tries the opening's high end first, which is their left).
            return move.tile.has(left_number)
        if move.on == left_tile:
            return True
        assert move.on == right_tile, f"{move} is not on an end we know of: {self}"
        return False

    def number_for(self, move: Move) -> int:
        """The number ``move`` is laid against."""
        end = self.left if self.side_for(move) else self.right
        assert end is not None
        return end[1]

    def play(self, move: Move, left: bool) -> None:
        assert self.left is not None and self.right is not None and move.tile is not None
        _, number = self.left if left else self.right
        end = (move.tile, move.tile.other(number))
        if left:
            self.left = end
        else:
            self.right = end

    def pairs(self) -> set[tuple[Tile, int]]:
        assert self.left is not None and self.right is not None
        return {self.left, self.right}


def their_game(deal: list[list[Tile]], opener: int) -> dominoes.Game:
    """Their game holding ``deal``, with ``opener`` to lay the first tile."""
    hands = [dominoes.Hand([their_domino(t) for t in hand]) for hand in deal]
    return dominoes.Game(
        board=dominoes.Board(),
        hands=hands,
        moves=[],
        turn=opener,
        valid_moves=tuple((d, True) for d in hands[opener]),
        starting_player=opener,
        result=None,
    )
