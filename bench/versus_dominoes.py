"""Our hard team against the ``dominoes`` package's ``probabilistic_alphabeta`` players,
inside that package's engine (Puerto Rico partnership: 4 players, 7 tiles, no boneyard).

Their engine is the referee: it holds the tiles, says whose turn it is and scores the
hand. Our engine follows every move in parallel (the differential test shows the two
agree on every rule), so our player gets its usual view and nothing more. Each deal is
played twice with the teams swapped.

Their searcher is exact but slow early in a hand, so it starts at move ``START_MOVE`` on
``SAMPLE_SIZE`` imagined deals; before that it plays heaviest tile first (the package's
``bota_gorda``), the usual opening of a human player.
"""

from __future__ import annotations

import random
import time

import dominoes

from bench.ai import Tally
from engine.ai.hard import TimedHardPlayer
from engine.game import Game
from engine.moves import Action, Move
from engine.rules import Rules
from engine.views import view_of
from tests.engine.dominoes_bridge import Ends, our_tile, random_deal, their_domino, their_game

RULES = Rules.from_preset("tournament_pr")
START_MOVE = 8
SAMPLE_SIZE = 8
LABEL = (
    f"versus dominoes pkg: hard pair vs probabilistic_alphabeta(from move {START_MOVE},"
    f" {SAMPLE_SIZE} deals)"
)


def _their_player() -> dominoes.players.probabilistic_alphabeta:
    return dominoes.players.probabilistic_alphabeta(
        start_move=START_MOVE, sample_size=SAMPLE_SIZE, player=dominoes.players.bota_gorda
    )


def _their_choice(theirs: dominoes.Game, seat_player: object) -> tuple[dominoes.Domino, bool]:
    dominoes.players.bota_gorda(theirs)
    seat_player(theirs)  # type: ignore[operator]
    return theirs.valid_moves[0]


def _our_move(game: Game, ends: Ends, domino: dominoes.Domino, left: bool) -> Move:
    """Our move for their (domino, left end)."""
    tile = our_tile(domino)
    candidates = [m for m in game.legal_moves() if m.tile == tile]
    if len(candidates) == 1 or ends.left is None:
        return candidates[0]
    for move in candidates:
        if ends.side_for(move) == left:
            return move
    # both ends show the same number: their list names only the left one
    return candidates[0]


def play_hand_versus(deal_seed: int, our_team: int, times: list[float] | None = None) -> int | None:
    """One hand; the winning team (0: seats 0 and 2) or None for a tie. ``times`` gets
    the seconds of each of our decisions that had a choice of moves."""
    rng = random.Random(deal_seed)
    deal = random_deal(rng)
    opener = rng.randrange(4)
    game = Game(RULES, 4)
    game.start_hand(deal=deal, boneyard=[], opener=opener)
    theirs = their_game(deal, opener)
    ends = Ends()
    # the bot's budget on the wall clock, as the times measured count it
    ours = {
        s: TimedHardPlayer(deal_seed * 8 + s, time.perf_counter)
        for s in range(4)
        if s % 2 == our_team
    }
    others = {s: _their_player() for s in range(4) if s % 2 != our_team}
    random.seed(deal_seed)  # their sampling draws from the global generator
    while game.hand is not None:
        seat = game.to_move
        assert seat is not None and seat == theirs.turn
        if seat in ours:
            view = view_of(game, seat)
            started = time.perf_counter()
            move = ours[seat].choose(view)
            if times is not None and len(view.legal_moves) > 1:
                times.append(time.perf_counter() - started)
            assert move.tile is not None
            left = True if move.on is None else ends.side_for(move)
        else:
            domino, left = _their_choice(theirs, others[seat])
            move = _our_move(game, ends, domino, left)
            left = True if move.on is None else ends.side_for(move)
        if move.on is None:
            ends.open(move.tile)
        else:
            ends.play(move, left)
        game.apply(move)
        theirs.make_move(their_domino(move.tile), left)
        while (forced := game.forced_move()) is not None:
            assert forced.action is Action.PASS
            game.apply(forced)
    result = theirs.result
    assert result is not None
    return None if result.points == 0 else 0 if result.points > 0 else 1


def play_versus(deals: range) -> Tally:
    """Our hard pair is the strong side; a hand's points are not compared (their engine
    writes them on the winning team), only who won."""
    tally = Tally(diffs=[], decision_times=[])
    for deal in deals:
        diff = 0.0
        for our_team in (0, 1):
            winner = play_hand_versus(deal, our_team, tally.decision_times)
            tally.hands += 1
            if winner is not None:
                tally.decided += 1
                won = winner == our_team
                tally.wins += won
                tally.strong_points += won
                tally.weak_points += not won
                diff += (1 if won else -1) / 2
        tally.diffs.append(diff)  # type: ignore[union-attr]
    return tally
