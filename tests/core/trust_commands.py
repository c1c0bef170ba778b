"""What tests/core/test_trust.py knows of the commands, read from the registry
(bot/core/registry.py) each time it is asked: which commands people use, which a private
chat may carry, which need a game or a game in play, which are moves, who may use each, and
the words typed after each, drawn from its options (their kinds, bounds and choices) with
some garbage. A command added to the registry is typed by the machine and held to its
entry from then on (tests/core/test_trust_knows.py checks that nothing is left out).

Kept here by hand, because an entry cannot say it: the commands that only look, the one
that asks before it acts, how far a command reaches beyond its room, and what each action
of ``/tournament`` may do (its actions are the registry's choices of its option ``what``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from bot.core import house_rules, registry
from bot.core.registry import Kind, Needs, Option, Spec, Where
from engine.presets import preset_names
from engine.rules import Rules

# Commands that only look: whatever they answer, they change nothing stored.
LOOKING = frozenset({"hand", "board", "score", "top", "stats", "rules", "help", "export"})
# Commands that ask first: they change something only when typed with this word.
CONFIRMED_BY = {"forget": "confirm"}
# How far a command reaches beyond its room: "forget me" erases the person from every game
# they sat in; a tournament is its community's (its tables play in rooms of their own).
PERSON_WIDE = frozenset({"forget"})
COMMUNITY_WIDE = frozenset({"tournament"})
# Commands whose answer to the room may repeat what was typed (a setting's value; a team's
# name, a table's score, a judge's reason): those words are the person's own, said aloud.
ECHOED_TO_ROOM = frozenset({"settings", "tournament"})
# Words that are no command people may use (the service's internal ones are added).
NOT_COMMANDS = ("fly", "start", "PLAY", "new@dominobot", "setting", "6-4", "")
# Words that fit no option.
GARBAGE: tuple[tuple[str, ...], ...] = (
    ("x",),
    ("6-4",),
    ("-1",),
    ("on",),
    ("a=b",),
    ("@nobody",),
    ("x" * 70,),
)

# /tournament <what> [details]: what each action may do. The actions, the other words
# for them and which only look are the registry's (TOURNAMENT_ACTIONS); an action added
# there is taken for one only its organisers may use, until the model says otherwise.
ALSO_LOOKS = frozenset({"help"})  # changes nothing, though it needs a tournament open
TOURNAMENT_ADMINS = frozenset({"new"})  # a community admin opens one (one open at a time)
# their own entry (accept: an invitation to a pair, by the partner named)
TOURNAMENT_PEOPLE = frozenset({"register", "checkin", "leave", "accept"})
# The organisers' actions a judge may take too (rulings on tables); the rest only the
# organiser and the community's admins (issue 31).
TOURNAMENT_RULINGS = frozenset({"penalty", "forfeit", "void", "expel", "correct"})
NOT_AN_ACTION = "frob"  # a word that is none of the tournament's actions
OPEN = ("registration", "checkin", "running")  # a community's tournament still open
# Team names and reasons hold no digit, so that they never read as a tile when shown again.
TEAM_NAMES = ("Los Primos", "Las Fieras", "Solo", "Club Norte", "Ana")
REASONS = ("talking during play", "late", "")
# Tournament settings as typed, in bounds and not (bot/core/tournament/commands.py's names).
TOURNAMENT_SETTINGS = (
    "rounds=2", "rounds=1", "rounds=31", "minutes=0", "minutes=20", "minutes=x", "target=50",
    "target=0", "grace=1", "forfeit=100", "penalty=5", "substitutes=on", "checkin=off",
    "checkin=maybe", "format=round_robin", "format=rotating", "format=chess", "preset=fido12",
    "preset=partnership", "preset=mexican_train", "preset=chess", "closes=5", "closes=0",
    "colour=red",
)  # fmt: skip


def public() -> dict[str, Spec]:
    """The commands people use, as the registry holds them now."""
    return {spec.name: spec for spec in registry.public()}


def internal() -> tuple[str, ...]:
    """The service's own commands (timers, a restart): a person typing one is refused."""
    return tuple(s.name for s in registry.COMMANDS.values() if s.where is Where.INTERNAL)


def known() -> frozenset[str]:
    return frozenset(public())


