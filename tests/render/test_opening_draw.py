"""The opening draw on the board (issue 31, item 4): while a drawn hand's first turns are
played, the picture shows under its line of facts the tile each seat drew, by its name,
the opener's ringed; drawn from the view alone, nothing over anything else."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest

from engine.game import Game
from engine.rules import Rules
from engine.views import view_of
from render.board import Table, draw_board
from render.measure import Measure
from render.words import word
from tests.render.test_geometry import _overlap, check, played

NAMES = ("Ana", "Beto", "Caro", "Dani")


def tournament(seed: int, moves: int = 0, **options: Any) -> Game:
    game = Game(Rules.from_preset("tournament_pr", **options), 4)
    game.start_hand(seed=seed)
    for _ in range(moves):
        game.apply(game.legal_moves()[0])
    return game


def measured(game: Game, seat: int | None = None, lang: str = "en") -> dict[str, Any]:
    measure = Measure()
    draw_board(view_of(game, seat), Table(NAMES, lang=lang), measure)
    return measure.as_json()


def texts(geometry: dict[str, Any]) -> list[str]:
    return [t["text"] for t in geometry["texts"]]


@pytest.mark.parametrize("seat", [None, 2])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_board_shows_each_seats_drawn_tile_before_the_first_move(
    seed: int, seat: int | None
) -> None:
    game = tournament(seed)
    view = view_of(game, seat)
    geometry = measured(game, seat)
    shown = geometry["opening_draw"]
    assert [d["seat"] for d in shown] == [0, 1, 2, 3]
    assert [d["tile"] for d in shown] == [str(t) for t in view.opening_draw]
    assert [d["seat"] for d in shown if d["opens"]] == [view.opener]
    assert word("opening_draw", "en") in texts(geometry)
    row = [t for t in geometry["texts"] if t["text"] in NAMES and t["y"] > 96]
    assert sorted(t["text"] for t in row) == sorted(NAMES)  # each name by its tile
    everything = [*geometry["texts"], *shown, *geometry["tiles"]]
    for a, b in combinations(everything, 2):
        assert not _overlap(a, b), ("drawn over each other", a, b)
    for box in shown:
        assert box["x"] >= 0 and box["x"] + box["w"] <= geometry["width"]
        assert box["y"] >= 0 and box["y"] + box["h"] <= geometry["height"]
    check(geometry, played(view), list(NAMES))


def test_the_draw_stays_until_every_seat_has_had_a_turn() -> None:
    game = tournament(5, moves=1)
    assert measured(game)["opening_draw"], "after the opening tile, still shown"
    check(measured(game), played(view_of(game)), list(NAMES))
    game.apply(game.legal_moves()[0])
    game.apply(game.legal_moves()[0])
    assert measured(game)["opening_draw"]
    game.apply(game.legal_moves()[0])  # the fourth seat's turn made: everyone has seen it
    geometry = measured(game)
    assert geometry["opening_draw"] == []
    assert word("opening_draw", "en") not in texts(geometry)


def test_no_draw_is_shown_where_nothing_was_drawn() -> None:
    game = Game(Rules.from_preset("partnership"), 4)
    game.start_hand(seed=3)
    geometry = measured(game)
    assert geometry["opening_draw"] == []
    assert word("opening_draw", "en") not in texts(geometry)


@pytest.mark.parametrize("lang", ["es", "en", "pt"])
def test_the_draw_row_speaks_the_rooms_language(lang: str) -> None:
    assert word("opening_draw", lang) in texts(measured(tournament(6), lang=lang))


def test_the_draw_row_makes_room_for_itself() -> None:
    """The row lies between the line of facts and the table: the table moves down."""
    game = tournament(7, moves=1)
    with_row = measured(game)
    measure = Measure()
    draw_board(replace(view_of(game), opening_draw=()), Table(NAMES, lang="en"), measure)
    without = measure.as_json()
    facts = next(t for t in with_row["texts"] if t["text"].startswith("Hand 1"))
    first = with_row["opening_draw"][0]
    assert facts["y"] + facts["h"] <= first["y"]
    assert with_row["tiles"][0]["y"] > first["y"] + first["h"]
    assert with_row["tiles"][0]["y"] > without["tiles"][0]["y"]
    assert with_row["height"] > without["height"]
