"""The board and the score sheet say what the game is played to and which way it counts
(issue 20: "126 to 45 with nothing saying high is bad"), in the room's language; the
room's text board and /score say the same words."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import ImageDraw

from bot.core.describe import describe_table
from bot.core.texts import score_text
from engine.game import Game
from engine.players import RandomPlayer
from engine.rules import PRESETS, Rules
from engine.simulate import play_hand
from engine.views import view_of
from lang import LANGUAGES
from render.board import Table, draw_board
from render.words import goal_text

NAMES = ("Ana", "Beto", "Carla", "Dani")


@pytest.mark.parametrize(
    "preset, options, number, expected",
    [
        ("partnership", {}, 1, "a 100: pierde quien llega"),  # score_to = loser
        ("partnership", {"score_to": "winner", "target": 200}, 2, "a 200: gana quien llega"),
        ("partnership", {"tens_scoring": True}, 1, "a 40: pierde quien llega"),
        ("tournament_pr", {}, 1, "a 200: gana quien llega"),
        ("block", {}, 4, "a 100: gana quien llega"),
        ("block", {"single_hand": True}, 1, "1 mano"),
        ("mexican_train", {}, 3, "ronda 3 de 13: menos puntos gana"),
        (
            "mexican_train",
            {"positive_scoring": True, "rounds": 5},
            2,
            "ronda 2 de 5: más puntos gana",
        ),
        ("all_fives", {}, 1, "1 mano: más puntos gana"),
        ("all_fives", {"target": 150}, 3, "a 150: gana quien llega"),
        ("all_fives", {"hands": 3}, 2, "mano 2 de 3: más puntos gana"),
    ],
)
def test_the_goal_and_its_direction_in_spanish(
    preset: str, options: dict[str, Any], number: int, expected: str
) -> None:
    assert goal_text(Rules.from_preset(preset, **options), number, "es") == expected


def test_the_goal_in_english_and_portuguese() -> None:
    partnership = Rules.from_preset("partnership")
    assert goal_text(partnership, 1, "en") == "to 100: whoever reaches it loses"
    assert goal_text(partnership, 1, "pt") == "até 100: perde quem chegar"
    train = Rules.from_preset("mexican_train")
    assert goal_text(train, 3, "en") == "round 3 of 13: fewest points win"
    assert goal_text(train, 3, "pt") == "rodada 3 de 13: menos pontos ganha"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_room_reads_the_same_words_as_the_picture(lang: str) -> None:
    variants = [
        Rules.from_preset(preset, **options)
        for preset in PRESETS
        for options in ({}, {"target": 150})
        if not (preset == "mexican_train" and options)
    ]
    variants.append(Rules.from_preset("block", single_hand=True))
    for rules in variants:
        game = Game(rules, rules.min_players)
        game.start_hand(seed=3)
        view = view_of(game)
        said = describe_table(view, NAMES[: rules.min_players], lang).splitlines()[-1]
        goal = goal_text(rules, view.hand_number, lang)
        assert said == goal[:1].upper() + goal[1:]  # the text board's last line
        assert f"({goal})" in score_text(lang, game, NAMES)


@contextmanager
def drawn_texts() -> Iterator[list[str]]:
    """Every text drawn on a picture meanwhile."""
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        texts.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = spy  # type: ignore[method-assign]
    try:
        yield texts
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


def hand_of(preset: str, players: int, moves: int | None = None) -> Game:
    game = Game(Rules.from_preset(preset), players)
    if moves is None:
        play_hand(game, [RandomPlayer(s) for s in range(players)], 5)
        return game
    game.start_hand(seed=5)
    for _ in range(moves):
        game.apply(game.legal_moves()[0])
    return game


def test_the_board_shows_the_goal_while_a_hand_is_played() -> None:
    game = hand_of("partnership", 4, moves=3)
    with drawn_texts() as texts:
        image = draw_board(view_of(game), Table(NAMES, lang="es"))
    assert image.width == 960
    assert any("a 100: pierde quien llega" in t for t in texts), texts


def test_the_score_sheet_shows_the_goal_at_the_end_of_a_hand() -> None:
    game = hand_of("partnership", 4)
    assert game.hand is None
    with drawn_texts() as texts:
        draw_board(view_of(game), Table(NAMES, lang="pt"))
    assert "até 100: perde quem chegar" in texts  # at the right of the sheet's title


def test_a_round_of_mexican_train_says_which_of_how_many() -> None:
    game = hand_of("mexican_train", 4, moves=2)
    with drawn_texts() as texts:
        draw_board(view_of(game), Table(NAMES, lang="en"))
    assert any(t.startswith("Round 1 of 13: fewest points win") for t in texts), texts


def test_a_notice_is_drawn_across_the_table() -> None:
    game = hand_of("partnership", 4, moves=0)
    notice = "El equipo Ana / Carla elige quién sale (20 s)"
    with drawn_texts() as texts:
        draw_board(view_of(game), Table(NAMES, notice=notice))
    assert notice in texts
    with drawn_texts() as texts:
        draw_board(view_of(game), Table(NAMES))
    assert notice not in texts


def test_the_rooms_text_says_the_goal_too() -> None:
    game = hand_of("partnership", 4, moves=3)
    assert "(a 100: pierde quien llega)." in score_text("es", game, NAMES)
    assert "To 100: whoever reaches it loses" in describe_table(view_of(game), NAMES, "en")


def test_while_a_team_chooses_nobody_s_turn_is_shown() -> None:
    """The seat dealt the opening is not to move yet: no frame and no turn clock on it."""
    game = hand_of("partnership", 4, moves=0)
    with drawn_texts() as texts:
        draw_board(view_of(game), Table(NAMES, turn_seconds=90))
    assert "1:30" in texts
    with drawn_texts() as texts:
        draw_board(view_of(game), Table(NAMES, turn_seconds=90, notice="Team Ana / Carla"))
    assert "1:30" not in texts
