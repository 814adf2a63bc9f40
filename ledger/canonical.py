"""Canonical JSON: the one byte encoding that every hash in Warlog is taken over.

Keys sorted, no insignificant white space, UTF-8, no floats (outcomes are integers:
DESIGN "no floats in outcomes"), no NaN. Two equal documents always encode to the
same bytes, on any machine, so a third party can recompute every hash.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson

GENESIS_HASH = "0" * 64


class NotCanonical(ValueError):
    """The value holds something canonical JSON refuses (a float, a set, a non-str key)."""


def _check(value: Any, path: str = "$") -> None:
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        return
    if isinstance(value, float):
        raise NotCanonical(f"{path}: floats are not allowed in canonical JSON ({value!r})")
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotCanonical(f"{path}: object keys must be strings ({key!r})")
            _check(item, f"{path}.{key}")
        return
    raise NotCanonical(f"{path}: {type(value).__name__} is not JSON")


_PLAIN = (str, int, bool, type(None))


def _plainly_json(value: Any) -> bool:
    """True when `value` is made only of exact str/int/bool/None, lists, tuples and dicts with
    str keys (what every state is): then it is canonical without the slower, path-naming walk.
    False means only "look closer": `_check` then decides, and names the path of what it refuses."""
    stack = [value]
    pop, push = stack.pop, stack.extend
    while stack:
        v = pop()
        t = type(v)
        if t in _PLAIN:
            continue
        if t is dict:
            for k in v:
                if type(k) is not str:
                    return False
            push(v.values())
        elif t is list or t is tuple:
            push(v)
        else:
            return False
    return True


def _json_bytes(value: Any) -> bytes:
    """The standard library's canonical encoding: the reference `_fast_bytes` must agree with."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def _fast_bytes(value: Any) -> bytes:
    """`_json_bytes` of a plain value (exact str/int/bool/None, lists, tuples, str-keyed dicts),
    by orjson: compact, UTF-8 unescaped, keys sorted by code point, the same escapes (tests/ledger/
    test_canonical_fast.py proves the bytes equal). What orjson refuses (an int beyond 64 bits, a
    lone surrogate, nesting deeper than 255) goes the standard library's way, as before."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return _json_bytes(value)


def canonical_bytes(value: Any) -> bytes:
    """Encode `value` as canonical JSON bytes."""
    if _plainly_json(value):
        return _fast_bytes(value)
    _check(value)
    return _json_bytes(value)


def plain_canonical_bytes(value: Any) -> bytes:
    """`canonical_bytes` of a value known to be plain JSON already (parsed by `json.loads` with
    floats refused, or folded from such values): the same bytes, without the look for floats."""
    return _fast_bytes(value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def state_hash(state: Any, plain: bool = False) -> str:
    """SHA-256 of a game state's canonical encoding (`plain`: the state is known to be plain
    JSON, as `plain_canonical_bytes` says)."""
    return sha256_hex(plain_canonical_bytes(state) if plain else canonical_bytes(state))
