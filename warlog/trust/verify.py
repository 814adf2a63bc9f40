"""Offline verification of an export (DESIGN: re-playable by a third party).

Checks, in order, and stops at the first event that does not reproduce:
1. every line is an event and the hash chain is intact (gapless, linked, each hash right), and
   no event's time runs backwards (`check_time_order`);
2. the rules version the game recorded is the one installed here;
3. each revealed seed matches its commitment (event 0's, or a later `seed_committed` event's:
   ledger.dice step 7), and the entropy digest matches the seats';
4. every die re-derives from the seed of its period (or, while that seed is not revealed, is
   replayed as recorded);
5. the set-up and every judgement re-run through the rules give the same facts, dice, result
   and state hash, and every recorded patch folds to the recorded state hash;
6. in a game with hidden information, every event's blind re-derives from its period's seed.
"""

from __future__ import annotations

import copy
import hashlib
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ledger.canonical import state_hash
from ledger.dice import (
    DerivedDice,
    ForcedThenDerived,
    JudgementCount,
    derive_blind,
    dice_key,
    dice_stream_of,
    entropy_digest,
    judgement_keyed,
    round_withheld,
)
from ledger.events import (
    AWAY,
    DICE_ADDED,
    DIRECTOR,
    GAME_CREATED,
    GAME_ENDED,
    GAME_STARTED,
    HIDDEN_VIEWED,
    LEAVE_DECLARED,
    LEAVE_ENDED,
    LEAVE_GRANTED,
    MESSAGE_REPORTED,
    MESSAGE_SENT,
    NO_STATE,
    PAUSE_AGREED,
    PAUSE_ASKED,
    PAUSE_ENDED,
    REJECTED,
    RESOLVED,
    SEAT_JOINED,
    SEED_COMMITTED,
    SEED_REVEALED,
    SUBMITTED,
    UMPIRE_INVITED,
    ChainError,
    Event,
    check_chain,
    withdrawn,
)
from ledger.export import ExportFormatError, parse_export_hashed
from ledger.fold import FoldError, fold, step
from rules import get_game
from rules.core.dice import RecordingDice, fixed_dice
from rules.core.plaincopy import applied_in_place, clone
from warlog.clock.pace import parse_time
from warlog.judging.judge import judge_keyed
from warlog.rulings.sandbox_dice import stops


class VerifyFailure(Exception):
    def __init__(self, seq: int | None, reason: str) -> None:
        where = f"event {seq}" if seq is not None else "export"
        super().__init__(f"{where}: {reason}")
        self.seq = seq
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:  # across processes (warlog.trust.verify_parallel)
        return (type(self), (self.seq, self.reason))


@dataclass
class Report:
    game_id: str = ""
    game: str = ""
    rules_version: str = ""
    events: int = 0
    judgements: int = 0
    dice_derived: int = 0
    dice_replayed: int = 0
    seed_revealed: bool = False  # every seed period's seed (ledger.dice step 7)
    periods: int = 1
    periods_revealed: int = 0
    sandbox: bool = False
    ended: bool = False
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        if self.sandbox:
            verdict = "SANDBOX (a dispute reconstruction, not a fair game)"
        elif self.seed_revealed:
            verdict = "fair: every die re-derived from the committed seed" + (
                f"s of its {self.periods} seed periods" if self.periods > 1 else "")
        elif self.periods_revealed:
            verdict = (f"{self.periods_revealed} of {self.periods} seed periods revealed: their dice re-derived, "
                       "the others' replayed as recorded")
        else:
            verdict = "seed not revealed yet: rules and chain verified, dice replayed as recorded"
        return (f"OK {self.game_id} ({self.game} rules v{self.rules_version}): {self.events} events, chain intact, "
                f"{self.judgements} judgements reproduced, {self.dice_derived} dice re-derived, "
                f"{self.dice_replayed} replayed; {verdict}")


class _MemoryHistory:
    """The events before `limit` (the judgement being re-run), without copying them."""

    def __init__(self, events: list[Event], limit: int) -> None:
        self.events = events
        self.limit = limit

    def state_at(self, seq: int) -> Any:
        return fold(self.events[: self.limit][: seq + 1])  # only a void ruling asks

    def event(self, seq: int) -> Event:
        if not -self.limit <= seq < self.limit:
            raise IndexError(seq)
        return self.events[seq + self.limit if seq < 0 else seq]  # as events[:limit][seq] would

    def resolved_after(self, seq: int) -> list[int]:
        return [e.seq for e in self.events[: self.limit][seq + 1:] if e.type == RESOLVED]


