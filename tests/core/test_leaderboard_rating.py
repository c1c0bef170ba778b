"""The leaderboard picture carries the rating column (issue 21): with a preset named,
the ratings of its family; with none, of the family that rates the players listed."""

from __future__ import annotations

from bot.core.model import Picture
from storage.store import Store
from tests.core.driver import Room
from tests.core.test_service import play_out


async def test_top_without_a_preset_shows_the_ratings_there_are(store: Store) -> None:
    room = await Room.open(store)  # the room's own preset: partnership (no game of it)
    await room.say("Ana", "/new draw 10")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    await play_out(room, ["Ana", "Beto"])
    for command in ("/top", "/top draw"):
        top = await room.say("Carla", command)
        picture = next(e for e in top if isinstance(e, Picture))
        assert {line.name for line in picture.lines} == {"Ana", "Beto"}
        assert all(line.rating is not None for line in picture.lines), command


async def play_a_game(store: Store, preset: str, names: list[str]) -> None:
    room = await Room.open(store)  # (the same room, a log of this game's own)
    await room.say(names[0], f"/new {preset}")
    for name in names[1:]:
        await room.say(name, "/join")
    await room.say(names[0], "/begin")
    await play_out(room, names)


def top_of(effects: list) -> Picture:
    return next(e for e in effects if isinstance(e, Picture))


async def test_top_counts_the_games_of_the_family_its_ratings_are_of(store: Store) -> None:
    """Issue 33, 11: plain /top titled for partnership ratings counted every family's
    games; /top partnership said "no games finished" after partnership games of another
    preset; the pairs' leaderboard could not be reached; ratings read 0.0 and below."""
    room = await Room.open(store)
    four = ["Ana", "Beto", "Carla", "Dani"]
    await play_a_game(store, "tournament_pr 50", four)
    await play_a_game(store, "draw 10", ["Ana", "Eva"])
    await play_a_game(store, "draw 10", ["Ana", "Eva"])
    plain = top_of(await room.say("Carla", "/top"))
    family = top_of(await room.say("Carla", "/top partnership"))
    for picture in (plain, family):
        assert "partnership" in picture.title, picture.title
        by_name = {line.name: line for line in picture.lines}
        assert set(by_name) == set(four), by_name
        assert by_name["Ana"].games == 1  # her two draw games are not partnership games
        assert all(line.rating is not None and line.rating > 900 for line in picture.lines)
        assert "Ratings start at 1000" in picture.text
    individual = top_of(await room.say("Carla", "/top individual"))
    assert {line.name: line.games for line in individual.lines} == {"Ana": 2, "Eva": 2}
    pairs = top_of(await room.say("Carla", "/top pairs"))
    assert len(pairs.lines) == 2 and all(line.games == 1 for line in pairs.lines)
    assert all(" & " in line.name for line in pairs.lines), pairs.lines
    refused = await room.say("Carla", "/top everything")
    assert "/top takes" in refused[0].text and refused[0].private
