"""The Telegram adapter's side of "every action is bound to its place": what it asks the
service for each press and command (a stub service records it), what it makes of
Telegram's users and chats, and how names go into its HTML."""

from __future__ import annotations

import html
from datetime import UTC, datetime
from typing import Any

import pytest
from telegram import CallbackQuery, Chat, Message, MessageEntity, Update, User

from bot.core.model import Button, Command, Effect, Hand, Person, Place
from bot.doors import texts
from bot.doors.config import Settings
from bot.doors.telegram.app import TelegramBot, stats_args
from bot.doors.telegram.delivery import _with_mentions
from bot.doors.telegram.places import person_of, place_of
from lang import tr

GROUP = Chat(-100777, Chat.SUPERGROUP, title="Barrio")
ANA = User(11, "Ana", False, language_code="en")
ROOM = Place("telegram", "-100555", "-100555")  # the room of the game the press names
NOW = datetime(2026, 11, 22, tzinfo=UTC)


class Service:
    """Records the commands; every game is played in ROOM."""

    def __init__(self, effects: list[Effect] | None = None) -> None:
        self.commands: list[Command] = []
        self.effects = effects or []

    async def place_of_game(self, game_id: int, platform: str) -> Place | None:
        return ROOM if game_id < 1000 and platform == ROOM.platform else None

    async def handle(self, command: Command) -> list[Effect]:
        self.commands.append(command)
        return self.effects


class Posts:
    """The doors' Posts as the rate limiter sees them: no shared count."""

    take_send = None


class Delivery:
    def __init__(self) -> None:
        self.delivered: list[tuple[Place, list[Effect]]] = []

    def seen(self, chat_id: int, message_id: int) -> None:
        pass

    async def deliver(self, place: Place, effects: list[Effect]) -> None:
        self.delivered.append((place, effects))


class Editor:
    """The part of the Bot a press uses: its answer, and a page turned."""

    def __init__(self) -> None:
        self.markups: list[Any] = []
        self.answers: list[str | None] = []

    async def edit_message_reply_markup(self, **params: Any) -> None:
        self.markups.append(params["reply_markup"])

    async def answer_callback_query(self, **params: Any) -> None:
        self.answers.append(params.get("text"))


def adapter(service: Service) -> TelegramBot:
    bot = TelegramBot(Settings(telegram_token="123:TEST"), service, Posts())  # type: ignore[arg-type]
    bot.delivery = Delivery()  # type: ignore[assignment]
    return bot


def press(chat: Chat, data: str, editor: Editor | None = None) -> CallbackQuery:
    message = Message(5, NOW, chat, from_user=User(123, "Bot", True))
    query = CallbackQuery("q1", ANA, "ci", message=message, data=data)
    for made in (message, query):
        made.set_bot(editor or Editor())  # type: ignore[arg-type]
    return query


async def pressed(
    bot: TelegramBot, chat: Chat, data: str, editor: Editor | None = None
) -> tuple[str | None, list[tuple[Place, list[Effect]]]]:
    """The press through the bot's handler of presses: its answer's words (None: none
    but the answer itself), and what was delivered."""
    editor = editor or Editor()
    await bot.on_press(Update(1, callback_query=press(chat, data, editor)), None)  # type: ignore[arg-type]
    [answer] = editor.answers  # every press is answered, once
    delivery = bot.delivery
    assert isinstance(delivery, Delivery)
    return answer, delivery.delivered


FORGED = [
    "join", "new", "begin fill", "cancel", "export", "rules", "top", "next", "kick 2",
    "settings language en", "add_ai normal", "play 6-4 on 6-6", "hand", "board", "stats",
]  # fmt: skip


@pytest.mark.parametrize("command", FORGED)
async def test_a_press_in_a_private_chat_is_private_and_in_its_games_room(command: str) -> None:
    service = Service()
    bot = adapter(service)
    await pressed(bot, Chat(ANA.id, Chat.PRIVATE), f"c|42|7|{command}")
    [sent] = service.commands
    assert sent.private and sent.game_id == 42 and sent.place == ROOM
    assert not sent.person.admin  # nobody administers a group from their private chat


async def test_a_move_press_sends_the_move_whole() -> None:
    service = Service()
    bot = adapter(service)
    await pressed(bot, Chat(ANA.id, Chat.PRIVATE), "m|42|7|1: 6-4 on 6-6")
    [sent] = service.commands
    assert (sent.action, sent.args, sent.move) == ("play", (), "1: 6-4 on 6-6")
    assert sent.private and sent.game_id == 42 and sent.move_number == 7


async def test_a_press_in_a_private_chat_naming_no_game_acts_nowhere() -> None:
    service = Service()
    bot = adapter(service)
    for data in ("c|-|-|join", "c|5000|1|join"):  # no game; a game that does not exist
        popup, delivered = await pressed(bot, Chat(ANA.id, Chat.PRIVATE), data)
        assert popup == tr("en", texts.NO_SUCH_GAME) and delivered == []
    assert service.commands == []


