"""The `games` projection as a pure fold over events, shared by every backend and by import.

Rules: every event moves last_seq; `game_started` makes the game "active", `game_ended`
makes it "ended"; `submitted` sets last_submitted_seq; `resolved`/`rejected` set
last_handled_seq to their payload's `submission_seq` (the newest one handled wins).
A writer's SummaryUpdate, applied after the fold, overrides status and active seats.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from ledger.events import (
    GAME_CREATED,
    GAME_ENDED,
    GAME_STARTED,
    REJECTED,
    RESOLVED,
    SEED_COMMITTED,
    SUBMITTED,
    Event,
    NewEvent,
    check_chain,
)
from ledger.store import GameSummary, SummaryUpdate

STATUSES = ("waiting", "active", "ended")


def submission_seq(ev: Event | NewEvent) -> int:
    """The submission a `resolved`/`rejected` event answers; ValueError if it names none."""
    value = ev.payload.get("submission_seq")
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"a {ev.type} event needs a non-negative integer payload['submission_seq']")
    return value


def fold(summary: GameSummary, events: Iterable[Event], update: SummaryUpdate | None = None) -> GameSummary:
    """The summary after `events` (already sealed, in seq order) and the writer's `update`."""
    status = summary.status
    last_seq = summary.last_seq
    submitted = summary.last_submitted_seq
    handled = summary.last_handled_seq
    for ev in events:
        last_seq = ev.seq
        if ev.type == SUBMITTED:
            submitted = max(submitted, ev.seq)
        elif ev.type in (RESOLVED, REJECTED):
            handled = max(handled, submission_seq(ev))
        elif ev.type == GAME_STARTED and status == "waiting":
            status = "active"
        elif ev.type == GAME_ENDED:
            status = "ended"
    seats = list(summary.active_seats)
    if update is not None:
        if update.status is not None:
            if update.status not in STATUSES:
                raise ValueError(f"status must be one of {STATUSES}, not {update.status!r}")
            status = update.status
        if update.active_seats is not None:
            seats = list(update.active_seats)
    return dataclasses.replace(
        summary, status=status, last_seq=last_seq, active_seats=seats,
        last_submitted_seq=submitted, last_handled_seq=handled,
    )


@dataclasses.dataclass(frozen=True)
class BatchMarks:
    """What a batch appended after `first_seq` does to the `games` row, as `fold` would: the
    newest seq, the newest submission (-1: none), the newest submission judged (-1: none),
    whether it starts and whether it ends the game. A database folds these in one UPDATE:
    ended wins; started turns only a "waiting" game "active"; the writer's update overrides."""

    last_seq: int
    submitted: int
    handled: int
    started: bool
    ended: bool


def batch_marks(events: list[NewEvent], first_seq: int) -> BatchMarks:
    submitted = max((first_seq + i for i, ev in enumerate(events) if ev.type == SUBMITTED), default=-1)
    handled = max((submission_seq(ev) for ev in events if ev.type in (RESOLVED, REJECTED)), default=-1)
    types = {ev.type for ev in events}
    return BatchMarks(first_seq + len(events) - 1, submitted, handled, GAME_STARTED in types, GAME_ENDED in types)


def checked_update(update: SummaryUpdate | None) -> SummaryUpdate:
    """The writer's update, its status checked (fold's check, before a database applies it)."""
    if update is None:
        return SummaryUpdate()
    if update.status is not None and update.status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}, not {update.status!r}")
    return update


def new_summary(game_id: str, game_info: tuple[str, str, bool], created_at: str) -> GameSummary:
    """The row of a game before its first event is folded in."""
    game, scenario, sandbox = game_info
    return GameSummary(game_id, game, scenario, "waiting", created_at, -1, sandbox=bool(sandbox))


def keyed_index(events: list[NewEvent]) -> int:
    """Where in a batch the idempotency key binds: its first `submitted` event (a fresh seed's
    `seed_committed` may come before it, ledger.dice step 7)."""
    return next(i for i, ev in enumerate(events) if ev.type == SUBMITTED)


def scoped_key(events: list[NewEvent], key: str) -> str:
    """The idempotency row's key: unique per (game, seat, key), so that one seat can never take
    (or learn of) another's key. Stored as "<seat>:<key>" (seat names hold no colon)."""
    return f"{events[keyed_index(events)].seat or ''}:{key}"


def new_seed_index(events: list[NewEvent]) -> int:
    """The `seed_committed` event a later append's `secret` belongs to."""
    found = [i for i, ev in enumerate(events) if ev.type == SEED_COMMITTED]
    if len(found) != 1:
        raise ValueError("a secret appended to a running game needs exactly one `seed_committed` event in the batch")
    return found[0]


def check_new_events(events: list[NewEvent], idempotency_key: str | None) -> None:
    """Refuse a batch the projection could not fold (before touching the database)."""
    if not events:
        raise ValueError("append needs at least one event")
    if idempotency_key is not None and not any(ev.type == SUBMITTED for ev in events):
        raise ValueError("an idempotency key binds to the batch's `submitted` event")
    for ev in events:
        if ev.type in (RESOLVED, REJECTED):
            submission_seq(ev)


def summary_from_events(events: list[Event]) -> GameSummary:
    """Rebuild a game's summary from its whole stream (used by import and for lost rows).

    game, scenario and sandbox come from the `game_created` payload (`sandbox` may be an
    object, true, or null/absent); status from the event types; active seats stay empty.
    """
    if not events:
        raise ValueError("no events to summarise")
    created = next((ev for ev in events if ev.type == GAME_CREATED), None)
    if created is None:
        raise ValueError("the stream has no game_created event")
    game, scenario = created.payload.get("game"), created.payload.get("scenario")
    if not isinstance(game, str) or not isinstance(scenario, str):
        raise ValueError("the game_created payload needs string `game` and `scenario`")
    sandbox = created.payload.get("sandbox")
    base = new_summary(events[0].game_id, (game, scenario, sandbox is not None and sandbox is not False),
                       events[0].recorded_at)
    return fold(base, events)


def check_import(events: list[Event], summary: GameSummary) -> None:
    """Refuse an import that is not one whole, intact game described by `summary`."""
    if not events:
        raise ValueError("nothing to import")
    check_chain(events)
    if events[0].game_id != summary.game_id or summary.last_seq != events[-1].seq:
        raise ValueError("the summary does not describe the imported events")
