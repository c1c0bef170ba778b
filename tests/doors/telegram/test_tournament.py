"""A club tournament end to end on Telegram (issue 22), through the real program and the
fake Bot API: in a forum group, two pairs of people and six computer pairs register,
check in and play three Swiss rounds on the clock, a table a topic. A judge takes 20
points from a pair and awards a table by forfeit; a person who does not come has a
computer sit in for them (substitutes on). The process is killed (SIGKILL) in the middle
of a round and started again: the round goes on, and at the end every table of every
round was played and told once, the standings add up, and the final standings are
posted in the tournament's room as text and as standings.png."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sqlite3
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.doors.telegram.driver import GROUP, BotProcess, buttons
from tests.doors.telegram.fake_api import JSON, FakeTelegram

ORGANISER = ("Olga", 700)
PEOPLE = {"Ana": 701, "Beto": 702, "Carla": 703, "Dani": 704}
PRIMAS, DOS = "Las Primas", "Los Dos"  # Ana and Beto; Carla and Dani
BOTS = [f"Bots {n}" for n in range(1, 7)]
ROUNDS = 3
# one deal decides a game (target 1), the round clock runs (1 minute), a person who is
# not at their table a minute after it opens has a computer sit in
NEW = f"/tournament new Copa rounds={ROUNDS} minutes=1 grace=1 target=1 substitutes=on"
TABLE_DONE = re.compile(r"^Table (\d+) \(round (\d+)\): ", re.M)
RESEND = 2.0  # seconds before a person presses their hand's move again (a lost press)


@dataclass
class Club:
    """The forum group, its people, and the bot program (started again after a kill)."""

    tg: FakeTelegram
    home: Path
    process: BotProcess | None = None
    users: dict[str, JSON] = field(default_factory=dict)
    pressed: dict[tuple[int, int], float] = field(default_factory=dict)

    async def start(self) -> None:
        self.process = await BotProcess(self.tg, self.home).polling()

    async def say(self, name: str, text: str, topic: int | None = None) -> None:
        """``name`` writes ``text`` in the group (in a topic); returns once answered."""
        before = len(self.tg.calls)
        self.tg.send_message(GROUP, self.users[name], text, message_thread_id=topic)
        await self.tg.wait_for(
            lambda: any(
                c.method.lower() in ("sendmessage", "sendphoto", "editmessagetext")
                for c in self.tg.calls[before:]
            ),
            what=f"an answer to {text}",
        )

    def room(self) -> list[JSON]:
        """What the bot said in the tournament's room (the group, outside the topics)."""
        return [m for m in self.tg.sent_to(GROUP) if "message_thread_id" not in m]

    def room_text(self) -> str:
        return "\n".join(m.get("text") or m.get("caption") or "" for m in self.room())

    async def told(self, text: str, timeout: float = 10) -> None:
        """Wait until the tournament's room was told ``text``."""
        await self.tg.wait_for(lambda: text in self.room_text(), timeout, repr(text))

    def topics(self, round_number: int) -> dict[int, int]:
        """Table number: its topic, of a round."""
        found = {}
        for topic in self.tg.topics(GROUP):
            if m := re.fullmatch(rf"Table (\d+) · Round {round_number}", topic["name"]):
                found[int(m.group(1))] = topic["message_thread_id"]
        return found

    def table_of(self, round_number: int, name: str) -> tuple[int, int]:
        """(table, topic) where ``name`` was called to in that round."""
        for table, topic in self.topics(round_number).items():
            for message in self.tg.in_topic(GROUP, topic):
                if str(PEOPLE[name]) in mentioned(message):
                    return table, topic
        raise AssertionError(f"{name} was called to no table of round {round_number}")

    async def round_open(self, round_number: int, tables: int = 4) -> dict[int, int]:
        """The round's four topics, once each has called its players and the room has
        the list of tables."""

        def called() -> dict[int, int]:
            topics = self.topics(round_number)
            if len(topics) < tables or f"Round {round_number} of " not in self.room_text():
                return {}
            for table, topic in topics.items():
                call = f"Table {table} of round {round_number}: "
                if not any(call in m.get("text", "") for m in self.tg.in_topic(GROUP, topic)):
                    return {}
            return topics

        return await self.tg.wait_for(
            called, timeout=20, what=f"the {tables} tables of round {round_number}"
        )

    async def round_over(self, round_number: int, timeout: float = 30) -> None:
        last = (
            "Tournament Copa is over" if round_number == ROUNDS else f"Round {round_number} is over"
        )
        await self.tg.wait_for(
            lambda: last in self.room_text(), timeout, f"the end of round {round_number}"
        )

    def press_moves(self) -> None:
        """Each person presses the first move of their newest hand (again after a while:
        a press the killed process never answered)."""
        now = time.monotonic()
        for name, user_id in PEOPLE.items():
            hands = [m for m in self.tg.sent_to(user_id) if m.get("photo")]
            if not hands:
                continue
            latest = hands[-1]
            plays = [d for d in buttons(latest) if d.startswith(("m|", "c|"))]
            key = (user_id, latest["message_id"])
            if plays and now - self.pressed.get(key, 0) > RESEND:
                self.pressed[key] = now
                self.tg.press(user_id, self.users[name], latest["message_id"], plays[0])


