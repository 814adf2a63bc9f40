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

    Each entry is keyed by the seq of the last event folded into it and that event's chain
    hash, which commits to every event before it: `StoreHistory.state_at` uses an
    entry only after reading that event back and finding the same hash, so a cache that outlived
    its ledger (a restored or replaced database, a game id reused) is dropped, never used.
    Entries are copied in and out, so no caller can mutate a cached state; `get(shared=True)`
    and `put(shared=True)` skip the copy for an owner that never mutates a state it holds or
    hands in (the worker's Resolver, which gives states only to the rules, whose apply never
    changes its input: tests/worker/test_state_cache.py)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._entries: LRUCache[str, tuple[int, str, Any]] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def get(self, game_id: str, at_or_before: int, shared: bool = False) -> tuple[int, str, Any] | None:
        """(seq, chain hash of event seq, a copy of the state after it), if one at or before;
        `shared`: the cached state itself, which the caller must not change."""
        with self._lock:
            entry = self._entries.get(game_id)  # a hit counts as a use
            if entry is None or entry[0] > at_or_before:
                return None
            return entry if shared else (entry[0], entry[1], plain_copy(entry[2]))

    def put(self, game_id: str, seq: int, event_hash: str, state: Any, shared: bool = False) -> None:
        """Keep a copy of `state` (`shared`: `state` itself, which no one may change after)."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is not None and entry[0] >= seq:
                return
            self._entries[game_id] = (seq, event_hash, state if shared else plain_copy(state))

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._entries.pop(game_id, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


def plain_copy(x: Any) -> Any:
    """A copy of plain JSON data (a game state), faster than copy.deepcopy."""
    if isinstance(x, dict):
        return {k: plain_copy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [plain_copy(v) for v in x]
    return x if isinstance(x, (str, int, float, bool, type(None))) else copy.deepcopy(x)


class StoreHistory:
    """`History` (see warlog.judging.judge) over an event store: state_at starts from the newest
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

    def state_at(self, seq: int, shared: bool = False) -> Any:
        """The state after event `seq` (None before the game started): the caller's own copy,
        or with `shared` one that the cache may hold too, which the caller must not change
        (it saves the cache's copy in and out: `Warlog.actions` only reads the state)."""
        start, state = -1, None
        events: list[Event] | None = None
        cached = self.cache.get(self.game_id, seq, shared=shared) if self.cache is not None else None
        if cached is not None:
            events = self.store.read(self.game_id, after=cached[0] - 1, upto=seq)
            if events and events[0].seq == cached[0] and events[0].hash == cached[1]:
                start, state, events = cached[0], cached[2], events[1:]
            else:  # not this ledger's history: never used
                assert self.cache is not None
                self.cache.drop(self.game_id)
                events = None
        # A hot cache hit leaves only a few events to fold: no snapshot look-up then.
        if self.use_snapshots and start < seq and (cached is None or seq - start >= SNAPSHOT_EVERY or start < 0):
            snap = self.store.latest_snapshot(self.game_id, seq)
            if snap is not None and snap[0] > start:
                start, state, events = snap[0], snap[1], None
        if start < seq:
            if events is None:
                events = self.store.read(self.game_id, after=start, upto=seq)
            state = fold(events, state)  # a fresh state: fold copies what it starts from
            if self.cache is not None and events:
                self.cache.put(self.game_id, events[-1].seq, events[-1].hash, state, shared=shared)
        return state

    def resolved_after(self, seq: int) -> list[int]:
        return [e.seq for e in self.store.iter_events(self.game_id, after=seq) if e.type == RESOLVED]

    def find_judgement(self, submission_seq: int, of: int | None = None) -> Event | None:
        """The judgement of the submission at `of` (default `submission_seq`), looked for in the
        events after `submission_seq` (a caller that has looked at some already starts later)."""
        target = submission_seq if of is None else of
        for ev in self.store.iter_events(self.game_id, after=submission_seq):
            if ev.type in (RESOLVED, REJECTED) and ev.payload.get("submission_seq") == target:
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
