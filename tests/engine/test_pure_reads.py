"""Reading a game changes nothing (issue 30): a hand ended by a push on the hand itself
is scored by :meth:`Game.settle`, ``apply`` or ``push``, never by a read."""

from __future__ import annotations

from typing import Any

import pytest

from engine.game import Game
from engine.rules import Rules
from engine.views import view_of


def ended_on_the_hand(preset: str, players: int, seed: int = 3) -> Game:
    """A game whose hand was played to its end on ``game.hand`` itself (the simulations'
    fast path), and not settled; a line game of a single hand, a round of Mexican Train."""
    options = {} if preset == "mexican_train" else {"single_hand": True}
    game = Game(Rules.from_preset(preset, **options), players)
    hand = game.start_hand(seed=seed)
    while hand.ended is None:
        hand.push(hand.legal_moves()[0])
    return game


def state_of(game: Game) -> dict[str, Any]:
    """What a read must leave as it was."""
    log = game.logs[-1]
    return {
        "result": log.result,
        "scores": list(game.scores),
        "outcome": game.outcome,
        "finished": game.hands_finished,
        "sheet": game.sheet(),
        "hands": game.hand_number,
        "ply": game.ply,
    }


READS = {
    "hand": lambda game: game.hand,
    "to_move": lambda game: game.to_move,
    "over": lambda game: game.over,
    "legal_moves": lambda game: game.legal_moves(),
    "forced_move": lambda game: game.forced_move(),
    "live_scores": lambda game: game.live_scores,
    "opener_choices": lambda game: game.opener_choices(),
    "view_of": lambda game: view_of(game, 0),
    "room view": lambda game: view_of(game),
}


@pytest.mark.parametrize("preset, players", [("partnership", 4), ("mexican_train", 3)])
@pytest.mark.parametrize("read", list(READS))
def test_a_read_of_a_hand_ended_on_the_hand_changes_nothing(
    preset: str, players: int, read: str
) -> None:
    game = ended_on_the_hand(preset, players)
    before = state_of(game)
    READS[read](game)
    READS[read](game)
    assert state_of(game) == before
    assert game.logs[-1].result is None and game.outcome is None


@pytest.mark.parametrize("preset, players", [("partnership", 4), ("mexican_train", 3)])
def test_an_ended_hand_not_yet_settled_is_no_hand_in_play(preset: str, players: int) -> None:
    """``hand`` is None once the hand has ended, settled or not: nobody is to move and
    there is nothing to play; the score sheet waits for :meth:`Game.settle`."""
    game = ended_on_the_hand(preset, players)
    assert game.hand is None and game.to_move is None
    assert game.legal_moves() == [] and game.forced_move() is None
    assert not game.over  # a single hand's game ends when the hand is scored
    view = view_of(game, 0)
    assert view.to_move is None and view.legal_moves == () and view.result is None


@pytest.mark.parametrize("preset, players", [("partnership", 4), ("mexican_train", 3)])
def test_settle_scores_the_hand_once(preset: str, players: int) -> None:
    game = ended_on_the_hand(preset, players)
    game.settle()
    result = game.logs[-1].result
    assert result is not None
    assert game.scores == list(result.points) and game.hands_finished == 1
    assert game.over == (preset != "mexican_train")  # a single hand: the game is over
    settled = state_of(game)
    game.settle()
    for read in READS.values():
        read(game)
    assert state_of(game) == settled


def test_settled_the_same_as_by_push() -> None:
    """Settling a hand pushed on the hand itself scores it as Game.push would have."""
    rules = Rules.from_preset("partnership")
    by_hand, by_game = Game(rules, 4), Game(rules, 4)
    for seed in range(1, 4):
        if by_game.over:
            break
        hand = by_hand.start_hand(seed=seed)
        by_game.start_hand(seed=seed)
        while hand.ended is None:
            move = hand.legal_moves()[0]
            hand.push(move)
            by_game.push(move)
        by_hand.settle()
        assert by_hand.scores == by_game.scores
        assert by_hand.logs[-1].result == by_game.logs[-1].result
        assert by_hand.outcome == by_game.outcome