class PrefixBroken(Exception):
    """A window's prefix (folded, not checked) does not fold: an earlier window names the event."""


def verify_events(events: list[Event], progress: Callable[[int], None] | None = None,
                  window: tuple[int, int] | None = None, hashes: list[str] | None = None,
                  round_seed: bytes | None = None, in_place: bool = True) -> Report:
    """Verify a game's events. `window` (warlog.trust.verify_parallel): re-run only the events whose seq
    is in [start, end); the ones before are folded from their recorded patches, unchecked (another
    window checks them), and the ones after are left. The windows of a game partition it.
    `hashes`: each event's body hash as its export line encodes it (parse_export_hashed).
    `round_seed`: a duplicate round's seed, known from its tournament's revealed pairing seed
    (ledger.dice step 9), used as period 0's seed where the game's own ledger does not reveal it
    (it must match the commitment in event 0).
    `in_place`: a move recorded as resolved is re-run on the rules' own state, changed where it
    stands (`rules.core.plaincopy.applied_in_place`), not on a copy of the folded one; the
    recorded patch is still folded on a state of its own and both must give the recorded hash
    (the worker too judges on the rules' own state while a game is hot). A move the rules refuse
    that way is judged again as without it (a refusal may leave the state half changed), so the
    verdict and its words are the same either way."""
    start, end = window if window is not None else (0, len(events))
    plain = hashes is not None  # parsed with floats refused: every state folded from them is plain JSON
    if start == 0:
        try:
            check_chain(events, hashes=hashes)
        except ChainError as err:
            raise VerifyFailure(err.seq, err.reason) from None
    time_notes = check_time_order(events) if start == 0 else []
    if not events or events[0].type != GAME_CREATED:
        raise VerifyFailure(0, "the first event must be game_created")
    created = events[0].payload
    report = Report(game_id=events[0].game_id, game=created.get("game", ""),
                    rules_version=created.get("rules_version", ""), events=len(events),
                    sandbox=bool(created.get("sandbox")))
    report.notes.extend(time_notes)
    try:
        game = get_game(report.game)
    except KeyError:
        raise VerifyFailure(0, f"this build has no game {report.game!r}") from None
    try:
        game = get_game(report.game, report.rules_version or None)
    except KeyError:
        raise VerifyFailure(0, f"the game was played under rules version {report.rules_version}; "
                               f"this build has version {game.version} and cannot re-run it") from None
    seeds = _Seeds(events, created["seed_commitment"])
    if round_seed is not None and seeds.seeds[0] is None:
        if hashlib.sha256(round_seed).hexdigest() != created["seed_commitment"]:
            raise VerifyFailure(0, "the round's seed does not match the commitment in event 0")
        seeds.seeds[0] = round_seed
    report.seed_revealed = seeds.all_revealed()
    report.periods, report.periods_revealed = len(seeds.seeds), sum(s is not None for s in seeds.seeds)
    report.notes.extend(seeds.notes)
    sandbox = created.get("sandbox") or {}
    joined: dict[str, str] = {}
    entropy: str | None = None  # entropy_digest(joined), worked out again after a seat joins
    submissions: dict[int, Event] = {}
    state: Any = None  # folded from the recorded patches
    ruled: Any = None  # the rules' own state, canonically equal to `state` (None: copy `state` when needed)
    ended = False
    forced_used = 0
    forced = list(sandbox.get("dice") or [])  # the creation's forced dice, then every dice_added's
    count, keyed = JudgementCount(), judgement_keyed(created)  # ledger.dice step 8
    last_judgement: dict[str, Any] | None = None
    taken_back: set[int] = set()  # moves their seats took back: never judged after that
    for ev in events:
        if ev.seq >= end:
            break
        if ev.seq < start:
            state, ended, forced_used = _unchecked(ev, state, ended, forced_used, submissions, joined)
            if ev.type == DICE_ADDED:
                forced.extend(ev.payload.get("forced", []))
            if ev.type in (RESOLVED, REJECTED):  # as recorded: its own window re-runs and compares it
                last_judgement = ev.payload.get("outcome") if ev.type == RESOLVED else None
                count.see(ev.type)  # ledger.dice step 8: the window's judgement numbers
            continue
        seed = seeds.at(ev.seq)
        if seed is not None and "blind" in ev.payload and ev.payload["blind"] != derive_blind(seed, ev.game_id, ev.seq):
            raise VerifyFailure(ev.seq, "the blind does not derive from the revealed seed")
        if ev.type == SEAT_JOINED:
            joined[ev.seat or ""] = ev.payload.get("entropy", "")
            entropy = None
        elif ev.type == GAME_STARTED:
            state, ruled = _check_start(game, ev, created, joined, seed, report, plain), None
        elif ev.type == SUBMITTED:
            submissions[ev.seq] = ev
        elif ev.type == DICE_ADDED:  # a stop sandbox's director adds forced dice (warlog.rulings.sandbox_dice)
            if not stops(sandbox) or ev.seat != DIRECTOR:
                raise VerifyFailure(ev.seq, "dice are added only by the director of a sandbox that stops for them")
            forced.extend(ev.payload.get("forced", []))
        elif ev.type in (RESOLVED, REJECTED):
            sub = submissions.get(ev.payload.get("submission_seq", -1))
            if sub is None:
                raise VerifyFailure(ev.seq, "judges a submission that is not in the ledger before it")
            if sub.seq in taken_back:
                raise VerifyFailure(ev.seq, f"judges move {sub.seq}, which its seat took back")
            if withdrawn(ev):  # the seat's take-back: nothing judged, no dice, no state (docs/ledger.md)
                if ev.seat != sub.seat or sub.seat == DIRECTOR or ev.payload.get("dice"):
                    raise VerifyFailure(ev.seq, "a move is taken back by its own seat, and rolls no dice")
                taken_back.add(sub.seq)
                count.see(ev.type)
                last_judgement = None
                if progress:
                    progress(1)
                continue
            if entropy is None:
                entropy = entropy_digest(joined)
            seed = seeds.at(sub.seq)

            def dice_for(refusal: int, sub: Event = sub, seed: bytes | None = seed, ev: Event = ev,
                         entropy: str = entropy, used: int = forced_used, held: tuple[int, ...] = tuple(forced)) -> Any:
                stop, forced = stops(sandbox), list(held)
                if seed is None:
                    fixed: Any = fixed_dice([d["value"] for d in ev.payload.get("dice", [])]).draw
                    if stop:  # a stop is judged alike
                        fixed = ForcedThenDerived(forced, used, fixed, stop=True)
                    return fixed
                key = dice_key(created, sub.seq, count.number, count.refusal if refusal else 0)
                die: Any = DerivedDice(seed, dice_stream_of(events[0]), key, entropy)
                if forced or stop:
                    die = ForcedThenDerived(forced, used, die, stop=stop)
                return die

            history = _MemoryHistory(events, ev.seq)
            k = seeds.period(sub.seq)
            fresh, keyed_now = k > 0 and seeds.starts[k] == sub.seq - 1, keyed and seed is not None
            j: Any = None
            if in_place and ev.type == RESOLVED and sub.seat != DIRECTOR and not ended and state is not None:
                if ruled is None:
                    ruled = clone(state)
                with applied_in_place(ruled):
                    j = judge_keyed(game, ruled, sub, dice_for, history, ended, fresh_seed=fresh, keyed=keyed_now,
                                    patches=False)
                if j.kind != RESOLVED:  # refused: `ruled` may be half changed; judged again below, as before
                    j = None
            if j is None:
                j = judge_keyed(game, state, sub, dice_for, history, ended, fresh_seed=fresh, keyed=keyed_now,
                                patches=False)
                if ev.type == RESOLVED:  # the state changes (or the in-place run was refused): `ruled` is stale
                    ruled = None
            else:
                ruled = j.state
            count.see(ev.type)
            _compare(ev, j.kind, j.payload)
            if seeds.at(sub.seq) is not None:
                report.dice_derived += len(ev.payload.get("dice", []))
            else:
                report.dice_replayed += len(ev.payload.get("dice", []))
            if ev.type == RESOLVED:
                forced_used += len(ev.payload.get("dice", []))
                try:
                    state = step(state, ev)
                except FoldError as err:
                    raise VerifyFailure(ev.seq, str(err).split(": ", 1)[-1]) from None
                # as step(check_hashes=True), the state known plain: folded from parsed JSON
                if state_hash(state, plain=plain) != ev.payload.get("state_hash"):
                    raise VerifyFailure(ev.seq, "the recorded state hash does not match the folded state")
                if j.reopen:
                    ended = False
            last_judgement = j.outcome
            report.judgements += 1
        elif ev.type in NO_STATE:
            _check_beside(ev, created)
        elif ev.type == GAME_ENDED:
            if last_judgement is None or ev.payload.get("outcome") != last_judgement:
                raise VerifyFailure(ev.seq, "the recorded outcome is not what the judgement before it decided")
            ended = True
        if progress:
            progress(1)
    report.ended = ended
    if start == 0:  # the first window sees the whole game too: the check runs once
        check_every_submission_judged(events, ended, report)
    if not report.seed_revealed and not report.sandbox:
        withheld = round_withheld(created) if seeds.seeds[0] is None else None
        report.notes.append(f"the seed is not revealed{f' ({withheld})' if withheld else ''}: dice were replayed, "
                            "not re-derived")
    return report


