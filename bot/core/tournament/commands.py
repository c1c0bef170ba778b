"""``/tournament <what> ...``: the organiser opens and runs an event, people register
and check in, judges act on tables and teams. Everything a judge or the organiser does is
kept in the tournament's log."""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import fields, replace
from typing import Any

from bot.core import spreadsheet
from bot.core.house_rules import yes_or_no
from bot.core.model import Button, Effect, Elsewhere, File, Person, Place, Say
from bot.core.names import MENTION, searched
from bot.core.progress import finish
from bot.core.records_seen import record_as_seen
from bot.core.registry import TOURNAMENT_ACTIONS, handles, tournament_action
from bot.core.saving import save as save_game
from bot.core.session import Loaded, Refusal, Session
from bot.core.showing import board_as_it_is, name_of, names_of
from bot.core.texts import score_text
from bot.core.tournament import rounds, words
from bot.core.tournament.model import FORMATS, Entry, Member, Settings, Table
from bot.core.tournament.rounds import at, current, epoch, open_round, save, standings_told
from bot.core.tournament.standings import TIEBREAK_ALIASES, TIEBREAKS
from bot.core.tournament.state import Event, load, load_id, members_json, settings_json
from bot.core.tournament.tables import place_of, result_of, rules_of
from engine.errors import DominoError
from engine.goal import WAYS, goal_of, more_is_better
from engine.players import STRENGTHS
from engine.presets import preset_names
from engine.rules import Rules
from lang import tr, trn
from storage.errors import NotFound
from storage.games import ACTIVE
from storage.timers import ALL, TimerPlan
from storage.tournaments import LogRow

Action = Callable[[Session, "Event | None"], Awaitable[None]]
HANDLERS: dict[str, Action] = {}  # each action's handler, by its name
# the settings typed as name=value, and their bounds
NUMBERS = {
    "target": (1, 10_000),
    "minutes": (0, 600),
    "rounds": (1, 30),
    "grace": (1, 120),
    "forfeit": (0, 10_000),
    "penalty": (1, 1_000),
}
FLAGS = ("substitutes", "checkin")
FIELD = {"grace": "grace_minutes", "forfeit": "forfeit_points"}  # typed name: field
CLOSE_TIMER = "tournament_close"  # registration closes by itself (closes=<minutes>)
# a list of entries longer than this goes as its first lines and a file (Discord's messages
# hold 2,000 characters, Telegram's 4,096)
LIST_LIMIT = 1900
SCORE = re.compile(r"[0-9]{1,5}")  # a table's score a judge writes (targets go to 10,000)
ENTRIES_FILE = "entries.csv"


def action(name: str) -> Callable[[Action], Action]:
    """Attach the decorated handler to the action ``name`` (registry.TOURNAMENT_ACTIONS)."""

    def attach(handler: Action) -> Action:
        assert name in TOURNAMENT_ACTIONS, f"{name} is no action of the registry's"
        HANDLERS[name] = handler
        return handler

    return attach


@handles("tournament")
async def tournament(session: Session) -> None:
    """The community's tournament: the action named first, or how it stands."""
    async with session.desk.tournament_lock(session.community.id):
        await act(session)


async def act(session: Session) -> None:
    repo = session.store.tournaments
    what = session.args[0].lower() if session.args else ""
    name = tournament_action(what)
    row = await repo.active_in_community(session.community.id)
    if row is None and name is not None and TOURNAMENT_ACTIONS[name].looks:  # the last one's stay
        row = await repo.latest_in_community(session.community.id)
    event = await load(session.store, row) if row is not None else None
    if not session.args:
        await status(session, event)
        return
    handler = HANDLERS.get(name) if name is not None else None
    if handler is None:
        raise Refusal(words.UNKNOWN_ACTION, text=what, help=tr(session.lang, words.HELP))
    if name != "new" and event is None:
        raise Refusal(words.NONE_HERE)
    await handler(session, event)


def rest(session: Session) -> list[str]:
    return list(session.args[1:])


def runs(session: Session, event: Event | None) -> bool:
    """Who runs the event: its organiser, or a community admin."""
    if session.person.admin:
        return True
    return event is not None and session.user.id == event.row.organiser


def organiser(session: Session, event: Event | None) -> bool:
    """Who may rule on its tables: who runs it, or a judge named by them."""
    if runs(session, event):
        return True
    return event is not None and session.user.id in (event.row.judges or [])


def require_runner(session: Session, event: Event | None) -> Event:
    """The event, for its organiser or a community admin (judges rule on tables only)."""
    if event is None:
        raise Refusal(words.NONE_HERE)
    if not runs(session, event):
        raise Refusal(words.RUNNERS_ONLY)
    return event


def require_organiser(session: Session, event: Event | None) -> Event:
    if event is None:
        raise Refusal(words.NONE_HERE)
    if not organiser(session, event):
        raise Refusal(words.ORGANISERS_ONLY)
    return event


def not_their_own(session: Session, event: Event, entry: Entry | None, table: Table | None) -> None:
    """A judge rules on no table they sit at, nor on their own entry: another judge, the
    organiser or an admin does."""
    if runs(session, event):
        return
    me = session.user.id
    entries = [entry] if entry is not None else []
    if table is not None:
        entries += [event.entry(e) for side in table.sides for e in side]
    if any(m.user == me for e in entries for m in e.members):
        raise Refusal(words.OWN_TABLE)


def entry_acted_for(session: Session, event: Event) -> Entry:
    """The entry named after the action (``leave <team>``, ``checkin <team>``), by who
    runs the event; anyone else's own, and never another one they name."""
    typed = " ".join(rest(session))
    named = event.entry_named(typed) if typed else None
    mine = event.entry_of_user(session.user.id)
    if named is not None and named != mine and not runs(session, event):
        raise Refusal(words.RUNNERS_ONLY)
    entry = named if named is not None and runs(session, event) else mine
    if entry is None:
        raise Refusal(words.NOT_REGISTERED)
    return entry


def table_of(event: Event, entry: Entry) -> Table | None:
    """The entry's table of the round in play, if it has one."""
    return next((t for t in event.round_tables() if any(entry.id in s for s in t.sides)), None)


async def log(session: Session, event: Event, what: str, **values: Any) -> None:
    await session.store.tournaments.log(
        event.id, what, session.now, by_user=session.user.id or None, **values
    )


async def to_room(session: Session, event: Event, effects: list[Effect]) -> None:
    """``effects`` for the tournament's room: here, or sent there."""
    place = await place_of(session, event)
    if place.room == session.command.place.room:
        session.effects += effects
    else:
        session.effects.append(Elsewhere(place, tuple(effects)))
        session.effects += effects  # the judge's own room hears it too


