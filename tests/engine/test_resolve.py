"""engine.resolve: a typed move read as one legal move of a seat, or a precise refusal."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import (
    Ambiguous,
    CannotNow,
    DoesNotFit,
    EmptyMove,
    GameOver,
    IllegalMove,
    InvalidMove,
    NoSuchKey,
    NotYourTile,
    NotYourTurn,
    StaleAction,
)
from engine.game import Game
from engine.keys import move_keys
from engine.moves import Action, Move
from engine.resolve import confirm, resolve
from engine.rules import Rules
from engine.tiles import Tile, set_tiles
from engine.views import view_of
from tests.engine.playouts import CASES, new_game


def _ids(case: tuple[str, int, dict[str, Any]]) -> str:
    preset, n, options = case
    return f"{preset}-{n}-" + ",".join(f"{k}={v}" for k, v in options.items())


def check_position(game: Game, rng: random.Random) -> None:
    """Every promise of resolve, in the position ``game`` is in."""
    hand = game.hand
    assert hand is not None
    seat = hand.to_move
    legal = game.legal_moves()
    for move in legal:
        assert resolve(game, seat, move.action_text()) == move
        assert resolve(game, seat, move.action_text(), ply=game.ply) == move
        assert resolve(game, seat, move.action_text().upper()) == move
    # a move's number, as the seat's view lists them (engine/keys.py): that move
    listed = view_of(game, seat).legal_moves
    for key, move in move_keys(listed):
        assert resolve(game, seat, key) == move
        assert resolve(game, seat, f" {key} ") == move
    for key in ("0", str(len(listed) + 1), "1000", "0" * 5):
        with pytest.raises(NoSuchKey) as refused:
            resolve(game, seat, key)
        assert refused.value.count == len(listed) and refused.value.key == key
    # a bare tile: the one move of that tile, or every one of them as candidates
    by_tile: dict[Tile, list[Move]] = {}
    for move in legal:
        if move.tile is not None:
            by_tile.setdefault(move.tile, []).append(move)
    for tile, moves in by_tile.items():
        if len(moves) == 1:
            assert resolve(game, seat, str(tile)) == moves[0]
            assert resolve(game, seat, f"{tile.lo}-{tile.hi}") == moves[0]
        else:
            with pytest.raises(Ambiguous) as refused:
                resolve(game, seat, str(tile))
            assert refused.value.tile == tile
            assert set(refused.value.candidates) == set(moves)
    # a tile held that has no legal move: does not fit, with the legal tile moves
    tile_moves = tuple(m for m in legal if m.tile is not None)
    for tile in hand.hand(seat):
        if tile not in by_tile:
            with pytest.raises(DoesNotFit) as refused:
                resolve(game, seat, str(tile))
            assert refused.value.tile == tile
            assert refused.value.legal == tile_moves
    # a tile not held
    held = set(hand.hand(seat))
    others = [t for t in set_tiles(game.rules.set) if t not in held]
    if others:
        tile = rng.choice(others)
        with pytest.raises(NotYourTile) as refused:
            resolve(game, seat, str(tile))
        assert refused.value.tile == tile
    # pass, draw, end: resolved when legal, else refused with the action
    for action in (Action.PASS, Action.DRAW, Action.END):
        if Move(seat, action) in legal:
            assert resolve(game, seat, action.value) == Move(seat, action)
        else:
            with pytest.raises(CannotNow) as cannot:
                resolve(game, seat, action.value)
            assert cannot.value.action is action
    # every other seat, and a stale ply
    some = legal[0].action_text()
    for other in range(game.players):
        if other != seat:
            with pytest.raises(NotYourTurn) as turn:
                resolve(game, other, some)
            assert turn.value.to_move == seat
    with pytest.raises(StaleAction):
        resolve(game, seat, some, ply=game.ply + 1)
    with pytest.raises(EmptyMove):
        resolve(game, seat, "  ")
    check_confirmed(game, seat, legal, held)


def check_confirmed(game: Game, seat: int, legal: Any, held: set[Tile]) -> None:
    """A move given whole (a button's notation) is confirmed as itself when legal, and
    refused otherwise, never read as another move."""
    for move in legal:
        assert confirm(game, seat, Move.parse(str(move))) == move
        for other in range(game.players):
            if other != seat:  # another seat's press, or this move under another seat
                with pytest.raises(NotYourTurn):
                    confirm(game, other, move)
                with pytest.raises(NotYourTurn):
                    confirm(game, seat, Move(other, move.action, move.tile, move.on))
    for tile in sorted(held):
        bare = Move(seat, Action.PLAY, tile)  # an opening tile's words, which typed may
        if bare not in legal:  # name the one place it fits: given whole, they name none
            with pytest.raises(IllegalMove):
                confirm(game, seat, bare)


@pytest.mark.parametrize("case", CASES, ids=_ids)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_resolve_in_every_position_of_random_play(
    case: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    preset, players, options = case
    game = new_game(preset, players, options)
    rng = random.Random(seed)
    game.start_hand(seed=rng.randrange(1 << 40))
    positions = 0
    while game.hand is not None and positions < 60:
        check_position(game, rng)
        game.apply(rng.choice(game.legal_moves()))
        positions += 1


def test_refusals_are_the_engine_errors_of_their_kind() -> None:
    game = Game(Rules.from_preset("partnership"), 4)
    hand = game.start_hand(seed=7)
    seat = hand.opener
    assert issubclass(EmptyMove, InvalidMove)
    for refusal in (CannotNow, NotYourTile, DoesNotFit, Ambiguous, NotYourTurn, GameOver):
        assert issubclass(refusal, IllegalMove)
    with pytest.raises(InvalidMove):
        resolve(game, seat, "six four")
    with pytest.raises(InvalidMove):
        resolve(game, seat, "6-6 under 6-5")
    with pytest.raises(CannotNow, match="cannot pass"):
        resolve(game, seat, "pass")


def test_a_tile_that_does_not_fit_where_asked() -> None:
    game = Game(Rules.from_preset("partnership"), 4)
    hand = game.start_hand(seed=7)
    game.apply(game.legal_moves()[0])  # the 6-6
    seat = game.to_move
    assert seat is not None
    mine = hand.hand(seat)
    playable = next(m for m in game.legal_moves() if m.tile is not None)
    assert playable.tile in mine
    elsewhere = next(t for t in set_tiles(6) if t not in (playable.on,))
    with pytest.raises(DoesNotFit):
        resolve(game, seat, f"{playable.tile} on {elsewhere}")


def test_a_move_given_whole_when_no_hand_is_in_play() -> None:
    game = Game(Rules.from_preset("partnership"), 4)
    with pytest.raises(GameOver):
        confirm(game, 0, Move.parse("0: 6-6"))


def test_no_hand_in_play() -> None:
    game = Game(Rules.from_preset("draw", single_hand=True), 2)
    rng = random.Random(3)
    game.start_hand(seed=3)
    while game.hand is not None:
        game.apply(rng.choice(game.legal_moves()))
    with pytest.raises(GameOver) as over:
        resolve(game, 0, "pass")
    assert over.value.finished
    between = Game(Rules.from_preset("partnership"), 4)
    with pytest.raises(GameOver) as waiting:
        resolve(between, 0, "6-6")
    assert not waiting.value.finished
