"""Who and where: platforms' users (and their language), communities, and rooms with
their settings. Rows are found by their platform ids and created on first sight."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Table, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.database import transaction
from storage.errors import NotFound
from storage.schema import communities, rooms, users


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
    settings: dict[str, Any]


class PeopleRepository:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def user(
        self, platform: str, platform_id: str, name: str, now: datetime, locale: str | None = None
    ) -> User:
        """The user with this platform id, created if new; the name is kept current (a
        renamed player shows their new name)."""
        key = (users.c.platform == platform) & (users.c.platform_id == platform_id)
        for _ in range(2):  # a concurrent first sight inserts once; the loser reads it
            async with transaction(self._engine) as db:
                row = (await db.execute(select(users).where(key))).first()
                if row is not None:
                    if row.name != name:
                        await db.execute(update(users).where(key).values(name=name))
                    return User(
                        row.id, platform, platform_id, name, row.locale, bool(row.forgotten)
                    )
            try:
                async with transaction(self._engine) as db:
                    await db.execute(
                        insert(users).values(
                            platform=platform,
                            platform_id=platform_id,
                            name=name,
                            locale=locale,
                            forgotten=False,
                            created_at=now,
                        )
                    )
            except IntegrityError:
                continue
        return await self.user(platform, platform_id, name, now, locale)

    async def find(self, platform: str, platform_id: str) -> User | None:
        """The user with this platform id, if known."""
        async with transaction(self._engine) as db:
            row = (
                await db.execute(
                    select(users).where(
                        users.c.platform == platform, users.c.platform_id == platform_id
                    )
                )
            ).first()
        if row is None:
            return None
        return User(row.id, row.platform, row.platform_id, row.name, row.locale, row.forgotten)

    async def community_by_id(self, community_id: int) -> Community:
        async with transaction(self._engine) as db:
            row = (
                await db.execute(select(communities).where(communities.c.id == community_id))
            ).first()
        if row is None:
            raise NotFound(f"there is no community {community_id}")
        return Community(row.id, row.platform, row.platform_id, row.name, row.locale)

    async def user_by_id(self, user_id: int) -> User:
        async with transaction(self._engine) as db:
            row = (await db.execute(select(users).where(users.c.id == user_id))).first()
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
            "name": name,
            "locale": locale,
            "created_at": now,
        }
        row = await self._get_or_create(communities, key, values)
        return Community(row.id, platform, platform_id, row.name, row.locale)

    async def room(self, community_id: int, platform_id: str, now: datetime) -> Room:
        key = (rooms.c.community_id == community_id) & (rooms.c.platform_id == platform_id)
        values = {
            "community_id": community_id,
            "platform_id": platform_id,
            "settings": {},
            "created_at": now,
        }
        row = await self._get_or_create(rooms, key, values)
        return Room(row.id, community_id, platform_id, dict(row.settings))

    async def _get_or_create(self, table: Table, key: Any, values: dict[str, Any]) -> Any:
        """The row matching ``key``, inserted from ``values`` if there is none (two
        processes inserting at once: the unique key keeps one, the other reads it)."""
        async with transaction(self._engine) as db:
            row = (await db.execute(select(table).where(key))).first()
        if row is not None:
            return row
        try:
            async with transaction(self._engine) as db:
                await db.execute(insert(table).values(**values))
        except IntegrityError:
            pass
        async with transaction(self._engine) as db:
            row = (await db.execute(select(table).where(key))).first()
        assert row is not None
        return row

    async def room_by_id(self, room_id: int) -> Room:
        async with transaction(self._engine) as db:
            row = (await db.execute(select(rooms).where(rooms.c.id == room_id))).first()
        if row is None:
            raise NotFound(f"there is no room {room_id}")
        return Room(row.id, row.community_id, row.platform_id, dict(row.settings))

    async def change_settings(self, room_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        """Merge ``changes`` into the room's settings (a None value removes a setting)."""
        async with transaction(self._engine) as db:
            current = await db.scalar(select(rooms.c.settings).where(rooms.c.id == room_id))
            if current is None:
                raise NotFound(f"there is no room {room_id}")
            settings = {**current, **changes}
            settings = {k: v for k, v in settings.items() if v is not None}
            await db.execute(update(rooms).where(rooms.c.id == room_id).values(settings=settings))
        return settings