# ----- the organiser ----------------------------------------------------------------------


async def status(session: Session, event: Event | None) -> None:
    lang = session.lang
    if event is None:
        session.say(words.NONE_HERE)
        session.say(words.HELP)
        return
    s = event.settings
    session.say(
        words.STATUS,
        name=event.row.name,
        status=tr(lang, words.STATUS_NAMES.get(event.row.status, event.row.status)),
        round=event.round,
        rounds=s.rounds,
        entries=sum(1 for e in event.entries if e.playing),
    )


@action("help")
async def help_(session: Session, event: Event | None) -> None:
    session.say(words.HELP)


def read_settings(
    base: Settings, words_typed: list[str], now: float = 0.0
) -> tuple[Settings, list[str]]:
    """The ``name=value`` words over ``base``; the other words are returned (a name).
    ``closes=<minutes>``: registration closes that many minutes after ``now``."""
    changes: dict[str, Any] = {}
    other: list[str] = []
    known = sorted([*NUMBERS, *FLAGS, "format", "preset", "closes", "tiebreaks"])
    for word in words_typed:
        if "=" not in word:
            other.append(word)
            continue
        name, value = (p.strip() for p in word.split("=", 1))
        name, low = name.lower(), value.lower()
        if name in NUMBERS:
            lo, hi = NUMBERS[name]
            if not (low.isascii() and low.isdecimal()) or not lo <= int(low) <= hi:
                raise Refusal(words.BAD_SETTING_VALUE, name=name, text=value)
            changes[FIELD.get(name, name)] = int(low)
        elif name in FLAGS:
            flag = yes_or_no(low)
            if flag is None:
                raise Refusal(words.BAD_SETTING_VALUE, name=name, text=value)
            changes[name] = flag
        elif name == "closes":
            if not (low.isascii() and low.isdecimal()) or not 1 <= int(low) <= 7 * 24 * 60:
                raise Refusal(words.BAD_SETTING_VALUE, name=name, text=value)
            changes["closes_at"] = now + int(low) * 60
        elif name == "format":
            if low not in FORMATS:
                raise Refusal(words.BAD_SETTING_VALUE, name=name, text=value)
            changes["format"] = low
        elif name == "preset":
            if low not in preset_names():
                raise Refusal(words.BAD_SETTING_VALUE, name=name, text=value)
            changes["preset"] = low
        elif name in ("tiebreaks", "tiebreak"):
            changes["tiebreaks"] = read_tiebreaks(value)
        else:
            raise Refusal(words.BAD_SETTING, text=name, names=", ".join(known))
    settings = replace(base, **changes)
    check(settings)
    return settings, other


def read_tiebreaks(typed: str) -> tuple[str, ...]:
    """``buchholz,sb,difference``: the tie-breaks in order, each once (names or their
    short forms, standings.TIEBREAK_ALIASES); ``none`` for games won alone."""
    low = typed.lower().strip()
    if low in ("none", "ninguno", "nenhum"):
        return ()
    chosen: list[str] = []
    for part in low.replace(";", ",").split(","):
        name = TIEBREAK_ALIASES.get(part.strip(), part.strip().replace("-", "_"))
        if name not in TIEBREAKS:
            raise Refusal(words.BAD_TIEBREAK, text=part.strip() or typed,
                          names=", ".join(TIEBREAKS))  # fmt: skip
        if name in chosen:
            raise Refusal(words.TIEBREAK_TWICE, text=name)
        chosen.append(name)
    return tuple(chosen)


def check(settings: Settings) -> None:
    """A preset plays in a tournament when its tables are of two sides: partners (four
    players), or two players each for themselves; rotating partners need partners."""
    try:
        rules = Rules.from_preset(settings.preset)
    except DominoError:
        raise Refusal(words.BAD_SETTING_VALUE, name="preset", text=settings.preset) from None
    one_against_one = rules.family in ("individual", "divisor") and rules.min_players <= 2
    if not (rules.partners or one_against_one):
        raise Refusal(words.BAD_SETTING_VALUE, name="preset", text=settings.preset)
    if settings.format == "rotating" and not rules.partners:
        raise Refusal(words.BAD_SETTING_VALUE, name="format", text=settings.format)


def entry_size(settings: Settings) -> int:
    """The players of an entry: one where each plays for themselves (a game of two
    players; rotating partners, a new partner each round), else a pair."""
    if settings.format == "rotating":
        return 1
    return 2 if Rules.from_preset(settings.preset).partners else 1


def describe(session: Session, settings: Settings) -> str:
    values = {f.name: getattr(settings, f.name) for f in fields(Settings)}
    values.pop("closes_at", None)
    values["tiebreaks"] = ",".join(settings.tiebreaks) or "none"
    return " ".join(f"{k}={v}" for k, v in values.items())


@action("new")
async def new(session: Session, event: Event | None) -> None:
    """Open a tournament in this room (community admins)."""
    if not session.person.admin:
        raise Refusal(words.COMMUNITY_ADMINS_ONLY)
    if event is not None:
        raise Refusal(words.ALREADY, name=event.row.name)
    settings, name_words = read_settings(Settings(), rest(session), epoch(session.now))
    name = " ".join(name_words).strip()[:60] or session.community.name or "Torneo"
    store = session.store
    row = await store.tournaments.create(
        session.community.id, session.room.id, name, settings_json(settings),
        session.user.id, session.now,
    )  # fmt: skip
    event = await load(store, row)
    await log(session, event, "new", data=settings_json(settings))
    await closing_timer(session, event, settings)
    lang, s = session.lang, settings
    said = words.OPENED_SOLO if entry_size(s) == 1 else words.OPENED
    session.say(
        said,
        name=name,
        rounds=words.rounds(lang, s.rounds),
        format=tr(lang, words.FORMAT_NAMES[s.format]),
        preset=s.preset,
        target=s.target,
        minutes=words.minutes(lang, s.minutes),
    )


@action("set")
async def set_(session: Session, event: Event | None) -> None:
    event = require_runner(session, event)
    if event.row.status not in ("registration", "checkin"):
        raise Refusal(words.TOO_LATE_TO_SET)
    settings, _ = read_settings(event.settings, rest(session), epoch(session.now))
    size = entry_size(event.settings)
    if event.entries and entry_size(settings) != size:  # who registered stays as they did
        raise Refusal(words.STAYS_FOR_PAIRS if size == 2 else words.STAYS_FOR_SOLO)
    await save(session, event, settings=settings_json(settings))
    await log(session, event, "set", data=settings_json(settings))
    await closing_timer(session, event, settings)
    session.say(words.SETTINGS_SET, settings=describe(session, settings))