def mentioned(message: JSON) -> set[str]:
    return {
        e["url"].removeprefix("tg://user?id=")
        for e in message.get("entities", [])
        if e["type"] == "text_link" and e["url"].startswith("tg://user?id=")
    }


@contextlib.asynccontextmanager
async def playing(club: Club) -> AsyncIterator[None]:
    """The people play their turns meanwhile."""

    async def play() -> None:
        while True:
            club.press_moves()
            await asyncio.sleep(0.1)

    task = asyncio.create_task(play())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@pytest.fixture
async def club(tg: FakeTelegram, tmp_path: Path) -> AsyncIterator[Club]:
    """The group as a forum (the bot an administrator, to open topics), its organiser
    (an administrator) and four people who have opened their private chat with the bot;
    the program running; stopped at the end, its log free of tracebacks."""
    tg.group(GROUP, "Dominó del barrio", is_forum=True)
    tg.set_admins(GROUP, [ORGANISER[1], tg.bot_id])
    club = Club(tg, tmp_path)
    for name, user_id in [ORGANISER, *PEOPLE.items()]:
        club.users[name] = tg.user(user_id, name, "en", username=name.lower())
        tg.open_private(user_id)
    await club.start()
    try:
        yield club
    finally:
        print(club.room_text())  # (shown when the test fails)
        for topic in tg.topics(GROUP):
            print("--", topic["name"])
            print(texts_in(club, topic["message_thread_id"]))
        assert club.process is not None
        await club.process.stop()
    assert not club.process.tracebacks(), club.process.tracebacks()


async def test_a_club_tournament_in_a_forum_survives_a_kill(club: Club) -> None:
    await run_tournament(club)
    check_the_record(club)


async def test_a_tables_lobby_waits_for_its_players(club: Club) -> None:
    """A table waiting for its people tells whose seats it keeps, and nobody to begin it
    (the judges run it)."""
    people, _ = await first_round_of_two_tables(club, "rounds=1 target=1")
    assert "Table 1 of round 1: Las Primas vs Los Dos." in people
    assert "the creator can begin" not in people, people


async def test_a_table_of_computers_calls_nobody_to_join(club: Club) -> None:
    _, computers = await first_round_of_two_tables(club, "rounds=1 target=1")
    assert "Table 2 of round 1: Bots 1 vs Bots 2." in computers
    assert "/join" not in computers, computers


async def test_a_tournament_without_a_round_clock_has_no_game_clock(club: Club) -> None:
    """minutes=0: no round clock, and no game clock at the tables (not the preset's)."""
    people, _ = await first_round_of_two_tables(club, "rounds=1 minutes=0")
    assert "Game clock" not in people, people
    assert "round clock" not in club.room_text()


