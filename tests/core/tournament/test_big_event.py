"""A big event (issue 31, 9): its round is paired off the event loop, so every room's
commands go on meanwhile; its standings are told in every room within the platforms'
limits (a caption of 1,024 characters, a picture Telegram takes), the whole table as a
file beside them. No timings here: bench/tournament.py measures them."""

from __future__ import annotations

import asyncio
import csv
import io
import random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.core.model import Command, Effect, File, Person, Picture, Place
from bot.core.service import GameService
from bot.core.tournament import rounds
from bot.core.tournament.model import Bye, Entry, Member, Settings, Table
from bot.core.tournament.state import Event
from render.plain import PICTURE_ROWS
from storage.store import Store
from tests.core.driver import Clock, seeded

HALL = Place("console", "club", "hall", "Club", "en")
ORGANISER = Person("org", "Org", "en", True)


async def test_a_round_is_paired_off_the_event_loop(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever a round's pairing takes, it takes it where no event loop waits on it."""
    where: list[str] = []

    def watched(pairing: Any) -> Any:
        def pair(*args: Any) -> Any:
            try:
                asyncio.get_running_loop()
                where.append("on the event loop")
            except RuntimeError:
                where.append("off the event loop")
            return pairing(*args)

        return pair

    monkeypatch.setattr(rounds, "swiss", watched(rounds.swiss))
    service = GameService(store, clock=Clock(), seeds=seeded(5))

    async def say(text: str) -> list[Effect]:
        words = text.lstrip("/").split()
        return await service.handle(Command(HALL, ORGANISER, words[0], tuple(words[1:])))

    await say("/tournament new Copa rounds=2 minutes=0 checkin=off")
    for n in range(1, 6):
        await say(f"/tournament register Bots {n} computer computer")
    await say("/tournament close")
    started = await say("/tournament start")
    assert any("Round 1" in getattr(e, "text", "") for e in started), started
    assert where == ["off the event loop"]


def big_event(count: int, played: int, seed: int = 3) -> Event:
    """``count`` pairs with long names, ``played`` rounds of results between them."""
    rng = random.Random(seed)
    entries = [
        Entry(
            i, f"Los Invencibles del Club Náutico de Ponce {i}", (Member(f"A{i}"), Member(f"B{i}"))
        )
        for i in range(1, count + 1)
    ]
    tables: list[Table] = []
    byes: list[Bye] = []
    for number in range(1, played + 1):
        order = [e.id for e in entries]
        rng.shuffle(order)
        if len(order) % 2:
            byes.append(Bye(number, order.pop()))
        for table, (a, b) in enumerate(zip(order[::2], order[1::2], strict=True), 1):
            winner = rng.randrange(2)
            score = (200, rng.randrange(200)) if winner == 0 else (rng.randrange(200), 200)
            tables.append(Table(number, table, ((a,), (b,)), "done", score, winner))
    row = SimpleNamespace(id=1, name="Copa Náutico", round=played, status="running")
    return Event(row, Settings(rounds=played + 1), entries, tables, byes, [])


def told(event: Event) -> list[Effect]:
    session: Any = SimpleNamespace(
        lang="es", room=SimpleNamespace(settings=SimpleNamespace(theme=None))
    )
    return rounds.standings_effects(session, event)


@pytest.mark.parametrize("count", [2_000, 224, 61])
def test_standings_of_a_big_event_fit_every_room(count: int) -> None:
    """The picture holds the top rows, the words the top lines a caption holds and where
    the rest is, and the file the whole table, in the standings' order."""
    event = big_event(count, played=4)
    [picture, file] = told(event)
    assert isinstance(picture, Picture) and isinstance(file, File)
    assert len(picture.rows) == PICTURE_ROWS
    assert [row[0] for row in picture.rows] == [str(i) for i in range(1, PICTURE_ROWS + 1)]
    assert len(picture.text) <= rounds.CAPTION
    text = picture.text.splitlines()
    assert text[0] == "Copa Náutico · clasificación tras la ronda 4"
    assert text[1].startswith("1. Los Invencibles") and text[-1].endswith("standings.csv.")
    assert f"… y {count - len(text) + 2} más" in text[-1]
    assert file.name == "standings.csv"
    read = list(csv.reader(io.StringIO(file.data.decode())))
    assert read[0][:2] == ["place", "team"] and len(read) == count + 1
    order = [int(row[0]) for row in read[1:]]
    assert order == list(range(1, count + 1))
    assert [row[1] for row in read[1 : PICTURE_ROWS + 1]] == [row[1] for row in picture.rows]


def test_a_small_event_is_told_whole_without_a_file() -> None:
    [picture] = told(big_event(8, played=3))
    assert isinstance(picture, Picture) and len(picture.rows) == 8
    assert len(picture.text.splitlines()) == 9 and "standings.csv" not in picture.text


async def test_the_list_of_a_big_event_fits_a_message_and_comes_whole_as_a_file(
    store: Store,
) -> None:
    """``/tournament list`` of 300 entries: the first lines a message holds (Discord's
    2,000 characters), how many more and where, and every entry in entries.csv."""
    service = GameService(store, clock=Clock(), seeds=seeded())

    async def say(text: str, person: Person = ORGANISER) -> list[Effect]:
        words = text.lstrip("/").split()
        return await service.handle(Command(HALL, person, words[0], tuple(words[1:])))

    await say("/tournament new Copa checkin=off")
    for n in range(1, 301):
        await say(f"/tournament register Los Invencibles de Ponce {n} computer computer")
    shown = await say("/tournament list", Person("eva", "Eva", "en"))
    [said, file] = shown
    assert isinstance(file, File) and file.name == "entries.csv"
    text = getattr(said, "text", "")
    assert len(text) <= 2000
    lines = text.splitlines()
    assert lines[1].startswith("1. Los Invencibles de Ponce 1:")
    assert lines[-1] == f"… and {300 - len(lines) + 2} more: the whole list is in entries.csv."
    read = list(csv.DictReader(io.StringIO(file.data.decode())))
    assert [r["team"] for r in read] == [f"Los Invencibles de Ponce {n}" for n in range(1, 301)]


def test_a_line_never_reads_more_won_than_played() -> None:
    """A bye is a round won (docs/tournaments.md): the line's won/played and the
    picture's played count it, so an entry that sat a round out never reads "3/2"."""
    event = big_event(7, played=3)  # an odd field: a bye each round
    [picture] = told(event)
    assert isinstance(picture, Picture)
    byes = {bye.entry for bye in event.byes}
    assert byes
    for line in picture.text.splitlines()[1:]:
        won, played = (int(n) for n in line.split(" · ")[1].split("/"))
        assert won <= played == 3, line
    assert all(row[2] == "3" for row in picture.rows)  # every entry: 3 rounds, a bye or a table
