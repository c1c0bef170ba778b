"""A club tournament end to end on Discord (issue 22), through the real program against
the fake Discord: two pairs of people and six computer pairs (the organiser's
substitutes) register in the tournament's channel, check in, and play three Swiss rounds
on the round clock in a thread per table; a judge takes 20 points from a team in the
channel and awards a forfeit from a table's thread; the bot is SIGKILLed in the middle of
a hand of round 2 and started again; the tournament goes on, every table of every round
is played once, the standings add up, and the final standings are posted in the channel
as text and as standings.png."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from tests.doors.discord.driver import (
    CHANNEL,
    GUILD,
    BotProcess,
    Table,
    command_of,
    custom_ids,
    has_file,
    leaked_tiles,
    moves,
    public_moves,
    words,
)
from tests.doors.discord.fake_discord import EPHEMERAL, FakeDiscord

JSON = dict[str, Any]
PNG = b"\x89PNG\r\n\x1a\n"
ORGANISER = "Org"
PEOPLE = {
    "Ana": 1_190_000_000_000_000_311,
    "Beto": 1_190_000_000_000_000_312,
    "Carla": 1_190_000_000_000_000_313,
    "Dani": 1_190_000_000_000_000_314,
    "Eva": 1_190_000_000_000_000_315,
}
PAIRS = {"Las Primas": ("Ana", "Beto"), "Los Dos": ("Carla", "Dani")}
BOTS = [f"Bots {n}" for n in range(1, 7)]
TARGET = 20  # a short game: most tables end with their first hand
# a line of the standings' text: "3. Las Primas · 1/2 · 40-25 · -20 · -5 · B 3"
STANDING = re.compile(
    r"^(\d+)\. (.+?) · (\d+)/(\d+) · (-?\d+)-(\d+)(?: · -(\d+))? · (-?\d+) · B [\d.]+ · H2H \d+$"
)


@dataclass
class Thread(Table):
    """A table's thread: its people play there; the hands pressed are only those of the
    table's game (a person's DMs also hold the hands of their earlier tables)."""

    game: int = 0

    def hands(self, name: str) -> list[JSON]:
        own = re.compile(rf"^dom:[a-z]:{self.game}:")
        return [m for m in super().hands(name) if any(own.match(c) for c in custom_ids(m))]


@dataclass
class Club:
    """The guild's tournament channel, the bot's database, and the tables' threads."""

    fake: FakeDiscord
    bot: BotProcess
    hall: Table
    threads: dict[tuple[int, int], int] = field(default_factory=dict)  # (round, table): id

    async def tournament(
        self, name: str, what: str, details: str = "", channel: int = CHANNEL
    ) -> list[str]:
        """``name`` runs ``/tournament what:<what> details:<details>``; what only they
        were answered (a refusal)."""
        options = {"what": what, **({"details": details} if details else {})}
        payload = self.fake.slash(
            GUILD, channel, self.hall.people[name], "tournament", None, options
        )
        iid = int(payload["id"])
        self.hall.interactions.append((name, iid))
        await self.hall.settled(iid, f"/tournament {what} {details}")
        return [words(m) for m in self.fake.interaction_messages(iid)]

    def said(self, channel: int = CHANNEL) -> str:
        return "\n".join(words(m) for m in self.fake.messages(channel))

    async def heard(self, text: str, channel: int = CHANNEL, timeout: float = 30) -> None:
        await self.fake.wait_for(lambda: text in self.said(channel), timeout, repr(text))

    def row(self) -> Any:
        [row] = self.bot.query("SELECT * FROM tournaments")
        return row

    def tables(self, number: int | None = None) -> list[Any]:
        rows = self.bot.query("SELECT * FROM tournament_tables ORDER BY round, number")
        return [r for r in rows if number is None or r["round"] == number]

    def entries(self) -> dict[int, str]:
        return {r["id"]: r["name"] for r in self.bot.query("SELECT * FROM tournament_entries")}

    def table_of(self, number: int, team: str) -> Any:
        """The table of round ``number`` where ``team`` plays."""
        ids = {i for i, n in self.entries().items() if n == team}
        return next(t for t in self.tables(number) if ids & set(sides(t)))

    async def opened(self, number: int) -> None:
        """Round ``number``'s tables: each one's thread, its game made there."""
        await self.heard(f"Round {number} of 3: the tables are open")

        def made() -> bool:
            rows = self.tables(number)
            return len(rows) == 4 and all(r["game_id"] for r in rows)

        await self.fake.wait_for(made, 20, f"the games of round {number}'s tables")
        titles = {t["name"]: int(t["id"]) for t in self.fake.threads(CHANNEL)}
        for row in self.tables(number):
            self.threads[(number, row["number"])] = titles[
                f"Table {row['number']} · Round {number}"
            ]

    def thread(self, number: int, team: str) -> Thread:
        """The people of ``team`` at their table of round ``number``."""
        row = self.table_of(number, team)
        people = {name: PEOPLE[name] for name in PAIRS[team]}
        return Thread(
            self.fake,
            channel=self.threads[(number, row["number"])],
            people=people,
            interactions=self.hall.interactions,
            game=row["game_id"],
        )

    async def sit(self, thread: Thread) -> None:
        """The table's people take their seats (/domino join in the thread)."""
        for name in thread.people:
            await thread.command(name, "join")

    async def round_over(self, number: int, timeout: float = 40) -> None:
        said = "Tournament Copa is over" if number == 3 else f"Round {number} is over"
        await self.heard(said, timeout=timeout)
        await self.fake.wait_for(
            lambda: len(self.standings()) >= number, 10, f"the standings after round {number}"
        )

    def standings(self) -> list[JSON]:
        """The standings posted in the channel (standings.png), oldest first."""
        return [m for m in self.fake.messages(CHANNEL) if has_file(m, "standings.png")]


