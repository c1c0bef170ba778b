"""Pictures never cut what matters (issue 33, item 8): the line of facts wraps instead of
ending in "…" (the count after a score, the hand's result), the game's last picture says
who won the game, the tiles held show as backs on every theme's panel, and a character
the font lacks (an emoji in a name) is drawn as a visible substitute, never a box."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageDraw

from engine.game import Game
from engine.players import RandomPlayer
from engine.rules import Rules
from engine.simulate import play_hand
from engine.views import view_of
from lang import tr
from render.board import Table, draw_board
from render.faces import tile_back
from render.fonts import font
from render.measure import Measure
from render.theme import THEMES
from render.words import word

LONG = tuple(f"Computadora {s} (difícil)" for s in range(1, 5))


def texts_of(view: Any, table: Table) -> list[str]:
    measure = Measure()
    draw_board(view, table, measure)
    return [t["text"] for t in measure.texts]


def test_the_count_after_a_score_is_never_cut() -> None:
    game = Game(Rules.from_preset("all_fives"), 4)
    game.start_hand(seed=11)
    seats = [RandomPlayer(s) for s in range(4)]
    while game.to_move is not None:
        game.apply(seats[game.to_move].choose(view_of(game, game.to_move)))
        if view_of(game).last_score is not None and len(view_of(game).placements) > 6:
            break
    view = view_of(game)
    assert view.last_score is not None
    scored = f"{LONG[view.last_score.seat]} +{view.last_score.points} · cuenta {view.count}"
    texts = texts_of(view, Table(LONG, scored=scored, clock_seconds=754))
    facts = " ".join(texts)
    assert scored in facts and "Reloj 12:34" in facts
    assert not any(t.endswith("…") for t in texts if "·" in t)


@pytest.mark.parametrize("lang", ["es", "en", "pt"])
def test_the_result_of_a_hand_is_never_cut(lang: str) -> None:
    game = Game(Rules.from_preset("fido12"), 4)
    play_hand(game, [RandomPlayer(s) for s in range(4)], 5)
    view = view_of(game)
    assert view.result is not None and view.result.end == "domino"
    winner = LONG[view.result.winner or 0]
    texts = texts_of(view, Table(LONG, lang=lang))
    result = f"{word('domino', lang)} {winner} {word('wins', lang)}"  # not "¡Dominó!:"
    assert any(result in t for t in texts), texts
    assert any(f"{word('count', lang)}: {view.count}" in t for t in texts)


def test_the_last_picture_says_who_won_the_game() -> None:
    game = Game(Rules.from_preset("partnership", target=30), 4)
    seed = 1
    while not game.over:
        play_hand(game, [RandomPlayer(seed + s) for s in range(4)], seed)
        seed += 1
    view = view_of(game)
    assert view.outcome is not None
    names = ("Ana", "Beto", "Carla", "Diego")
    team = " / ".join(names[s] for s in view.rules.side_seats(4)[view.outcome.winner])
    for lang in ("es", "en", "pt"):
        said = tr(lang, "Game over: {side} wins!", side=f"{word('team', lang)} {team}")
        assert said in texts_of(view, Table(names, lang=lang))


def _luminance(rgb: tuple[int, ...]) -> float:
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("name", sorted(THEMES))
def test_the_tiles_held_stand_out_on_the_panel(name: str) -> None:
    """A back's edge contrasts with the panel at least 3:1 (WCAG's figure for the parts
    of a picture one must see), its face at least 1.4:1, on every theme."""
    theme = THEMES[name]
    back = tile_back(12, True, theme)
    edge = back.getpixel((0, back.height // 2))
    middle = back.getpixel((back.width // 2, back.height // 2))
    assert isinstance(edge, tuple) and isinstance(middle, tuple)
    assert _contrast(edge, theme.panel) >= 3.0, (name, edge)
    assert _contrast(middle, theme.panel) >= 1.4, (name, middle)


def _is_box(char: str) -> bool:
    """Whether the bundled font draws ``char`` as its empty box (.notdef)."""
    face = font(20)
    mask, missing = face.getmask(char), face.getmask("\U0010fffd")
    return mask.size == missing.size and bytes(mask) == bytes(missing)


def test_an_emoji_in_a_name_is_never_a_box() -> None:
    game = Game(Rules.from_preset("partnership"), 4)
    play_hand(game, [RandomPlayer(s) for s in range(4)], 2)
    names = ("Ana 🔥", "Beto 🇲🇽", "Carla 👩‍👩‍👧", "Diego ⚽")
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = spy  # type: ignore[method-assign]
    try:
        image = draw_board(view_of(game), Table(names, scored="Ana 🔥 +5"))
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]
    assert isinstance(image, Image.Image)
    boxes = [t for t in drawn if any(_is_box(c) for c in t)]
    assert boxes == []
    assert "Ana ☺" in " ".join(drawn)  # the substitute: something is there, not nothing