# What an event beside the play may hold: it changes no state and rolls no dice (docs/ledger.md).
_BESIDE_KEYS = {HIDDEN_VIEWED: {"by", "step", "what"}, UMPIRE_INVITED: {"token_sha256", "text"},
                # time away from the board (warlog.clock.leave): each by a seat, but a grant (the director's)
                LEAVE_DECLARED: {"from", "to", "leave"}, LEAVE_ENDED: {"leave"},
                LEAVE_GRANTED: {"seat", "days", "year", "reason"}, PAUSE_ASKED: set(),
                PAUSE_AGREED: {"asked", "paused"}, PAUSE_ENDED: {"asked"},
                # a word to the opponent (warlog.messages): a digest of the text, never the text
                MESSAGE_SENT: {"message", "to", "digest"}, MESSAGE_REPORTED: {"message"}}
_PLAY_KEYS = {"state", "patch", "dice", "state_hash", "action", "ruling", "outcome", "forced"}


def _check_beside(ev: Event, created: dict[str, Any]) -> None:
    """A dispute, a look at hidden information or an umpire's invitation: verify passes over it
    (the fold and the dice ignore it), having checked that it carries nothing of the play; a
    look is the director's and names a step before it; an invitation is a seat's, in a game
    made without a director."""
    keys = set(ev.payload)
    allowed = _BESIDE_KEYS.get(ev.type)
    if (allowed is not None and not keys <= allowed) or keys & _PLAY_KEYS:
        raise VerifyFailure(ev.seq, f"a {ev.type} event changes no state and rolls no dice; this one holds "
                                    f"{', '.join(sorted(keys - (keys if allowed is None else allowed) | keys & _PLAY_KEYS))}")
    if ev.type == HIDDEN_VIEWED:
        step = ev.payload.get("step")
        if ev.seat != DIRECTOR or not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < ev.seq:
            raise VerifyFailure(ev.seq, "a look at hidden information is the director's, at a step before it")
    elif ev.type == UMPIRE_INVITED:
        if ev.seat not in created.get("roles", []) or created.get("director_token_sha256") is not None:
            raise VerifyFailure(ev.seq, "an umpire is invited by a seat, in a game made without a director")
    elif ev.type in AWAY and (ev.seat != DIRECTOR if ev.type == LEAVE_GRANTED else ev.seat not in created.get("roles", [])):
        raise VerifyFailure(ev.seq, f"a {ev.type} event is {'the director' if ev.type == LEAVE_GRANTED else 'a seat'}'s")
    elif ev.type in (MESSAGE_SENT, MESSAGE_REPORTED):
        _check_message(ev, created)


