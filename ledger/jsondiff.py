"""A JSON Patch (RFC 6902) from one JSON document to another, by a structural walk.

jsonpatch's `make_patch` compares every member of both documents through its own objects and
was most of the worker's time per move. Here equal parts are skipped by identity (`is`: the
rules' copy shares every leaf, so an unchanged leaf costs one pointer comparison) or by type and
value, and only containers that are different objects are walked. The patch is not minimal (a
list that changed length is edited at its end only, by `add` and `remove`; a member whose type
changed is replaced whole), but it is exact: folded by `ledger.fold.apply_patch` or by jsonpatch
it gives a document equal to `after` in every type, `True` and `1` told apart
(tests/ledger/test_jsondiff.py).
"""

from __future__ import annotations

import copy
from typing import Any

Patch = list[dict[str, Any]]


def diff(before: Any, after: Any) -> Patch:
    """Operations that turn `before` into `after`. The values in the patch are copies: the patch
    shares no object with `after`."""
    ops: Patch = []
    _walk(before, after, "", ops)
    return ops


def _walk(before: Any, after: Any, path: str, ops: Patch) -> None:
    if before is after:
        return
    t = type(after)
    if t is not type(before):
        ops.append({"op": "replace", "path": path, "value": copy.deepcopy(after)})
    elif t is dict:
        _walk_dict(before, after, path, ops)
    elif t is list:
        _walk_list(before, after, path, ops)
    elif not _same_leaf(before, after):
        ops.append({"op": "replace", "path": path, "value": copy.deepcopy(after)})


def _walk_dict(before: dict[str, Any], after: dict[str, Any], path: str, ops: Patch) -> None:
    if not before.keys() <= after.keys():  # (a subset test in C, no set built)
        for k in before:
            if k not in after:
                ops.append({"op": "remove", "path": f"{path}/{_escape(k)}"})
    missing = _MISSING
    for k, v in after.items():
        w = before.get(k, missing)
        if w is v:
            continue
        if w is missing:
            ops.append({"op": "add", "path": f"{path}/{_escape(k)}", "value": copy.deepcopy(v)})
        else:
            _walk(w, v, f"{path}/{_escape(k)}", ops)


def _walk_list(before: list[Any], after: list[Any], path: str, ops: Patch) -> None:
    common = min(len(before), len(after))
    for i in range(common):
        w, v = before[i], after[i]
        if w is not v:
            _walk(w, v, f"{path}/{i}", ops)
    for i in range(len(before) - 1, common - 1, -1):  # from the end, so every index still exists
        ops.append({"op": "remove", "path": f"{path}/{i}"})
    for i in range(common, len(after)):
        ops.append({"op": "add", "path": f"{path}/{i}", "value": copy.deepcopy(after[i])})


def _same_leaf(a: Any, b: Any) -> bool:
    """Equal leaves of one type; floats also by their text (0.0 and -0.0 are ==, not the same)."""
    if type(a) is float:
        return bool(a == b and repr(a) == repr(b))
    return bool(a == b)


def _escape(key: str) -> str:
    """A member name as a JSON Pointer reference token (RFC 6901 §3)."""
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


_MISSING = object()
