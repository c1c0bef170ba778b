"""A walkout at a tournament table (issue 31, 2; seed 001: «Si un jugador abandona una
partida por enojo o sin autorización será expulsado»): the table holds, the clock runs,
the judges are told at once in the tournament's room what they may decide, and no
computer takes the seat unless a judge says so (``/tournament substitute``) or the
organiser allowed substitutes."""

from __future__ import annotations

from bot.core.model import Say
from storage.store import Store
from tests.core.tournament.test_table_clocks import two_tables_of_people
from tests.core.tournament.test_tournament_flow import Club
from tests.core.tournament.test_tournament_judges import refused, snapshot


async def seats_of(club: Club, number: int) -> list[dict]:  # type: ignore[type-arg]
    table = (await club.event()).table(1, number)
    return list((await club.store.games.load(table.game_id)).seats)


async def everyone_stops_answering(club: Club, seated: dict[int, list[str]]) -> None:
    for name in seated[1]:
        await club.say(name, "/join", club.tables[(1, 1)])
    for _ in range(40):  # every turn times out: a minute each
        await club.tick(60)


async def test_the_judges_are_told_and_nobody_takes_the_seat(store: Store) -> None:
    club, seated = await two_tables_of_people(store)
    await everyone_stops_answering(club, seated)
    hall = club.said()
    # each person who stopped answering is told to the judges once, with what they may do
    for name in seated[1]:
        assert hall.count(f", {name} (") == 1, hall[-3000:]
    assert "/tournament substitute 1" in hall and "/tournament expel" in hall
    assert "the table waits for the judges" in club.said(club.tables[(1, 1)].room)
    # nobody sat in: the seats are still the people's, the table still plays
    assert all(not seat.get("bot") for seat in await seats_of(club, 1))
    assert (await club.event()).table(1, 1).status == "playing"


async def test_a_judge_seats_a_computer_which_plays_on(store: Store) -> None:
    club, seated = await two_tables_of_people(store)
    await everyone_stops_answering(club, seated)
    effects = await club.say("Org", "/tournament substitute 1 2", admin=True)
    assert not refused(effects)
    seats = await seats_of(club, 1)
    assert seats[1].get("bot") == "normal" and not seats[0].get("bot")
    assert "a computer sits in for" in club.said() and "By Org" in club.said()
    assert "a computer sits in for" in club.said(club.tables[(1, 1)].room)
    event = await club.event()
    logged = [g for g in await store.tournaments.logs(event.id) if g.action == "substitute"]
    assert [(g.table_number, g.data["seat"]) for g in logged] == [(1, 1)]


async def test_with_substitutes_on_a_computer_sits_in_by_itself(store: Store) -> None:
    club, seated = await two_tables_of_people(store, "substitutes=on")
    await everyone_stops_answering(club, seated)
    assert any(seat.get("bot") for seat in await seats_of(club, 1))
    assert "stopped answering; a computer sits in for them" in club.said()


async def test_bad_substitutions_change_nothing(store: Store) -> None:
    club, seated = await two_tables_of_people(store)
    for name in seated[1]:
        await club.say(name, "/join", club.tables[(1, 1)])
    before = await snapshot(club)
    seats = await seats_of(club, 1)
    for text in (
        "/tournament substitute 9 1", "/tournament substitute 1 9",
        "/tournament substitute 1 x", "/tournament substitute 1", "/tournament substitute",
        "/tournament substitute 2 1",  # table 2's players never came: no game in play
    ):  # fmt: skip
        effects = await club.say("Org", text, admin=True)
        assert refused(effects), text
        assert await snapshot(club) == before, text
    assert refused(await club.say("Ana", "/tournament substitute 1 2"))  # not a judge
    assert await seats_of(club, 1) == seats
    assert not any(isinstance(e, Say) and "sits in" in e.text for e in club.rooms["hall"])
