"""Write the Mexican Train records of tests/data/records/mexican_*.json (a developer tool;
pytest does not run it).

    .venv/bin/python -m tests.data.build_train_records          # check and (re)write
    .venv/bin/python -m tests.data.build_train_records --check  # only compare
    .venv/bin/python -m tests.data.build_train_records --fuzz 300  # compare legal moves

Most cases are scripted: a small deal (usually a double-6 set, engine 6-6, a few tiles
per hand through ``hand_size``) and the moves, played through the engine only to export
the record with explicit deals. Others are found by playing the engine with random legal
moves. The expectation of every case comes from ``tests/data/train_reference.py``, an
independent model of the rules that never imports the engine; the engine's summary (or
refusal) is compared with it, and a case where the engine is judged wrong keeps the
reference's numbers and gets ``known_bug``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine.errors import DominoError
from engine.game import Game
from engine.moves import Move
from engine.record import export, load, summary
from engine.rules import Rules
from engine.tiles import Tile
from tests.data import train_reference as ref
from tests.data.build_records import Case, compare, run_cases

RECORDS = Path(__file__).parent / "records"
NAMES = ["Ana", "Beto", "Caro", "Dani", "Eva", "Fede", "Gabi", "Hugo"]

BUILDERS: list[Callable[[], Iterable[Case]]] = []


def builder(fn: Callable[[], Iterable[Case]]) -> Callable[[], Iterable[Case]]:
    BUILDERS.append(fn)
    return fn


# ----- making records with the engine -----------------------------------------------------


def new_game(players: int, **options: Any) -> Game:
    return Game(Rules.from_preset("mexican_train", **options), players)


def record_of(game: Game) -> dict[str, Any]:
    return export(game, NAMES[: game.players])


def copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


def scripted(
    hands: list[str],
    moves: list[str],
    bone: str = "",
    rounds: list[tuple[list[str], list[str], str]] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The record of a scripted game. ``hands`` are space-separated tiles per seat,
    ``bone`` the front of the boneyard (the rest follows in tile order). Every move is
    played through the engine, which must accept it. Defaults: double-6, hand_size from
    the hands given. ``rounds`` gives earlier rounds (hands, moves, bone) first."""
    dealt = [h.split() for h in hands]
    options.setdefault("set", 6)
    options.setdefault("hand_size", len(dealt[0]))
    game = new_game(len(dealt), **options)
    for r_hands, r_moves, r_bone in [*(rounds or []), (hands, moves, bone)]:
        deal = [h.split() for h in r_hands]
        play_round(game, deal, r_moves, r_bone.split())
    return record_of(game)


def play_round(game: Game, deal: list[list[str]], moves: list[str], front: list[str]) -> None:
    rules = game.rules
    index = len(game.logs)
    top = rules.set - index % (rules.set + 1)
    engine = (top, top)
    used = {ref.tile(t) for h in deal for t in h} | {ref.tile(t) for t in front}
    if rules.engine_from == "table":
        used.add(engine)
    rest = [ref.text(t) for t in ref.set_tiles(rules.set) if t not in used]
    game.start_hand(
        deal=[[Tile.parse(t) for t in h] for h in deal],
        boneyard=[Tile.parse(t) for t in [*front, *rest]],
        engine=Tile.parse(ref.text(engine)) if rules.engine_from == "table" else None,
    )
    for text in moves:
        try:
            game.apply(Move.parse(text))
        except DominoError as error:
            raise AssertionError(f"script: {text!r} refused: {error}") from None


def with_options(record: dict[str, Any], **options: Any) -> dict[str, Any]:
    out = copy(record)
    out["rules"]["options"] = {**out["rules"]["options"], **options}
    return out


def with_moves(record: dict[str, Any], moves: list[str], hand: int = -1) -> dict[str, Any]:
    out = copy(record)
    out["hands"][hand]["moves"] = list(moves)
    return out


def moves_of(record: dict[str, Any], hand: int = -1) -> list[str]:
    return list(record["hands"][hand]["moves"])


def play_random(game: Game, rng: random.Random, stop: Callable[[Game], bool] | None = None) -> None:
    while game.hand is not None and not (stop and stop(game)):
        game.apply(rng.choice(game.legal_moves()))


# ----- expectations and checks --------------------------------------------------------------


def case(name: str, about: str, record: dict[str, Any], known_bug: str | None = None) -> Case:
    """A case whose expectation is the reference's summary."""
    return Case(name, about, record, expect=ref.summary(record), known_bug=known_bug)


def refused(name: str, about: str, record: dict[str, Any], known_bug: str | None = None) -> Case:
    """A refusal: the reference must refuse it; the expected text is the engine's message
    up to its list of legal moves (checked to name the same hand and move)."""
    try:
        ref.summary(record)
    except ref.Refused as refusal:
        verdict = refusal
    else:
        raise AssertionError(f"{name}: the reference accepts this record")
    where = f"hand {verdict.hand}" + ("" if verdict.move is None else f", move {verdict.move}")
    try:
        load(record)
    except DominoError as error:
        message = str(error).split("; you can:")[0]
        if not message.startswith(where + (" (" if verdict.move is not None else ":")):
            raise AssertionError(f"{name}: engine refuses elsewhere: {message}") from None
        return Case(name, about, record, error=message, known_bug=known_bug)
    raise AssertionError(f"{name}: the engine accepts a record the reference refuses")


