"""Computer players that are given a view and nothing else.

The strong players live in a later module; these two are the baseline: ``random`` picks
any legal move, ``greedy`` gets rid of its heaviest tile (in divisor games it first takes
the biggest count it can score). Both are reproducible from a seed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from engine.game import Game
from engine.line import count_after as line_count_after
from engine.moves import Move
from engine.rules import Rules
from engine.tiles import Tile
from engine.views import View

# The strengths people choose from (lobby buttons, /add_ai, the timeout fallback).
STRENGTHS = ("easy", "normal", "hard")


class Player(Protocol):
    def choose(self, view: View) -> Move: ...


class MovesOnlyPlayer(Player, Protocol):
    """A player that reads nothing of its view but the legal moves: a simulation gives
    it those alone and builds no view (`python -m engine simulate`, 20,000 random hands:
    7.6 s of CPU with a view a decision, 1.5 s without)."""

    def choose_among(self, moves: Sequence[Move]) -> Move: ...


class RandomPlayer:
    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: View) -> Move:
        return self.choose_among(view.legal_moves)

    def choose_among(self, moves: Sequence[Move]) -> Move:
        # (random.choice draws bits until they fall in range: 0.5 us a move; this is a
        # tenth of it, and as uniform to a 2**-53)
        return moves[int(self._random.random() * len(moves))]


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


def claims_opening(rules: Rules, tiles: Sequence[Tile]) -> bool:
    """Whether a computer partner of the team that won the last hand claims the opening
    of the new one (``next_opener = choose``), judging from its own tiles alone (it sees
    nothing of its partner's): it claims with a hand worth leading, two doubles or more,
    or a long suit (four tiles or more showing one number, a double counted once). With
    ``must_open_with_double`` a hand without a double never claims (it may not open).

    Every strength uses this judgement: the opener's gain is the first tile, and the
    hands that gain most from it are the ones with doubles to unload and a suit to
    lead (a measured rule would need the partner's hand, which a player cannot see).

    >>> from engine.rules import Rules
    >>> rules = Rules.from_preset("partnership")
    >>> claims_opening(rules, [Tile.parse(t) for t in ["6-6", "4-4", "5-1", "3-2"]])
    True
    >>> claims_opening(rules, [Tile.parse(t) for t in ["6-5", "4-1", "5-3", "3-2"]])
    False
    """
    doubles = sum(1 for t in tiles if t.is_double)
    if rules.must_open_with_double and not doubles:
        return False
    suits = Counter(n for t in tiles for n in {t.hi, t.lo})
    longest = max(suits.values(), default=0)
    return doubles >= CLAIM_DOUBLES or longest >= CLAIM_SUIT


CLAIM_DOUBLES = 2
CLAIM_SUIT = 4


def opening_claim(game: Game, computers: Iterable[int]) -> int | None:
    """The seat among ``computers`` (the computer seats) that claims the opening of the
    hand in play, if any: each judges its own tiles (:func:`claims_opening`); of two
    claims the default opener's (the seat already to move) counts first, as if it spoke
    first. None: no computer claims (a person may, or the default seat opens)."""
    choices = game.opener_choices()
    hand = game.hand
    if not choices or hand is None:
        return None
    default = hand.to_move
    mine = sorted(set(computers) & set(choices), key=lambda s: (s - default) % game.players)
    return next((s for s in mine if claims_opening(game.rules, hand.hand(s))), None)


def count_after(view: View, move: Move) -> int:
    """The sum of the open ends after ``move``, from public facts only (divisor games)."""
    sides = ((side.number, side.tile, side.kind) for side in view.open_sides)
    return line_count_after(view.count or 0, sides, move, view.rules.crosswise_doubles)


def make_player(name: str, seed: int = 0, out_of_time: Callable[[], bool] | None = None) -> Player:
    """A computer player by strength: easy, normal, hard, or the baselines random and greedy.

    ``out_of_time`` goes to ``hard``, which asks it between the deals it imagines (see
    :mod:`engine.ai.hard`; None: no time limit); the others decide at once and never ask.
    """
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
    if name == "hard":
        return HardPlayer(seed, out_of_time=out_of_time)
    player: Player = strengths[name](seed)
    return player


def make_timed_player(name: str, seed: int, clock: Callable[[], float]) -> Player:
    """:func:`make_player` for a player kept across decisions, each given the bot's time
    (:func:`~engine.ai.hard.decision_seconds`) on ``clock``, the caller's: a simulation
    or a benchmark that plays as the bot does. Only ``hard`` reads the clock."""
    from engine.ai.hard import TimedHardPlayer

    if name == "hard":
        return TimedHardPlayer(seed, clock)
    return make_player(name, seed)
