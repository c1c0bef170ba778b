"""A tournament's rounds: pairing one and opening its tables, the round clock (pause,
resume, extend), a table's result written, and the standings after the last table of a
round; then the next round, or the end."""

from __future__ import annotations

import asyncio
import io
import math
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.core import spreadsheet, texts
from bot.core.model import (
    Effect,
    Elsewhere,
    File,
    Link,
    OpenTables,
    Person,
    Picture,
    Say,
    TableTold,
    TableToOpen,
)
from bot.core.session import Session
from bot.core.tournament import words
from bot.core.tournament.model import Entry, Standing, Table
from bot.core.tournament.pairing import rotating, round_robin, swiss
from bot.core.tournament.standings import TIEBREAKS, ranking, standings
from bot.core.tournament.state import Event, load
from lang import language, tr
from render.plain import PICTURE_ROWS

ROUND_TIMER = "tournament_round"  # the next round's start, in the tournament's room
REOPEN = "tournament_reopen"  # (not a stored timer) a restart opens the tables left unopened
BREAK_MINUTES = 2  # between the last table of a round and the next round
CAPTION = 1024  # the words beside a picture: Telegram's caption holds 1,024 characters
STANDINGS_FILE = "standings.csv"


def page_link(event: Event, lang: str) -> Link:
    """The tournament's web page, as its messages name it (the standings, a round's
    tables, the champions; its key is put on after the command: bot/core/links.py)."""
    return Link(tr(lang, texts.STANDINGS_PAGE), "tournament", event.id)


def epoch(when: datetime) -> float:
    """Seconds since 1970 of ``when`` (a clock without a zone reads UTC, as storage does)."""
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def at(seconds: float, like: datetime) -> datetime:
    """The moment ``seconds`` (since 1970), with a zone when ``like`` (the service's
    clock) has one."""
    moment = datetime.fromtimestamp(seconds, UTC)
    return moment if like.tzinfo else moment.replace(tzinfo=None)


def current(event: Event, through: int | None = None) -> list[Standing]:
    """The standings of every table done, or ``through`` a round: of the rounds up to it
    only (their tables, byes and judges' penalties), as a title "after round N" says."""
    if through is None:
        tables, byes, penalties = event.tables, event.byes, event.penalties
    else:
        tables = [t for t in event.tables if t.round <= through]
        byes = [b for b in event.byes if b.round <= through]
        penalties = [p for p in event.penalties if p.round <= through]
    return standings(event.entries, tables, byes, penalties, event.settings.tiebreaks)


def pair(
    event: Event, number: int
) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], list[int]]:
    """Round ``number``'s tables (sides of entry ids, best first) and its byes."""
    playing = [e.id for e in event.entries if e.playing]
    done = [t for t in event.tables if t.round < number]
    fmt = event.settings.format
    order = [i for i in ranking(current(event)) if i in playing] if done else sorted(playing)
    byes_had = [b.entry for b in event.byes]
    if fmt == "rotating":
        partnered = {frozenset(side) for t in done for side in t.sides if len(side) == 2}
        met = {frozenset((a, b)) for t in done for a in t.sides[0] for b in t.sides[1]}
        counts: dict[int, int] = {}
        for entry in byes_had:
            counts[entry] = counts.get(entry, 0) + 1
        fours, out = rotating(order, partnered, met, counts)
        return [(tuple(a), tuple(b)) for a, b in fours], list(out)
    if fmt == "round_robin":
        everyone = sorted(e.id for e in event.entries)  # the schedule of who registered
        schedule = round_robin(everyone)
        pairs, bye = schedule[(number - 1) % len(schedule)]
        tables: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        byes = [bye] if bye is not None else []
        for a, b in pairs:
            if a in playing and b in playing:
                tables.append(((a,), (b,)))
            else:  # an opponent out of the event: a game won without playing
                byes += [x for x in (a, b) if x in playing]
        rank = {e: i for i, e in enumerate(order)}
        tables.sort(key=lambda t: min(rank.get(t[0][0], 0), rank.get(t[1][0], 0)))
        return tables, byes
    met = {frozenset((t.sides[0][0], t.sides[1][0])) for t in done}
    pairs, bye = swiss(order, met, byes_had)
    return [((a,), (b,)) for a, b in pairs], [bye] if bye is not None else []


