"""The event store contract. Every backend (SQLite, PostgreSQL) implements exactly this, and
one contract test suite (tests/ledger/test_contract.py) runs against each.

Tables (names are the same on every backend):

* `events` — the ledger: (game_id, seq) primary key, append-only; a trigger refuses
  UPDATE and DELETE (and TRUNCATE on PostgreSQL).
* `games` — a projection for listing and for the sweeper (status, active seats, last seq,
  last submitted / last handled submission). Written in the same transaction as the events
  it summarises; can always be rebuilt from `events`.
* `idempotency` — (game_id, key) unique -> the seq of the `submitted` event it created,
  written in the same transaction as that event. The key column holds "<seat>:<key>" (the seat
  of that `submitted` event), so keys are unique per (game, seat, key).
* `secrets` — a game's secret dice seed, written once at creation; never exported until revealed.
* `seed_periods` — (game_id, seq) -> a fresh seed committed later by the `seed_committed` event
  at `seq` (ledger.dice step 7), written in the same transaction as that event.
* `snapshots` — (game_id, seq) -> state JSON. A cache: deleting rows changes nothing.
* `pending` — (game_id, seq) of each submission without a judgement, kept by a trigger on
  `events` (the sweeper's and the resolver's work list; see ledger/migrations).
* `schema_version` — the migrations applied (ledger/migrations).
"""

from __future__ import annotations

import contextlib
import re
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ledger.events import Event, NewEvent


class LedgerError(Exception):
    """Base of the ledger's errors."""


class StoreClosed(RuntimeError):
    """The store was closed: its owner (an app, a worker) has shut down. A background loop that
    meets it stops quietly, as if told to."""


class Conflict(LedgerError):
    """Another writer appended first: the writer's expected seq is stale (the API answers 409)."""

    def __init__(self, game_id: str, expected_seq: int, current_seq: int) -> None:
        super().__init__(f"game {game_id}: expected last seq {expected_seq}, but it is {current_seq}")
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.current_seq = current_seq


class DuplicateKey(LedgerError):
    """This idempotency key was used before for this game: the earlier submission stands."""

    def __init__(self, game_id: str, key: str, seq: int) -> None:
        super().__init__(f"game {game_id}: idempotency key already used by event {seq}")
        self.game_id = game_id
        self.key = key
        self.seq = seq


class GameExists(LedgerError):
    """Import refused: the store already holds events for this game."""


class LockTimeout(LedgerError):
    """Another worker held the game's lock for longer than we were willing to wait."""


@dataclass(frozen=True)
class GameSummary:
    game_id: str
    game: str
    scenario: str
    status: str  # "waiting" | "active" | "ended"
    created_at: str
    last_seq: int
    active_seats: list[str] = field(default_factory=list)
    last_submitted_seq: int = -1  # seq of the newest `submitted` event, -1 if none
    last_handled_seq: int = -1  # newest submission seq that has a `resolved`/`rejected` event
    sandbox: bool = False
    # The oldest submission without a judgement, read from the `pending` set kept by the
    # database (`pending_known`); a summary folded from events alone uses the seq marks.
    oldest_pending: int | None = field(default=None, compare=False)
    pending_known: bool = field(default=False, compare=False)

    @property
    def pending(self) -> bool:
        if self.pending_known:
            return self.oldest_pending is not None
        return self.last_submitted_seq > self.last_handled_seq


@dataclass(frozen=True)
class SummaryUpdate:
    """What the writer knows of the game after its append (the store tracks the rest)."""

    status: str | None = None
    active_seats: list[str] | None = None


@dataclass(frozen=True)
class LockedRead:
    """What `EventStore.locked_read` read once the game's lock was held: the summary (None when
    not asked for or no such game) and the events (None when not asked for). Each read sees
    every commit made before the lock was taken; the events, read after the summary, may go on
    past its `last_seq`."""

    summary: GameSummary | None
    events: list[Event] | None
    seeds: list[tuple[int, bytes]] | None = None  # `EventStore.seeds`, when asked for


