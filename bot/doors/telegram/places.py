"""Telegram's chats and users as the service's places and persons.

A group or supergroup is a room and its own community; each topic of a forum is a room
of its own (``<chat>:<topic>``) in the group's community.

What Telegram sends is cut to fit the database's columns before it goes anywhere (a
``language_code`` is not promised to be short), and names lose control characters and
line breaks (they go into pictures and messages).
"""

from __future__ import annotations

from telegram import Chat, User

from bot.core import Person, Place

PLATFORM = "telegram"
LOCALE = 8  # characters kept of a language code
NAME = 100  # of a person's name
TITLE = 200  # of a group's title
TABLE = "#"  # between a group's id and a tournament table's key (a group without topics)


def place_of(chat: Chat, topic: int | None = None, locale: str | None = None) -> Place:
    room = f"{chat.id}:{topic}" if topic is not None else str(chat.id)
    title = display_name(chat.title or chat.full_name or "", str(chat.id))[:TITLE]
    return Place(PLATFORM, str(chat.id), room, title, _locale(locale))


def chat_of(place: Place) -> tuple[int, int | None]:
    """The chat id and forum topic of a place (a table's room in a group without topics
    is the group's own chat)."""
    chat, _, topic = place.room.split(TABLE, 1)[0].partition(":")
    return int(chat), int(topic) if topic else None


def table_room(chat: int, key: str) -> str:
    """A tournament table's room in a group without topics: ``<chat>#<key>``. Its
    messages go to the group; presses of its buttons there act in it."""
    return f"{chat}{TABLE}{key}"


def room_of_table(place: Place, room: str) -> bool:
    """Whether ``room`` is a table's room of the group at ``place``."""
    return room.startswith(place.room.partition(":")[0] + TABLE)


def person_of(user: User, admin: bool = False) -> Person:
    name = display_name(user.full_name or "", str(user.id))[:NAME]
    return Person(str(user.id), name, _locale(user.language_code), admin, user.username)


def display_name(name: str, fallback: str) -> str:
    """``name`` without control characters or line breaks, its spaces collapsed;
    ``fallback`` when nothing is left."""
    # a line break or tab parts words; other invisible characters (a joiner inside an
    # emoji) just go
    kept = "".join(c if c.isprintable() else " " if c.isspace() else "" for c in name)
    shown = " ".join(kept.split())
    return shown or fallback


def _locale(code: str | None) -> str | None:
    return code[:LOCALE] if code else None
