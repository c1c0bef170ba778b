"""A game resumed from a checkpoint and the hands dealt since is the game replayed from
its first hand: same scores, turn, legal moves, views, outcome, move and hand numbers;
and both go on the same way (hypothesis, computer players)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RecordError
from engine.game import SHEET_ROWS, Game
from engine.players import make_player
from engine.record import checkpoint, export, export_hands, export_since, load, resume
from engine.rules import Rules
from engine.views import view_of

# (preset, players, options): a preset of each family, an opener left to a tile draw, a
# deciding hand when both teams pass the target, Mexican Train's rounds by number.
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("partnership", 4, {}),
    ("partnership", 4, {"blocked_both_score": True, "target": 20}),
    ("draw", 3, {}),
    ("all_fives", 2, {}),
    ("mexican_train", 4, {"rounds": 3}),
    ("mexican_train", 3, {"rounds": 2, "engine_from": "holder"}),
    ("tournament_pr", 4, {}),
    ("tournament_pr", 4, {"time_limit_ends": "immediately"}),
]
STRENGTHS = ("greedy", "easy", "random", "normal")


def play(game: Game, seed: int, decisions: int, clock_at: int | None = None) -> None:
    """Up to ``decisions`` more moves by computer players (hands dealt as needed), all
    drawn from ``seed`` and the game's position, so that two equal games go on equally.
    The game clock runs out at move ``clock_at``, once a hand is dealt (a record holds
    the clock's end in a hand)."""
    while not game.over and decisions > 0:
        ticking = clock_at is not None and game.hand_number and not game.time_up
        if ticking and game.ply >= clock_at:
            game.expire_clock()
            continue
        if game.hand is None:
            game.start_hand(seed=random.Random(seed * 1_000 + game.hand_number).getrandbits(40))
            continue
        seat = game.to_move
        assert seat is not None
        move = game.forced_move()
        if move is None:
            player = make_player(STRENGTHS[seat % len(STRENGTHS)], seed + game.ply * 8 + seat)
            move = player.choose(view_of(game, seat))
        game.apply(move)
        decisions -= 1


def state(game: Game) -> tuple[Any, ...]:
    """Everything a player, the room or a save can read of a game (the checkpoint and
    record at its last hand, which every resumed copy holds)."""
    views = [view_of(game), *(view_of(game, s) for s in range(game.players))]
    last = max(0, game.hand_number - 1)
    return (
        list(game.scores),
        game.live_scores,
        game.to_move,
        game.legal_moves(),
        game.forced_move(),
        game.outcome,
        game.time_up,
        game.ply,
        game.hand_number,
        game.hands_finished,
        game.places(),
        views,
        checkpoint(game, last),
        export_since(game, last),
    )


def through_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def resumed_at(game: Game, at: int) -> Game:
    return resume(through_json(export_since(game, at)), through_json(checkpoint(game, at)))


def clock_for(preset: str, clock: int | None) -> int | None:
    return clock if preset == "tournament_pr" else None


@settings(max_examples=60, deadline=None)
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(0, 2**31),
    played=st.integers(0, 700),
    clock=st.none() | st.integers(0, 40) | st.integers(0, 400),
)
def test_resuming_at_any_hand_gives_the_replayed_game(
    case: tuple[str, int, dict[str, Any]], seed: int, played: int, clock: int | None
) -> None:
    preset, players, options = case
    clock_at = clock_for(preset, clock)
    game = Game(Rules.from_preset(preset, **options), players)
    play(game, seed, played, clock_at)
    full = load(through_json(export(game)))
    assert state(full) == state(game)
    for at in range(max(1, game.hand_number)):
        again = resumed_at(full, at)
        assert again.hands_before == at and len(again.logs) == game.hand_number - at
        assert state(again) == state(full), f"resumed at hand {at}"
    # both go on the same way: the full replay, and one resumed after every hand
    compact = resumed_at(full, full.keep_from())
    for _ in range(6):
        play(full, seed, 40, clock_at)
        play(compact, seed, 40, clock_at)
        compact = resumed_at(compact, compact.keep_from())
        assert state(compact) == state(full)
        assert compact.keep_from() == full.keep_from()
        assert checkpoint(compact) == checkpoint(full)


