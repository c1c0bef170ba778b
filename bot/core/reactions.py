"""What a command reports as it goes, and the parts of the service that react to it.

A part that must follow what happens elsewhere (the tournament, a table's game ending)
reacts to what is reported, so the part that reports it (progress) knows nothing of it:
``@reacts(GameEnded)`` attaches a reaction, written beside what it does. Reactions run
once the command's handler is done, inside the same command (its room's lock, its retry
after a lost race), in the order things were reported.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from bot.core.session import Session

Reported = TypeVar("Reported")
Reaction = Callable[["Session", Any], Awaitable[None]]
REACTIONS: dict[type, list[Reaction]] = {}


def reacts(kind: type[Reported]) -> Callable[[Reaction], Reaction]:
    """Attach the decorated ``async def reaction(session, reported)`` to ``kind``."""

    def attach(reaction: Reaction) -> Reaction:
        REACTIONS.setdefault(kind, []).append(reaction)
        return reaction

    return attach


async def react(session: Session) -> None:
    """Run the reactions to what the command reported (what they report too)."""
    while session.reported:
        reported = session.reported.pop(0)
        for reaction in REACTIONS.get(type(reported), ()):
            await reaction(session, reported)
