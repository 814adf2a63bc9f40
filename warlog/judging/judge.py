"""Judging one submission: the deterministic heart shared by the worker and `verify`.

Given the state before a `submitted` event, the submission and a die function, `judge`
returns the `resolved` or `rejected` payload. The worker appends what it returns; `verify`
calls it again on another machine and compares. Nothing here reads a clock or a database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import jsonpatch

from ledger.canonical import state_hash
from ledger.dice import ForcedDiceExhausted, ForcedDieMismatch
from ledger.events import DIRECTOR, Event
from ledger.fold import make_patch
from rules.core.dice import DieFunction, RecordingDice, Roll
from rules.core.game import Game, IllegalAction, InvalidState
from validators.actions import ActionShapeError, check_action


class History(Protocol):
    """Read access to the game's past, for rulings that reach back."""

    def state_at(self, seq: int) -> Any: ...

    def event(self, seq: int) -> Event: ...

    def resolved_after(self, seq: int) -> list[int]: ...


@dataclass
class Judgement:
    kind: str  # "resolved" | "rejected"
    payload: dict[str, Any]
    state: Any
    outcome: dict[str, Any] | None = None  # set when this judgement ends the game
    reveal_seed: bool = False
    reopen: bool = False  # a ruling that takes an ended game back into play
    facts: list[dict[str, Any]] = field(default_factory=list)


def _reject(submission: Event, state: Any, reasons: list[dict[str, Any]], dice: RecordingDice | None = None) -> Judgement:
    payload: dict[str, Any] = {"submission_seq": submission.seq, "seat": submission.seat, "reasons": reasons}
    if dice is not None and dice.rolls:
        payload["dice"] = dice.to_json()  # rolled before the rules found the action illegal
    return Judgement("rejected", payload, state)


def _resolved(
    game: Game, submission: Event, before: Any, after: Any, facts: list[dict[str, Any]], dice: RecordingDice,
    patches: bool, **extra: Any
) -> Judgement:
    """A resolution's payload. Without `patches` (as verify judges: it checks the recorded patch by
    folding it, so a new one is of no use, and the whole-state diff is its costliest step) the
    patch is left out and the state hashed without the look for floats (a recorded state never
    holds one: the worker's hash refuses them, so a state that did would not match anyway)."""
    payload: dict[str, Any] = {
        "submission_seq": submission.seq,
        "seat": submission.seat,
        "facts": facts,
        "rules": sorted({f["rule"] for f in facts if f.get("rule")}),
        "dice": dice.to_json(),
        **({"patch": make_patch(before, after)} if patches else {}),
        "state_hash": state_hash(after, plain=not patches),
        "active_seats": game.active_seats(after) if after is not None else [],
        "phase": game.phase(after) if after is not None else "",
    }
    payload.update(extra)
    outcome = game.outcome(after) if after is not None else None
    judgement = Judgement("resolved", payload, after, facts=facts)
    if outcome is not None:
        judgement.outcome = outcome.to_json()
        payload["outcome"] = judgement.outcome
        payload["active_seats"] = []
    return judgement


def judge(game: Game, state: Any, submission: Event, die: DieFunction, history: History, ended: bool,
          fresh_seed: bool = False, patches: bool = True) -> Judgement:
    """Judge one `submitted` event against the state before it. `fresh_seed`: the submission
    comes right after a fresh seed's commitment (ledger.dice step 7), so a ruling that reopens
    the game also draws its random secrets again (`Game.reseal`). `patches`: see `_resolved`."""
    if submission.seat == DIRECTOR:
        j = _judge_ruling(game, state, submission, die, history, ended, patches)
        return _resealed(game, state, submission, j, die, patches) if j.reopen and fresh_seed else j
    if ended:
        return _reject(submission, state, [{"message": "the game is over", "rule": None}])
    action = submission.payload.get("action")
    return _judge_move(game, state, submission, action, die, patches)