def private_actions() -> frozenset[str]:
    """The commands a private chat may carry, for the person's own seat."""
    return frozenset(name for name, spec in public().items() if spec.where is Where.SEAT)


def game_actions() -> frozenset[str]:
    """The commands that act on the room's game: a game id naming another game, or no game
    on the table, must change nothing."""
    return frozenset(name for name, spec in public().items() if spec.needs is not Needs.NOTHING)


def move_actions() -> frozenset[str]:
    """The moves: a move number, when given, must be the game's (an older or newer one is
    stale)."""
    return frozenset(name for name, spec in public().items() if spec.move)


def not_commands() -> tuple[str, ...]:
    """Words typed as a command that is none a person may use."""
    return (*NOT_COMMANDS, *internal())


def typed_commands() -> list[str]:
    """What the machine types: every command people use (moves and records, and the
    tournament, whose actions are many, more often), and now and then none at all."""
    names = list(public())
    return [*names, "play", "export", "tournament", "unknown"]


def forged_commands() -> list[str]:
    """What a forged private press says: every command and non-command, those a private
    chat must not carry that act on a game more often."""
    specs = public()
    acting = [n for n, s in specs.items() if s.where is Where.ROOM and s.needs is not Needs.NOTHING]
    return acting * 2 + sorted({*specs, *internal(), "fly"})


def looks() -> list[str]:
    """What the machine looks with (a record and one's hand more often)."""
    return [*sorted(LOOKING), "export", "hand"]


def tournament_actions() -> tuple[str, ...]:
    """The actions of ``/tournament``: the choices of its option ``what``."""
    spec = registry.COMMANDS["tournament"]
    what = next(o for o in spec.options if o.name == "what")
    assert what.choices is not None
    return tuple(c.value for c in what.choices())


def tournament_words_for(name: str) -> tuple[str, ...]:
    """The words people type for action ``name``: its name, and the registry's others."""
    return (name, *registry.TOURNAMENT_ACTIONS[name].also)


def tournament_action(word: str) -> str | None:
    """The action ``word`` names (by the registry's words for each), or None."""
    word = word.lower()
    return next((n for n in tournament_actions() if word in tournament_words_for(n)), None)


def tournament_looks() -> frozenset[str]:
    """The actions that only look: the registry's, and help."""
    found = {n for n, a in registry.TOURNAMENT_ACTIONS.items() if a.looks}
    return frozenset(found | ALSO_LOOKS)


def tournament_organisers() -> frozenset[str]:
    """The actions only the organiser, a judge they named or an admin may use: every
    other one."""
    others = tournament_looks() | TOURNAMENT_ADMINS | TOURNAMENT_PEOPLE
    return frozenset(tournament_actions()) - others


# ----- a community's tournament, as stored ----------------------------------------------


@dataclass(frozen=True)
class Tournament:
    """A tournament as its row says: its community and room, how far it is, who runs it."""

    id: int
    community: int
    room: int
    status: str
    organiser: int | None
    judges: tuple[int, ...]

    @property
    def open(self) -> bool:
        return self.status in OPEN


def tournaments(state: Mapping[str, Mapping[Any, Mapping[str, Any]]]) -> list[Tournament]:
    """Every tournament of a dump of storage (tests/core/trust_model.py), oldest first."""
    found = [
        Tournament(
            row["id"],
            row["community_id"],
            row["room_id"],
            row["status"],
            row["organiser"],
            tuple(row["judges"] or ()),
        )
        for row in state.get("tournaments", {}).values()
    ]
    return sorted(found, key=lambda t: t.id)


def open_tournament(state: Mapping[str, Any], community: int) -> Tournament | None:
    return next((t for t in tournaments(state) if t.community == community and t.open), None)


