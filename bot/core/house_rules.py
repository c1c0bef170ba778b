"""House rules in the chat: the words ``name=value`` read against the engine's option
specs, the options a preset lets people set, and the rules in force said in words.

Pure functions over engine/rules.py: which option a preset takes, which value fits and
which combination goes together is always the engine's answer (a :class:`Rules` built,
or its ``RulesError``); nothing here re-derives a rule. Every text is a catalog id
(bot/core/texts.py, engine/option_texts.py), said in the reader's language.

>>> read_value("redeal_doubles", "off") is None, read_value("tens_scoring", "sí")
(True, True)
>>> rules = build("partnership", {"target": 200, "blocked_tie": "nobody"})
>>> [name for name, _ in differing(rules)]
['blocked_tie', 'target']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields
from functools import lru_cache
from typing import Any

from bot.core import texts
from engine import rules as engine_rules
from engine.errors import RulesError
from engine.option_texts import ABOUT, TITLE, VALUE, VALUE_ABOUT, VALUE_ABOUT_ALONE
from engine.presets import preset_names
from engine.rules import OPTION_NAMES, Rules, option_choices, option_spec
from lang import tr, trn
from storage.notes import RoomSettings

# On and off as people type them, in each language (house rules, /settings, a tournament's
# flags: one list for all).
YES = ("on", "yes", "true", "1", "si", "sí", "sim", "y")
NO = ("off", "no", "false", "0", "não", "nao", "n")
OFF = ("off", "none", "no", "-")  # "off" of an option that may be off (None)
# A few values to offer as buttons for an option that takes a number (any other is typed;
# the engine keeps those that fit).
NUMBERS: dict[str, tuple[int | None, ...]] = {
    "target": (50, 100, 150, 200, 250, 300, 500),
    "hand_size": (None, 5, 6, 7, 8, 9, 10, 12, 15),
    "min_opening_score": (0, 10, 15, 20, 25),
    "instant_win_hand_points": (None, 25, 50, 75, 100),
    "hands": (None, 1, 2, 3, 5, 10),
    "time_limit_minutes": (0, 20, 30, 40, 60, 90),
    "rounds": (None, 1, 3, 5, 7, 10, 13, 16),
    "turn_timeout": (30, 60, 90, 120, 300, 3600),
    "max_timeouts": (1, 2, 3, 5, 10),
}


class HouseRuleError(Exception):
    """Words that set no rule: ``message`` (a catalog id) and its ``params`` say why and
    what is valid; nothing was changed."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params = params


# ----- the options of a preset, and their values (the engine's answers) -----------------

_ORDER = tuple(f.name for f in fields(Rules))


def settable(preset: str) -> tuple[str, ...]:
    """The options people may set in ``preset``, in the order of :class:`Rules`: those
    the engine builds with a value other than the preset's own, alone or beside one other
    option (``blocked_both_score`` in a preset that writes to the winner)."""
    return _settable(preset, _key(preset))


def _key(preset: str) -> tuple[tuple[str, Any], ...]:
    """What ``preset`` sets (a preset may be registered again at run time)."""
    return tuple(sorted((k, repr(v)) for k, v in engine_rules.PRESETS.get(preset, {}).items()))


@lru_cache(maxsize=64)
def _settable(preset: str, _defaults: tuple[tuple[str, Any], ...]) -> tuple[str, ...]:
    base = Rules.from_preset(preset)
    alone = {name for name in _ORDER if name in _options() and _changes(base, name)}
    paired = set()
    others = [(n, v) for n in sorted(alone) for v in _candidates(n) if v != getattr(base, n)]
    for name in _options() - alone:
        for value in _candidates(name):
            # a value the engine refuses here, not one it builds and overrides (Mexican
            # Train's score_to follows positive_scoring: it is not the players' to set)
            if value == getattr(base, name) or not _refused(base, {name: value}):
                continue
            if any(_fits(base, {name: value, other: v}) for other, v in others):
                paired.add(name)
                break
    return tuple(name for name in _ORDER if name in alone | paired)


