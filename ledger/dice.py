"""Provably fair dice: committed seed, derived rolls, rejection sampling (no modulo).

Scheme "warlog-hmac-sha256-v1", written so that anyone can re-implement it from this text:

1. At game creation the server draws a 32-byte secret `seed` and publishes only
   `commitment = SHA-256(seed)` (hex) in the game's first event.
2. Each seat may add entropy when it joins. `entropy_digest` = SHA-256 (hex) of the canonical
   JSON of {"seats": {role: entropy, ...}} over every seat's entropy ("" if none given).
3. Roll number `index` of the submission at ledger position `seq`, for a die of `faces` faces:
   for attempt = 0, 1, 2, ...:
       msg = canonical JSON of {"attempt": attempt, "entropy": entropy_digest,
                                "game": game_id, "roll": index, "seq": seq}
       h   = HMAC-SHA256(key=seed, msg)
       v   = the first 8 bytes of h as a big-endian integer, shifted right so that only its
             top `bits` bits remain, where bits = bit length of (faces - 1)
       if v < faces: the die shows v + 1 (else try the next attempt).
   No modulo anywhere, so every face is exactly equally likely; each attempt succeeds with
   probability > 1/2.
4. When the game ends (or a director reveals it for a dispute) the seed is published in a
   `seed_revealed` event; then SHA-256(seed) must equal the commitment and every recorded
   die must equal its derivation.

5. In a game with hidden information every submission and judgement also carries
   `blind` = HMAC-SHA256(key=seed, canonical JSON of {"blind": seq, "game": game_id}) (hex),
   a salt that nobody can guess before the seed is revealed: without it a seat could find
   another seat's secret by hashing every candidate payload and comparing the event's public
   hash. After the reveal anyone can re-derive every blind.

6. (see docs/ledger.md: secret dice show no value before the end.)

7. Seed periods. No game goes on with a revealed seed: when a seed is revealed and the game goes
   on (a director's `reveal_seed` in a running game), or a submission comes after the reveal (a
   ruling that reopens an ended game), the server first draws a fresh seed and records only its
   commitment in a `seed_committed` event {"commitment", "period"}. Period 0 is committed in
   event 0; period k by the k-th `seed_committed` event, at seq c_k. Every die and blind of a
   position s (the submission at s, the set-up at the `game_started` seq, the event at s) uses
   the seed of the newest period with c_k < s. Each period's seed is revealed like the first,
   in a `seed_revealed` event naming its commitment (and its `period` when k > 0).

8. Judgement keying (a game option recorded at creation: `"dice_key": "judgement"` in
   game_created; a duplicate tournament's games have it, every other game keys by `seq` as in
   step 3). In place of `"seq": seq` the message carries `"judgement": n`, where n is 0 for the
   set-up and, for a submission, 1 + the number of `resolved` judgements before its own. So a
   refused move shifts nobody's dice: two entrants on one seed who make the same accepted
   choices meet the same dice whatever they sent in between. A refused move that rolled dice
   before the rules refused it must not show the dice the next accepted move will meet, so such
   a submission is judged again on `{"judgement": n, "refusal": r}` (r = 1 + the `rejected`
   judgements since the last `resolved` one) and that second judgement is the one recorded.

9. Round seeds (a duplicate tournament's games from this version on: game_created names
   `"duplicate_round": {"tournament": id, "round": n}`). Every game of the round shares period
   0's seed, so one game's reveal would show every other's next dice. The end of such a game
   does not reveal period 0's seed: its `game_ended` event says `"seed_withheld": "seed withheld
   until round n of tournament id ends"`, and each game of the round gets its `seed_revealed`
   event once every game of the round has ended (the tournament appends them before it records
   the round's last result). A later period's seed (a game a ruling reopened) is the game's own,
   revealed at its end as in step 4. Older duplicate games, without the field, reveal at their end.

No `random` module and no wall clock: only `secrets` to draw the seed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from typing import Any

from ledger.canonical import canonical_bytes, sha256_hex

SCHEME = "warlog-hmac-sha256-v1"


def new_seed() -> bytes:
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def entropy_digest(seat_entropy: Mapping[str, str]) -> str:
    return sha256_hex(canonical_bytes({"seats": dict(seat_entropy)}))


DiceKey = int | Mapping[str, int]  # a ledger position (step 3) or the fields of step 8


def key_fields(key: DiceKey) -> dict[str, int]:
    return {"seq": key} if isinstance(key, int) else dict(key)


def judgement_keyed(created_payload: Mapping[str, Any]) -> bool:
    """Whether the game keys its dice by judgement number (step 8), as its game_created says."""
    return created_payload.get("dice_key") == "judgement"


def dice_key(created_payload: Mapping[str, Any], seq: int, number: int, refusal: int = 0) -> DiceKey:
    """The key of the dice of the submission at `seq` (or of the set-up at the game_started seq):
    ordinary games, the position `seq` (step 3); judgement-keyed ones, the judgement `number`
    (0 for the set-up, 1 + the resolved judgements before a submission) and, for step 8's second
    judgement of a refused move, its `refusal` number (step 8)."""
    if not judgement_keyed(created_payload):
        return seq
    return {"judgement": number, **({"refusal": refusal} if refusal else {})}


class JudgementCount:
    """Step 8's numbers, fed every judgement of a game in ledger order."""

    def __init__(self) -> None:
        self.resolved = 0
        self.refused = 0  # rejected judgements since the last resolved one

    def see(self, kind: str) -> None:
        if kind == "resolved":
            self.resolved, self.refused = self.resolved + 1, 0
        elif kind == "rejected":
            self.refused += 1

    @property
    def number(self) -> int:
        """The judgement number of the next submission."""
        return self.resolved + 1

    @property
    def refusal(self) -> int:
        """The refusal number of the next submission, were it refused having rolled dice."""
        return self.refused + 1