@dataclass
class Seen:
    """What the fake Discord was asked, without the private messages (DMs, ephemeral
    answers) of people who are not at one table: the leak check (driver.leaked_tiles)
    reads one game's hands, and the other tables of the round play at the same time."""

    calls: list[Any]

    @classmethod
    def at(cls, fake: FakeDiscord, people: set[int]) -> Seen:
        owners = {
            str(c.response["id"]): int(c.json["recipient_id"])
            for c in fake.calls
            if c.ok and c.method == "POST" and c.path == "/users/@me/channels"
        }

        def theirs(call: Any) -> bool:
            message = call.response
            if not call.ok or not isinstance(message, dict) or "channel_id" not in message:
                return True
            if int(message.get("flags") or 0) & EPHEMERAL:
                user = (message.get("interaction_metadata") or {}).get("user") or {}
                return int(user.get("id") or 0) in people
            owner = owners.get(str(message["channel_id"]))
            return owner is None or owner in people

        return cls([c for c in fake.calls if theirs(c)])


async def hand_to_play(thread: Thread) -> None:
    """After the restart, the person to move has a hand to press: the one sent before the
    kill or after it; if none came (the process died between the board's edit and the
    hand's message, and the restart sends a hand only with a board that was behind:
    see the status file), they press "My hand" on the board, as a person would."""

    def fresh() -> bool:
        found = thread.newest_hand()
        if found is None or found[2] < thread.pressed_at:
            return False
        return found[2] > thread.pressed_at or found[1].get("id") != thread.pressed_id

    try:
        await thread.fake.wait_for(fresh, 5, "the hand of the person to move")
    except AssertionError:
        board = thread.board()
        assert board is not None
        name = next(n for n in thread.people if f"{n}, your turn" in words(board))
        await thread.my_hand(name)


def sides(row: Any) -> list[int]:
    a, b = json.loads(row["sides"])
    return [*a, *b]


def lines_of(posted: JSON) -> list[tuple[str, int, int, int, int, int]]:
    """(team, won, played, for, against, penalty) of a standings message's text."""
    found = []
    for line in words(posted).splitlines():
        match = STANDING.match(line.replace("\\", ""))
        if match:
            _, team, won, played, got, gave, pen, _ = match.groups()
            found.append((team, int(won), int(played), int(got), int(gave), int(pen or 0)))
    return found


