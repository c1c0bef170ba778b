"""Games: a snapshot with a version, and the append-only log of their moves.

Saving names the version the game was loaded at. If another process saved first, the
version has moved on and the save fails with :class:`Conflict` (nothing written): the
caller reloads and tries again, so no move is ever lost or applied twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from storage.database import transaction
from storage.errors import Conflict, NotFound
from storage.schema import game_seats, games, moves
from storage.timers import TimerPlan, apply_plan

ACTIVE = ("lobby", "playing")


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


@dataclass(frozen=True)
class LoggedMove:
    ply: int
    hand: int
    move: str


class GameRepository:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

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
        async with transaction(self._engine) as db:
            active = await db.scalar(
                select(games.c.id).where(games.c.room_id == room_id, games.c.status.in_(ACTIVE))
            )
            if active is not None and status in ACTIVE:
                raise Conflict(f"room {room_id} already has game {active}")
            game_id = await db.scalar(
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
            await _seat(db, game_id, seats)
        return await self.load(game_id)

    async def load(self, game_id: int) -> GameRow:
        async with transaction(self._engine) as db:
            row = (await db.execute(select(games).where(games.c.id == game_id))).first()
        if row is None:
            raise NotFound(f"there is no game {game_id}")
        return GameRow(**row._mapping)

    async def active_in(self, room_id: int) -> GameRow | None:
        """The room's game in the lobby or in play, if any."""
        async with transaction(self._engine) as db:
            row = (
                await db.execute(
                    select(games).where(games.c.room_id == room_id, games.c.status.in_(ACTIVE))
                )
            ).first()
        return GameRow(**row._mapping) if row is not None else None

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
    ) -> int:
        """Write the snapshot and append ``new_moves`` ((hand, move) in order) as one
        transaction, if the game is still at ``version``; the new version. ``timers``
        change in the same transaction. Raises :class:`Conflict` when another save came
        first (nothing is written then)."""
        values: dict[str, Any] = {
            "snapshot": snapshot,
            "version": version + 1,
            "plies": games.c.plies + len(new_moves),
            "updated_at": now,
        }
        if status is not None:
            values["status"] = status
            if status not in ACTIVE:
                values["finished_at"] = now
        if seats is not None:
            values["seats"] = seats
        async with transaction(self._engine) as db:
            # the update comes first: it takes the write lock and checks the version
            saved = (
                await db.execute(
                    update(games)
                    .where(games.c.id == game_id, games.c.version == version)
                    .values(**values)
                    .returning(games.c.plies, games.c.room_id)
                )
            ).first()
            if saved is None:
                found = await db.scalar(select(games.c.version).where(games.c.id == game_id))
                if found is None:
                    raise NotFound(f"there is no game {game_id}")
                raise Conflict(f"game {game_id} is at version {found}, not {version}")
            plies = saved.plies
            if seats is not None:
                await _seat(db, game_id, seats)
            if timers is not None:
                await apply_plan(db, saved.room_id, game_id, version + 1, timers)
            first = plies - len(new_moves)
            if new_moves:
                await db.execute(
                    insert(moves),
                    [
                        {
                            "game_id": game_id,
                            "ply": first + i,
                            "hand": hand,
                            "move": text,
                            "created_at": now,
                        }
                        for i, (hand, text) in enumerate(new_moves)
                    ],
                )
        return version + 1

    async def log(self, game_id: int) -> list[LoggedMove]:
        """The game's moves as logged, in order."""
        async with transaction(self._engine) as db:
            rows = await db.execute(
                select(moves.c.ply, moves.c.hand, moves.c.move)
                .where(moves.c.game_id == game_id)
                .order_by(moves.c.ply)
            )
            return [LoggedMove(*row) for row in rows]


async def _seat(db: AsyncConnection, game_id: int, seats: list[dict[str, Any]]) -> None:
    """Keep game_seats in step with the seats (computer players have no row)."""
    await db.execute(delete(game_seats).where(game_seats.c.game_id == game_id))
    rows = [
        {"game_id": game_id, "seat": i, "user_id": seat["user"]}
        for i, seat in enumerate(seats)
        if seat.get("user") is not None
    ]
    if rows:
        await db.execute(insert(game_seats), rows)


def snapshot_moves(snapshot: dict[str, Any]) -> list[tuple[int, str]]:
    """The (hand, move) pairs a snapshot (a domino-record/1 record) holds, in order: what
    the move log must hold too."""
    found: list[tuple[int, str]] = []
    for index, hand in enumerate(snapshot.get("hands", [])):
        found += [(index, str(move)) for move in hand.get("moves", [])]
    return found
