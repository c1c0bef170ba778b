"""The seats' panels as a player reads them (issue 21): names whole or in short forms
that still tell the seats apart, a computer's strength as a tag of its own, and the
tiles held, the timer, "to play" and the seat's note each in its own place, no text over
another; the score sheet and the leaderboard the same."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import ImageDraw

from engine.game import Game
from engine.record import load
from engine.views import view_of
from render.__main__ import until_move
from render.board import Table, draw_board
from render.fonts import font
from render.names import short_names
from render.sheets import Standing, draw_leaderboard

RECORDS = Path(__file__).resolve().parents[1] / "data" / "pictures"
COMPUTERS = ("Computadora 1", "Computadora 2", "Computadora 3", "Computadora 4")
TAGS = ("difícil", "fácil", "normal", "difícil")
NOTES = ("", "pasa", "roba 3", "+15")


@dataclass(frozen=True)
class Drawn:
    text: str
    box: tuple[float, float, float, float]
    canvas: int  # which drawing (the board, or a score sheet drawn apart)


@contextmanager
def drawn() -> Iterator[list[Drawn]]:
    """Every text drawn meanwhile, with the box it covers."""
    found: list[Drawn] = []
    canvases: list[ImageDraw.ImageDraw] = []  # held so that no freed canvas's id is reused
    original = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        face, anchor = kwargs.get("font"), kwargs.get("anchor")
        box = self.textbbox(xy, str(text), font=face, anchor=anchor)
        canvases.append(self)
        found.append(Drawn(str(text), tuple(map(float, box)), id(self)))  # type: ignore[arg-type]
        return original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = spy  # type: ignore[method-assign]
    try:
        yield found
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


def overlapping(texts: list[Drawn]) -> list[tuple[str, str]]:
    pairs = []
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            if a.canvas != b.canvas or not a.text.strip() or not b.text.strip():
                continue
            ax0, ay0, ax1, ay1 = a.box
            bx0, by0, bx1, by1 = b.box
            if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1:
                pairs.append((a.text, b.text))
    return pairs


def record_at(name: str, move: int | None = None) -> tuple[Game, dict[str, Any]]:
    data = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    if move is not None:
        data = until_move(data, move)
    return load(data), data


def computers_table(**more: Any) -> Table:
    return Table(COMPUTERS, tags=TAGS, notes=NOTES, **more)


def test_four_computers_are_told_apart_and_their_strength_is_a_tag() -> None:
    game, _ = record_at("computers4", 13)
    with drawn() as texts:
        draw_board(view_of(game), computers_table(turn_seconds=90))
    words = [t.text.replace("\n", " ") for t in texts]  # a name on two lines is whole
    shown = [next(w for w in words if w == n or w.endswith(n[-2:])) for n in COMPUTERS]
    assert len(set(shown)) == 4, shown  # never four times "Computa…"
    allowed = set(COMPUTERS) | set(short_names(COMPUTERS, 10_000, font(22)))
    assert all(s in allowed or s.startswith("Comp") for s in shown), shown
    for tag in set(TAGS):
        assert tag in words  # drawn as a tag of its own
    assert not any("(" in w for w in shown)  # not inside a truncated name


def test_short_names_keep_seats_distinguishable() -> None:
    face = font(22)
    names = [f"Jugadora número {s} con un nombre larguísimo" for s in range(8)]
    for width in (60, 90, 120, 200):
        short = short_names(names, width, face)
        assert len(set(short)) == len(names), (width, short)
    assert short_names(["Ana", "Beto"], 200, face) == ("Ana", "Beto")  # whole when they fit
    short = short_names([*COMPUTERS], 100, face)
    assert len(set(short)) == 4 and all(
        s.endswith(n[-1]) for s, n in zip(short, COMPUTERS, strict=True)
    )


def test_the_count_the_timer_and_the_notes_each_have_their_place() -> None:
    """A seat holding 15 tiles with its clock running: "15" and "1:30" apart, never
    "151:30"; every seat's note drawn; no text over another anywhere on the board."""
    game, data = record_at("draw12-60", 32)
    view = view_of(game)
    assert view.to_move is not None and view.tile_counts[view.to_move] == 15
    names = tuple(data["players"])
    notes = ("pasa", "roba 3", "+15")
    with drawn() as texts:
        draw_board(view, Table(names, turn_seconds=90, notes=notes))
    words = [t.text for t in texts]
    assert "15" in words and "1:30" in words
    assert not any("151:30" in w or "15 1:30" in w for w in words)
    for note in notes:
        assert note in words
    assert overlapping(texts) == []


def test_no_text_overlaps_on_any_panel_layout() -> None:
    for name, move in (("computers4", 13), ("computers4", None), ("mexican8", 24)):
        game, data = record_at(name, move)
        players = len(data["players"])
        names = COMPUTERS if name == "computers4" else tuple(data["players"])
        table = Table(
            names,
            turn_seconds=75,
            tags=TAGS[:players] if name == "computers4" else (),
            notes=tuple(NOTES[s % 4] for s in range(players)),
        )
        with drawn() as texts:
            draw_board(view_of(game), table)
        assert overlapping(texts) == [], name


def test_the_score_sheet_tells_the_computers_apart() -> None:
    game, _ = record_at("computers4")
    assert game.hand is None
    with drawn() as texts:
        draw_board(view_of(game), computers_table())
    headers = [t.text for t in texts if " / " in t.text]
    assert len(headers) >= 2, headers
    for header in headers:
        assert "Computador…" not in header
        left, right = header.split(" / ")
        assert left != right
    assert any("1" in h and "3" in h for h in headers) and any(
        "2" in h and "4" in h for h in headers
    )


def test_the_scored_words_go_in_the_line_of_facts() -> None:
    game, _ = record_at("fives-flanks", 4)
    with drawn() as texts:
        draw_board(view_of(game), Table(("Ana", "Beto", "Carla"), scored="Ana +5 · cuenta 20"))
    assert "Ana +5 · cuenta 20" in " ".join(t.text for t in texts)


def test_the_leaderboard_has_the_rating_column() -> None:
    lines = [Standing("Ana", 3, 2, 1243.0), Standing("Beto", 3, 1, None)]
    with drawn() as texts:
        draw_leaderboard("", lines, lang="en")
    words = [t.text for t in texts]
    assert "Rating" in words
    assert "1243" in words  # as the leaderboard's text shows it (bot/core/ratings.py)