async def open_round(session: Session, event: Event) -> list[Effect]:
    """Pair the next round (off the event loop: a big event's pairing takes a while, and
    every room's commands go on meanwhile), keep it, set its clock and ask for a room
    per table."""
    number = event.round + 1
    tables, byes = await asyncio.to_thread(pair, event, number)
    store, lang, now = session.store, session.lang, session.now
    repo = store.tournaments
    rows = [
        {"number": i + 1, "sides": [list(a), list(b)], "status": "waiting"}
        for i, (a, b) in enumerate(tables)
    ]
    await repo.put_tables(event.id, number, rows)
    if byes:
        await repo.add_byes(event.id, number, byes)
    minutes = event.settings.minutes
    ends = epoch(now + timedelta(minutes=minutes)) if minutes else None
    clock = {"started_at": epoch(now), "ends_at": ends}
    await save(session, event, status="running", round=number, clock=clock)
    numbered = [(i + 1, (a, b)) for i, (a, b) in enumerate(tables)]
    to_open = await tables_to_open(session, event, number, numbered)
    lines = [tr(lang, words.ROUND_TABLES, round=number, rounds=event.settings.rounds)]
    if byes:
        lines.append(tr(lang, words.BYE_LINE, teams=", ".join(event.entry(e).name for e in byes)))
    if minutes:
        lines.append(tr(lang, words.CLOCK_LINE, minutes=words.minutes(lang, minutes)))
    text = "\n".join(lines)
    return [OpenTables(event.id, number, tuple(to_open), text, page_link(event, lang))]


async def tables_to_open(
    session: Session,
    event: Event,
    number: int,
    tables: list[tuple[int, tuple[tuple[int, ...], tuple[int, ...]]]],
) -> list[TableToOpen]:
    """What a door needs to open each table's room and list it in the tournament's room
    (its players are called there with its game, once the room is noted: tables.py)."""
    lang = session.lang
    found: list[TableToOpen] = []
    for table, (a, b) in tables:
        names_a, names_b = event.side_name(a), event.side_name(b)
        found.append(
            TableToOpen(
                number=table,
                title=tr(lang, words.TABLE_TITLE, table=table, round=number),
                mention=tuple(await people_of(session, event, (a, b))),
                line=tr(lang, words.TABLE_LINE, table=table, a=names_a, b=names_b),
            )
        )
    return found


def table_call(event: Event, table: Table, people: list[Person], lang: str) -> Say:
    """The table's players called at its room, in ``lang`` (the tournament room's, as
    its list of tables); a table of computers only begins at once: nobody is called."""
    a, b = event.side_name(table.sides[0]), event.side_name(table.sides[1])
    if not people:
        return Say(tr(lang, words.TABLE_OF_COMPUTERS, table=table.number, round=table.round,
                      a=a, b=b))  # fmt: skip
    said = tr(
        lang,
        words.TABLE_CALL,
        table=table.number,
        round=table.round,
        a=a,
        b=b,
        names=", ".join(p.name for p in people),
        minutes=words.minutes(lang, event.settings.grace_minutes),
    )
    return Say(said, mention=tuple(people))


async def reopen(session: Session, event: Event) -> list[Effect]:
    """After a restart: the round's tables that never got their room (the process
    stopped while opening them), opened now."""
    missing = [t for t in event.round_tables() if t.game_id is None and t.status == "waiting"]
    if event.row.status != "running" or not missing:
        return []
    numbered = [(t.number, t.sides) for t in missing]
    to_open = await tables_to_open(session, event, event.round, numbered)
    text = tr(session.lang, words.ROUND_TABLES, round=event.round, rounds=event.settings.rounds)
    return [OpenTables(event.id, event.round, tuple(to_open), text, page_link(event, session.lang))]


