"""``hard``: imagines the hidden hands and plays each candidate out.

It deals the tiles it cannot see among the other seats (and the boneyard) so that every
imagined deal agrees with everything public: each seat's tile count, the tiles on the
table, and in line games the numbers a seat showed it lacks by passing. On each deal it
plays every legal move out with quick greedy players and keeps the move whose outcomes
are best for its side: its team in partnership games, its points against the others'
in divisor games, and in Mexican Train its penalty against the others' (the session
score). The number of deals is fixed, so a decision with no time limit is reproducible
from the seed.

Its time budget is its caller's: the engine reads no clock. ``out_of_time`` (a function
of no arguments) is asked after each imagined deal, and a true answer ends the search
with the deals imagined so far; without it the search imagines all its deals (tests do,
for moves that depend on the seed alone). :func:`decision_seconds` says how long the bot
lets a decision take, so a caller makes the deadline on its own clock::

    deadline = clock() + decision_seconds(view)
    player = HardPlayer(seed, out_of_time=lambda: clock() > deadline)

:class:`TimedHardPlayer` does that before each decision, for a player kept across them.

Divisor games play out by the best count first (heaviest-tile rollouts ignored counts
and lost to normal); on sets above double-9 a rollout stops after a few turns and counts
the points made so far less the tiles still held, since whole hands there are too long
to play out often enough.
In line games with no boneyard a deal counts by how well it explains the plays the other
seats made (players shed heavy tiles first: :class:`~engine.ai.imagine.HeavyPlays`).
Opening moves and Mexican Train first turns are left to ``normal``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.ai.imagine import HeavyPlays, LineImagination, TrainImagination
from engine.ai.knowledge import Knowledge
from engine.ai.normal import NormalPlayer, line_score
from engine.line import LineHand
from engine.moves import Move
from engine.scoring import score_hand, score_round, side_of
from engine.tiles import VALUE
from engine.train import TrainHand
from engine.views import View

# Deals per decision: more deals, steadier estimates (24 -> 96 -> 160 deals took
# 55% -> 65% -> 66% of the points against normal on 60 paired partnership deals). A
# partnership decision with 160 deals took 16 ms (median), far inside the budget: 640
# deals won 62.7% of 590 decided hands against the dominoes package's searcher, 160
# deals 60.0% on the same deals (issue 23; the budget still cuts a slow decision short).
SAMPLES = 640
# fido12 hard vs normal, the 2,000 hands of bench/ai.py: 48 deals won 51.3% +-2.2 of the
# hands, 96 deals (affordable once deals stopped rebuilding the table) 53.5% +-2.2, points
# a hand +3.79 -> +4.54 +-0.80; decision p95 73 -> 160 ms, the budget's cut (issue 23)
SAMPLES_BIG_SETS = 96
SAMPLES_TRAINS = 64
HORIZON_BIG_SETS = 8  # plies a rollout looks ahead on sets above double-9
PRIOR_WEIGHT = 1 / 12  # normal's score is 12 a point
PIP_WEIGHT = 0.2  # a held pip at the horizon, against a point already counted
# A held tile at the horizon, in points: the seat holding fewer tiles is ahead in the race
# to go out, which the pips alone barely show. fido12 hard vs normal on the 2,000 hands
# of bench/ai.py: hands won 50.0% -> 51.3%, points a hand 19.7:16.9 -> 20.0:16.2
# (difference +2.84 -> +3.79 +-0.84; issue 23, helper hard2).
TILE_WEIGHT = 4.0
# How strongly a deal is weighed by the plays it explains (imagine.HeavyPlays; partnership
# games with no boneyard): against the dominoes package's searcher, 640 deals won 62.7%
# of 590 decided hands, with weights beta 0.3 64.7%, beta 0.8 61.5% (too few deals keep
# a say); the same 300 deal pairs each time (issue 23).
HEAVY_BETA = 0.3
BUDGET = 0.2  # seconds for a line-game decision; Mexican Train gets twice as long
TRAIN_FACTOR = 2.0  # a Mexican Train round is longer to play out on each deal
SEARCH_SHARE = 0.8  # of the budget: the deal under way when time is up still finishes


def decision_seconds(view: View) -> float:
    """How long the hard player may think about ``view``'s decision, in seconds: 0.16 in
    line games, 0.32 in Mexican Train. A number, not a deadline: the caller adds it to
    its own clock's reading (the engine reads no clock).

    >>> from engine.game import Game
    >>> from engine.rules import Rules
    >>> from engine.views import view_of
    >>> game = Game(Rules.from_preset("partnership"), 4)
    >>> _ = game.start_hand(seed=1)
    >>> round(decision_seconds(view_of(game, 0)), 2)
    0.16
    """
    factor = TRAIN_FACTOR if view.rules.family == "train" else 1.0
    return BUDGET * factor * SEARCH_SHARE


class HardPlayer:
    def __init__(
        self,
        seed: int = 0,
        samples: int | None = None,
        out_of_time: Callable[[], bool] | None = None,
    ) -> None:
        self._random = random.Random(seed)
        # deals imagined per decision, at most (None: the tables above)
        self.samples = samples
        # asked after each imagined deal; None: no limit, every decision follows from
        # the seed alone (tests)
        self.out_of_time = out_of_time
        self._normal = NormalPlayer(seed)

    def choose(self, view: View) -> Move:
        moves = view.legal_moves
        if len(moves) == 1 or (view.trains and view.first_round):
            return self._normal.choose(view)
        if view.trains:
            return self._choose_train(view)
        if not view.placements:
            return self._normal.choose(view)
        return self._choose_line(view)

    def _choose_line(self, view: View) -> Move:
        moves = view.legal_moves
        seat = view.seat
        assert seat is not None
        knowledge = Knowledge.of(view)
        out_of_time = self.out_of_time
        big = view.rules.set > 9
        horizon = HORIZON_BIG_SETS if big and view.rules.divisor else None
        totals = [0.0] * len(moves)
        samples = 0
        heavy: HeavyPlays | None = None
        if not view.rules.divisor and not view.rules.has_boneyard:
            heavy = HeavyPlays(view, HEAVY_BETA)
            if not heavy.useful:
                heavy = None
        imagined = LineImagination(view, knowledge)
        for _ in range(self.samples or (SAMPLES_BIG_SETS if big else SAMPLES)):
            state = imagined.deal(self._random)
            weight = 1.0 if heavy is None else heavy.weight(state.hands)
            for i, move in enumerate(moves):
                trial = state.copy()
                trial.push(move)
                totals[i] += weight * self._line_rollout(trial, view, seat, horizon)
            samples += 1
            if out_of_time is not None and out_of_time():
                break
        if horizon is not None:
            # a short look ahead sees the counts, not how the hand is shaped: normal's
            # judgement of the tiles kept breaks the near ties
            prior = line_score(view)
            totals = [
                t / samples + PRIOR_WEIGHT * prior(m) for t, m in zip(totals, moves, strict=True)
            ]
        return moves[max(range(len(moves)), key=lambda i: (totals[i], -i))]

    def _line_rollout(self, state: LineHand, view: View, seat: int, horizon: int | None) -> float:
        """Play on with greedy seats; the hand's worth to ``seat``'s side."""
        rand = self._random.random
        divisor = view.rules.divisor
        rules = view.rules
        plies = 0
        while state.ended is None and (horizon is None or plies < horizon):
            plies += 1
            moves = state.legal_moves()
            if len(moves) == 1:
                state.push(moves[0])
            elif divisor:
                state.push(max(moves, key=lambda m: _count_points(state, m, divisor) + rand()))
            else:
                # the heaviest tile, give or take (the 0-0 counts -1: kept as it was tuned)
                state.push(max(moves, key=lambda m: (VALUE[m.tile] if m.tile else -1) + 3 * rand()))
        if state.ended is None:  # cut at the horizon: the counts made, less the tiles held
            pips = state.pips()
            hands = state.hands
            points = [
                state.scored[s] - pips[s] * PIP_WEIGHT - hands[s].bit_count() * TILE_WEIGHT
                for s in range(state.players)
            ]
            if rules.partners:
                points = [sum(points[s] for s in team) for team in rules.side_seats(state.players)]
            return _margin(points, side_of(rules, seat))
        result = score_hand(rules, state, [0] * len(view.scores))
        mine = side_of(rules, seat)
        if rules.divisor:
            return _margin(list(result.points), mine)
        worth = float(sum(result.points) or 1)
        if result.winner is None:
            return 0.0
        return worth if result.winner == mine else -worth

    def _choose_train(self, view: View) -> Move:
        moves = view.legal_moves
        seat = view.seat
        assert seat is not None
        try:
            imagination = TrainImagination(view)
        except ValueError:
            return self._normal.choose(view)  # a view this player cannot rebuild
        out_of_time = self.out_of_time
        totals = [0.0] * len(moves)
        for _ in range(self.samples or SAMPLES_TRAINS):
            state = imagination.sample(self._random)
            for i, move in enumerate(moves):
                trial = state.copy()
                trial.push(move)
                totals[i] += self._train_rollout(trial, view, seat)
            if out_of_time is not None and out_of_time():
                break
        return moves[max(range(len(moves)), key=lambda i: (totals[i], -i))]

    def _train_rollout(self, state: TrainHand, view: View, seat: int) -> float:
        """Play the round out heaviest tile first; this seat's standing in the session."""
        rand = self._random.random
        while state.ended is None:
            moves = state.legal_moves()
            if len(moves) == 1:
                state.push(moves[0])
            else:
                state.push(max(moves, key=lambda m: (m.tile.value if m.tile else -9) + 2 * rand()))
        points = list(score_round(view.rules, state).points)
        margin = _margin(points, seat)
        return margin if view.rules.positive_scoring else -margin


class TimedHardPlayer:
    """A hard player that gives each decision :func:`decision_seconds` on ``clock``, the
    caller's (``time.perf_counter`` for the bot's budget): for a player kept across
    decisions, as simulations and benchmarks keep theirs."""

    def __init__(self, seed: int, clock: Callable[[], float], samples: int | None = None) -> None:
        self._clock = clock
        self._deadline = 0.0
        self._player = HardPlayer(seed, samples=samples, out_of_time=self._out_of_time)

    def choose(self, view: View) -> Move:
        self._deadline = self._clock() + decision_seconds(view)
        return self._player.choose(view)

    def _out_of_time(self) -> bool:
        return self._clock() > self._deadline


def _margin(points: list[float] | list[int], mine: int) -> float:
    """``mine``'s points less the average of the others'."""
    others = [p for s, p in enumerate(points) if s != mine]
    return points[mine] - sum(others) / len(others)


def _count_points(state: LineHand, move: Move, divisor: int) -> float:
    """What a play scores at once in a divisor game, then a little for its weight."""
    if move.tile is None:
        return -1.0
    count = state.count_after(move)
    points = count // divisor if count and count % divisor == 0 else 0
    return 10.0 * points + move.tile.value / 10.0