async def first_round_of_two_tables(club: Club, settings: str) -> tuple[str, str]:
    """Round 1 of a tournament of two pairs of people and two of computers, opened:
    what the people's table's topic and the computers' said; the tournament cancelled."""
    org = ORGANISER[0]
    for name in PEOPLE:
        await club.say(name, "/help")
    await club.say(org, f"/tournament new Copa checkin=off {settings}")
    await club.say("Ana", f"/tournament register {PRIMAS} @beto")
    await club.say("Carla", f"/tournament register {DOS} @dani")
    for partner in ("Beto", "Dani"):  # a named partner accepts before the pair counts
        await club.say(partner, "/tournament accept")
    for bots in BOTS[:2]:
        await club.say(org, f"/tournament register {bots} computer computer")
    await club.say(org, "/tournament close")
    await club.say(org, "/tournament start")
    await club.round_open(1, tables=2)
    people, computers = (texts_in(club, club.topics(1)[n]) for n in (1, 2))
    await club.say(org, "/tournament cancel")
    return people, computers


async def run_tournament(club: Club) -> None:
    org = ORGANISER[0]
    for name in PEOPLE:  # the bot knows a partner who has written in the group
        await club.say(name, "/help")
    await club.say(org, NEW)
    await club.told("Tournament Copa is open for registration")
    await club.say("Ana", f"/tournament register {PRIMAS} @beto")
    await club.say("Carla", f"/tournament register {DOS} @dani")
    for partner in ("Beto", "Dani"):  # a named partner accepts before the pair counts
        await club.say(partner, "/tournament accept")
    for bots in BOTS:
        await club.say(org, f"/tournament register {bots} computer computer")
    await club.told("8 entries so far")
    await club.say(org, "/tournament close")
    for name in ("Ana", "Carla"):
        await club.say(name, "/tournament checkin")
    for bots in BOTS:
        await club.say(org, f"/tournament checkin {bots}")
    await club.say(org, "/tournament start")

    # round 1: everyone comes to their table; a judge's penalty while they play
    await club.round_open(1)
    async with playing(club):
        for name in PEOPLE:
            await club.say(name, "/join", club.table_of(1, name)[1])
        # written on the sheet of their table's game (seed 001), told there and here,
        # once the game is on (before, a judge is told to wait for the first deal)
        primas_table, primas_topic = club.table_of(1, "Ana")
        await club.tg.wait_for(
            lambda: "the game begins" in texts_in(club, primas_topic), 20, "Primas' game"
        )
        await club.say(org, f"/tournament penalty {PRIMAS} 20 talking during play")
        ruling = f"Penalty at table {primas_table}: {PRIMAS} -20 (talking during play)"
        await club.told(ruling)
        await club.tg.wait_for(
            lambda: any(ruling in (m.get("text") or "")
                        for m in club.tg.in_topic(GROUP, primas_topic)),
            10, "the ruling at the table",
        )  # fmt: skip
        await club.round_over(1)
    await club.say(org, "/tournament next")

    # round 2: Dani does not come (a computer sits in after the grace minute); the
    # program is killed while the round is played and started again
    await club.round_open(2)
    for name in ("Ana", "Beto", "Carla"):
        await club.say(name, "/join", club.table_of(2, name)[1])
    table, topic = club.table_of(2, "Ana")
    await club.tg.wait_for(  # nobody plays yet: the game waits for a person's move
        lambda: any(m.get("photo") for m in club.tg.in_topic(GROUP, topic)),
        what="the game of Las Primas' table under way",
    )
    assert club.process is not None
    club.process.kill()
    assert f"Table {table} (round 2)" not in club.room_text()
    await club.start()
    async with playing(club):
        await club.round_over(2, timeout=90)
    assert "did not come: computer players sit in for them" in texts_in(
        club, club.table_of(2, "Carla")[1]
    )
    await club.say(org, "/tournament next")

    # round 3: Los Dos do not come; the judge gives their table to their opponents
    await club.round_open(3)
    table, _ = club.table_of(3, "Carla")
    async with playing(club):
        for name in ("Ana", "Beto"):
            await club.say(name, "/join", club.table_of(3, name)[1])
        opponents = opponent_in(club, 3, table, DOS)
        await club.say(org, f"/tournament forfeit {table} {opponents}")
        await club.round_over(3)
        await club.told("Champions: ")


