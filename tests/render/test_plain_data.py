"""The pictures take any object with the fields they read: the bot's plain Table and
Standing (bot/core/model.py) draw exactly what render's own do."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageChops

from engine.game import Game
from engine.players import RandomPlayer
from engine.rules import Rules
from engine.simulate import play_hand
from engine.views import view_of
from render.board import Table, draw_board, draw_hand
from render.sheets import Standing, draw_leaderboard


@dataclass(frozen=True)
class PlainTable:
    """The fields only: no ``name`` method (like bot.core.model.Table)."""

    names: tuple[str, ...]
    turn_seconds: float | None = None
    clock_seconds: float | None = None
    lang: str = "es"
    theme: str = "classic"
    numerals: bool = False


@dataclass(frozen=True)
class PlainStanding:
    name: str
    games: int
    wins: int
    rating: float | None = None
    points: int | None = None


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def test_boards_and_hands_from_a_plain_table() -> None:
    for preset, players in (("partnership", 4), ("all_fives", 3), ("mexican_train", 5)):
        game = Game(Rules.from_preset(preset), players)
        play_hand(game, [RandomPlayer(s) for s in range(players)], 3)
        names = ("Ana", "Beto")  # the other seats get "Player n"
        ours = Table(names, turn_seconds=30.0, clock_seconds=600.0, lang="pt", theme="dark")
        plain = PlainTable(names, turn_seconds=30.0, clock_seconds=600.0, lang="pt", theme="dark")
        assert same(draw_board(view_of(game), ours), draw_board(view_of(game), plain))
        assert same(draw_hand(view_of(game, 1), ours), draw_hand(view_of(game, 1), plain))


def test_a_leaderboard_from_plain_standings() -> None:
    rows = [("Ana", 10, 7, 1520.5, 300), ("Beto", 4, 1, None, None)]
    ours = draw_leaderboard("Top", [Standing(*r) for r in rows], "contrast", "en")
    plain = draw_leaderboard("Top", [PlainStanding(*r) for r in rows], "contrast", "en")
    assert same(ours, plain)