def _options() -> set[str]:
    return set(OPTION_NAMES)


def _candidates(name: str, offered: bool = False) -> tuple[Any, ...]:
    """The values worth trying of option ``name``: its choices, or a few numbers and its
    bounds (``offered``: the numbers a button offers, without the bounds)."""
    spec = option_spec(name)
    if spec.flag or spec.choices is not None:
        return option_choices(name)
    assert spec.bounds is not None
    low, high = spec.bounds
    found = [v for v in NUMBERS.get(name, ()) if v is None or low <= v <= high]
    if offered and found:
        return tuple(found)
    return tuple(dict.fromkeys([*found, low, high, *([None] if spec.nullable else [])]))


def _changes(base: Rules, name: str) -> bool:
    return any(
        _fits(base, {name: value}) for value in _candidates(name) if value != getattr(base, name)
    )


def _fits(rules: Rules, options: Mapping[str, Any]) -> bool:
    """Whether the engine builds ``rules`` with ``options``, holding each of them."""
    try:
        built = rules.with_options(**options)
    except RulesError:
        return False
    return all(getattr(built, name) == value for name, value in options.items())


def _refused(rules: Rules, options: Mapping[str, Any]) -> bool:
    """Whether the engine refuses ``rules`` with ``options`` (a ``RulesError``)."""
    try:
        rules.with_options(**options)
    except RulesError:
        return True
    return False


def values_for(rules: Rules, name: str) -> tuple[Any, ...]:
    """The values of ``name`` to offer on ``rules`` (as buttons): each one the engine
    builds there; numbers: a few of them (any other is typed)."""
    now = getattr(rules, name)
    found = [v for v in _candidates(name, offered=True) if v == now or _fits(rules, {name: v})]
    if now not in found:  # a number typed: offered beside the others
        found.append(now)
    return tuple(found)


# ----- reading what people type ---------------------------------------------------------


def typed(value: Any) -> str:
    """How a value is typed: ``on``/``off`` for flags and "off" options, else as is."""
    if value is True:
        return "on"
    if value is False or value is None:
        return "off"
    return str(value)


def read_value(name: str, text: str) -> Any:
    """The value ``text`` names for option ``name`` (raises :class:`HouseRuleError` with
    the option's values)."""
    spec = option_spec(name)
    word = text.strip().lower()
    if spec.flag:
        flag = yes_or_no(word)
        if flag is not None:
            return flag
    elif spec.choices is not None:
        for choice in spec.choices:
            if word == typed(choice) or (choice is None and word in OFF):
                return choice
    else:
        assert spec.bounds is not None
        low, high = spec.bounds
        if spec.nullable and word in OFF:
            return None
        if word.isascii() and word.isdigit() and low <= int(word) <= high:
            return int(word)
        message = texts.BAD_NUMBER_OR_OFF if spec.nullable else texts.BAD_NUMBER_VALUE
        raise HouseRuleError(message, text=text, name=name, low=low, high=high)
    raise HouseRuleError(texts.BAD_VALUE, text=text, name=name, values=values_text(name))


def yes_or_no(text: str) -> bool | None:
    """``text`` read as on (True) or off (False); None: neither."""
    word = text.strip().lower()
    return True if word in YES else False if word in NO else None


def values_text(name: str) -> str:
    """The values of a choice or a flag as typed: "closer_wins, nobody"."""
    return ", ".join(dict.fromkeys(typed(v) for v in option_choices(name)))


def read_name(preset: str, text: str) -> str:
    """The option ``text`` names in ``preset`` (raises :class:`HouseRuleError` with the
    options of the preset)."""
    name = text.strip().lower().replace("-", "_")
    if name not in settable(preset):
        raise HouseRuleError(
            texts.UNKNOWN_OPTION, name=text, preset=preset, names=", ".join(settable(preset))
        )
    return name


