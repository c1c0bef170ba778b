"""The one door to storage: open the database, bring its schema up to date, and hand out
the repositories."""

from __future__ import annotations

from sqlalchemy import literal, select

from storage.database import Database, database_url, open_database, reason, scalar, shown_url
from storage.errors import StorageError, Unavailable
from storage.games import GameRepository
from storage.migrate import upgrade
from storage.people import PeopleRepository
from storage.posts import PostRepository
from storage.privacy import forget
from storage.results import ResultRepository
from storage.sends import SendRepository
from storage.stats import StatsRepository
from storage.timers import TimerRepository
from storage.tournaments import TournamentRepository
from storage.web import WebRepository


class Store:
    def __init__(self, database: Database) -> None:
        self.database = database
        self.people = PeopleRepository(database)
        self.games = GameRepository(database)
        self.timers = TimerRepository(database)
        self.results = ResultRepository(database)
        self.stats = StatsRepository(database)
        self.posts = PostRepository(database)
        self.sends = SendRepository(database)
        self.tournaments = TournamentRepository(database)
        self.web = WebRepository(database)

    @classmethod
    async def open(cls, url: str | None = None, migrate: bool = True) -> Store:
        """``url``: a database URL (default ``DATABASE_URL``, else SQLite under ./data/)."""
        database = open_database(url)
        if migrate:
            try:
                await upgrade(database)
            except BaseException as error:
                await database.close()
                if isinstance(error, StorageError) and not isinstance(error, Unavailable):
                    raise  # it says what is wrong already
                if isinstance(error, Exception):
                    raise _cannot_open(database_url(url), error) from error
                raise
        return cls(database)

    async def ping(self) -> None:
        """A query that costs nothing: raises :class:`Unavailable` when the database does
        not answer (the operator's /healthz)."""
        await self.database.run(scalar, select(literal(1)))

    async def forget(self, user_id: int) -> int:
        return await self.database.run_apart(forget, user_id)

    async def close(self) -> None:
        await self.database.close()


def _cannot_open(url: str, error: Exception) -> StorageError:
    """What went wrong opening the database, in one line (a corrupt file, a role that
    does not exist, a server that does not answer), as the same kind of error."""
    kind = Unavailable if isinstance(error, Unavailable) else StorageError
    return kind(f"{shown_url(url)} cannot be opened: {reason(error)}")
