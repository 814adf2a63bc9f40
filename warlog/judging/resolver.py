"""The worker's side: judge a game's pending submissions strictly in ledger order.

Safe to run twice and safe to kill: each judgement is appended in one transaction that
also records which submission it judged, so a re-run finds nothing pending, and a killed
run leaves the submission pending for the sweeper to re-enqueue. The per-game lock keeps
two workers off one game; the (game_id, seq) key would refuse the second writer anyway.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ledger.dice import (
    DerivedDice,
    ForcedThenDerived,
    JudgementCount,
    commitment,
    derive_blind,
    dice_key,
    dice_stream_of,
    judgement_keyed,
    new_seed,
    round_withheld,
    seed_in_force,
)
from ledger.events import (
    DIRECTOR,
    GAME_CREATED,
    GAME_ENDED,
    GAME_STARTED,
    REJECTED,
    RESOLVED,
    SUBMITTED,
    Event,
    NewEvent,
)
from ledger.fold import fold
from ledger.store import Conflict, EventStore, GameSummary, LockedRead, SummaryUpdate
from rules import game_of
from rules.core.game import Game
from warlog.games.history import SNAPSHOT_EVERY, StateCache, StoreHistory, entropy_of
from warlog.judging import wakeup
from warlog.judging.judge import Judgement, judge_keyed
from warlog.ops import metrics
from warlog.ops.lru import BoundedCache
from warlog.rulings.sandbox_dice import forced_dice, stops
from warlog.trust.seeds import SeedBooks

log = logging.getLogger("warlog.judging.resolver")

# Fault injection for the kill-mid-job test: seconds to sleep after judging, before appending.
FAULT_DELAY_ENV = "WARLOG_FAULT_DELAY_BEFORE_APPEND"
YOUNG = SNAPSHOT_EVERY  # a game of at most this many events after its first is read whole by a cold judgement


def fault_delay_from_env() -> float:
    """The fault tests' delay before each append, for a worker they start as a process."""
    return float(os.environ.get(FAULT_DELAY_ENV) or 0)


@dataclass(frozen=True)
class Judged:
    """What a judgement changed, for `on_judged` hooks (notifications): the active seats before
    and after, the outcome if it ended the game, and whether it was a director's ruling."""

    game_id: str
    seq: int
    before: tuple[str, ...]
    after: tuple[str, ...]
    outcome: dict[str, object] | None
    ruling: bool


def unlisted_submission(store: EventStore, summary: GameSummary) -> GameSummary:
    """The summary naming the oldest submission after the last judged one when the `pending`
    set lists none but the projection says the newest submission has no judgement."""
    if summary.status == "ended" or summary.last_submitted_seq <= summary.last_handled_seq:
        return summary
    after = max(summary.last_handled_seq, 0)
    oldest = next((ev.seq for ev in store.read(summary.game_id, after=after, upto=summary.last_submitted_seq)
                   if ev.type == SUBMITTED), None)
    return summary if oldest is None else dataclasses.replace(summary, oldest_pending=oldest, pending_known=True)


