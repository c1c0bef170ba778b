"""The opening draw through the service (issue 31, item 4; seed 001: "cada jugador toma
una ficha. El jugador con el número más alto en una sola ficha comenzará el juego"): when
a hand's opener is drawn (tournament_pr's first hand), the room is told who drew which
tile and who opens, the board's words say it until every seat has had a turn, and the
saved record keeps the draw, so it is still there after the game is read again."""

from __future__ import annotations

from dataclasses import replace

from bot.core.describe import describe_table, opening_draw_words
from bot.core.model import Board, Effect, Say
from engine.moves import Action, Move
from engine.record import load
from engine.tiles import RANK, Tile
from engine.views import View, view_of
from lang import tr
from storage.store import Store
from tests.core.driver import Room, boards

PEOPLE = ["Ana", "Beto", "Carla", "Dani"]
LANG = "en"  # the driver's room speaks English


async def begin(room: Room, preset: str) -> list[Effect]:
    await room.say(PEOPLE[0], f"/new {preset}")
    for name in PEOPLE[1:]:
        await room.say(name, "/join")
    return await room.say(PEOPLE[0], "/begin")


def room_texts(effects: list[Effect]) -> list[str]:
    return [e.text for e in effects if type(e) is Say and e.private is None]


def told(view: View, names: list[str]) -> str:
    draws = ", ".join(f"{name} {tile}" for name, tile in zip(names, view.opening_draw, strict=True))
    assert view.opener is not None
    return tr(
        LANG,
        "Opening draw: {draws}. {name} drew the highest tile and opens.",
        draws=draws,
        name=names[view.opener],
    )


async def test_the_room_is_told_the_tiles_drawn_and_who_opens(store: Store) -> None:
    room = await Room.open(store)
    effects = await begin(room, "tournament_pr")
    board = next(e for e in effects if isinstance(e, Board))
    view = board.view
    assert len(view.opening_draw) == 4
    opener = max(range(4), key=lambda seat: RANK[view.opening_draw[seat]])
    assert view.opener == opener
    if view.history:
        assert view.history[0].seat == opener  # the opener, a person here, moved first
    line = told(view, PEOPLE)
    said = room_texts(effects)
    assert any(line in text for text in said), said
    announced = next(e for e in effects if type(e) is Say and line in e.text)
    assert effects.index(announced) < effects.index(board)  # before the first board
    # the board's words (captions, the console's text board) say it too
    assert line in describe_table(view, PEOPLE, LANG)
    # the saved record keeps it: read again, the game shows the same draw
    record = await store.games.record(1)
    assert record["hands"][0]["opening_draw"] == [str(t) for t in view.opening_draw]
    assert view_of(load(record)).opening_draw == view.opening_draw
    again = await room.say("Beto", "/board")
    assert any(line in b.text for b in boards(again)), [b.text for b in boards(again)]


async def test_a_hand_whose_opener_is_not_drawn_says_nothing_of_a_draw(store: Store) -> None:
    room = await Room.open(store)
    effects = await begin(room, "partnership")
    assert not any("Opening draw" in text for text in room_texts(effects))
    board = next(e for e in effects if isinstance(e, Board))
    assert board.view.opening_draw == ()
    assert "Opening draw" not in describe_table(board.view, PEOPLE, LANG)


async def test_a_tie_of_pips_is_explained(store: Store) -> None:
    """Seed 001: "Entiéndase que el 6/2 es más alto que el 5/3"."""
    room = await Room.open(store)
    board = next(e for e in await begin(room, "tournament_pr") if isinstance(e, Board))
    drawn = tuple(map(Tile.parse, ["5-3", "6-2", "4-1", "0-0"]))
    view = replace(board.view, opening_draw=drawn, opener=1, history=())
    words = opening_draw_words(LANG, view, PEOPLE)
    assert words == tr(
        LANG,
        "Opening draw: {draws}. {tile} and {other} have as many pips; {tile} has the higher"
        " number, so {name} opens.",
        draws="Ana 5-3, Beto 6-2, Carla 4-1, Dani 0-0",
        tile="6-2",
        other="5-3",
        name="Beto",
    )


async def test_the_board_stops_telling_the_draw_once_every_seat_has_played(store: Store) -> None:
    room = await Room.open(store)
    board = next(e for e in await begin(room, "tournament_pr") if isinstance(e, Board))
    view = board.view
    opener = view.opener
    assert opener is not None
    first_turns = [Move(opener, Action.PLAY, view.opening_draw[0])]
    first_turns += [Move((opener + k) % 4, Action.PASS) for k in range(1, 3)]
    assert "Opening draw" in describe_table(replace(view, history=tuple(first_turns)), PEOPLE, LANG)
    first_turns.append(Move((opener + 3) % 4, Action.PASS))
    everyone = replace(view, history=tuple(first_turns))
    assert "Opening draw" not in describe_table(everyone, PEOPLE, LANG)