async def test_a_press_in_the_group_is_the_groups() -> None:
    service = Service()
    bot = adapter(service)
    await pressed(bot, GROUP, "c|42|7|join")
    [sent] = service.commands
    assert not sent.private and sent.place.room == str(GROUP.id)


async def test_a_page_press_in_the_group_changes_nothing() -> None:
    service = Service()
    bot = adapter(service)
    editor = Editor()
    popup, delivered = await pressed(bot, GROUP, "p|42|7|1", editor)
    assert popup == tr("en", texts.UNKNOWN_BUTTON) and delivered == []
    assert service.commands == [] and editor.markups == []


async def test_a_page_press_on_ones_own_hand_turns_the_page() -> None:
    buttons = tuple(Button(f"m{i}", f"play {i}-{i}", 42, 7) for i in range(25))
    hand = Hand(Person("11", "Ana"), 42, 7, None, None, "Your tiles", buttons)  # type: ignore[arg-type]
    service = Service([hand])
    bot = adapter(service)
    editor = Editor()
    popup, _ = await pressed(bot, Chat(ANA.id, Chat.PRIVATE), "p|42|7|1", editor)
    assert popup is None
    [sent] = service.commands
    assert sent.action == "hand" and sent.private and sent.game_id == 42 and sent.place == ROOM
    [markup] = editor.markups
    assert [b.text for b in markup.inline_keyboard[-1]] == ["◀", "2/3", "▶"]


async def test_the_private_link_brings_the_hand_of_that_game_only() -> None:
    service = Service()
    bot = adapter(service)
    message = Message(9, NOW, Chat(ANA.id, Chat.PRIVATE), from_user=ANA, text="/start h42")
    message._unfreeze()
    message.entities = (MessageEntity(MessageEntity.BOT_COMMAND, 0, 6),)
    await bot.on_command(Update(1, message=message), None)  # type: ignore[arg-type]
    [sent] = service.commands
    assert (sent.action, sent.private, sent.game_id, sent.place) == ("hand", True, 42, ROOM)


def command_message(text: str, **extra: Any) -> Message:
    return Message(20, NOW, GROUP, from_user=ANA, text=text, **extra)


def test_stats_of_a_person_telegram_points_at() -> None:
    beto = User(22, "Beto", False)
    mention = MessageEntity(MessageEntity.TEXT_MENTION, 7, 4, user=beto)
    assert stats_args(command_message("/stats Beto", entities=(mention,))) == ("user:22",)
    his = Message(3, NOW, GROUP, from_user=beto, text="hola")
    assert stats_args(command_message("/stats", reply_to_message=his)) == ("user:22",)
    bots = Message(4, NOW, GROUP, from_user=User(123, "Bot", True), text="board")
    assert stats_args(command_message("/stats", reply_to_message=bots)) == ()


def test_stats_of_a_name_or_username_as_typed() -> None:
    assert stats_args(command_message("/stats @beto_99")) == ("@beto_99",)
    assert stats_args(command_message("/stats@DominoBot  Beto   Pérez ")) == ("Beto Pérez",)
    assert stats_args(command_message("/stats")) == ()


def test_stats_in_a_forum_topic_is_not_a_reply_to_the_topics_creator() -> None:
    creator = User(33, "Carla", False)
    start = Message(77, NOW, GROUP, from_user=creator)
    message = command_message(
        "/stats", reply_to_message=start, message_thread_id=77, is_topic_message=True
    )
    assert stats_args(message) == ()


def test_what_telegram_sends_is_cut_to_fit_and_names_are_one_clean_line() -> None:
    user = User(
        44, "Ana\nMaría\t\x00", False, last_name="x" * 300, language_code="en-GB-oxendict",
        username="ana_m",
    )  # fmt: skip
    person = person_of(user)
    assert person.name.startswith("Ana María x") and len(person.name) == 100
    assert person.locale == "en-GB-ox" and person.handle == "ana_m"
    assert person_of(User(45, "\u200b\n", False)).name == "45"
    place = place_of(Chat(-1001, Chat.SUPERGROUP, title="T\n" * 300), None, "pt-BR-long-code")
    assert place.community_name is not None and len(place.community_name) == 200
    assert "\n" not in place.community_name and place.locale == "pt-BR-lo"


def test_names_go_into_html_escaped_and_linked_once() -> None:
    tricky = Person("7", "<b>amp</b> & a")
    plain = Person("8", "a")
    text = "Turn of <b>amp</b> & a, then a &amp; user"
    body = _with_mentions(text, (tricky, plain))
    assert body.count("<a href=") == 2
    link = f'<a href="tg://user?id=7">{html.escape(tricky.name)}</a>'
    assert body.startswith(f"Turn of {link}, then ")
    assert body.endswith('<a href="tg://user?id=8">a</a> &amp;amp; user')
    assert (
        _with_mentions("Hello", (Person("9", "Zoe"),)) == '<a href="tg://user?id=9">Zoe</a> Hello'
    )
