"""Games: a snapshot with a version, the append-only log of their moves, and their
finished hands, each written once.

A game's snapshot is ``{"record": ..., "checkpoint": ..., "meta": ...}``: the record
(domino-record/1) holds the hands from the last finished one, the checkpoint the game
as it stood when the first of them was dealt (engine/record.py), ``meta`` the service's
notes (:class:`~storage.notes.GameNotes`); the hands before it are in ``game_hands``, so
what a save writes does not grow with the game. A snapshot without a checkpoint (a lobby,
or saved by an older version) holds the whole record.

Saving names the version the game was loaded at. If another process saved first, the
version has moved on and the save fails with :class:`Conflict` (nothing written): the
caller reloads and tries again, so no move is ever lost or applied twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update

from storage.database import Database, first, rows, scalar
from storage.errors import Conflict, DamagedGame, NotFound, StorageError
from storage.feed import announce_game
from storage.notes import GameNotes
from storage.schema import communities, game_hands, game_seats, games, moves, rooms, timers
from storage.timers import TimerPlan, apply_plan

ACTIVE = ("lobby", "playing")
# A game whose stored data cannot be read: kept as it was for the operator, out of its
# room's way (the room may open another), its timers gone (docs/storage.md).
SET_ASIDE = "set_aside"
# What decoding a JSON column raises when its text is not JSON (SQLite holds any text)
UNREADABLE = (ValueError, TypeError)


@dataclass(frozen=True)
class GameRow:
    id: int
    room_id: int
    preset: str
    status: str
    seats: list[dict[str, Any]]
    snapshot: dict[str, Any]
    version: int
    plies: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None

    @property
    def notes(self) -> GameNotes:
        """What the service noted of the game beside its record (storage/notes.py)."""
        return GameNotes.from_json(self.snapshot.get("meta"))


@dataclass(frozen=True)
class LoggedMove:
    ply: int
    hand: int
    move: str


@dataclass(frozen=True)
class StoredHand:
    """A finished hand, as it leaves the snapshot for good."""

    hand: int  # counted from 0
    record: dict[str, Any]  # its domino-record/1 entry
    points: list[int]  # by side
    winner: int | None  # the side that won it


def hands_stored(snapshot: dict[str, Any]) -> int:
    """How many of the game's first hands are in game_hands rather than the snapshot."""
    point = snapshot.get("checkpoint")
    return int(point.get("hands_before", 0)) if isinstance(point, dict) else 0


class GameRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    async def create(
        self,
        room_id: int,
        preset: str,
        seats: list[dict[str, Any]],
        snapshot: dict[str, Any],
        now: datetime,
        status: str = "lobby",
    ) -> GameRow:
        """A new game at version 1. A room holds one active game: a second one while
        the first is in the lobby or in play fails with :class:`Conflict`."""

        def work(db: Connection) -> Any:
            active = db.scalar(
                select(games.c.id).where(games.c.room_id == room_id, games.c.status.in_(ACTIVE))
            )
            if active is not None and status in ACTIVE:
                raise Conflict(f"room {room_id} already has game {active}")
            game_id = db.scalar(
                insert(games)
                .values(
                    room_id=room_id,
                    preset=preset,
                    status=status,
                    seats=seats,
                    snapshot=snapshot,
                    version=1,
                    plies=0,
                    created_at=now,
                    updated_at=now,
                )
                .returning(games.c.id)
            )
            assert game_id is not None
            _seat(db, game_id, seats)
            announce_game(db, game_id)
            return first(db, select(games).where(games.c.id == game_id))

        return GameRow(**(await self._db.run(work))._mapping)

    async def load(self, game_id: int) -> GameRow:
        """The game; :class:`DamagedGame` when its stored data cannot be read."""
        row = await self._db.run(_first_game, _BY_ID, {"game_id": game_id})
        if row is None:
            raise NotFound(f"there is no game {game_id}")
        return row

    async def plies(self, game_id: int) -> int | None:
        """How many moves of game ``game_id`` are saved (None: no such game); a look that
        reads no snapshot."""
        return await self._db.run(scalar, _PLIES, {"game_id": game_id})

    async def versions(self, game_ids: list[int]) -> dict[int, tuple[int, str, int]]:
        """(version, status, room id) of each of ``game_ids`` there is, in one query that
        reads no snapshot (a tournament's page asks for its tables' games at once)."""
        if not game_ids:
            return {}
        query = select(games.c.id, games.c.version, games.c.status, games.c.room_id).where(
            games.c.id.in_(game_ids)
        )
        return {r.id: (r.version, r.status, r.room_id) for r in await self._db.run(rows, query)}

    async def active_count(self) -> dict[str, int]:
        """How many games are in the lobby and in play, by status (the operator's
        ``domino_games_active``: the partial index of a room's active game counts them)."""
        query = (
            select(games.c.status, func.count())
            .where(games.c.status.in_(ACTIVE))
            .group_by(games.c.status)
        )
        return {row[0]: row[1] for row in await self._db.run(rows, query)}

    async def active_rooms(self, platform: str, community: str) -> list[str]:
        """The platform ids of a community's rooms with a game in the lobby or in play."""
        query = (
            select(rooms.c.platform_id)
            .join(communities, communities.c.id == rooms.c.community_id)
            .join(games, games.c.room_id == rooms.c.id)
            .where(communities.c.platform == platform)
            .where(communities.c.platform_id == community)
            .where(games.c.status.in_(ACTIVE))
        )
        return [row.platform_id for row in await self._db.run(rows, query)]

    async def playing_on(self, platform: str) -> list[int]:
        """The ids of every game in play on ``platform`` (what a restarted bot shows
        again), each to be loaded on its own: one that cannot be read stops no other."""
        query = (
            select(games.c.id)
            .join(rooms, rooms.c.id == games.c.room_id)
            .join(communities, communities.c.id == rooms.c.community_id)
            .where(communities.c.platform == platform, games.c.status == "playing")
            .order_by(games.c.id)
        )
        return [row.id for row in await self._db.run(rows, query)]

    async def active_in(self, room_id: int) -> GameRow | None:
        """The room's game in the lobby or in play, if any; :class:`DamagedGame` when its
        stored data cannot be read."""
        return await self._db.run(_first_game, _ACTIVE_IN, {"room_id": room_id})

    async def latest_over_in(self, room_id: int) -> GameRow | None:
        """The room's game that ended last (finished or cancelled), if any."""
        query = (
            select(games)
            .where(games.c.room_id == room_id, games.c.status.in_(("finished", "cancelled")))
            .order_by(games.c.id.desc())
            .limit(1)
        )
        return await self._db.run(_first_game, query)

    async def set_aside(self, game_id: int, now: datetime) -> bool:
        """Put a game whose stored data cannot be read out of its room's way: its status
        becomes ``set_aside`` (its room may open another game), its pending timers go, and
        its rows stay as they are for the operator (docs/deploy.md). True when this call
        did it: it is logged once, by whoever did."""
        statement = (
            update(games)
            .where(games.c.id == game_id, games.c.status != SET_ASIDE)
            .values(
                status=SET_ASIDE,
                version=games.c.version + 1,  # a process holding it in memory: Conflict
                updated_at=now,
                finished_at=func.coalesce(games.c.finished_at, now),
            )
        )

        def work(db: Connection) -> bool:
            if db.execute(statement).rowcount != 1:
                return False
            announce_game(db, game_id)
            db.execute(
                delete(timers).where(timers.c.game_id == game_id, timers.c.fired_at.is_(None))
            )
            return True

        return await self._db.run(work)

    async def save(
        self,
        game_id: int,
        version: int,
        snapshot: dict[str, Any],
        new_moves: Sequence[tuple[int, str]],
        now: datetime,
        status: str | None = None,
        seats: list[dict[str, Any]] | None = None,
        timers: TimerPlan | None = None,
        hands: Sequence[StoredHand] = (),
    ) -> int:
        """Write the snapshot and append ``new_moves`` ((hand, move) in order) and the
        ``hands`` that leave the snapshot as one transaction, if the game is still at
        ``version``; the new version. ``timers`` change in the same transaction. Raises
        :class:`Conflict` when another save came first (nothing is written then)."""
        values: dict[str, Any] = {"snapshot": snapshot, "updated_at": now}
        if status is not None:
            values["status"] = status
            if status not in ACTIVE:
                values["finished_at"] = now
        if seats is not None:
            values["seats"] = seats
        update_game = _save_statement(tuple(values))
        params = {f"new_{k}": v for k, v in values.items()}
        params.update(game_id=game_id, expected=version, added=len(new_moves))

        def work(db: Connection) -> None:
            # the update comes first: it takes the write lock and checks the version
            saved = db.execute(update_game, params).first()
            if saved is None:
                found = db.scalar(select(games.c.version).where(games.c.id == game_id))
                if found is None:
                    raise NotFound(f"there is no game {game_id}")
                raise Conflict(f"game {game_id} is at version {found}, not {version}")
            announce_game(db, game_id)  # sent on commit only (storage/feed.py)
            if seats is not None:
                _seat(db, game_id, seats)
            if timers is not None:
                apply_plan(db, saved.room_id, game_id, version + 1, timers)
            start = saved.plies - len(new_moves)
            if new_moves:
                db.execute(
                    _LOG_MOVES,
                    [
                        {
                            "game_id": game_id,
                            "ply": start + i,
                            "hand": hand,
                            "move": text,
                            "created_at": now,
                        }
                        for i, (hand, text) in enumerate(new_moves)
                    ],
                )
            if hands:
                db.execute(
                    _STORE_HANDS,
                    [
                        {
                            "game_id": game_id,
                            "hand": h.hand,
                            "record": h.record,
                            "points": h.points,
                            "winner": h.winner,
                        }
                        for h in hands
                    ],
                )

        await self._db.run(work)
        return version + 1

    async def record(self, game_id: int) -> dict[str, Any]:
        """The game's whole domino-record/1 record: its stored hands and its snapshot's."""
        return (await self.with_record(game_id))[1]

    async def with_record(self, game_id: int) -> tuple[GameRow, dict[str, Any]]:
        """The game's row and its whole record, both of one reading of the row: what is
        decided from the row (is a hand in play?) holds for the record (another process
        may deal or move meanwhile; the hands stored apart never change once stored)."""
        row = await self.load(game_id)
        return row, await self._record_of(row)

    async def _record_of(self, row: GameRow) -> dict[str, Any]:
        game_id = row.id
        try:
            record = dict(row.snapshot.get("record") or {})
            before = hands_stored(row.snapshot)
            hands = list(record.get("hands", []))
        except (*UNREADABLE, AttributeError) as error:  # not a record's shape
            raise DamagedGame(game_id, row.room_id, row.status, type(error).__name__) from None
        if not before:
            return record
        stored = [hand.record for hand in await self.hands(game_id, before)]
        return dict(record, hands=[*stored, *hands])

    async def hands(self, game_id: int, before: int) -> list[StoredHand]:
        """The game's first ``before`` hands as stored (each once it left the snapshot)."""
        query = (
            select(game_hands)
            .where(game_hands.c.game_id == game_id, game_hands.c.hand < before)
            .order_by(game_hands.c.hand)
        )

        def work(db: Connection) -> list[StoredHand]:
            try:
                return [
                    StoredHand(r.hand, r.record, list(r.points), r.winner)
                    for r in db.execute(query)
                ]
            except UNREADABLE as error:  # a hand's JSON does not decode
                head = db.execute(_HEAD, {"game_id": game_id}).one()
                raise DamagedGame(
                    game_id, head.room_id, head.status, type(error).__name__
                ) from None

        found = await self._db.run(work)
        if [h.hand for h in found] != list(range(before)):
            raise StorageError(f"game {game_id} lacks some of its first {before} hands")
        return found

    async def log(self, game_id: int) -> list[LoggedMove]:
        """The game's moves as logged, in order."""
        query = (
            select(moves.c.ply, moves.c.hand, moves.c.move)
            .where(moves.c.game_id == game_id)
            .order_by(moves.c.ply)
        )
        return [LoggedMove(*row) for row in await self._db.run(rows, query)]


