"""Invariants over random playouts of every preset and player count (hypothesis)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import DominoError
from engine.game import Game
from engine.line import LineHand
from engine.moves import MEXICAN, Action, Move, Side
from engine.record import export, load, summary
from engine.tiles import TILES, Tile, set_mask
from engine.train import TrainHand
from engine.views import view_of
from tests.engine.playouts import CASES, new_game, play_random_hand

seeds = st.integers(min_value=0, max_value=2**32)


def _ids(case: tuple[str, int, dict[str, Any]]) -> str:
    preset, n, options = case
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{preset}-{n}" + (f"-{extra}" if extra else "")


def tiles_in(value: Any) -> set[Tile]:
    """Every tile reachable from a view: its fields, tuples and dataclasses, recursively."""
    found: set[Tile] = set()
    pending = [value]
    # a loop over a stack with the commonest types first: it runs at every step of every
    # playout, over views of a thousand values
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind is Tile:
            found.add(item)
        elif kind in _PLAIN:
            continue
        elif kind is tuple or kind is list:
            pending.extend(item)
        elif isinstance(item, Tile):
            found.add(item)
        elif isinstance(item, tuple | list):
            pending.extend(item)
        else:
            pending.extend(getattr(item, name) for name in _fields_of(kind))
    return found


_PLAIN = frozenset({int, str, float, bool, type(None), Action, Side})
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields_of(kind: type) -> tuple[str, ...]:
    """The fields :func:`tiles_in` looks into: a dataclass's, but its rules; none else."""
    names = _FIELDS.get(kind)
    if names is None:
        fields = dataclasses.fields(kind) if dataclasses.is_dataclass(kind) else ()
        names = _FIELDS[kind] = tuple(f.name for f in fields if f.name != "rules")
    return names


def table_mask(game: Game) -> int:
    hand = game.logs[-1].state
    if isinstance(hand, TrainHand):
        laid = sum(1 << t for train in hand.laid for t in train)
        return laid | (1 << hand.engine if hand.engine_down else 0)
    return sum(1 << p[0] for p in hand.placed)


def check_accounting(game: Game) -> None:
    """Every dealt tile is in exactly one place: a hand, the table or the boneyard."""
    log = game.logs[-1]
    hand = log.state
    dealt = sum(len(h) for h in log.deal) + len(log.boneyard) + (log.engine is not None)
    seen = 0
    places = [*hand.hands, table_mask(game)]
    undrawn = hand.boneyard[len(hand.boneyard) - hand.boneyard_left :]
    places.append(sum(1 << t for t in undrawn))
    count = 0
    for mask in places:
        assert seen & mask == 0, "a tile is in two places"
        seen |= mask
        count += mask.bit_count()
    assert count == dealt
    assert seen & ~set_mask(game.rules.set) == 0


def check_views(game: Game, step: int | None = None) -> None:
    """No view shows a tile of another hand while the hand is played. ``step`` picks two
    seats (the one to move and one that rotates) instead of all of them."""
    hand = game.hand
    seats = range(game.players)
    if step is not None and game.to_move is not None:
        seats = sorted({game.to_move, step % game.players})
    for seat in seats:
        view = view_of(game, seat)
        visible = tiles_in(dealt_part(view))
        assert tuple(hand.hand(seat) if hand else view.hand) == view.hand
        if hand is not None:
            others = {t for s in range(game.players) if s != seat for t in hand.hand(s)}
            assert not visible & others, f"seat {seat} sees {visible & others}"
            assert view.revealed is None
    room = view_of(game)
    if hand is not None:
        hidden = {t for s in range(game.players) for t in hand.hand(s)}
        assert not tiles_in(dealt_part(room)) & hidden
        assert room.legal_moves == ()


def dealt_part(view: Any) -> Any:
    """The view without its opening draw: tiles drawn face up for the opener, then put
    back and shuffled again before the deal (a shuffle of its own), so a drawn tile may
    well be in another hand without telling anything of it."""
    return dataclasses.replace(view, opening_draw=())


