"""The platform messages the bot keeps editing (a game's board), kept so that a
restarted bot edits the same message instead of posting another."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, bindparam, delete, insert, select, update

from storage.database import Database, first
from storage.schema import posts


@dataclass(frozen=True)
class Post:
    room_id: int
    kind: str
    game_id: int | None
    message_id: str
    move_number: int | None = None  # the game's move the message shows


_FIND = select(posts).where(posts.c.room_id == bindparam("room_id"), posts.c.kind == bindparam("k"))
_SHOWN = (
    update(posts)
    .where(posts.c.room_id == bindparam("room"), posts.c.kind == bindparam("k"))
    .values(move_number=bindparam("move"))
)
_DROP = delete(posts).where(posts.c.room_id == bindparam("room_id"), posts.c.kind == bindparam("k"))


class PostRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    async def find(self, room_id: int, kind: str) -> Post | None:
        row = await self._db.run(first, _FIND, {"room_id": room_id, "k": kind})
        if row is None:
            return None
        return Post(row.room_id, row.kind, row.game_id, row.message_id, row.move_number)

    async def keep(
        self,
        room_id: int,
        kind: str,
        game_id: int | None,
        message_id: str,
        now: datetime,
        move_number: int | None = None,
    ) -> None:
        """Remember ``message_id`` as the room's post of ``kind`` (replacing the last)."""

        def work(db: Connection) -> None:
            db.execute(_DROP, {"room_id": room_id, "k": kind})
            db.execute(
                insert(posts).values(
                    room_id=room_id,
                    kind=kind,
                    game_id=game_id,
                    message_id=message_id,
                    updated_at=now,
                    move_number=move_number,
                )
            )

        await self._db.run(work)

    async def shown(self, room_id: int, kind: str, move_number: int) -> None:
        """The room's post of ``kind`` now shows move ``move_number`` (edited in place)."""
        await self._db.run(
            lambda db: db.execute(_SHOWN, {"room": room_id, "k": kind, "move": move_number})
        )

    async def drop(self, room_id: int, kind: str) -> None:
        await self._db.run(lambda db: db.execute(_DROP, {"room_id": room_id, "k": kind}))
