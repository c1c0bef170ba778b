"""A tournament table in its own room: its game made with the paired players' seats
kept for them, each player arriving with /join, the game begun when all are there (or,
after the grace time, a forfeit or substitutes), and its result written when it ends."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta

from bot.core.model import Effect, Place, Say
from bot.core.progress import GameEnded, begin_game, close
from bot.core.reactions import reacts
from bot.core.saving import save
from bot.core.seats import Seat, seats_json
from bot.core.session import Loaded, Refusal, Session
from bot.core.showing import lobby_of, name_of
from bot.core.tournament import words
from bot.core.tournament.model import Table
from bot.core.tournament.rounds import at, elsewhere, epoch, people_of, table_call, table_done
from bot.core.tournament.state import Event, load_id
from engine.errors import DominoError
from engine.game import Game
from engine.record import new_record
from engine.rules import Rules
from lang import language, tr
from storage.notes import GameNotes, TableRef

GRACE_TIMER = "grace"  # the table's seats not taken by then: a forfeit (or substitutes)

log = logging.getLogger(__name__)


def of_table(loaded: Loaded) -> TableRef | None:
    """The tournament, round and table of a game that is a tournament table."""
    return loaded.notes.table


def guard(loaded: Loaded) -> None:
    """Lobby commands (leave, add a computer, begin, cancel, house rules) are not the
    players' at a tournament table: the judges run it."""
    if of_table(loaded) is not None:
        raise Refusal(words.JUDGES_RUN_IT)


def rules_of(event: Event) -> Rules:
    """The table's rules: the preset to the tournament's target, with the round clock
    where the game has one."""
    s = event.settings
    base = Rules.from_preset(s.preset)
    options: dict[str, int] = {base.number_option: s.target}
    if s.minutes or base.time_limit_minutes:  # no round clock: no game clock either
        options["time_limit_minutes"] = s.minutes
    try:
        return Rules.from_preset(s.preset, **options)
    except (DominoError, TypeError):  # a game without a clock: to the target alone
        options.pop("time_limit_minutes", None)
        return Rules.from_preset(s.preset, **options)


async def seats_for(session: Session, event: Event, table: Table, rules: Rules) -> list[Seat]:
    """The paired players in their seats: partners opposite (side 0 in seats 0 and 2)."""
    sides = [[m for entry in side for m in event.entry(entry).members] for side in table.sides]
    order = [sides[0][0], sides[1][0]]
    if rules.partners:
        order += [sides[0][1 % len(sides[0])], sides[1][1 % len(sides[1])]]
    seats: list[Seat] = []
    for member in order:
        if member.user is None:
            seats.append(Seat(bot=member.bot or "normal", name=member.name))
            continue
        user = await session.store.people.user_by_id(member.user)
        seats.append(
            Seat(user=member.user, pid=user.platform_id, name=member.name, locale=user.locale)
        )
    return seats


async def open_table(session: Session, args: Sequence[str]) -> None:
    """A door opened this room for a table (its ``table`` timer, due at once: tournament,
    round, table): make its game here, the seats kept for the paired players."""
    async with session.desk.tournament_lock(session.community.id):
        await make_table(session, args)


async def make_table(session: Session, args: Sequence[str]) -> None:
    tid, number_of_round, number = (int(a) for a in args[:3])
    repo, store = session.store.tournaments, session.store
    event = await load_id(store, tid)
    table = event.table(number_of_round, number)
    if table.game_id is not None:
        return  # opened already (the same timer fired again)
    if await session.active() is not None:  # a game of the room's own: the judges decide
        log.warning("table %d of round %d: its room has a game already", number, number_of_round)
        return
    await speak_as_the_hall(session, event)
    rules = rules_of(event)
    seats = await seats_for(session, event, table, rules)
    absent = [i for i, s in enumerate(seats) if s.user is not None]
    notes = GameNotes(table=TableRef(tid, number_of_round, number), absent=absent)
    snapshot = {"record": new_record(rules, []), "meta": notes.to_json()}
    row = await store.games.create(
        session.room.id, rules.preset, seats_json(seats), snapshot, session.now
    )
    await repo.set_table(
        tid, number_of_round, number, room_id=session.room.id, game_id=row.id, status="playing"
    )
    loaded = session.desk.loaded(row)
    people = await people_of(session, event, table.sides)
    session.effects.append(table_call(event, table, people, session.lang))
    if not absent:  # computers only (the simulator): the game begins at once
        await begin_table(session, loaded, event)
        return
    grace = session.now + timedelta(minutes=event.settings.grace_minutes)
    await store.timers.set(session.room.id, GRACE_TIMER, grace, game_id=row.id)
    session.effects.append(lobby_of(session, loaded))