@action("judge")
async def judge(session: Session, event: Event | None) -> None:
    """``judge @person`` names a judge; ``judge remove @person`` takes it back."""
    event = require_runner(session, event)
    words_typed = rest(session)
    removing = bool(words_typed) and words_typed[0].lower() in ("remove", "quitar", "remover")
    wanted = " ".join(words_typed[1:] if removing else words_typed)
    user = await find_person(session, wanted)
    judges = [j for j in (event.row.judges or []) if j != user.id]
    if not removing:
        judges.append(user.id)
    await save(session, event, judges=judges)
    await log(session, event, "judge_removed" if removing else "judge", data={"user": user.id})
    said = words.JUDGE_REMOVED if removing else words.JUDGE_ADDED
    session.say(said, name=user.name or wanted, tournament=event.row.name)


async def find_person(session: Session, wanted: str) -> Any:
    """A person of this community, by @username, name or ``user:<id>``."""
    wanted = wanted.strip()
    if not wanted:
        raise Refusal(words.PARTNER_NEEDED)
    found = await session.store.people.search(
        session.community.platform, searched(wanted), session.community.id
    )
    if found is None:
        raise Refusal(words.PARTNER_UNKNOWN, text=wanted)
    return found


async def closing_timer(session: Session, event: Event, settings: Settings) -> None:
    """Registration closes by itself at ``closes_at`` (the ``tournament_close`` timer)."""
    if settings.closes_at is not None and event.row.status == "registration":
        when = at(settings.closes_at, session.now)
        await session.store.timers.set(event.row.room_id, CLOSE_TIMER, when, version=event.id)


async def close_timer(session: Session) -> None:
    """The time to close registration came (the organiser may have closed it already)."""
    async with session.desk.tournament_lock(session.community.id):
        row = await session.store.tournaments.active_in_community(session.community.id)
        if row is not None and row.status == "registration":
            event = await load(session.store, row)
            await close_now(session, event)


@action("close")
async def close_registration(session: Session, event: Event | None) -> None:
    event = require_runner(session, event)
    if event.row.status != "registration":
        raise Refusal(words.REGISTRATION_CLOSED)
    await close_now(session, event)


async def close_now(session: Session, event: Event) -> None:
    await session.store.timers.cancel(event.row.room_id, CLOSE_TIMER)
    await expire_invitations(session, event)
    await save(session, event, status="checkin")
    await log(session, event, "close")
    count = sum(1 for e in event.entries if e.playing)
    closed = trn(session.lang, "Registration is closed: {count} entry.",
                 "Registration is closed: {count} entries.", count, count=count)  # fmt: skip
    session.effects.append(Say(closed))
    if event.settings.checkin:
        session.say(words.CHECKIN_OPEN)


@action("start")
async def start(session: Session, event: Event | None) -> None:
    """Round 1: entries not checked in are dropped; the tables open."""
    event = require_runner(session, event)
    if event.row.status == "running" or event.row.status == "finished":
        raise Refusal(words.TOO_LATE_TO_SET)
    # entries not checked in drop out; counted first: a refused start changes nothing
    checked = event.settings.checkin and event.row.status == "checkin"
    dropping = [e for e in event.entries if checked and e.status == "registered"]
    playing = [e for e in event.entries if e.playing and e not in dropping]
    least = 4 if event.settings.format == "rotating" else 2
    if len(playing) < least:
        raise Refusal(words.TOO_FEW, least=least)
    repo = session.store.tournaments
    await expire_invitations(session, event)
    for entry in dropping:
        await repo.set_entry(event.id, entry.id, status="dropped")
    dropped = [e.name for e in dropping]
    event = await load(session.store, event.row)
    if dropped:
        session.say(words.DROPPED, teams=", ".join(dropped))
    await log(session, event, "start", data={"dropped": dropped})
    session.effects += await open_round(session, event)


@action("next")
async def next_round(session: Session, event: Event | None) -> None:
    """Open the next round now (the organiser, when the break is too long)."""
    event = require_runner(session, event)
    await next_if_due(session, event)


async def next_if_due(session: Session, event: Event) -> None:
    tables = event.round_tables()
    if event.row.status != "running" or any(t.status != "done" for t in tables):
        raise Refusal(words.NOT_RUNNING)
    if event.round >= event.settings.rounds:
        raise Refusal(words.NOT_RUNNING)
    await session.store.timers.cancel(event.row.room_id, rounds.ROUND_TIMER)
    session.effects += await open_round(session, event)


async def round_timer(session: Session) -> None:
    """The break after a round is over (the ``tournament_round`` timer): the next round."""
    async with session.desk.tournament_lock(session.community.id):
        row = await session.store.tournaments.active_in_community(session.community.id)
        if row is None:
            return
        event = await load(session.store, row)
        tables = event.round_tables()
        over = all(t.status == "done" for t in tables)
        if event.row.status == "running" and over and event.round < event.settings.rounds:
            session.effects += await open_round(session, event)


async def reopen_tables(session: Session) -> None:
    """A restart, for tournament ``session.args[1]``: the results of its tables whose
    game ended while their result was never written, written; the results never told,
    told; the tables of the round in play that never got their room, opened."""
    async with session.desk.tournament_lock(session.community.id):
        try:
            event = await load_id(session.store, int(session.args[1]))
        except (NotFound, ValueError):
            return
        for table in playing_tables(event):
            row = await session.store.games.load(table.game_id)
            if row.status == "finished":  # stopped between the game's end and its table's
                loaded = session.desk.loaded(replace(row, status="playing"), keep=False)
                await result_of(session, loaded)  # (told below, with the others)
        event = await load_id(session.store, event.id)
        session.effects += await rounds.untold(session, event)
        session.effects += await rounds.reopen(session, event)


def playing_tables(event: Event) -> list[Any]:
    return [t for t in event.round_tables() if t.status == "playing" and t.game_id]


@action("pause")
async def pause(session: Session, event: Event | None) -> None:
    event = require_runner(session, event)
    clock = dict(event.row.clock or {})
    if event.row.status != "running" or not clock.get("ends_at") or clock.get("paused_at"):
        raise Refusal(words.NOT_RUNNING)
    clock["paused_at"] = epoch(session.now)
    await save(session, event, clock=clock)
    for table in playing_tables(event):
        await session.store.timers.cancel(table.room_id, "clock")
    await log(session, event, "pause", round=event.round)
    await to_room(session, event, [Say(tr(session.lang, words.PAUSED, round=event.round))])