async def people_of(
    session: Session, event: Event, sides: tuple[tuple[int, ...], ...]
) -> list[Person]:
    """The people who sit at a table (computers aside), to call by name."""
    found: list[Person] = []
    for side in sides:
        for entry in side:
            for member in event.entry(entry).members:
                if member.user is None:
                    continue
                user = await session.store.people.user_by_id(member.user)
                if user.platform_id is not None:  # (a person forgotten has none)
                    found.append(Person(user.platform_id, member.name, user.locale))
    return found


async def save(session: Session, event: Event, **changes: Any) -> None:
    """Write the tournament's row with ``changes`` (a race with another process: the
    command runs again, as with games)."""
    event.row = await session.store.tournaments.save(event.row, **changes)


async def table_done(
    session: Session,
    event: Event,
    table: Table,
    score: tuple[int, int],
    winner: int | None,
    ended_by: str,
    hands: int,
) -> list[Effect]:
    """Write a table's result, and close the round when it was the last table; the
    effects that tell it in the tournament's room (in its language and theme, also when a
    table's game ended it)."""
    session = await as_the_hall(session, event)
    repo = session.store.tournaments
    await repo.set_table(
        event.id,
        table.round,
        table.number,
        status="done",
        score_a=score[0],
        score_b=score[1],
        winner=winner,
        ended_by=ended_by,
        hands=hands,
        told=False,
    )
    event = await load(session.store, event.row)
    if table.round == event.round and all(t.status == "done" for t in event.round_tables()):
        await close_round(session, event)
    return await results_told(session, event, [event.table(table.round, table.number)])


async def as_the_hall(session: Session, event: Event) -> Session:
    """``session`` as the tournament's room sees it (its room, so its language and
    theme): what a table's session tells the tournament's room."""
    if session.room.id == event.row.room_id:
        return session
    hall = await session.store.people.room_by_id(event.row.room_id)
    lang = language(hall.settings.language or session.community.locale or session.lang)
    return replace(session, room=hall, lang=lang)


async def close_round(session: Session, event: Event) -> None:
    """Every table of the round is done: the next round's timer, or the end of the
    tournament."""
    final = event.round >= event.settings.rounds or not any(e.playing for e in event.entries)
    if final:
        await save(session, event, status="finished", clock={}, finished_at=session.now)
        return
    await save(session, event, clock={})
    when = session.now + timedelta(minutes=BREAK_MINUTES)
    await session.store.timers.set(event.row.room_id, ROUND_TIMER, when, version=event.id)


async def results_told(
    session: Session, event: Event, tables: list[Table], break_minutes: int = BREAK_MINUTES
) -> list[Effect]:
    """The results of ``tables`` (done) for the tournament's room, then where their round
    stands when it is the one in play (the tables still playing, or the standings and
    what comes next). Each result is followed by the note that it was told (a restart
    tells those never noted): noted as soon as its own message is out, not after the
    standings, so a process stopped meanwhile tells again as little as can be."""
    lang = session.lang
    how = {"clock": words.ENDED_CLOCK, "forfeit": words.ENDED_FORFEIT, "judge": words.ENDED_JUDGE}
    effects: list[Effect] = []
    for table in tables:
        ended_by = table.ended_by or ""
        said = tr(
            lang,
            words.TABLE_DONE,
            table=table.number,
            round=table.round,
            a=event.side_name(table.sides[0]),
            b=event.side_name(table.sides[1]),
            x=table.score[0],
            y=table.score[1],
            how=tr(lang, how[ended_by]) if ended_by in how else "",
        )
        effects += [Say(said), TableTold(event.id, table.round, table.number)]
    if any(t.round == event.round for t in tables):  # (not a correction of an earlier round)
        effects += await round_status(session, event, break_minutes)
    return effects


