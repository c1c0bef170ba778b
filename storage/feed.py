"""The change feed (issue 34): each process hears when a game, a tournament or a
community's pages change, whichever process wrote it, so an open web page follows a move
within moments.

A writer announces inside its transaction (:func:`announce`, :func:`announce_game`):
``("game", id)`` at every save of a game (a move, a deal, its end, a status change), and
``("tournament", id)`` for the tournament whose table it is; ``("tournament", id)`` at
every change of a tournament (its row, entries, tables, byes, log); ``("community", id)``
when its pages are turned off, on or given new keys. Nothing is heard of a transaction
that rolls back.

- **PostgreSQL**: ``pg_notify('domino_changes', '<kind>:<id>')`` in the same transaction
  as the write, so PostgreSQL sends it on commit only, to every process listening (this
  one too). A process listens on one connection of its own (asyncpg's ``add_listener``),
  opened when something first listens here; when it drops, one WARNING line, and it is
  opened again with a growing pause; what changed meanwhile is unknown, so listeners hear
  :data:`LOST` (look again at everything) when it drops and when it is back.
- **SQLite** (one process): the announcements wait on the connection until the commit,
  then are told in memory (storage/sqlite.py).

A change is told once per process, whatever the number of pages open on it: the core
(bot/core/pages/live.py) fans it out.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from contextlib import suppress
from typing import Any

from sqlalchemy import Connection, bindparam, select, text

from storage.schema import tournament_tables

log = logging.getLogger(__name__)
CHANNEL = "domino_changes"
KINDS = ("game", "tournament", "community")
Change = tuple[str, int]  # ("game", id), ("tournament", id), ("community", id)
LOST: Change = ("lost", 0)  # changes may have been missed: every listener looks again
ANNOUNCED = "domino_announced"  # SQLite: the connection's changes until its commit
FIRST_PAUSE = 0.5  # seconds before listening again after a drop; doubled each try
LONGEST_PAUSE = 30.0
PING = 30.0  # seconds between checks that the listening connection still answers
CONNECT_SECONDS = 10.0

Listener = Callable[[Change], None]

_NOTIFY = text("SELECT pg_notify(:channel, :payload)")
# a game, and the tournament whose table it is (if any), in one statement
_NOTIFY_GAME = text(
    "SELECT pg_notify(:channel, p) FROM (SELECT CAST(:payload AS text) AS p"
    " UNION SELECT 'tournament:' || CAST(tournament_id AS text) FROM tournament_tables"
    " WHERE game_id = CAST(:game_id AS integer)) AS changes"
)
_TOURNAMENT_OF = (
    select(tournament_tables.c.tournament_id)
    .where(tournament_tables.c.game_id == bindparam("game_id"))
    .distinct()
)


def announce(db: Connection, kind: str, target: int) -> None:
    """Tell every process, once this transaction commits, that ``kind`` ``target``
    changed."""
    if db.dialect.name == "postgresql":
        db.execute(_NOTIFY, {"channel": CHANNEL, "payload": f"{kind}:{int(target)}"})
    else:
        db.info.setdefault(ANNOUNCED, set()).add((kind, int(target)))


def announce_game(db: Connection, game_id: int) -> None:
    """:func:`announce` the game, and the tournament it is a table of."""
    if db.dialect.name == "postgresql":
        payload = f"game:{int(game_id)}"
        db.execute(_NOTIFY_GAME, {"channel": CHANNEL, "payload": payload, "game_id": int(game_id)})
        return
    announce(db, "game", game_id)
    tournament_ids: list[int] = list(db.scalars(_TOURNAMENT_OF, {"game_id": game_id}))
    for tournament_id in tournament_ids:
        announce(db, "tournament", tournament_id)


def committed(db: Connection) -> set[Change]:
    """What the transaction just committed on ``db`` announced (SQLite), taken off it."""
    return db.info.pop(ANNOUNCED, None) or set()


def forget_announced(db: Connection) -> None:
    """A transaction begins: nothing of an earlier one that rolled back is told."""
    db.info.pop(ANNOUNCED, None)


def parsed(payload: str) -> Change | None:
    """``"game:12"`` as ``("game", 12)``; None for anything else."""
    kind, _, number = payload.partition(":")
    if kind not in KINDS or not number.isdecimal() or len(number) > 18:
        return None
    return kind, int(number)


class Feed:
    """This process's feed: in memory (SQLite, one process)."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with each change from now on; the way to stop."""
        self._listeners.append(listener)
        self._started()

        def stop() -> None:
            with suppress(ValueError):
                self._listeners.remove(listener)

        return stop

    async def ready(self, seconds: float) -> bool:
        """Whether changes are heard now (waiting up to ``seconds`` for it)."""
        return True

    def tell(self, changes: Iterable[Change]) -> None:
        for change in changes:
            for listener in list(self._listeners):
                try:
                    listener(change)
                except Exception as error:  # one listener's fault stops no other
                    log.warning("feed: a listener failed: %s", type(error).__name__)

    def _started(self) -> None:
        """Someone listens (PostgreSQL: open the listening connection)."""

    async def close(self) -> None:
        self._listeners.clear()