@action("resume")
async def resume(session: Session, event: Event | None) -> None:
    event = require_runner(session, event)
    clock = dict(event.row.clock or {})
    if not clock.get("paused_at"):
        raise Refusal(words.NOT_PAUSED)
    stopped = epoch(session.now) - clock.pop("paused_at")
    clock["ends_at"] += stopped
    # the tables' clocks move by the pause and by what was added during it
    await reclock(session, event, clock, stopped + clock.pop("added_in_pause", 0))
    await log(session, event, "resume", round=event.round, data={"seconds": round(stopped)})
    left = max(0, round((clock["ends_at"] - epoch(session.now)) / 60))
    lang = session.lang
    said = tr(lang, words.RESUMED, round=event.round, minutes=words.minutes(lang, left))
    await to_room(session, event, [Say(said)])


@action("extend")
async def extend(session: Session, event: Event | None) -> None:
    event = require_runner(session, event)
    clock = dict(event.row.clock or {})
    typed = rest(session)
    if event.row.status != "running" or not clock.get("ends_at"):
        raise Refusal(words.NOT_RUNNING)
    if not typed or not typed[0].isdecimal() or not 1 <= int(typed[0]) <= 240:
        raise Refusal(words.BAD_SETTING_VALUE, name="minutes", text=" ".join(typed) or "?")
    minutes = int(typed[0])
    clock["ends_at"] += minutes * 60
    if clock.get("paused_at"):  # paused: the tables' clocks move on resume
        clock["added_in_pause"] = clock.get("added_in_pause", 0) + minutes * 60
        await save(session, event, clock=clock)
    else:
        await reclock(session, event, clock, minutes * 60)
    await log(session, event, "extend", round=event.round, points=minutes)
    lang = session.lang
    said = tr(lang, words.EXTENDED, round=event.round, minutes=words.minutes(lang, minutes))
    await to_room(session, event, [Say(said)])


async def reclock(session: Session, event: Event, clock: dict[str, Any], moved: float) -> None:
    """The round's clock moved ``moved`` seconds later: every table still playing runs
    out that much later than its own end (each table's clock runs from its game's start),
    and its game's clock (what the board shows left) moves with it."""
    await save(session, event, clock=clock)
    for table in playing_tables(event):
        ends = await shift_clock(session, table, moved)
        if ends is not None:
            await session.store.timers.set(
                table.room_id, "clock", at(ends, session.now), game_id=table.game_id
            )


async def shift_clock(session: Session, table: Any, seconds: float) -> float | None:
    """A table's game clock starts ``seconds`` later (a pause, an extension); when it
    runs out now (None: the table has no game clock running)."""
    row = await session.store.games.load(table.game_id)
    session.desk.games.pop(row.id, None)  # a copy of its own: the table may be moving
    loaded = session.desk.loaded(row, keep=False)
    game = loaded.game
    limit = loaded.rules.time_limit_minutes
    if row.status != "playing" or game is None or game.started_at is None or not limit:
        return None
    game.started_at += seconds
    loaded.notes.started_at = game.started_at
    # nobody's turn moved: the table's timers stay, stamped with the version saved
    await save_game(session, loaded, keep_game=False, timers=TimerPlan(restamp=True))
    return game.started_at + limit * 60


@action("cancel")
async def cancel(session: Session, event: Event | None) -> None:
    event = require_runner(session, event)
    await save(session, event, status="cancelled", finished_at=session.now)
    await session.store.timers.cancel(event.row.room_id, rounds.ROUND_TIMER)
    await log(session, event, "cancel")
    session.say(words.CANCELLED, name=event.row.name)


# ----- people ---------------------------------------------------------------------------


@action("register")
async def register(session: Session, event: Event | None) -> None:
    """``register <team name> [@partner]``: a pair (the person and their partner), or in
    an individual event the person alone. The organiser may register others and add
    computer substitutes (``computer``) and late entries."""
    assert event is not None
    typed = rest(session)
    boss = runs(session, event)
    late = event.row.status != "registration"
    if late and not boss:
        raise Refusal(words.REGISTRATION_CLOSED)
    if event.row.status in ("finished", "cancelled"):
        raise Refusal(words.REGISTRATION_CLOSED)
    too_late(event)
    people = [w for w in typed if w.startswith(("@", "user:")) or MENTION.fullmatch(w)]
    bots = [w for w in typed if w.lower() in ("computer", "computadora", "computador", *STRENGTHS)]
    name = " ".join(w for w in typed if w not in people and w not in bots).strip()[:40]
    size = entry_size(event.settings)
    members: list[Member] = []
    users = [await find_person(session, w) for w in people]
    themselves = not boss or len(users) + len(bots) < size
    if themselves and not any(u.id == session.user.id for u in users):
        users.insert(0, await session.store.people.user_by_id(session.user.id))
    for user in users[:size]:
        members.append(Member(user.name or "?", user=user.id))
    # computers in an entry: the organiser's (a substitute, a club's practice event)
    computer = tr(session.lang, "Computer")
    for word in bots[: max(0, size - len(members))] if boss else []:
        strength = word.lower() if word.lower() in STRENGTHS else "normal"
        # alone in the entry, the computer is the entry ("Player 2", not "Player 2 1");
        # in a pair each is told apart by a letter ("Team 1 A", "Team 1 B")
        own = name or computer
        members.append(Member(own if size == 1 else f"{own} {'AB'[len(members)]}", bot=strength))
    if len(members) < size:
        raise Refusal(words.PARTNER_NEEDED)
    name = name or " / ".join(m.name for m in members)
    if event.entry_named(name) is not None:
        raise Refusal(words.TEAM_NAME_TAKEN, team=name)
    for member in members:
        if member.user is not None and (other := event.entry_of_user(member.user)) is not None:
            raise Refusal(words.IN_ANOTHER_ENTRY, name=member.name, team=other.name)
    # a partner named by a member (not by who runs the event) is invited: the pair counts
    # once they accept; nobody is put in a team they did not choose
    me = session.user.id
    members = [replace(m, pending=not boss and m.user not in (None, me)) for m in members]
    invited = [m for m in members if m.pending]
    repo = session.store.tournaments
    status = "checked_in" if event.row.status != "registration" else "registered"
    entry = await repo.add_entry(
        event.id, name, members_json(tuple(members)), session.now, late=late
    )
    if invited:
        status = "invited"
    if status != "registered":
        await repo.set_entry(event.id, entry.id, status=status)
    if any(m.user == me for m in members):  # in a pair of their own: theirs are declined
        await decline_all(session, event, me, keep=entry.id)
    await log(session, event, "register", entry=entry.id,
              data={"name": name, "late": late, "invited": [m.user for m in invited]})  # fmt: skip
    if invited:
        await invite(session, name, entry.id, invited)
        return
    is_in(session, event, name, members)


