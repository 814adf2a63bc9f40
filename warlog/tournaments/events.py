"""A tournament's stream: events of their own types in the games' ledger (docs/tournaments.md).

A tournament is one more stream in the `events` table: its id (``t`` + 16 hex digits) in the
`game_id` column, seq 0, 1, 2, … gapless, each event's hash over the same canonical body as a
game's event (ledger.events.event_body) and chained to the one before. Only the type names
differ, so a game's checker never mistakes a tournament for a game (and the other way round).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ledger.canonical import canonical_bytes, sha256_hex
from ledger.events import Event, check_chain, event_body

# Stable type names. Never rename one: old ledgers carry them.
CREATED = "tournament_created"  # name, game, scenario, options, format, points, seed commitment, director
REGISTERED = "entrant_registered"  # player_id, display_name
WITHDRAWN = "entrant_withdrawn"  # player_id, reason
ROUND_PAIRED = "round_paired"  # round, pairings (seats -> player), byes, dice; then the games made for them
REPAIRED = "round_repaired"  # a director's manual re-pairing of a round, with its reason
RESULT = "result_recorded"  # round, game_id, result, points, how (played/adjudicated/forfeit), final hash
RESULT_CORRECTED = "result_corrected"  # a recorded result the game's ledger changed: the new result, its reason
EXTENSION = "extension_granted"  # game_id, player_id, days, reason (by policy or the director)
TIMEOUT = "deadline_expired"  # game_id, player_id, policy applied
DISPUTE = "dispute_raised"  # game_id, seq (the game's event), player_id, text
RULING = "ruling_made"  # dispute id (its seq), decision (ruling/dismissal), text, game ruling seq
RULING_JUDGED = "ruling_judged"  # the game's verdict on a ruling_made: made or refused, with the game's reasons
ENDED = "tournament_ended"  # final standings
SEED_REVEALED = "tournament_seed_revealed"  # the pairing seed and its commitment
DIRECTOR_ADDED = "director_added"  # player_id, display_name: a co-director (by the director who created the tournament)
ANNOUNCED = "announcement_made"  # text, by: the director's word to every entrant (mailed, kept on the page)
INVITATION_REISSUED = "invitation_reissued"  # game_id, seat, player_id, reason, by: a new seat link, the old one revoked
SEAT_REPLACED = "seat_replaced"  # game_id, seat, player_id (who leaves), substitute, display_name, reason, by
# an entrant's leave (warlog.clock.leave), as each game of theirs records it: player_id, leave, from, to,
# games [{game_id, seat, round}], round_deadlines (extend | keep: the tournament's policy) and the
# deadlines of those seats once it applied [{game_id, seat, due_at}]
LEAVE_DECLARED = "leave_declared"
LEAVE_ENDED = "leave_ended"  # player_id, leave, games: the leave is over, the entrant's clocks run again

TYPES = (CREATED, REGISTERED, WITHDRAWN, ROUND_PAIRED, REPAIRED, RESULT, EXTENSION, TIMEOUT, DISPUTE, RULING,
         ENDED, SEED_REVEALED, RULING_JUDGED, RESULT_CORRECTED,
         DIRECTOR_ADDED, ANNOUNCED, INVITATION_REISSUED, SEAT_REPLACED, LEAVE_DECLARED, LEAVE_ENDED)

ID_PREFIX = "t"


def is_tournament_id(value: str) -> bool:
    return (isinstance(value, str) and len(value) == 17 and value.startswith(ID_PREFIX)
            and all(c in "0123456789abcdef" for c in value[1:]))


def seal(stream_id: str, seq: int, type_: str, seat: str | None, payload: dict[str, Any], recorded_at: str,
         prev_hash: str) -> Event:
    """A chained tournament event at `seq` (the same hashing as a game's event)."""
    if type_ not in TYPES:
        raise ValueError(f"unknown tournament event type {type_!r}")
    body = event_body(stream_id, seq, type_, seat, payload, recorded_at, prev_hash)
    return Event(stream_id, seq, type_, seat, payload, recorded_at, prev_hash, sha256_hex(canonical_bytes(body)))


def check_stream(events: Iterable[Event]) -> int:
    """Gapless from 0, every hash right and linked, only tournament types; ChainError names the first bad one."""
    return check_chain(events, TYPES, stream="stream", kind="tournament event type")