def derive_die(seed: bytes, game_id: str, seq: DiceKey, index: int, entropy: str, faces: int) -> int:
    """The value (1..faces) of roll `index` of the submission at ledger position `seq` (or keyed
    by the fields of step 8)."""
    if faces < 2:
        raise ValueError("a die has at least two faces")
    bits = (faces - 1).bit_length()
    fields = key_fields(seq)
    attempt = 0
    while True:
        msg = canonical_bytes({"attempt": attempt, "entropy": entropy, "game": game_id, "roll": index, **fields})
        h = hmac.digest(seed, msg, "sha256")
        v = int.from_bytes(h[:8], "big") >> (64 - bits)
        if v < faces:
            return v + 1
        attempt += 1


def seed_in_force(seeds: list[tuple[int, bytes]], seq: int) -> bytes | None:
    """The seed of position `seq` (step 7): the newest period committed before it. `seeds` are
    (seq of the commitment, seed), oldest first (event 0's seed at 0)."""
    found = None
    for start, seed in seeds:
        if start < seq or start == 0:
            found = seed
    return found


def derive_blind(seed: bytes, game_id: str, seq: int) -> str:
    """The salt of the event at `seq` in a game with hidden information (scheme step 5)."""
    return hmac.digest(seed, canonical_bytes({"blind": seq, "game": game_id}), "sha256").hex()  # one C call


def round_withheld(created_payload: Mapping[str, Any]) -> str | None:
    """Step 9: what a duplicate round's game says of its seed at its end ("seed withheld until
    round n of tournament T ends"); None for a game whose end reveals its seed (step 4)."""
    found = created_payload.get("duplicate_round")
    if not isinstance(found, Mapping):
        return None
    return f"seed withheld until round {found.get('round')} of tournament {found.get('tournament')} ends"


def dice_stream_of(created: Any) -> str:
    """The name the dice of a game derive from (step 3's "game"): its id, or the `dice_stream`
    its game_created event names (a duplicate tournament's games share one)."""
    return str(created.payload.get("dice_stream") or created.game_id)


class DerivedDice:
    """A die function for one submission: (index, faces) -> value, from the committed seed."""

    def __init__(self, seed: bytes, game_id: str, seq: DiceKey, entropy: str) -> None:
        self.seed, self.game_id, self.seq, self.entropy = seed, game_id, seq, entropy

    def __call__(self, index: int, faces: int) -> int:
        return derive_die(self.seed, self.game_id, self.seq, index, self.entropy, faces)


class ForcedDieMismatch(ValueError):
    """A sandbox's forced die does not fit the die the rules asked for."""


class ForcedDiceExhausted(ForcedDieMismatch):
    """A sandbox created with `on_dice_exhausted: "stop"` needs more dice than were forced: the
    move waits for the director to add some (POST /api/v1/games/{id}/dice, a `dice_added` event)."""

    def __init__(self, message: str, needed: int) -> None:
        super().__init__(message)
        self.needed = needed  # the 1-based number of the forced die the move asked for


class ForcedThenDerived:
    """A sandbox's dice: the director's forced values in order, then derived ones — or, when
    the creator chose `stop`, a refusal of the move that needs one more (ForcedDiceExhausted).

    `offset` is how many forced values earlier submissions of the game already used.
    """

    def __init__(self, forced: list[int], offset: int, derived: DerivedDice, stop: bool = False) -> None:
        self.forced, self.offset, self.derived, self.stop = forced, offset, derived, stop

    def __call__(self, index: int, faces: int) -> int:
        pos = self.offset + index
        if pos < len(self.forced):
            value = self.forced[pos]
            if not 1 <= value <= faces:
                raise ForcedDieMismatch(f"forced die #{pos} is {value}, but this roll needs a d{faces}")
            return value
        if self.stop:
            raise ForcedDiceExhausted(f"the {len(self.forced)} forced dice ran out: this move needs die "
                                      f"#{pos + 1}; it waits for the director to add more", pos + 1)
        return self.derived(index, faces)
