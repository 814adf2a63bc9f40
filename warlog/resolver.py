"""The worker's side: judge a game's pending submissions strictly in ledger order.

Safe to run twice and safe to kill: each judgement is appended in one transaction that
also records which submission it judged, so a re-run finds nothing pending, and a killed
run leaves the submission pending for the sweeper to re-enqueue. The per-game lock keeps
two workers off one game; the (game_id, seq) key would refuse the second writer anyway.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from typing import Callable

from ledger.dice import DerivedDice, ForcedThenDerived, commitment, derive_blind, dice_stream_of
from ledger.events import DIRECTOR, GAME_ENDED, RESOLVED, SEED_REVEALED, SUBMITTED, Event, NewEvent
from ledger.store import Conflict, EventStore, SummaryUpdate
from rules import get_game
from warlog.history import SNAPSHOT_EVERY, StateCache, StoreHistory, entropy_of
from warlog.resolution import judge

log = logging.getLogger("warlog.resolver")

# Fault injection for the kill-mid-job test: seconds to sleep after judging, before appending.
FAULT_DELAY_ENV = "WARLOG_FAULT_DELAY_BEFORE_APPEND"


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


class Resolver:
    def __init__(self, store: EventStore, snapshot_every: int = SNAPSHOT_EVERY,
                 on_judged: Callable[[Judged], None] | None = None) -> None:
        self.store = store
        self.on_judged = on_judged  # told after each judgement is appended; its failure is only logged
        self.snapshot_every = snapshot_every
        self._entropy: dict[str, str] = {}
        self.states = StateCache()
        self._last_snapshot: dict[str, int] = {}  # game id -> seq of its newest snapshot  # game id -> entropy digest (fixed once the game starts)

    def run(self, game_id: str, lock_timeout: float = 60.0) -> int:
        """Judge every pending submission of the game; return how many were judged."""
        with self.store.game_lock(game_id, timeout=lock_timeout):
            return self._drain(game_id)

    def _drain(self, game_id: str) -> int:
        history = StoreHistory(self.store, game_id, cache=self.states)
        created = history.created()
        game = get_game(created.payload["game"])
        judged = 0
        while True:
            summary = self.store.summary(game_id)
            if summary is None or not summary.pending:
                return judged
            submission = next(
                (e for e in self.store.iter_events(game_id, after=summary.last_handled_seq) if e.type == SUBMITTED),
                None,
            )
            if submission is None:
                log.error("game %s: projection says pending but no submission follows %s", game_id,
                          summary.last_handled_seq)
                return judged
            last_seq = summary.last_seq
            state = history.state_at(last_seq)
            die = self._dice(game_id, created, submission)
            j = judge(game, state, submission, die, history, ended=summary.status == "ended")
            if game.keeps_secrets:
                j.payload["blind"] = derive_blind(self._seed(game_id), game_id, last_seq + 1)  # ledger.dice step 5
            events = [NewEvent(j.kind, None, j.payload)]
            status: str | None = None
            if j.reopen:
                j.payload["reopened"] = True
                status = "active"
            if j.outcome is not None:
                events.append(NewEvent(GAME_ENDED, None, {"outcome": j.outcome, "submission_seq": submission.seq}))
                status = "ended"
            if (j.outcome is not None or j.reveal_seed) and not self._seed_revealed(game_id):
                seed = self.store.secret(game_id)
                if seed is not None:
                    events.append(NewEvent(SEED_REVEALED, None, {"seed": seed.hex(), "commitment": commitment(seed)}))
            delay = os.environ.get(FAULT_DELAY_ENV)
            if delay:
                time.sleep(float(delay))
            active = j.payload.get("active_seats")
            try:
                appended = self.store.append(
                    game_id, last_seq, events,
                    summary=SummaryUpdate(status=status, active_seats=active if isinstance(active, list) else None),
                )
            except Conflict:
                continue  # a new submission (or another worker) got in first: re-read and go on
            judged += 1
            if j.kind == RESOLVED:
                self.states.put(game_id, appended[-1].seq, j.state)  # the events after it change no state
                self._maybe_snapshot(game_id, appended[0].seq, j.state, summary.active_seats != active)
            self._tell(Judged(game_id, appended[0].seq, tuple(summary.active_seats),
                              tuple(active) if isinstance(active, list) else tuple(summary.active_seats),
                              j.outcome, submission.seat == DIRECTOR and j.kind == RESOLVED))

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

    def _seed(self, game_id: str) -> bytes:
        seed = self.store.secret(game_id)
        if seed is None:
            raise RuntimeError(f"game {game_id} has no secret seed in this store (imported?)")
        return seed

    def _dice(self, game_id: str, created: Event, submission: Event) -> DerivedDice | ForcedThenDerived:
        seed = self._seed(game_id)
        entropy = self._entropy.get(game_id)
        if entropy is None:
            entropy = self._entropy[game_id] = entropy_of(self.store, game_id, len(created.payload["roles"]))
        derived = DerivedDice(seed, dice_stream_of(created), submission.seq, entropy)
        sandbox = created.payload.get("sandbox")
        if sandbox and sandbox.get("dice"):
            used = sum(len(e.payload.get("dice", [])) for e in self.store.iter_events(game_id)
                       if e.type == RESOLVED and e.seq < submission.seq)
            return ForcedThenDerived(list(sandbox["dice"]), used, derived)
        return derived

    def _seed_revealed(self, game_id: str) -> bool:
        return any(e.type == SEED_REVEALED for e in self.store.iter_events(game_id))
