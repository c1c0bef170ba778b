"""``hard``: imagines the hidden hands and plays each candidate out.

It samples the tiles it cannot see among the other seats (and the boneyard) so that every
sample agrees with everything public: each seat's tile count, the tiles on the table, and
the numbers a seat showed it lacks by passing. For each sample it plays every legal move
out to the end of the hand with quick greedy players, and keeps the move whose hands end
best for its side (its team in partnership games). The number of samples is fixed, so a
decision is reproducible from the seed; ``budget`` only cuts a slow decision short.

In divisor games the rollouts take the best count first (heaviest-tile rollouts ignored
counts and lost to normal). Divisor games on sets above double-9, Mexican Train and the
opening move are left to ``normal`` for now.
"""

from __future__ import annotations

import random
import time

from engine.ai.knowledge import Knowledge
from engine.ai.normal import NormalPlayer
from engine.line import LineHand
from engine.moves import Move
from engine.scoring import score_hand, side_of
from engine.tiles import NUMBER_MASK, TILES, set_mask
from engine.views import View

# Samples per decision: more samples, steadier estimates (24 -> 96 -> 160 samples took
# 55% -> 65% -> 66% of the points against normal on 60 paired partnership deals). Sets
# above double-9 play long hands, so they get fewer to stay inside the time budget.
SAMPLES = 160
SAMPLES_BIG_SETS = 24
TRIES = 20  # attempts at a sample that respects every known void


class HardPlayer:
    def __init__(self, seed: int = 0, budget: float | None = 0.2) -> None:
        self._random = random.Random(seed)
        self.budget = budget
        self._normal = NormalPlayer(seed)

    def choose(self, view: View) -> Move:
        moves = view.legal_moves
        big_divisor = bool(view.rules.divisor) and view.rules.set > 9
        if len(moves) == 1 or view.trains or big_divisor or not view.placements:
            # fido12/fido18: 24 samples are too few; that search scored 14.8 points a hand
            # against normal's 22.4 (40 paired hands), so normal plays there for now.
            return self._normal.choose(view)
        seat = view.seat
        assert seat is not None
        knowledge = Knowledge.of(view)
        deadline = None if self.budget is None else time.perf_counter() + self.budget * 0.8
        totals = [0.0] * len(moves)
        for _ in range(SAMPLES if view.rules.set <= 9 else SAMPLES_BIG_SETS):
            state = self._sample(view, knowledge)
            for i, move in enumerate(moves):
                trial = state.copy()
                trial.push(move)
                totals[i] += self._rollout(trial, view, seat)
            if deadline is not None and time.perf_counter() > deadline:
                break
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        return moves[best]

    def _sample(self, view: View, knowledge: Knowledge) -> LineHand:
        seat = view.seat
        assert seat is not None
        rules = view.rules
        known = sum(1 << t for t in view.hand) | sum(1 << p.tile for p in view.placements)
        unknown = [TILES[t] for t in range(len(TILES)) if (set_mask(rules.set) & ~known) >> t & 1]
        others = [s for s in range(view.players) if s != seat]
        # the seats that lack most numbers choose first: they are the hardest to fill
        others.sort(key=lambda s: -len(knowledge.lacks[s]))
        hands = [0] * view.players
        hands[seat] = sum(1 << t for t in view.hand)
        for attempt in range(TRIES + 1):
            pool = list(unknown)
            self._random.shuffle(pool)
            relaxed = attempt == TRIES  # never stall: the last try ignores the voids
            ok = True
            for s in others:
                banned = 0
                if not relaxed:
                    for number in knowledge.lacks[s]:
                        banned |= NUMBER_MASK[number]
                picked = [t for t in pool if not banned >> t & 1][: view.tile_counts[s]]
                if len(picked) < view.tile_counts[s]:
                    ok = False
                    break
                hands[s] = sum(1 << t for t in picked)
                chosen = set(picked)
                pool = [t for t in pool if t not in chosen]
            if ok:
                break
        boneyard = pool[: view.boneyard]
        return LineHand.from_public(
            rules,
            hands,
            boneyard,
            view.placements,
            view.history,
            seat,
            view.opener if view.opener is not None else seat,
            view.scored,
        )

    def _rollout(self, state: LineHand, view: View, seat: int) -> float:
        """Play to the end with greedy seats; the hand's worth to ``seat``'s side."""
        rand = self._random.random
        divisor = view.rules.divisor
        while state.ended is None:
            moves = state.legal_moves()
            if len(moves) == 1:
                state.push(moves[0])
                continue
            if divisor:
                state.push(max(moves, key=lambda m: _count_points(state, m, divisor) + rand()))
                continue
            state.push(max(moves, key=lambda m: (m.tile.value if m.tile else -1) + 3 * rand()))
        rules = view.rules
        result = score_hand(rules, state, [0] * len(view.scores))
        mine = side_of(rules, seat)
        if rules.divisor:
            others = [p for s, p in enumerate(result.points) if s != mine]
            return result.points[mine] - sum(others) / len(others)
        worth = float(sum(result.points) or 1)
        if result.winner is None:
            return 0.0
        return worth if result.winner == mine else -worth


def _count_points(state: LineHand, move: Move, divisor: int) -> float:
    """What a play scores at once in a divisor game, then a little for its weight."""
    if move.tile is None:
        return -1.0
    count = state.count_after(move)
    points = count // divisor if count and count % divisor == 0 else 0
    return 10.0 * points + move.tile.value / 10.0