def judge_keyed(game: Game, state: Any, submission: Event, dice_for: Callable[[int], DieFunction],
                history: History, ended: bool, fresh_seed: bool = False, keyed: bool = False,
                patches: bool = True) -> Judgement:
    """`judge` with `dice_for(0)`; in a judgement-keyed game (ledger.dice step 8) a refusal that
    rolled dice is judged again on `dice_for(1)`, the refusal's own dice, and that is recorded,
    so a refused move never shows the dice the next accepted move meets."""
    j = judge(game, state, submission, dice_for(0), history, ended, fresh_seed, patches)
    if keyed and j.kind == "rejected" and j.payload.get("dice"):
        j = judge(game, state, submission, dice_for(1), history, ended, fresh_seed, patches)
    return j


def _resealed(game: Game, before: Any, submission: Event, j: Judgement, die: DieFunction, patches: bool) -> Judgement:
    """The end showed every secret; a reopened game draws its random ones again,
    face down, with dice after the ruling's own (`Game.reseal`)."""
    kept = [Roll(int(d["index"]), int(d["faces"]), int(d["value"]), str(d.get("purpose", "")), bool(d.get("secret")))
            for d in j.payload.get("dice", [])]  # the re-resolution's dice come first: continue after them
    dice = RecordingDice(die, kept)
    applied = game.reseal(j.state, dice)
    if applied is None:
        return j
    extra = {k: v for k, v in j.payload.items() if k in ("ruling",)}
    out = _resolved(game, submission, before, applied.state, j.facts + [f.to_json() for f in applied.facts], dice,
                    patches, **extra)
    out.reopen = True
    return out


def _judge_move(game: Game, state: Any, submission: Event, action: Any, die: DieFunction, patches: bool,
                **extra: Any) -> Judgement:
    seat = submission.seat or ""
    active = game.active_seats(state)
    if seat not in active:
        waiting = ", ".join(active) or "nobody"
        return _reject(submission, state, [{"message": f"it is not {seat}'s turn: waiting for {waiting}", "rule": "turn order"}])
    try:
        check_action(game.name, action)
    except ActionShapeError as err:
        return _reject(submission, state, [{"message": f"malformed action: {err.messages}", "rule": None}])
    dice = RecordingDice(die)
    try:
        applied = game.apply(state, seat, action, dice)
    except IllegalAction as err:
        return _reject(submission, state, [err.to_json()], dice)
    except ForcedDiceExhausted as err:  # stop and ask for more: the move waits (warlog.rulings.sandbox.waiting_for_dice)
        return _reject(submission, state, [{"message": str(err), "rule": "sandbox dice",
                                            "waiting_for_dice": err.needed}], dice)
    except ForcedDieMismatch as err:
        return _reject(submission, state, [{"message": str(err), "rule": "sandbox dice"}], dice)
    except Exception as err:  # a bug in the rules must not stop the game or rewrite history
        return _reject(
            submission,
            state,
            [{"message": f"the rules engine failed on this action ({type(err).__name__}); "
                         "the state is unchanged and a director should look at it", "rule": None, "internal": True}],
            dice,
        )
    facts = [f.to_json() for f in applied.facts]
    return _resolved(game, submission, state, applied.state, facts, dice, patches, **extra)


