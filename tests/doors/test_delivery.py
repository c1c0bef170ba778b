"""The shared delivery core, through a fake platform and a fake service: the board edited
in place, posted anew when buried or asked for (the old one deleted), its post remembered
by the service (so a new delivery object, as after a restart, edits the same message), a
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
    Lobby,
    Person,
    Picture,
    Place,
    Popup,
    Post,
    Reply,
    Say,
    TurnCall,
)
from bot.doors import pictures
from bot.doors.delivery import Delivery, Pause, Platform, backoff, retry

ROOM = Place("fake", "-1", "-1")
ANA = Person("11", "Ana", "en")
BETO = Person("22", "Beto", "en")


@pytest.fixture(autouse=True)
def no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    async def png(effect: object) -> bytes:
        return b"png"

    for name in ("board_png", "hand_png", "leaderboard_png"):
        monkeypatch.setattr(pictures, name, png, raising=False)


@dataclass
class Service:
    """The service's memory of board posts (board_post, keep_board_post, board_shown)."""

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
    fake, service = Fake(), Service()
    delivery = Delivery(fake, service)
    await deliver(delivery, board(1))
    await deliver(delivery, board(2))
    assert fake.log == [("post", "board 1", "101"), ("edit", "board 2", "101")]
    assert service.posts[ROOM] == Post(1, "101", 2)


async def test_a_new_delivery_edits_the_board_the_service_remembers() -> None:
    service = Service()
    await deliver(Delivery(Fake(), service), board(1))
    again = Fake()  # a restarted process: nothing in memory but what the service keeps
    await deliver(Delivery(again, service), board(2))
    assert again.log == [("edit", "board 2", "101")]


async def test_a_buried_board_is_posted_anew_and_the_old_one_deleted() -> None:
    for numbered in (True, False):
        fake, service = Fake(numbered), Service()
        delivery = Delivery(fake, service)
        await deliver(delivery, board(1))
        for i in range(3):  # as many as the platform's limit: still in view
            delivery.seen(ROOM.room, 102 + i)
        await deliver(delivery, board(2))
        assert fake.log[-1] == ("edit", "board 2", "101"), numbered
        delivery.seen(ROOM.room, 105)  # one more: out of view
        await deliver(delivery, board(3))
        assert fake.log[-2:] == [("delete", "101"), ("post", "board 3", "102")], numbered
        assert service.posts[ROOM] == Post(1, "102", 3)
        await deliver(delivery, board(4))  # the new one is at the bottom now
        assert fake.log[-1] == ("edit", "board 4", "102"), numbered


async def test_the_bots_own_messages_bury_the_board_too() -> None:
    fake = Fake(numbered=False)
    delivery = Delivery(fake, Service())
    await deliver(delivery, board(1), *(Say(f"say {i}") for i in range(4)))
    await deliver(delivery, board(2))
    assert fake.log[-2:] == [("delete", "101"), ("post", "board 2", "106")]


async def test_a_board_asked_for_is_posted_anew() -> None:
    fake, service = Fake(), Service()
    delivery = Delivery(fake, service)
    await deliver(delivery, board(1))
    await deliver(delivery, board(1, repost=True))
    assert fake.log[-2:] == [("delete", "101"), ("post", "board 1", "102")]


async def test_a_board_deleted_by_someone_is_posted_anew() -> None:
    fake, service = Fake(), Service()
    delivery = Delivery(fake, service)
    await deliver(delivery, board(1))
    fake.gone.add("101")
    await deliver(delivery, board(2))
    assert fake.log[-1] == ("post", "board 2", "102") and ("delete", "101") not in fake.log


async def test_another_games_board_is_left_where_it_is() -> None:
    fake, service = Fake(), Service()
    delivery = Delivery(fake, service)
    await deliver(delivery, board(9, game=1, final=True))
    await deliver(delivery, board(1, game=2))
    assert fake.log == [("post", "board 9", "101"), ("post", "board 1", "102")]


async def test_a_superseded_board_is_dropped() -> None:
    fake = Fake()
    delivery = Delivery(fake, Service())
    await deliver(delivery, board(1), Say("between"), board(2), board(3))
    assert fake.log == [("room", "between"), ("post", "board 3", "102")]


async def test_a_hand_the_game_moved_past_is_not_sent() -> None:
    """A hand with buttons made at move 2 of a game now at move 3 (a restart's hand that a
    press overtook) stays unsent; the hand of move 3, another game's, and a hand with no
    buttons to press (the tiles at the deal) go."""
    fake, service = Fake(), Service(plies={1: 3})
    delivery = Delivery(fake, service)
    dealt = replace(hand(0), buttons=(), text="dealt")
    await deliver(delivery, dealt)
    await deliver(delivery, hand(2), hand(3, BETO), replace(hand(2, game=2), text="game 2"))
    sent = {entry[1:3] for entry in fake.log if entry[0] == "hand"}
    assert sent == {("Ana", "dealt"), ("Beto", "hand 3"), ("Ana", "game 2")}
    assert len(fake.log) == 3


async def test_a_person_is_told_once_per_game_to_open_their_private_messages() -> None:
    fake = Fake(closed=("11",))
    delivery = Delivery(fake, Service())
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
    delivery = Delivery(fake, Service())
    calls = (TurnCall("Ana, your turn", mention=(ANA,)), TurnCall("Beto!", mention=(BETO,)))
    said = Say("Ana played 6-4", mention=(ANA,))  # not a turn call: it stays a message
    await deliver(delivery, board(1), hand(1), hand(1, BETO), said, *calls)
    assert ("post", "board 1\nAna, your turn", "101") in fake.log  # her hand calls her
    assert ("room", "Beto!", "Beto") in fake.log  # his does not reach him: called here
    assert ("room", "Ana played 6-4", "Ana") in fake.log


async def test_each_kind_goes_to_its_primitive() -> None:
    fake = Fake()
    delivery = Delivery(fake, Service())
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
    await deliver(Delivery(fake, Service()), Say("hello"), board(1), origin="press")
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