def differences(c: Case) -> list[str]:
    try:
        got = summary(load(c.record))
    except DominoError as error:
        if c.error is not None and c.error in str(error):
            return []
        return [f"refused: {error}"]
    if c.error is not None:
        return [f"accepted; expected an error containing {c.error!r}"]
    assert c.expect is not None
    return compare(c.expect, got)


# ----- fuzzing: the engine's legal moves against the reference's ----------------------------

FUZZ_OPTIONS: dict[str, list[Any]] = {
    "marker_removed_by": ["owner", "anyone", "owner_plays_anywhere"],
    "no_marker_when_satisfying": [False, True],
    "satisfy_doubles": [True, False],
    "satisfy_order": ["oldest_first", "newest_first"],
    "one_double_per_turn": [False, True],
    "first_turn_one_tile": [False, True],
    "forked_doubles": [False, True],
    "engine_from": ["table", "holder"],
}


def reference_round(game: Game) -> ref.Round:
    log = game.logs[-1]
    hand: dict[str, Any] = {
        "deal": [[str(t) for t in h] for h in log.deal],
        "boneyard": [str(t) for t in log.boneyard],
    }
    if log.engine is not None:
        hand["engine"] = str(log.engine)
    cfg = ref.config({"preset": "mexican_train", "options": game.rules.options()})
    return ref.start_round(cfg, len(game.logs) - 1, hand, game.players)[0]


