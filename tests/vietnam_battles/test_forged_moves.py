"""A forged move in a Vietnam Battles ledger fails `warlog verify`, whichever rule judges it.

Each case takes a golden game, swaps one recorded move for one the rules do not list at that
point (a place to enter, a set-up place, a landing hex, a unit to pick up), re-seals the chain
after it, and expects verify to name the judgement of that move as one the rules now refuse: the
targeted legality checks (rules/vietnam_battles/legal_check.py) and the indexes behind them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.canonical import canonical_bytes
from ledger.events import NewEvent, seal
from ledger.export import parse_export
from ledger.fold import fold
from rules import get_game
from warlog.trust.verify import VerifyFailure, verify_bytes

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
IRON, SNOOPY = "vietnam-battles--iron_triangle--v1.jsonl", "vietnam-battles--snoopys_nose--v1.jsonl"


@pytest.mark.parametrize("name,kind,key", [(IRON, "enter", "hex"), (IRON, "at", "hex"), (IRON, "land", "hex"),
                                           (IRON, "slick", "unit"), (SNOOPY, "enter", "hex"), (SNOOPY, "at", "hex"),
                                           (SNOOPY, "retreat", "path")])
def test_a_forged_illegal_move_fails_verify(name: str, kind: str, key: str) -> None:
    events = parse_export((GOLDEN / name).read_bytes().splitlines())
    subs = [i for i, e in enumerate(events) if e.type == "submitted" and e.payload.get("action", {}).get("type") == kind]
    i = subs[len(subs) // 2]
    state = fold(events[:i])
    game = get_game("vietnam-battles", events[0].payload["rules_version"])
    w = game.w(state)  # type: ignore[attr-defined]
    legal = [json.dumps(a, sort_keys=True) for a in game.legal_actions(state, events[i].seat or "")]
    action = events[i].payload["action"]
    values = [[h] for h in sorted(w.hexes)] if key == "path" else sorted(w.hexes) if key == "hex" else sorted(state["units"])
    forged = next(f for v in values if json.dumps(f := {**action, key: v}, sort_keys=True) not in legal)
    out = events[:i]
    for e in [events[i].__class__(**{**events[i].__dict__, "payload": {**events[i].payload, "action": forged}})] \
            + events[i + 1:]:
        out.append(seal(e.game_id, e.seq, NewEvent(e.type, e.seat, e.payload), e.recorded_at, out[-1].hash))
    judged = next(e.seq for e in events[i + 1:] if e.type == "resolved" and e.payload["submission_seq"] == events[i].seq)
    with pytest.raises(VerifyFailure) as err:
        verify_bytes(b"".join(canonical_bytes(e.to_json()) + b"\n" for e in out))
    assert err.value.seq == judged and "the rules now say rejected" in str(err.value), (kind, forged, err.value)
