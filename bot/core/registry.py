"""Every command of BOT.md, once: its name, where it may come from, who may use it, what it
needs, whether it is a move, its options and their choices, and its catalog texts.

The service's dispatch, Telegram's command menu (``setMyCommands``), Discord's command
tree and its autocomplete, the console's ``/help`` and the buttons' styles are all derived
from :data:`COMMANDS`; the handler of each entry is attached where it is written, with
``@handles("name")`` (bot/core/handlers/). Adding a command is one entry here, its handler and
its catalog texts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING

from engine.players import STRENGTHS
from engine.presets import preset_names
from lang import LANGUAGES, N_, command_name

if TYPE_CHECKING:
    from bot.core.session import Session

Handler = Callable[["Session"], Awaitable[None]]


class Where(Enum):
    """Where a command may come from."""

    ROOM = "room"  # the room where the game is played
    SEAT = "seat"  # the room, or a private chat naming the game (own seat actions only)
    # the room's talk, not a command people name: a move's number typed alone ("2")
    CHAT = "chat"
    INTERNAL = "internal"  # the service itself (timers, a restart): never a person


class Who(Enum):
    """Who may use a command (the service checks it; the adapters ask the platform
    whether the person administers the room for CREATOR and ADMIN)."""

    ANYONE = "anyone"
    SEATED = "seated"  # a seat in the room's game
    CREATOR = "creator"  # the player who opened the game, or a room admin
    ADMIN = "admin"  # a room admin (to change things; anyone may look)


class Needs(Enum):
    """What must be on the table before the handler runs."""

    NOTHING = "nothing"
    GAME = "game"  # a game in the lobby or in play
    PLAYING = "playing"  # a game in play


class Style(Enum):
    """How a button that sends the command looks."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    DANGER = "danger"


class Kind(Enum):
    """What an option holds."""

    TEXT = "text"
    NUMBER = "number"
    FLAG = "flag"  # present or not: its word is the option's ``word``
    PERSON = "person"  # a member of the room (the service reads ``user:<id>``)


@dataclass(frozen=True)
class Choice:
    value: str
    label: str  # a catalog id


@dataclass(frozen=True)
class Option:
    name: str  # the English name, as typed after the command's other words
    word: str  # the localized name: a catalog key "opt:<name>"
    about: str  # what it is: a catalog id
    kind: Kind = Kind.TEXT
    required: bool = False
    low: int | None = None  # numbers: the bounds
    high: int | None = None
    length: int | None = None  # text: the longest accepted
    # the values it may take (read when asked: presets may be added at run time)
    choices: Callable[[], tuple[Choice, ...]] | None = None
    # filled in as the player types, from the person's own legal moves (Discord)
    # "tile" or "on"; house rules (bot/core/house_rules.py): "options" (name=value words),
    # "option" (a rule's name), "value" (a value of the rule named beside it)
    complete: str | None = None
    prefix: str | None = None  # typed before the value ("on 6-6")


@dataclass(frozen=True)
class Spec:
    name: str
    word: str  # the localized name: a catalog key "cmd:<name>"
    about: str  # what it does, for menus and /help: a catalog id
    where: Where = Where.ROOM
    who: Who = Who.ANYONE
    needs: Needs = Needs.NOTHING
    move: bool = False  # a move of a seat: checked and made against the game in memory
    options: tuple[Option, ...] = ()
    style: Style = Style.SECONDARY
    menu: bool = True  # in Telegram's command menu (Discord's tree has every command)
    # the refusal when ``who`` is not met (a catalog id; None: the one of its Who)
    denied: str | None = None
    # the platform is asked whether the person administers the room, though anyone may
    # use the command (a tournament's organiser acts as an admin)
    admin_asked: bool = False
    # its admins are the community's (a whole Discord server's, a Telegram group's), not
    # one room's: a channel's moderator does not run the server's tournament
    community: bool = False
    # on Discord a command of its own (/tournament), not a subcommand of /domino (a group
    # holds 25 at most)
    alone: bool = False
    # it only shows something (the rules, the score...): a person's answers in the room
    # are a few a minute, the rest go to them alone (bot/core/reading.py)
    reading: bool = False
    handler: Handler | None = field(default=None, compare=False)


def _presets() -> tuple[Choice, ...]:
    return tuple(Choice(name, title) for name, title in preset_names().items())


def _strengths() -> tuple[Choice, ...]:
    return tuple(Choice(s, s) for s in STRENGTHS)


