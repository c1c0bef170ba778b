"""A mapping that holds at most ``size`` keys, forgetting the least recently used first
(issue 32, 8: no per-process memory grows for ever). For what a process only remembers
to save work or a message (a user read, a room's settings, where a hand message is):
forgetting costs a read again, or a message edited no more."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Bounded(Generic[K, V]):
    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a bounded mapping holds one key at least")
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, default: V | None = None) -> V | None:
        if key not in self._items:
            return default
        self._items.move_to_end(key)
        return self._items[key]

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, key: K, default: V | None = None) -> V | None:
        return self._items.pop(key, default)

    def clear(self) -> None:
        self._items.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)
