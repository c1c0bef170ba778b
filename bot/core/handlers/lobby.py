"""The lobby: opening a game, taking and leaving seats, computer players, beginning
and cancelling."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta

from bot.core import house_rules, texts
from bot.core.between_hands import someone_left
from bot.core.progress import begin_game, close, progress
from bot.core.registry import handles
from bot.core.saving import save
from bot.core.seats import Seat, seat_of, seats_json
from bot.core.session import Refusal, Session
from bot.core.showing import hand_for, lobby_of, name_of
from bot.core.teams import drawn_seats
from bot.core.tournament import tables
from engine.errors import DominoError
from engine.players import STRENGTHS
from engine.presets import preset_names
from engine.reach import LONGEST, Reach, hands_to_end
from engine.record import new_record
from engine.rules import OPTION_NAMES, Rules
from engine.tiles import set_size
from storage.notes import GameNotes

LOBBY_MINUTES = 15  # a lobby nobody begins closes itself
DEFAULT_PRESET = "partnership"  # a room that chose none plays this


def unknown_preset(preset: str) -> Refusal:
    return Refusal(texts.UNKNOWN_PRESET, preset=preset, presets=", ".join(sorted(preset_names())))


@handles("new")
async def new(session: Session) -> None:
    """Open a game of the room's preset, or of the one named: to a target or a number of
    rounds (the number after it), with the room's house rules for that preset and the
    ``name=value`` options typed (bot/core/house_rules.py; the engine decides what fits)."""
    if await session.active() is not None:
        raise Refusal(texts.ALREADY_OPEN)
    settings = session.room.settings
    preset, number, words = read_new(session.args, settings.preset or DEFAULT_PRESET)
    defaults = house_rules.room_defaults(settings, preset)
    try:
        Rules.from_preset(preset, **defaults)
    except (DominoError, TypeError):
        raise Refusal(texts.BAD_OPTIONS, preset=preset) from None
    try:
        options = {**defaults, **house_rules.read_assignments(preset, words)}
        if number is not None:  # the target, or (Mexican Train) how many rounds
            counted = Rules.from_preset(preset).number_option
            options[counted] = house_rules.read_value(counted, number)
        rules = house_rules.build(preset, options)
    except house_rules.HouseRuleError as error:
        raise Refusal(error.message, **error.params) from None
    seats = [Seat() for _ in range(rules.max_players)]
    seats[0] = seat_for(session)
    notes = GameNotes(creator=session.user.id)
    snapshot = {"record": new_record(rules, []), "meta": notes.to_json()}
    store, room, now = session.store, session.room, session.now
    row = await store.games.create(room.id, preset, seats_json(seats), snapshot, now)
    lobby_ends = now + timedelta(minutes=LOBBY_MINUTES)
    await store.timers.set(room.id, "lobby", lobby_ends, game_id=row.id)
    session.effects.append(lobby_of(session, session.desk.loaded(row), opened=True))


def read_new(args: Sequence[str], default: str) -> tuple[str, str | None, list[str]]:
    """``new``'s words: the preset (the room's when none is named), the number after it,
    and the ``name=value`` options."""
    preset: str | None = None
    number: str | None = None
    options: list[str] = []
    for i, word in enumerate(args):
        if "=" in word:
            options.append(word)
        elif word.isascii() and word.isdecimal():
            if number is not None:
                raise Refusal(texts.TWO_NUMBERS, text=word)
            number = word
        elif i == 0:
            preset = word.lower()
        elif word.lower() in OPTION_NAMES:
            raise Refusal(texts.NOT_AN_ASSIGNMENT, text=word)
        else:
            raise Refusal(texts.BAD_TARGET, text=word)
    preset = preset or default
    if preset not in preset_names():
        raise unknown_preset(preset)
    return preset, number, options


def seat_for(session: Session) -> Seat:
    """The seat of the person who acts."""
    person = session.person
    return Seat(
        user=session.user.id,
        pid=person.platform_id,
        name=person.name,
        locale=session.user.locale or person.locale,
    )


def seat_arg(session: Session, count: int) -> int | None:
    """The seat the command names (its first word, from 1), or None."""
    if not session.args:
        return None
    text = session.args[0]
    if not text.isdecimal() or not 1 <= int(text) <= count:
        raise Refusal(texts.BAD_SEAT, text=text, most=count)
    return int(text) - 1


@handles("join")
async def join(session: Session) -> None:
    """Take a seat (the first free one, or the one named), or come back to one a computer kept."""
    loaded = session.loaded
    if tables.of_table(loaded) is not None and loaded.game is None:
        await tables.arrive(session, loaded)  # a tournament table: the seats are kept
        return
    seats = loaded.seats
    mine = seat_of(seats, session.user.id)
    if loaded.game is not None:
        if mine is not None and seats[mine].away:  # back from a computer's care
            seats[mine].bot = None
            seats[mine].timeouts = 0
            await save(session, loaded)
            session.say(texts.BACK, name=name_of(seats[mine], mine, session.lang))
            hand_for(session, loaded, mine)
            return
        raise Refusal(texts.ALREADY_BEGUN)
    if mine is not None:
        raise Refusal(texts.ALREADY_SEATED, seat=mine + 1)
    wanted = seat_arg(session, len(seats))
    if wanted is None:
        wanted = next((i for i, s in enumerate(seats) if s.empty), None)
        if wanted is None:
            raise Refusal(texts.TABLE_FULL)
    elif not seats[wanted].empty:
        raise Refusal(texts.SEAT_TAKEN, seat=wanted + 1)
    seats[wanted] = seat_for(session)
    await save(session, loaded)
    session.effects.append(lobby_of(session, loaded))


@handles("leave")
async def leave(session: Session) -> None:
    """Stand up: in the lobby the seat is free again; in a game a computer plays it."""
    tables.guard(session.loaded)
    loaded, mine = session.loaded, session.my_seat
    seat = loaded.seats[mine]
    if loaded.game is None:
        loaded.seats[mine] = Seat()
        if all(s.user is None for s in loaded.seats):
            await close(session, loaded, texts.LOBBY_CLOSED)
            return
        if loaded.notes.creator == session.user.id:  # the lobby passes on
            heir = next(s for s in loaded.seats if s.user is not None)
            loaded.notes.creator = heir.user
        await save(session, loaded)
        session.effects.append(lobby_of(session, loaded))
        return
    seat.bot = "normal"  # a computer player sits in for them; /join brings them back
    game = loaded.game
    if game.hand is None and game.outcome is None and any(s.human for s in loaded.seats):
        # between hands: the hand's end stays, and the presses of Next made so far count
        session.say(texts.LEFT, name=name_of(seat, mine, session.lang))
        await someone_left(session, loaded)
        return
    await save(session, loaded)
    session.say(texts.LEFT, name=name_of(seat, mine, session.lang))
    await progress(session, loaded)


@handles("add_ai")
async def add_ai(session: Session) -> None:
    """Seat a computer player of the strength named (normal unless said)."""
    tables.guard(session.loaded)
    loaded = session.loaded
    if loaded.game is not None:
        raise Refusal(texts.ALREADY_BEGUN)
    strength = (session.args[0] if session.args else "normal").lower()
    if strength not in STRENGTHS:
        raise Refusal(texts.BAD_STRENGTH, text=strength)
    free = next((i for i, s in enumerate(loaded.seats) if s.empty), None)
    if free is None:
        raise Refusal(texts.TABLE_FULL)
    loaded.seats[free] = Seat(bot=strength)
    await save(session, loaded)
    session.effects.append(lobby_of(session, loaded))


@handles("kick")
async def kick(session: Session) -> None:
    """Free the seat of a computer player."""
    tables.guard(session.loaded)
    loaded = session.loaded
    if loaded.game is not None:
        raise Refusal(texts.ALREADY_BEGUN)
    seat = seat_arg(session, len(loaded.seats))
    if seat is None:
        raise Refusal(texts.KICK_WHICH)
    if loaded.seats[seat].bot is None:
        raise Refusal(texts.KICK_ONLY_COMPUTERS, seat=seat + 1)
    loaded.seats[seat] = Seat()
    await save(session, loaded)
    session.effects.append(lobby_of(session, loaded))


@handles("begin")
async def begin(session: Session) -> None:
    """Deal the first hand (``fill``: computers take the seats still missing)."""
    tables.guard(session.loaded)
    loaded = session.loaded
    if loaded.game is not None:
        raise Refusal(texts.ALREADY_BEGUN)
    rules = loaded.rules
    fill = any(a.lower() in ("fill", "ai", "computers") for a in session.args)
    seated = [s for s in loaded.seats if not s.empty]
    if len(seated) < rules.min_players:
        if not fill:
            raise Refusal(texts.NEED_PLAYERS, least=rules.min_players)
        seats = list(loaded.seats)
        for i, seat in enumerate(seats):
            if seat.empty and sum(not s.empty for s in seats) < rules.min_players:
                seats[i] = Seat(bot="normal")
        seated = [s for s in seats if not s.empty]
    if rules.partners:  # partners sit opposite: every seat is played
        seated = [s if not s.empty else Seat(bot="normal") for s in loaded.seats]
    if not any(s.user is not None for s in seated):
        raise Refusal(texts.NEED_PLAYERS, least=rules.min_players)
    try:  # the engine decides whether this table can be dealt (hand_size, the set)
        rules.check_players(len(seated))
    except DominoError:
        each = rules.hand_size_for(len(seated))
        raise Refusal(texts.CANNOT_DEAL, players=len(seated), each=each,
                      needed=each * len(seated), tiles=set_size(rules.set)) from None  # fmt: skip
    # a simulation of these rules at this table (0.1-2.5 s the first time, then cached):
    # off the event loop, as the tournament's pairing
    reach = await asyncio.to_thread(hands_to_end, rules, len(seated))
    loaded.seats = drawn_seats(session, rules, seated)  # teams = drawn_*: partners by draw
    clock = None
    if rules.time_limit_minutes:
        clock = session.now + timedelta(minutes=rules.time_limit_minutes)
    await begin_game(session, loaded, clock)
    if not reach.ends:
        warn_long(session, rules, len(seated), reach)


def warn_long(session: Session, rules: Rules, players: int, reach: Reach) -> None:
    """Tell the room that a game of ``rules`` may never end (docs/rules-decisions.md,
    "Games that may not end": a warning, the game goes on) and which games end sooner,
    as the ``/new`` that opens them."""
    kept = " ".join(
        f"{name}={house_rules.typed(value)}"
        for name, value in rules.options().items()
        if name not in ("target", "hands")
    )

    def opening(target: int | None, *more: str) -> str:
        return " ".join(filter(None, ["/new", rules.preset, str(target), kept, *more]))

    ways = []
    if reach.target is not None:
        ways.append(opening(reach.target))
    if reach.hands is not None:
        ways.append(opening(rules.target, f"hands={reach.hands}"))
    preset = texts.preset_name(session.lang, rules.preset)
    params = {"preset": preset, "target": rules.target, "players": players, "longest": LONGEST}
    if ways:
        session.say(texts.LONG_GAME, **params, ways=" · ".join(ways))
    else:
        session.say(texts.LONG_GAME_LOWER, **params)


@handles("cancel")
async def cancel(session: Session) -> None:
    """End the game without a result."""
    tables.guard(session.loaded)
    await close(session, session.loaded, texts.CANCELLED, name=session.person.name)