PERIODS = {"week": N_("this week"), "month": N_("this month"), "all": N_("all time")}
# what /top ranks besides a preset: a family of games (each has its ratings), or the pairs
BOARDS = {
    "partnership": N_("Partnership games"),
    "individual": N_("Individual games"),
    "divisor": N_("Counting games"),
    "train": N_("Mexican Train games"),
    "pairs": N_("Pairs"),
}
SETTINGS = (
    "preset",
    "options",
    "language",
    "theme",
    "turn_timeout",
    "hand_pause",
    "numerals",
    "web",
)
OPTIONS_LENGTH = 300  # the longest line of house rules typed in one option (Discord)


def _boards() -> tuple[Choice, ...]:
    presets = (c for c in _presets() if c.value not in BOARDS)
    return (*(Choice(value, label) for value, label in BOARDS.items()), *presets)


def _periods() -> tuple[Choice, ...]:
    return tuple(Choice(value, label) for value, label in PERIODS.items())


# Every action of ``/tournament``, once: its name, the other words people type for it,
# what it does, and whether it may be asked of a tournament that is over (its handlers:
# ``@action`` in bot/core/tournament/commands.py).


@dataclass(frozen=True)
class TournamentAction:
    about: str  # a catalog id
    also: tuple[str, ...] = ()  # other words people type for it (Spanish, Portuguese)
    looks: bool = False  # only looks: it may be asked of the last tournament, over


TOURNAMENT_ACTIONS: dict[str, TournamentAction] = {
    "register": TournamentAction(N_("register a team"), ("registrar", "inscribir")),
    "list": TournamentAction(N_("who is in"), ("lista",), looks=True),
    "standings": TournamentAction(
        N_("standings"), ("tabla", "clasificacion", "clasificación"), looks=True
    ),
    "accept": TournamentAction(N_("accept an invitation"), ("aceptar", "aceitar")),
    "checkin": TournamentAction(N_("check in")),
    "leave": TournamentAction(N_("withdraw"), ("withdraw", "retirar")),
    "new": TournamentAction(N_("open a tournament")),
    "set": TournamentAction(N_("change its settings")),
    "close": TournamentAction(N_("close registration")),
    "start": TournamentAction(N_("start round 1")),
    "next": TournamentAction(N_("start the next round now")),
    "pause": TournamentAction(N_("pause the round")),
    "resume": TournamentAction(N_("resume the round")),
    "extend": TournamentAction(N_("extend the round")),
    "judge": TournamentAction(N_("name a judge")),
    "penalty": TournamentAction(N_("penalty to a team"), ("penalizar", "penalidad")),
    "award": TournamentAction(N_("points to a team"), ("premiar", "premio", "bonificar")),
    "forfeit": TournamentAction(N_("award a forfeit")),
    "substitute": TournamentAction(N_("a computer sits in"), ("sustituir", "substituir")),
    "void": TournamentAction(N_("void a table"), ("anular",)),
    "expel": TournamentAction(N_("expel a team"), ("expulsar",)),
    "correct": TournamentAction(N_("correct a result"), ("corregir",)),
    "log": TournamentAction(N_("what the judges did"), ("registro",), looks=True),
    "export": TournamentAction(N_("export as files"), looks=True),
    "cancel": TournamentAction(N_("cancel the tournament")),
    "help": TournamentAction(N_("how it works")),
}


def tournament_action(word: str) -> str | None:
    """The ``/tournament`` action ``word`` names (its name, or another word for it)."""
    word = word.lower()
    if word in TOURNAMENT_ACTIONS:
        return word
    return next((name for name, a in TOURNAMENT_ACTIONS.items() if word in a.also), None)


def _tournament_actions() -> tuple[Choice, ...]:
    return tuple(Choice(name, action.about) for name, action in TOURNAMENT_ACTIONS.items())


def _settings() -> tuple[Choice, ...]:
    return tuple(Choice(name, name) for name in SETTINGS)


PRESET = Option("preset", N_("opt:preset"), N_("Which game"), choices=_presets)
SEAT = Option("seat", N_("opt:seat"), N_("Seat number"), Kind.NUMBER, low=1, high=10)

