"""``easy``: plays sensibly most of the time and slips like a beginner: now and then any
legal move, otherwise the heaviest tile without looking at anyone else."""

from __future__ import annotations

import random

from engine.moves import Move
from engine.views import View

SLIP = 0.3  # how often the easy player plays without thinking


class EasyPlayer:
    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: View) -> Move:
        moves = view.legal_moves
        if len(moves) == 1 or self._random.random() < SLIP:
            return self._random.choice(moves)
        plays = [m for m in moves if m.tile is not None]
        if not plays:
            return moves[0]
        return max(plays, key=lambda m: (m.tile.value, self._random.random()))  # type: ignore[union-attr]