def random_wrong_move(game: Game, rng: random.Random) -> Move:
    top = game.rules.set
    tile = TILES[rng.randrange(len(TILES[: (top + 2) * (top + 3) // 2]))]
    hand = game.logs[-1].state
    on_choices = [None, *hand.hand(0), *TILES[:3]]
    if isinstance(hand, LineHand):
        on_choices += [p.tile for p in hand.placements]
    action = rng.choice([Action.PLAY, Action.PLAY, Action.PASS, Action.DRAW, Action.END])
    if action is not Action.PLAY:
        return Move(rng.randrange(game.players + 1), action)
    return Move(
        rng.choice([game.to_move, game.to_move, rng.randrange(game.players)]),
        action,
        tile,
        rng.choice(on_choices),
        rng.choice([None, None, Side.HALF, Side.FLANK]),
        rng.choice([None] * 6 + [0, 1, -1, game.players])
        if isinstance(hand, LineHand)
        else rng.choice([None, MEXICAN, *range(game.players + 1)]),
    )


def fingerprint(game: Game) -> tuple[Any, ...]:
    """Everything a refused move could have changed, cheaper than a whole export."""
    hand = game.logs[-1].state
    table = (
        (tuple(map(tuple, hand.ends)), hand.marked)
        if isinstance(hand, TrainHand)
        else tuple(hand.sides)
    )
    return (
        tuple(hand.hands),
        table,
        tuple(hand.moves),
        hand.to_move,
        hand.boneyard_left,
        hand.legal_moves(),
        tuple(game.scores),
        hand.ended,
        game.outcome,
    )


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
@settings(max_examples=25)
@given(seed=seeds)
def test_random_hands_keep_every_invariant(
    case: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    preset, players, options = case
    rng = random.Random(seed)
    game = new_game(preset, players, options)
    game.start_hand(seed=rng.randrange(1 << 40))
    step = 0
    while game.hand is not None:
        step += 1
        check_accounting(game)
        check_views(game, step)
        legal = game.legal_moves()
        assert legal, "a hand in progress always has a move"
        assert len(set(legal)) == len(legal), "legal moves are distinct"
        wrong = random_wrong_move(game, rng)
        if wrong not in legal:
            before = fingerprint(game)
            with pytest.raises(DominoError):
                game.apply(wrong)
            assert fingerprint(game) == before
        game.apply(rng.choice(legal))
    check_views(game)
    if isinstance(game.logs[-1].state, TrainHand):
        check_one_tile_per_turn(game.logs[-1].state)


def check_one_tile_per_turn(hand: TrainHand) -> None:
    """Outside first turns a seat lays one tile a turn, plus one after each double."""
    runs: list[list[Move]] = []
    for move in hand.moves:
        if runs and runs[-1][0].seat == move.seat and runs[-1][-1].action is not Action.END:
            runs[-1].append(move)
        else:
            runs.append([move])
    # The first turns are the n runs from the one that sets out the engine (or the start).
    first = next(
        (i for i, run in enumerate(runs) if any(m.is_play and m.train is None for m in run)), 0
    )
    skip = set() if hand.rules.first_turn_one_tile else set(range(first, first + hand.players))
    for i, run in enumerate(runs):
        if i in skip:
            continue
        plays = [m for m in run if m.is_play and m.train is not None]
        for before in plays[:-1]:
            assert before.tile is not None and before.tile.is_double, f"two tiles in {run}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
@settings(max_examples=25)
@given(seed=seeds)
def test_scores_add_up_and_records_round_trip(
    case: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    preset, players, options = case
    rng = random.Random(seed)
    game = new_game(preset, players, options)
    hands = 0
    while not game.over and hands < 40:
        play_random_hand(game, rng)
        hands += 1
        results = [log.result for log in game.logs]
        sums = [sum(r.points[s] for r in results) for s in range(len(game.scores))]
        assert sums == game.scores
        result = results[-1]
        if game.rules.divisor:
            assert list(result.points) == [
                scored - pips
                for scored, pips in zip(game.logs[-1].state.scored, result.pips, strict=True)
            ]
        elif game.rules.family == "train":
            if game.rules.positive_scoring:
                assert sum(result.points) <= sum(result.pips)
            else:
                assert result.points == result.pips  # everyone writes their own pips
        elif result.winner is not None and not game.rules.blocked_both_score:
            assert sum(1 for p in result.points if p) <= max(1, len(game.scores) - 1)
        assert all(p >= 0 for p in result.points) or game.rules.divisor
    record = export(game, [f"P{i}" for i in range(players)])
    again = load(record)
    assert export(again, record["players"]) == record
    assert summary(again) == summary(game)
    assert again.outcome == game.outcome


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
@settings(max_examples=30)
@given(seed=seeds, stop=st.integers(min_value=0, max_value=200))
def test_a_record_of_a_game_in_progress_replays_to_the_same_state(
    case: tuple[str, int, dict[str, Any]], seed: int, stop: int
) -> None:
    preset, players, options = case
    rng = random.Random(seed)
    game = new_game(preset, players, options)
    game.start_hand(seed=rng.randrange(1 << 40))
    for _ in range(stop):
        if game.hand is None:
            break
        game.apply(rng.choice(game.legal_moves()))
    again = load(export(game))
    assert summary(again) == summary(game)
    if game.hand is not None:
        assert again.hand is not None
        assert again.hand.hands == game.hand.hands
        assert again.legal_moves() == game.legal_moves()
        assert fingerprint(again) == fingerprint(game)
