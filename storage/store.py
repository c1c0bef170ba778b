"""The one door to storage: open the database, bring its schema up to date, and hand out
the repositories."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from storage.database import open_engine
from storage.games import GameRepository
from storage.migrate import upgrade
from storage.people import PeopleRepository
from storage.privacy import forget
from storage.results import ResultRepository
from storage.stats import StatsRepository
from storage.timers import TimerRepository


class Store:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.people = PeopleRepository(engine)
        self.games = GameRepository(engine)
        self.timers = TimerRepository(engine)
        self.results = ResultRepository(engine)
        self.stats = StatsRepository(engine)

    @classmethod
    async def open(cls, url: str | None = None, migrate: bool = True) -> Store:
        """``url``: a database URL (default ``DATABASE_URL``, else SQLite under ./data/)."""
        engine = open_engine(url)
        if migrate:
            try:
                await upgrade(engine)
            except BaseException:
                await engine.dispose()
                raise
        return cls(engine)

    async def forget(self, user_id: int) -> int:
        return await forget(self.engine, user_id)

    async def close(self) -> None:
        await self.engine.dispose()