async def test_eight_pairs_play_three_rounds_through_a_judge_and_a_kill(
    fake: FakeDiscord, bot: BotProcess, table: Table
) -> None:
    began = time.monotonic()
    hall = table
    club = Club(fake, bot, hall)
    hall.person(ORGANISER, 1_190_000_000_000_000_301, admin=True)
    for name, user_id in PEOPLE.items():
        hall.person(name, user_id)
        await hall.command(name, "help")  # written in the group once: the bot knows them

    # ----- registration, check-in --------------------------------------------------------
    await club.tournament(
        ORGANISER, "new", f"Copa rounds=3 minutes=1 grace=1 substitutes=on target={TARGET}"
    )
    await club.heard("Tournament Copa is open for registration: 3 rounds")
    refused = await club.tournament("Ana", "new", "Otra")  # not an admin
    assert refused and "Copa" not in refused[0], refused
    await club.tournament("Ana", "register", "Las Primas @beto")
    await club.tournament("Carla", "register", "Los Dos @dani")
    for partner in ("Beto", "Dani"):  # a named partner accepts before the pair counts
        await club.tournament(partner, "accept")
    for team in BOTS:
        await club.tournament(ORGANISER, "register", f"{team} computer computer")
    await club.heard("Bots 6 is in (Bots 6 A, Bots 6 B). 8 entries so far.")
    # a person in a pair cannot register again, nor a person register computers
    refused = await club.tournament("Beto", "register", "Otra @carla")
    assert any("already" in r for r in refused), refused
    refused = await club.tournament("Eva", "register", "Solos computer computer")
    assert refused, "a person registered a pair of computers"
    assert len(club.entries()) == 8
    await club.tournament(ORGANISER, "close")
    await club.heard("Registration is closed: 8 entries.")
    for name in ("Ana", "Carla"):
        await club.tournament(name, "checkin")
    for team in BOTS:
        await club.tournament(ORGANISER, "checkin", team)
    await club.heard("Bots 6 is checked in.")

    # ----- round 1: the people's pairs meet; a penalty in the channel --------------------
    await club.tournament(ORGANISER, "start")
    await club.opened(1)
    started = club.row()
    clock = json.loads(started["clock"])
    assert clock["ends_at"] - clock["started_at"] == 60  # the round's clock: 1 minute
    listed = next(m for m in fake.messages(CHANNEL) if "Round 1 of 3" in m["content"])
    for number in range(1, 5):  # the list links every table's thread
        assert f"<#{club.threads[(1, number)]}>" in listed["content"]
    assert {int(u["id"]) for u in listed["mentions"]} == {
        PEOPLE[n] for n in ("Ana", "Beto", "Carla", "Dani")
    }
    primas = club.thread(1, "Las Primas")
    dos = club.thread(1, "Los Dos")
    assert primas.channel == dos.channel  # Swiss round 1: entries in order, 1 against 2
    # someone not paired there cannot take a seat
    eva = Thread(
        fake, channel=primas.channel, people={"Eva": PEOPLE["Eva"]}, interactions=hall.interactions
    )
    answer = await eva.command("Eva", "join")
    assert answer and answer[0]["flags"] & EPHEMERAL, answer
    assert "seats are for its players" in words(answer[0])
    first = Thread(
        fake,
        channel=primas.channel,
        people={**primas.people, **dos.people},
        interactions=hall.interactions,
        game=primas.game,
    )
    await club.sit(first)
    await club.heard("Everyone is here: the game begins.", first.channel)
    assert "Game clock: 1 minute." in club.said(first.channel)
    refused = await club.tournament("Ana", "penalty", "Los Dos 20 rude")  # not a judge
    assert any("organiser" in r for r in refused), refused
    await club.tournament(ORGANISER, "penalty", "Las Primas 20 talking during play")
    # written on the sheet of their table's game (seed 001), told here and in its thread
    ruling = (
        "Penalty at table 1: Las Primas -20 (talking during play), written on the table's "
        "score sheet. By Org."
    )
    await club.heard(ruling)
    await club.heard(ruling, first.channel)
    await first.play_out()
    await club.round_over(1)
    await club.tournament(ORGANISER, "next")

    # ----- round 2: a forfeit from a table's thread; the bot killed mid-hand --------------
    await club.opened(2)
    primas, dos = club.thread(2, "Las Primas"), club.thread(2, "Los Dos")
    assert primas.channel != dos.channel
    await club.sit(primas)
    await dos.command("Carla", "join")  # Dani does not come
    await club.heard("Carla is at the table. Still missing: Dani.", dos.channel)
    forfeit_table = club.table_of(2, "Los Dos")
    opponent = club.entries()[
        next(e for e in sides(forfeit_table) if club.entries()[e] != "Los Dos")
    ]
    await club.tournament(
        ORGANISER, "forfeit", f"{forfeit_table['number']} {opponent}", channel=dos.channel
    )
    await club.heard(f"Table {forfeit_table['number']}: {opponent} wins by forfeit", dos.channel)
    await club.heard(f"Table {forfeit_table['number']}: {opponent} wins by forfeit")
    assert await primas.play_out(limit=3) == 3  # a few moves of the hand
    assert bot.query("SELECT status FROM games WHERE id = ?", primas.game)[0][0] == "playing"
    ends = json.loads(club.row()["clock"])["ends_at"]
    bot.kill()  # mid-round, mid-hand
    await bot.start()
    assert json.loads(club.row()["clock"])["ends_at"] == ends  # the round's clock goes on
    await hand_to_play(primas)
    await primas.play_out()
    await club.round_over(2)
    await club.tournament(ORGANISER, "next")

    # ----- round 3 -----------------------------------------------------------------------
    await club.opened(3)
    primas, dos = club.thread(3, "Las Primas"), club.thread(3, "Los Dos")
    for thread in (primas, dos):
        await club.sit(thread)
    for thread in (primas, dos):
        await thread.play_out()
    await club.round_over(3)
    await club.heard("Champions: ")

    # ----- nothing lost, everything adds up ------------------------------------------------
    assert club.row()["status"] == "finished"
    rows = club.tables()
    assert [(r["round"], r["number"]) for r in rows] == [
        (n, t) for n in (1, 2, 3) for t in (1, 2, 3, 4)
    ]
    assert all(r["status"] == "done" and r["game_id"] for r in rows)
    for r in rows:  # each table's result told once in the channel, the restart aside
        told = f"Table {r['number']} (round {r['round']}): "
        assert [m["content"].startswith(told) for m in fake.messages(CHANNEL)].count(True) == 1
    games = bot.query("SELECT id, status, room_id FROM games")
    assert len(games) == 12  # one game a table, none made twice
    assert len({r["game_id"] for r in rows}) == 12
    forfeited = club.table_of(2, "Los Dos")
    assert forfeited["ended_by"] == "forfeit"
    # the named team won it by forfeit, 200-0 (docs/tournaments.md: forfeit=200)
    names = club.entries()
    side = [names[e] for e in sides(forfeited)].index(opponent)
    assert forfeited["winner"] == side
    assert (forfeited["score_a"], forfeited["score_b"]) == ((200, 0) if side == 0 else (0, 200))
    met = [frozenset(sides(r)) for r in rows]
    assert len(met) == len(set(met))  # Swiss: nobody met twice
    final = lines_of(club.standings()[-1])
    assert len(final) == 8 and {t for t, *_ in final} == set(names.values()), words(
        club.standings()[-1]
    )
    assert sum(f for _, _, _, f, _, _ in final) == sum(a for _, _, _, _, a, _ in final)
    decided = sum(1 for r in rows if r["winner"] is not None)
    assert sum(w for _, w, _, _, _, _ in final) == decided
    assert all(p == 3 for _, _, p, _, _, _ in final)
    assert {t: pen for t, _, _, _, _, pen in final}[
        "Las Primas"
    ] == 0  # the penalty is in their table's score
    for posted in club.standings():
        assert fake.file_bytes(posted["attachments"][0]["id"]).startswith(PNG)
    assert len(club.standings()) == 3
    for (number, _), channel in club.threads.items():
        here = {
            PEOPLE[n]
            for team, pair in PAIRS.items()
            for n in pair
            if club.threads[(number, club.table_of(number, team)["number"])] == channel
        }
        seen: Any = Seen.at(fake, here)
        assert not leaked_tiles(seen, channel), leaked_tiles(seen, channel)
        assert not public_moves(fake, channel)
    print(f"the tournament took {time.monotonic() - began:.1f} s")


