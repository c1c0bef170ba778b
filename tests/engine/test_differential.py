"""Differential test: our ``tournament_pr`` hands against the ``dominoes`` package.

The PyPI package ``dominoes`` (abw333) is an independent engine of the Puerto Rico
partnership rules: 4 players, 7 tiles each, no boneyard; a domino scores the pips left
in all hands for the team that went out, a blocked hand scores them for the team with
fewer pips and a tie scores nothing. Both engines are given the same deal and opener
and play the same random moves; after every move they must hold the same tiles, show
the same open ends, offer the same plays and agree on who is to move, and at the end
they must agree on how the hand ended, who won and the points.

A failure prints the seed, the deal and the moves as a ``domino-record/1`` record, so
``python -m engine replay`` (or this test with that one seed) reproduces it.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

import dominoes
import pytest

from engine.game import Game
from engine.moves import Action, Move
from engine.outcome import HandResult
from engine.rules import Rules
from engine.tiles import Tile
from tests.engine.dominoes_bridge import Ends, our_tile, random_deal, their_domino, their_game

DEALS = 2_000
SEEDS = range(DEALS)  # deal i and its moves come from random.Random(i): one seed replays one
RULES = Rules.from_preset("tournament_pr")


@dataclass
class Trace:
    """What a failure message needs to replay the hand."""

    seed: int
    deal: list[list[Tile]]
    opener: int
    moves: list[Move] = field(default_factory=list)

    def record(self) -> str:
        return json.dumps(
            {
                "format": "domino-record/1",
                "rules": {"preset": "tournament_pr", "options": {}},
                "players": ["Seat 0", "Seat 1", "Seat 2", "Seat 3"],
                "hands": [
                    {
                        "deal": [[str(t) for t in hand] for hand in self.deal],
                        "opener": self.opener,
                        "moves": [str(m) for m in self.moves],
                    }
                ],
            }
        )

    def fail(self, why: str) -> None:
        pytest.fail(f"seed {self.seed}, after {len(self.moves)} moves: {why}\n{self.record()}")


def check_same_state(trace: Trace, game: Game, theirs: dominoes.Game, ends: Ends) -> None:
    state = game.logs[-1].state
    for seat in range(4):
        ours_left = set(state.hand(seat))
        theirs_left = {our_tile(d) for d in theirs.hands[seat]}
        if ours_left != theirs_left:
            trace.fail(f"seat {seat} holds {sorted(ours_left)} here, {sorted(theirs_left)} there")
    our_ends = {(side.tile, side.number) for side in state.open_sides()}
    if our_ends != ends.pairs():
        trace.fail(f"our open ends {our_ends}, bookkept ends of theirs {ends.pairs()}")
    numbers = (theirs.board.left_end(), theirs.board.right_end())
    assert ends.left is not None and ends.right is not None
    if numbers != (ends.left[1], ends.right[1]):
        trace.fail(f"their board shows {numbers}, our account of it {ends.left, ends.right}")
    if (state.ended is None) != (theirs.result is None):
        trace.fail(f"our hand ended: {state.ended}; theirs: {theirs.result}")
    if state.ended is None:
        if state.to_move != theirs.turn:
            trace.fail(f"seat {state.to_move} is to move here, seat {theirs.turn} there")
        check_same_plays(trace, game, theirs, ends)


def check_same_plays(trace: Trace, game: Game, theirs: dominoes.Game, ends: Ends) -> None:
    """The plays on offer, as (tile, number it goes on): their list skips a second end
    showing the same number, and ours names the tile, so compare the pairs."""
    legal = game.legal_moves()
    if legal[0].action is Action.PASS:
        trace.fail(f"seat {legal[0].seat} must pass here but the other engine did not skip it")
    ours = {(m.tile, ends.number_for(m)) for m in legal}
    left, right = theirs.board.left_end(), theirs.board.right_end()
    offered = {(our_tile(d), left if is_left else right) for d, is_left in theirs.valid_moves}
    if ours != offered:
        trace.fail(f"we offer {sorted(ours)}, they offer {sorted(offered)}")


def check_same_result(trace: Trace, ours: HandResult | None, theirs: dominoes.Result) -> None:
    if ours is None:
        trace.fail("the other engine ended the hand; ours did not")
        return
    end = "domino" if theirs.won else "blocked"
    winner = None if theirs.points == 0 else 0 if theirs.points > 0 else 1
    points = [0, 0]
    if winner is not None:
        points[winner] = abs(theirs.points)
    if (ours.end, ours.winner, list(ours.points)) != (end, winner, points):
        trace.fail(
            f"we say {ours.end}, winner {ours.winner}, points {list(ours.points)};"
            f" they say {end}, winner {winner}, points {points} ({theirs})"
        )
    if ours.closer != theirs.player:
        trace.fail(f"seat {ours.closer} closed the hand here, seat {theirs.player} there")


def play_both(seed: int) -> HandResult:
    """Play one random hand in both engines, checking them against each other as it goes."""
    rng = random.Random(seed)
    deal = random_deal(rng)
    opener = rng.randrange(4)  # the tournament's first opener is drawn: any seat may open
    trace = Trace(seed, deal, opener)

    game = Game(RULES, 4)
    game.start_hand(deal=deal, boneyard=[], opener=opener)
    theirs = their_game(deal, opener)
    ends = Ends()

    opening = {m.tile for m in game.legal_moves()}
    if opening != {our_tile(d) for d, _ in theirs.valid_moves}:
        trace.fail(f"we may open with {sorted(opening)}, they with {theirs.valid_moves}")
    while game.hand is not None:
        legal = game.legal_moves()
        move = legal[rng.randrange(len(legal))]
        trace.moves.append(move)
        assert move.tile is not None  # passes never reach here: they follow plays below
        if move.on is None:
            left = True
            ends.open(move.tile)
        else:
            left = ends.side_for(move)
            ends.play(move, left)
        try:
            game.apply(move)
            theirs.make_move(their_domino(move.tile), left)
        except Exception as error:  # an engine refused the move: show how it came to this
            trace.fail(f"{move} (their {'left' if left else 'right'}): {error!r}")
        # The other engine skips a seat that cannot play inside make_move; ours writes
        # the pass down as a move, so make our forced passes here.
        while (forced := game.forced_move()) is not None:
            if forced.action is not Action.PASS:
                trace.fail(f"forced {forced} in a game without a boneyard")
            trace.moves.append(forced)
            game.apply(forced)
        check_same_state(trace, game, theirs, ends)

    result = game.logs[-1].result
    check_same_result(trace, result, theirs.result)
    assert result is not None
    return result


def test_random_hands_agree_with_the_dominoes_package() -> None:
    ends = {"domino": 0, "blocked": 0, "tie": 0}
    for seed in SEEDS:
        result = play_both(seed)
        ends["tie" if result.winner is None else result.end] += 1
    # The comparison means little unless every kind of end came up.
    assert all(ends.values()), ends