def read_assignments(preset: str, words: Iterable[str]) -> dict[str, Any]:
    """The options of ``name=value`` words, each name one of ``preset``'s and each value
    one of the option's (raises :class:`HouseRuleError`)."""
    found: dict[str, Any] = {}
    for word in words:
        name, equals, value = word.partition("=")
        if not equals or not value:
            raise HouseRuleError(texts.NOT_AN_ASSIGNMENT, text=word)
        option = read_name(preset, name)
        found[option] = read_value(option, value)
    return found


def build(preset: str, options: Mapping[str, Any], rules: Rules | None = None) -> Rules:
    """``preset`` with ``options`` (over ``rules``, the preset's rules as they are), as
    the engine builds it; when it refuses, :class:`HouseRuleError` says which of the
    options do not go together, or which values of one fit."""
    start = rules if rules is not None else Rules.from_preset(preset)
    try:
        return start.with_options(**options)
    except RulesError:
        pass
    for name, value in options.items():  # one that fits nothing here
        if not _fits(start, {name: value}):
            fitting = [typed(v) for v in values_for(start, name)]
            raise HouseRuleError(
                texts.OPTION_DOES_NOT_FIT,
                option=f"{name}={typed(value)}",
                preset=preset,
                name=name,
                values=", ".join(dict.fromkeys(fitting)) or "-",
            )
    kept = dict(options)  # the fewest that still do not go together
    for name in list(options):
        trial = {k: v for k, v in kept.items() if k != name}
        if not _fits(start, trial):
            kept = trial
    raise HouseRuleError(
        texts.DO_NOT_GO_TOGETHER,
        options=", ".join(f"{k}={typed(v)}" for k, v in kept.items()),
        preset=preset,
    )


def room_defaults(settings: RoomSettings, preset: str) -> dict[str, Any]:
    """The room's house rules for ``preset``, with its turn timeout. A room of an older
    version may hold one set of options for every preset: those are read as the defaults
    of any preset."""
    found = dict(settings.house_for_all or settings.house.get(preset, {}))
    # the room's turn timeout (/settings turn_timeout) is its games' unless a house rule
    # of the preset says otherwise: the lobby and /rule show the time the turns will have
    if settings.turn_timeout and "turn_timeout" not in found:
        found["turn_timeout"] = settings.turn_timeout
    return found


def room_house(settings: RoomSettings, flat_as: str | None) -> dict[str, dict[str, Any]]:
    """Every preset's house rules in the room. The older set for every preset is shown as
    preset ``flat_as``'s (None: left out, as when they are written again)."""
    if settings.house_for_all:
        return {flat_as: dict(settings.house_for_all)} if flat_as is not None else {}
    return {p: dict(o) for p, o in settings.house.items() if o}


def room_rules(settings: RoomSettings, preset: str) -> Rules:
    """``preset`` with the room's house rules for it (the plain preset when they no
    longer fit it)."""
    try:
        return Rules.from_preset(preset, **room_defaults(settings, preset))
    except (RulesError, TypeError):
        return Rules.from_preset(preset)


# ----- saying rules in words -------------------------------------------------------------


def differing(rules: Rules) -> list[tuple[str, Any]]:
    """The options of ``rules`` that differ from its preset's, in the order of
    :class:`Rules`."""
    options = rules.options()
    return [(name, options[name]) for name in _ORDER if name in options]


def title(lang: str, name: str) -> str:
    return tr(lang, TITLE.get(name, name))


def value_words(lang: str, name: str, value: Any, long: bool = False, partners: bool = True) -> str:
    """A value in words: "nobody wins", "yes", "off", "200" (``long``: the longer words
    where a value has them; ``partners``: said of teams, else of players alone)."""
    if long and not partners and (name, value) in VALUE_ABOUT_ALONE:
        return tr(lang, VALUE_ABOUT_ALONE[(name, value)])
    if long and (name, value) in VALUE_ABOUT:
        return tr(lang, VALUE_ABOUT[(name, value)])
    if (name, value) in VALUE:
        return tr(lang, VALUE[(name, value)])
    if value is True:
        return tr(lang, "yes")
    if value is False:
        return tr(lang, "no")
    if value is None:
        return tr(lang, "off")
    return str(value)