def _check_message(ev: Event, created: dict[str, Any]) -> None:
    """A message is a seat's, to other seats or the director, and its event holds only the
    digest of its text (64 hex digits): the text itself never enters the ledger."""
    roles = created.get("roles", [])
    if ev.seat not in roles or not isinstance(ev.payload.get("message"), str):
        raise VerifyFailure(ev.seq, f"a {ev.type} event is a seat's and names its message")
    if ev.type == MESSAGE_SENT:
        to, digest = ev.payload.get("to"), ev.payload.get("digest")
        if (not isinstance(to, list) or not to or any(r not in (*roles, DIRECTOR) or r == ev.seat for r in to)
                or not isinstance(digest, str) or len(digest) != 64
                or any(c not in "0123456789abcdef" for c in digest)):
            raise VerifyFailure(ev.seq, "a message goes to other seats or the director and holds the 64-hex-digit "
                                        "digest of its text, nothing more")


# How far two writers' clocks may disagree (the clock's skew guard: a process further off the
# database's clock fires no deadline): an event recorded up to this much before the one it follows
# is noted; further back, the ledger's times cannot be trusted and verification fails.
TIME_ORDER_TOLERANCE = timedelta(seconds=30)


def check_time_order(events: list[Event]) -> list[str]:
    """Each event of a stream is recorded no earlier than the one before it: the appends of one
    chain are serialised, so on right clocks its times never run backwards. One a little earlier
    (within TIME_ORDER_TOLERANCE) was written by a process whose clock disagreed a little with the
    previous writer's: noted (returned). One further back was written under a wrong clock, and
    every time read from the ledger after it (deadlines, the pace record) is suspect: fail naming it."""
    notes: list[str] = []
    prev: tuple[Event, datetime] | None = None
    for ev in events:
        try:
            at = parse_time(ev.recorded_at)
        except ValueError:
            raise VerifyFailure(ev.seq, f"recorded_at {ev.recorded_at!r} is not a UTC time") from None
        if prev is not None and at < prev[1]:
            behind = prev[1] - at
            if behind > TIME_ORDER_TOLERANCE:
                raise VerifyFailure(ev.seq, f"recorded at {ev.recorded_at}, {behind.total_seconds():.1f} s before "
                                            f"event {prev[0].seq} ({prev[0].recorded_at}): the ledger's time runs "
                                            "backwards (a server's clock was wrong when one of them was written)")
            notes.append(f"event {ev.seq} is recorded {behind.total_seconds():.3f} s before event {prev[0].seq}: "
                         "the clocks of the processes that wrote them disagree by that much")
        prev = (ev, at)
    return notes


