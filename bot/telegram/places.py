"""Telegram's chats and users as the service's places and persons.

A group or supergroup is a room and its own community; each topic of a forum is a room
of its own (``<chat>:<topic>``) in the group's community.
"""

from __future__ import annotations

from telegram import Chat, User

from bot.model import Person, Place

PLATFORM = "telegram"


def place_of(chat: Chat, topic: int | None = None, locale: str | None = None) -> Place:
    room = f"{chat.id}:{topic}" if topic is not None else str(chat.id)
    return Place(PLATFORM, str(chat.id), room, chat.title or chat.full_name, locale)


def chat_of(place: Place) -> tuple[int, int | None]:
    """The chat id and forum topic of a place."""
    chat, _, topic = place.room.partition(":")
    return int(chat), int(topic) if topic else None


def person_of(user: User, admin: bool = False) -> Person:
    return Person(str(user.id), (user.full_name or str(user.id))[:40], user.language_code, admin)
