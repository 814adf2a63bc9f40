"""Folding a game's events into its state, without the rules.

The state after `game_started` is recorded whole; every `resolved` event records a JSON Patch
(RFC 6902) from the state before it to the state after it, plus the hash of the result. So
history never depends on today's rules code: the fold only applies recorded patches.
`verify` separately re-runs the rules and compares (see warlog/verify.py).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

import jsonpatch

from ledger.canonical import state_hash
from ledger.events import GAME_STARTED, RESOLVED, Event


class FoldError(ValueError):
    def __init__(self, seq: int, message: str) -> None:
        super().__init__(f"event {seq}: {message}")
        self.seq = seq


def make_patch(before: Any, after: Any) -> list[dict[str, Any]]:
    """A patch that turns `before` into `after`, checked; falls back to replacing the root."""
    ops: list[dict[str, Any]] = jsonpatch.make_patch(before, after).patch
    try:
        if state_hash(jsonpatch.apply_patch(before, ops)) == state_hash(after):
            return ops
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException):
        pass
    return [{"op": "replace", "path": "", "value": after}]


def step(state: Any, event: Event, check_hashes: bool = False) -> Any:
    """The state after `event`, given the state before it. Returns `state` for events that
    do not change it.

    The patch is applied IN PLACE: `state` is consumed (callers own the object they pass, as
    `fold` does). The patch's values are copied first, so the state never shares objects with
    the event that carried them.
    """
    if event.type == GAME_STARTED:
        new = copy.deepcopy(event.payload["state"])
    elif event.type == RESOLVED and "patch" in event.payload:
        try:
            new = jsonpatch.JsonPatch(copy.deepcopy(event.payload["patch"])).apply(state, in_place=True)
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as err:
            raise FoldError(event.seq, f"recorded patch does not apply: {err}") from None
    else:
        return state
    if check_hashes and state_hash(new) != event.payload.get("state_hash"):
        raise FoldError(event.seq, "the recorded state hash does not match the folded state")
    return new


def fold(events: Iterable[Event], state: Any = None, check_hashes: bool = False) -> Any:
    """Apply `events` to a private copy of `state` (None before the game started)."""
    state = copy.deepcopy(state)
    for ev in events:
        state = step(state, ev, check_hashes)
    return state
