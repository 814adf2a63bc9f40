"""Events: the ledger's only records. Frozen, hash-chained, named by stable type strings.

An event's hash is SHA-256 over the canonical JSON of its body: game id, sequence number,
type, seat, payload, time recorded and the previous event's hash. The first event of a
game (seq 0) chains to GENESIS_HASH. Anyone holding an export can recompute the chain.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ledger.canonical import GENESIS_HASH, canonical_bytes, sha256_hex

# Stable type names. Never rename one: old ledgers carry them.
GAME_CREATED = "game_created"  # game, scenario, options, rules version, seats, seed commitment
SEAT_JOINED = "seat_joined"  # a seat taken, with the entropy it adds to the dice
GAME_STARTED = "game_started"  # every seat joined: the initial state and its hash
SUBMITTED = "submitted"  # a seat's action (or a director's ruling), not yet judged
RESOLVED = "resolved"  # a submission judged legal: facts, dice, rule sections, patch, state hash
REJECTED = "rejected"  # a submission judged illegal: reasons with rule sections
GAME_ENDED = "game_ended"  # the outcome
SEED_REVEALED = "seed_revealed"  # the secret seed, so that anyone can re-derive every die
SEED_COMMITTED = "seed_committed"  # a fresh seed's commitment: the dice after it no longer use a revealed seed
DISPUTE_RAISED = "dispute_raised"  # a seat disputes an event (`seq`) with `text`; changes no state
DISPUTE_ANSWERED = "dispute_answered"  # the director dismisses it or rules (`ruling_seq`); changes no state
DICE_ADDED = "dice_added"  # a sandbox's director forces more dice (`forced`) for a move that waits for them; changes no state
HIDDEN_VIEWED = "hidden_viewed"  # someone (`by`) looked at what the rules hide (`what`, at `step`) while the game ran; changes no state
UMPIRE_INVITED = "umpire_invited"  # a seat had an umpire invitation made (`token_sha256`, `text`); changes no state
# Time away from the board (warlog.clock.leave): each changes no state and rolls no dice.
LEAVE_DECLARED = "leave_declared"  # the seat's player is on leave `from`–`to` (UTC; `leave`: its id) in all their games
LEAVE_ENDED = "leave_ended"  # that leave (`leave`) is over: the seat's clock runs again
LEAVE_GRANTED = "leave_granted"  # by `director`: `days` of extra leave for `seat`'s player in `year`, with `reason`
PAUSE_ASKED = "pause_asked"  # the seat asks the others to pause the game
PAUSE_AGREED = "pause_agreed"  # the seat agrees to the pause asked at `asked` (`paused`: every seat has agreed)
PAUSE_ENDED = "pause_ended"  # the seat resumes the paused game, or withdraws or declines the pause asked at `asked`
AWAY = (LEAVE_DECLARED, LEAVE_ENDED, LEAVE_GRANTED, PAUSE_ASKED, PAUSE_AGREED, PAUSE_ENDED)
# A word to the opponent (warlog.messages): the text is kept off the chain, committed to by a salted digest.
MESSAGE_SENT = "message_sent"  # the seat sent message `message` to `to` (seats, or "director"); `digest` commits to its text
MESSAGE_REPORTED = "message_reported"  # the seat reported message `message` to the director
MESSAGES = (MESSAGE_SENT, MESSAGE_REPORTED)

NO_STATE = (DISPUTE_RAISED, DISPUTE_ANSWERED, HIDDEN_VIEWED, UMPIRE_INVITED) + AWAY + MESSAGES  # records beside the play: no state, no dice

EVENT_TYPES = (
    GAME_CREATED,
    SEAT_JOINED,
    GAME_STARTED,
    SUBMITTED,
    RESOLVED,
    REJECTED,
    GAME_ENDED,
    SEED_REVEALED,
    SEED_COMMITTED,
    DISPUTE_RAISED,
    DISPUTE_ANSWERED,
    DICE_ADDED,
    HIDDEN_VIEWED,
    UMPIRE_INVITED,
    *AWAY,
    *MESSAGES,
)

DIRECTOR = "director"  # the seat name a director's rulings are recorded under


def withdrawn(ev: Event) -> bool:
    """`ev` is a seat's take-back of its own move before the umpire judged it: recorded as that
    move's judgement, a `rejected` event appended under the seat's own name with
    `withdrawn: true`, the seat in its payload, and no dice (docs/ledger.md)."""
    return ev.type == REJECTED and ev.payload.get("withdrawn") is True and ev.seat is not None \
        and ev.seat == ev.payload.get("seat")


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class NewEvent:
    """What a writer hands to `append`: the store fills seq, time and hashes."""

    type: str
    seat: str | None = None
    payload: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.type not in EVENT_TYPES:
            raise ValueError(f"unknown event type {self.type!r}")
        canonical_bytes(self.payload)  # refuse floats and other non-canonical values early


@dataclass(frozen=True)
class Event:
    game_id: str
    seq: int
    type: str
    seat: str | None
    payload: dict[str, Any]
    recorded_at: str
    prev_hash: str
    hash: str

    def body(self) -> dict[str, Any]:
        return event_body(self.game_id, self.seq, self.type, self.seat, self.payload, self.recorded_at, self.prev_hash)

    def computed_hash(self) -> str:
        return sha256_hex(canonical_bytes(self.body()))

    def to_json(self) -> dict[str, Any]:
        out = self.body()
        out["hash"] = self.hash
        return out

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Event:
        expected = {"game_id", "seq", "type", "seat", "payload", "recorded_at", "prev_hash", "hash"}
        if not isinstance(doc, dict) or set(doc) != expected:
            got = sorted(doc) if isinstance(doc, dict) else type(doc).__name__
            raise ValueError(f"an event has exactly the fields {sorted(expected)}; got {got}")
        if not isinstance(doc["seq"], int) or isinstance(doc["seq"], bool) or doc["seq"] < 0:
            raise ValueError("seq must be a non-negative integer")
        if not isinstance(doc["payload"], dict):
            raise ValueError("payload must be an object")
        for key in ("game_id", "type", "recorded_at", "prev_hash", "hash"):
            if not isinstance(doc[key], str):
                raise ValueError(f"{key} must be a string")
        if doc["seat"] is not None and not isinstance(doc["seat"], str):
            raise ValueError("seat must be a string or null")
        return cls(
            doc["game_id"], doc["seq"], doc["type"], doc["seat"], doc["payload"],
            doc["recorded_at"], doc["prev_hash"], doc["hash"],
        )


def event_body(
    game_id: str, seq: int, type: str, seat: str | None, payload: dict[str, Any], recorded_at: str, prev_hash: str
) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seq": seq,
        "type": type,
        "seat": seat,
        "payload": payload,
        "recorded_at": recorded_at,
        "prev_hash": prev_hash,
    }


def _text(value: str | None) -> str:
    """A JSON string (or null) exactly as canonical_bytes writes it."""
    return "null" if value is None else json.dumps(value, ensure_ascii=False)


def body_parts(game_id: str, seq: int, new: NewEvent, recorded_at: str) -> tuple[str, str, str]:
    """An event's canonical body as (head, payload, tail) around its prev_hash: the body is
    head + payload + ',"prev_hash":"' + prev_hash + tail (keys in canonical order). A store that
    chains on the database server (ledger_append, PostgreSQL) hashes these without knowing JSON."""
    head = '{"game_id":' + _text(game_id) + ',"payload":'
    tail = ('","recorded_at":' + _text(recorded_at) + ',"seat":' + _text(new.seat) + ',"seq":' + str(int(seq))
            + ',"type":' + _text(new.type) + "}")
    return head, canonical_bytes(new.payload).decode("utf-8"), tail


def parts_hash(head: str, payload: str, prev_hash: str, tail: str) -> str:
    return sha256_hex((head + payload + ',"prev_hash":"' + prev_hash + tail).encode("utf-8"))


def seal_encoded(game_id: str, seq: int, new: NewEvent, recorded_at: str, prev_hash: str) -> tuple[Event, str]:
    """seal(), encoding the payload once: the Event and its payload's canonical text (the row)."""
    head, payload, tail = body_parts(game_id, seq, new, recorded_at)
    return (Event(game_id, seq, new.type, new.seat, new.payload, recorded_at, prev_hash,
                  parts_hash(head, payload, prev_hash, tail)), payload)


