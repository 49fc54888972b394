"""A mapping that keeps at most ``maxsize`` entries, forgetting the least recently used.

The process keeps nothing per game that grows with every game ever created: what only a live game needs is
dropped when the game is over, and what can be read again from the store (folded games, the views computed, the
last seq heard) is held in one of these. A lookup that misses reads the store: nothing depends on an entry
still being here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """Thread-safe; ``get`` and ``put`` make an entry the most recently used."""

    def __init__(self, maxsize: int):
        if maxsize < 1:
            raise ValueError(f"an LRU keeps at least 1 entry, not {maxsize}")
        self.maxsize = maxsize
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, default: V | None = None) -> V | None:
        with self._lock:
            try:
                self._items.move_to_end(key)
            except KeyError:
                return default
            return self._items[key]

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)

    __setitem__ = put

    def pop(self, key: K, default: V | None = None) -> V | None:
        with self._lock:
            return self._items.pop(key, default)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[K]:
        with self._lock:
            return iter(list(self._items))
