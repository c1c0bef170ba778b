"""A tournament's tables on Telegram (issue 22): a forum topic per table where the group
has topics, its players called there and its game's first effects in it, and the list of
tables with a link to each topic in the tournament's room; in a group without topics (or
where the bot may not open one) the list alone, without links. Telegram's part of
delivery against the fake Bot API, with a stub for the doors' Posts."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot

from bot.core import Post
from bot.core.model import Effect, OpenTables, Person, Place, Say, TableToOpen
from bot.doors.delivery import Delivery
from bot.doors.telegram.delivery import telegram_delivery
from tests.doors.telegram.fake_api import JSON, FakeTelegram

FORUM = -1001234567890
PLAIN_GROUP = -1009876543210
PEOPLE = {"Ana": 701, "Beto": 702, "Caro": 703, "Dani": 704}
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


def round_one() -> OpenTables:
    tables = tuple(
        TableToOpen(
            number,
            f"Table {number} · Round 1",
            (person(a), person(b)),
            f"Table {number}: {a} – {b}",
        )
        for number, (a, b) in enumerate(PAIRS, start=1)
    )
    return OpenTables(7, 1, tables, "Round 1 is paired")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        for name, user_id in PEOPLE.items():
            fake.user(user_id, name, "en")
        yield fake


@pytest.fixture
async def posts() -> FakePosts:
    return FakePosts()


@pytest.fixture
async def delivery(tg: FakeTelegram, posts: FakePosts) -> AsyncIterator[Delivery[None]]:
    bot = Bot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url)
    async with bot:
        yield telegram_delivery(bot, posts, tg.username)


async def open_round(delivery: Delivery[None], chat: int) -> None:
    await delivery.deliver(Place("telegram", str(chat), str(chat)), [round_one()])
    await delivery.idle()
    await games_begin(delivery)


async def games_begin(delivery: Delivery[None]) -> None:
    """What the service's timers deliver once the tables' rooms are noted."""
    posts = delivery.posts
    assert isinstance(posts, FakePosts)
    for place, effects in posts.games_made():
        await delivery.deliver(place, effects)
    await delivery.idle()


def tournament_room(tg: FakeTelegram, chat: int) -> list[JSON]:
    """What the bot said in the group outside any topic."""
    return [m for m in tg.sent_to(chat) if "message_thread_id" not in m]


def called(message: JSON) -> set[str]:
    """The people a message mentions (their names made links to them)."""
    return {
        e["url"].removeprefix("tg://user?id=")
        for e in message.get("entities", [])
        if e["type"] == "text_link" and e["url"].startswith("tg://user?id=")
    }


async def test_a_topic_per_table_in_a_forum_with_the_list_linking_to_them(
    tg: FakeTelegram, delivery: Delivery[None], posts: FakePosts
) -> None:
    tg.group(FORUM, "Club", is_forum=True)
    tg.set_admins(FORUM, [PEOPLE["Ana"], tg.bot_id])
    await open_round(delivery, FORUM)

    topics = tg.topics(FORUM)
    assert [t["name"] for t in topics] == ["Table 1 · Round 1", "Table 2 · Round 1"]
    for number, (topic, pair) in enumerate(zip(topics, PAIRS, strict=True), 1):
        thread = topic["message_thread_id"]
        said = [m for m in tg.in_topic(FORUM, thread) if "text" in m]
        call, game = said
        assert call["text"] == f"Table {number}: {pair[0]} against {pair[1]}, take your seats"
        assert called(call) == {str(PEOPLE[name]) for name in pair}
        assert game["text"] == f"Game of table {number} begins"
    rooms = [(p.room, p.community, t, r, n) for p, t, r, n in posts.opened]
    assert rooms == [
        (f"{FORUM}:{topic['message_thread_id']}", str(FORUM), 7, 1, number)
        for number, topic in enumerate(topics, start=1)
    ]

    [listed] = tournament_room(tg, FORUM)
    one, two = (t["message_thread_id"] for t in topics)
    assert listed["text"] == (
        "Round 1 is paired\n"
        f"Table 1: Ana – Beto → https://t.me/c/1234567890/{one}\n"
        f"Table 2: Caro – Dani → https://t.me/c/1234567890/{two}"
    )
    assert called(listed) == {str(i) for i in PEOPLE.values()}


async def test_a_public_forum_links_its_topics_by_its_username(
    tg: FakeTelegram, delivery: Delivery[None]
) -> None:
    tg.group(FORUM, "Club", is_forum=True, username="clubdomino")
    tg.set_admins(FORUM, [PEOPLE["Ana"], tg.bot_id])
    await open_round(delivery, FORUM)
    one, two = (t["message_thread_id"] for t in tg.topics(FORUM))
    [listed] = tournament_room(tg, FORUM)
    assert f"Table 1: Ana – Beto → https://t.me/clubdomino/{one}" in listed["text"]
    assert f"Table 2: Caro – Dani → https://t.me/clubdomino/{two}" in listed["text"]


async def test_a_tournament_in_a_topic_opens_its_tables_beside_it(
    tg: FakeTelegram, delivery: Delivery[None], posts: FakePosts
) -> None:
    tg.group(FORUM, "Club", is_forum=True)
    tg.set_admins(FORUM, [PEOPLE["Ana"], tg.bot_id])
    place = Place("telegram", str(FORUM), f"{FORUM}:55")
    await delivery.deliver(place, [round_one()])
    await delivery.idle()
    await games_begin(delivery)
    assert len(tg.topics(FORUM)) == 2
    assert [p.room.partition(":")[0] for p, *_ in posts.opened] == [str(FORUM)] * 2
    [listed] = tg.in_topic(FORUM, 55)
    assert listed["text"].startswith("Round 1 is paired\nTable 1: Ana – Beto → https://t.me/c/")


@pytest.mark.parametrize("forum", [False, True], ids=["no topics", "not allowed to open one"])
async def test_without_a_topic_each_table_plays_in_the_group_itself(
    tg: FakeTelegram, delivery: Delivery[None], posts: FakePosts, forum: bool
) -> None:
    """A group without topics, or a forum where the bot is no administrator: each table
    is a room of the group itself (``<chat>#<key>``): its call and its game's messages go
    to the group, and the list calls every player."""
    tg.group(PLAIN_GROUP, "Club", is_forum=forum)
    await open_round(delivery, PLAIN_GROUP)
    assert tg.topics(PLAIN_GROUP) == []
    rooms = [p.room for p, *_ in posts.opened]
    assert len(rooms) == 2 and len(set(rooms)) == 2
    assert all(room.startswith(f"{PLAIN_GROUP}#") for room in rooms)
    said = [m["text"] for m in tg.sent_to(PLAIN_GROUP)]
    for number, (a, b) in enumerate(PAIRS, 1):
        assert f"Table {number}: {a} against {b}, take your seats" in said
        assert f"Game of table {number} begins" in said
    assert "Round 1 is paired\nTable 1: Ana – Beto\nTable 2: Caro – Dani" in said
    [listed] = [m for m in tg.sent_to(PLAIN_GROUP) if m["text"].startswith("Round 1")]
    assert called(listed) == {str(i) for i in PEOPLE.values()}
    assert len(tg.calls_to("createForumTopic")) == (2 if forum else 0)