def tournament_unchanged(
    args: tuple[str, ...], admin: bool, user: int | None, current: Tournament | None
) -> str | None:
    """Why ``/tournament <args>`` must change nothing stored (None: it may change its
    community's tournament), typed by someone who administers the room or not, of user id
    ``user`` (None: seen for the first time), with ``current`` open in the community."""
    if not args:
        return "a tournament's status, looked at"
    what = tournament_action(args[0])
    if what is None:
        return "no action of a tournament"
    if what in tournament_looks():
        return "a look at a tournament"
    if what in TOURNAMENT_ADMINS:
        if not admin:
            return "a tournament opened by someone who does not administer the room"
        if current is not None:
            return f"a tournament opened while tournament {current.id} is open"
        return None
    if current is None:
        return "a tournament's action with none open in the community"
    runs = admin or (user is not None and user == current.organiser)
    judge = user is not None and user in current.judges
    if what in TOURNAMENT_RULINGS and not (runs or judge):
        return f"'{what}' by someone who is not the tournament's organiser, a judge or an admin"
    if what in tournament_organisers() - TOURNAMENT_RULINGS and not runs:
        return f"'{what}' by someone who is not the tournament's organiser or an admin"
    if what == "register" and current.status != "registration" and not runs:
        return "a late registration by someone who is not an organiser"
    if what == "checkin" and current.status != "checkin":
        return "a check-in out of its time"
    if what == "accept" and current.status != "registration":
        return "an invitation accepted after registration closed"
    return None


# ----- the words typed after a command --------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """An entry of the community's latest tournament: its name, the people in it (their
    platform ids; computers aside) and its status."""

    name: str
    people: tuple[str, ...]
    status: str


@dataclass(frozen=True)
class Seating:
    """A table of the tournament's latest round: its number, its teams and its status."""

    number: int
    teams: tuple[str, ...]
    status: str


@dataclass(frozen=True)
class Scene:
    """What typed words may refer to: the rules of the room's game (its house rules' names
    and values), the people, and the community's latest tournament (its entries and the
    tables of its latest round)."""

    rules: Rules | None
    people: tuple[str, ...]
    entries: tuple[Entry, ...] = ()
    seatings: tuple[Seating, ...] = ()

    @property
    def teams(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.entries)

    @property
    def tables(self) -> tuple[int, ...]:
        return tuple(t.number for t in self.seatings)


def draw_words(data: st.DataObject, spec: Spec, scene: Scene) -> tuple[str, ...]:
    """The words after ``spec``'s command as a person types them, in the registry's
    order (as Discord's ``args_of`` writes them): each option given or not, a required
    one now and then forgotten, its value drawn from its kind, bounds and choices (and
    now and then one that fits none); or garbage."""
    if data.draw(st.integers(0, 9), label="garbage instead") == 0:
        return data.draw(st.sampled_from(GARBAGE), label="garbage")
    words: list[str] = []
    chosen: dict[str, str] = {}
    for option in spec.options:
        given = data.draw(
            st.sampled_from([True] * 9 + [False]) if option.required else st.booleans(),
            label=f"{option.name} given",
        )
        if not given:
            continue
        value = option_value(data, option, scene, chosen)
        chosen[option.name] = value
        if option.kind is Kind.FLAG:
            words.append(option.name)
            continue
        if option.prefix:
            words.append(option.prefix)
        words += value.split() or [value]
    return tuple(w for w in words if w)


def option_value(
    data: st.DataObject, option: Option, scene: Scene, chosen: Mapping[str, str]
) -> str:
    """A value of ``option``: one of its choices, a number in or out of its bounds, a
    person, a tile, house rules of the room's game; free text of the people and teams."""
    label = f"{option.name} value"
    if option.kind is Kind.FLAG:
        return option.name
    if option.kind is Kind.PERSON:
        return data.draw(
            st.sampled_from([*(f"user:{p}" for p in scene.people), "user:nobody"]), label=label
        )
    if option.choices is not None:
        values = [c.value for c in option.choices()]
        return data.draw(st.sampled_from([*values, *values, "nothing"]), label=label)
    if option.kind is Kind.NUMBER:
        low = option.low if option.low is not None else 0
        high = option.high if option.high is not None else low + 100
        number = data.draw(
            st.sampled_from([low, high, low - 1, high + 1]) | st.integers(low, min(high, low + 12)),
            label=label,
        )
        return str(number)
    if option.complete == "tile":
        a, b = data.draw(st.integers(0, 18), label="a"), data.draw(st.integers(0, 18), label="b")
        return data.draw(st.sampled_from([f"{a}-{b}", "banana", f"{a}-"]), label=label)
    if option.complete == "on":
        a, b = data.draw(st.integers(0, 12), label="a"), data.draw(st.integers(0, 12), label="b")
        return data.draw(st.sampled_from([f"{a}-{b}", "train:2", "mexican", "x"]), label=label)
    if option.complete in ("options", "option", "value"):
        return house_words(data, option.complete, scene.rules, chosen)
    vocabulary = [
        *scene.people,
        *(f"@{p}" for p in scene.people),
        *scene.teams,
        "nobody",
        "6-4",
    ]
    text = data.draw(st.sampled_from(vocabulary), label=label)
    longest = option.length or 100
    if data.draw(st.integers(0, 19), label="too long") == 0:
        return "x" * (longest + 1)
    return text[:longest]


