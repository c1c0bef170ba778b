"""Who and where: platforms' users (and their language), communities, and rooms with
their settings. Rows are found by their platform ids and created on first sight."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Column, Connection, Table, Text, cast, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from storage.database import Database, first
from storage.errors import NotFound
from storage.notes import RoomSettings
from storage.schema import communities, game_results, game_seats, games, rooms, users


@dataclass(frozen=True)
class User:
    id: int
    platform: str
    platform_id: str | None
    name: str | None
    locale: str | None
    forgotten: bool


@dataclass(frozen=True)
class Community:
    id: int
    platform: str
    platform_id: str
    name: str | None
    locale: str | None


@dataclass(frozen=True)
class Room:
    id: int
    community_id: int
    platform_id: str
    settings: RoomSettings
    # its stored settings could not be read, and this very reading set them aside (the
    # defaults apply, the damaged text kept beside them): to be logged and told, once
    repaired: bool = False


class PeopleRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    async def user(
        self,
        platform: str,
        platform_id: str,
        name: str,
        now: datetime,
        locale: str | None = None,
        handle: str | None = None,
    ) -> User:
        """The user with this platform id, created if new; the name and @handle are kept
        current (a renamed player shows their new name). Text longer than its column is
        cut to fit, whatever a platform sends."""
        name = name[: users.c.name.type.length]  # type: ignore[attr-defined]
        handle = _fit(handle, users.c.handle)
        key = (users.c.platform == platform) & (users.c.platform_id == platform_id)
        values = {
            "platform": platform,
            "platform_id": platform_id,
            "name": name,
            "handle": handle,
            "locale": _fit(locale, users.c.locale),
            "forgotten": False,
            "created_at": now,
        }

        def work(db: Connection) -> User:
            row = first(db, select(users).where(key))
            if row is None:
                db.execute(insert(users).values(**values))
                row = first(db, select(users).where(key))
            elif row.name != name or (handle is not None and row.handle != handle):
                db.execute(update(users).where(key).values(name=name, handle=handle))
            return User(row.id, platform, platform_id, name, row.locale, bool(row.forgotten))

        try:
            return await self._db.run(work)
        except IntegrityError:  # a concurrent first sight inserted it: read theirs
            return await self._db.run(work)

    async def playing(self, user_id: int) -> bool:
        """Whether the user sits in a game in the lobby or in play."""
        query = (
            select(game_seats.c.game_id)
            .join(games, games.c.id == game_seats.c.game_id)
            .where(game_seats.c.user_id == user_id, games.c.status.in_(("lobby", "playing")))
            .limit(1)
        )
        return await self._db.run(first, query) is not None

    async def search(self, platform: str, wanted: str, community_id: int) -> User | None:
        """The person ``wanted`` names: ``user:<platform id>`` (a mention the platform
        resolved), ``@handle``, or a name (any case); of several, one who has played in
        the community first."""
        wanted = wanted.strip()
        if wanted.startswith("user:"):
            return await self.find(platform, wanted.removeprefix("user:"))
        text = wanted.removeprefix("@").lower()
        if not text:
            return None
        played = (
            select(game_results.c.user_id)
            .where(
                game_results.c.user_id == users.c.id,
                game_results.c.community_id == community_id,
            )
            .exists()
        )
        query = (
            select(users)
            .where(
                users.c.platform == platform,
                users.c.forgotten.is_(False),
                or_(func.lower(users.c.handle) == text, func.lower(users.c.name) == text),
            )
            .order_by(played.desc(), users.c.id.desc())
            .limit(1)
        )
        row = await self._db.run(first, query)
        if row is None:
            return None
        return User(row.id, row.platform, row.platform_id, row.name, row.locale, row.forgotten)

    async def find(self, platform: str, platform_id: str) -> User | None:
        """The user with this platform id, if known."""
        key = (users.c.platform == platform) & (users.c.platform_id == platform_id)
        query = select(users).where(key)
        row = await self._db.run(first, query)
        if row is None:
            return None
        return User(row.id, row.platform, row.platform_id, row.name, row.locale, row.forgotten)

    async def community_by_id(self, community_id: int) -> Community:
        row = await self._db.run(first, select(communities).where(communities.c.id == community_id))
        if row is None:
            raise NotFound(f"there is no community {community_id}")
        return Community(row.id, row.platform, row.platform_id, row.name, row.locale)

    async def user_by_id(self, user_id: int) -> User:
        row = await self._db.run(first, select(users).where(users.c.id == user_id))
        if row is None:
            raise NotFound(f"there is no user {user_id}")
        return User(row.id, row.platform, row.platform_id, row.name, row.locale, row.forgotten)

    async def community(
        self,
        platform: str,
        platform_id: str,
        now: datetime,
        name: str | None = None,
        locale: str | None = None,
    ) -> Community:
        key = (communities.c.platform == platform) & (communities.c.platform_id == platform_id)
        values = {
            "platform": platform,
            "platform_id": platform_id,
            "name": _fit(name, communities.c.name),
            "locale": _fit(locale, communities.c.locale),
            "created_at": now,
        }
        row = await self._get_or_create(communities, key, values)
        return Community(row.id, platform, platform_id, row.name, row.locale)

    async def room(self, community_id: int, platform_id: str, now: datetime) -> Room:
        """The room, created on first sight. Settings that cannot be read are set aside
        here, in the same transaction: the defaults written with the damaged text kept
        beside them (``RoomSettings.set_aside``), and the room returned ``repaired``."""
        key = (rooms.c.community_id == community_id) & (rooms.c.platform_id == platform_id)
        values = {
            "community_id": community_id,
            "platform_id": platform_id,
            "settings": {},
            "created_at": now,
        }
        query = select(*_ROOM).where(key)

        def work(db: Connection) -> Room:
            row = first(db, query)
            if row is None:
                db.execute(insert(rooms).values(**values))
                row = first(db, query)
            settings = RoomSettings.read(row.settings)
            if settings is not None:
                return Room(row.id, community_id, platform_id, settings)
            # read again under the row's lock: another process may have set them aside
            locked = first(db, query.with_for_update())
            settings = RoomSettings.read(locked.settings)
            if settings is not None:
                return Room(row.id, community_id, platform_id, settings)
            kept = RoomSettings(set_aside=locked.settings)
            db.execute(update(rooms).where(key).values(settings=kept.to_json()))
            return Room(row.id, community_id, platform_id, kept, repaired=True)

        try:
            return await self._db.run(work)
        except IntegrityError:  # a concurrent first sight inserted it: read theirs
            return await self._db.run(work)

    async def _get_or_create(self, table: Table, key: Any, values: dict[str, Any]) -> Any:
        """The row matching ``key``, inserted from ``values`` if there is none (two
        processes inserting at once: the unique key keeps one, the other reads it)."""

        def work(db: Connection) -> Any:
            row = first(db, select(table).where(key))
            if row is None:
                db.execute(insert(table).values(**values))
                row = first(db, select(table).where(key))
            return row

        try:
            return await self._db.run(work)
        except IntegrityError:
            return await self._db.run(work)

    async def room_by_id(self, room_id: int) -> Room:
        """The room by its id; settings that cannot be read read as the defaults (the
        room's next command sets them aside, :meth:`room`)."""
        row = await self._db.run(first, select(*_ROOM).where(rooms.c.id == room_id))
        if row is None:
            raise NotFound(f"there is no room {room_id}")
        settings = RoomSettings.read(row.settings) or RoomSettings()
        return Room(row.id, row.community_id, row.platform_id, settings)

    async def change_settings(self, room_id: int, **changes: Any) -> RoomSettings:
        """Change the room's settings by name (a None value: back to the default), in one
        transaction with reading them (another process may change another setting)."""

        def work(db: Connection) -> RoomSettings:
            current = db.execute(select(*_ROOM).where(rooms.c.id == room_id)).first()
            if current is None:
                raise NotFound(f"there is no room {room_id}")
            found = RoomSettings.read(current.settings)
            if found is None:  # damaged since read: kept beside the defaults
                found = RoomSettings(set_aside=current.settings)
            settings = found.changed(**changes)
            db.execute(
                update(rooms).where(rooms.c.id == room_id).values(settings=settings.to_json())
            )
            return settings

        return await self._db.run(work)


# A room's columns, its settings as their stored text: read here, so that settings which
# are not JSON (SQLite holds any text) are found damaged rather than failing every read.
_ROOM = (
    rooms.c.id,
    rooms.c.community_id,
    rooms.c.platform_id,
    cast(rooms.c.settings, Text).label("settings"),
)


def _fit(text: str | None, column: Column[Any]) -> str | None:
    """``text`` cut to the length of ``column`` (a platform may send more: a Telegram
    language code of 12 characters made a group unusable on PostgreSQL)."""
    length = getattr(column.type, "length", None)
    if text is None or length is None:
        return text
    return text[:length]