def described(lang: str, name: str, value: Any, partners: bool = True) -> str:
    """One option in force: what it is and its value in words (``partners``: a game of
    teams)."""
    about = tr(lang, ABOUT.get(name, name)).rstrip(".")
    words = value_words(lang, name, value, long=True, partners=partners)
    return f"{about}: {words} ({name}={typed(value)})"


def count_line(lang: str, rules: Rules) -> str:
    """What the game counts: points to a target (and which way), hands or rounds."""
    if rules.family == "train":
        rounds = rules.rounds or rules.set + 1  # one per engine double, N-N down to 0-0
        counted = texts.COUNT_ROUNDS_HIGH if rules.positive_scoring else texts.COUNT_ROUNDS_LOW
        return trn(lang, *counted, rounds, n=rounds)
    if rules.single_hand:
        line = tr(lang, texts.COUNT_ONE_HAND)
    elif rules.family == "divisor" and rules.target is None:
        line = tr(lang, texts.COUNT_HANDS, n=rules.hands)
    elif rules.family == "divisor":
        line = tr(lang, texts.COUNT_TARGET_HIGHEST, target=rules.target)
    elif rules.score_to == "loser" and rules.partners:
        line = tr(lang, texts.COUNT_TARGET_TEAM_LOSES, target=rules.target)
    elif rules.score_to == "loser":
        line = tr(lang, texts.COUNT_TARGET_LOSES, target=rules.target)
    else:
        line = tr(lang, texts.COUNT_TARGET_WINS, target=rules.target)
    if rules.time_limit_minutes:
        minutes = rules.time_limit_minutes
        line += " " + trn(lang, *texts.COUNT_CLOCK, minutes, minutes=minutes)
    return line


def counted_option(rules: Rules) -> set[str]:
    """The options :func:`count_line` already says: the number after the preset (and the
    hands a divisor game plays to reach its target)."""
    said = {rules.number_option}
    if rules.family == "divisor" and rules.target is not None and rules.hands is None:
        said.add("hands")  # hands until someone reaches the target
    return said


def house_lines(lang: str, rules: Rules) -> list[str]:
    """The rules in force that differ from the preset, one line each (the lobby)."""
    said = counted_option(rules)
    return [
        f"• {described(lang, n, v, rules.partners)}" for n, v in differing(rules) if n not in said
    ]


def players_line(lang: str, rules: Rules) -> str:
    if rules.min_players == rules.max_players:
        return tr(lang, "{n} players", n=rules.min_players)
    return tr(lang, "{least} to {most} players", least=rules.min_players, most=rules.max_players)


def turn_time_in(rules: Rules, settings: RoomSettings, patient: bool) -> int | None:
    """How long a turn lasts under ``rules`` in a room of ``settings`` (None: it waits
    for its person): the game's house rule, else the room's setting (0: off), else the
    preset's, unless the rooms wait for their people (``patient``: the console's)."""
    if "turn_timeout" in rules.options():
        return rules.turn_timeout
    if settings.turn_timeout is not None:
        return int(settings.turn_timeout) or None
    return None if patient else rules.turn_timeout


def rules_text(lang: str, rules: Rules, untimed: bool = False) -> str:
    """The rules in force, each option described from the catalogs: the preset, players,
    set, what the game counts, then every option the preset takes with its value
    (marked where it is a house rule); ``untimed``: the room gives turns no timer."""
    head = texts.preset_name(lang, rules.preset)
    lines = [
        f"{head} ({players_line(lang, rules)}, {tr(lang, texts.SET_OF, n=rules.set)})",
        count_line(lang, rules),
    ]
    house = dict(differing(rules))
    for name in (n for n in _ORDER if n in house or n in settable(rules.preset)):
        mark = " ✱" if name in house else ""
        line = described(lang, name, getattr(rules, name), rules.partners)
        if name == "turn_timeout" and untimed:
            line = f"{tr(lang, ABOUT[name]).rstrip('.')}: {tr(lang, texts.NO_TURN_TIMER)}"
        lines.append(f"• {line}{mark}")
    if house:
        lines.append(tr(lang, texts.HOUSE_MARK))
    return "\n".join(lines)


