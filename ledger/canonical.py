"""Canonical JSON: the one byte encoding that every hash in Warlog is taken over.

Keys sorted, no insignificant white space, UTF-8, no floats (outcomes are integers:
DESIGN "no floats in outcomes"), no NaN. Two equal documents always encode to the
same bytes, on any machine, so a third party can recompute every hash.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

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


def canonical_bytes(value: Any) -> bytes:
    """Encode `value` as canonical JSON bytes."""
    _check(value)
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def state_hash(state: Any) -> str:
    """SHA-256 of a game state's canonical encoding."""
    return sha256_hex(canonical_bytes(state))