async def round_status(session: Session, event: Event, break_minutes: int) -> list[Effect]:
    """How many of the round's tables are done; once all are, the standings, then the
    next round's start or the champions (counted and written off the event loop: a big
    event's standings take a while)."""
    lang = session.lang
    tables = event.round_tables()
    done = sum(1 for t in tables if t.status == "done")
    if done < len(tables):
        said = tr(lang, words.WAITING_TABLES, round=event.round, done=done, tables=len(tables))
        return [Say(said)]
    return await asyncio.to_thread(round_over, session, event, break_minutes)


def round_over(session: Session, event: Event, break_minutes: int) -> list[Effect]:
    """The round is over: the standings, then the next round's start or the champions."""
    lang = session.lang
    if event.row.status == "finished":
        effects: list[Effect] = [Say(tr(lang, words.FINAL, name=event.row.name))]
        lines = current(event)
        effects += standings_effects(session, event, lines)
        if lines:
            champions = tr(lang, words.CHAMPION, team=event.entry(lines[0].entry).name)
            effects.append(Say(champions, link=page_link(event, lang)))
        return effects
    effects = [Say(tr(lang, words.ROUND_OVER, round=event.round))]
    effects += standings_effects(session, event)
    later = words.minutes(lang, break_minutes)
    next_in = tr(lang, words.NEXT_ROUND_IN, round=event.round + 1, minutes=later)
    return [*effects, Say(next_in)]


async def untold(session: Session, event: Event) -> list[Effect]:
    """After a restart: the results written but never told (the process stopped between
    the two), told now; the round's next start as its timer has it."""
    tables = [t for t in event.tables if t.status == "done" and not t.told]
    if not tables:
        return []
    session = await as_the_hall(session, event)
    if event.row.status == "cancelled":  # nothing to tell of an event called off
        return [TableTold(event.id, t.round, t.number) for t in tables]
    timers = await session.store.timers.pending(event.row.room_id)
    due = next((t.due_at for t in timers if t.kind == ROUND_TIMER), None)
    left = BREAK_MINUTES if due is None else (epoch(due) - epoch(session.now)) / 60
    return await results_told(session, event, tables, max(1, math.ceil(left)))


async def standings_told(session: Session, event: Event) -> list[Effect]:
    """:func:`standings_effects`, counted and written off the event loop (a big event's
    standings take a while)."""
    return await asyncio.to_thread(standings_effects, session, event)


def standings_effects(
    session: Session, event: Event, lines: list[Standing] | None = None
) -> list[Effect]:
    """The standings (``lines``, when counted already) as a picture of the top rows
    (render's PICTURE_ROWS) with as many lines of text as a caption holds; when either
    leaves entries out, the whole table follows as a file (CSV, the columns of the
    export's standings.csv)."""
    lang = session.lang
    finished = [
        n for n in range(1, event.round + 1)
        if all(t.status == "done" for t in event.round_tables(n))
    ]  # fmt: skip
    if not finished:
        return [Say(tr(lang, words.NO_STANDINGS))]
    # after the last round finished: a round under way counts once it is over
    lines = current(event, finished[-1]) if lines is None else lines
    columns = tiebreak_columns(event)
    header = tuple(
        tr(lang, h) for h in (*words.HEADER, *(words.TIEBREAK_COLUMNS[c] for c in columns))
    )
    rows = tuple(row_of(event, i, s) for i, s in enumerate(lines, 1))
    title = tr(lang, words.STANDINGS_TITLE, name=event.row.name, round=finished[-1])
    told = [
        f"{r[0]}. {r[1]} · {r[3]}/{r[2]} · {r[4]}-{r[5]}"
        + (f" · -{r[6]}" if r[6] != "0" else "")
        + f" · {r[7]}"
        + "".join(f" · {words.TIEBREAK_CODES[c]} {v}" for c, v in zip(columns, r[8:], strict=True))
        for r in rows
    ]
    text = "\n".join([title, *told])
    whole = len(text) <= CAPTION and len(rows) <= PICTURE_ROWS
    if not whole:
        text = cut_to_caption(lang, title, told)
    theme = session.room.settings.theme or "classic"
    effects: list[Effect] = [
        Picture(
            title,
            (),
            text,
            lang=lang,
            theme=theme,
            header=header,
            rows=rows[:PICTURE_ROWS],
            name="standings.png",
            link=page_link(event, lang),
        )
    ]
    if not whole:
        effects.append(File(STANDINGS_FILE, standings_csv(event, lines).encode(), title))
    return effects