def texts_in(club: Club, topic: int) -> str:
    return "\n".join(
        m.get("text") or m.get("caption") or "" for m in club.tg.in_topic(GROUP, topic)
    )


def opponent_in(club: Club, round_number: int, table: int, team: str) -> str:
    """Who ``team`` plays at ``table``, as the table's topic called them."""
    topic = club.topics(round_number)[table]
    call = re.search(
        rf"Table {table} of round {round_number}: (.+?) vs (.+?)\. ", texts_in(club, topic)
    )
    assert call is not None
    a, b = call.groups()
    assert team in (a, b)
    return b if a == team else a


STANDING = re.compile(
    r"^(\d+)\. (.+?) · (\d+)/(\d+) · (-?\d+)-(\d+)(?: · -(\d+))? · (-?\d+) · B [\d.]+ · H2H \d+$"
)


def check_the_record(club: Club) -> None:
    """Nothing lost, nothing twice: every table of every round opened once (one topic,
    one game, its players called once), done once and told once; the judges' acts
    logged; the final standings posted as text and picture, and they add up."""
    db = sqlite3.connect(club.home / "bot.sqlite3")
    db.row_factory = sqlite3.Row
    try:
        (event,) = db.execute("SELECT id, status FROM tournaments").fetchall()
        tables = db.execute(
            "SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round, number",
            (event["id"],),
        ).fetchall()
        names = {r["id"]: r["name"] for r in db.execute("SELECT * FROM tournament_entries")}
        byes = db.execute("SELECT COUNT(*) FROM tournament_byes").fetchone()[0]
        logged = [tuple(r) for r in db.execute(
            "SELECT action, round, table_number, entry_id, points, reason FROM tournament_log"
        )]  # fmt: skip
        games = Counter(r["status"] for r in db.execute("SELECT status FROM games"))
    finally:
        db.close()
    assert event["status"] == "finished"
    every = [(r, n) for r in range(1, ROUNDS + 1) for n in range(1, 5)]
    assert [(t["round"], t["number"]) for t in tables] == every
    assert all(t["status"] == "done" and t["ended_by"] for t in tables)
    assert len({t["game_id"] for t in tables} - {None}) == len(every)
    # one game a table, none left in play: the forfeited one cancelled, the others over
    assert games == {"finished": len(every) - 1, "cancelled": 1}, games
    topics = club.tg.topics(GROUP)
    assert sorted(t["name"] for t in topics) == sorted(f"Table {n} · Round {r}" for r, n in every)
    for topic in topics:  # its players called once (not again after the restart)
        table, round_number = re.findall(r"\d+", topic["name"])
        said = texts_in(club, topic["message_thread_id"])
        assert said.count(f"Table {table} of round {round_number}: ") == 1, said
    room = club.room_text()
    told = Counter(TABLE_DONE.findall(room))
    assert told == {(str(n), str(r)): 1 for r, n in every}, told
    for r in range(1, ROUNDS + 1):  # each round opened once and closed once
        assert room.count(f"Round {r} of {ROUNDS}: the tables are open") == 1
        assert room.count(f"Round {r} is over") == (r < ROUNDS)
    assert room.count("Tournament Copa is over") == 1

    # the judges: a penalty with its reason, a forfeit; the people played the rest
    entry = {name: i for i, name in names.items()}
    primas_table = club.table_of(1, "Ana")[0]
    assert ("penalty", 1, primas_table, entry[PRIMAS], 20, "talking during play") in logged
    assert [a for a, *_ in logged].count("forfeit") == 1
    for t in tables:
        seated = {*members(t)[0], *members(t)[1]}
        if {entry[PRIMAS], entry[DOS]} & seated:
            if t["round"] == ROUNDS and entry[DOS] in seated:
                assert t["ended_by"] == "forfeit"
            else:
                assert t["ended_by"] in ("target", "clock") and t["hands"] > 0, dict(t)

    # the final standings, as text and as the picture, in the tournament's room
    final = club.room_text().split("Tournament Copa is over. Final standings:", 1)[1]
    assert f"Copa · standings after round {ROUNDS}" in final
    assert "Champions: " in final
    pictures = [
        c
        for c in club.tg.calls_to("sendPhoto")
        if c.ok
        and str(c.params.get("chat_id")) == str(GROUP)
        and not c.params.get("message_thread_id")
        and "standings.png" in c.file_names.values()
    ]
    assert len(pictures) == ROUNDS  # after each round
    assert pictures[-1].result["caption"].startswith(f"Copa · standings after round {ROUNDS}")
    rows = [m.groups() for line in final.splitlines() if (m := STANDING.match(line))]
    posted = {
        name: tuple(int(n or 0) for n in numbers) for _, name, *numbers in rows
    }  # name: (won, played, for, against, penalty, difference)
    assert posted.keys() == set(names.values()), final

    # they add up, and they are the tables' results
    assert sum(p[2] for p in posted.values()) == sum(p[3] for p in posted.values())
    decided = sum(1 for t in tables if t["winner"] is not None)
    assert sum(p[0] for p in posted.values()) == decided + byes
    assert all(p[1] == ROUNDS for p in posted.values())
    assert posted[PRIMAS][4] == 0  # the penalty is in their table's score
    assert all(pf - pa - pen == diff for _, _, pf, pa, pen, diff in posted.values())
    for i, name in names.items():
        scored = against = 0
        for t in tables:
            a, b = members(t)
            if i in a:
                scored, against = scored + t["score_a"], against + t["score_b"]
            elif i in b:
                scored, against = scored + t["score_b"], against + t["score_a"]
        assert posted[name][2:4] == (scored, against), name