async def one_table(fake: FakeDiscord, bot: BotProcess, hall: Table) -> tuple[Club, Thread]:
    """A tournament of the two pairs of people alone (one round, one table), its table
    opened; the table's people (not yet seated) in its thread."""
    club = Club(fake, bot, hall)
    hall.person(ORGANISER, 1_190_000_000_000_000_301, admin=True)
    for name in ("Ana", "Beto", "Carla", "Dani"):
        hall.person(name, PEOPLE[name])
        await hall.command(name, "help")
    await club.tournament(ORGANISER, "new", "Copa rounds=1 minutes=0 checkin=off")
    await club.tournament("Ana", "register", "Las Primas @beto")
    await club.tournament("Carla", "register", "Los Dos @dani")
    for partner in ("Beto", "Dani"):  # a named partner accepts before the pair counts
        await club.tournament(partner, "accept")
    await club.tournament(ORGANISER, "close")
    await club.tournament(ORGANISER, "start")
    await club.heard("Round 1 of 1: the tables are open")
    await fake.wait_for(lambda: club.tables(1) and club.tables(1)[0]["game_id"], 20, "the table")
    [thread] = fake.threads(CHANNEL)
    game = club.tables(1)[0]["game_id"]
    people = {name: PEOPLE[name] for name in ("Ana", "Beto", "Carla", "Dani")}
    await club.heard("take your seats", int(thread["id"]))
    return club, Thread(
        fake, channel=int(thread["id"]), people=people, interactions=hall.interactions, game=game
    )