_BY_ID = select(games).where(games.c.id == bindparam("game_id"))
_PLIES = select(games.c.plies).where(games.c.id == bindparam("game_id"))
_HEAD = select(games.c.id, games.c.room_id, games.c.status).where(
    games.c.id == bindparam("game_id")
)
_ACTIVE_IN = select(games).where(
    games.c.room_id == bindparam("room_id"), games.c.status.in_(ACTIVE)
)
_LOG_MOVES = insert(moves)
_STORE_HANDS = insert(game_hands)
_UNSEAT = delete(game_seats).where(game_seats.c.game_id == bindparam("game_id"))
_SEAT = insert(game_seats)


def _first_game(db: Connection, query: Any, params: dict[str, Any] | None = None) -> GameRow | None:
    """The query's first game, or None; :class:`DamagedGame` (naming it) when its stored
    JSON does not decode or is not of a game's shape."""
    try:
        row = db.execute(query, params).first()
    except UNREADABLE as error:  # read again without the JSON, to name the game
        head = db.execute(query.with_only_columns(*_HEAD.selected_columns), params).one()
        raise DamagedGame(head.id, head.room_id, head.status, type(error).__name__) from None
    if row is None:
        return None
    game = GameRow(**row._mapping)
    if not isinstance(game.snapshot, dict) or not isinstance(game.seats, list):
        kind = f"{type(game.snapshot).__name__} snapshot, {type(game.seats).__name__} seats"
        raise DamagedGame(game.id, game.room_id, game.status, kind)
    return game


@cache
def _save_statement(columns: tuple[str, ...]) -> Any:
    """A save's update of ``columns`` (each from the parameter ``new_<column>``), where
    the game is at the ``expected`` version; it counts ``added`` moves."""
    return (
        update(games)
        .where(games.c.id == bindparam("game_id"), games.c.version == bindparam("expected"))
        .values(
            version=games.c.version + 1,
            plies=games.c.plies + bindparam("added"),
            **{name: bindparam(f"new_{name}", type_=games.c[name].type) for name in columns},
        )
        .returning(games.c.plies, games.c.room_id)
    )


def _seat(db: Connection, game_id: int, seats: list[dict[str, Any]]) -> None:
    """Keep game_seats in step with the seats (computer players have no row)."""
    db.execute(_UNSEAT, {"game_id": game_id})
    seated = [
        {"game_id": game_id, "seat": i, "user_id": seat["user"]}
        for i, seat in enumerate(seats)
        if seat.get("user") is not None
    ]
    if seated:
        db.execute(_SEAT, seated)


def snapshot_moves(snapshot: dict[str, Any]) -> list[tuple[int, str]]:
    """The (hand, move) pairs a whole domino-record/1 record (:meth:`GameRepository.record`)
    holds, in order: what the move log must hold too."""
    found: list[tuple[int, str]] = []
    for index, hand in enumerate(snapshot.get("hands", [])):
        found += [(index, str(move)) for move in hand.get("moves", [])]
    return found
