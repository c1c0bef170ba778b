"""The shared delivery core, through a fake platform and a fake of the doors' Posts: the
board edited in place, posted anew when buried or asked for (the old one deleted), its
post remembered in the Posts (so a new delivery object, as after a restart, edits the
same message), a
person told once per game to open their private messages, a superseded board dropped,
turn calls folded into the board, each kind of effect to its own primitive, retries."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace

import pytest

from bot.core.model import (
    Board,
    Button,
    Effect,
    File,
    Hand,
    Link,
    Lobby,
    OpenTables,
    Person,
    Picture,
    Place,
    Popup,
    Post,
    Reply,
    Say,
    TableToOpen,
    TurnCall,
)
from bot.doors import pictures
from bot.doors.delivery import Delivery
from bot.doors.platform import Platform
from bot.doors.retry import Pause, backoff, retry

ROOM = Place("fake", "-1", "-1")
ANA = Person("11", "Ana", "en")
BETO = Person("22", "Beto", "en")


@pytest.fixture(autouse=True)
def no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    async def png(effect: object) -> bytes:
        return b"png"

    for name in ("board_png", "hand_png", "picture_png"):
        monkeypatch.setattr(pictures, name, png, raising=False)


@dataclass
class FakePosts:
    """The doors' memory of board posts (board_post, keep_board_post, board_shown), as
    bot/core/posts.py keeps it in storage."""

    posts: dict[Place, Post] = field(default_factory=dict)
    plies: dict[int, int] = field(default_factory=dict)  # game: its moves saved so far

    async def board_post(self, place: Place) -> Post | None:
        return self.posts.get(place)

    async def keep_board_post(
        self, place: Place, game_id: int, message_id: str, move_number: int | None = None
    ) -> None:
        self.posts[place] = Post(game_id, message_id, move_number)

    async def board_shown(self, place: Place, move_number: int) -> None:
        post = self.posts[place]
        self.posts[place] = Post(post.game_id, post.message_id, move_number)

    async def hand_shown(self, place: Place, game_id: int, move_number: int) -> None:
        return None

    async def hand_current(self, place: Place, game_id: int, move_number: int) -> bool:
        return self.plies.get(game_id, 0) <= move_number


class Fake(Platform[str]):
    """Records what it was asked to do; message ids count up (like Telegram's) unless
    ``numbered`` is False (like Discord's)."""

    name = "fake"
    buried = 3
    private_lanes = True

    def __init__(self, numbered: bool = True, closed: tuple[str, ...] = ()) -> None:
        self.numbered = numbered
        self.closed = set(closed)  # people whose private messages are closed
        self.log: list[tuple[str, ...]] = []
        self.next_id = 100
        self.gone: set[str] = set()  # messages deleted by someone

    def _new(self) -> str:
        self.next_id += 1
        return str(self.next_id)

    def room_key(self, place: Place) -> str:
        return place.room

    async def post_board(self, place: Place, board: Board, png: bytes) -> str:
        message_id = self._new()
        self.log.append(("post", board.text, message_id))
        return message_id

    async def edit_board(self, place: Place, message_id: str, board: Board, png: bytes) -> bool:
        if message_id in self.gone:
            return False
        self.log.append(("edit", board.text, message_id))
        return True

    async def delete(self, place: Place, message_id: str) -> None:
        self.log.append(("delete", message_id))

    async def room_text(self, place: Place, say: Say, origin: str | None) -> str | None:
        self.log.append(("room", say.text, *(p.name for p in say.mention)))
        return self._new()

    async def lobby(self, place: Place, lobby: Lobby, origin: str | None) -> str | None:
        self.log.append(("lobby", lobby.text))
        return self._new()

    async def private_text(
        self, place: Place, person: Person, say: Say, origin: str | None
    ) -> bool:
        if person.platform_id in self.closed:
            return False
        self.log.append(("private", person.name, type(say).__name__, say.text))
        return True

    async def ask_to_open(self, place: Place, person: Person, game_id: int | None) -> str | None:
        self.log.append(("ask", person.name, str(game_id)))
        return self._new()

    async def hand(self, place: Place, hand: Hand, png: bytes, origin: str | None) -> bool:
        if hand.person.platform_id in self.closed:
            return False
        self.log.append(("hand", hand.person.name, hand.text, str(origin)))
        return True

    async def picture(
        self, place: Place, picture: Picture, png: bytes, origin: str | None
    ) -> str | None:
        self.log.append(("picture", picture.title, png.decode()))
        return None if picture.private else self._new()

    async def file(self, place: Place, file: File, origin: str | None) -> str | None:
        self.log.append(("file", file.name))
        return None if file.private else self._new()


def board(move: int, game: int = 1, **extra: object) -> Board:
    return Board(game, move, None, None, f"board {move}", **extra)  # type: ignore[arg-type]


def hand(move: int, person: Person = ANA, game: int = 1) -> Hand:
    buttons = (Button("6-4", "play 6-4", game, move),)
    return Hand(person, game, move, None, None, f"hand {move}", buttons)  # type: ignore[arg-type]


async def deliver(delivery: Delivery[str], *effects: Effect, origin: str | None = None) -> None:
    await delivery.deliver(ROOM, list(effects), origin)
    await delivery.idle()


async def test_the_board_is_edited_in_place_and_the_service_remembers_it() -> None:
    fake, posts = Fake(), FakePosts()
    delivery = Delivery(fake, posts)
    await deliver(delivery, board(1))
    await deliver(delivery, board(2))
    assert fake.log == [("post", "board 1", "101"), ("edit", "board 2", "101")]
    assert posts.posts[ROOM] == Post(1, "101", 2)


async def test_a_new_delivery_edits_the_board_the_service_remembers() -> None:
    posts = FakePosts()
    await deliver(Delivery(Fake(), posts), board(1))
    again = Fake()  # a restarted process: nothing in memory but what the Posts keep
    await deliver(Delivery(again, posts), board(2))
    assert again.log == [("edit", "board 2", "101")]


async def test_a_buried_board_is_posted_anew_and_the_old_one_deleted() -> None:
    for numbered in (True, False):
        fake, posts = Fake(numbered), FakePosts()
        delivery = Delivery(fake, posts)
        await deliver(delivery, board(1))
        for i in range(3):  # as many as the platform's limit: still in view
            delivery.seen(ROOM.room, 102 + i)
        await deliver(delivery, board(2))
        assert fake.log[-1] == ("edit", "board 2", "101"), numbered
        delivery.seen(ROOM.room, 105)  # one more: out of view
        await deliver(delivery, board(3))
        assert fake.log[-2:] == [("delete", "101"), ("post", "board 3", "102")], numbered
        assert posts.posts[ROOM] == Post(1, "102", 3)
        await deliver(delivery, board(4))  # the new one is at the bottom now
        assert fake.log[-1] == ("edit", "board 4", "102"), numbered


async def test_the_bots_own_messages_bury_the_board_too() -> None:
    fake = Fake(numbered=False)
    delivery = Delivery(fake, FakePosts())
    await deliver(delivery, board(1), *(Say(f"say {i}") for i in range(4)))
    await deliver(delivery, board(2))
    assert fake.log[-2:] == [("delete", "101"), ("post", "board 2", "106")]


async def test_a_board_asked_for_is_posted_anew() -> None:
    fake, posts = Fake(), FakePosts()
    delivery = Delivery(fake, posts)
    await deliver(delivery, board(1))
    await deliver(delivery, board(1, repost=True))
    assert fake.log[-2:] == [("delete", "101"), ("post", "board 1", "102")]


async def test_a_board_deleted_by_someone_is_posted_anew() -> None:
    fake, posts = Fake(), FakePosts()
    delivery = Delivery(fake, posts)
    await deliver(delivery, board(1))
    fake.gone.add("101")
    await deliver(delivery, board(2))
    assert fake.log[-1] == ("post", "board 2", "102") and ("delete", "101") not in fake.log


async def test_another_games_board_is_left_where_it_is() -> None:
    fake, posts = Fake(), FakePosts()
    delivery = Delivery(fake, posts)
    await deliver(delivery, board(9, game=1, final=True))
    await deliver(delivery, board(1, game=2))
    assert fake.log == [("post", "board 9", "101"), ("post", "board 1", "102")]


async def test_a_superseded_board_is_dropped() -> None:
    fake = Fake()
    delivery = Delivery(fake, FakePosts())
    await deliver(delivery, board(1), Say("between"), board(2), board(3))
    assert fake.log == [("room", "between"), ("post", "board 3", "102")]


async def test_a_hand_the_game_moved_past_is_not_sent() -> None:
    """A hand with buttons made at move 2 of a game now at move 3 (a restart's hand that a
    press overtook) stays unsent; the hand of move 3, another game's, and a hand with no
    buttons to press (the tiles at the deal) go."""
    fake, posts = Fake(), FakePosts(plies={1: 3})
    delivery = Delivery(fake, posts)
    dealt = replace(hand(0), buttons=(), text="dealt")
    await deliver(delivery, dealt)
    await deliver(delivery, hand(2), hand(3, BETO), replace(hand(2, game=2), text="game 2"))
    sent = {entry[1:3] for entry in fake.log if entry[0] == "hand"}
    assert sent == {("Ana", "dealt"), ("Beto", "hand 3"), ("Ana", "game 2")}
    assert len(fake.log) == 3


async def test_a_hand_that_went_out_after_a_move_loses_its_buttons() -> None:
    """Issue 32, 9: the platform held the hand of move 2 back (a 429 its library retried)
    and a move was made meanwhile, from the same hand asked for again: once it is out, its
    buttons go at once. A hand that went out in its moment keeps them."""

    class Late(Fake):
        def __init__(self, posts: FakePosts) -> None:
            super().__init__()
            self.posts = posts

        async def hand(self, place: Place, hand: Hand, png: bytes, origin: str | None) -> bool:
            sent = await super().hand(place, hand, png, origin)
            if hand.text == "hand 2":  # while it waited, the game moved on
                self.posts.plies[hand.game_id] = 3
            return sent

        async def bare_hand(self, hand: Hand) -> None:
            self.log.append(("bare_hand", hand.person.name, hand.text))

    posts = FakePosts(plies={1: 2})
    fake = Late(posts)
    delivery = Delivery(fake, posts)
    await deliver(delivery, hand(2))
    await deliver(delivery, hand(3, BETO))
    assert [e for e in fake.log if e[0] in ("hand", "bare_hand")] == [
        ("hand", "Ana", "hand 2", "None"),
        ("bare_hand", "Ana", "hand 2"),
        ("hand", "Beto", "hand 3", "None"),
    ]


async def test_a_person_is_told_once_per_game_to_open_their_private_messages() -> None:
    fake = Fake(closed=("11",))
    delivery = Delivery(fake, FakePosts())
    await deliver(delivery, board(1), hand(1), hand(2, BETO))
    await deliver(delivery, board(2), hand(2), Reply("only for Ana", private=ANA))
    asks = [entry for entry in fake.log if entry[0] == "ask"]
    # once for the game, once for a private answer outside it
    assert asks == [("ask", "Ana", "1"), ("ask", "Ana", "None")]
    assert ("hand", "Beto", "hand 2", "None") in fake.log
    await deliver(delivery, board(3, final=True))  # the game is over: a new one may ask
    await deliver(delivery, hand(1, game=2))
    assert fake.log[-1] == ("ask", "Ana", "2")
    await deliver(delivery, hand(1, game=1))
    assert fake.log[-1] == ("ask", "Ana", "1")  # game 1 was forgotten with its end


async def test_turn_calls_are_folded_into_the_board_when_the_hand_reaches_them() -> None:
    class Knowing(Fake):
        def unreachable(self, effects: list[Effect]) -> set[str]:
            return self.closed

    fake = Knowing(closed=("22",))
    delivery = Delivery(fake, FakePosts())
    calls = (TurnCall("Ana, your turn", mention=(ANA,)), TurnCall("Beto!", mention=(BETO,)))
    said = Say("Ana played 6-4", mention=(ANA,))  # not a turn call: it stays a message
    await deliver(delivery, board(1), hand(1), hand(1, BETO), said, *calls)
    assert ("post", "board 1\nAna, your turn", "101") in fake.log  # her hand calls her
    assert ("room", "Beto!", "Beto") in fake.log  # his does not reach him: called here
    assert ("room", "Ana played 6-4", "Ana") in fake.log


async def test_each_kind_goes_to_its_primitive() -> None:
    fake = Fake()
    delivery = Delivery(fake, FakePosts())
    leaderboard = Picture("Top", (), "Top: nobody")
    await deliver(
        delivery,
        Lobby("the lobby", buttons=(Button("Join", "join", 1),), game_id=1),
        Say("hello"),
        Popup("not your turn", private=ANA),
        Reply("help", private=ANA),
        leaderboard,
        File("game.json", b"{}", "the record"),
        hand(1),
        origin="press-1",
    )
    assert fake.log == [
        ("lobby", "the lobby"),
        ("room", "hello"),
        ("picture", "Top", "png"),
        ("file", "game.json"),
        ("private", "Ana", "Popup", "not your turn"),
        ("private", "Ana", "Reply", "help"),
        ("hand", "Ana", "hand 1", "press-1"),
    ]


async def test_a_room_closed_to_the_bot_is_the_platforms_to_handle() -> None:
    class Closed(Fake):
        async def room_text(self, place: Place, say: Say, origin: str | None) -> str | None:
            raise PermissionError("403")

        async def shut_out(self, place: Place, error: Exception, origin: str | None) -> bool:
            self.log.append(("shut out", type(error).__name__, str(origin)))
            return isinstance(error, PermissionError)

    fake = Closed()
    await deliver(Delivery(fake, FakePosts()), Say("hello"), board(1), origin="press")
    assert fake.log == [("shut out", "PermissionError", "press"), ("post", "board 1", "101")]


async def test_retries_wait_as_the_platform_says(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(asyncio, "sleep", sleep)

    def classify(error: Exception, attempt: int) -> Pause | None:
        if isinstance(error, TimeoutError):
            return Pause(backoff(attempt))
        if isinstance(error, OverflowError):  # "retry after 2"
            return Pause(2, asked=True)
        return None

    def failing(*errors: Exception) -> object:
        pending = list(errors)

        async def send() -> str:
            if pending:
                raise pending.pop(0)
            return "sent"

        return send

    assert await retry(failing(TimeoutError(), TimeoutError()), classify, 3) == "sent"  # type: ignore[arg-type]
    assert waits == [0.5, 1.0]
    with pytest.raises(TimeoutError):  # three tries, three failures
        await retry(failing(*[TimeoutError()] * 3), classify, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError):  # not worth another try
        await retry(failing(ValueError()), classify, 3)  # type: ignore[arg-type]
    waits.clear()
    # a wait the platform asked for is waited out even after the last try
    assert await retry(failing(*[OverflowError()] * 3), classify, 3) == "sent"  # type: ignore[arg-type]
    assert waits == [2, 2, 2]


@dataclass(frozen=True)
class Applause:
    """A kind of effect the delivery core has no way of its own for."""

    text: str


async def test_a_new_kind_of_effect_goes_to_the_platform_method_of_its_name() -> None:
    class Clapping(Fake):
        async def applause(self, place: Place, applause: Applause, origin: str | None) -> str:
            self.log.append(("applause", applause.text, str(origin)))
            return self._new()

    fake = Clapping()
    await deliver(Delivery(fake, FakePosts()), Applause("bravo"), origin="press")  # type: ignore[arg-type]
    assert fake.log == [("applause", "bravo", "press")]


async def test_the_platform_hears_once_when_an_updates_effects_went_out() -> None:
    """Every effect of an update out (a board dropped for a newer one counts as out), then
    the platform told, once; an update with nothing to deliver is told at once."""

    class Listening(Fake):
        async def delivered(self, origin: str) -> None:
            self.log.append(("delivered", origin))

    fake = Listening()
    delivery = Delivery(fake, FakePosts())
    await deliver(delivery, board(1), hand(1), board(2), Popup("no", private=ANA), origin="one")
    assert fake.log[-1] == ("delivered", "one")
    assert [e for e in fake.log if e[0] == "delivered"] == [("delivered", "one")]
    assert ("post", "board 2", "101") in fake.log  # board 1 gave way to board 2
    await deliver(delivery, origin="two")
    assert fake.log[-1] == ("delivered", "two")
    await deliver(delivery, Say("a timer's word"))  # no update: nobody to tell
    assert fake.log[-1] == ("room", "a timer's word")


async def test_turn_calls_stay_where_every_hand_is_seen_by_the_room() -> None:
    class OneScreen(Fake):
        notifies_privately = False

    fake = OneScreen()
    await deliver(Delivery(fake, FakePosts()), board(1), hand(1), TurnCall("Ana!", mention=(ANA,)))
    assert ("post", "board 1", "101") in fake.log
    assert ("room", "Ana!", "Ana") in fake.log


async def test_a_rounds_tables_get_rooms_noted_for_the_service_never_asked_of_it() -> None:
    """Each table's room opened and noted in the doors' Posts (the service makes the game
    there by a timer, and calls its players); the timer loop woken; the list with links,
    calling every player, in the tournament's room. The delivery core has no service to
    call."""

    class Rooms(Fake):
        async def open_room(self, place: Place, title: str, key: str) -> Place | None:
            self.log.append(("open", title, key))
            return None if key == "r1-t2" else replace(place, room=key)

        def link(self, place: Place) -> str:
            return f"<{place.room}>"

    class Noting(FakePosts):
        def __init__(self) -> None:
            super().__init__()
            self.opened: list[tuple[str, int, int, int]] = []

        async def table_opened(self, place: Place, tournament: int, round: int, table: int) -> None:
            self.opened.append((place.room, tournament, round, table))

    fake, posts, woken = Rooms(), Noting(), []
    tables = tuple(TableToOpen(n, f"Table {n}", (ANA,), f"Table {n}: A-B") for n in (1, 2))
    delivery = Delivery(fake, posts, lambda: woken.append(True))
    await deliver(delivery, OpenTables(7, 1, tables, "Round 1"))
    assert posts.opened == [("r1-t1", 7, 1, 1)]  # table 2 got no room: nothing to note
    assert woken == [True]
    assert fake.log == [
        ("open", "Table 1", "r1-t1"),
        ("open", "Table 2", "r1-t2"),
        ("room", "Round 1\nTable 1: A-B → <r1-t1>\nTable 2: A-B", "Ana", "Ana"),
    ]


async def test_a_big_rounds_list_of_tables_is_told_whole_in_texts_that_fit() -> None:
    """1,000 tables (a round of 2,000 entries) do not fit one text (Discord's hold 2,000
    characters, Telegram's 4,096): the list goes as several, in order, each within the
    limit with its mentions counted, each calling the players of its own tables."""

    class Rooms(Fake):
        text_limit = 2000
        mention_room = 24
        links: list[Link | None]

        async def open_room(self, place: Place, title: str, key: str) -> Place | None:
            return replace(place, room=key)

        def link(self, place: Place) -> str:
            return f"https://example.org/{place.room}"

        async def room_text(self, place: Place, say: Say, origin: str | None) -> str | None:
            self.links.append(say.link)
            return await super().room_text(place, say, origin)

    fake = Rooms()
    fake.links = []
    players = {n: (Person(f"{n}a", f"Player {n}a", "en"), Person(f"{n}b", f"Player {n}b", "en"))
               for n in range(1, 1001)}  # fmt: skip
    tables = tuple(
        TableToOpen(n, f"Table {n}", players[n], f"Table {n}: Team {2 * n} vs Team {2 * n + 1}")
        for n in range(1, 1001)
    )

    class Noting(FakePosts):
        async def table_opened(self, place: Place, tournament: int, round: int, table: int) -> None:
            return None

    page = Link("Standings", "tournament", 7, "k" * 22)  # the tournament's web page
    await deliver(Delivery(fake, Noting()), OpenTables(7, 1, tables, "Round 1 of 5", page))
    texts = [entry for entry in fake.log if entry[0] == "room"]
    # the tournament's page goes with the last of the texts, after the whole list
    assert fake.links[-1] == page and not any(fake.links[:-1]) and len(fake.links) == len(texts)
    assert len(texts) > 1
    lines = [line for _, text, *_ in texts for line in text.split("\n")]
    assert lines == ["Round 1 of 5"] + [
        f"Table {n}: Team {2 * n} vs Team {2 * n + 1} → https://example.org/r1-t{n}"
        for n in range(1, 1001)
    ]
    for _, text, *called in texts:
        assert len(text) + sum(len(name) + 24 for name in called) <= 2000
        numbers = [
            int(line.split(":")[0].split()[1])
            for line in text.split("\n")
            if line.startswith("Table ")
        ]
        assert called == [p.name for n in numbers for p in players[n]]
