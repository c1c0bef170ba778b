"""How often one person's reading commands are answered in the room (issue 32, 6): a
flood of /rules from one member must not hold up a group's game, where every message
counts against the platform's limit (Telegram: 20 a minute in a group). Each person has
:data:`READS_PER_MINUTE` public answers a minute in a room (rules, score, top, stats,
help: the registry's ``reading`` commands); past that, the answers go to them alone (a
private chat, an answer only they see). The answers given in the room are set aside
(``aside``): the game's messages queued after them go first (bot/doors/outbox.py).

Counted in each process's memory: with several processes a person may get this many
public answers from each, still a few a minute."""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import replace
from datetime import datetime, timedelta

from bot.core.model import Effect, Person, Picture, Say

READS_PER_MINUTE = 3
WINDOW = timedelta(minutes=1)
# people remembered at once: the oldest seen is forgotten past this (it only costs them
# a fresh budget); 10,000 windows (a deque of up to 3 stamps each) took about 10 MB in
# bench/caches.py
PEOPLE_KEPT = 10_000

Key = tuple[int, str]  # room id, person's platform id


class ReadingBudget:
    def __init__(self, per_minute: int = READS_PER_MINUTE, kept: int = PEOPLE_KEPT) -> None:
        self.per_minute = per_minute
        self.kept = kept
        self._stamps: OrderedDict[Key, deque[datetime]] = OrderedDict()

    def take(self, key: Key, now: datetime) -> bool:
        """One public answer for ``key`` now, if its minute has room for it."""
        stamps = self._stamps.pop(key, None) or deque()
        while stamps and now - stamps[0] >= WINDOW:
            stamps.popleft()
        granted = len(stamps) < self.per_minute
        if granted:
            stamps.append(now)
        self._stamps[key] = stamps  # the most recently seen last
        while len(self._stamps) > self.kept:
            self._stamps.popitem(last=False)
        return granted

    def __len__(self) -> int:
        return len(self._stamps)


def answered(effects: list[Effect], person: Person, in_room: bool) -> list[Effect]:
    """A reading command's ``effects``: its answers in the room set aside (``in_room``),
    or all of them for ``person`` alone."""
    found: list[Effect] = []
    for effect in effects:
        if isinstance(effect, Say | Picture) and effect.private is None:
            effect = replace(effect, aside=True) if in_room else replace(effect, private=person)
        found.append(effect)
    return found


def any_public(effects: list[Effect]) -> bool:
    """Whether ``effects`` answer in the room (a private answer, /help's, costs nothing)."""
    return any(isinstance(e, Say | Picture) and e.private is None for e in effects)
