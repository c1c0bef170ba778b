"""``normal``: a good heuristic player for every game (no search, a few microseconds)."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.ai.knowledge import Knowledge, open_numbers_after
from engine.moves import Action, Move
from engine.players import count_after
from engine.tiles import Tile
from engine.views import View


class NormalPlayer:
    """Line games: plays heavy tiles and doubles early, keeps numbers it can follow,
    leaves ends the next opponent lacks and avoids ends its partner lacks; in divisor
    games it takes the biggest count first. Mexican Train: lays the longest chain on its
    first turn, plays a double only when it can follow it, clears its own marker."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: View) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        score = train_score(view) if view.trains else line_score(view)
        return max(moves, key=lambda m: (score(m), self._random.random()))


def line_score(view: View) -> Callable[[Move], float]:
    seat = view.seat
    assert seat is not None
    knowledge = Knowledge.of(view)
    crosswise = view.rules.crosswise_doubles
    divisor = view.rules.divisor
    mine = list(view.hand)
    nxt = (seat + 1) % view.players
    partner = view.rules.partner_of(seat)

    def score(move: Move) -> float:
        tile = move.tile
        if tile is None:
            return -1000.0  # pass or draw: only when nothing else is legal
        if len(mine) == 1:
            return 1000.0  # domino
        left = [t for t in mine if t != tile]
        after = open_numbers_after(list(knowledge.numbers), move, crosswise)
        value = tile.value + (6.0 if tile.is_double else 0.0)
        value += 2.5 * sum(1 for n in set(after) for t in left if t.has(n))
        if nxt != partner:
            value += 5.0 * sum(1 for n in set(after) if n in knowledge.lacks[nxt])
        if partner is not None:
            value -= 5.0 * sum(1 for n in set(after) if n in knowledge.lacks[partner])
            value += 4.0 * sum(1 for n in set(after) if n in knowledge.lacks[nxt])
        if divisor:
            count = count_after(view, move)
            if count and count % divisor == 0:
                value += 12.0 * (count // divisor)
        return value

    return score


def train_score(view: View) -> Callable[[Move], float]:
    seat = view.seat
    assert seat is not None
    mine = list(view.hand)
    own = view.trains[seat]
    chain = longest_chain(own.ends[0] if own.ends else 0, mine) if view.first_round else []

    def score(move: Move) -> float:
        if move.action is Action.END:
            return -500.0
        tile = move.tile
        if tile is None:
            return -1000.0
        if len(mine) == 1:
            return 1000.0
        if chain:
            return 100.0 if tile == chain[0] else float(tile.value)
        value = float(tile.value)
        target = move.train if move.train is not None and move.train >= 0 else None
        follows = [t for t in mine if t != tile and t.has(tile.hi)]
        if tile.is_double:
            value += 15.0 if follows else -25.0
        if target == seat and own.marked:
            value += 8.0  # take my marker off
        elif target != seat:
            value += 3.0  # keep my own train's numbers for later
        return value

    return score


def longest_chain(start: int, tiles: list[Tile], limit: int = 1_000) -> list[Tile]:
    """The longest chain from ``start`` with ``tiles`` (a first turn's plan), heaviest
    first among equals; a bounded depth-first search."""
    best: list[Tile] = []
    best_key = (0, 0)
    budget = [limit]

    def walk(end: int, used: list[Tile], left: list[Tile]) -> None:
        nonlocal best, best_key
        budget[0] -= 1
        key = (len(used), sum(t.value for t in used))
        if key > best_key:
            best, best_key = list(used), key
        if budget[0] <= 0:
            return
        for tile in left:
            if tile.has(end):
                used.append(tile)
                walk(tile.other(end), used, [t for t in left if t != tile])
                used.pop()

    walk(start, [], sorted(tiles, reverse=True))
    return best