def too_late(event: Event) -> None:
    """A late entry (docs/tournaments.md, "Late entries and withdrawals") joins until
    half the rounds have started, with nothing for the rounds it missed; a round robin's
    schedule is made at its start, so it takes none once running."""
    if event.row.status != "running":
        return
    if event.settings.format == "round_robin":
        raise Refusal(words.LATE_ROUND_ROBIN)
    rounds_of = event.settings.rounds
    if event.round * 2 >= rounds_of:
        raise Refusal(words.LATE_TOO_LATE, round=event.round, rounds=rounds_of)


def is_in(session: Session, event: Event, team: str, members: Sequence[Member]) -> None:
    """The room is told a team is in (``event`` as loaded before it was)."""
    count = sum(1 for e in event.entries if e.playing) + 1
    said = trn(
        session.lang,
        "{team} is in ({members}). {count} entry so far.",
        "{team} is in ({members}). {count} entries so far.",
        count,
        team=team,
        members=", ".join(m.name for m in members),
        count=count,
    )
    session.effects.append(Say(said))


async def invite(session: Session, team: str, entry_id: int, invited: list[Member]) -> None:
    """The partners named are asked in the room, with a button to accept (it names the
    entry by its number: a team's name may not fit in a button's data)."""
    people = []
    for member in invited:
        assert member.user is not None
        user = await session.store.people.user_by_id(member.user)
        if user.platform_id is not None:
            people.append(Person(user.platform_id, member.name, user.locale))
    said = tr(session.lang, words.INVITATION, team=team, person=session.person.name,
              partner=", ".join(m.name for m in invited))  # fmt: skip
    button = Button(tr(session.lang, words.ACCEPT_BUTTON), f"tournament accept {entry_id}")
    session.effects.append(Say(said, mention=tuple(people), buttons=(button,)))


async def decline_all(
    session: Session, event: Event, user: int, keep: int | None = None
) -> list[str]:
    """The invitations ``user`` has not accepted, withdrawn (they chose another pair):
    the names of those teams."""
    gone = []
    for entry in event.invitations_of(user):
        if entry.id != keep and entry.status == "invited":
            await session.store.tournaments.remove_entry(event.id, entry.id)
            await log(session, event, "decline", entry=entry.id, data={"team": entry.name})
            gone.append(entry.name)
    return gone


@action("accept")
async def accept(session: Session, event: Event | None) -> None:
    """``accept [team]``: a person named as a partner takes their place in the pair."""
    assert event is not None
    me = session.user.id
    if event.row.status != "registration":
        raise Refusal(words.REGISTRATION_CLOSED)
    asked = event.invitations_of(me)
    typed = " ".join(rest(session))
    if typed:
        asked = [e for e in asked if e == event.entry_named(typed)]
    if not asked:
        raise Refusal(words.NO_INVITATION)
    if len(asked) > 1:
        raise Refusal(words.WHICH_INVITATION, teams=", ".join(e.name for e in asked))
    [entry] = asked
    if (other := event.entry_of_user(me)) is not None:
        raise Refusal(words.IN_ANOTHER_ENTRY, name=session.person.name, team=other.name)
    members = tuple(replace(m, pending=False) if m.user == me else m for m in entry.members)
    complete = not any(m.pending for m in members)
    await session.store.tournaments.set_entry(
        event.id, entry.id, members=members_json(members),
        status="registered" if complete else None,
    )  # fmt: skip
    await decline_all(session, event, me, keep=entry.id)
    await log(session, event, "accept", entry=entry.id)
    is_in(session, event, entry.name, members)


async def expire_invitations(session: Session, event: Event) -> None:
    """Registration closes: pairs whose partner never accepted are not in."""
    expired = [e for e in event.entries if e.status == "invited"]
    for entry in expired:
        await session.store.tournaments.remove_entry(event.id, entry.id)
        await log(session, event, "expired", entry=entry.id, data={"team": entry.name})
    if expired:
        session.say(words.INVITATIONS_EXPIRED, teams=", ".join(e.name for e in expired))


@action("leave")
async def withdraw(session: Session, event: Event | None) -> None:
    assert event is not None
    if event.entry_of_user(session.user.id) is None and not rest(session):
        declined = await decline_all(session, event, session.user.id)
        if declined:  # invited and not in: leaving declines
            session.say(words.DECLINED, team=", ".join(declined), person=session.person.name)
            return
    entry = entry_acted_for(session, event)
    repo = session.store.tournaments
    if event.row.status in ("registration", "checkin"):
        await repo.remove_entry(event.id, entry.id)
    elif event.row.status != "running":
        raise Refusal(words.EVENT_OVER, name=event.row.name)
    elif not entry.playing:
        raise Refusal(words.NOT_IN_ANYMORE, team=entry.name)
    else:
        await repo.set_entry(event.id, entry.id, status="dropped")
    await log(session, event, "withdraw", entry=entry.id, data={"team": entry.name})
    if event.row.status in ("registration", "checkin"):
        session.say(words.WITHDRAWN, team=entry.name)
        return
    # during the event (docs/tournaments.md, "Late entries and withdrawals"): the table
    # still on is lost by forfeit, the results so far stand, no later round pairs it
    said = tr(session.lang, words.WITHDRAWN, team=entry.name)
    lost = await table_lost(session, await load(session.store, event.row), entry)
    await to_room(session, event, [Say(said), *lost])


@action("list")
async def entries(session: Session, event: Event | None) -> None:
    assert event is not None
    if not event.entries:
        session.say(words.NO_ENTRIES)
        return
    title = tr(session.lang, words.ENTRIES_TITLE, name=event.row.name)
    lines = []
    for i, entry in enumerate(event.entries, 1):
        mark = {"checked_in": " ✓", "dropped": " –", "expelled": " ✗"}.get(entry.status, "")
        if entry.status == "invited":
            mark = " (" + tr(session.lang, words.INVITED) + ")"
        late = " " + tr(session.lang, words.LATE) if entry.late else ""
        lines.append(f"{i}. {entry.name}{mark}{late}: {', '.join(m.name for m in entry.members)}")
    text = "\n".join([title, *lines])
    if len(text) <= LIST_LIMIT:
        session.effects.append(Say(text))
        return
    # a big event: the first lines a message holds, the whole list as a file
    cut = rounds.cut_to_caption(
        session.lang, title, lines, LIST_LIMIT, words.MORE_ENTRIES_IN_FILE, ENTRIES_FILE
    )
    session.effects += [Say(cut), File(ENTRIES_FILE, entries_csv(event).encode(), title)]