@settings(max_examples=15, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**31), clock=st.integers(0, 300))
def test_a_game_saved_compactly_on_every_move_plays_like_one_never_saved(
    case: tuple[str, int, dict[str, Any]], seed: int, clock: int
) -> None:
    """What the bot does: after each move it keeps a checkpoint and the hands since, and
    the next move is made on the game resumed from them."""
    preset, players, options = case
    clock_at = clock_for(preset, clock)
    rules = Rules.from_preset(preset, **options)
    kept, saved = Game(rules, players), Game(rules, players)
    stored: list[dict[str, Any]] = []  # hands that left the snapshot, in order
    while not kept.over and kept.hand_number < 12:
        play(kept, seed, 1, clock_at)
        play(saved, seed, 1, clock_at)
        start = saved.keep_from()
        stored += export_hands(saved, len(stored), start)
        saved = resume(through_json(export_since(saved, start)), through_json(checkpoint(saved)))
        assert state(saved) == state(kept)
        assert len(saved.logs) <= 2  # the last finished hand and the one in play
    whole = dict(export_since(saved, saved.hands_before), hands=[*stored, *saved_hands(saved)])
    assert whole == export(kept)
    assert state(load(whole)) == state(kept)


def saved_hands(game: Game) -> list[dict[str, Any]]:
    return export_hands(game, game.hands_before)


def test_forgetting_old_hands_changes_nothing_but_memory() -> None:
    game = Game(Rules.from_preset("draw"), 2)
    play(game, 5, 10_000)
    assert game.over and game.hand_number > 2
    before = state(game)
    game.forget_before(game.keep_from())
    assert len(game.logs) == 1 and state(game) == before
    with pytest.raises(ValueError):
        game.forget_before(game.hand_number)


def test_the_score_sheet_keeps_its_latest_rows_numbered_in_the_game() -> None:
    game = Game(Rules.from_preset("partnership", target=10_000), 4)
    play(game, 3, 3_000)
    finished = game.hands_finished
    assert finished > SHEET_ROWS
    view = view_of(resumed_at(game, game.keep_from()))
    assert len(view.sheet) == SHEET_ROWS and view.sheet_first == finished - SHEET_ROWS
    every = [log.result.points for log in game.logs if log.result is not None]
    assert list(view.sheet) == every[-SHEET_ROWS:]
    assert view.hand_number == game.hand_number and view.ply == game.ply


def test_a_resumed_game_is_not_exported_as_if_whole() -> None:
    game = Game(Rules.from_preset("draw"), 2)
    play(game, 8, 10_000)
    again = resumed_at(game, game.keep_from())
    assert again.hands_before > 0
    with pytest.raises(ValueError):
        export(again)
    assert export_since(again, again.hands_before)["hands"] == export_hands(
        game, again.hands_before
    )


def test_a_game_stopped_between_hands_stays_stopped() -> None:
    """An end its hands do not decide (the bot's length limit) is kept by the checkpoint."""
    from engine.outcome import Outcome

    game = Game(Rules.from_preset("draw"), 2)
    play(game, 4, 25)
    while game.hand is not None:
        play(game, 4, 1)
    game.outcome = Outcome(0, "limit", tuple(game.scores))
    again = resumed_at(game, game.keep_from())
    assert again.outcome == game.outcome


@pytest.mark.parametrize(
    "point",
    [
        None,
        [],
        {"hands_before": -1, "plies_before": 0, "scores": [0, 0]},
        {"hands_before": 1, "plies_before": 0, "scores": [0]},
        {"hands_before": 1, "plies_before": 0, "scores": ["0", 0]},
        {"hands_before": 1, "plies_before": 0, "scores": [0, 0], "sheet": [[1, 2], [3, 4]]},
        {"hands_before": 1, "plies_before": 0, "scores": [0, 0], "tiebreak": "no"},
        {"hands_before": 1, "plies_before": 0, "scores": [0, 0], "opener": {"seat": 1}},
        {"hands_before": 1, "plies_before": 0, "scores": [0, 0], "outcome": {"winner": 5}},
    ],
)
def test_a_malformed_checkpoint_is_refused_by_name(point: Any) -> None:
    record = {"format": "domino-record/1", "rules": {"preset": "draw"}, "players": ["A", "B"]}
    with pytest.raises(RecordError, match="checkpoint"):
        resume(record, point)