def option_line(lang: str, rules: Rules, name: str, untimed: bool = False) -> str:
    """An option of a menu: its short name and its value now (``untimed``: the room
    gives turns no timer)."""
    if name == "turn_timeout" and untimed:
        return f"{title(lang, name)}: {tr(lang, texts.NO_TURN_TIMER_SHORT)}"
    return f"{title(lang, name)}: {value_words(lang, name, getattr(rules, name))}"


def described_options(lang: str, preset: str, options: Mapping[str, Any]) -> list[str]:
    """``name=value`` options of ``preset`` in words (the room's defaults)."""
    partners = Rules.from_preset(preset).partners
    return [described(lang, n, options[n], partners) for n in _ORDER if n in options]


# ----- what a field of house rules offers as it is typed (Discord's autocomplete) ---------

LONGEST = 100  # the longest label or value offered (Discord's limit)


def preset_named(complete: str, typed: str, given: Mapping[str, Any]) -> str | None:
    """The preset whose options a field offers: the one chosen beside it (``new``), or
    the first word typed (``settings options <preset> ...``); None: the game in the room
    (``rule``), else the room's preset."""
    if complete != "options":
        return None
    if given.get("preset"):
        return str(given["preset"])
    first = typed.split()[:1]
    if given.get("name") == "options" and first and first[0].lower() in preset_names():
        return first[0].lower()
    return None


def offered(
    complete: str, rules: Rules, typed: str, given: Mapping[str, Any], lang: str
) -> tuple[tuple[str, str], ...]:
    """(label, value) for a field of house rules as ``typed`` grows: ``complete``
    "option" offers the names of the preset's options, "value" the values the engine
    takes for the option beside it (``given``: the other fields as filled so far), and
    "options" completes the last ``name=value`` word of a line of them."""
    names = settable(rules.preset)
    if complete == "option":
        part = typed.strip().lower()
        return tuple(
            (f"{name}: {option_line(lang, rules, name)}", name)
            for name in names
            if part in name or part in title(lang, name).lower()
        )
    if complete == "value":
        name = str(given.get("option") or "").strip().lower()
        return _values(rules, name, typed.strip().lower(), "", lang) if name in names else ()
    if complete != "options" or given.get("name") not in (None, "options"):
        return ()  # another setting's value
    words = typed.split()
    last = "" if not words or typed.endswith(" ") else words.pop()
    if words and words[0].lower() in preset_names():  # settings options <preset> ...
        words[0] = words[0].lower()
    head = " ".join(words) + " " if words else ""
    name, equals, part = last.partition("=")
    if equals:
        return _values(rules, name, part.lower(), f"{head}{name}=", lang) if name in names else ()
    chosen = {w.partition("=")[0] for w in words}
    return tuple(
        (f"{other}=…  {option_line(lang, rules, other)}", f"{head}{other}=")
        for other in names
        if other not in chosen and last.lower() in other and len(head + other) < LONGEST
    )


def _values(
    rules: Rules, name: str, part: str, before: str, lang: str
) -> tuple[tuple[str, str], ...]:
    """The values of option ``name`` that start with ``part``, each after ``before``."""
    found = []
    for value in values_for(rules, name):
        text = typed(value)
        if text.startswith(part) and len(before + text) <= LONGEST:
            label = f"{before}{text}  ({value_words(lang, name, value)})"
            found.append((label[-LONGEST:], before + text))
    return tuple(found)
