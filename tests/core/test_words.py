"""Words a person reads (issue 21): "on" in a move said in Spanish and Portuguese is "en"
and "em", and what a player reads can be typed back as the same move; no example in
the catalogs leaves "on" untranslated; dashes from a phone's keyboard read as "-"."""

from __future__ import annotations

import re

import pytest

from bot.core.describe import move_words
from bot.core.dispatch import ALIASES, plain_dashes
from engine.moves import Action, Move, parse_action
from engine.tiles import Tile
from lang import catalog, trn

ON = {"es": "en", "pt": "em", "en": "on"}
MOVE = Move(1, Action.PLAY, Tile.of(6, 4), on=Tile.of(6, 6))


def typed(text: str) -> str:
    """``text`` as the dispatch hands it to the engine."""
    return " ".join(ALIASES.get(w.lower(), w) for w in plain_dashes(text).split())


@pytest.mark.parametrize("lang", sorted(ON))
def test_a_move_is_said_in_the_language_and_reads_back(lang: str) -> None:
    said = move_words(lang, MOVE, ["Ana", "Beto"])
    assert said == f"6-4 {ON[lang]} 6-6"
    assert parse_action(typed(said), 1) == MOVE
    assert parse_action(typed(said.replace("-", "–")), 1) == MOVE


@pytest.mark.parametrize("lang", ["es", "pt"])
def test_no_text_leaves_on_in_english(lang: str) -> None:
    for message, text in catalog(lang).items():
        if re.search(r"\bon \d", message):
            assert not re.search(r"\bon \d", text), (message, text)


@pytest.mark.parametrize("dash", "‐‑‒–—―−－")
def test_any_dash_is_read_as_a_dash(dash: str) -> None:
    assert parse_action(typed(f"6{dash}3 en 6{dash}6"), 0) == Move(
        0, Action.PLAY, Tile.of(6, 3), on=Tile.of(6, 6)
    )


GAMES = (
    "{name}: {games} game, {wins} won; points {for_} for, {against} against.",
    "{name}: {games} games, {wins} won; points {for_} for, {against} against.",
)


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "1 game,", "2 games,"),
        ("es", "1 partida,", "2 partidas,"),
        ("pt", "1 partida,", "2 partidas,"),
    ],
)
def test_counts_take_their_plural_form(lang: str, one: str, two: str) -> None:
    """No "1 games": the catalogs' plural forms (gettext's ngettext)."""
    said = {n: trn(lang, *GAMES, n, name="Ana", games=n, wins=0, for_=0, against=0) for n in (1, 2)}
    assert one in said[1] and two in said[2], said


def test_a_plural_the_catalog_lacks_falls_back_to_english() -> None:
    assert trn("es", "{n} cat", "{n} cats", 1, n=1) == "1 cat"
    assert trn("es", "{n} cat", "{n} cats", 3, n=3) == "3 cats"


def test_one_round_is_one_round_in_every_language() -> None:
    """Issue 33, 13: "1 rounds" was said of a Mexican Train of one round."""
    from bot.core.house_rules import count_line
    from engine.rules import Rules

    one = Rules.from_preset("mexican_train", rounds=1)
    assert count_line("en", one).startswith("1 round;")
    assert count_line("es", one).startswith("1 ronda;")
    assert count_line("pt", one).startswith("1 rodada;")
    assert count_line("es", Rules.from_preset("mexican_train", rounds=3)).startswith("3 rondas;")


def test_the_text_board_says_the_game_clock_where_there_is_one() -> None:
    """Issue 33, 9: the text board never said the clock of tournament_pr's games."""
    from bot.core.describe import describe_table
    from engine.game import Game
    from engine.rules import Rules
    from engine.views import view_of

    game = Game(Rules.from_preset("tournament_pr"), 4)
    view = view_of(game)
    names = ["Ana", "Beto", "Carla", "Dani"]
    assert "Reloj de la partida: quedan 12:05" in describe_table(view, names, "es", 725.2)
    assert "Game clock" not in describe_table(view, names, "en")  # no clock: not said
