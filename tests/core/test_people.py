"""Who people are to the bot (issue 18): names shown safely, platform text that does not
fit, /stats finding people however they are named, points in the preset's direction,
"forget me" leaving nothing behind, leaderboards of two people or more."""

from __future__ import annotations

import dataclasses

import pytest
from sqlalchemy import MetaData, select

from bot.core.model import Board, Hand, Person, Place, Say
from storage.store import Store
from tests.core.driver import Room, private_to
from tests.core.test_service import play_out


def texts(effects: list) -> str:
    return "\n".join(e.text for e in effects if isinstance(e, Say))


async def dump(store: Store) -> str:
    """Every row of every table, as text."""
    found: list[str] = []
    metadata = MetaData()

    def work(db) -> None:  # type: ignore[no-untyped-def]
        metadata.reflect(db)
        for table in metadata.sorted_tables:
            found.extend(repr(tuple(row)) for row in db.execute(select(table)))

    await store.database.run(work)
    return "\n".join(found)


async def test_a_name_with_line_breaks_and_controls_is_shown_on_one_line(store: Store) -> None:
    room = await Room.open(store)
    odd = Person("odd", "Ana\nMaría\x00\u202e  la\tgrande", "en")
    effects = await room.service.handle(
        dataclasses.replace(await _command(room, "new draw"), person=odd)
    )
    await room.service.handle(dataclasses.replace(await _command(room, "add_ai"), person=odd))
    effects = await room.service.handle(
        dataclasses.replace(await _command(room, "begin"), person=odd)
    )
    board = next(e for e in effects if isinstance(e, Board))
    assert board.table.names[0] == "Ana María la grande"
    hand = next(e for e in effects if isinstance(e, Hand))
    assert "\n" not in hand.table.names[0]
    from bot.doors.pictures import board_png, hand_png

    assert (await board_png(board)).startswith(b"\x89PNG")  # a newline used to break it
    assert (await hand_png(hand)).startswith(b"\x89PNG")
    assert "Ana María la grande" in await dump(store)


async def _command(room: Room, text: str):  # type: ignore[no-untyped-def]
    from bot.core.model import Command

    words = text.split()
    return Command(room.place, room.person("x"), words[0], tuple(words[1:]))


async def test_overlong_platform_text_is_cut_to_fit(any_store: Store) -> None:
    """A language code of 12 characters made a group unusable on PostgreSQL."""
    room = await Room.open(any_store)
    room.place = Place("telegram", "-100", "-100", "G" * 500, "zh-hant-tw-x")
    long = Person("77", "N" * 300, "zh-hant-tw-x", handle="h" * 200)
    from bot.core.model import Command

    effects = await room.service.handle(Command(room.place, long, "new", ("draw",)))
    assert effects and not texts(effects).startswith("Something went wrong")
    assert (await any_store.games.active_in(1)) is not None


async def test_stats_finds_people_by_handle_name_mention_and_id(store: Store) -> None:
    room = await Room.open(store)
    beto = Person("4242", "Beto", "en", handle="beto_p")
    await room.say("Ana", "/new draw 10")
    from bot.core.model import Command

    await room.service.handle(Command(room.place, beto, "join"))
    await room.say("Ana", "/begin")
    room.person = lambda name, admin=False, locale=None: (  # type: ignore[method-assign]
        beto if name == "Beto" else Person(name.lower(), name, locale, admin)
    )
    await play_out(room, ["Ana", "Beto"])
    for asked in ("@beto_p", "@BETO_P", "beto", "BETO", "user:4242", "<@4242>", "<@!4242>"):
        answer = texts(await room.say("Carla", f"/stats {asked}"))
        assert "Beto: 1 game," in answer, (asked, answer)
    assert "do not know" in texts(await room.say("Carla", "/stats @nobody"))


async def test_points_for_follow_the_scoring_direction(store: Store) -> None:
    """Partnership writes each hand's pips on the losing team: a team's own score is
    what it was made to take, its points against."""
    room = await Room.open(store)
    await room.say("Ana", "/new partnership 20")
    await room.say("Beto", "/join 2")
    await room.say("Ana", "/begin fill")
    final = await play_out(room, ["Ana", "Beto"])
    outcome = final.view.outcome
    assert outcome is not None
    ours = outcome.scores[0]  # Ana (seat 1) and Beto (seat 3) are team A
    theirs = outcome.scores[1]
    record = await store.stats.player(1, 1)
    assert (record.points_for, record.points_against) == (theirs, ours)


async def test_a_game_of_one_person_against_computers_is_not_on_the_leaderboard(
    store: Store,
) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw 10")
    await room.say("Ana", "/add_ai")
    await room.say("Ana", "/begin")
    await play_out(room, ["Ana"])
    assert "does not count on the leaderboard" in texts(room.log)
    assert "No games finished" in texts(await room.say("Ana", "/top"))
    assert "no finished games" in texts(await room.say("Ana", "/stats"))
    assert await room.service.settle() == 0


async def test_forget_me_leaves_the_platform_id_nowhere(store: Store) -> None:
    room = await Room.open(store)
    ana = Person("ana-4471829", "Ana", "en", handle="ana_handle")
    from bot.core.model import Command

    room.person = lambda name, admin=False, locale=None: (  # type: ignore[method-assign]
        ana if name == "Ana" else Person(name.lower(), name, locale, admin)
    )
    await room.service.handle(Command(room.place, ana, "new", ("draw", "10")))
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    refused = await room.say("Ana", "/forget confirm")
    assert private_to(refused, "Ana") and "not over" in texts(refused)
    await play_out(room, ["Ana", "Beto"])
    assert "ana-4471829" in await dump(store)
    await room.say("Ana", "/forget confirm")
    everything = await dump(store)
    assert "ana-4471829" not in everything and "ana_handle" not in everything
    assert "Beto" in everything


@pytest.mark.parametrize("typed", ["/stats", "/top"])
async def test_looking_at_results_changes_nothing(store: Store, typed: str) -> None:
    room = await Room.open(store)
    before = await dump(store)
    await room.say("Ana", typed)
    after = await dump(store)
    # only the people and the room seen for the first time are new
    assert set(before.splitlines()) <= set(after.splitlines())
