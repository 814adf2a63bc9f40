"""Reading a game back: its creation record, the state at any step (snapshots + fold), the
entropy its dice use, and where each submission was judged."""

from __future__ import annotations

from typing import Any

from ledger.dice import entropy_digest
from ledger.events import GAME_CREATED, GAME_ENDED, GAME_STARTED, REJECTED, RESOLVED, SEAT_JOINED, Event
from ledger.fold import fold
from ledger.store import EventStore

SNAPSHOT_EVERY = 100


class GameNotFound(KeyError):
    pass


class StoreHistory:
    """`History` (see warlog.resolution) over an event store, with snapshot-backed state_at."""

    def __init__(self, store: EventStore, game_id: str, snapshots: bool = True) -> None:
        self.store, self.game_id, self.use_snapshots = store, game_id, snapshots

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
        if self.use_snapshots:
            snap = self.store.latest_snapshot(self.game_id, seq)
            if snap is not None:
                start, state = snap
        return fold(self.store.read(self.game_id, after=start, upto=seq), state)

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
