"""Bounded per-game caches for web and worker processes (a process may touch millions of
games over its life: every per-game cache is an LRU with a size limit)."""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

from cachetools import LRUCache

K = TypeVar("K")
V = TypeVar("V")

GAMES_CACHED = 4096  # games whose creation record a web process keeps (≈ 3 KiB each)


class BoundedCache(Generic[K, V]):
    """A thread-safe LRU map (cachetools.LRUCache under a lock) with the dict calls we use."""

    def __init__(self, maxsize: int | None = None) -> None:
        self._cache: LRUCache[K, V] = LRUCache(maxsize=maxsize or GAMES_CACHED)
        self._lock = threading.Lock()

    @property
    def maxsize(self) -> int:
        return int(self._cache.maxsize)

    def get(self, key: K, default: V | None = None) -> V | None:
        with self._lock:
            return self._cache.get(key, default)

    def __setitem__(self, key: K, value: V) -> None:
        with self._lock:
            self._cache[key] = value

    def __getitem__(self, key: K) -> V:
        with self._lock:
            return self._cache[key]

    def pop(self, key: K) -> V | None:
        """Drop `key` (a stale entry); its value, or None if it was not cached."""
        with self._lock:
            return self._cache.pop(key, None)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._cache

    def __len__(self) -> int:
        with self._lock:
            return len(self._cache)