async def speak_as_the_hall(session: Session, event: Event) -> None:
    """A table's room speaks the tournament room's language (a room the tournament opened
    is new and would speak the community's): set once, when its table is made, unless the
    room chose its own."""
    if session.room.settings.language is not None:
        return
    hall = await session.store.people.room_by_id(event.row.room_id)
    lang = language(hall.settings.language or session.community.locale or session.lang)
    changed = await session.store.people.change_settings(session.room.id, language=lang)
    session.room = replace(session.room, settings=changed)
    session.desk.room_changed(session.community.id, session.room, session.now)
    session.lang = lang


async def begin_table(session: Session, loaded: Loaded, event: Event) -> None:
    """The table's game begins, and its clock with it: the round's minutes from now
    (seed 001: «a los 40 minutos de haber comenzado»), so a table seated late plays as
    long as the others; while the round is paused, from the pause (it runs on resume)."""
    round_clock = event.row.clock or {}
    minutes = loaded.rules.time_limit_minutes
    clock = None
    paused = round_clock.get("paused_at")
    if minutes and round_clock.get("ends_at"):
        clock = at((paused or epoch(session.now)) + minutes * 60, session.now)
    await session.store.timers.cancel(session.room.id, GRACE_TIMER)
    await begin_game(session, loaded, clock)
    if paused:  # no clock runs out during a pause: /tournament resume sets it again
        await session.store.timers.cancel(session.room.id, "clock")


async def arrive(session: Session, loaded: Loaded) -> None:
    """A paired player takes the seat kept for them (/join at the table)."""
    absent = loaded.notes.absent
    mine = next((i for i, s in enumerate(loaded.seats) if s.user == session.user.id), None)
    if mine is None:
        raise Refusal(words.NOT_YOUR_TABLE)
    if mine in absent:
        absent.remove(mine)
    if absent:
        await save(session, loaded)
        missing = ", ".join(name_of(loaded.seats[i], i, session.lang) for i in absent)
        session.say(
            words.ARRIVED, name=name_of(loaded.seats[mine], mine, session.lang), missing=missing
        )
        session.effects.append(lobby_of(session, loaded))
        return
    session.say(words.TABLE_BEGINS)
    found = of_table(loaded)
    assert found is not None
    event = await load_id(session.store, found.tournament)
    await begin_table(session, loaded, event)


async def grace_over(session: Session, loaded: Loaded) -> list[Effect]:
    """The grace time ran out with seats still empty: computers sit in where the
    organiser allows substitutes, else the absent side forfeits (both: no winner)."""
    async with session.desk.tournament_lock(session.community.id):
        return await no_shows(session, loaded)


