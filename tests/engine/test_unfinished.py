"""A record's ``unfinished`` hand (docs/records.md; issue 32, 2): the moves of a hand the
game ended in the middle of, for people to read. Import accepts it and does not replay it;
one that carries hidden tiles is refused."""

from __future__ import annotations

import pytest

from engine.errors import RecordError
from engine.game import Game
from engine.record import export, load
from engine.rules import Rules


def a_record() -> dict:
    game = Game(Rules.from_preset("draw"), 2)
    game.start_hand(seed=5)
    return export(game, ["Ana", "Beto"])


def test_an_unfinished_hand_is_read_and_not_replayed() -> None:
    record = a_record()
    hand = record["hands"].pop()
    record["unfinished"] = {"moves": hand["moves"]}
    game = load(record)
    assert game.hand is None and not game.logs


@pytest.mark.parametrize("hidden", ["deal", "boneyard", "seed"])
def test_an_unfinished_hand_with_hidden_tiles_is_refused(hidden: str) -> None:
    record = a_record()
    hand = record["hands"].pop()
    record["unfinished"] = {"moves": [], hidden: hand.get(hidden, 1)}
    with pytest.raises(RecordError, match="unfinished"):
        load(record)


def test_an_unfinished_hand_without_moves_is_refused() -> None:
    record = a_record()
    record["unfinished"] = ["0: 6-6"]
    with pytest.raises(RecordError, match="unfinished"):
        load(record)