def seal(game_id: str, seq: int, new: NewEvent, recorded_at: str, prev_hash: str) -> Event:
    """Turn a NewEvent into a chained Event at position `seq`."""
    body = event_body(game_id, seq, new.type, new.seat, new.payload, recorded_at, prev_hash)
    return Event(game_id, seq, new.type, new.seat, new.payload, recorded_at, prev_hash,
                 sha256_hex(canonical_bytes(body)))


class ChainError(ValueError):
    """The chain breaks at `seq`: a gap, a wrong previous hash, or a hash that does not match."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(f"event {seq}: {message}")
        self.seq = seq
        self.reason = message


def check_chain(events: Iterable[Event], types: Collection[str] | None = None, stream: str = "game",
                kind: str = "event type", after: Event | None = None, hashes: list[str] | None = None) -> int:
    """Check one stream's events (a game's, or a tournament's with its own `types`): gapless from
    0, each hash right, each linked to the one before. `after`: the events continue a prefix
    already checked, which ends with this event. `hashes`: each event's body hash, computed
    already from the bytes it was parsed from (ledger.export.parse_export_hashed).

    Returns the number of events; raises ChainError naming the first bad event.
    """
    allowed = EVENT_TYPES if types is None else types
    prev = GENESIS_HASH if after is None else after.hash
    stream_id: str | None = None if after is None else after.game_id
    count = 0
    for expected_seq, ev in enumerate(events, start=0 if after is None else after.seq + 1):
        if stream_id is None:
            stream_id = ev.game_id
        elif ev.game_id != stream_id:
            raise ChainError(ev.seq, f"belongs to {stream} {ev.game_id}, not {stream_id}")
        if ev.seq != expected_seq:
            raise ChainError(ev.seq, f"expected sequence number {expected_seq} (the ledger is gapless from 0)")
        if ev.type not in allowed:
            raise ChainError(ev.seq, f"unknown {kind} {ev.type!r}")
        if ev.prev_hash != prev:
            raise ChainError(ev.seq, "prev_hash does not match the previous event's hash")
        if (ev.computed_hash() if hashes is None else hashes[count]) != ev.hash:
            raise ChainError(ev.seq, "hash does not match the event's content (it was altered)")
        prev = ev.hash
        count += 1
    return count
