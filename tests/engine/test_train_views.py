"""What a seat and the room see of a Mexican Train round."""

from __future__ import annotations

from engine.game import Game
from engine.moves import MEXICAN, Move
from engine.rules import Rules
from engine.tiles import Tile, set_tiles
from engine.views import view_of

HANDS = [["6-5", "5-5", "5-4", "1-1"], ["4-3", "3-1", "4-2", "0-0"]]  # seat 1 holds no 6


def scripted() -> Game:
    game = Game(Rules.from_preset("mexican_train", set=6, hand_size=4), 2)
    used = {Tile.parse(t) for hand in HANDS for t in hand} | {Tile.parse("6-6")}
    game.start_hand(
        deal=[[Tile.parse(t) for t in hand] for hand in HANDS],
        boneyard=[t for t in set_tiles(6) if t not in used],
        engine=Tile.parse("6-6"),
    )
    return game


def test_a_seat_sees_its_tiles_the_trains_markers_and_due_doubles() -> None:
    game = scripted()
    for text in ["0: 6-5 on train:0", "0: 5-5 on train:0", "0: end", "1: pass"]:
        game.apply(Move.parse(text))
    mine = view_of(game, 0)
    assert [str(t) for t in mine.hand] == ["1-1", "5-4"]
    assert mine.tile_counts == (2, 4)
    assert str(mine.engine) == "6-6" and not mine.first_round
    own, theirs, mexican = mine.trains
    assert [str(t) for t in own.tiles] == ["6-5", "5-5"] and own.ends == (5,)
    assert theirs.tiles == () and theirs.marked  # seat 1 could not start: marker
    assert mexican.owner is None and mexican.marked
    assert [(train, str(d)) for train, d in mine.unsatisfied] == [(0, "5-5")]
    assert [str(m) for m in mine.legal_moves] == ["0: 5-4 on train:0"]
    room = view_of(game)
    assert room.hand == () and room.legal_moves == () and room.boneyard == 28 - 8 - 1
    in_hands = {str(t) for seat in range(2) for t in game.hand.hand(seat)}
    assert not in_hands & {str(m.tile) for m in room.history if m.tile is not None}


def test_mexican_moves_are_named_by_train() -> None:
    game = scripted()
    game.apply(Move.parse("0: 6-5 on train:0"))
    assert Move.parse("0: 6-5 on mexican").train == MEXICAN
    assert "end" in [m.action_text() for m in game.legal_moves()]


def test_an_end_that_is_the_only_move_is_forced() -> None:
    game = scripted()
    game.apply(Move.parse("0: 6-5 on train:0"))
    game.apply(Move.parse("0: 5-4 on train:0"))
    # seat 0 holds 5-5 and 1-1: nothing fits the 4, so only "end" is left
    assert [str(m) for m in game.legal_moves()] == ["0: end"]
    assert str(game.forced_move()) == "0: end"