def _judge_ruling(game: Game, state: Any, submission: Event, die: DieFunction, history: History, ended: bool,
                  patches: bool) -> Judgement:
    """A director's ruling (DESIGN: a correction is a new event that says what it overrides and why)."""
    ruling = submission.payload.get("ruling") or {}
    kind, reason = ruling.get("kind"), ruling.get("reason", "")
    none = RecordingDice(_no_dice)
    if kind == "reveal_seed":
        facts = [{"text": f"Director reveals the dice seed: {reason}", "rule": "director ruling", "kind": "ruling",
                  "data": {"overrides": "seed secrecy"}}]
        j = _resolved(game, submission, state, state, facts, none, patches, ruling=ruling)
        j.reveal_seed = True
        return j
    if kind == "award":
        outcome = {"winner": ruling.get("winner"), "result": ruling.get("result", "awarded"),
                   "reason": reason, "rule": "director ruling"}
        facts = [{"text": f"Director awards the game: {outcome['result']} (winner: {outcome['winner'] or 'none'}): {reason}",
                  "rule": "director ruling", "kind": "ruling", "data": {"overrides": "outcome"}}]
        j = _resolved(game, submission, state, state, facts, none, patches, ruling=ruling)
        j.outcome = outcome
        j.payload["outcome"] = outcome
        j.payload["active_seats"] = []
        return j
    if kind == "adjust":
        try:
            new_state = jsonpatch.apply_patch(state, ruling.get("patch", []), in_place=False)
            game.check_state(new_state)
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, InvalidState, TypeError) as err:
            return _reject(submission, state, [{"message": f"adjustment refused: {err}", "rule": "director ruling"}])
        paths = [op.get("path") for op in ruling.get("patch", [])]
        facts = [{"text": f"Director adjusts {', '.join(map(str, paths))}: {reason}", "rule": "director ruling",
                  "kind": "ruling", "data": {"overrides": paths}}]
        j = _resolved(game, submission, state, new_state, facts, none, patches, ruling=ruling)
        j.reopen = ended and j.outcome is None
        return j
    if kind == "void":
        return _judge_void(game, state, submission, ruling, die, history, ended, patches)
    return _reject(submission, state, [{"message": f"unknown ruling kind {kind!r}", "rule": "director ruling"}])


def _judge_void(game: Game, state: Any, submission: Event, ruling: dict[str, Any], die: DieFunction,
                history: History, ended: bool, patches: bool) -> Judgement:
    target_seq = ruling.get("target")
    try:
        target = history.event(target_seq)
    except (KeyError, IndexError, TypeError, ValueError):
        target = None
    if target is None or target.type != "resolved" or target.seat == DIRECTOR:
        return _reject(submission, state, [{"message": f"event {target_seq} is not the resolution of a move",
                                            "rule": "director ruling"}])
    rewound = history.state_at(target_seq - 1)
    voided = [target_seq] + [s for s in history.resolved_after(target_seq) if s < submission.seq]
    reason = ruling.get("reason", "")
    facts: list[dict[str, Any]] = [{
        "text": f"Director voids resolution(s) {', '.join(f'#{s}' for s in voided)}: {reason}",
        "rule": "director ruling", "kind": "ruling", "data": {"overrides": voided},
    }]
    if not ruling.get("re_resolve"):
        j = _resolved(game, submission, state, rewound, facts, RecordingDice(_no_dice), patches, ruling=ruling)
        j.reopen = ended and j.outcome is None
        return j
    original = history.event(target.payload["submission_seq"])
    redo = _judge_move(game, rewound, Event(original.game_id, submission.seq, original.type, original.seat,
                                             original.payload, original.recorded_at, original.prev_hash, original.hash),
                       original.payload.get("action"), die, patches)
    if redo.kind == "rejected":
        facts.append({"text": "Re-resolution of the voided move was refused: "
                      + "; ".join(r["message"] for r in redo.payload["reasons"]), "rule": "director ruling",
                      "kind": "ruling"})
        j = _resolved(game, submission, state, rewound, facts, RecordingDice(_no_dice), patches, ruling=ruling)
    else:
        facts.append({"text": f"Move #{original.seq} re-resolved with fresh dice", "rule": "director ruling",
                      "kind": "ruling"})
        j = _resolved(game, submission, state, redo.state, facts + redo.payload["facts"], RecordingDice(_no_dice),
                      patches, ruling=ruling)
        j.payload["dice"] = redo.payload["dice"]  # the re-resolution's dice, derived from this ruling's seq
    j.reopen = ended and j.outcome is None
    return j


def _no_dice(index: int, faces: int) -> int:
    raise IllegalAction("this ruling rolls no dice")