def members(table: sqlite3.Row) -> list[list[int]]:
    """The entry ids of each side of a table."""
    sides: list[list[int]] = json.loads(table["sides"])
    return sides


async def test_the_last_two_tables_decided_at_once_are_both_told(club: Club) -> None:
    """Two judges' forfeits typed at the same moment in two tables' topics (rooms whose
    commands run side by side): each table's result is told once, the tournament closed
    once, and neither judge told that there is no tournament."""
    org = ORGANISER[0]
    more = {"Eva": 705, "Fede": 706, "Gabi": 707, "Hugo": 708}
    for name, user_id in more.items():
        club.users[name] = club.tg.user(user_id, name, "en", username=name.lower())
    for name in [*PEOPLE, *more]:
        await club.say(name, "/help")
    await club.say(org, "/tournament new Copa checkin=off rounds=1 target=1")
    for first, second, team in (("Ana", "beto", "A"), ("Carla", "dani", "B"),
                                ("Eva", "fede", "C"), ("Gabi", "hugo", "D")):  # fmt: skip
        await club.say(first, f"/tournament register {team} @{second}")
        await club.say(second.capitalize(), "/tournament accept")
    await club.say(org, "/tournament close")
    await club.say(org, "/tournament start")
    topics = await club.round_open(1, tables=2)
    assert "Table 1: A vs B" in club.room_text() and "Table 2: C vs D" in club.room_text()
    for table, (topic, winner) in enumerate(zip(topics.values(), "AC", strict=True), 1):
        forfeit = f"/tournament forfeit {table} {winner}"
        club.tg.send_message(GROUP, club.users[org], forfeit, message_thread_id=topic)
    await club.told("Champions: ")
    # stopped, the program first finishes the updates in hand and sends whatever is on
    # its way (TelegramBot.run: the application's stop, then the delivery idle)
    assert club.process is not None
    assert await club.process.stop() == 0
    room = club.room_text()
    assert room.count("Table 1 (round 1): A 200 – 0 B, by forfeit.") == 1, room
    assert room.count("Table 2 (round 1): C 200 – 0 D, by forfeit.") == 1, room
    assert room.count("Tournament Copa is over") == 1, room
    privately = [m.get("text", "") for m in club.tg.sent_to(ORGANISER[1])]
    assert not [t for t in privately if "There is no tournament" in t], privately
