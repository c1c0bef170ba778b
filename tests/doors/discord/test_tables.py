"""A tournament's tables on Discord (issue 22): a public thread per table under the
tournament's channel, its players called there and its game's first effects in it, and
the list of tables with a link to each thread in the channel; where the bot may not open
threads, the list alone. Discord's part of delivery through discord.py against the fake
Discord, with a stub for the doors' Posts."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core import Post
from bot.core.model import Effect, OpenTables, Person, Place, Say, TableToOpen
from bot.doors.discord.delivery import DiscordDelivery, _body
from tests.doors.discord.fake_discord import CREATE_PUBLIC_THREADS, JSON, FakeDiscord

GUILD = 1_190_000_000_000_000_000
CHANNEL = 1_190_000_000_000_000_100
PEOPLE = {
    "Ana": 1_190_000_000_000_000_201,
    "Beto": 1_190_000_000_000_000_202,
    "Caro": 1_190_000_000_000_000_203,
    "Dani": 1_190_000_000_000_000_204,
}
TOURNAMENT_ROOM = Place("discord", str(GUILD), str(CHANNEL))
PAIRS = (("Ana", "Beto"), ("Caro", "Dani"))  # the two tables of round 1


class FakePosts:
    """The doors' Posts as the delivery core sees them: no board or lobby kept, each
    table's room noted; and what the service's timer then says in it."""

    def __init__(self) -> None:
        self.opened: list[tuple[Place, int, int, int]] = []

    async def board_post(self, place: Place) -> Post | None:
        return None

    async def keep_board_post(
        self, place: Place, game_id: int, message_id: str, move_number: int | None = None
    ) -> None:
        return None

    async def board_shown(self, place: Place, move_number: int) -> None:
        return None

    async def hand_shown(self, place: Place, game_id: int, move_number: int) -> None:
        return None

    async def hand_current(self, place: Place, game_id: int, move_number: int) -> bool:
        return True

    async def lobby_post(self, place: Place) -> Post | None:
        return None

    async def keep_lobby_post(self, place: Place, game_id: int, message_id: str) -> None:
        return None

    async def drop_lobby_post(self, place: Place) -> None:
        return None

    async def table_opened(
        self, place: Place, tournament_id: int, round_number: int, table: int
    ) -> None:
        self.opened.append((place, tournament_id, round_number, table))

    def games_made(self) -> list[tuple[Place, list[Effect]]]:
        """What the service's timers say in each table's room once it is noted: its
        players called, and its game begins there."""
        return [
            (place, [call(table), Say(f"Game of table {table} begins")])
            for place, _, _, table in self.opened
        ]


def call(table: int) -> Say:
    """A table's players called at its room."""
    a, b = PAIRS[table - 1]
    return Say(f"Table {table}: {a} against {b}, take your seats", mention=(person(a), person(b)))


def person(name: str) -> Person:
    return Person(str(PEOPLE[name]), name, "en")


def round_one(team: str | None = None) -> OpenTables:
    """Two tables of two players; the second's line names ``team`` instead of Caro."""
    tables = tuple(
        TableToOpen(
            number,
            f"Table {number} · Round 1",
            (person(a), person(b)),
            f"Table {number}: {team if team and number == 2 else a} – {b}",
        )
        for number, (a, b) in enumerate(PAIRS, start=1)
    )
    return OpenTables(7, 1, tables, "Round 1 is paired")


def named(text: str) -> str:
    """``text`` with each person's name as Discord's mention of them."""
    for name, user_id in PEOPLE.items():
        text = text.replace(name, f"<@{user_id}>")
    return text


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        server.guild(GUILD, "Dominó del barrio", locale="en-US")
        server.text_channel(GUILD, CHANNEL, "tournament")
        for name, user_id in PEOPLE.items():
            server.member(GUILD, user_id, name, locale="en-US")
        with server.patch_discord():
            yield server


