"""Reading a game back: its creation record, the state at any step (snapshots + fold), the
entropy its dice use, and where each submission was judged."""

from __future__ import annotations

import copy
import threading
from typing import Any

from cachetools import LRUCache

from ledger.dice import entropy_digest
from ledger.events import GAME_CREATED, GAME_ENDED, GAME_STARTED, REJECTED, RESOLVED, SEAT_JOINED, Event
from ledger.fold import fold
from ledger.store import EventStore

SNAPSHOT_EVERY = 100


class GameNotFound(KeyError):
    pass


class StateCache:
    """The newest state computed for each of the most recently used games, in memory (an LRU
    of `size` games: cachetools.LRUCache under a lock).

    Safe because the ledger is append-only: the state after event N never changes. Entries
    are copied in and out, so no caller can mutate a cached state."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._entries: LRUCache[str, tuple[int, Any]] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def get(self, game_id: str, at_or_before: int) -> tuple[int, Any] | None:
        with self._lock:
            entry = self._entries.get(game_id)  # a hit counts as a use
            if entry is None or entry[0] > at_or_before:
                return None
            return entry[0], copy.deepcopy(entry[1])

    def put(self, game_id: str, seq: int, state: Any) -> None:
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is not None and entry[0] >= seq:
                return
            self._entries[game_id] = (seq, copy.deepcopy(state))

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


class StoreHistory:
    """`History` (see warlog.resolution) over an event store: state_at starts from the newest
    of the in-memory cache and the stored snapshots, then folds the events after it."""

    def __init__(self, store: EventStore, game_id: str, snapshots: bool = True,
                 cache: StateCache | None = None) -> None:
        self.store, self.game_id, self.use_snapshots, self.cache = store, game_id, snapshots, cache

    def created(self) -> Event:
        events = self.store.read(self.game_id, after=-1, upto=0)
        if not events or events[0].type != GAME_CREATED:
            raise GameNotFound(self.game_id)
        return events[0]

    def event(self, seq: int) -> Event:
        events = self.store.read(self.game_id, after=seq - 1, upto=seq)
        if not events:
            raise KeyError(seq)
        return events[0]

    def state_at(self, seq: int) -> Any:
        """The state after event `seq` (None before the game started)."""
        start, state = -1, None
        cached = self.cache.get(self.game_id, seq) if self.cache is not None else None
        if cached is not None:
            start, state = cached
        if self.use_snapshots and start < seq:
            snap = self.store.latest_snapshot(self.game_id, seq)
            if snap is not None and snap[0] > start:
                start, state = snap
        if start < seq:
            state = fold(self.store.read(self.game_id, after=start, upto=seq), state)
            if self.cache is not None:
                self.cache.put(self.game_id, seq, state)
        return state

    def resolved_after(self, seq: int) -> list[int]:
        return [e.seq for e in self.store.iter_events(self.game_id, after=seq) if e.type == RESOLVED]

    def find_judgement(self, submission_seq: int) -> Event | None:
        for ev in self.store.iter_events(self.game_id, after=submission_seq):
            if ev.type in (RESOLVED, REJECTED) and ev.payload.get("submission_seq") == submission_seq:
                return ev
        return None


def seat_entropy(events: list[Event]) -> dict[str, str]:
    return {e.seat or "": e.payload.get("entropy", "") for e in events if e.type == SEAT_JOINED}


def entropy_of(store: EventStore, game_id: str, roles: int) -> str:
    """The entropy digest recorded when the game started (its game_started event comes right
    after the `roles` seat_joined events)."""
    for ev in store.read(game_id, after=roles, upto=roles + 1):
        if ev.type == GAME_STARTED:
            return str(ev.payload["entropy"])
    raise KeyError(f"game {game_id} has not started")


def ended(events: list[Event]) -> bool:
    """Whether the game is over: a game_ended event not followed by a reopening ruling."""
    over = False
    for ev in events:
        if ev.type == GAME_ENDED:
            over = True
        elif ev.type == RESOLVED and ev.payload.get("reopened"):
            over = False
    return over


__all__ = ["StoreHistory", "GameNotFound", "seat_entropy", "entropy_of", "entropy_digest", "ended", "SNAPSHOT_EVERY"]
