"""Whether this process is healthy: the database answers a cheap query in a short time,
and each door says it is connected to its platform."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.core import StorageError, Unavailable

log = logging.getLogger(__name__)
OK = "ok"
DATABASE_SECONDS = 2.0  # a database slower than this to say "1" is not answering


class Door(Protocol):
    """What a door tells the operator: its connection ("ok", else what is wrong, in a few
    words) and the effects it has queued and not yet sent."""

    def state(self) -> str: ...

    def pending(self) -> int: ...


@dataclass(frozen=True)
class Watch:
    """What the operator's view looks at: ``database()`` (a cheap query, raising when the
    database does not answer), ``games()`` (the games in the lobby and in play, by
    status) and the doors running, by platform."""

    database: Callable[[], Awaitable[None]]
    games: Callable[[], Awaitable[Mapping[str, int]]]
    doors: Mapping[str, Door] = field(default_factory=dict)
    database_seconds: float = DATABASE_SECONDS


async def health(watch: Watch) -> tuple[bool, dict[str, Any]]:
    """Whether all is well, and what ``/healthz`` says: the database's state and each
    platform's ("ok", or what is wrong)."""
    database = await database_state(watch)
    platforms = {name: door_state(name, door) for name, door in watch.doors.items()}
    healthy = database == OK and all(state == OK for state in platforms.values())
    said = {"status": OK if healthy else "unhealthy", "database": database, "platforms": platforms}
    return healthy, said


async def database_state(watch: Watch) -> str:
    try:
        await asyncio.wait_for(watch.database(), watch.database_seconds)
    except (TimeoutError, Unavailable):
        return "not answering"
    except StorageError as error:  # the kind only: a message may quote a statement
        return f"failing ({type(error).__name__})"
    except Exception as error:
        log.warning("ops: the database's check failed: %s", type(error).__name__)
        return f"failing ({type(error).__name__})"
    return OK


def door_state(name: str, door: Door) -> str:
    try:
        return door.state()
    except Exception as error:  # a door that cannot say is not well
        log.warning("ops: %s could not say its state: %s", name, type(error).__name__)
        return "unknown"
