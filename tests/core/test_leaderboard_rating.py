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
