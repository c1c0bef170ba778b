"""RULES.md "Teams": with ``teams = drawn_high`` the two players who draw the highest
tiles are partners, with ``drawn_high_low`` the highest with the lowest; partners then sit
opposite, and the room is shown the tiles drawn and the teams before the deal. With
``agreed`` (the default) the seats are as chosen in the lobby."""

from __future__ import annotations

import re

import pytest

from bot.core.model import Board, Effect, Hand, Say
from bot.core.service import GameService
from engine.tiles import Tile
from lang import tr
from storage.store import Store
from tests.core.driver import Clock, Room, seeded

PEOPLE = ["Ana", "Beto", "Carla", "Dani"]
DRAW = re.compile(r" \d+-\d+[,.]")


def order_key(tile: Tile) -> tuple[int, int]:
    """RULES.md's tile order: the higher total first, then the higher end."""
    return (tile.hi + tile.lo, tile.hi)


async def begin(room: Room, options: str) -> list[Effect]:
    await room.say("Ana", f"/new partnership {options}".strip())
    for name in PEOPLE[1:]:
        await room.say(name, "/join")
    return await room.say("Ana", "/begin")


def drawn_tiles(effects: list[Effect]) -> dict[str, Tile]:
    """Who drew which tile, as the room was told."""
    text = next(e.text for e in effects if isinstance(e, Say) and DRAW.search(e.text))
    body = text.splitlines()[0].split(": ", 1)[1].rstrip(".")  # "Ana 6-5, Beto 3-1, ..."
    pairs = [part.rsplit(" ", 1) for part in body.split(", ")]
    return {name: Tile.parse(tile) for name, tile in pairs}


@pytest.mark.parametrize("seed", [7, 8, 9])
@pytest.mark.parametrize("way", ["drawn_high", "drawn_high_low"])
async def test_drawn_teams_sit_opposite_and_are_shown_before_the_deal(
    store: Store, way: str, seed: int
) -> None:
    clock = Clock()
    room = Room(GameService(store, clock=clock, seeds=seeded(seed)), clock)
    effects = await begin(room, f"teams={way}")
    drawn = drawn_tiles(effects)
    assert sorted(drawn) == sorted(PEOPLE) and len(set(drawn.values())) == 4
    ranked = sorted(PEOPLE, key=lambda name: order_key(drawn[name]), reverse=True)
    partner = ranked[1] if way == "drawn_high" else ranked[3]
    others = [name for name in ranked if name not in (ranked[0], partner)]
    # the new seating, as the board shows it: partners opposite (seats 1 and 3, 2 and 4)
    board = next(e for e in effects if isinstance(e, Board))
    names = board.table.names
    assert {names[0], names[2]} == {ranked[0], partner}
    assert {names[1], names[3]} == set(others)
    assert names[0] == ranked[0]  # the highest drawer takes the first seat
    # the room told the teams, before the deal (the first board)
    told = [e for e in effects if isinstance(e, Say) and e.private is None]
    teams_line = tr(
        "en",
        "{team} play against {other}.",
        team=f"{names[0]} / {names[2]}",
        other=f"{names[1]} / {names[3]}",
    )
    assert teams_line in told[0].text
    assert effects.index(told[0]) < effects.index(board)
    # each person's hand comes to them for their new seat
    for effect in effects:
        if isinstance(effect, Hand):
            assert names[effect.view.seat] == effect.person.name  # type: ignore[index]


async def test_agreed_teams_keep_the_lobbys_seats(store: Store) -> None:
    room = await Room.open(store)
    effects = await begin(room, "")
    board = next(e for e in effects if isinstance(e, Board))
    assert board.table.names == tuple(PEOPLE)
    assert not any(isinstance(e, Say) and DRAW.search(e.text) for e in effects)


async def test_computers_draw_too(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new partnership teams=drawn_high_low")
    effects = await room.say("Ana", "/begin fill")
    drawn = drawn_tiles(effects)
    assert len(drawn) == 4 and "Ana" in drawn
    board = next(e for e in effects if isinstance(e, Board))
    assert "Ana" in board.table.names