def cut_to_caption(
    lang: str,
    title: str,
    told: list[str],
    limit: int = CAPTION,
    more_in: str = words.MORE_IN_FILE,
    file: str = STANDINGS_FILE,
) -> str:
    """``title`` and the first of ``told`` that fit in ``limit`` characters (a caption)
    with a last line (``more_in``) saying how many more there are, and where."""
    kept = [title]
    size = len(title)
    for shown, line in enumerate(told):
        more = tr(lang, more_in, count=len(told) - shown, file=file)
        if size + 1 + len(line) + 1 + len(more) > limit:
            return "\n".join([*kept, more])
        kept.append(line)
        size += 1 + len(line)
    return "\n".join(kept)


def tiebreak_columns(event: Event) -> tuple[str, ...]:
    """The chosen tie-breaks that get a column of their own in the standings (difference
    and points for have theirs always), in the organiser's order."""
    return tuple(t for t in event.settings.tiebreaks if t in words.TIEBREAK_COLUMNS)


def standings_csv(event: Event, lines: list[Standing]) -> str:
    """The whole standings, a line an entry: place, team, its members, the figures, and
    every tie-break (chosen or not; ``tiebreaks`` names the ones ordering them)."""
    out = io.StringIO()
    writer = spreadsheet.Writer(out)
    extra = [
        t for t in TIEBREAKS if t not in ("buchholz", "head_to_head", "difference", "points_for")
    ]
    writer.writerow(
        ["place", "team", "members", "played", "won", "points_for", "points_against",
         "penalties", "difference", "buchholz", "head_to_head", "status", *extra, "tiebreaks"]
    )  # fmt: skip
    chosen = ",".join(event.settings.tiebreaks) or "none"
    for i, s in enumerate(lines, 1):
        entry = event.entry(s.entry)
        writer.writerow(
            [i, entry.name, " / ".join(m.name for m in entry.members), s.played, s.won,
             s.points_for, s.points_against, s.penalties, s.difference,
             figure(s, "buchholz"), figure(s, "head_to_head"), entry.status,
             *(figure(s, t) for t in extra), chosen]
        )  # fmt: skip
    return out.getvalue()


def figure(line: Standing, tiebreak: str) -> str:
    """A tie-break's figure as written: whole numbers without a point (Sonneborn-Berger
    has halves)."""
    return f"{line.tiebreaks.get(tiebreak, 0):g}"


def row_of(event: Event, place: int, s: Standing) -> tuple[str, ...]:
    """A line of the standings as people read it: played counts the byes, as won does
    (a bye is a round won), so a line never reads more won than played. The export's
    CSV keeps its documented columns (``played`` without the byes, ``byes`` apart)."""
    entry: Entry = event.entry(s.entry)
    name = entry.name + (" ✗" if entry.status == "expelled" else "")
    return (
        str(place), name, str(s.played + s.byes), str(s.won), str(s.points_for),
        str(s.points_against), str(s.penalties), str(s.difference),
        *(figure(s, t) for t in tiebreak_columns(event)),
    )  # fmt: skip


def elsewhere(place: Any, effects: list[Effect]) -> list[Effect]:
    return [Elsewhere(place, tuple(effects))] if effects else []
