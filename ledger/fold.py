"""Folding a game's events into its state, without the rules.

The state after `game_started` is recorded whole; every `resolved` event records a JSON Patch
(RFC 6902) from the state before it to the state after it, plus the hash of the result. So
history never depends on today's rules code: the fold only applies recorded patches.
`verify` separately re-runs the rules and compares (see warlog/trust/verify.py).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

import jsonpatch

from ledger.canonical import state_hash
from ledger.events import GAME_STARTED, RESOLVED, Event
from ledger.jsondiff import diff


class FoldError(ValueError):
    def __init__(self, seq: int, message: str) -> None:
        super().__init__(f"event {seq}: {message}")
        self.seq = seq


def make_patch(before: Any, after: Any) -> list[dict[str, Any]]:
    """A patch that turns `before` into `after` (the worker records it in each `resolved` event):
    a structural diff that walks only what differs (ledger.jsondiff), exact by its
    property tests, so no longer checked here by folding it and hashing the result."""
    return diff(before, after)


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
            new = apply_patch(state, event.payload["patch"])
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as err:
            raise FoldError(event.seq, f"recorded patch does not apply: {err}") from None
    else:
        return state
    if check_hashes and state_hash(new) != event.payload.get("state_hash"):
        raise FoldError(event.seq, "the recorded state hash does not match the folded state")
    return new


_FAST_OPS = ("add", "replace", "remove")


def apply_patch(doc: Any, patch: Any) -> Any:
    """`jsonpatch.JsonPatch(copy.deepcopy(patch)).apply(doc, in_place=True)`, the result and the
    errors alike, without jsonpatch's objects for the operations a fold meets (they were
    most of a fold's time): add, replace and remove on plain objects and arrays by paths without
    escapes. From the first operation that is anything else, or that would fail, jsonpatch
    applies the rest (and raises what it raises); a patch with such an operation in its
    structure goes to jsonpatch whole, as jsonpatch checks every operation's shape first."""
    if type(patch) is not list or not all(
            type(op) is dict and op.get("op") in _FAST_OPS and type(op.get("path")) is str
            and "~" not in op["path"] and (op["path"] == "" or op["path"][0] == "/")
            and (op["op"] == "remove" or "value" in op) for op in patch):
        return jsonpatch.JsonPatch(copy.deepcopy(patch)).apply(doc, in_place=True)
    for i, op in enumerate(patch):
        applied = _apply_op(doc, op)
        if applied is _REST:
            return jsonpatch.JsonPatch(copy.deepcopy(patch[i:])).apply(doc, in_place=True)
        doc = applied
    return doc


_REST = object()  # this operation and the ones after it are jsonpatch's
_ATOMS = frozenset({str, int, bool, type(None)})  # what copy.deepcopy returns as it is


def _value(op: dict[str, Any]) -> Any:
    """A copy of the operation's value (`copy.deepcopy` of plain JSON, by `_copy`), without the
    call for a JSON leaf."""
    v = op["value"]
    return v if type(v) in _ATOMS else _copy(v)


def _apply_op(doc: Any, op: dict[str, Any]) -> Any:
    """The document after `op`, or _REST where jsonpatch should decide (nothing is changed then)."""
    kind, path = op["op"], op["path"]
    if path == "":
        return _REST if kind == "remove" else _value(op)
    parts = path.split("/")[1:]
    parent = doc
    for part in parts[:-1]:
        t = type(parent)
        if t is dict:
            if part not in parent:
                return _REST
            parent = parent[part]
        elif t is list:
            if not (part.isdigit() and part.isascii() and (part[0] != "0" or part == "0")) \
                    or int(part) >= len(parent):  # an array index: 0|[1-9][0-9]* (RFC 6901)
                return _REST
            parent = parent[int(part)]
        else:
            return _REST
    last = parts[-1]
    if type(parent) is dict:
        if kind == "add":
            parent[last] = _value(op)
        elif last not in parent:
            return _REST
        elif kind == "replace":
            parent[last] = _value(op)
        else:
            del parent[last]
        return doc
    if type(parent) is not list:
        return _REST
    if kind == "add" and last == "-":
        parent.append(_value(op))
        return doc
    if not (last.isdigit() and last.isascii() and (last[0] != "0" or last == "0")):  # as above
        return _REST
    index = int(last)
    if kind == "add" and index <= len(parent):
        parent.insert(index, _value(op))
    elif kind == "replace" and index < len(parent):
        parent[index] = _value(op)
    elif kind == "remove" and index < len(parent):
        del parent[index]
    else:
        return _REST
    return doc


def fold(events: Iterable[Event], state: Any = None, check_hashes: bool = False) -> Any:
    """Apply `events` to a private copy of `state` (None before the game started)."""
    state = _copy(state)
    for ev in events:
        state = step(state, ev, check_hashes)
    return state


_LEAVES = frozenset({str, int, bool, float, type(None)})


def _copy(x: Any) -> Any:
    """copy.deepcopy of plain JSON data (a state), without its memo: leaves are shared, as
    they are immutable; anything else goes to copy.deepcopy."""
    t = type(x)
    if t is dict:
        return {k: v if type(v) in _LEAVES else _copy(v) for k, v in x.items()}
    if t is list:
        return [v if type(v) in _LEAVES else _copy(v) for v in x]
    return x if t in _LEAVES else copy.deepcopy(x)
