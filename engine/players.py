"""Computer players that are given a view and nothing else.

The strong players live in a later module; these two are the baseline: ``random`` picks
any legal move, ``greedy`` gets rid of its heaviest tile (in divisor games it first takes
the biggest count it can score). Both are reproducible from a seed.
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.line import count_after as line_count_after
from engine.moves import Move
from engine.views import View

# The strengths people choose from (lobby buttons, /add_ai, the timeout fallback).
STRENGTHS = ("easy", "normal", "hard")


class Player(Protocol):
    def choose(self, view: View) -> Move: ...


class RandomPlayer:
    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: View) -> Move:
        return self._random.choice(view.legal_moves)


class GreedyPlayer:
    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: View) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        divisor = view.rules.divisor

        def value(move: Move) -> tuple[int, int, int, float]:
            tile = move.tile
            if tile is None:
                return (0, 0, 0, 0.0)
            points = 0
            if divisor:
                count = count_after(view, move)
                points = count // divisor if count and count % divisor == 0 else 0
            return (points, tile.value, int(tile.is_double), self._random.random())

        return max(moves, key=value)


def count_after(view: View, move: Move) -> int:
    """The sum of the open ends after ``move``, from public facts only (divisor games)."""
    sides = ((side.number, side.tile, side.kind) for side in view.open_sides)
    return line_count_after(view.count or 0, sides, move, view.rules.crosswise_doubles)


def make_player(name: str, seed: int = 0) -> Player:
    """A computer player by strength: easy, normal, hard, or the baselines random and greedy."""
    from engine.ai.easy import EasyPlayer
    from engine.ai.hard import HardPlayer
    from engine.ai.normal import NormalPlayer

    strong: tuple[type, ...] = (EasyPlayer, NormalPlayer, HardPlayer)
    strengths: dict[str, type] = {
        **dict(zip(STRENGTHS, strong, strict=True)),
        "random": RandomPlayer,
        "greedy": GreedyPlayer,
    }
    if name not in strengths:
        raise ValueError(f"unknown computer player '{name}'; choose from {', '.join(strengths)}")
    player: Player = strengths[name](seed)
    return player