def entries_csv(event: Event) -> str:
    """Every entry, a line each: its number, team, members, status, and whether late."""
    out = io.StringIO()
    writer = spreadsheet.Writer(out)
    writer.writerow(["number", "team", "members", "status", "late"])
    for i, entry in enumerate(event.entries, 1):
        members = " / ".join(m.name for m in entry.members)
        writer.writerow([i, entry.name, members, entry.status, "yes" if entry.late else ""])
    return out.getvalue()


@action("checkin")
async def checkin(session: Session, event: Event | None) -> None:
    assert event is not None
    if event.row.status != "checkin":
        raise Refusal(words.NOT_CHECKIN_TIME)
    entry = entry_acted_for(session, event)
    await session.store.tournaments.set_entry(event.id, entry.id, status="checked_in")
    session.say(words.CHECKED_IN, team=entry.name)


@action("standings")
async def standings(session: Session, event: Event | None) -> None:
    assert event is not None
    session.effects += await standings_told(session, event)


@action("export")
async def export(session: Session, event: Event | None) -> None:
    """A zip: the standings as CSV, every table as CSV, and every table's game record."""
    assert event is not None
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("standings.csv", rounds.standings_csv(event, current(event)))
        archive.writestr("tables.csv", tables_csv(event))
        archive.writestr("log.csv", await log_csv(session, event))
        for table in event.tables:
            if table.game_id is None:
                continue
            row, record = await record_as_seen(session.store, session.desk, table.game_id)
            if row.status not in ("finished", "cancelled"):
                continue  # a game in play shows nobody its hands
            name = f"round-{table.round}-table-{table.number}.json"
            archive.writestr(name, json.dumps(record, ensure_ascii=False, indent=1))
    name = f"tournament-{event.id}.zip"
    session.effects.append(File(name, out.getvalue(), event.row.name))


def tables_csv(event: Event) -> str:
    out = io.StringIO()
    writer = spreadsheet.Writer(out)
    writer.writerow(["round", "table", "side_a", "side_b", "score_a", "score_b", "winner",
                     "ended_by", "hands"])  # fmt: skip
    for t in sorted(event.tables, key=lambda t: (t.round, t.number)):
        winner = "" if t.winner is None else event.side_name(t.sides[t.winner])
        writer.writerow([t.round, t.number, event.side_name(t.sides[0]),
                         event.side_name(t.sides[1]), t.score[0], t.score[1], winner,
                         t.ended_by or "", t.hands])  # fmt: skip
    return out.getvalue()


def logged_team(event: Event, item: LogRow) -> str:
    """The team a log line is about ("" for none): by its name now, or, for one withdrawn
    during registration (its entry is gone, its log lines stay), as the line kept it."""
    if not item.entry_id:
        return ""
    entry = next((e for e in event.entries if e.id == item.entry_id), None)
    if entry is not None:
        return entry.name
    return str(item.data.get("team") or f"#{item.entry_id}")


async def log_csv(session: Session, event: Event) -> str:
    out = io.StringIO()
    writer = spreadsheet.Writer(out)
    writer.writerow(["at", "by", "action", "round", "table", "entry", "points", "reason"])
    for item in await session.store.tournaments.logs(event.id):
        entry = logged_team(event, item)
        points = "" if item.points is None else item.points
        writer.writerow([item.at.isoformat() if item.at else "", item.by_user or "",
                         item.action, item.round or "", item.table_number or "", entry,
                         points, item.reason or ""])  # fmt: skip
    return out.getvalue()


# ----- judges -----------------------------------------------------------------------------


def team_and_rest(event: Event, typed: list[str]) -> tuple[Any, list[str]]:
    """The team named by the first words (the longest name that matches), and the rest."""
    for cut in range(len(typed), 0, -1):
        entry = event.entry_named(" ".join(typed[:cut]))
        if entry is not None:
            return entry, typed[cut:]
    raise Refusal(words.UNKNOWN_TEAM, text=" ".join(typed) or "?")


def table_named(event: Event, text: str, number_of_round: int | None = None) -> Any:
    if text.isdecimal():
        found = [t for t in event.round_tables(number_of_round) if t.number == int(text)]
        if found:
            return found[0]
    raise Refusal(words.UNKNOWN_TABLE, text=text)


def judge_name(session: Session) -> str:
    return session.person.name


@action("penalty")
async def penalty(session: Session, event: Event | None) -> None:
    """``penalty <team> [points] [reason ...]``: points taken from a team (20 unless said),
    written on its table's sheet (seed 001: «se restarán veinte (-20) puntos»)."""
    await judges_points(session, event, "penalty")


@action("award")
async def award(session: Session, event: Event | None) -> None:
    """``award <team> [points] [reason ...]``: points given to a team (20 unless said),
    on its table's sheet (seed 001: «la otra pareja recibe 20 puntos»)."""
    await judges_points(session, event, "award")


async def judges_points(session: Session, event: Event | None, what: str) -> None:
    """A penalty or an award goes on the sheet of the team's table in this round: into
    its game while it plays (the total, the winner and the target follow it), into its
    result once done. A team with no table this round (a bye, before round 1) has it in
    the standings' difference instead."""
    event = require_organiser(session, event)
    entry, after = team_and_rest(event, rest(session))
    table = table_of(event, entry)
    not_their_own(session, event, entry, table)
    points = event.settings.penalty
    if after and after[0].lstrip("-+").isdecimal():
        points = abs(int(after[0]))
        after = after[1:]
    low, high = NUMBERS["penalty"]
    if not low <= points <= high:
        raise Refusal(words.BAD_POINTS, low=low, high=high)
    reason = " ".join(after).strip()[:200] or tr(session.lang, words.NO_REASON)
    judge = judge_name(session)
    minus = -points if what == "penalty" else points  # for the team: how much worse or better
    shown = f"{minus:+d}"
    if table is None:
        await log(session, event, what, round=event.round, entry=entry.id, points=points,
                  reason=reason)  # fmt: skip
        message = {"penalty": words.PENALTY, "award": words.AWARD}[what]
        said = tr(session.lang, message, team=entry.name, points=shown, reason=reason,
                  judge=judge)  # fmt: skip
        await to_room(session, event, [Say(said)])
        return
    side = next(i for i, s in enumerate(table.sides) if entry.id in s)
    values = {"round": table.round, "table": table.number, "entry": entry.id,
              "points": points, "reason": reason}  # fmt: skip
    if table.status == "done":
        await on_result(session, event, table, side, minus, what, values)
        return
    await on_game(session, event, table, side, minus, what, values)


