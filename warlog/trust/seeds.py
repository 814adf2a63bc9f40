"""A game's seed periods, read from its ledger (ledger.dice step 7): which commitments were made
where, which seeds were revealed where, and whether the seed in force now is still secret.

No game goes on with a revealed seed: the writers ask `current_revealed()` before they append a
submission (the service) or after they reveal a seed in a running game (the resolver), and
commit a fresh seed first."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cachetools import LRUCache

from ledger.dice import commitment
from ledger.events import GAME_CREATED, SEED_COMMITTED, SEED_REVEALED, Event, NewEvent
from ledger.store import EventStore
from warlog.ops.lru import GAMES_CACHED


@dataclass
class SeedPeriods:
    """`periods`: (seq of the commitment, commitment), oldest first (event 0's is period 0);
    `revealed`: commitment -> seq of the `seed_revealed` event that published its seed."""

    periods: list[tuple[int, str]] = field(default_factory=list)
    revealed: dict[str, int] = field(default_factory=dict)
    scanned: int = -1  # the last seq read

    def add(self, ev: Event) -> None:
        if ev.type == GAME_CREATED:
            self.periods.append((0, str(ev.payload.get("seed_commitment", ""))))
        elif ev.type == SEED_COMMITTED:
            self.periods.append((ev.seq, str(ev.payload.get("commitment", ""))))
        elif ev.type == SEED_REVEALED:
            self.revealed.setdefault(str(ev.payload.get("commitment", "")), ev.seq)
        self.scanned = ev.seq

    def period_of(self, seq: int) -> int:
        """The index of the period whose seed drives position `seq`."""
        index = 0
        for i, (start, _) in enumerate(self.periods):
            if start < seq:
                index = i
        return index

    def current_revealed(self) -> bool:
        return bool(self.periods) and self.periods[-1][1] in self.revealed

    def reveal(self, seed: bytes) -> NewEvent:
        """The `seed_revealed` event of the current period's seed."""
        k = len(self.periods) - 1
        payload: dict[str, Any] = {"seed": seed.hex(), "commitment": commitment(seed)}
        if k > 0:
            payload["period"] = k
        return NewEvent(SEED_REVEALED, None, payload)

    def commit(self, seed: bytes) -> NewEvent:
        """The `seed_committed` event of a fresh seed (the next period)."""
        return NewEvent(SEED_COMMITTED, None, {"commitment": commitment(seed), "period": len(self.periods)})


def read_periods(events: Iterable[Event]) -> SeedPeriods:
    book = SeedPeriods()
    for ev in events:
        book.add(ev)
    return book


class SeedBooks:
    """Each game's SeedPeriods, kept in memory and brought up to date by reading only the events
    appended since (safe: the ledger is append-only). An LRU: a process may touch every game;
    an evicted game's book is read again from its events."""

    def __init__(self) -> None:
        self._books: LRUCache[str, SeedPeriods] = LRUCache(maxsize=GAMES_CACHED)
        self._seeds: LRUCache[str, list[tuple[int, bytes]]] = LRUCache(maxsize=GAMES_CACHED)  # secrets: insert-only
        self._lock = threading.Lock()

    def get(self, store: EventStore, game_id: str) -> SeedPeriods:
        with self._lock:
            book = self._books.get(game_id)
        fresh = SeedPeriods() if book is None else SeedPeriods(list(book.periods), dict(book.revealed), book.scanned)
        for ev in store.iter_events(game_id, after=fresh.scanned):
            fresh.add(ev)
        self._keep(game_id, fresh)
        return fresh

    def _keep(self, game_id: str, book: SeedPeriods) -> None:
        """Keep `book` unless the kept one was read further (another thread's)."""
        with self._lock:
            old = self._books.get(game_id)
            if old is None or old.scanned < book.scanned:
                self._books[game_id] = book

    def seeds(self, store: EventStore, game_id: str, upto: int) -> list[tuple[int, bytes]]:
        """The game's secret seeds (ledger.dice step 7), read again only when its book (read at
        least up to `upto`) shows a period the kept list has no seed for: seeds are only added."""
        with self._lock:
            seeds = self._seeds.get(game_id)
        if seeds is None or len(seeds) < len(self.kept(store, game_id, upto).periods):
            seeds = store.seeds(game_id)
            if seeds:
                with self._lock:
                    self._seeds[game_id] = seeds
        return seeds

    def kept(self, store: EventStore, game_id: str, upto: int) -> SeedPeriods:
        """The game's book read at least up to `upto`: the kept one if it is, else `get`."""
        with self._lock:
            book = self._books.get(game_id)
        if book is not None and book.scanned >= upto:
            return book
        return self.get(store, game_id)

    def prime(self, game_id: str, events: list[Event], seeds: list[tuple[int, bytes]] | None) -> None:
        """A book and seeds read elsewhere (a cold judgement's one read with its lock): the book
        from `events` when they are the game's from its first event on, one after another, and
        newer than the kept one; the seeds when given (`seeds` reads them again if a period is
        missing, as ever)."""
        if events and events[0].seq == 0 and all(b.seq == a.seq + 1 for a, b in zip(events, events[1:])):
            book = SeedPeriods()
            for ev in events:
                book.add(ev)
            self._keep(game_id, book)
        if seeds:
            with self._lock:
                self._seeds[game_id] = list(seeds)

    def see(self, game_id: str, events: list[Event]) -> None:
        """Bring a kept book up to date with events read elsewhere (the resolver's one read per
        judgement), when they carry on exactly where the book stopped; otherwise leave it."""
        with self._lock:
            book = self._books.get(game_id)
            if book is None:
                return
            new = [ev for ev in events if ev.seq > book.scanned]
            if not new or new[0].seq != book.scanned + 1 or any(b.seq != a.seq + 1 for a, b in zip(new, new[1:])):
                return
            fresh = SeedPeriods(list(book.periods), dict(book.revealed), book.scanned)
            for ev in new:
                fresh.add(ev)
            self._books[game_id] = fresh