def house_words(
    data: st.DataObject, complete: str, rules: Rules | None, chosen: Mapping[str, str]
) -> str:
    """House rules as typed: ``name=value`` words (``options``), a rule's name
    (``option``) or a value of the rule named beside it (``value``), of the room's game's
    preset (or any preset's), now and then a name or value that fits none."""
    if rules is None:
        preset = data.draw(st.sampled_from(sorted(preset_names())), label="house rules' preset")
        rules = Rules.from_preset(preset)
    preset, base = rules.preset, rules
    names = list(house_rules.settable(preset)) or ["target"]
    if complete == "value":
        name = chosen.get("option", "")
        if name in names:
            values = [house_rules.typed(v) for v in house_rules.values_for(base, name)]
            return data.draw(st.sampled_from([*values, "nothing"]), label="house value")
        return data.draw(st.sampled_from(["on", "off", "5", "nothing"]), label="house value")
    name = data.draw(st.sampled_from([*names, "colour"]), label="house rule")
    if complete == "option":
        return name
    values = (
        [house_rules.typed(v) for v in house_rules.values_for(base, name)]
        if name in names
        else ["red"]
    )
    value = data.draw(st.sampled_from([*values, "nothing"]), label="house value")
    return f"{name}={value}"


def tournament_words(data: st.DataObject, scene: Scene) -> tuple[str, ...]:
    """``/tournament``'s words: one of its actions (or none, or no action), with details
    that fit it now and then: a team's name, @people, a table, points, settings."""
    what = data.draw(
        st.sampled_from([*tournament_actions(), "", NOT_AN_ACTION]), label="tournament action"
    )
    if not what:
        return ()
    word = what
    if what != NOT_AN_ACTION:  # now and then another word for it (Spanish, Portuguese)
        word = data.draw(st.sampled_from([what, what, *tournament_words_for(what)]), label="as")
    if data.draw(st.integers(0, 9), label="details left out") == 0:
        return (word,)
    return (word, *" ".join(tournament_details(data, what, scene)).split())


def tournament_details(data: st.DataObject, what: str, scene: Scene) -> list[str]:
    def team() -> str:
        return data.draw(st.sampled_from([*scene.teams, *scene.teams, *TEAM_NAMES]), label="team")

    def table() -> str:
        return str(data.draw(st.sampled_from([*scene.tables, 1, 9]), label="table"))

    def someone() -> str:
        return data.draw(st.sampled_from(scene.people), label="someone")

    def reason() -> str:
        return data.draw(st.sampled_from(REASONS), label="reason")

    def settings() -> list[str]:
        return data.draw(st.lists(st.sampled_from(TOURNAMENT_SETTINGS), max_size=3), label="set")

    def one_of(*choices: list[str]) -> list[str]:
        return data.draw(st.sampled_from(choices), label=f"{what} details")

    if what == "new":
        return [*one_of(["Copa"], [], ["Copa", "de", "Mayo"]), *settings()]
    if what == "set":
        return settings()
    if what == "register":
        return one_of(
            [team(), f"@{someone()}"], [team()], [f"@{someone()}"],
            [team(), "computer", "computer"], [team(), f"user:{someone()}", "hard"],
        )  # fmt: skip
    if what in ("checkin", "leave", "accept"):
        return one_of([], [team()])
    if what == "judge":
        return one_of([f"@{someone()}"], ["remove", f"@{someone()}"], ["@nobody"])
    if what == "penalty":
        return [team(), *one_of(["20"], ["-5"], []), reason()]
    if what == "forfeit":
        return [table(), team()]
    if what == "void":
        return [table(), reason()]
    if what == "expel":
        return [team(), reason()]
    if what == "correct":
        score = one_of(["200-150"], ["120-200"], ["200-200"], ["x-y"])
        return [table(), *score, *one_of([], ["1"], ["x"])]
    if what == "extend":
        return one_of(["5"], ["0"], ["241"], ["x"])
    return one_of([], [], ["x"])