async def on_result(
    session: Session, event: Event, table: Table, side: int, minus: int, what: str,
    values: dict[str, Any],
) -> None:  # fmt: skip
    """A done table's result with the judges' points: the sheet's sum, the winner
    following it as the game counts (more or fewer points better)."""
    rules = rules_of(event)
    score = list(table.score)
    score[side] += minus if more_is_better(rules) else -minus
    if score[0] == score[1]:
        winner = None
    else:
        ahead = 0 if score[0] > score[1] else 1
        winner = ahead if more_is_better(rules) else 1 - ahead
    await log(session, event, what, data={"written": "result", "was": list(table.score)},
              **values)  # fmt: skip
    said = tr(session.lang, words.ON_RESULT, what=tr(session.lang, words.WHAT[what]),
              team=event.entry(values["entry"]).name, points=f"{minus:+d}",
              reason=values["reason"], table=table.number, x=score[0], y=score[1],
              judge=judge_name(session))  # fmt: skip
    effects = await rounds.table_done(
        session, event, table, (score[0], score[1]), winner, table.ended_by or "judge",
        table.hands,
    )  # fmt: skip
    await to_room(session, event, [Say(said), *effects])


async def on_game(
    session: Session, event: Event, table: Table, side: int, minus: int, what: str,
    values: dict[str, Any],
) -> None:  # fmt: skip
    """Written into the table's game in play: its room sees the row on the sheet and the
    board; a game it ends (an award reaching the target) ends as after a hand."""
    loaded = await table_game(session, table)
    game = loaded.game
    assert game is not None
    rules = game.rules
    written = minus if more_is_better(rules) else -minus
    entry = event.entry(values["entry"])
    game.adjust(side, written, values["reason"])
    said = tr(session.lang, words.ON_GAME, what=tr(session.lang, words.WHAT[what]), team=entry.name,
              points=f"{minus:+d}", reason=values["reason"], table=table.number,
              judge=judge_name(session))  # fmt: skip
    here = len(session.effects)
    if game.over:
        await save_game(session, loaded, status="finished", keep_game=False,
                        timers=TimerPlan(cancel=(ALL,)))  # fmt: skip
        session.effects.append(board_as_it_is(session, loaded))
        await finish(session, loaded)  # its result: the tournament reacts (GameEnded)
    else:  # nobody's turn moved: the timers stay, with the version saved
        await save_game(session, loaded, timers=TimerPlan(restamp=True))
        if game.hand is not None:  # the board in play, edited with the new total
            session.effects.append(board_as_it_is(session, loaded))
        else:  # between hands the board stays the hand's picture; the next one shows it
            names = names_of(loaded, session.lang)
            session.effects.append(Say(score_text(session.lang, game, names)))
    # logged once saved: a save that lost a race with a move runs the command again
    await log(session, event, what, data={"written": "game", "game": loaded.row.id}, **values)
    at_table = [Say(said), *session.effects[here:]]
    del session.effects[here:]
    await to_table_and_room(session, event, loaded, at_table, said)


async def table_game(
    session: Session, table: Table, not_yet: str = words.TABLE_NOT_PLAYING
) -> Loaded:
    """The table's game in play (a hand dealt), as a copy of its own: the table's room may
    be moving meanwhile (its save then loses the race and the command runs again).
    Refused with ``not_yet`` before its first deal."""
    if table.status == "done":
        raise Refusal(words.TABLE_FINISHED, table=table.number)
    row = None if table.game_id is None else await session.store.games.load(table.game_id)
    if row is not None:
        session.desk.games.pop(row.id, None)
    loaded = None if row is None or row.status != "playing" else session.desk.loaded(row, False)
    game = None if loaded is None else loaded.game
    if loaded is None or game is None or game.over or not game.logs:
        raise Refusal(not_yet, table=table.number)
    return loaded


async def to_table_and_room(
    session: Session, event: Event, loaded: Loaded, at_table: list[Effect], said: str
) -> None:
    """``at_table`` for the table's room, ``said`` for the tournament's room too, from
    wherever the judge acted."""
    table_room = await session.store.people.room_by_id(loaded.row.room_id)
    community = session.community
    place = Place(community.platform, community.platform_id, table_room.platform_id)
    if place.room != session.command.place.room:
        session.effects.append(Elsewhere(place, tuple(at_table)))
        await to_room(session, event, [Say(said)])
    else:  # the judge rules from the table's own room
        session.effects += at_table
        hall = await place_of(session, event)
        if hall.room != place.room:
            session.effects.append(Elsewhere(hall, (Say(said),)))


@action("substitute")
async def substitute(session: Session, event: Event | None) -> None:
    """``substitute <table> <seat>``: a computer sits in for the person in that seat of a
    table in play (one who walked out), for the rest of its game."""
    event = require_organiser(session, event)
    typed = rest(session)
    table = table_named(event, typed[0] if typed else "?")
    not_their_own(session, event, None, table)
    loaded = await table_game(session, table, words.NOT_BEGUN_TO_SUBSTITUTE)
    game = loaded.game
    assert game is not None
    seats = loaded.seats[: game.players]
    text = typed[1] if len(typed) > 1 else "?"
    number = int(text) if text.isdecimal() else 0
    if not 1 <= number <= len(seats) or not seats[number - 1].human:
        raise Refusal(words.NO_SUCH_SEAT, table=table.number, text=text, seats=len(seats))
    seat = number - 1
    seats[seat].bot = "normal"
    name = name_of(seats[seat], seat, session.lang)
    # its turn now: the computer plays at once (the turn timer, due now, finds it seated)
    due = (("turn", session.now, {"seat": seat}),) if game.to_move == seat else ()
    await save_game(session, loaded, timers=TimerPlan(set=due, restamp=True))
    await log(session, event, "substitute", round=table.round, table=table.number,
              data={"seat": seat, "name": name})  # fmt: skip
    said = tr(session.lang, words.SUBSTITUTED_BY_JUDGE, table=table.number, name=name,
              judge=judge_name(session))  # fmt: skip
    await to_table_and_room(session, event, loaded, [Say(said)], said)


