"""The room's settings, and a person asking to be forgotten."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot import texts
from bot.handlers.lobby import unknown_preset
from bot.model import THEMES, Button, Reply
from bot.registry import handles
from bot.session import Refusal, Session
from engine.presets import preset_names
from engine.rules import option_bounds
from lang import LANGUAGES, language, tr

YES = ("on", "yes", "true", "1", "si", "sí", "sim")


@handles("settings")
async def settings(session: Session) -> None:
    """With no words, the room's settings; an admin changes one with its name and value
    (the dispatch refused anyone else)."""
    args = session.args
    if not args:
        session.tell(texts.settings_text(session.own, session.room.settings))
        return
    if len(args) < 2:
        raise Refusal(texts.SETTINGS_HOW)
    name, value = args[0].lower(), " ".join(args[1:])
    change = setting(name, value)
    changed = await session.store.people.change_settings(session.room.id, change)
    session.room = replace(session.room, settings=changed)
    session.desk.room_changed(session.community.id, session.room, session.now)
    if name == "language":
        session.lang = language(value)
    session.say(texts.SETTING_CHANGED, name=name, value=value)


def setting(name: str, value: str) -> dict[str, Any]:
    """The change ``/settings name value`` makes, checked."""
    if name == "language":
        if value not in LANGUAGES:
            raise Refusal(texts.BAD_LANGUAGE, languages=", ".join(LANGUAGES))
        return {"language": value}
    if name == "preset":
        if value not in preset_names():
            raise unknown_preset(value)
        return {"preset": value}
    if name == "theme":
        if value not in THEMES:
            raise Refusal(texts.BAD_THEME, themes=", ".join(THEMES))
        return {"theme": value}
    if name == "turn_timeout":
        low, high = option_bounds("turn_timeout")
        if not value.isdigit() or not low <= int(value) <= high:
            raise Refusal(texts.BAD_TIMEOUT)
        return {"turn_timeout": int(value)}
    if name == "numerals":
        return {"numerals": value.lower() in YES}
    raise Refusal(texts.UNKNOWN_SETTING, name=name)


@handles("forget")
async def forget(session: Session) -> None:
    """Asked first; "forget confirm" erases the person's name (their results stay)."""
    if session.args != ("confirm",):
        button = Button(tr(session.own, "Forget me"), "forget confirm")
        text = tr(session.own, texts.FORGET_ASK)
        session.effects.append(Reply(text, private=session.person, buttons=(button,)))
        return
    if await session.store.people.playing(session.user.id):
        # a seat must keep who sits in it until the game is over
        raise Refusal(texts.FORGET_PLAYING)
    await session.store.forget(session.user.id)
    session.desk.forget_user(session.command.place.platform, session.person.platform_id)
    session.tell(texts.FORGOTTEN)