class Resolver:
    def __init__(self, store: EventStore, snapshot_every: int = SNAPSHOT_EVERY,
                 new_seed: Callable[[], bytes] = new_seed, on_judged: Callable[[Judged], None] | None = None,
                 delay_before_append: float = 0.0) -> None:
        self.store = store
        # seconds to wait between judging and appending: the fault tests' window to kill or cut off
        # a worker mid-judgement (`fault_delay_from_env`); 0 in any real deployment
        self.delay_before_append = delay_before_append
        self.new_seed = new_seed
        self.seed_books = SeedBooks()
        self.on_judged = on_judged  # told after each judgement is appended; its failure is only logged
        self.snapshot_every = snapshot_every
        self._entropy: BoundedCache[str, str] = BoundedCache()  # game id -> entropy digest (fixed once started)
        # The newest judged state of each hot game, held without copies (`shared`): the resolver
        # only hands a state to the rules, which never change their input, and to `fold`, which
        # copies it first (tests/worker/test_state_cache.py).
        self.states = StateCache()
        self._last_snapshot: BoundedCache[str, int] = BoundedCache()  # game id -> seq of its newest snapshot
        self._created: BoundedCache[str, Event] = BoundedCache()  # used only beside a state cache hit
        self._counts: BoundedCache[str, tuple[int, JudgementCount]] = BoundedCache()  # (seq read to, count)

    def run(self, game_id: str, lock_timeout: float = 60.0) -> int:
        """Judge every pending submission of the game; return how many were judged. The first
        reads go with the lock (EventStore.locked_read: on PostgreSQL in its round trip): the
        summary, and the events from the cached state's event on when a state of the game is
        cached (this resolver judged it before); else the game's first YOUNG events and its
        seeds, which are the whole of a young game (a cold judgement: a worker's first of the game)."""
        cached = self.states.get(game_id, sys.maxsize, shared=True) if self._created.get(game_id) else None
        cold = cached is None  # read the game whole if it is young, and its seeds (`_position`)
        with self.store.locked_read(game_id, timeout=lock_timeout,
                                    events_after=cached[0] - 1 if cached is not None else -1,
                                    events_upto=YOUNG if cold else None, seeds=cold) as first:
            started = time.perf_counter()
            judged = self._drain(game_id, first)
        if judged:
            metrics.observe_judge(time.perf_counter() - started)  # warlog_judge_seconds (/metrics)
        return judged

    def _drain(self, game_id: str, first: LockedRead) -> int:
        """Judge the game's pending submissions one at a time, oldest first: read the next one and
        the state before it, judge it, append the judgement (re-reading on a Conflict), then tell
        whoever waits. `first`: what was read with the lock (`run`), used once. Returns how many
        were judged."""
        history = StoreHistory(self.store, game_id, cache=self.states)
        game: Game | None = None
        judged = 0
        unused: LockedRead | None = first
        while True:
            found = self._next_pending(game_id, history, unused)
            unused = None  # any later round (the next submission, a Conflict) reads afresh
            if found is None:
                return judged
            summary, created, state, submission = found
            game = game or game_of(created.payload)  # the rules version the game was created under
            j, events, status, fresh = self._judgement(game, game_id, summary, created, state, submission, history)
            if self.delay_before_append:
                time.sleep(self.delay_before_append)
            active = j.payload.get("active_seats")
            try:
                appended = self.store.append(
                    game_id, summary.last_seq, events, secret=fresh,
                    summary=SummaryUpdate(status=status, active_seats=active if isinstance(active, list) else None),
                )
            except Conflict:
                continue  # a new submission (or another worker) got in first: re-read and go on
            judged += 1
            if self._after_append(game_id, summary, submission, j, appended):
                return judged

    def _next_pending(self, game_id: str, history: StoreHistory, first: LockedRead | None
                      ) -> tuple[GameSummary, Event, Any, Event] | None:
        """The game's summary, its creation record, the state before its oldest submission without a
        judgement (from the pending set the database keeps) and that submission; None when nothing
        is pending. On the first round, from what was read with the lock (`run`): on a game whose
        state is cached, no read of its own."""
        read: list[Event] | None = None
        seeds = None
        if first is None:
            summary = self.store.summary(game_id)
        else:
            summary, seeds = first.summary, first.seeds
            if summary is not None and first.events:  # the events from the cached state's event on
                read = [ev for ev in first.events if ev.seq <= summary.last_seq]  # (or the first), to the summary's last
        if summary is not None and not summary.pending:
            summary = unlisted_submission(self.store, summary)  # not in the pending set (warlog.judging.queue)
        if summary is None or not summary.pending:
            return None
        if summary.oldest_pending is None:
            log.error("game %s: pending but no submission named in the pending set", game_id)
            return None
        created, state, submission = self._position(game_id, history, summary.last_seq, summary.oldest_pending,
                                                    read or None, seeds)
        if submission is None or submission.type != SUBMITTED:
            log.error("game %s: pending names event %s, which is not a submission", game_id, summary.oldest_pending)
            return None
        return summary, created, state, submission

    def _judgement(self, game: Game, game_id: str, summary: GameSummary, created: Event, state: Any,
                   submission: Event, history: StoreHistory
                   ) -> tuple[Judgement, list[NewEvent], str | None, bytes | None]:
        """Judge `submission` (the deterministic judge shared with verify) and make the events to
        append: the judgement, the game's end if it ends, and the seed revealed if it must be.
        Returns the judgement, those events, the game's new status (None: unchanged) and the fresh
        seed secret to store with them (ledger.dice)."""
        last_seq = summary.last_seq
        count = self._count(game_id, created, last_seq)
        j = judge_keyed(game, state, submission,
                        partial(self._dice, game_id, created, submission, count), history,
                        ended=summary.status == "ended", fresh_seed=self._fresh_period(game_id, submission.seq),
                        keyed=count is not None)
        if game.keeps_secrets:
            j.payload["blind"] = derive_blind(self._seed(game_id, last_seq + 1), game_id, last_seq + 1)  # step 5
        events = [NewEvent(j.kind, None, j.payload)]
        status: str | None = None
        if j.reopen:
            j.payload["reopened"] = True
            status = "active"
        withheld = self._withheld(game_id, created, last_seq) if j.outcome is not None else None
        if j.outcome is not None:
            events.append(NewEvent(GAME_ENDED, None, {"outcome": j.outcome, "submission_seq": submission.seq,
                                                      **({"seed_withheld": withheld} if withheld else {})}))
            status = "ended"
        fresh = self._reveal(game_id, events, (j.outcome is not None and not withheld) or j.reveal_seed,
                             goes_on=status != "ended" and (summary.status == "active" or j.reopen), upto=last_seq)
        return j, events, status, fresh

    def _after_append(self, game_id: str, summary: GameSummary, submission: Event, j: Judgement,
                      appended: list[Event]) -> bool:
        """Wake the waiting pages, keep the judged state (and a snapshot now and then), tell the
        notifications. True when nothing else can be pending (the drain is done)."""
        active = j.payload.get("active_seats")
        wakeup.judged(game_id)  # the page waiting for this judgement answers now
        if j.kind == RESOLVED:  # the events after it change no state
            self.states.put(game_id, appended[-1].seq, appended[-1].hash, j.state, shared=True)
            self._maybe_snapshot(game_id, appended[0].seq, j.state, summary.active_seats != active)
        else:  # the state the rules refused a move on may be one they began to change: not kept
            self.states.drop(game_id)
        self._tell(Judged(game_id, appended[0].seq, tuple(summary.active_seats),
                          tuple(active) if isinstance(active, list) else tuple(summary.active_seats),
                          j.outcome, submission.seat == DIRECTOR and j.kind == RESOLVED))
        # Done when it was the newest submission: the append found the ledger where the summary
        # left it (else Conflict), so nothing else was pending at the commit. A submission
        # committed after it queues its own wake-up (a running job is not counted as queued), as
        # one committed after a last re-read here would: no re-read.
        return summary.last_submitted_seq <= submission.seq

    def _position(self, game_id: str, history: StoreHistory, last_seq: int, pending: int,
                  read: list[Event] | None = None, seeds: list[tuple[int, bytes]] | None = None
                  ) -> tuple[Event, Any, Event | None]:
        """(creation record, state after `last_seq`, the submission at `pending`). `read`: the
        events from the cached state's event (or from the first) to `last_seq`, already read with
        the lock (`run`), and `seeds`, the game's secret seeds read with them on a cold judgement.

        On a hot game (cached within `snapshot_every` events), one read from the cached state's
        event to the end: that event's chain
        hash must match the cache's (it commits to every event before it, event 0 included, so
        neither the cached state nor the cached creation record can be a stale one), the events
        after it are folded, and the seed book is brought forward with them. Otherwise the
        ordinary reads (creation record, snapshot + fold, the submission)."""
        cached = self.states.get(game_id, last_seq, shared=True)
        created = self._created.get(game_id)
        if cached is not None and created is not None and last_seq - cached[0] < self.snapshot_every:
            start, chain_hash, state = cached
            events = read if read is not None and read[0].seq <= min(start, pending) else \
                self.store.read(game_id, after=min(start, pending) - 1, upto=last_seq)
            head = next((ev for ev in events if ev.seq == start), None)
            if head is not None and head.hash == chain_hash:
                after = [ev for ev in events if ev.seq > start]
                if any(ev.type in (RESOLVED, GAME_STARTED) for ev in after):  # judged elsewhere meanwhile
                    state = fold(after, state)  # a copy: the cached state is not changed
                    self.states.put(game_id, after[-1].seq, after[-1].hash, state, shared=True)
                self.seed_books.see(game_id, events)
                found = next((ev for ev in events if ev.seq == pending), None)
                return created, state, found
            self.states.drop(game_id)
        if read is not None and read[0].seq == 0 and len(read) == last_seq + 1 and read[0].type == GAME_CREATED:
            return self._young(game_id, read, seeds, pending)
        if seeds:
            self.seed_books.prime(game_id, [], seeds)
        created = read[0] if read is not None and read[0].seq == 0 and read[0].type == GAME_CREATED \
            else history.created()
        self._created[game_id] = created
        state = history.state_at(last_seq, shared=True)
        found = self.store.read(game_id, after=pending - 1, upto=pending)
        return created, state, found[0] if found else None

    def _young(self, game_id: str, events: list[Event], seeds: list[tuple[int, bytes]] | None,
               pending: int) -> tuple[Event, Any, Event | None]:
        """`_position` of a game read whole with its lock (`events`: every event from the
        creation record to the summary's last, in order): its state folded from the start, as
        StoreHistory.state_at does without a snapshot (snapshots are only a cache: the same
        state), kept in the state cache; and what later reads would look up kept too, so this
        judgement reads nothing more: the seed book and seeds, the entropy digest, the judgement
        count. The newest snapshot is not looked up: the game's, if any, is younger than
        `snapshot_every` events, so taking none (-1) can only bring the next one forward."""
        created = events[0]
        self._created[game_id] = created
        state = fold(events, None)
        self.states.put(game_id, events[-1].seq, events[-1].hash, state, shared=True)
        self.seed_books.prime(game_id, events, seeds)
        roles = len(created.payload.get("roles", []))
        started = events[roles + 1] if len(events) > roles + 1 else None
        if started is not None and started.type == GAME_STARTED:
            self._entropy[game_id] = str(started.payload["entropy"])
        if judgement_keyed(created.payload):
            count = JudgementCount()
            for ev in events:
                if ev.type in (RESOLVED, REJECTED):
                    count.see(ev.type)
            self._counts[game_id] = (events[-1].seq, count)
        if self._last_snapshot.get(game_id) is None:
            self._last_snapshot[game_id] = -1
        return created, state, events[pending] if pending < len(events) else None

    def _tell(self, judged: Judged) -> None:
        """Run the hook when the turn passed, the game ended or a ruling was made; never let it
        undo or delay the judgement beyond its own run."""
        if self.on_judged is None or (judged.before == judged.after and judged.outcome is None
                                      and not judged.ruling):
            return
        try:
            self.on_judged(judged)
        except Exception:
            log.exception("game %s: the on_judged hook failed after event %s", judged.game_id, judged.seq)

    def _maybe_snapshot(self, game_id: str, seq: int, state: object, seat_changed: bool) -> None:
        """Snapshots every K events and where the active seat changes (DESIGN: only a cache)."""
        last = self._last_snapshot.get(game_id)
        if last is None:
            found = self.store.latest_snapshot(game_id, seq)
            last = found[0] if found else -1
        if seat_changed or seq - last >= self.snapshot_every:
            self.store.save_snapshot(game_id, seq, state)
            last = seq
        self._last_snapshot[game_id] = last

    def _reveal(self, game_id: str, events: list[NewEvent], reveal: bool, goes_on: bool, upto: int) -> bytes | None:
        """At the end (or a director's reveal) publish the seed in force, unless it already is;
        if the game goes on after that reveal, commit a fresh seed for the rest of it
        (ledger.dice step 7). Returns the fresh seed, for the store to keep. `upto`: the last
        seq read under the game's lock (what comes after it is submissions, which neither commit
        nor reveal a seed: the seed book and seeds kept to it are the ledger's)."""
        if not reveal:
            return None
        book = self.seed_books.kept(self.store, game_id, upto)
        seeds = self.seed_books.seeds(self.store, game_id, upto)
        if not seeds or len(seeds) != len(book.periods):
            return None  # an imported game: no seed here
        if not book.current_revealed():
            events.append(book.reveal(seeds[-1][1]))
        if not goes_on:
            return None
        fresh = self.new_seed()
        if commitment(fresh) in {c for _, c in book.periods}:
            fresh = new_seed()
        events.append(book.commit(fresh))
        return fresh

    def _withheld(self, game_id: str, created: Event, upto: int) -> str | None:
        """What a duplicate round's game ending now says of its seed, when its end must not reveal
        it (ledger.dice step 9: the round's shared seed, period 0, still in force)."""
        note = round_withheld(created.payload)
        if note is None:
            return None
        book = self.seed_books.kept(self.store, game_id, upto)
        return note if len(book.periods) == 1 and not book.current_revealed() else None

    def _fresh_period(self, game_id: str, seq: int) -> bool:
        """Whether the submission at `seq` comes right after a fresh seed's commitment."""
        book = self.seed_books.kept(self.store, game_id, seq - 1)  # periods start before `seq`
        k = book.period_of(seq)
        return k > 0 and book.periods[k][0] == seq - 1

    def _seed(self, game_id: str, seq: int) -> bytes:
        """The seed in force at position `seq` (ledger.dice step 7). A game's seeds are read
        again only when its seed book shows a period the kept list has no seed for."""
        seeds = self.seed_books.seeds(self.store, game_id, seq - 1)
        seed = seed_in_force(seeds, seq)
        if seed is None:
            raise RuntimeError(f"game {game_id} has no secret seed in this store (imported?)")
        return seed

    def _count(self, game_id: str, created: Event, known_to: int) -> JudgementCount | None:
        """A judgement-keyed game's judgements so far (ledger.dice step 8); None for other games."""
        if not judgement_keyed(created.payload):
            return None
        scanned, kept = self._counts.get(game_id) or (-1, JudgementCount())
        count = JudgementCount()
        count.resolved, count.refused = kept.resolved, kept.refused
        if scanned >= known_to:  # after it, only submissions: a judgement is appended under the game's lock, held here
            self._counts[game_id] = (scanned, count)
            return count
        for ev in self.store.iter_events(game_id, after=scanned):  # only what came since (append-only)
            scanned = ev.seq
            if ev.type in (RESOLVED, REJECTED):
                count.see(ev.type)
        self._counts[game_id] = (scanned, count)
        return count

    def _dice(self, game_id: str, created: Event, submission: Event, count: JudgementCount | None = None,
              refusal: int = 0) -> DerivedDice | ForcedThenDerived:
        seed = self._seed(game_id, submission.seq)
        entropy = self._entropy.get(game_id)
        if entropy is None:
            entropy = self._entropy[game_id] = entropy_of(self.store, game_id, len(created.payload["roles"]))
        key = submission.seq if count is None else \
            dice_key(created.payload, submission.seq, count.number, count.refusal if refusal else 0)
        derived = DerivedDice(seed, dice_stream_of(created), key, entropy)
        sandbox = created.payload.get("sandbox")
        if sandbox and (sandbox.get("dice") or stops(sandbox)):
            events = [e for e in self.store.iter_events(game_id) if e.seq < submission.seq]
            used = sum(len(e.payload.get("dice", [])) for e in events if e.type == RESOLVED)
            return ForcedThenDerived(forced_dice(sandbox, events, submission.seq), used, derived,
                                     stop=stops(sandbox))  # with the director's added dice (warlog.rulings.sandbox_dice)
        return derived