# What an open tournament asks for next, by its status (None: none open).
TOURNAMENT_STEPS: dict[str | None, tuple[str, ...]] = {
    None: ("new",),
    "registration": (
        "register", "register", "register", "accept", "accept", "close", "start", "set", "leave",
    ),
    "checkin": ("checkin", "checkin", "checkin", "start", "register"),
    "running": (
        "forfeit", "forfeit", "void", "correct", "penalty", "expel", "standings", "pause",
        "resume", "extend", "next", "judge", "export", "cancel",
    ),
}  # fmt: skip


def tournament_step(
    data: st.DataObject, status: str | None, scene: Scene, organisers: list[str]
) -> tuple[str, tuple[str, ...]]:
    """Who does what next in a tournament of ``status`` (None: none open), as a club
    moves one on: an admin opens a short one, people not yet in an entry register in
    pairs and the organiser registers computers, entries check in, the organiser
    (one of ``organisers``) closes the registration and starts the round, judges act on
    the round's tables with their numbers and teams. The words fit, mostly."""
    steps = TOURNAMENT_STEPS[status]
    if (
        status in ("registration", "checkin")
        and len([e for e in scene.entries if e.status != "invited"]) < 2
    ):  # two entries at least, before it may close or start
        steps = ("register", "accept") if status == "registration" else ("register",)
    what = data.draw(st.sampled_from(steps), label="tournament step")
    boss = data.draw(st.sampled_from(organisers or list(scene.people)), label="organiser")
    team = data.draw(st.sampled_from(scene.teams or TEAM_NAMES), label="team")
    if what == "new":
        checkin = data.draw(st.sampled_from(["checkin=off", "checkin=on"]), label="check-in")
        minutes = data.draw(st.sampled_from(["minutes=0", "minutes=20"]), label="clock")
        preset = data.draw(st.sampled_from(["preset=fido12", "preset=partnership"]), label="game")
        return boss, ("new", "Copa", "rounds=2", "target=50", checkin, minutes, preset)
    if what == "register":
        entered = {p for e in scene.entries for p in e.people}
        free = [p for p in scene.people if p not in entered]
        names = [n for n in TEAM_NAMES if n not in scene.teams] or ["Otros"]
        name = data.draw(st.sampled_from(names), label="new team")
        if len(free) < 2 or data.draw(st.booleans(), label="computers"):
            return boss, ("register", *name.split(), "computer", "computer")
        first = data.draw(st.sampled_from(free), label="registers")
        partner = data.draw(st.sampled_from([p for p in free if p != first]), label="partner")
        return first, ("register", *name.split(), f"@{partner}")
    if what == "accept":  # someone of an invited pair accepts (its inviter: refused)
        asked = [e for e in scene.entries if e.status == "invited" and e.people]
        if not asked:
            return boss, ("accept",)
        entry = data.draw(st.sampled_from(asked), label="invitation")
        who = data.draw(st.sampled_from(entry.people), label="accepts")
        return who, ("accept", *entry.name.split())
    if what == "checkin":
        waiting = [e for e in scene.entries if e.status == "registered"]
        entry = data.draw(st.sampled_from(waiting or list(scene.entries) or [None]), label="entry")
        if entry is not None and entry.people and data.draw(st.booleans(), label="in person"):
            return data.draw(st.sampled_from(entry.people), label="member"), ("checkin",)
        return boss, ("checkin", *team.split())
    playing = [t for t in scene.seatings if t.status != "done"] or list(scene.seatings)
    table = data.draw(st.sampled_from(playing or [Seating(1, (team,), "waiting")]), label="table")
    side = data.draw(st.sampled_from(table.teams), label="side")
    details: dict[str, tuple[str, ...]] = {
        "forfeit": (str(table.number), *side.split()),
        "void": (str(table.number),),
        "correct": (str(table.number), "200-150"),
        "penalty": (*team.split(), "5", "late"),
        "expel": (*team.split(), "late"),
        "extend": ("5",),
        "leave": (*team.split(),),
        "set": ("minutes=30",),
    }
    return boss, (what, *details.get(what, ()))