async def test_a_partner_named_by_a_discord_mention_is_registered(
    fake: FakeDiscord, bot: BotProcess, table: Table
) -> None:
    """Typing @ in a text option, Discord offers the members and sends the one picked as
    <@id>: that names the partner as well as their @username does."""
    club = Club(fake, bot, table)
    table.person(ORGANISER, 1_190_000_000_000_000_301, admin=True)
    for name in ("Ana", "Beto"):
        table.person(name, PEOPLE[name])
        await table.command(name, "help")
    await club.tournament(ORGANISER, "new", "Copa")
    refused = await club.tournament("Ana", "register", f"Las Primas {table.mention('Beto')}")
    assert not refused, refused
    await club.tournament("Beto", "accept")
    await club.heard("Las Primas is in (Ana, Beto).")


async def test_a_tables_lobby_offers_its_players_only_their_seats(
    fake: FakeDiscord, bot: BotProcess, table: Table
) -> None:
    _, thread = await one_table(fake, bot, table)
    lobby = await fake.wait_for(thread.lobby, 10, "the table's lobby")
    assert lobby is not None
    offered = [command_of(c) for c in custom_ids(lobby)]
    assert "creator can begin" not in words(lobby), words(lobby)
    assert set(offered) <= {"join", "leave"}, offered


async def test_a_hand_not_yet_delivered_when_the_bot_is_killed_is_sent_after_the_restart(
    fake: FakeDiscord, bot: BotProcess, table: Table
) -> None:
    club, thread = await one_table(fake, bot, table)
    await club.sit(thread)
    await club.heard("Everyone is here: the game begins.", thread.channel)
    await fake.wait_for(thread.board, 10, "the first board")
    assert await thread.play_out(limit=1) == 1
    name, hand, thread.pressed_at = await thread.next_hand()
    thread.pressed_id = hand["id"]
    channels = [fake.dm_channel(user) for user in thread.people.values()]
    dms = "|".join(str(channel["id"]) for channel in channels if channel is not None)
    direct = rf"^/channels/({dms})/messages$"
    # the next hand's direct message fails once (a 500: discord.py tries again in a second)
    fake.fail("POST", direct, status=500, times=1)
    updates, failed = thread.board_updates(), len(fake.calls_to("POST", direct))
    custom_id, values = moves(hand)[0]
    await thread.press(name, hand, custom_id, values)
    await fake.wait_for(lambda: thread.board_updates() > updates, 10, "the board after the move")
    await fake.wait_for(
        lambda: [c for c in fake.calls_to("POST", direct)[failed:] if c.status == 500],
        10,
        "the next hand's first try",
    )
    bot.kill()
    board = thread.board()
    assert board is not None
    to_move = next(n for n in thread.people if f"{n}, your turn" in words(board))
    before = len(thread.hands(to_move))
    await bot.start()
    await fake.wait_for(
        lambda: len(thread.hands(to_move)) > before, 15, f"{to_move}'s hand after the restart"
    )


async def test_without_a_round_clock_the_tables_have_no_clock(
    fake: FakeDiscord, bot: BotProcess, table: Table
) -> None:
    """``minutes=0``: no clock (bot/core/tournament/commands.py NUMBERS, docs/tournaments.md)."""
    _, thread = await one_table(fake, bot, table)  # minutes=0
    lobby = await fake.wait_for(thread.lobby, 10, "the table's lobby")
    assert lobby is not None
    text = words(lobby).lower()
    # the lobby says the table has no game clock (a house rule unlike the preset's 40)
    assert "40 minutes" not in text and "minutes=0" in text, text


async def test_registration_may_close_at_a_time(
    fake: FakeDiscord, bot: BotProcess, table: Table
) -> None:
    """docs/tournaments.md: ``closes`` (registration closes that many minutes from now) is
    taken with the others."""
    club = Club(fake, bot, table)
    table.person(ORGANISER, 1_190_000_000_000_000_301, admin=True)
    refused = await club.tournament(ORGANISER, "new", "Copa rounds=3 closes=30")
    assert not refused, refused
    await club.heard("Tournament Copa is open for registration")