def unjudged_submissions(events: list[Event]) -> list[int]:
    """The seqs of the submissions that no `resolved` or `rejected` event answers."""
    judged = {ev.payload.get("submission_seq") for ev in events if ev.type in (RESOLVED, REJECTED)}
    return [ev.seq for ev in events if ev.type == SUBMITTED and ev.seq not in judged]


def check_every_submission_judged(events: list[Event], ended: bool, report: Report) -> None:
    """An ended game has judged every move it accepted: one without a judgement was lost or
    withheld (e.g. its row deleted from the server's pending set), and the export is not the
    whole game. A running game's unjudged submissions are pending: noted, not failed."""
    unjudged = unjudged_submissions(events)
    if not unjudged:
        return
    if ended:
        raise VerifyFailure(unjudged[0], f"the game has ended but submission {unjudged[0]} was never judged"
                            + (f" (nor {', '.join(map(str, unjudged[1:]))})" if len(unjudged) > 1 else "")
                            + ": a judgement was lost or withheld")
    report.notes.append(f"{len(unjudged)} submission(s) not judged yet (seq {', '.join(map(str, unjudged))})")


def _unchecked(ev: Event, state: Any, ended: bool, forced_used: int, submissions: dict[int, Event],
               joined: dict[str, str]) -> tuple[Any, bool, int]:
    """Fold one event of a window's prefix as recorded (a game with no director ruling and one seed
    period: warlog.trust.verify_parallel splits only those)."""
    try:
        if ev.type == SEAT_JOINED:
            joined[ev.seat or ""] = ev.payload.get("entropy", "")
        elif ev.type == GAME_STARTED:
            state = copy.deepcopy(ev.payload["state"])
        elif ev.type == SUBMITTED:
            submissions[ev.seq] = ev
        elif ev.type == RESOLVED:
            forced_used += len(ev.payload.get("dice", []))
            state = step(state, ev)
        elif ev.type == GAME_ENDED:
            ended = True
    except Exception as err:  # a broken prefix is reported by the window that holds it
        raise PrefixBroken(ev.seq) from err
    return state, ended, forced_used


def verify_lines(lines: Iterable[str], progress: Callable[[int], None] | None = None) -> Report:
    try:
        events, hashes = parse_export_hashed(lines)
    except ExportFormatError as err:
        raise VerifyFailure(None, str(err)) from None
    return verify_events(events, progress, hashes=hashes)


def verify_bytes(data: bytes, progress: Callable[[int], None] | None = None) -> Report:
    """Verify an export file's raw bytes (a byte that breaks UTF-8 is a failure, not a crash)."""
    try:
        events, hashes = parse_export_hashed(io.BytesIO(data))
    except ExportFormatError as err:
        raise VerifyFailure(None, str(err)) from None
    return verify_events(events, progress, hashes=hashes)


