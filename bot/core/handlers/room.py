"""The room's settings, and a person asking to be forgotten."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.core import house_rules, texts
from bot.core.handlers.lobby import DEFAULT_PRESET, unknown_preset
from bot.core.model import THEMES, Button, Reply, Say
from bot.core.progress import HAND_PAUSE_BOUNDS, turn_time
from bot.core.registry import SETTINGS, handles
from bot.core.saving import save
from bot.core.seats import Seat
from bot.core.session import Refusal, Session
from bot.core.showing import lobby_of
from bot.core.tournament import tables
from engine.presets import option_about, preset_names
from engine.rules import option_bounds, option_spec
from lang import LANGUAGES, language, tr

NEW_WORDS = ("new", "nuevo", "nueva", "nuevas", "novo", "nova", "novas")  # settings web new


@handles("settings")
async def settings(session: Session) -> None:
    """With no words, the room's settings; an admin changes one with its name and value
    (the dispatch refused anyone else)."""
    args = session.args
    if not args or (args[0].lower() == "options" and len(args) == 1):
        settings = session.room.settings
        house = {
            preset: house_rules.described_options(session.own, preset, options)
            for preset, options in house_rules.room_house(
                settings, settings.preset or DEFAULT_PRESET
            ).items()
        }
        listed = settings.shown()
        if listed.get("turn_timeout") == 0:  # turns wait for their player
            listed["turn_timeout"] = "off"
        if not await session.store.web.is_open(session.community.id):
            listed["web"] = "off"  # the community's pages (settings web on shows them)
        session.tell(texts.settings_text(session.own, listed, house))
        return
    if args[0].lower() == "options":
        await room_options(session, args[1:])
        return
    if len(args) < 2:  # a setting named alone: what it takes (the themes, the languages...)
        setting(args[0].lower(), "")
        raise Refusal(texts.SETTINGS_HOW)
    name, value = args[0].lower(), " ".join(args[1:])
    if name == "language" and value == "on":  # the dispatch reads Spanish "en" as "on"
        value = "en"
    change = setting(name, value)
    if name == "web":  # the community's, not the room's
        await web_pages(session, change["web"])
        return
    changed = await session.store.people.change_settings(session.room.id, **change)
    session.room = replace(session.room, settings=changed)
    session.desk.room_changed(session.community.id, session.room, session.now)
    if name == "language":
        session.lang = language(value)
    message, value = changed_words(session, name, change)
    session.say(message, name=name, value=value)


async def web_pages(session: Session, value: str) -> None:
    """``settings web on|off|new``: the community's pages shown or not (every key of
    theirs answers 404 while off), or given new keys (the old ones answer 404)."""
    web, community = session.store.web, session.community.id
    if value == "new":
        await web.renew(community, session.now)
    else:
        await web.set_open(community, value == "on", session.now)
    session.desk.links.forget()  # this process's links follow at once (others within 30 s)
    session.say(texts.WEB_CHANGED[value])


def changed_words(session: Session, name: str, change: dict[str, Any]) -> tuple[str, str]:
    """What the room is told of a setting changed: its message and the value shown."""
    value = change[name]
    if name == "numerals":
        return texts.SETTINGS_CHANGED["numerals:" + ("on" if value else "off")], ""
    if name == "language":
        return texts.SETTINGS_CHANGED[name], texts.LANGUAGE_NAMES[value]
    if name == "preset":
        return texts.SETTINGS_CHANGED[name], texts.preset_name(session.lang, value)
    if name == "turn_timeout" and not value:
        return texts.SETTINGS_CHANGED["turn_timeout:off"], ""
    return texts.SETTINGS_CHANGED.get(name, texts.SETTING_CHANGED), str(value)


async def room_options(session: Session, words: Sequence[str]) -> None:
    """``settings options [preset] name=value ...``: the house rules new games of the
    preset start from here (checked by the engine); ``reset`` clears them."""
    preset = session.room.settings.preset or DEFAULT_PRESET
    if words and "=" not in words[0] and words[0].lower() != "reset":
        preset = words[0].lower()
        if preset not in preset_names():
            raise unknown_preset(preset)
        words = words[1:]
    if not words:
        raise Refusal(texts.SETTINGS_OPTIONS_HOW)
    stored = dict(house_rules.room_house(session.room.settings, flat_as=None))
    if [w.lower() for w in words] == ["reset"]:
        stored.pop(preset, None)
        message, params = texts.SETTINGS_OPTIONS_RESET, {}
    else:
        try:
            chosen = house_rules.read_assignments(preset, words)
            rules = house_rules.build(preset, {**stored.get(preset, {}), **chosen})
        except house_rules.HouseRuleError as error:
            raise Refusal(error.message, **error.params) from None
        stored[preset] = rules.options()  # as the engine has them: only what differs
        shown = ", ".join(f"{n}={house_rules.typed(v)}" for n, v in house_rules.differing(rules))
        message, params = texts.SETTINGS_OPTIONS_SET, {"options": shown or "-"}
    stored = {p: o for p, o in stored.items() if o}
    changed = await session.store.people.change_settings(session.room.id, house=stored)
    session.room = replace(session.room, settings=changed)
    session.desk.room_changed(session.community.id, session.room, session.now)
    session.say(message, preset=texts.preset_name(session.lang, preset), **params)


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
        if house_rules.yes_or_no(value) is False:  # off: turns wait for their player
            return {"turn_timeout": 0}
        low, high = option_bounds("turn_timeout")
        if not (value.isascii() and value.isdigit()) or not low <= int(value) <= high:
            raise Refusal(texts.BAD_TIMEOUT)
        return {"turn_timeout": int(value)}
    if name == "hand_pause":  # no "off": a hand's end never waits for ever
        low, high = HAND_PAUSE_BOUNDS
        if not (value.isascii() and value.isdigit()) or not low <= int(value) <= high:
            raise Refusal(texts.BAD_HAND_PAUSE, low=low, high=high)
        return {"hand_pause": int(value)}
    if name == "numerals":
        flag = house_rules.yes_or_no(value)
        if flag is None:
            raise Refusal(texts.ON_OR_OFF, name=name)
        return {"numerals": flag}
    if name == "web":
        word = value.strip().lower()
        if word in NEW_WORDS:
            return {"web": "new"}
        flag = house_rules.yes_or_no(word)
        if flag is None:
            raise Refusal(texts.WEB_HOW)
        return {"web": "on" if flag else "off"}
    if name == "options":  # read apart: settings options [preset] name=value ...
        raise Refusal(texts.SETTINGS_OPTIONS_HOW)
    raise Refusal(texts.UNKNOWN_SETTING, name=name, names=", ".join(SETTINGS))


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


RULES_PER_PAGE = 20  # option buttons a page of the menu holds (Discord: 25 at most)


@handles("rule")
async def rule(session: Session) -> None:
    """The creator's house rules of the game in the lobby, by buttons or typed: ``rule``
    shows the preset's options, ``rule <option>`` its values, ``rule <option> <value>``
    sets it (the engine checks it) and the lobby shows it."""
    loaded = session.loaded
    tables.guard(loaded)
    if loaded.game is not None:
        raise Refusal(texts.ALREADY_BEGUN)
    rules, args = loaded.rules, session.args
    if not args or (args[0].isascii() and args[0].isdigit()):
        page = int(args[0]) - 1 if args else 0
        untimed = turn_time(session, rules) is None
        menu(session, *options_menu(session.lang, rules, loaded.row.id, page, untimed))
        return
    try:
        name = house_rules.read_name(rules.preset, args[0])
        if len(args) == 1:
            untimed = turn_time(session, rules) is None
            menu(session, *values_menu(session.lang, rules, name, loaded.row.id, untimed))
            return
        value = house_rules.read_value(name, " ".join(args[1:]))
        changed = house_rules.build(rules.preset, {name: value}, rules)
    except house_rules.HouseRuleError as error:
        raise Refusal(error.message, **error.params) from None
    count = changed.max_players  # a set or a family of more players changes the table
    taken = [i for i, s in enumerate(loaded.seats) if i >= count and not s.empty]
    if taken:
        option = f"{name}={house_rules.typed(value)}"
        raise Refusal(texts.RULE_SEAT_TAKEN, option=option, n=count, seat=taken[0] + 1)
    loaded.seats = loaded.seats[:count] + [Seat() for _ in range(count - len(loaded.seats))]
    loaded.record = dict(
        loaded.record, rules={"preset": changed.preset, "options": changed.options()}
    )
    loaded.rules = changed
    await save(session, loaded)
    session.effects.append(lobby_of(session, loaded))


def menu(session: Session, text: str, buttons: tuple[Button, ...]) -> None:
    """A menu of the rules for the creator: privately where the door answers privately in
    the room itself, whose presses act there (Discord's answers only the presser sees,
    the console); else in the room (Telegram's private answers go to a private chat,
    where a press acts only for a seat)."""
    if session.command.private_in_room:
        session.effects.append(Reply(text, private=session.person, buttons=buttons))
    else:
        session.effects.append(Say(text, buttons=buttons))


def options_menu(
    lang: str, rules: Any, game_id: int, page: int, untimed: bool = False
) -> tuple[str, tuple[Button, ...]]:
    """A page of the options of the game's preset, each a button with its value now
    (``untimed``: the room gives turns no timer)."""
    names = house_rules.settable(rules.preset)
    pages = max(1, -(-len(names) // RULES_PER_PAGE))
    page = min(max(page, 0), pages - 1)
    shown = names[page * RULES_PER_PAGE : (page + 1) * RULES_PER_PAGE]
    lines = [tr(lang, texts.RULE_MENU)]
    lines += [f"• {house_rules.option_line(lang, rules, n, untimed)}" for n in shown]
    buttons = [Button(house_rules.title(lang, n), f"rule {n}", game_id) for n in shown]
    if pages > 1:
        buttons.append(Button(tr(lang, "More"), f"rule {(page + 1) % pages + 1}", game_id))
    return "\n".join(lines), tuple(buttons)


def values_menu(
    lang: str, rules: Any, name: str, game_id: int, untimed: bool = False
) -> tuple[str, tuple[Button, ...]]:
    """The values of option ``name`` that fit the game, each a button (the one in force
    marked; ``untimed``: the room gives turns no timer, and none is marked)."""
    now = getattr(rules, name)
    shown = house_rules.value_words(lang, name, now, long=True, partners=rules.partners)
    if name == "turn_timeout" and untimed:
        now, shown = None, tr(lang, texts.NO_TURN_TIMER_SHORT)
    text = tr(
        lang,
        texts.RULE_VALUES,
        title=house_rules.title(lang, name),
        about=tr(lang, option_about(name)),
        value=shown,
    )
    spec = option_spec(name)
    if spec.bounds is not None:
        low, high = spec.bounds
        text += "\n" + tr(lang, texts.RULE_TYPE_NUMBER, name=name, low=low, high=high)
    buttons = [
        Button(
            ("✓ " if value == now else "") + house_rules.value_words(lang, name, value),
            f"rule {name} {house_rules.typed(value)}",
            game_id,
        )
        for value in house_rules.values_for(rules, name)
    ]
    buttons.append(Button(tr(lang, "Back"), "rule", game_id))
    return text, tuple(buttons)
