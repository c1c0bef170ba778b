"""Tournaments (issue 22): a community's tournament with a version, its entries, each
round's tables and byes, and the append-only log of what its organiser and judges did.

Rows are storage's own (plain values and JSON); bot/core/tournament/state.py turns them into
the values of bot/core/tournament/model.py. A save names the version it read, as a game's
does: a stale save raises :class:`~storage.errors.Conflict` and writes nothing. Changes
to a tournament's entries, tables and byes lock its row first (``FOR UPDATE`` on
PostgreSQL; SQLite's transactions take the write lock at once), so two processes cannot
both put the same person in two entries, or pair the same round twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Row, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from storage.database import Database, first, rows, utcnow
from storage.errors import Conflict, NotFound, StorageError
from storage.feed import announce
from storage.schema import (
    communities,
    tournament_byes,
    tournament_entries,
    tournament_log,
    tournament_tables,
    tournaments,
)

STATUSES = ("registration", "checkin", "running", "finished", "cancelled")
OPEN = ("registration", "checkin", "running")  # one at a time in a community
# invited: a pair whose named partner has not accepted yet (it plays no round)
ENTRY_STATUSES = ("invited", "registered", "checked_in", "dropped", "expelled")
TABLE_STATUSES = ("waiting", "playing", "done")
SAVED = ("name", "status", "settings", "round", "clock", "judges", "finished_at")
TABLE_CHANGES = (
    "sides",
    "status",
    "score_a",
    "score_b",
    "winner",
    "ended_by",
    "hands",
    "room_id",
    "game_id",
    "told",
)
NO_CLOCK: dict[str, float | None] = {"started_at": None, "ends_at": None, "paused_at": None}
Sides = tuple[tuple[int, ...], tuple[int, ...]]


class AlreadyEntered(StorageError):
    """A user named in an entry is in another entry of the same tournament (or twice in
    this one). ``entry_id``: the entry they are in (None: twice in the one given)."""

    def __init__(self, tournament_id: int, user: int, entry_id: int | None, name: str) -> None:
        self.tournament_id, self.user, self.entry_id, self.entry_name = (
            tournament_id,
            user,
            entry_id,
            name,
        )
        where = f"entry {entry_id} ({name})" if entry_id is not None else "this entry twice"
        super().__init__(f"user {user} is already in {where} of tournament {tournament_id}")


@dataclass(frozen=True)
class TournamentRow:
    id: int
    community_id: int
    room_id: int  # the tournament's own room (its channel or group)
    name: str
    status: str  # registration, checkin, running, finished, cancelled
    settings: dict[str, Any]
    round: int  # the round in play or last played; 0 before round 1
    clock: dict[str, Any]  # started_at, ends_at, paused_at: epoch seconds or None
    organiser: int | None
    judges: tuple[int, ...]
    created_at: datetime
    finished_at: datetime | None
    version: int

    @property
    def open(self) -> bool:
        """Neither finished nor cancelled."""
        return self.status in OPEN


@dataclass(frozen=True)
class EntryRow:
    id: int
    tournament_id: int
    name: str
    members: list[dict[str, Any]]  # each {"name", "user", "bot"}
    status: str  # registered, checked_in, dropped, expelled
    late: bool
    created_at: datetime

    @property
    def users(self) -> list[int]:
        return [m["user"] for m in self.members if m.get("user") is not None]


@dataclass(frozen=True)
class TableRow:
    tournament_id: int
    round: int
    number: int
    sides: Sides  # entry ids of each side
    status: str  # waiting, playing, done
    score_a: int
    score_b: int
    winner: int | None  # the side that won, 0 or 1
    ended_by: str | None  # target, clock, forfeit, judge
    hands: int
    room_id: int | None
    game_id: int | None
    updated_at: datetime
    told: bool = False  # its result went out to the tournament's room (a restart tells it)

    @property
    def score(self) -> tuple[int, int]:
        return (self.score_a, self.score_b)


@dataclass(frozen=True)
class ByeRow:
    tournament_id: int
    round: int
    entry_id: int


@dataclass(frozen=True)
class LogRow:
    id: int
    tournament_id: int
    at: datetime
    by_user: int | None
    action: str  # penalty, forfeit, void, expel, correct, pause, extend, ...
    round: int | None
    table_number: int | None
    entry_id: int | None
    points: int | None
    reason: str | None
    data: dict[str, Any]


class TournamentRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    # -- the tournament

    async def create(
        self,
        community_id: int,
        room_id: int,
        name: str,
        settings: Mapping[str, Any],
        organiser: int | None,
        now: datetime,
        judges: Iterable[int] = (),
    ) -> TournamentRow:
        """A new tournament taking registrations, at round 0 and version 1. A community
        holds one open tournament: a second one raises :class:`Conflict`."""
        values = {
            "community_id": community_id,
            "room_id": room_id,
            "name": _fit(name, 100),
            "status": "registration",
            "settings": without_nul(dict(settings)),
            "round": 0,
            "clock": dict(NO_CLOCK),
            "organiser": organiser,
            "judges": _user_ids(judges),
            "created_at": _utc(now),
            "version": 1,
        }

        def work(db: Connection) -> Row[Any]:
            found = db.scalar(
                select(tournaments.c.id).where(
                    tournaments.c.community_id == community_id, tournaments.c.status.in_(OPEN)
                )
            )
            if found is not None:
                raise Conflict(f"community {community_id} already has tournament {found} open")
            try:
                new_id = db.scalar(insert(tournaments).values(values).returning(tournaments.c.id))
            except IntegrityError as error:  # another process opened one meanwhile
                raise Conflict(f"community {community_id} already has a tournament open") from error
            announce(db, "tournament", new_id)
            return first(db, select(tournaments).where(tournaments.c.id == new_id))

        return _tournament(await self._db.run(work))

    async def load(self, tournament_id: int) -> TournamentRow:
        row = await self._db.run(
            first, select(tournaments).where(tournaments.c.id == tournament_id)
        )
        if row is None:
            raise NotFound(f"there is no tournament {tournament_id}")
        return _tournament(row)

    async def active_in_community(self, community_id: int) -> TournamentRow | None:
        """The community's open tournament (neither finished nor cancelled), if any."""
        query = select(tournaments).where(
            tournaments.c.community_id == community_id, tournaments.c.status.in_(OPEN)
        )
        row = await self._db.run(first, query.order_by(tournaments.c.id.desc()).limit(1))
        return _tournament(row) if row is not None else None

    async def latest_in_community(self, community_id: int) -> TournamentRow | None:
        """The community's newest tournament, open or not (its standings stay to see)."""
        query = (
            select(tournaments)
            .where(tournaments.c.community_id == community_id)
            .order_by(tournaments.c.id.desc())
            .limit(1)
        )
        row = await self._db.run(first, query)
        return _tournament(row) if row is not None else None

    async def running_on(self, platform: str) -> list[TournamentRow]:
        """The tournaments on ``platform`` a restart looks at: those playing a round, and
        those with a table whose result was never told (the process stopped between the
        two)."""
        untold = (
            select(tournament_tables.c.tournament_id)
            .where(tournament_tables.c.status == "done", ~tournament_tables.c.told)
            .scalar_subquery()
        )
        query = (
            select(tournaments)
            .join(communities, communities.c.id == tournaments.c.community_id)
            .where(
                communities.c.platform == platform,
                (tournaments.c.status == "running") | tournaments.c.id.in_(untold),
            )
            .order_by(tournaments.c.id)
        )
        rows = await self._db.run(lambda db: list(db.execute(query)))
        return [_tournament(row) for row in rows]

    async def by_room(self, room_id: int) -> TournamentRow | None:
        """The tournament whose own room this is (the newest, when the room held several
        one after another), if any."""
        query = (
            select(tournaments)
            .where(tournaments.c.room_id == room_id)
            .order_by(tournaments.c.id.desc())
            .limit(1)
        )
        row = await self._db.run(first, query)
        return _tournament(row) if row is not None else None

    async def save(
        self, row: TournamentRow, expected_version: int | None = None, **changes: Any
    ) -> TournamentRow:
        """Write ``row`` with ``changes`` (its name, status, settings, round, clock, judges
        and finished_at) if the tournament is still at ``expected_version`` (default: the
        version ``row`` was read at); the row as written, one version on. Raises
        :class:`Conflict` when another save came first (nothing is written then)."""
        unknown = set(changes) - set(SAVED)
        if unknown:
            raise TypeError(f"a tournament's save cannot change {sorted(unknown)}")
        if "judges" in changes:
            changes["judges"] = tuple(changes["judges"])
        row = replace(row, **changes)
        if row.status not in STATUSES:
            raise ValueError(f"a tournament's status is one of {STATUSES}, not {row.status!r}")
        expected = row.version if expected_version is None else expected_version
        values = {
            "name": _fit(row.name, 100),
            "status": row.status,
            "settings": without_nul(dict(row.settings)),
            "round": row.round,
            "clock": without_nul(dict(row.clock)),
            "judges": _user_ids(row.judges),
            "finished_at": _utc(row.finished_at) if row.finished_at is not None else None,
            "version": tournaments.c.version + 1,
        }

        def work(db: Connection) -> Row[Any]:
            statement = (
                update(tournaments)
                .where(tournaments.c.id == row.id, tournaments.c.version == expected)
                .values(values)
                .returning(*tournaments.c)
            )
            try:
                saved = db.execute(statement).first()
            except IntegrityError as error:  # reopened beside another open one
                raise Conflict(
                    f"community {row.community_id} has another tournament open"
                ) from error
            if saved is None:
                found = db.scalar(select(tournaments.c.version).where(tournaments.c.id == row.id))
                if found is None:
                    raise NotFound(f"there is no tournament {row.id}")
                raise Conflict(f"tournament {row.id} is at version {found}, not {expected}")
            announce(db, "tournament", row.id)
            return saved

        return _tournament(await self._db.run(work))

    # -- entries

    async def entries(self, tournament_id: int) -> list[EntryRow]:
        """The tournament's entries in the order they registered."""
        query = (
            select(tournament_entries)
            .where(tournament_entries.c.tournament_id == tournament_id)
            .order_by(tournament_entries.c.id)
        )
        return [_entry(r) for r in await self._db.run(rows, query)]

    async def add_entry(
        self,
        tournament_id: int,
        name: str,
        members: Sequence[Mapping[str, Any]],
        now: datetime,
        late: bool = False,
        status: str = "registered",
    ) -> EntryRow:
        """A new entry. Raises :class:`AlreadyEntered` when a member is a user already in
        an entry of this tournament, :class:`NotFound` when there is no such tournament."""
        people = _members(members)
        _check(status, ENTRY_STATUSES, "an entry's status")

        def work(db: Connection) -> Row[Any]:
            _lock(db, tournament_id)
            _refuse_entered(db, tournament_id, people, None)
            new_id = db.scalar(
                insert(tournament_entries)
                .values(
                    tournament_id=tournament_id,
                    name=_fit(name, 100),
                    members=people,
                    status=status,
                    late=late,
                    created_at=_utc(now),
                )
                .returning(tournament_entries.c.id)
            )
            return first(db, select(tournament_entries).where(tournament_entries.c.id == new_id))

        return _entry(await self._db.run(work))

    async def set_entry(
        self,
        tournament_id: int,
        entry_id: int,
        *,
        status: str | None = None,
        name: str | None = None,
        members: Sequence[Mapping[str, Any]] | None = None,
        late: bool | None = None,
    ) -> EntryRow:
        """Change an entry (what is not given stays); the entry as it is now. New members
        are refused as :meth:`add_entry` refuses them."""
        values: dict[str, Any] = {}
        if status is not None:
            values["status"] = _check(status, ENTRY_STATUSES, "an entry's status")
        if name is not None:
            values["name"] = _fit(name, 100)
        if late is not None:
            values["late"] = late
        people = _members(members) if members is not None else None
        if people is not None:
            values["members"] = people

        def work(db: Connection) -> Row[Any]:
            _lock(db, tournament_id)
            where = (tournament_entries.c.id == entry_id) & (
                tournament_entries.c.tournament_id == tournament_id
            )
            if people is not None:
                _refuse_entered(db, tournament_id, people, entry_id)
            if values:
                db.execute(update(tournament_entries).where(where).values(values))
            found = first(db, select(tournament_entries).where(where))
            if found is None:
                raise NotFound(f"tournament {tournament_id} has no entry {entry_id}")
            return found

        return _entry(await self._db.run(work))

    async def remove_entry(self, tournament_id: int, entry_id: int) -> None:
        """Take an entry out as if it never registered. One that has a table or a bye is
        kept (raises :class:`Conflict`): drop or expel it instead, its games still count."""

        def work(db: Connection) -> None:
            _lock(db, tournament_id)
            had_bye = db.scalar(
                select(tournament_byes.c.round).where(
                    tournament_byes.c.tournament_id == tournament_id,
                    tournament_byes.c.entry_id == entry_id,
                )
            )
            sides: list[list[list[int]]] = list(
                db.scalars(
                    select(tournament_tables.c.sides).where(
                        tournament_tables.c.tournament_id == tournament_id
                    )
                )
            )
            if had_bye is not None or any(entry_id in side for table in sides for side in table):
                raise Conflict(f"entry {entry_id} has played in tournament {tournament_id}")
            gone = db.execute(
                delete(tournament_entries).where(
                    tournament_entries.c.id == entry_id,
                    tournament_entries.c.tournament_id == tournament_id,
                )
            ).rowcount
            if not gone:
                raise NotFound(f"tournament {tournament_id} has no entry {entry_id}")

        await self._db.run(work)

    # -- tables and byes

    async def tables(self, tournament_id: int, round: int | None = None) -> list[TableRow]:
        """The tournament's tables (of ``round``, or of every round), by round and number."""
        query = select(tournament_tables).where(tournament_tables.c.tournament_id == tournament_id)
        if round is not None:
            query = query.where(tournament_tables.c.round == round)
        query = query.order_by(tournament_tables.c.round, tournament_tables.c.number)
        return [_table(r) for r in await self._db.run(rows, query)]

    async def put_tables(
        self,
        tournament_id: int,
        round: int,
        tables: Sequence[Mapping[str, Any]],
        now: datetime | None = None,
    ) -> list[TableRow]:
        """Keep round ``round``'s pairing: each table a mapping with ``number`` and
        ``sides`` ([[entry ids], [entry ids]]) and, if not the defaults, any of
        ``status`` ("waiting"), ``score_a``/``score_b`` (0), ``winner``, ``ended_by``,
        ``hands`` (0), ``room_id``, ``game_id``. A round is paired once: a second time
        raises :class:`Conflict` (another process paired it first)."""
        if round < 1:
            raise ValueError(f"rounds count from 1, not {round}")
        stamp = _utc(now) if now is not None else utcnow()
        planned = [_planned(tournament_id, round, table, stamp) for table in tables]
        numbers = [t["number"] for t in planned]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"round {round}'s tables repeat a number: {numbers}")

        def work(db: Connection) -> None:
            _lock(db, tournament_id)
            paired = db.scalar(
                select(tournament_tables.c.number).where(
                    tournament_tables.c.tournament_id == tournament_id,
                    tournament_tables.c.round == round,
                )
            )
            if paired is not None:
                raise Conflict(f"round {round} of tournament {tournament_id} is paired already")
            if planned:
                db.execute(insert(tournament_tables), planned)

        await self._db.run(work)
        return await self.tables(tournament_id, round)

    async def set_table(
        self,
        tournament_id: int,
        round: int,
        number: int,
        now: datetime | None = None,
        **changes: Any,
    ) -> TableRow:
        """Change a table (``status``, ``score_a``, ``score_b``, ``winner``, ``ended_by``,
        ``hands``, ``room_id``, ``game_id``, ``sides``, ``told``); the table as it is now."""
        unknown = set(changes) - set(TABLE_CHANGES)
        if unknown:
            raise TypeError(f"a table has no {sorted(unknown)} to change")
        values = dict(changes)
        if "status" in values:
            _check(values["status"], TABLE_STATUSES, "a table's status")
        if "sides" in values:
            values["sides"] = _sides_json(values["sides"])
        values["updated_at"] = _utc(now) if now is not None else utcnow()
        where = (
            (tournament_tables.c.tournament_id == tournament_id)
            & (tournament_tables.c.round == round)
            & (tournament_tables.c.number == number)
        )

        def work(db: Connection) -> Row[Any]:
            saved = db.execute(
                update(tournament_tables)
                .where(where)
                .values(values)
                .returning(*tournament_tables.c)
            ).first()
            if saved is None:
                raise NotFound(f"tournament {tournament_id} has no table {number} in round {round}")
            announce(db, "tournament", tournament_id)
            return saved

        return _table(await self._db.run(work))

    async def table_of_game(self, game_id: int) -> tuple[TournamentRow, TableRow] | None:
        """The tournament and table where the game is played, if it is a tournament's."""
        return await self._table_where(tournament_tables.c.game_id == game_id)

    async def table_of_room(self, room_id: int) -> tuple[TournamentRow, TableRow] | None:
        """The table that plays in this room (the latest: the newest tournament's latest
        round, as a room may serve a table in several), with its tournament, if any."""
        return await self._table_where(tournament_tables.c.room_id == room_id)

    async def _table_where(self, condition: Any) -> tuple[TournamentRow, TableRow] | None:
        query = (
            select(tournament_tables)
            .where(condition)
            .order_by(
                tournament_tables.c.tournament_id.desc(),
                tournament_tables.c.round.desc(),
                tournament_tables.c.number,
            )
            .limit(1)
        )

        def work(db: Connection) -> tuple[Row[Any], Row[Any]] | None:
            table = first(db, query)
            if table is None:
                return None
            owner = first(db, select(tournaments).where(tournaments.c.id == table.tournament_id))
            return owner, table

        found = await self._db.run(work)
        return (_tournament(found[0]), _table(found[1])) if found is not None else None

    async def byes(self, tournament_id: int) -> list[ByeRow]:
        """The tournament's byes, by round, then entry."""
        query = (
            select(tournament_byes)
            .where(tournament_byes.c.tournament_id == tournament_id)
            .order_by(tournament_byes.c.round, tournament_byes.c.entry_id)
        )
        return [
            ByeRow(r.tournament_id, r.round, r.entry_id) for r in await self._db.run(rows, query)
        ]

    async def add_byes(self, tournament_id: int, round: int, entry_ids: Iterable[int]) -> None:
        """The entries sitting round ``round`` out. One already given a bye that round
        raises :class:`Conflict` (nothing is written)."""
        wanted = [int(e) for e in entry_ids]
        if len(set(wanted)) != len(wanted):
            raise ValueError(f"a bye named twice: {wanted}")

        def work(db: Connection) -> None:
            _lock(db, tournament_id)
            had: set[int] = set(
                db.scalars(
                    select(tournament_byes.c.entry_id).where(
                        tournament_byes.c.tournament_id == tournament_id,
                        tournament_byes.c.round == round,
                    )
                )
            )
            if had & set(wanted):
                raise Conflict(f"round {round} already gives {sorted(had & set(wanted))} a bye")
            if wanted:
                db.execute(
                    insert(tournament_byes),
                    [
                        {"tournament_id": tournament_id, "round": round, "entry_id": e}
                        for e in wanted
                    ],
                )

        await self._db.run(work)

    # -- the log

    async def log(
        self,
        tournament_id: int,
        action: str,
        at: datetime,
        by_user: int | None = None,
        round: int | None = None,
        table: int | None = None,
        entry: int | None = None,
        points: int | None = None,
        reason: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> LogRow:
        """Append to the tournament's log (``table``: the table's number in ``round``)."""
        values = {
            "tournament_id": tournament_id,
            "at": _utc(at),
            "by_user": by_user,
            "action": _check_length(action, 32, "an action"),
            "round": round,
            "table_number": table,
            "entry_id": entry,
            "points": points,
            "reason": without_nul(reason),
            "data": without_nul(dict(data or {})),
        }

        def work(db: Connection) -> Row[Any]:
            _lock(db, tournament_id)
            return db.execute(
                insert(tournament_log).values(values).returning(*tournament_log.c)
            ).one()

        return _log(await self._db.run(work))

    async def logs(self, tournament_id: int) -> list[LogRow]:
        """Everything logged of the tournament, in the order it was logged."""
        query = (
            select(tournament_log)
            .where(tournament_log.c.tournament_id == tournament_id)
            .order_by(tournament_log.c.id)
        )
        return [_log(r) for r in await self._db.run(rows, query)]


def forget_in_entries(db: Connection, user_id: int, name: str) -> int:
    """ "Forget me" in tournaments: the user's name in every entry they were a member of
    becomes ``name``; the number of entries changed. Work for
    :meth:`storage.database.Database.run`, for storage/privacy.py to call."""
    changed = 0
    for row in list(db.execute(select(tournament_entries.c.id, tournament_entries.c.members))):
        members = list(row.members)
        if not any(m.get("user") == user_id for m in members):
            continue
        members = [dict(m, name=name) if m.get("user") == user_id else m for m in members]
        db.execute(
            update(tournament_entries)
            .where(tournament_entries.c.id == row.id)
            .values(members=members)
        )
        changed += 1
    return changed


def _lock(db: Connection, tournament_id: int) -> None:
    """Hold the tournament's row for the rest of the transaction (PostgreSQL; SQLite's
    transaction holds the write lock already); :class:`NotFound` if there is none. Only
    a change takes the lock: it is announced, on commit (storage/feed.py)."""
    query = select(tournaments.c.id).where(tournaments.c.id == tournament_id).with_for_update()
    if db.scalar(query) is None:
        raise NotFound(f"there is no tournament {tournament_id}")
    announce(db, "tournament", tournament_id)


def _refuse_entered(
    db: Connection, tournament_id: int, members: list[dict[str, Any]], entry_id: int | None
) -> None:
    """Raise :class:`AlreadyEntered` if a user of ``members`` is in another entry of the
    tournament than ``entry_id``, or twice among ``members``. A member invited and not
    yet accepting (``pending``) holds no place: others may invite them too, and they may
    register with someone else."""
    wanted = [m["user"] for m in members if m["user"] is not None]
    for user in wanted:
        if wanted.count(user) > 1:
            raise AlreadyEntered(tournament_id, user, None, "")
    query = select(tournament_entries).where(tournament_entries.c.tournament_id == tournament_id)
    for other in db.execute(query):
        if other.id == entry_id:
            continue
        taken = {m.get("user") for m in other.members if not m.get("pending")} & set(wanted)
        if taken:
            raise AlreadyEntered(tournament_id, min(taken), other.id, other.name)


def _members(members: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Members as kept: each with its name, user id (or None) and computer strength (or
    None); ``pending`` (true) while a person named as a partner has not accepted."""
    kept = []
    for member in members:
        user, bot = member.get("user"), member.get("bot")
        if user is not None and (isinstance(user, bool) or not isinstance(user, int)):
            raise ValueError(f"a member's user is a user id, not {user!r}")
        one: dict[str, Any] = {
            "name": without_nul(str(member.get("name") or "")),
            "user": user,
            "bot": without_nul(str(bot)) if bot is not None else None,
        }
        if member.get("pending") is True and user is not None:
            one["pending"] = True
        kept.append(one)
    return kept


def _planned(
    tournament_id: int, round: int, table: Mapping[str, Any], now: datetime
) -> dict[str, Any]:
    unknown = set(table) - {"number", *TABLE_CHANGES}
    if unknown:
        raise TypeError(f"a table has no {sorted(unknown)}")
    status = _check(table.get("status", "waiting"), TABLE_STATUSES, "a table's status")
    return {
        "tournament_id": tournament_id,
        "round": round,
        "number": int(table["number"]),
        "sides": _sides_json(table["sides"]),
        "status": status,
        "score_a": int(table.get("score_a", 0)),
        "score_b": int(table.get("score_b", 0)),
        "winner": table.get("winner"),
        "ended_by": table.get("ended_by"),
        "hands": int(table.get("hands", 0)),
        "room_id": table.get("room_id"),
        "game_id": table.get("game_id"),
        "told": bool(table.get("told", False)),
        "updated_at": now,
    }


def _sides_json(sides: Sequence[Iterable[int]]) -> list[list[int]]:
    kept = [[int(e) for e in side] for side in sides]
    if len(kept) != 2:
        raise ValueError(f"a table has two sides, not {len(kept)}")
    return kept


def _check(value: str, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise ValueError(f"{what} is one of {allowed}, not {value!r}")
    return value


def _user_ids(users: Iterable[int]) -> list[int]:
    return [int(u) for u in users]


def _fit(text: str, length: int) -> str:
    """``text`` cut to its column (PostgreSQL refuses longer; SQLite would keep it), without
    NUL characters."""
    return without_nul(text)[:length]


def without_nul(value: Any) -> Any:
    """``value`` with every NUL character taken out of its strings, however deep: what
    people type may hold one, and PostgreSQL keeps none in text or JSON (SQLite would:
    both databases keep the same)."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, dict):
        return {without_nul(k): without_nul(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [without_nul(v) for v in value]
    return value


def _check_length(text: str, length: int, what: str) -> str:
    if not text or len(text) > length:
        raise ValueError(f"{what} is 1 to {length} characters, not {text!r}")
    return text


def _utc(when: datetime) -> datetime:
    """``when`` as stored: UTC without a zone (a zone-aware time is converted)."""
    if when.tzinfo is None:
        return when
    return when.astimezone(UTC).replace(tzinfo=None)


def _tournament(row: Row[Any]) -> TournamentRow:
    values = dict(row._mapping)
    values["judges"] = tuple(values["judges"] or ())
    values["clock"] = dict(values["clock"] or {})
    values["settings"] = dict(values["settings"] or {})
    return TournamentRow(**values)


def _entry(row: Row[Any]) -> EntryRow:
    values = dict(row._mapping)
    values["members"] = [dict(m) for m in values["members"]]
    values["late"] = bool(values["late"])
    return EntryRow(**values)


def _table(row: Row[Any]) -> TableRow:
    values = dict(row._mapping)
    a, b = values["sides"]
    values["sides"] = (tuple(a), tuple(b))
    return TableRow(**values)


def _log(row: Row[Any]) -> LogRow:
    values = dict(row._mapping)
    values["data"] = dict(values["data"] or {})
    return LogRow(**values)