def fuzz(games: int) -> int:
    """Random games under random options; print the first state per game where the
    engine's legal moves (or the round's end) differ from the reference's."""
    bad = 0
    for seed in range(games):
        rng = random.Random(seed)
        options = {k: rng.choice(v) for k, v in FUZZ_OPTIONS.items()}
        top = rng.choice([6, 9, 12])
        players = rng.randint(2, 4 if top == 6 else 6 if top == 9 else 8)
        options.update(set=top, rounds=2)
        if rng.random() < 0.5:
            options["hand_size"] = rng.randint(2, (top + 1) * (top + 2) // 2 // players - 1)
        game = new_game(players, **options)
        for r in range(2):
            game.start_hand(seed=seed * 10 + r)
            rnd = reference_round(game)
            problem = None
            while game.hand is not None and problem is None:
                mine = sorted(str(m) for m in game.legal_moves())
                theirs = sorted(rnd.legal())
                if mine != theirs:
                    problem = f"engine {mine} reference {theirs}"
                    break
                text = rng.choice(mine)
                game.apply(Move.parse(text))
                rnd.play(text)
            if problem is None and rnd.result != game.logs[-1].result.end:
                problem = f"engine ended {game.logs[-1].result.end}, reference {rnd.result}"
            if problem:
                bad += 1
                moves = [str(m) for m in game.logs[-1].state.moves[-6:]]
                print(f"seed {seed} round {r} {options}:\n  {problem}\n  after {moves}")
                break
    print(f"{games} games, {bad} with differences")
    return bad


# ======================================================================================
# The cases. Unless said otherwise: double-6 set, engine 6-6 set out on the table (round
# 0), seat 0 plays first; boneyard tiles not named follow in tile order.
# ======================================================================================

# One deal for the basics (2 players, 4 tiles each).
BASIC = ["6-5 5-5 6-2 2-0", "6-3 5-1 3-0 4-4"]
BASIC_MOVES = [
    "0: 6-5 on train:0",
    "0: end",
    "1: 6-3 on train:1",
    "1: end",
    "0: 5-5 on train:0",
    "0: 6-2 on mexican",
    "1: 5-1 on train:0",
    "0: 2-0 on mexican",
]


@builder
def basics() -> Iterable[Case]:
    rec = scripted(BASIC, BASIC_MOVES)
    yield case(
        "mexican_double_satisfied_on_private_train",
        "Seat 0 lays 5-5 on its own train, plays the extra tile 6-2 on the Mexican train and "
        "leaves 5-5 unsatisfied. Seat 1 must satisfy it on seat 0's unmarked train (5-1), "
        "which it could not touch otherwise. Seat 0 goes out with 2-0: penalty points are "
        "the pips left, [0, 3+0 + 4+4 = 11]; 7 rounds (double-6) make the session, so it "
        "goes on.",
        rec,
    )
    yield case(
        "mexican_positive_scoring_domino",
        "The same round with positive_scoring: the player who went out (seat 0) scores the "
        "pips left in the other hands, 11; everyone else 0.",
        with_options(rec, positive_scoring=True),
    )
    yield case(
        "mexican_single_round_game_over",
        "The same round with rounds = 1: the session is over after it and the lowest total "
        "wins: seat 0 with 0 against 11.",
        with_options(rec, rounds=1),
    )
    yield refused(
        "mexican_error_ignores_unsatisfied_double",
        "Seat 1 plays 3-0 on its own train while seat 0's 5-5 is unsatisfied: refused, the "
        "next tile must go on the double.",
        with_moves(rec, [*BASIC_MOVES[:6], "1: 3-0 on train:1"]),
    )
    yield refused(
        "mexican_error_unmarked_train_of_another",
        "After the first round seat 0 plays 6-2 on the Mexican train; seat 1 then tries 5-1 "
        "on seat 0's train, which has no marker and no unsatisfied double: refused.",
        with_moves(rec, [*BASIC_MOVES[:4], "0: 6-2 on mexican", "1: 5-1 on train:0"]),
    )
    yield refused(
        "mexican_error_second_tile_without_double",
        "A regular turn is one tile: after 6-2 on the Mexican train it is seat 1's turn, so "
        "seat 0's 2-0 is refused.",
        with_moves(rec, [*BASIC_MOVES[:4], "0: 6-2 on mexican", "0: 2-0 on mexican"]),
    )
    yield refused(
        "mexican_error_draw_while_able",
        "After the first round seat 0 holds 5-5 (own train ends in 5) and 6-2 (the Mexican "
        "train may be started): drawing is refused.",
        with_moves(rec, [*BASIC_MOVES[:4], "0: draw"]),
    )
    yield refused(
        "mexican_error_move_after_round_ended",
        "Seat 0 went out with 2-0 (its last tile): the round is over and one more move is refused.",
        with_moves(rec, [*BASIC_MOVES, "1: 3-0 on train:1"]),
    )
    bad = copy(rec)
    bad["hands"][0]["engine"] = "5-5"
    yield refused(
        "mexican_error_wrong_engine",
        "Round 0 of a double-6 session is played with engine 6-6, not 5-5.",
        bad,
    )
    bad = copy(rec)
    bad["hands"][0]["deal"][1][3] = "6-6"
    bad["hands"][0]["boneyard"] = [*bad["hands"][0]["boneyard"], "4-4"]
    yield refused(
        "mexican_error_engine_dealt_with_table",
        "With engine_from = table the engine 6-6 is set out before the deal; a deal giving "
        "6-6 to seat 1 (4-4 moved to the boneyard) is refused.",
        bad,
    )


# Two doubles left in one turn (2 players, 5 tiles each).
TWO = ["6-5 6-4 5-5 4-4 0-0", "6-3 3-2 5-1 4-1 2-0"]
TWO_START = [
    "0: 6-5 on train:0",
    "0: end",
    "1: 6-3 on train:1",
    "1: end",
    "0: 6-4 on mexican",
    "1: 3-2 on train:1",
    "0: 5-5 on train:0",
    "0: 4-4 on mexican",
    "0: pass",
]


@builder
def two_doubles() -> Iterable[Case]:
    moves = [
        *TWO_START,
        "1: 5-1 on train:0",
        "0: draw",
        "0: 4-0 on mexican",
        "1: 4-1 on train:0",
        "0: 0-0 on mexican",
    ]
    rec = scripted(TWO, moves, bone="4-0")
    yield case(
        "mexican_two_doubles_oldest_first",
        "Seat 0 lays 5-5 (own train) and 4-4 (Mexican train), cannot play a third tile and "
        "passes (marker on train 0; no draw for the extra tile). Seat 1 must satisfy the "
        "older 5-5 first (5-1). Seat 0 must then satisfy 4-4: it holds no 4, draws 4-0 and "
        "must play it there. Seat 1 plays 4-1 on train 0 (marked). Seat 0 goes out on the "
        "double 0-0: the round ends at once (no extra tile). Points: [0, 2-0 = 2].",
        rec,
    )
    yield case(
        "mexican_going_out_on_a_double",
        "Going out on a double: seat 0's last tile is 0-0, laid on the Mexican train (end "
        "0). A double normally obliges one more tile, but with no tiles left the round "
        "ends there (domino): points [0, 2].",
        rec,
    )
    yield refused(
        "mexican_error_newer_double_first",
        "oldest_first (default): with 5-5 and 4-4 unsatisfied, seat 1 may not satisfy the "
        "newer 4-4 first (4-1 on the Mexican train).",
        with_moves(rec, [*TWO_START, "1: 4-1 on mexican"]),
    )
    newest = scripted(
        TWO,
        [*TWO_START, "1: 4-1 on mexican", "0: draw", "0: pass", "1: 5-1 on train:0"],
        bone="4-0",
        satisfy_order="newest_first",
    )
    yield case(
        "mexican_two_doubles_newest_first",
        "satisfy_order = newest_first: the same deal; seat 1 must satisfy the newer 4-4 "
        "first (4-1 on the Mexican train). Seat 0 then owes 5-5: it draws 4-0, which does "
        "not fit 5, and passes. Seat 1 satisfies 5-5 with 5-1. In progress, seat 0 to move; "
        "pips [4-0 + 0-0 = 4, 2-0 = 2].",
        newest,
    )


# The duty passing two players on (4 players, 4 tiles each).
DUTY = ["6-5 5-5 6-2 3-1", "6-4 4-0 2-1 1-1", "6-3 3-2 4-2 2-2", "6-1 5-0 4-3 3-0"]
DUTY_START = [
    "0: 6-5 on train:0",
    "0: end",
    "1: 6-4 on train:1",
    "1: end",
    "2: 6-3 on train:2",
    "2: end",
    "3: 6-1 on train:3",
    "3: end",
    "0: 5-5 on train:0",
    "0: 6-2 on mexican",
    "1: draw",
    "1: pass",
    "2: draw",
    "2: pass",
    "3: 5-0 on train:0",
]


@builder
def duty_passing() -> Iterable[Case]:
    rec = scripted(DUTY, [*DUTY_START, "0: 3-1 on train:2"], bone="0-0 4-4 4-1")
    yield case(
        "mexican_duty_passes_two_players_on",
        "Seat 0 leaves 5-5 unsatisfied (extra tile 6-2 on the Mexican train). Seat 1 holds "
        "no 5: draws 0-0, no fit, passes and marks train 1; seat 2 the same with 4-4; seat "
        "3 satisfies with 5-0. Seat 0 then goes out with 3-1 on train 2, which only its "
        "marker opens. Points: [0, 4+3+2+0 = 9, 5+6+4+8 = 23, 7+3 = 10].",
        rec,
    )
    yield refused(
        "mexican_error_no_marker_when_satisfying",
        "The same record with no_marker_when_satisfying: seats 1 and 2 passed in turns "
        "where they had to satisfy 5-5, so their trains get no marker, and seat 0's 3-1 on "
        "train 2 is refused.",
        with_options(rec, no_marker_when_satisfying=True),
    )
    nomark = scripted(
        DUTY,
        [*DUTY_START, "0: draw", "0: pass"],
        bone="0-0 4-4 4-1",
        no_marker_when_satisfying=True,
    )
    yield case(
        "mexican_no_marker_when_satisfying",
        "no_marker_when_satisfying: the passes of seats 1 and 2 (duty turns) leave their "
        "trains unmarked, so seat 0's 3-1 fits nowhere it may play (own train 0, Mexican "
        "2): it draws 4-1, which fits neither, and passes (a normal turn: marker). In "
        "progress, seat 1 to move; pips [4+5 = 9, 9, 23, 10].",
        nomark,
    )


# Markers (3 players, 4 tiles each).
MARK = ["6-5 6-4 5-4 3-0", "5-3 3-3 2-1 1-1", "6-3 4-2 2-2 5-0"]
MARK_START = [
    "0: 6-5 on train:0",
    "0: end",
    "1: pass",
    "2: 6-3 on train:2",
    "2: end",
    "0: 6-4 on train:1",
    "1: draw",
    "1: 6-1 on mexican",
]


@builder
def markers() -> Iterable[Case]:
    rec = scripted(MARK, [*MARK_START, "2: 4-2 on train:1"], bone="6-1 0-0")
    yield case(
        "mexican_marker_removed_only_by_owner",
        "Seat 1 holds no 6 and cannot start its train on the first turn: it passes (no "
        "draw) and train 1 gets a marker. Seat 0 starts train 1 with 6-4: the marker stays "
        "(only the owner removes it). Seat 1 cannot play, draws 6-1 and must play it: it "
        "starts the Mexican train (not its own train, so the marker stays). Seat 2 plays "
        "4-2 on the still-marked train 1. In progress, seat 0 to move; pips [9+3 = 12, "
        "8+6+3+2 = 19, 4+5 = 9].",
        rec,
    )
    yield case(
        "mexican_first_turn_pass_and_mexican_train_later",
        "A first turn that cannot start: seat 1 has no 6, so it passes without drawing and "
        "gets a marker; after the first round seat 0 starts train 1 with 6-4 (allowed by "
        "the marker). The Mexican train, refused on first turns, is started by seat 1 with "
        "the drawn 6-1 (its only legal move after the draw). In progress, seat 2 to move; "
        "pips [12, 19, 6+4+5 = 15].",
        with_moves(rec, MARK_START),
    )
    yield refused(
        "mexican_error_mexican_train_on_first_turn",
        "On the first turn seat 0 may only build its own train: 6-5 on the Mexican train is "
        "refused.",
        with_moves(rec, ["0: 6-5 on mexican"]),
    )
    yield refused(
        "mexican_error_first_turn_draw",
        "A player who cannot start their train on the first turn passes; they do not draw.",
        with_moves(rec, [*MARK_START[:2], "1: draw"]),
    )
    yield refused(
        "mexican_error_marker_anyone",
        "marker_removed_by = anyone: seat 0's 6-4 on train 1 removed its marker, so seat "
        "2's 4-2 on train 1 is refused.",
        with_options(rec, marker_removed_by="anyone"),
    )
    yield refused(
        "mexican_error_marker_owner_plays_anywhere",
        "marker_removed_by = owner_plays_anywhere: seat 1 played 6-1 on the Mexican train, "
        "which removes its own marker, so seat 2's 4-2 on train 1 is refused.",
        with_options(rec, marker_removed_by="owner_plays_anywhere"),
    )
    for rule, why in (
        ("anyone", "seat 0's play on train 1 removed the marker"),
        ("owner_plays_anywhere", "seat 1's play on the Mexican train removed its marker"),
    ):
        yield case(
            f"mexican_marker_{rule}",
            f"marker_removed_by = {rule}: {why}, so seat 2 (own train ends 3, Mexican 1) "
            "has nothing it may play: it draws 0-0, no fit, and passes. In progress, seat 0 "
            "to move; pips [12, 19, 6+4+5+0 = 15].",
            scripted(
                MARK,
                [*MARK_START, "2: draw", "2: pass"],
                bone="6-1 0-0",
                marker_removed_by=rule,
            ),
        )


@builder
def first_round() -> Iterable[Case]:
    hands = ["6-5 5-4 4-3", "6-2 2-1 3-3", "5-5 4-4 1-0"]
    moves = [
        "0: 6-5 on train:0",
        "0: 5-4 on train:0",
        "0: 4-3 on train:0",
        "1: 6-2 on train:1",
        "1: 2-1 on train:1",
        "1: end",
        "2: pass",
    ]
    rec = scripted(hands, moves)
    yield case(
        "mexican_out_on_first_turn",
        "Seat 0 lays its whole hand as one chain on the first turn (no end needed). The "
        "round goes on until seats 1 and 2 had their first turn (seat 2 has no 6: pass), "
        "then ends (domino). Points: [0, 3+3 = 6, 10+8+1 = 19].",
        rec,
    )
    yield case(
        "mexican_out_on_first_turn_positive",
        "The same with positive_scoring: seat 0 went out and scores 6 + 19 = 25.",
        with_options(rec, positive_scoring=True),
    )
    yield refused(
        "mexican_error_first_round_over_move",
        "The round ended after seat 2's first turn (seat 0 had gone out): a further move "
        "is refused.",
        with_moves(rec, [*moves, "0: draw"]),
    )
    hands = ["6-5 5-5 5-2 3-1", "6-3 3-3 3-0 2-2", "6-4 4-1 1-0 0-0"]
    start = [
        "0: 6-5 on train:0",
        "0: 5-5 on train:0",
        "0: end",
        "1: 6-3 on train:1",
        "1: 3-3 on train:1",
        "1: end",
        "2: 6-4 on train:2",
        "2: end",
    ]
    yield case(
        "mexican_first_turn_doubles_in_order",
        "First-turn chains of seats 0 and 1 end in 5-5 and 3-3 (no extra tile during the "
        "first round). Once the first round is over they must be satisfied in the order "
        "laid: seat 0 holds 5-2 and 3-1 but must play 5-2 on 5-5 first; seat 1 then "
        "satisfies 3-3 with 3-0; seat 2 plays freely. In progress; pips [4, 4, 1+0 = 1].",
        scripted(hands, [*start, "0: 5-2 on train:0", "1: 3-0 on train:1", "2: 4-1 on train:2"]),
    )
    yield refused(
        "mexican_error_first_turn_doubles_order",
        "The same deal: seat 0 may not satisfy seat 1's 3-3 (3-1 on train 1) before its "
        "own older 5-5.",
        with_moves(scripted(hands, start), [*start, "0: 3-1 on train:1"]),
    )
    yield case(
        "mexican_first_turn_doubles_newest_first",
        "satisfy_order = newest_first: seat 0 must satisfy seat 1's 3-3 first, on seat 1's "
        "private train (3-1). Seat 1 owes 5-5: no 5, draws 1-1, passes (marker). Seat 2 "
        "owes 5-5: draws 5-4 and must play it there. In progress; pips [7, 3+4+2 = 9, "
        "5+1+0 = 6].",
        scripted(
            hands,
            [*start, "0: 3-1 on train:1", "1: draw", "1: pass", "2: draw", "2: 5-4 on train:0"],
            bone="1-1 5-4",
            satisfy_order="newest_first",
        ),
    )


@builder
def variants() -> Iterable[Case]:
    hands = ["6-5 6-2 5-5 2-2 5-0 1-0", "6-3 3-1 2-1 4-4 4-3 3-2"]
    start = [
        "0: 6-5 on train:0",
        "0: end",
        "1: 6-3 on train:1",
        "1: end",
        "0: 6-2 on mexican",
        "1: 3-1 on train:1",
        "0: 5-5 on train:0",
    ]
    rec = scripted(hands, [*start, "0: 2-2 on mexican", "0: 5-0 on train:0", "1: 2-1 on mexican"])
    yield case(
        "mexican_double_after_double",
        "Default rules: seat 0 lays 5-5, then 2-2 as its extra tile (another double), then "
        "5-0 on 5-5; 2-2 stays unsatisfied and seat 1 satisfies it with 2-1. In progress, "
        "seat 0 to move; pips [1-0 = 1, 8+7+5 = 20].",
        rec,
    )
    yield refused(
        "mexican_error_one_double_per_turn",
        "one_double_per_turn: after 5-5 the extra tile may not be a double: 2-2 is refused.",
        with_options(rec, one_double_per_turn=True),
    )
    yield case(
        "mexican_one_double_per_turn",
        "one_double_per_turn: after 5-5 seat 0 plays a non-double (5-0 on it); seat 1 has "
        "no duty and plays 2-1 on its own train. In progress; pips [4+1 = 5, 8+7+5 = 20].",
        scripted(
            hands,
            [*start, "0: 5-0 on train:0", "1: 2-1 on train:1"],
            one_double_per_turn=True,
        ),
    )
    hands = ["6-5 5-4 3-3", "5-2 4-1 1-1"]
    moves = ["0: 6-5 on train:0", "1: draw", "1: 6-1 on train:1", "0: 5-4 on train:0"]
    rec = scripted(hands, moves, bone="6-1", first_turn_one_tile=True)
    yield case(
        "mexican_first_turn_one_tile",
        "first_turn_one_tile: every turn is one tile from the start. Seat 0 plays 6-5 and "
        "its turn is over (no end); seat 1 has no 6, so it draws (no first-round pass) and "
        "plays the drawn 6-1 at once, on its own train (its first turn: not on the Mexican "
        "train). In progress; pips [6, 7+5+2 = 14].",
        rec,
    )
    yield refused(
        "mexican_error_first_turn_one_tile_mexican",
        "first_turn_one_tile: during its first turn seat 1 may not start the Mexican train "
        "with the drawn 6-1 (RULES.md: nobody starts the Mexican train during their first "
        "turn; its own train has not left the station either).",
        with_moves(rec, ["0: 6-5 on train:0", "1: draw", "1: 6-1 on mexican"]),
    )
    yield refused(
        "mexican_error_first_turn_one_tile_chain",
        "first_turn_one_tile: seat 0 may not lay a second tile on its first turn.",
        with_moves(rec, ["0: 6-5 on train:0", "0: 5-4 on train:0"]),
    )


@builder
def forked() -> Iterable[Case]:
    hands = ["6-5 5-5 5-4 4-1 2-0 6-0", "6-3 5-2 3-1 4-4 0-0 3-2"]
    start = ["0: 6-5 on train:0", "0: end", "1: 6-3 on train:1", "1: end", "0: 5-5 on train:0"]
    moves = [*start, "0: 5-4 on train:0", "1: 5-2 on train:0", "0: 4-1 on train:0"]
    moves += ["1: 3-1 on train:1", "0: 2-0 on train:0"]
    rec = scripted(hands, moves, forked_doubles=True)
    yield case(
        "mexican_forked_doubles",
        "forked_doubles: seat 0's 5-5 opens two sides; the extra tile 5-4 goes on one, and "
        "seat 1 must cover the other (5-2, on seat 0's private train). Train 0 then shows "
        "4 and 2: seat 0 plays 4-1 on one branch and later 2-0 on the other. In progress, "
        "seat 1 to move; pips [6-0 = 6, 8+0+5 = 13].",
        rec,
    )
    yield refused(
        "mexican_error_forked_extra_elsewhere",
        "forked_doubles: the extra tile must go on the double just laid; 6-0 starting the "
        "Mexican train (allowed by default rules) is refused.",
        with_moves(rec, [*start, "0: 6-0 on mexican"]),
    )


# ----- found by random play ----------------------------------------------------------------


def lockstep(
    players: int,
    want: Callable[[Game, ref.Round], bool],
    seeds: Iterable[int],
    **options: Any,
) -> Game:
    """The first seed whose first round, played with random legal moves by the engine and
    the reference side by side, reaches a state where ``want`` holds (checked after every
    move and at the end); the game is returned as it stands then."""
    for seed in seeds:
        rng = random.Random(seed)
        game = new_game(players, **options)
        game.start_hand(seed=seed)
        rnd = reference_round(game)
        while True:
            if want(game, rnd):
                return game
            if game.hand is None or rnd.result != "in_progress":
                break
            text = rng.choice(sorted(str(m) for m in game.legal_moves()))
            game.apply(Move.parse(text))
            rnd.play(text)
    raise RuntimeError("lockstep: nothing found")


def finished(result: str, pred: Callable[[list[int]], bool] = lambda p: True) -> Any:
    def want(game: Game, rnd: ref.Round) -> bool:
        log = game.logs[-1]
        return (
            log.result is not None
            and log.result.end == result
            and rnd.result == result
            and pred(list(log.result.pips))
        )

    return want


def tied_low(pips: list[int]) -> bool:
    low = min(pips)
    others = sum(p for p in pips if p != low)
    return pips.count(low) == 2 and others % 2 == 1


@builder
def blocked() -> Iterable[Case]:
    g = lockstep(
        3, finished("blocked", lambda p: len(set(p)) == 3), range(10_000), set=6, hand_size=9
    )
    rec = record_of(g)
    pips = g.logs[-1].result.pips
    yield case(
        "mexican_blocked_penalty",
        f"Double-6, 3 players with 9 tiles each: the boneyard holds none, and the round "
        f"ends blocked when nobody holds a tile for any open end (or the first due double). "
        f"Penalty scoring: each seat writes its pips left, {list(pips)}.",
        rec,
    )
    low = min(pips)
    yield case(
        "mexican_blocked_positive",
        f"The same blocked round with positive_scoring: the seat with fewest pips "
        f"({list(pips).index(low)}, {low}) scores the pips of the others, "
        f"{sum(pips) - low}; the rest 0.",
        with_options(rec, positive_scoring=True),
    )
    g = lockstep(3, finished("blocked", tied_low), range(10_000), set=6, hand_size=9)
    pips = list(g.logs[-1].result.pips)
    low = min(pips)
    others = sum(p for p in pips if p != low)
    yield case(
        "mexican_blocked_tie_positive_shared",
        f"Blocked with pips {pips}: two seats tie for fewest ({low}). With positive_scoring "
        f"they share the other hand's {others} pips: {others} // 2 = {others // 2} each "
        f"(rounded down), the third seat 0.",
        with_options(record_of(g), positive_scoring=True),
    )


@builder
def holder() -> Iterable[Case]:
    hands = ["5-5 5-4 1-0 1-1", "6-6 6-4 4-2 3-3", "6-3 3-1 2-2 0-0"]
    moves = ["1: 6-6", "1: 6-4 on train:1", "1: 4-2 on train:1", "1: end"]
    moves += ["2: 6-3 on train:2", "2: end", "0: pass", "1: draw", "1: 6-5 on mexican"]
    rec = scripted(hands, moves, engine_from="holder", bone="6-5")
    yield case(
        "mexican_engine_from_holder",
        "engine_from = holder: seat 1 holds the round's engine 6-6 and plays it as its own "
        "move, then takes the first turn (6-4, 4-2, end); first turns go on in seat order "
        "from it: seat 2, then seat 0 (no 6: pass, marker). Seat 1 then has no tile for "
        "its own 2 or the 6 of the Mexican train and of marked train 0: it draws 6-5 and "
        "plays it on the Mexican train. In progress, seat 2 to move; pips [10+9+1+2 = 22, "
        "3+3 = 6, 4+4+0 = 8].",
        rec,
    )
    hands = ["5-5 5-4 1-0 1-1", "4-4 6-4 4-2 3-3", "6-3 3-1 2-2 0-0"]
    moves = ["0: 5-5", "0: 5-4 on train:0", "0: end", "1: pass", "2: pass"]
    yield case(
        "mexican_engine_from_holder_highest_double",
        "engine_from = holder and nobody holds 6-6: the holder of the highest double dealt "
        "(seat 0, 5-5) opens with it, and 5-5 is this round's engine (RULES.md, Engine). "
        "Seat 0 starts its train with 5-4; seats 1 and 2 hold no 5: pass. In progress, "
        "seat 0 to move; pips [1+2 = 3, 8+10+6+6 = 30, 9+4+4+0 = 17].",
        scripted(hands, moves, engine_from="holder"),
    )
    hands = ["5-4 5-1 1-0 6-1", "6-4 4-2 3-1 2-0", "6-3 3-2 5-0 4-1"]
    moves = ["0: draw", "1: draw", "1: 3-3", "1: 3-1 on train:1", "1: end"]
    moves += ["2: 6-3 on train:2", "2: end", "0: pass"]
    yield case(
        "mexican_engine_from_holder_drawn",
        "engine_from = holder and nobody was dealt any double: seats draw in turn from seat "
        "0 (round 0) until one draws a double, which is the engine (RULES.md, Engine; seed "
        '002: "Sigan sacando fichas por turnos hasta que salga un doble"). Seat 0 draws '
        "2-1 (not a double: its turn passes), seat 1 draws 3-3, plays it as the engine and "
        "takes the first turn (3-1, end); seat 2 starts its train from the 3 with 6-3; "
        "seat 0 has no 3: pass (no draw on a first turn). In progress, seat 1 to move.",
        scripted(hands, moves, engine_from="holder", bone="2-1 3-3"),
    )
    yield refused(
        "mexican_error_holder_engine_field",
        "engine_from = holder: the engine is found in a hand, so a record giving the "
        '"engine" field is refused.',
        rec | {"hands": [rec["hands"][0] | {"engine": "6-6"}]},
    )


@builder
def own_train_first() -> Iterable[Case]:
    hands = ["6-5 1-1 3-0", "5-4 4-2 2-0", "6-3 3-2 1-0"]
    start = ["0: 6-5 on train:0", "0: end", "1: pass", "2: 6-3 on train:2", "2: end"]
    start += ["0: draw", "0: pass"]
    moves = [*start, "1: draw", "1: pass", "2: 3-2 on train:2"]
    rec = scripted(hands, moves, bone="4-1 2-1")
    yield case(
        "mexican_own_train_first",
        'Own train first (RULES.md; seed 002: "Solo hasta que tu tren haya salido de la '
        'estación central ..."): seat 1 could not start its train on its first turn '
        "(pass, marker). Later seat 0 draws 4-1, cannot play, passes: train 0 is marked "
        "with 5 open. Seat 1 holds 5-4 but its own train has not left the station, so it "
        "may only start it (a 6): it draws 2-1 and passes. Seat 2 plays 3-2. In progress.",
        rec,
    )
    yield refused(
        "mexican_error_own_train_not_started",
        "The same deal: seat 1, whose train is still empty, may not play 5-4 on seat 0's "
        "marked train.",
        with_moves(rec, [*start, "1: 5-4 on train:0"]),
    )


def stuck_at_station(game: Game, rnd: ref.Round) -> bool:
    """Blocked, with a seat whose train never left holding a tile for another open end."""
    if not finished("blocked")(game, rnd):
        return False
    numbers = {e.number for train in rnd.trains for e in train.ends}
    return any(
        not rnd.trains[s].tiles and any(set(x) & numbers for x in h)
        for s, h in enumerate(rnd.hands)
    )


@builder
def own_train_blocked() -> Iterable[Case]:
    g = lockstep(3, stuck_at_station, range(20_000), set=6, hand_size=9)
    rnd = reference_round(g)
    for move in g.logs[-1].state.moves:
        rnd.play(str(move))
    seat = next(s for s in range(3) if not rnd.trains[s].tiles)
    yield case(
        "mexican_blocked_own_train_not_started",
        f"Double-6, 3 players with 9 tiles each, no boneyard, random legal play: seat {seat} "
        f"never started its train and holds tiles that fit other open ends, but may only "
        f"start its own train (RULES.md, own train first): nobody can play, so the round "
        f"ends blocked with pips {list(g.logs[-1].result.pips)}.",
        record_of(g),
    )


@builder
def went_out_wins() -> Iterable[Case]:
    hands = ["6-5 0-0", "6-2 2-1", "6-3 3-1"]
    moves = ["0: 6-5 on train:0", "0: end", "1: 6-2 on train:1", "1: 2-1 on train:1"]
    moves += ["2: 6-3 on train:2", "2: end"]
    yield case(
        "mexican_went_out_not_zero_zero_positive",
        "positive_scoring: seat 1 goes out on its first turn; seat 0 keeps a lone 0-0 (0 "
        "pips) and seat 2, the last to lay a tile, keeps 3-1. The round's winner is seat 1, "
        "who went out (RULES.md, Round end), not the lowest seat with 0 pips: seat 1 scores "
        "0 + 4 = 4, seat 0 nothing. Pips [0, 0, 4], points [0, 4, 0].",
        scripted(hands, moves, positive_scoring=True),
    )
    hands = ["6-5 5-4", "6-2 2-1", "6-3 3-1"]
    moves = ["0: 6-5 on train:0", "0: 5-4 on train:0", "1: 6-2 on train:1", "1: 2-1 on train:1"]
    moves += ["2: 6-3 on train:2", "2: end"]
    yield case(
        "mexican_two_out_on_first_turn_positive",
        "positive_scoring: seats 0 and 1 both lay their whole hand on their first turn; "
        "the round ends after seat 2's first turn (it keeps 3-1). Both went out, so both "
        "win the round and share seat 2's 4 pips: points [2, 2, 0].",
        scripted(hands, moves, positive_scoring=True),
    )


@builder
def sessions() -> Iterable[Case]:
    for seed in range(1000):
        game = new_game(2, hand_size=3)
        rng = random.Random(seed)
        while not game.over:
            game.start_hand(seed=seed * 100 + len(game.logs))
            play_random(game, rng)
        if len(game.logs) == 13:
            break
    totals = game.scores
    rows = [list(log.result.points) for log in game.logs]
    yield case(
        "mexican_session_13_rounds",
        f"A whole double-12 session of 13 rounds (engines 12-12 down to 0-0), 2 players "
        f"with hand_size 3, played with random legal moves. Each round writes the pips "
        f"left ({rows}); the totals are {totals} and the lowest, seat "
        f"{totals.index(min(totals))}, wins.",
        record_of(game),
    )
    for seed in range(1000):
        game = new_game(3, hand_size=4, rounds=2)
        rng = random.Random(seed)
        while not game.over:
            game.start_hand(seed=seed * 100 + len(game.logs))
            play_random(game, rng)
        if len(game.logs) == 2:
            break
    rows = [list(log.result.points) for log in game.logs]
    yield case(
        "mexican_rounds_2",
        f"rounds = 2: the session ends after rounds with engines 12-12 and 11-11 (seat 1 "
        f"plays first in the second). Points {rows[0]} and {rows[1]} give {game.scores}; "
        f"the lowest total wins.",
        record_of(game),
    )
    for seed in range(20_000):
        game = new_game(2, set=6, hand_size=2, rounds=1)
        rng = random.Random(seed)
        while not game.over and len(game.logs) < 5:
            game.start_hand(seed=seed * 100 + len(game.logs))
            play_random(game, rng)
        first = game.logs[0].result
        if game.over and len(game.logs) == 2 and first.end == "blocked":
            break
    rows = [list(log.result.points) for log in game.logs]
    yield case(
        "mexican_tie_one_more_round",
        f"rounds = 1 on a double-6 set: round 0 ends blocked with points {rows[0]}, a tie for the "
        f"lead, so one more round is played with the next engine (5-5): points {rows[1]}, "
        f"totals {game.scores}, the lowest wins.",
        record_of(game),
    )


@builder
def blocked_after_double() -> Iterable[Case]:
    def stuck(game: Game, rnd: ref.Round) -> bool:
        if rnd.result != "blocked" or game.hand is not None:
            return False
        last = game.logs[-1].state.moves[-1]
        return last.is_play and last.tile is not None and last.tile.is_double

    g = lockstep(2, stuck, range(20_000), set=6, hand_size=13)
    rec = record_of(g)
    last = moves_of(rec)[-1]
    yield case(
        "mexican_blocked_after_double",
        f"The boneyard is empty and seat {last[0]} has just laid a double ({last}); nobody "
        f"holds a tile for any open end, so no tile can ever be played: the round is "
        f"blocked at once (RECORD.md: a hand ends the moment its end is certain; no pass "
        f"is written after it). Penalty points = pips left, "
        f"{list(ref.summary(rec)['hands'][0]['pips'])}.",
        rec,
    )
    hands = ["6-5 5-5 5-4 2-2 1-1", "6-3 5-2 4-2 3-1 0-0"]
    moves = ["0: 6-5 on train:0", "0: end", "1: 6-3 on train:1", "1: end"]
    moves += ["0: 5-5 on train:0", "0: 5-4 on train:0", "1: 5-2 on train:0"]
    moves += ["0: 2-2 on train:0", "0: pass", "1: 4-2 on train:0", "0: draw"]
    rec = scripted(hands, moves, bone="2-0", forked_doubles=True)
    rec = with_moves(rec, [*moves, "0: 2-0 on train:0", "1: 3-1 on train:1"])
    yield case(
        "mexican_forked_duty_tile_on_the_double",
        "forked_doubles: train 0 shows 4 (branch after 5-4) and 2 (after 5-2). Seat 0 lays "
        "2-2 on the 2 branch (two sides of 2), cannot cover it and passes. Seat 1 must "
        "satisfy 2-2 and plays 4-2 on train 0: the tile goes on the due double (it fits the "
        "4 branch too, but a tile that satisfies a double goes on that double). Seat 0 "
        "draws 2-0 and satisfies the other side; no double is then due and seat 1 plays "
        "3-1 on its own train. In progress, seat 0 to move; pips [1-1 = 2, 0-0 = 0].",
        rec,
    )
    hands = ["6-5 5-5 6-2 1-1", "6-3 3-1 4-4 0-0"]
    moves = ["0: 6-5 on train:0", "0: 5-5 on train:0", "0: end", "1: 6-3 on train:1"]
    moves += ["1: end"]
    rec = scripted(hands, moves, forked_doubles=True, satisfy_doubles=False)
    yield case(
        "mexican_forked_no_satisfy_first_turn_double",
        "forked_doubles with satisfy_doubles off: only the free side of a forked double is "
        "a duty. Seat 0's first-turn chain ends in 5-5, laid during the first round (not "
        "forked), so nothing is due afterwards: seat 0 starts the Mexican train with 6-2 "
        "and seat 1 plays 3-1 on its own train. In progress; pips [2, 8+0 = 8].",
        with_moves(rec, [*moves, "0: 6-2 on mexican", "1: 3-1 on train:1"]),
    )


# CASES-END


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    parser.add_argument("--fuzz", type=int, default=0, help="random games to compare")
    parser.add_argument("only", nargs="*", help="builder names to run (default: all)")
    args = parser.parse_args(argv)
    if args.fuzz:
        return 1 if fuzz(args.fuzz) else 0
    return run_cases(
        BUILDERS, differences, args.check, args.only, lambda p: p.name.startswith("mexican_")
    )


if __name__ == "__main__":
    sys.exit(main())