class _Seeds:
    """The game's seed periods (ledger.dice step 7): period 0 committed in event 0, one more per
    `seed_committed` event; each seed, once revealed, checked against its own commitment."""

    def __init__(self, events: list[Event], first: str) -> None:
        self.starts: list[int] = [0]
        self.commitments: list[str] = [first]
        self.seeds: list[bytes | None] = [None]
        self.notes: list[str] = []
        revealed_at: dict[int, int] = {}
        for ev in events:
            if ev.type == SEED_COMMITTED:
                c = ev.payload.get("commitment")
                if not isinstance(c, str) or len(c) != 64 or ev.payload.get("period") != len(self.starts):
                    raise VerifyFailure(ev.seq, f"a seed commitment must be 64 hex digits numbered as period "
                                                f"{len(self.starts)}")
                self.starts.append(ev.seq)
                self.commitments.append(c)
                self.seeds.append(None)
            elif ev.type == SEED_REVEALED:
                try:
                    seed = bytes.fromhex(ev.payload["seed"])
                except (KeyError, ValueError, TypeError):
                    raise VerifyFailure(ev.seq, "the revealed seed is not hex") from None
                k = int(ev.payload.get("period", 0)) if isinstance(ev.payload.get("period", 0), int) else -1
                if not 0 <= k < len(self.commitments) or hashlib.sha256(seed).hexdigest() != self.commitments[k] \
                        or ev.payload.get("commitment") != self.commitments[k]:
                    where = "in event 0" if k == 0 else f"of period {k}"
                    raise VerifyFailure(ev.seq, f"the revealed seed does not match the commitment {where}")
                if self.seeds[k] is None:
                    self.seeds[k] = seed
                    revealed_at[k] = ev.seq
            elif ev.type == SUBMITTED:
                k = self.period(ev.seq)
                if k in revealed_at:
                    self.notes.append(f"event {ev.seq} was submitted after the seed in force was revealed (event "
                                      f"{revealed_at[k]}): its dice were predictable")

    def period(self, seq: int) -> int:
        if len(self.starts) == 1:  # one seed period (most games)
            return 0
        return max(i for i, start in enumerate(self.starts) if start < seq or i == 0)

    def at(self, seq: int) -> bytes | None:
        """The revealed seed of position `seq`'s period, or None while it is secret."""
        return self.seeds[self.period(seq)]

    def all_revealed(self) -> bool:
        return all(s is not None for s in self.seeds)


def _check_start(game: Any, ev: Event, created: dict[str, Any], joined: dict[str, str], seed: bytes | None,
                 report: Report, plain: bool = False) -> Any:
    digest = entropy_digest(joined)
    if ev.payload.get("entropy") != digest:
        raise VerifyFailure(ev.seq, "the entropy digest does not match the seats' recorded entropy")
    sandbox = created.get("sandbox") or {}
    recorded = ev.payload.get("state")
    if sandbox.get("state") is not None:
        expected = sandbox["state"]
    else:
        if seed is not None:
            key = dice_key(created, ev.seq, 0)
            dice = RecordingDice(DerivedDice(seed, created.get("dice_stream") or ev.game_id, key, digest))
            report.dice_derived += len(ev.payload.get("dice", []))
        else:
            dice = fixed_dice([d["value"] for d in ev.payload.get("dice", [])])
            report.dice_replayed += len(ev.payload.get("dice", []))
        expected = game.setup(created["scenario"], created["options"], dice)
        if dice.to_json() != ev.payload.get("dice", []):
            raise VerifyFailure(ev.seq, "the set-up dice do not re-derive")
    if state_hash(expected) != ev.payload.get("state_hash") \
            or state_hash(recorded, plain=plain) != ev.payload.get("state_hash"):  # parsed plain: no look for floats
        raise VerifyFailure(ev.seq, "the initial state does not reproduce")
    # folded in place from here on; the event stays as recorded (parsed plain JSON: copied as such)
    return clone(recorded) if plain else copy.deepcopy(recorded)


def _compare(ev: Event, kind: str, payload: dict[str, Any]) -> None:
    if kind != ev.type:
        raise VerifyFailure(ev.seq, f"recorded as {ev.type}, but the rules now say {kind}")
    recorded = ev.payload
    keys = ("facts", "dice", "state_hash", "active_seats", "outcome") if kind == RESOLVED else ("reasons", "dice")
    for key in keys:
        if recorded.get(key) != payload.get(key):
            raise VerifyFailure(ev.seq, f"{key} do not reproduce (recorded {_short(recorded.get(key))}, "
                                        f"re-run {_short(payload.get(key))})")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."