class PostgreSQLFeed(Feed):
    """The feed over PostgreSQL's LISTEN/NOTIFY, on one connection of this process's own
    (``connect``: the keyword arguments of ``asyncpg.connect``, as the engine's)."""

    def __init__(self, connect: Mapping[str, Any]) -> None:
        super().__init__()
        self._connect = dict(connect)
        self._task: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        self._closed = False
        self.server_pid: int | None = None  # the listening connection's, for the tests

    def _started(self) -> None:
        if self._task is None and not self._closed:
            self._task = asyncio.get_running_loop().create_task(self._keep_listening())

    async def ready(self, seconds: float) -> bool:
        if not self._listening.is_set():
            with suppress(TimeoutError):
                await asyncio.wait_for(self._listening.wait(), seconds)
        return self._listening.is_set()

    async def close(self) -> None:
        self._closed = True
        await super().close()
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _heard(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        change = parsed(payload)
        if change is not None:
            self.tell([change])

    async def _keep_listening(self) -> None:
        import asyncpg  # PostgreSQL's driver: only where PostgreSQL is used

        pause = FIRST_PAUSE
        dropped = False  # a WARNING said so, and the next success says it is back
        while True:
            connection: Any = None
            why = ""
            try:
                connection = await asyncpg.connect(
                    **self._connect,
                    timeout=CONNECT_SECONDS,
                    server_settings={"application_name": "domino-feed"},
                )
                gone = asyncio.Event()
                connection.add_termination_listener(lambda _c, gone=gone: gone.set())
                await connection.add_listener(CHANNEL, self._heard)
                self.server_pid = connection.get_server_pid()
                self._listening.set()
                if dropped:
                    log.warning("feed: listening to PostgreSQL again")
                    self.tell([LOST])
                    dropped = False
                pause = FIRST_PAUSE
                while not gone.is_set():
                    try:
                        await asyncio.wait_for(gone.wait(), PING)
                    except TimeoutError:  # a connection that died without a word
                        await asyncio.wait_for(connection.execute("SELECT 1"), CONNECT_SECONDS)
                why = "the connection closed"
            except asyncio.CancelledError:
                raise
            except Exception as error:  # its kind only: a message may name the server
                why = type(error).__name__
            finally:
                self._listening.clear()
                if connection is not None:
                    with suppress(Exception):
                        connection.terminate()
            if not dropped:
                log.warning(
                    "feed: not listening to PostgreSQL (%s); trying again, live pages wait", why
                )
                dropped = True
                self.tell([LOST])
            await asyncio.sleep(pause)
            pause = min(pause * 2, LONGEST_PAUSE)