@action("forfeit")
async def forfeit(session: Session, event: Event | None) -> None:
    """``forfeit <table> <team>``: the named team wins that table of this round."""
    event = require_organiser(session, event)
    typed = rest(session)
    if not typed:
        raise Refusal(words.UNKNOWN_TABLE, text="?")
    table = table_named(event, typed[0])
    not_their_own(session, event, None, table)
    entry, _ = team_and_rest(event, typed[1:])
    side = next((i for i, s in enumerate(table.sides) if entry.id in s), None)
    if side is None:
        raise Refusal(words.UNKNOWN_TEAM, text=entry.name)
    points = event.settings.forfeit_points
    score = (points, 0) if side == 0 else (0, points)
    await stop_game(session, table)
    await log(session, event, "forfeit", round=table.round, table=table.number, entry=entry.id)
    said = tr(session.lang, words.FORFEIT_AWARDED, table=table.number, team=entry.name,
              score=f"{score[0]}-{score[1]}", judge=judge_name(session))  # fmt: skip
    effects = await rounds.table_done(session, event, table, score, side, "forfeit", table.hands)
    await to_room(session, event, [Say(said), *effects])


@action("void")
async def void(session: Session, event: Event | None) -> None:
    """``void <table>``: the table's game is annulled: no winner, no points."""
    event = require_organiser(session, event)
    typed = rest(session)
    table = table_named(event, typed[0] if typed else "?")
    not_their_own(session, event, None, table)
    await stop_game(session, table)
    await log(session, event, "void", round=table.round, table=table.number,
              reason=" ".join(typed[1:])[:200] or None)  # fmt: skip
    said = tr(session.lang, words.VOIDED, table=table.number, judge=judge_name(session))
    effects = await rounds.table_done(session, event, table, (0, 0), None, "judge", table.hands)
    await to_room(session, event, [Say(said), *effects])


@action("expel")
async def expel(session: Session, event: Event | None) -> None:
    """``expel <team> [reason]``: out of the tournament; its table in play is lost."""
    event = require_organiser(session, event)
    entry, after = team_and_rest(event, rest(session))
    not_their_own(session, event, entry, table_of(event, entry))
    reason = " ".join(after).strip()[:200] or tr(session.lang, words.NO_REASON)
    await session.store.tournaments.set_entry(event.id, entry.id, status="expelled")
    await log(session, event, "expel", round=event.round, entry=entry.id, reason=reason)
    effects: list[Effect] = [Say(tr(session.lang, words.EXPELLED, team=entry.name,
                                    reason=reason, judge=judge_name(session)))]  # fmt: skip
    effects += await table_lost(session, await load(session.store, event.row), entry)
    await to_room(session, event, effects)


async def table_lost(session: Session, event: Event, entry: Entry) -> list[Effect]:
    """The entry (out of the event: expelled or withdrawn) loses its table of the round
    still on, by forfeit (``forfeit_points`` to 0); its game ends without a result."""
    effects: list[Effect] = []
    for table in event.round_tables():
        side = next((i for i, s in enumerate(table.sides) if entry.id in s), None)
        if side is None or table.status == "done":
            continue
        points = event.settings.forfeit_points
        score = (0, points) if side == 0 else (points, 0)
        await stop_game(session, table)
        effects += await rounds.table_done(session, event, table, score, 1 - side, "forfeit",
                                           table.hands)  # fmt: skip
    return effects


@action("correct")
async def correct(session: Session, event: Event | None) -> None:
    """``correct <table> <x>-<y> [round]``: a result set right (the winner follows)."""
    event = require_organiser(session, event)
    typed = rest(session)
    if len(typed) < 2:
        raise Refusal(words.BAD_SCORE, text=" ".join(typed) or "?")
    number_of_round = int(typed[2]) if len(typed) > 2 and typed[2].isdecimal() else None
    table = table_named(event, typed[0], number_of_round)
    not_their_own(session, event, None, table)
    parts = typed[1].replace("–", "-").split("-")
    # a score as a sheet has it: whole numbers up to the highest target (and no further:
    # a number from outside never reaches storage unbounded)
    if len(parts) != 2 or not all(SCORE.fullmatch(p) for p in parts):
        raise Refusal(words.BAD_SCORE, text=typed[1])
    score = (int(parts[0]), int(parts[1]))
    winner = None if score[0] == score[1] else (0 if score[0] > score[1] else 1)
    _, _, way = goal_of(rules_of(event), 1)
    if winner is not None and way in (WAYS["reach_loses"], WAYS["fewest"]):  # lower wins
        winner = 1 - winner
    await stop_game(session, table)
    await log(session, event, "correct", round=table.round, table=table.number,
              data={"score": list(score), "was": list(table.score)})  # fmt: skip
    said = tr(session.lang, words.CORRECTED, table=table.number, round=table.round,
              x=score[0], y=score[1], judge=judge_name(session))  # fmt: skip
    effects = await rounds.table_done(session, event, table, score, winner, "judge", table.hands)
    await to_room(session, event, [Say(said), *effects])


RULINGS_LOGGED = ("penalty", "award", "forfeit", "void", "expel", "correct", "substitute",
                  "pause", "resume", "extend", "judge")  # fmt: skip


@action("log")
async def show_log(session: Session, event: Event | None) -> None:
    assert event is not None
    items = await session.store.tournaments.logs(event.id)
    kept = [i for i in items if i.action in RULINGS_LOGGED]
    if not kept:
        session.say(words.LOG_EMPTY)
        return
    lines = [tr(session.lang, words.LOG_TITLE)]
    names: dict[int, str] = {}

    async def name_of(user_id: int | None) -> str:  # (a person forgotten has no name)
        if user_id is None:
            return ""
        if user_id not in names:
            try:
                names[user_id] = (await session.store.people.user_by_id(user_id)).name or ""
            except NotFound:
                names[user_id] = ""
        return names[user_id]

    for item in kept[-30:]:
        entry = logged_team(event, item)
        named = await name_of(item.data.get("user")) if item.action == "judge" else ""
        by = await name_of(item.by_user)
        bits = [item.action, entry or named, f"r{item.round}" if item.round else "",
                f"t{item.table_number}" if item.table_number else "",
                "" if item.points is None else str(item.points), item.reason or "",
                tr(session.lang, words.LOG_BY, name=by) if by else ""]  # fmt: skip
        lines.append(" · ".join(b for b in bits if b))
    session.effects.append(Say("\n".join(lines)))


async def stop_game(session: Session, table: Any) -> None:
    """The table's game, if still in play, ends without a result (the judges decided);
    a move made meanwhile at the table loses the race (the save's version) and is
    refused there."""
    if table.game_id is None:
        return
    row = await session.store.games.load(table.game_id)
    if row.status not in ACTIVE:
        return
    loaded = session.desk.loaded(row, keep=False)
    await save_game(
        session, loaded, status="cancelled", keep_game=False, timers=TimerPlan(cancel=(ALL,))
    )
