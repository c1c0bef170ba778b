"""Imagined deals agree with everything public, and a rebuilt Mexican Train round is the
real round with other hands in it."""

from __future__ import annotations

import math
import random

import pytest

from engine.ai.imagine import HeavyPlays, LineImagination, TrainImagination
from engine.ai.knowledge import Knowledge
from engine.game import Game
from engine.hand import Hand
from engine.players import make_player
from engine.rules import Rules
from engine.simulate import decisions
from engine.tiles import NUMBER_MASK, Tile, tiles_of
from engine.train import TrainHand
from engine.views import View


def undrawn(hand: Hand) -> list[Tile]:
    """The boneyard's tiles nobody has drawn yet."""
    return hand.boneyard[len(hand.boneyard) - hand.boneyard_left :]


def positions(preset: str, players: int, seed: int, options: dict | None = None):
    """(game, view) at every decision of one hand between normal players."""
    game = Game(Rules.from_preset(preset, **(options or {})), players)
    seats = [make_player("normal", seed=s) for s in range(players)]
    game.start_hand(seed=seed)
    for view in decisions(game):
        yield game, view
        game.apply(seats[view.seat].choose(view))


@pytest.mark.parametrize(
    "preset, players, options",
    [
        ("mexican_train", 4, {}),
        ("mexican_train", 3, {"forked_doubles": True}),
        ("mexican_train", 6, {"engine_from": "holder"}),
        ("mexican_train", 2, {"satisfy_doubles": False}),
    ],
)
def test_a_rebuilt_round_plays_like_the_real_one(preset: str, players: int, options: dict) -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        for game, view in positions(preset, players, seed, options):
            if view.engine is None or view.first_round:
                continue
            real = game.logs[-1].state
            assert isinstance(real, TrainHand)
            state = TrainImagination(view).sample(rng)
            assert state.trains() == real.trains()
            assert state.unsatisfied() == real.unsatisfied()
            assert state.to_move == real.to_move and state.marked == real.marked
            assert state.legal_moves() == real.legal_moves()
            assert [h.bit_count() for h in state.hands] == [h.bit_count() for h in real.hands]
            assert state.hands[view.seat] == real.hands[view.seat]
            assert state.boneyard_left == view.boneyard
            hidden = set(tiles_of(sum(h for s, h in enumerate(real.hands) if s != view.seat)))
            hidden |= set(undrawn(real))
            imagined = set(tiles_of(sum(h for s, h in enumerate(state.hands) if s != view.seat)))
            imagined |= set(undrawn(state))
            assert imagined == hidden  # the same unseen tiles, dealt differently
            checked += 1
    assert checked > 20


@pytest.mark.parametrize(
    "preset, players", [("partnership", 4), ("draw", 3), ("all_fives", 2), ("fido12", 4)]
)
def test_an_imagined_line_deal_respects_counts_and_voids(preset: str, players: int) -> None:
    rng = random.Random(3)
    for seed in range(3):
        for game, view in positions(preset, players, seed):
            if not view.placements:
                continue
            knowledge = Knowledge.of(view)
            state = LineImagination(view, knowledge).deal(rng)
            assert [h.bit_count() for h in state.hands] == list(view.tile_counts)
            assert state.boneyard_left == view.boneyard
            assert state.legal_moves() == list(view.legal_moves)
            assert state.count == game.logs[-1].state.count
            for s, lacks in enumerate(knowledge.lacks):
                if s != view.seat and _fits_voids(view, knowledge):
                    for number in lacks:
                        assert not state.hands[s] & NUMBER_MASK[number]


@pytest.mark.parametrize(
    "preset, players", [("partnership", 4), ("draw", 3), ("all_fives", 2), ("fido12", 4)]
)
def test_the_table_rebuilt_once_takes_every_deal(preset: str, players: int) -> None:
    """Deals go on copies of the table rebuilt once from the view (LineImagination): given
    the real hands and boneyard after other deals, it plays on as the real hand does, to
    the same result."""
    rng = random.Random(11)
    checked = 0
    for seed in range(3):
        for game, view in positions(preset, players, seed):
            if not view.placements:
                continue
            real = game.logs[-1].state
            imagination = LineImagination(view, Knowledge.of(view))
            for _ in range(3):
                imagination.deal(rng)  # deals before: none changes the table
            state = imagination.table.with_hands(list(real.hands), undrawn(real))
            twin = real.copy()
            while twin.ended is None:
                moves = twin.legal_moves()
                assert state.legal_moves() == moves
                move = rng.choice(moves)
                twin.push(move)
                state.push(move)
            assert (state.ended, state.scored, state.hands) == (twin.ended, twin.scored, twin.hands)
            scores = [0] * len(view.scores)
            assert state.result(scores) == twin.result(scores)
            checked += 1
    assert checked > 20


def _fits_voids(view: View, knowledge: Knowledge) -> bool:
    """The imagined deal may ignore voids only when no deal can respect them all; the
    real deal respects them, so a check is fair whenever voids are few."""
    return sum(len(lacks) for lacks in knowledge.lacks) <= 2


def test_the_real_hands_explain_heavy_first_plays_better_than_imagined_ones() -> None:
    """Normal players shed heavy tiles first: weighed by HeavyPlays, the hands they really
    held explain their plays better, on average, than deals imagined without the
    weights."""
    rng = random.Random(5)
    real_logs: list[float] = []
    imagined_logs: list[float] = []
    for seed in range(6):
        for game, view in positions("partnership", 4, seed):
            heavy = HeavyPlays(view, 0.3)
            if not view.placements or not heavy.useful:
                continue
            real = list(game.logs[-1].state.hands)
            imagined = LineImagination(view, Knowledge.of(view)).deal(rng).hands
            assert 0 < heavy.weight(imagined) <= 1
            real_logs.append(math.log(heavy.weight(real)))
            imagined_logs.append(math.log(heavy.weight(imagined)))
    assert len(real_logs) > 50
    assert sum(real_logs) / len(real_logs) > sum(imagined_logs) / len(imagined_logs) + 0.5