_ALL = (
    Spec(
        "new", N_("cmd:new"), N_("Open a game: /new [game] [points] [option=value ...]"),
        options=(
            PRESET,
            Option("target", N_("opt:target"), N_("Points to reach (Mexican Train: rounds)"),
                   Kind.NUMBER, low=1, high=10_000),
            Option("options", N_("opt:options"),
                   N_("House rules: option=value ..., for example blocked_tie=nobody"),
                   length=OPTIONS_LENGTH, complete="options"),
        ),
    ),
    Spec("join", N_("cmd:join"), N_("Take a seat at the table"), needs=Needs.GAME,
         options=(SEAT,), style=Style.PRIMARY),
    Spec("leave", N_("cmd:leave"), N_("Leave your seat"), who=Who.SEATED, needs=Needs.GAME),
    Spec(
        "add_ai", N_("cmd:add_ai"), N_("Add a computer player: easy, normal or hard"),
        who=Who.CREATOR, needs=Needs.GAME,
        options=(Option("strength", N_("opt:strength"), N_("How well the computer plays"),
                        choices=_strengths),),
    ),
    Spec("kick", N_("cmd:kick"), N_("Remove a computer player: /kick <seat>"),
         who=Who.CREATOR, needs=Needs.GAME,
         options=(Option("seat", N_("opt:seat"), N_("Seat number"), Kind.NUMBER, required=True,
                         low=1, high=10),)),
    Spec("begin", N_("cmd:begin"), N_("Deal the first hand"), who=Who.CREATOR, needs=Needs.GAME,
         options=(Option("fill", N_("opt:fill"), N_("Fill the empty seats with computer players"),
                         Kind.FLAG),),
         style=Style.PRIMARY),
    Spec("hand", N_("cmd:hand"), N_("See your tiles and moves, privately"), where=Where.SEAT,
         who=Who.SEATED, needs=Needs.PLAYING, style=Style.PRIMARY),
    Spec(
        "play", N_("cmd:play"), N_("Play a tile: /play 6-4 on 6-6"), where=Where.SEAT,
        who=Who.SEATED, needs=Needs.PLAYING, move=True, style=Style.PRIMARY,
        options=(
            Option("tile", N_("opt:tile"), N_("The tile, and where it goes: 6-4 on 6-6"),
                   required=True, length=60, complete="tile"),
            Option("on", N_("opt:on"), N_("Where it goes: a tile at an open end, or a train"),
                   length=30, complete="on", prefix="on"),
        ),
    ),
    Spec("draw", N_("cmd:draw"), N_("Draw from the boneyard"), where=Where.SEAT,
         who=Who.SEATED, needs=Needs.PLAYING, move=True),
    Spec("pass", N_("cmd:pass"), N_("Pass, when you cannot play"), where=Where.SEAT,
         who=Who.SEATED, needs=Needs.PLAYING, move=True),
    Spec("end", N_("cmd:end"), N_("End your turn (Mexican Train)"), where=Where.SEAT,
         who=Who.SEATED, needs=Needs.PLAYING, move=True, menu=False),
    Spec("open", N_("cmd:open"),
         N_("Claim the opening of the hand, when your team chooses who opens"),
         where=Where.SEAT, who=Who.SEATED, needs=Needs.PLAYING, move=True, style=Style.PRIMARY,
         menu=False),
    Spec("next", N_("cmd:next"), N_("Deal the next hand"), who=Who.SEATED, needs=Needs.PLAYING,
         move=True, style=Style.PRIMARY, menu=False),
    Spec("board", N_("cmd:board"), N_("Post the board again"), needs=Needs.PLAYING),
    Spec("score", N_("cmd:score"), N_("The score sheet"), needs=Needs.PLAYING, reading=True),
    Spec("cancel", N_("cmd:cancel"), N_("End the game with no result"), who=Who.CREATOR,
         needs=Needs.GAME, style=Style.DANGER,
         denied=N_("Only the player who opened the game, or a room admin, can cancel it.")),
    Spec("top", N_("cmd:top"),
         N_("The leaderboard: /top [partnership|individual|divisor|train|pairs|game]"
            " [week|month|all]"),
         options=(Option("preset", N_("opt:preset"), N_("Which games, or the pairs"),
                         choices=_boards),
                  Option("period", N_("opt:period"), N_("Which period"), choices=_periods)),
         reading=True),
    Spec("stats", N_("cmd:stats"), N_("A player's record"),
         options=(Option("player", N_("opt:player"), N_("Whose record"), Kind.PERSON),
                  Option("who", N_("opt:who"), N_("Or their name or @username"), length=100)),
         reading=True),
    Spec("rules", N_("cmd:rules"), N_("The rules of a game"), options=(PRESET,), reading=True),
    Spec("settings", N_("cmd:settings"), N_("The room's settings (admins)"), who=Who.ADMIN,
         options=(Option("name", N_("opt:name"), N_("Which setting"), choices=_settings),
                  Option("value", N_("opt:value"), N_("Its new value"), length=OPTIONS_LENGTH,
                         complete="options"))),
    Spec("rule", N_("cmd:rule"), N_("Change a rule in the lobby: /rule [option] [value]"),
         who=Who.CREATOR, needs=Needs.GAME,
         options=(Option("option", N_("opt:option"), N_("Which rule"), length=40,
                         complete="option"),
                  Option("value", N_("opt:value"), N_("Its new value"), length=40,
                         complete="value"))),
    Spec("export", N_("cmd:export"), N_("The game record, as a file")),
    Spec("help", N_("cmd:help"), N_("What can be done now"), reading=True),
    Spec("forget", N_("cmd:forget"), N_("Forget my name"), style=Style.DANGER),
    Spec("tournament", N_("cmd:tournament"),
         N_("Club tournaments: /tournament [what] [details]"),
         options=(Option("what", N_("opt:what"), N_("What to do"), choices=_tournament_actions),
                  Option("details", N_("opt:details"),
                         N_("Team name, @people, a table, points, option=value"),
                         length=OPTIONS_LENGTH)),
         admin_asked=True, community=True, alone=True),
    Spec("timer", "timer", "timer", where=Where.INTERNAL, menu=False),
    Spec("number", "number", "number", where=Where.CHAT, menu=False),
)  # fmt: skip

