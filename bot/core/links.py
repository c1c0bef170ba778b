"""The web pages' keys put on the effects of a command (issue 34: "Watch", "Replay",
"Standings"), after the command, once for all of them.

What a message is about is named where it is made (a :class:`~bot.core.model.Link` of a
kind and a target, without a key: ``showing``, ``progress``, the tournament's rounds);
here each gets its page's key, or loses its link:

- when the service makes no links for the command's platform (``GameService(links=...)``:
  the doors that have an address people reach the pages at);
- when the page is of another community than the room the effect goes to (an
  :class:`~bot.core.model.Elsewhere` to another community's room carries none);
- when the community's pages are off (``settings web off``), or there is no such page.

A key is made (a database write) the first time a page needs a link, and remembered:
a game's boards ask once per game, not once per board. What is remembered is trusted
for :data:`TRUSTED` seconds (another process may turn a community's pages off or give
them new keys); this process's own ``settings web`` forgets it at once
(:meth:`PageLinks.forget`). Keys never reach a log line: nothing here logs one.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from bot.core.bounded import Bounded
from bot.core.model import Effect, Elsewhere, Link, Place
from storage.errors import NotFound, StorageError
from storage.store import Store
from storage.web import KINDS, Kind

log = logging.getLogger(__name__)

TRUSTED = 30  # seconds a key, or a community's pages being off, is trusted from memory
PAGES_KEPT = 20_000  # pages whose key is remembered, most recently used kept
COMMUNITIES_KEPT = 5_000


class PageLinks:
    """What this process remembers of the pages' keys: each page's community (it never
    changes) and key, each community's pages on or off, each with when it was read."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # (kind, target): (its community, its key or None, when read)
        self._keys: Bounded[tuple[str, int], tuple[int, str | None, datetime]] = Bounded(PAGES_KEPT)
        self._open: Bounded[int, tuple[bool, datetime]] = Bounded(COMMUNITIES_KEPT)

    def forget(self) -> None:
        """A community's pages were turned on or off, or given new keys, here: what is
        remembered is read again (it happens seldom: all of it)."""
        self._open.clear()
        self._keys.clear()

    async def key(self, kind: str, target: int, community_id: int, now: datetime) -> str | None:
        """The key of page ``kind`` ``target`` when it is ``community_id``'s and its
        pages are on; else None."""
        if kind not in KINDS:
            return None
        page: Kind = kind  # (checked just above)
        known = self._keys.get((kind, target))
        if known is not None and known[0] != community_id:
            return None  # another community's page: never on this one's messages
        if not await self._is_open(community_id, now):
            return None
        if known is not None and now - known[2] < timedelta(seconds=TRUSTED):
            return known[1]
        owner = known[0] if known is not None else await self._community_of(page, target)
        if owner is None:
            return None
        key = None
        if owner == community_id:
            key = await self.store.web.key_for(page, target, owner, now)
        self._keys.put((kind, target), (owner, key, now))
        return key

    async def _is_open(self, community_id: int, now: datetime) -> bool:
        known = self._open.get(community_id)
        if known is not None and now - known[1] < timedelta(seconds=TRUSTED):
            return known[0]
        found = await self.store.web.is_open(community_id)
        self._open.put(community_id, (found, now))
        return found

    async def _community_of(self, kind: Kind, target: int) -> int | None:
        store = self.store
        try:
            if kind == "game":
                row = await store.games.load(target)
                return (await store.people.room_by_id(row.room_id)).community_id
            if kind == "tournament":
                return (await store.tournaments.load(target)).community_id
            return (await store.people.community_by_id(target)).id
        except NotFound:
            return None


async def put_keys(
    links: PageLinks | None,
    place: Place,
    community_id: int,
    effects: list[Effect],
    now: datetime,
) -> list[Effect]:
    """``effects`` (for ``place``, of community ``community_id``) with their pages' keys
    on, or their links taken off (``links`` None: the service makes none for this
    platform). Storage failing costs the links, never the command."""
    if not any(_linked(e) for e in effects):
        return effects
    try:
        return [await _put(links, place, community_id, e, now) for e in effects]
    except StorageError as error:
        log.warning("links to the web pages left out: %s", type(error).__name__)
        return [await _put(None, place, community_id, e, now) for e in effects]


def _linked(effect: Effect) -> bool:
    if isinstance(effect, Elsewhere):
        return any(_linked(e) for e in effect.effects)
    return getattr(effect, "link", None) is not None


async def _put(
    links: PageLinks | None, place: Place, community_id: int, effect: Effect, now: datetime
) -> Effect:
    if isinstance(effect, Elsewhere):
        there = effect.place
        same = there.platform == place.platform and there.community == place.community
        inner = links if same else None  # another community's room: no key of ours
        found = [await _put(inner, place, community_id, e, now) for e in effect.effects]
        return replace(effect, effects=tuple(found))
    link: Link | None = getattr(effect, "link", None)
    if link is None:
        return effect
    key = None
    if links is not None:
        key = await links.key(link.kind, link.target, community_id, now)
    changed: Any = replace(link, key=key) if key else None
    return replace(effect, link=changed)
