"""The opening draw (issue 31, item 4; seed 001: "cada jugador toma una ficha. El jugador
con el número más alto en una sola ficha comenzará el juego"): the tiles each seat drew
for the first opener are kept with the hand, carried by every view (they are public),
written in the record as the hand's ``opening_draw`` (docs/records.md), and checked on
replay against the hand's opener."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.deal import Shuffler
from engine.errors import RecordError
from engine.game import Game
from engine.record import checkpoint, export, export_since, load, resume
from engine.rules import Rules
from engine.tiles import RANK, Tile, set_tiles
from engine.views import view_of

NAMES = ["Ana", "Beto", "Caro", "Dani"]
DEAL = [
    ["6-1", "3-2", "5-4", "4-3", "3-0", "6-0", "4-4"],
    ["6-4", "5-0", "5-2", "5-1", "0-0", "5-5", "3-3"],
    ["6-2", "2-0", "6-6", "4-0", "6-5", "6-3", "4-2"],
    ["1-1", "3-1", "4-1", "2-2", "1-0", "2-1", "5-3"],
]


def tournament(seed: int = 11) -> Game:
    game = Game(Rules.from_preset("tournament_pr"), 4)
    game.start_hand(seed=seed)
    return game


def record(**hand: Any) -> dict[str, Any]:
    """A tournament record of one hand, dealt as ``DEAL``, no move made."""
    return {
        "format": "domino-record/1",
        "rules": {"preset": "tournament_pr", "options": {}},
        "players": NAMES,
        "hands": [{"deal": DEAL, "boneyard": [], **hand}],
    }


def tiles(*texts: str) -> tuple[Tile, ...]:
    return tuple(map(Tile.parse, texts))


def test_the_draw_is_the_seeds_first_tiles_and_names_the_opener() -> None:
    for seed in range(40):
        game = tournament(seed)
        drawn = view_of(game).opening_draw
        assert drawn == tuple(Shuffler(seed).shuffled(set_tiles(6))[:4])
        assert len(set(drawn)) == 4
        best = max(range(4), key=lambda seat: RANK[drawn[seat]])
        assert game.to_move == best == view_of(game).opener


def test_every_seat_sees_the_draw_it_is_public() -> None:
    game = tournament()
    room = view_of(game).opening_draw
    assert room and all(view_of(game, seat).opening_draw == room for seat in range(4))


def test_the_draw_stays_with_its_hand_and_only_a_drawn_hand_has_one() -> None:
    game = tournament(3)
    drawn = view_of(game).opening_draw
    while game.hand is not None:
        game.apply(game.legal_moves()[0])
    assert view_of(game).opening_draw == drawn  # the hand just played
    game.start_hand(seed=4)  # a later hand: opened by who played last (last_player)
    assert view_of(game).opening_draw == ()
    partnership = Game(Rules.from_preset("partnership"), 4)
    partnership.start_hand(seed=3)  # the 6-6 opens: nothing is drawn
    assert view_of(partnership).opening_draw == ()


def test_export_writes_the_draw_of_the_first_hand_only() -> None:
    game = tournament(5)
    drawn = [str(t) for t in view_of(game).opening_draw]
    while game.hand is not None:
        game.apply(game.legal_moves()[0])
    game.start_hand(seed=6)
    hands = export(game, NAMES)["hands"]
    assert hands[0]["opening_draw"] == drawn
    assert hands[0]["opener"] == game.logs[0].opener
    assert "opening_draw" not in hands[1]


def test_a_record_round_trips_its_draw() -> None:
    game = tournament(8)
    for _ in range(5):
        game.apply(game.legal_moves()[0])
    data = export(game, NAMES)
    again = load(data)
    assert view_of(again).opening_draw == view_of(game).opening_draw
    assert export(again, NAMES) == data


def test_a_resumed_game_keeps_the_draw_of_its_hand_in_play() -> None:
    """The bot saves a game as a checkpoint and the hands since (docs/storage.md)."""
    game = tournament(9)
    game.apply(game.legal_moves()[0])
    again = resume(export_since(game, 0, NAMES), checkpoint(game, 0))
    assert view_of(again).opening_draw == view_of(game).opening_draw


def test_an_old_record_without_the_draw_still_loads() -> None:
    game = load(record(opener=2))
    assert game.to_move == 2 and view_of(game).opening_draw == ()
    assert "opening_draw" not in export(game, NAMES)["hands"][0]


def test_the_draw_of_a_record_names_the_opener() -> None:
    # 6-2 and 5-3 have as many pips: the higher number wins (seed 001: "el 6/2 es más
    # alto que el 5/3")
    game = load(record(opening_draw=["5-3", "6-2", "4-1", "0-0"]))
    assert game.to_move == 1
    assert view_of(game).opening_draw == tiles("5-3", "6-2", "4-1", "0-0")
    named = load(record(opening_draw=["5-3", "6-2", "4-1", "0-0"], opener=1))
    assert named.to_move == 1
    assert export(named, NAMES)["hands"][0]["opening_draw"] == ["5-3", "6-2", "4-1", "0-0"]


def test_a_record_whose_opener_is_not_the_one_its_draw_names_is_refused() -> None:
    with pytest.raises(RecordError, match=r"hand 0: .*draw.*seat 1.*not seat 3"):
        load(record(opening_draw=["5-3", "6-2", "4-1", "0-0"], opener=3))


def test_a_record_whose_first_move_is_not_the_drawn_openers_is_refused() -> None:
    data = record(opening_draw=["5-3", "6-2", "4-1", "0-0"], moves=["0: 5-4"])
    with pytest.raises(RecordError, match="hand 0, move 0"):
        load(data)


def test_an_exported_record_edited_to_another_opener_is_refused() -> None:
    game = tournament(12)
    data = export(game, NAMES)
    edited = copy.deepcopy(data)
    edited["hands"][0]["opener"] = (game.logs[0].opener + 1) % 4
    with pytest.raises(RecordError, match="draw"):
        load(edited)


@pytest.mark.parametrize(
    ("drawn", "why"),
    [
        (["6-4", "5-5", "2-1"], "4 seats"),
        (["6-4", "5-5", "2-1", "6-4"], "6-4"),
        (["6-4", "5-5", "2-1", "7-0"], "7-0"),
        ("6-4 5-5 2-1 3-0", "list"),
        (["6-4", "5-5", "2-1", "nine"], "nine"),
    ],
)
def test_a_malformed_draw_is_refused(drawn: Any, why: str) -> None:
    with pytest.raises(RecordError, match=why):
        load(record(opening_draw=drawn))


def test_a_draw_on_a_hand_whose_opener_is_not_drawn_is_refused() -> None:
    data = record(opening_draw=["6-4", "5-5", "2-1", "3-0"])
    data["rules"] = {"preset": "partnership", "options": {}}
    with pytest.raises(RecordError, match="not drawn"):
        load(data)


def test_a_seeded_hand_must_give_the_seeds_own_draw() -> None:
    seed = 21
    own = [str(t) for t in Shuffler(seed).shuffled(set_tiles(6))[:4]]
    data = record()
    del data["hands"][0]["deal"]
    data["hands"][0].update(seed=seed, opening_draw=own)
    assert view_of(load(data)).opening_draw == tiles(*own)
    data["hands"][0]["opening_draw"] = [own[1], own[0], own[2], own[3]]
    with pytest.raises(RecordError, match="seed"):
        load(data)