class EventStore(ABC):
    """An append-only, hash-chained store of per-game event streams."""

    url: str

    # -- schema ----------------------------------------------------------------------
    @abstractmethod
    def create_schema(self) -> None:
        """Apply every migration this database lacks (ledger/migrations): the owner's
        `warlog db upgrade`. Safe to run again; concurrent runs are serialised."""

    @abstractmethod
    def schema_version(self) -> int:
        """The newest migration applied to this database (0 for an empty one)."""

    def check_schema(self) -> None:
        """Raise SchemaOutOfDate unless the database is at this release's schema version."""
        from ledger.migrations import SchemaOutOfDate

        found, needed = self.schema_version(), self.latest_version()
        if found != needed:
            raise SchemaOutOfDate(self.display_url(), found, needed)

    @abstractmethod
    def latest_version(self) -> int: ...

    def display_url(self) -> str:
        """The store's URL without its password (for messages and logs)."""
        return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", self.url)

    @abstractmethod
    def close(self) -> None: ...

    def probe_write(self, name: str) -> None:
        """Write one throwaway row (readiness, warlog.ops.health): raise what a real write would."""
        raise NotImplementedError(f"{type(self).__name__} has no write probe")

    # -- writing ---------------------------------------------------------------------
    @abstractmethod
    def append(
        self,
        game_id: str,
        expected_seq: int,
        events: list[NewEvent],
        *,
        summary: SummaryUpdate | None = None,
        idempotency_key: str | None = None,
        secret: bytes | None = None,
        game_info: tuple[str, str, bool] | None = None,
    ) -> list[Event]:
        """Append `events` atomically after `expected_seq` (-1 for a new game).

        Seals each event (seq, recorded_at, prev_hash, hash) and writes them in one transaction
        together with the `games` projection, the idempotency key (bound to the batch's
        `submitted` event, unique per game and that event's seat) and, for a new game, its
        secret seed and `game_info` = (game name, scenario, sandbox); for a running game, a
        `secret` is the fresh seed of the batch's one `seed_committed` event.
        Raises Conflict if the game's last seq is not `expected_seq` (also when two writers
        race: the unique (game_id, seq) key decides), DuplicateKey if the seat used the key.
        """

    # -- reading ---------------------------------------------------------------------
    @abstractmethod
    def read(self, game_id: str, after: int = -1, upto: int | None = None) -> list[Event]:
        """Events with after < seq <= upto (upto None = to the end), in seq order."""

    @abstractmethod
    def iter_events(self, game_id: str, after: int = -1, batch: int = 1000) -> Iterator[Event]:
        """Like read() but streamed in batches, for exports and folds of long games."""

    def events_of_types(self, game_id: str, types: Sequence[str]) -> list[Event]:
        """The game's events of these types, in seq order (a page that lists a few kinds of a
        long game's events reads those, not the game)."""
        wanted = set(types)
        return [ev for ev in self.iter_events(game_id) if ev.type in wanted]

    @abstractmethod
    def last_seq(self, game_id: str) -> int:
        """The newest seq of the game, or -1 if the game has no events."""

    @abstractmethod
    def summary(self, game_id: str) -> GameSummary | None: ...

    def summary_and_read(self, game_id: str, after: int, upto: int | None = None
                         ) -> tuple[GameSummary | None, list[Event]]:
        """`summary` and then `read(game_id, after, upto)`: the events are at least as new as the
        summary. The SQL stores answer both with one statement (a web request's first look at a
        game whose state it keeps: warlog.games.readview.ReadView.prefetch)."""
        return self.summary(game_id), self.read(game_id, after=after, upto=upto)

    @abstractmethod
    def list_games(self, game: str | None = None, status: str | None = None, limit: int = 200,
                   before: tuple[str, str] | None = None) -> list[GameSummary]:
        """Newest first, by (created_at, game_id); `before` = (created_at, game_id) lists only
        older games (a cursor, see ledger.paging). `status` may also be "open" (not ended)."""

    @abstractmethod
    def pending_games(self) -> list[str]:
        """Games with a submission that has no judgement yet (the sweeper's work list): read
        from the `pending` set, so it costs what is pending, not what exists."""

    @abstractmethod
    def sweep_games(self) -> tuple[list[str], list[str]]:
        """The sweep's work list, read in one snapshot: `pending_games()`, and the running games
        whose newest submission has no judgement (from the `games` projection: its last submitted
        seq is after its last judged one) but that have no row in the `pending` set, which only
        a row taken out by hand leaves. One statement: a submission or judgement committed while
        it reads is in both answers or in neither, never an unlisted game."""

    @abstractmethod
    def idempotent_seq(self, game_id: str, key: str, seat: str | None = None) -> int | None:
        """The submission `seat` made with `key`, if any."""

    @abstractmethod
    def secret(self, game_id: str) -> bytes | None:
        """The seed committed at creation (period 0)."""

    @abstractmethod
    def seeds(self, game_id: str) -> list[tuple[int, bytes]]:
        """Every seed period's (seq of its commitment, seed), oldest first: (0, the first seed),
        then one per `seed_committed` event."""

    # -- snapshots (a cache) -----------------------------------------------------------
    @abstractmethod
    def save_snapshot(self, game_id: str, seq: int, state: Any) -> None:
        """Store the state after event `seq`; an existing snapshot at that seq is kept."""

    @abstractmethod
    def latest_snapshot(self, game_id: str, at_or_before: int) -> tuple[int, Any] | None: ...

    @abstractmethod
    def delete_snapshots(self, game_id: str | None = None) -> int: ...

    # -- import ----------------------------------------------------------------------
    @abstractmethod
    def import_events(self, events: list[Event], secret: bytes | None, summary: GameSummary) -> None:
        """Write an already-sealed, already-verified stream into an empty game.

        Raises GameExists if the store has any event of that game.
        """

    # -- one worker per game -------------------------------------------------------------
    @abstractmethod
    def game_lock(self, game_id: str, timeout: float = 30.0) -> contextlib.AbstractContextManager[None]:
        """Hold the game's resolution lock (across processes and machines where the
        backend allows it); raise LockTimeout after `timeout` seconds."""

    @contextlib.contextmanager
    def locked_read(self, game_id: str, timeout: float = 30.0, summary: bool = True,
                    events_after: int | None = None, events_upto: int | None = None,
                    seeds: bool = False) -> Iterator[LockedRead]:
        """`game_lock`, and a judge's first reads under it: the game's summary (if `summary`),
        then its events after `events_after` (if given; up to `events_upto` if given), then its
        secret seeds (if `seeds`). PostgreSQL sends them with the lock's attempt, in its round
        trip (ledger.pglocks)."""
        with self.game_lock(game_id, timeout):
            yield LockedRead(self.summary(game_id) if summary else None,
                             None if events_after is None else self.read(game_id, after=events_after, upto=events_upto),
                             self.seeds(game_id) if seeds else None)