async def no_shows(session: Session, loaded: Loaded) -> list[Effect]:
    found = of_table(loaded)
    absent = loaded.notes.absent
    if found is None or not absent or loaded.game is not None:
        return []
    event = await load_id(session.store, found.tournament)
    lang = session.lang
    if event.settings.substitutes:
        names = ", ".join(name_of(loaded.seats[i], i, lang) for i in absent)
        for i in absent:
            loaded.seats[i].bot = "normal"  # playing for them; /join brings them back
        loaded.notes.absent = []
        session.say(words.SUBSTITUTED, names=names)
        await begin_table(session, loaded, event)
        return []
    rules = loaded.rules
    missing = {rules.side_of(i) if rules.partners else i for i in absent}
    table = event.table(found.round, found.table)
    points = event.settings.forfeit_points
    if len(missing) == 2:
        score, winner = (0, 0), None
        await close(session, loaded, words.FORFEIT_NOBODY, table=table.number)
    else:
        (gone,) = missing
        winner = 1 - gone
        score = (points, 0) if winner == 0 else (0, points)
        await close(
            session,
            loaded,
            words.FORFEIT_ABSENT,
            team=event.side_name(table.sides[gone]),
            table=table.number,
            score=f"{score[0]}-{score[1]}",
        )
    effects = await table_done(session, event, table, score, winner, "forfeit", 0)
    return elsewhere(await place_of(session, event), effects)


@reacts(GameEnded)
async def game_over(session: Session, ended: GameEnded) -> None:
    """A table's game ended (its results written): the table's result, told in the
    tournament's room (and the round closed when it was the last)."""
    if of_table(ended.loaded) is None:
        return
    async with session.desk.tournament_lock(session.community.id):
        session.effects += await result_of(session, ended.loaded)


async def result_of(session: Session, loaded: Loaded) -> list[Effect]:
    found = of_table(loaded)
    game = loaded.game
    if found is None or game is None or game.outcome is None:
        return []
    event = await load_id(session.store, found.tournament)
    table = event.table(found.round, found.table)
    if table.status == "done":
        return []  # the judges decided it already
    outcome = game.outcome
    scores = outcome.scores
    score = (scores[0], scores[1])
    ended_by = "clock" if outcome.reason in ("time", "tiebreak") else "target"
    effects = await table_done(
        session, event, table, score, outcome.winner, ended_by, hands_of(game)
    )
    return elsewhere(await place_of(session, event), effects)


async def place_of(session: Session, event: Event) -> Place:
    """The tournament's room, where results and standings are told."""
    room = await session.store.people.room_by_id(event.row.room_id)
    community = session.community
    return Place(community.platform, community.platform_id, room.platform_id)


def hands_of(game: Game) -> int:
    return game.hands_before + len(game.logs)  # (older hands are stored apart)


async def walked_out(session: Session, loaded: Loaded, seat: int) -> list[Effect]:
    """A player at a table stopped answering (their turns timed out ``max_timeouts``
    times; seed 001: «si un jugador abandona una partida … será expulsado»). With
    ``substitutes=on`` a computer sits in, and the tournament's room is told. Otherwise
    the table holds, their turns go on timing out, its clock runs, and the judges are told
    at once in the tournament's room what they may decide: a computer sits in, the side
    forfeits, or the pair is expelled."""
    found = of_table(loaded)
    assert found is not None
    async with session.desk.tournament_lock(session.community.id):
        event = await load_id(session.store, found.tournament)
    table = event.table(found.round, found.table)
    info = loaded.seats[seat]
    hall = await session.store.people.room_by_id(event.row.room_id)
    lang = language(hall.settings.language or session.community.locale or session.lang)
    side = loaded.rules.side_of(seat) if loaded.rules.partners else seat
    team = event.side_name(table.sides[side]) if side < len(table.sides) else ""
    name = name_of(info, seat, session.lang)
    if event.settings.substitutes:
        info.bot = "normal"
        session.say(words.SAT_IN_HERE, name=name)
        said = tr(lang, words.SAT_IN, table=table.number, name=name_of(info, seat, lang),
                  team=team)  # fmt: skip
        return elsewhere(await place_of(session, event), [Say(said)])
    if seat in loaded.notes.walked_out:
        return []  # told once
    loaded.notes.walked_out.append(seat)
    session.say(words.TABLE_HELD, name=name)
    said = tr(lang, words.WALKED_OUT, table=table.number, round=table.round,
              name=name_of(info, seat, lang), team=team, seat=seat + 1)  # fmt: skip
    return elsewhere(await place_of(session, event), [Say(said)])