COMMANDS: dict[str, Spec] = {spec.name: spec for spec in _ALL}


def handles(name: str) -> Callable[[Handler], Handler]:
    """Attach the decorated function as the handler of command ``name``."""

    def attach(handler: Handler) -> Handler:
        spec = COMMANDS[name]  # a KeyError: a handler for a command not in the registry
        COMMANDS[name] = replace(spec, handler=handler)
        return handler

    return attach


def spec_of(name: str) -> Spec | None:
    return COMMANDS.get(name)


def public() -> list[Spec]:
    """The commands people use, in the registry's order (Discord's tree, /help)."""
    return [s for s in COMMANDS.values() if s.where not in (Where.INTERNAL, Where.CHAT)]


# ----- the commands' names in each language ------------------------------------------
# One name a language for each command: its catalog entry ``cmd:<name>`` (``Spec.word``),
# the name Discord's menus show a person whose client speaks it; Telegram's menus and the
# console take the same names, and the texts name commands by them (lang's tr()). Typed,
# a name in any of our languages is accepted, as is the English one: a room's messages
# are in its language, whatever each member's own. Tested for collisions.


def name_in(lang: str | None, name: str) -> str:
    """Command ``name`` ("hand") as people call it in ``lang`` ("mano")."""
    return command_name(lang, name)


def names_of(name: str) -> frozenset[str]:
    """Every name of command ``name``: its own and its name in each language."""
    return frozenset({name, *(command_name(lang, name) for lang in LANGUAGES)})


def command_named(word: str) -> str | None:
    """The command ``word`` names ("jugar", "Mão", "play"), in any of our languages; None
    when it names none people use."""
    return _named(tuple(s.name for s in public())).get(_plain(word))


@lru_cache(maxsize=4)
def _named(names: tuple[str, ...]) -> dict[str, str]:
    """Each name of the commands ``names`` (the registry's public ones, as they are now:
    a test may add one) -> its command; a command's own name first."""
    found = {_plain(command_name(lang, n)): n for lang in reversed(LANGUAGES) for n in names}
    return found | {name: name for name in names}


def _plain(word: str) -> str:
    """``word`` as names are written: lower case, no accents ("Mão" is "mao")."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# A line typed in the room that is a move's number alone ("2", "  2 "): the doors send it
# as the command "number" (the service answers only the player to move).
TYPED_NUMBER_PATTERN = r"^\s*([0-9]{1,3})\s*$"
TYPED_NUMBER = re.compile(TYPED_NUMBER_PATTERN)


def typed_number(text: str) -> str | None:
    """The move's number ``text`` is, alone; None for anything else."""
    found = TYPED_NUMBER.match(text)
    return found[1] if found else None


def menu() -> list[Spec]:
    """The commands of Telegram's command menu, in the registry's order."""
    return [s for s in public() if s.menu]


def style_of(command: str) -> Style:
    """The style of a button that sends ``command`` ("play 6-4", "join 2")."""
    spec = COMMANDS.get(command.split(" ", 1)[0])
    return spec.style if spec is not None else Style.SECONDARY


def asks_admin(name: str) -> bool:
    """Whether the platform is asked if the person administers the room."""
    spec = COMMANDS.get(name)
    return spec is not None and (spec.who in (Who.CREATOR, Who.ADMIN) or spec.admin_asked)


def community_admins(name: str) -> bool:
    """Whether the admins of command ``name`` are the community's, not one room's."""
    spec = COMMANDS.get(name)
    return spec is not None and spec.community


def moves() -> frozenset[str]:
    return frozenset(s.name for s in COMMANDS.values() if s.move)
