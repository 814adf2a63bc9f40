"""Disputes in an ordinary game: a seat raises one on an event of the game, with
text; the game's director (the holder of its director token) answers with a ruling — void and
re-resolve, adjust, award — or a dismissal. Both are events in the game's own ledger
(`dispute_raised`, `dispute_answered`; docs/ledger.md), so the record of the game carries them
and `verify` passes over them: they change no state and roll no dice. A tournament's games
keep their disputes in the tournament's stream instead (warlog.tournaments, the desk).
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError

from ledger.events import DIRECTOR, DISPUTE_ANSWERED, DISPUTE_RAISED, NewEvent
from ledger.store import Conflict
from warlog.games.service import Forbidden, NotFound, StaleSeq, Unprocessable, Warlog

TEXT_MAX = 4000


def disputes(warlog: Warlog, game_id: str) -> list[dict[str, Any]]:
    """Every dispute of the game, oldest first: its `seq`, `seat`, disputed `target`, `text` and
    `answer` (None while open, else decision, text, ruling_seq and the answer's seq)."""
    out: dict[int, dict[str, Any]] = {}
    for ev in warlog.store.events_of_types(game_id, (DISPUTE_RAISED, DISPUTE_ANSWERED)):
        if ev.type == DISPUTE_RAISED:
            out[ev.seq] = {"seq": ev.seq, "seat": ev.seat, "target": ev.payload.get("seq"),
                           "text": ev.payload.get("text", ""), "answer": None}
        elif ev.type == DISPUTE_ANSWERED and ev.payload.get("dispute") in out:
            out[ev.payload["dispute"]]["answer"] = {"seq": ev.seq, "decision": ev.payload.get("decision"),
                                                    "text": ev.payload.get("text", ""),
                                                    "ruling_seq": ev.payload.get("ruling_seq")}
    return list(out.values())


def _text(text: Any, what: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise Unprocessable(f"{what}: say what it is", fields={"text": ["required, 1 to 4000 characters"]})
    return text.strip()[:TEXT_MAX]


def _append(warlog: Warlog, game_id: str, event: NewEvent) -> int:
    while True:
        last = warlog.store.last_seq(game_id)
        try:
            return warlog.store.append(game_id, last, [event])[-1].seq
        except Conflict:
            continue  # a move got in first: a dispute does not depend on what came after it


def raise_dispute(warlog: Warlog, game_id: str, token: str | None, target: Any, text: Any) -> int:
    """A seat disputes event `target` of its game; returns the dispute's seq."""
    viewer = warlog.viewer(game_id, token, required=True)
    if viewer.director or viewer.seat is None:
        raise Forbidden("only a seat of the game raises a dispute (the director rules)")
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target <= warlog.store.last_seq(game_id):
        raise Unprocessable(f"game {game_id} has no event {target!r}", fields={"seq": ["an event of this game"]})
    return _append(warlog, game_id, NewEvent(DISPUTE_RAISED, viewer.seat,
                                             {"seq": target, "text": _text(text, "a dispute")}))


def answer_dispute(warlog: Warlog, game_id: str, token: str | None, dispute: int, decision: str, text: Any,
                   ruling: dict[str, Any] | None = None) -> dict[str, Any]:
    """The director dismisses dispute `dispute` or rules (`ruling`: void/adjust/award, its reason
    the answer's text). The ruling is submitted first (judged by the worker as any ruling),
    then the answer naming it."""
    viewer = warlog.viewer(game_id, token, required=True)
    if not viewer.director:
        raise Forbidden("only the game's director answers a dispute")
    found = next((d for d in disputes(warlog, game_id) if d["seq"] == dispute), None)
    if found is None:
        raise NotFound(f"game {game_id} has no dispute {dispute}")
    if found["answer"] is not None:
        raise StaleSeq("that dispute has been answered")
    if decision not in ("dismiss", "rule"):
        raise Unprocessable("decision must be dismiss or rule", fields={"decision": ["dismiss or rule"]})
    answer = _text(text, "an answer")
    ruled = submit_ruling(warlog, game_id, token, ruling or {}, answer)["seq"] if decision == "rule" else None
    seq = _append(warlog, game_id, NewEvent(DISPUTE_ANSWERED, DIRECTOR, {
        "dispute": dispute, "decision": decision, "text": answer, "ruling_seq": ruled}))
    return {"dispute": dispute, "answer": seq, "ruling_seq": ruled}


def submit_ruling(warlog: Warlog, game_id: str, token: str | None, ruling: dict[str, Any],
                  reason: Any) -> dict[str, Any]:
    """A ruling from a page: `ruling` (kind, target, re_resolve, patch, winner, result) checked
    by the API's schema, with `reason`."""
    from validators.requests import RulingSchema

    try:
        doc = RulingSchema().load({**ruling, "reason": _text(reason, "a ruling's reasons")})
    except ValidationError as err:
        raise Unprocessable("the ruling does not fit its schema", fields=err.messages) from None
    doc.pop("idempotency_key", None)
    return warlog.submit_ruling(game_id, token, doc)
