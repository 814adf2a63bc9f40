"""What the director's desk reads from a game's ledger (pure: events in, plain dicts out).

The replay page has two numbers for one move: its *step* (the slider and "Step N") may be the
`submitted` event, and its list names the move by its judgement ("#N+1", highlighted at both
steps). A void acts on the judgement (a `resolved` event of a seat's move), so the desk names a
disputed step by both numbers and offers, as void targets, only those resolutions. `void_preview`
is the dry run of a void: the resolutions it would undo, as `warlog.judging.judge._judge_void` counts
them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ledger.events import DIRECTOR, REJECTED, RESOLVED, SUBMITTED, Event
from warlog.catalogs import N_
from warlog.games.replay import seat_name
from warlog.render.words import possessive

# What the desk calls a step that is no seat's move (its event type), for the catalogs: the page
# shows `what_msg` with `what_args` in its language (`what` stays English, for the API).
EVENT_WORDS = {"game_created": N_("game created"), "seat_joined": N_("seat joined"),
               "game_started": N_("game started"), "game_ended": N_("game ended"),
               "seed_revealed": N_("seed revealed"), "seed_committed": N_("seed committed"),
               "dispute_raised": N_("dispute raised"), "dispute_answered": N_("dispute answered"),
               "dice_added": N_("dice added"), "hidden_viewed": N_("hidden information viewed"),
               "umpire_invited": N_("umpire invited"), "leave_declared": N_("leave declared"),
               "leave_ended": N_("leave ended"), "leave_granted": N_("leave granted"),
               "pause_asked": N_("pause asked"), "pause_agreed": N_("pause agreed"), "pause_ended": N_("pause ended"),
               "message_sent": N_("message sent"), "message_reported": N_("message reported")}


def _voided(events: Sequence[Event]) -> set[int]:
    """Resolutions a void ruling has already undone (its fact's `overrides`)."""
    out: set[int] = set()
    for ev in events:
        if ev.type == RESOLVED and (ev.payload.get("ruling") or {}).get("kind") == "void":
            for fact in ev.payload.get("facts", []):
                over = (fact.get("data") or {}).get("overrides")
                if isinstance(over, list):
                    out.update(s for s in over if isinstance(s, int))
    return out


def is_move(ev: Event) -> bool:
    """A `resolved` event judging a seat's move (not a director's ruling)."""
    return ev.type == RESOLVED and ev.payload.get("seat") not in (None, DIRECTOR)


def voidable(events: Sequence[Event], game: str) -> list[dict[str, Any]]:
    """The events a void may name, newest first: each seat move's resolution not voided already,
    with the step of its submission and a label in the replay page's words."""
    gone = _voided(events)
    out = []
    for ev in reversed(events):
        if is_move(ev) and ev.seq not in gone:
            sub = ev.payload.get("submission_seq")
            who = seat_name(ev.payload.get("seat"), game)
            out.append({"seq": ev.seq, "submission_seq": sub, "seat": ev.payload.get("seat"),
                        "label": f"#{ev.seq} · {who}'s move" + (f" (steps {sub}–{ev.seq})" if isinstance(sub, int)
                                                               else ""),
                        "label_msg": N_("#%(n)s · %(who)s's move (steps %(sub)s–%(n)s)") if isinstance(sub, int)
                        else N_("#%(n)s · %(who)s's move"), "label_args": {"n": ev.seq, "who": who, "sub": sub}})
    return out


def step_names(events: Sequence[Event], step: int, game: str) -> dict[str, Any]:
    """A game event (a replay step) as the replay page names it: `step`, the list's row `row`
    ("#N": the judgement when the step is a submission), what it is, and `void_target`, the
    resolution a void would act on (None when the step is not a seat's move that was accepted)."""
    ev = next((e for e in events if e.seq == step), None)
    if ev is None:
        return {"step": step, "row": step, "what": "no such event", "void_target": None}
    row, judged = step, ev
    if ev.type == SUBMITTED:
        judged = next((e for e in events if e.seq > step and e.type in (RESOLVED, REJECTED)
                       and e.payload.get("submission_seq") == step), ev)
        row = judged.seq
    seat = ev.seat if ev.type == SUBMITTED else ev.payload.get("seat")
    who = seat_name(seat, game) if seat else N_("the server")
    whose = possessive(who)
    what = {SUBMITTED: f"{whose} submission", RESOLVED: f"{whose} move, accepted",
            REJECTED: f"{whose} move, refused"}.get(ev.type, ev.type.replace("_", " "))
    msg = {SUBMITTED: N_("%(who)s's submission"), RESOLVED: N_("%(who)s's move, accepted"),
           REJECTED: N_("%(who)s's move, refused")}.get(ev.type) or EVENT_WORDS.get(ev.type, what)
    if ev.type == SUBMITTED and judged is not ev:
        what += ", refused" if judged.type == REJECTED else ", accepted"
        msg = N_("%(who)s's submission, refused") if judged.type == REJECTED else N_("%(who)s's submission, accepted")
    target = judged.seq if is_move(judged) and judged.seq not in _voided(events) else None
    return {"step": step, "row": row, "what": what, "what_msg": msg, "what_args": {"who": who},
            "void_target": target}


def void_preview(events: Sequence[Event], target: int, re_resolve: bool, game: str) -> dict[str, Any]:
    """The dry run of voiding `target` now: the resolutions undone (the target and every one
    after it), how many are seat moves and from which seats, and the last step they reach."""
    ev = next((e for e in events if e.seq == target), None)
    if ev is None or not is_move(ev):
        return {"target": target, "ok": False,
                "why": f"event {target} is not the accepted move of a seat: a void acts only on those"}
    undone = [e for e in events if e.type == RESOLVED and e.seq >= target]
    moves = [e for e in undone if is_move(e)]
    seats = Counter(seat_name(e.payload.get("seat"), game) for e in moves)
    return {"target": target, "ok": True, "undone": [e.seq for e in undone], "moves": len(moves),
            "rulings": len(undone) - len(moves), "by_seat": dict(sorted(seats.items())),
            "up_to": undone[-1].seq if undone else target, "last_step": events[-1].seq if events else target,
            "re_resolve": ev.payload.get("submission_seq") if re_resolve else None,
            "rewinds_to": target - 1}