@pytest.fixture
async def client(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A client connected to the gateway, the guild and its channels in its cache."""
    client = discord.Client(intents=discord.Intents(guilds=True), guild_ready_timeout=0.05)
    task = asyncio.create_task(client.start(fake.token))
    try:
        await fake.wait_for(lambda: client.is_ready() or task.done(), what="on_ready")
        if task.done():
            task.result()
        yield client
    finally:
        await client.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 10)


@pytest.fixture
def posts() -> FakePosts:
    return FakePosts()


async def open_round(client: discord.Client, posts: FakePosts, tables: OpenTables) -> None:
    delivery = DiscordDelivery(client, posts)  # type: ignore[arg-type]
    await delivery.deliver(TOURNAMENT_ROOM, [tables])
    await delivery.idle()
    for place, effects in posts.games_made():  # what the service's timers then deliver
        await delivery.deliver(place, effects)
    await delivery.idle()


def mentioned(message: JSON) -> set[int]:
    """The people a message notifies."""
    return {int(user["id"]) for user in message["mentions"]}


async def test_a_thread_per_table_with_the_list_linking_to_them(
    fake: FakeDiscord, client: discord.Client, posts: FakePosts
) -> None:
    await open_round(client, posts, round_one())

    threads = fake.threads(CHANNEL)
    assert [t["name"] for t in threads] == ["Table 1 · Round 1", "Table 2 · Round 1"]
    for number, (thread, pair) in enumerate(zip(threads, PAIRS, strict=True), 1):
        assert thread["owner_id"] == str(fake.bot_id)
        call, game = fake.messages(int(thread["id"]))
        first, second = (f"<@{PEOPLE[name]}>" for name in pair)
        assert call["content"] == f"Table {number}: {first} against {second}, take your seats"
        assert mentioned(call) == {PEOPLE[name] for name in pair}
        assert game["content"] == f"Game of table {number} begins"
    rooms = [(p.room, p.community, t, r, n) for p, t, r, n in posts.opened]
    assert rooms == [
        (thread["id"], str(GUILD), 7, 1, number) for number, thread in enumerate(threads, 1)
    ]

    [listed] = fake.messages(CHANNEL)
    one, two = (t["id"] for t in threads)
    assert listed["content"] == named(
        f"Round 1 is paired\nTable 1: Ana – Beto → <#{one}>\nTable 2: Caro – Dani → <#{two}>"
    )
    assert mentioned(listed) == set(PEOPLE.values())


async def test_a_name_that_looks_like_a_link_stays_as_written(
    fake: FakeDiscord, client: discord.Client, posts: FakePosts
) -> None:
    """Only the links to the threads the bot opened are links: a channel's mention in a
    team's name is shown as typed."""
    await open_round(client, posts, round_one(team=f"<#{CHANNEL}>"))
    [listed] = fake.messages(CHANNEL)
    two = fake.threads(CHANNEL)[1]["id"]
    assert named(f"Table 2: \\<#{CHANNEL}> – Dani → <#{two}>") in listed["content"]


async def test_without_leave_to_open_threads_the_tables_are_listed_without_rooms(
    fake: FakeDiscord, posts: FakePosts
) -> None:
    """The bot may not open threads in the channel: no room, no table's game made here,
    the list still calls every player. The client has not seen the channel (it is
    fetched), as with a channel made after the bot connected."""
    fake.lock_channel(CHANNEL, deny=CREATE_PUBLIC_THREADS)
    client = discord.Client(intents=discord.Intents(guilds=True))
    await client.login(fake.token)
    try:
        await open_round(client, posts, round_one())
    finally:
        await client.close()
    assert fake.threads(CHANNEL) == []
    assert posts.opened == []
    [listed] = fake.messages(CHANNEL)
    assert listed["content"] == named(
        "Round 1 is paired\nTable 1: Ana – Beto\nTable 2: Caro – Dani"
    )
    assert mentioned(listed) == set(PEOPLE.values())
    [refused] = fake.calls_to("POST", rf"^/channels/{CHANNEL}/threads$")[:1]
    assert refused.status == 403


@given(
    text=st.text(alphabet=st.sampled_from("<#>\\@!&0123 abc_*"), max_size=40),
    opened=st.sets(st.integers(0, 200), max_size=3),
    linked=st.integers(0, 200),
)
def test_only_the_threads_the_bot_opened_become_links(
    text: str, opened: set[int], linked: int
) -> None:
    """Whatever a name holds, a channel's mention in a message is a working one only for
    a thread the bot opened; a link the bot appends to one of them works."""
    opened.add(linked)
    body = _body(Say(f"{text} → <#{linked}>"), opened)
    shown = {int(n) for n in re.findall(r"(?<!\\)<#(\d+)>", body)}
    assert shown <= opened
    assert body.endswith(f"→ <#{linked}>")
