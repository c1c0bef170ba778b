"""LineHand helpers that search relies on."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine import line
from engine.game import Game
from engine.line import FLANK, LineHand
from engine.rules import Rules


@pytest.mark.parametrize("preset, players", [("all_fives", 2), ("fido12", 4), ("fido18", 3)])
def test_count_after_agrees_with_making_the_move(preset: str, players: int) -> None:
    rng = random.Random(7)
    for seed in range(10):
        game = Game(Rules.from_preset(preset), players)
        hand = game.start_hand(seed=seed)
        while game.hand is not None:
            for move in hand.legal_moves():
                if move.tile is not None:
                    trial = hand.copy()
                    expected = hand.count_after(move)
                    trial.push(move)
                    assert trial.count == expected, str(move)
            game.apply(rng.choice(hand.legal_moves()))


def test_from_public_rebuilds_the_table() -> None:
    game = Game(Rules.from_preset("fido12"), 3)
    hand = game.start_hand(seed=2)
    rng = random.Random(2)
    for _ in range(12):
        game.apply(rng.choice(hand.legal_moves()))
    again = LineHand.from_public(
        hand.rules,
        hand.hands,
        hand.boneyard[len(hand.boneyard) - hand.boneyard_left :],
        hand.placements,
        hand.moves,
        hand.to_move,
        hand.opener,
        hand.scored,
    )
    assert sorted(again.sides) == sorted(hand.sides)
    assert again.count == hand.count
    assert again.legal_moves() == hand.legal_moves()


@pytest.mark.parametrize(
    "preset, players", [("tournament_pr", 4), ("draw", 3), ("fido12", 4), ("mexican_train", 4)]
)
def test_the_legal_moves_kept_for_apply_are_never_the_callers(preset: str, players: int) -> None:
    """The game keeps the legal moves it gave for apply (issue 23); the list a caller gets
    is its own: emptying it changes neither what is legal nor what apply takes."""
    rng = random.Random(3)
    game = Game(Rules.from_preset(preset), players)
    game.start_hand(seed=5)
    while (hand := game.hand) is not None:
        given = game.legal_moves()
        again = list(given)
        assert again == hand.legal_moves()
        given.clear()
        assert game.legal_moves() == again
        game.apply(rng.choice(again))


def test_a_what_if_copy_keeps_no_legal_moves_of_the_hand_it_copies() -> None:
    """A copy made after the game kept its legal moves (what a computer player plays
    on) starts without them: after a move of its own it offers that position's."""
    game = Game(Rules.from_preset("tournament_pr"), 4)
    hand = game.start_hand(seed=11)
    while len(hand.moves) < 6:
        hand.push(hand.legal_moves()[0])
    kept = game.legal_moves()
    other = hand.copy()
    other.push(kept[-1])
    assert other.kept_moves() == other.legal_moves()
    assert other.legal_moves() != kept
    assert game.legal_moves() == kept


CROSSWISE = [("fido12", 4), ("fido18", 3), ("all_fives", 2)]


def random_moments(preset: str, players: int, seed: int) -> Iterator[LineHand]:
    """Every moment of 15 hands of random legal play, as the hand in play."""
    rng = random.Random(seed)
    for deal in range(15):
        game = Game(Rules.from_preset(preset), players)
        hand = game.start_hand(seed=deal)
        assert isinstance(hand, LineHand)
        while game.hand is not None:
            yield hand
            game.apply(rng.choice(game.legal_moves()))


@pytest.mark.parametrize("preset, players", CROSSWISE)
def test_the_count_kept_play_by_play_is_the_sum_of_the_open_ends(preset: str, players: int) -> None:
    """RULES.md: the count is the sum of the open ends, each open half of a double once
    and a flank not at all; the hand keeps it play by play (issue 23), never apart from it."""
    for hand in random_moments(preset, players, 9):
        assert hand.count == sum(s[0] for s in hand.sides if s[2] != FLANK)


@pytest.mark.parametrize("preset, players", CROSSWISE)
def test_the_open_sides_are_the_distinct_sides_however_they_are_kept(
    preset: str, players: int
) -> None:
    """The places a tile can go are the table's distinct open sides, in table order (after
    the first play of a divisor hand, which goes on a flank): merged only while a side is
    open twice (issue 23), they must never differ from merging every time."""
    for hand in random_moments(preset, players, 4):
        if len(hand.placements) > 1:
            distinct = list(dict.fromkeys((s[0], s[1], s[2]) for s in hand.sides))
            assert [(s.number, s.tile, s.kind) for s in hand.open_sides()] == distinct


@pytest.mark.parametrize("preset, players", [("fido12", 4), ("fido18", 3)])
def test_big_sets_build_the_plays_they_would_otherwise_keep(
    preset: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above double-9 a hand builds its rows of plays instead of keeping them (issue 23):
    the legal moves, in their order, are those the kept rows give."""
    built = [hand.legal_moves() for hand in random_moments(preset, players, 6)]
    monkeypatch.setattr(line, "KEEP_ROWS_UP_TO", 99)
    kept = [hand.legal_moves() for hand in random_moments(preset, players, 6)]
    assert len(built) > 500
    assert kept == built


@pytest.mark.parametrize("preset, players", CROSSWISE)
def test_a_what_if_copy_and_its_hand_never_change_each_others_table(
    preset: str, players: int
) -> None:
    """A computer player plays on private copies (engine/ai/hard.py): the open sides and
    legal moves of the real hand are what they were, whatever is played on a copy, and a
    copy made earlier is untouched by the real hand's plays."""
    rng = random.Random(8)
    for deal in range(8):
        game = Game(Rules.from_preset(preset), players)
        hand = game.start_hand(seed=deal)
        assert isinstance(hand, LineHand)
        while game.hand is not None:
            before = (hand.open_sides(), hand.legal_moves())
            copy = hand.copy()
            while copy.ended is None and len(copy.moves) < len(hand.moves) + 4:
                copy.push(rng.choice(copy.legal_moves()))
            assert (hand.open_sides(), hand.legal_moves()) == before
            earlier = hand.copy()
            game.apply(rng.choice(before[1]))
            assert (earlier.open_sides(), earlier.legal_moves()) == before
