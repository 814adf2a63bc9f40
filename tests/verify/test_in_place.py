"""Verify re-runs a move recorded as resolved on the rules' own state, changed in place
(`verify_events(in_place=True)`, the default): it must accept and refuse exactly what the
copying way (`in_place=False`) does, with the same report and the same words."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ledger.canonical import canonical_bytes
from ledger.events import Event, NewEvent, seal
from ledger.export import parse_export_hashed
from rules.core.plaincopy import applied_in_place, working_copy
from warlog.trust.verify import Report, VerifyFailure, verify_events

GOLDEN = sorted((Path(__file__).resolve().parents[1] / "golden").glob("*.jsonl"))
# Short ledgers of games whose `apply` works in place (rules.core.admit, UP FRONT's own).
TAMPERED = [p for p in GOLDEN if p.name.startswith(("lock-n-load--demo--v3", "up-front--A--v2",
                                                     "green-beret-vietnam--campaign--v2",
                                                     "vietnam-battles--snoopys_nose"))]


def _both(data: bytes) -> tuple[Report | str, Report | str]:
    out: list[Report | str] = []
    for in_place in (True, False):
        events, hashes = parse_export_hashed(io.BytesIO(data))
        try:
            out.append(verify_events(events, hashes=hashes, in_place=in_place))
        except VerifyFailure as err:
            out.append(str(err))
    return out[0], out[1]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_every_golden_gives_the_same_report_either_way(path: Path) -> None:
    fast, old = _both(path.read_bytes())
    assert isinstance(fast, Report) and fast == old


def _resealed(data: bytes, change: Callable[[Event], dict[str, Any] | None]) -> tuple[bytes, int]:
    """The ledger with the first event `change` rewrites (its new payload) changed and every hash
    from it on sealed again: the chain is intact, only the rules can tell."""
    events = [Event.from_json(json.loads(line)) for line in data.splitlines()]
    i = next(i for i, e in enumerate(events) if change(e) is not None)
    payload = change(events[i])
    out = events[:i]
    for e in [events[i].__class__(**{**events[i].__dict__, "payload": payload})] + events[i + 1:]:
        out.append(seal(e.game_id, e.seq, NewEvent(e.type, e.seat, e.payload), e.recorded_at, out[-1].hash))
    return b"".join(canonical_bytes(e.to_json()) + b"\n" for e in out), events[i].seq


def _later_resolved(e: Event) -> dict[str, Any] | None:
    return json.loads(json.dumps(e.payload)) if e.type == "resolved" and e.seq > 40 and e.payload.get("patch") else None


def _wrong_patch(e: Event) -> dict[str, Any] | None:
    """A patch that also sets a value the rules never set (the hash left as recorded)."""
    p = _later_resolved(e)
    if p is not None:
        p["patch"] = p["patch"] + [{"op": "add", "path": "/tampered", "value": 1}]
    return p


def _wrong_fact(e: Event) -> dict[str, Any] | None:
    p = _later_resolved(e)
    if p is not None and p.get("facts"):
        p["facts"][0]["text"] += " (rewritten)"
        return p
    return None


def _refused_move(e: Event) -> dict[str, Any] | None:
    """A move the rules refuse, recorded as resolved (the in-place run falls back to a copy)."""
    if e.type == "submitted" and e.seq > 40 and e.seat != "director":
        return {**json.loads(json.dumps(e.payload)), "action": {"type": "no_such_action"}}
    return None


@pytest.mark.parametrize("change", [_wrong_patch, _wrong_fact, _refused_move])
@pytest.mark.parametrize("path", TAMPERED, ids=[p.name for p in TAMPERED])
def test_a_tampered_ledger_is_refused_alike_either_way(path: Path, change: Callable[[Event], Any]) -> None:
    data, seq = _resealed(path.read_bytes(), change)
    fast, old = _both(data)
    assert isinstance(fast, str) and fast == old
    if change is not _refused_move:
        assert fast.startswith(f"event {seq}:")


def test_working_copy_is_the_state_itself_once_inside_applied_in_place() -> None:
    state = {"units": {"a": {"at": "0101"}}, "log": [1, 2]}
    outside = working_copy(state)
    assert outside == state and outside is not state and outside["units"] is not state["units"]
    with applied_in_place(state):
        assert working_copy(state) is state
        again = working_copy(state)  # only the first: a nested apply copies
        assert again == state and again is not state
        other = {"x": [1]}
        assert working_copy(other) is not other
    assert working_copy(state) is not state
