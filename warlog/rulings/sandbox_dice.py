"""Stop and ask for more (docs/sandbox.md): in a sandbox created with `on_dice_exhausted: "stop"`,
a move that needs one die more than were forced is refused with a reason that says it waits for
dice (`waiting_for_dice`: the number of the die it asked for). The game then waits: its answers
say so (`waiting_for_dice` in GET /state, /actions and /moves/{seq}) and its pages show it, until
the director adds forced dice (POST /api/v1/games/{id}/dice, checked like creation's). They are
recorded as a `dice_added` event (`forced`: the values; changes no state), which verify replays: the forced dice of a
submission are the creation's followed by every `dice_added` before it. The waiting move is then
submitted again for its seat (`retry_of` names the first submission) and judged with them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ledger.events import DICE_ADDED, DIRECTOR, REJECTED, RESOLVED, SUBMITTED, Event, NewEvent
from ledger.store import Conflict
from rules import game_of
from warlog.rulings.sandbox import dice_errors

if TYPE_CHECKING:
    from warlog.games.service import Warlog


def stops(sandbox: dict[str, Any] | None) -> bool:
    """Whether the sandbox stops (rather than derives) when its forced dice run out."""
    return bool(sandbox) and (sandbox or {}).get("on_dice_exhausted") == "stop"


def forced_dice(sandbox: dict[str, Any] | None, events: Iterable[Event], before: int) -> list[int]:
    """The forced dice in force for a submission at `before`: the creation's, then each
    `dice_added` event's before it, in ledger order."""
    dice = list((sandbox or {}).get("dice") or [])
    for ev in events:
        if ev.seq >= before:
            break
        if ev.type == DICE_ADDED:
            dice.extend(ev.payload.get("forced", []))
    return dice


def waiting_reason(ev: Event) -> int | None:
    """The die number a refusal waits for, or None if it is not a refusal for want of dice."""
    if ev.type != REJECTED:
        return None
    for r in ev.payload.get("reasons") or []:
        if isinstance(r, dict) and r.get("waiting_for_dice"):
            return int(r["waiting_for_dice"])
    return None


def waiting_for_dice(events: list[Event]) -> dict[str, Any] | None:
    """The move the game waits for dice for: the newest refusal for want of dice that no
    resolution and no `dice_added` followed; None if the game does not wait."""
    subs = {ev.seq: ev for ev in events if ev.type == SUBMITTED}
    for ev in reversed(events):
        if ev.type in (RESOLVED, DICE_ADDED):
            return None
        needed = waiting_reason(ev)
        if needed is not None:
            sub = subs.get(ev.payload.get("submission_seq", -1))
            if sub is None or sub.seat == DIRECTOR:
                return None
            return {"submission_seq": sub.seq, "rejected_seq": ev.seq, "seat": sub.seat, "needed": needed,
                    "action": sub.payload.get("action")}
    return None


def add_dice(svc: Warlog, game_id: str, token: str | None, dice: list[int]) -> dict[str, Any]:
    """The director's forced dice for a sandbox that stops when they run out: checked like the
    creation's, recorded as a `dice_added` event; the move waiting for them is submitted again
    for its seat (and so judged with them)."""
    from warlog.games.service import Forbidden, StaleSeq, Unprocessable

    viewer = svc.viewer(game_id, token, required=True)
    if not viewer.director:
        raise Forbidden("only the sandbox's director adds forced dice")
    created = svc.created(game_id).payload
    sandbox = created.get("sandbox")
    if not stops(sandbox):
        raise Unprocessable("dice are added only to a sandbox created with on_dice_exhausted \"stop\" "
                            "(a game that derives its dice needs none)",
                            errors=[{"path": "", "message": "not a sandbox that stops for dice", "rule": None}])
    game = game_of(created)
    errors = dice_errors(game, list(dice))
    if not dice:
        errors = [{"path": "/dice", "message": "add at least one die", "rule": None}]
    if errors:
        raise Unprocessable(f"the forced dice do not fit {game.title}'s dice", errors=errors)
    while True:
        summary = svc.summary(game_id)
        if summary.status != "active":
            raise StaleSeq(f"the game is {summary.status}: no dice are added now", status=summary.status,
                           current_seq=summary.last_seq)
        events = svc.store.read(game_id)
        waiting = waiting_for_dice(events)
        try:
            added = svc.store.append(game_id, summary.last_seq, [NewEvent(DICE_ADDED, DIRECTOR, {
                "forced": list(dice), **({"for_submission": waiting["submission_seq"]} if waiting else {})})])[-1]
        except Conflict:
            continue  # a move got in first: read again
        break
    total = len(forced_dice(sandbox, [*events, added], added.seq + 1))
    out: dict[str, Any] = {"seq": added.seq, "added": len(dice), "forced_dice": total, "retry_seq": None}
    if waiting is not None:
        retry = {"action": waiting["action"], "retry_of": waiting["submission_seq"]}
        while True:  # the waiting move, submitted again for its seat: judged with the new dice
            try:
                last = svc.store.last_seq(game_id)
                sub = svc._append_submission(game_id, waiting["seat"], {**retry, "expected_seq": last}, last, None)
                break
            except StaleSeq:
                continue
        out["retry_seq"] = sub["seq"]
    return out
