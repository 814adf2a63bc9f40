"""Schemathesis hooks for this API (loaded by SCHEMATHESIS_HOOKS; tests/support/schemathesis.toml
has the settings). OpenAPI 3.0 has no `propertyNames`: the document cannot say that a key of a
free-form object (a game's options, a fork's JSON Patch, an ignored extra field) must not hold the
NUL character, nor a string anywhere inside one (a JSON Patch's value), which the server refuses
everywhere (warlog.web.boundary). Bodies with such a key are left out, and so are bodies meant to be
valid that hold a NUL anywhere (the document's patterns keep it out of every string it types); a
NUL in a typed string is still sent in the negative cases, and refused."""

from __future__ import annotations

from typing import Any

import schemathesis


def holds_nul(value: Any, keys_only: bool = False) -> bool:
    """A NUL in a key of `value` (or, unless `keys_only`, in any string of it)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if any(isinstance(k, str) and "\x00" in k for k in item):
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and not keys_only and "\x00" in item:
            return True
    return False


@schemathesis.hook
def filter_body(ctx: Any, body: Any) -> bool:
    return not holds_nul(body, keys_only=True)


@schemathesis.hook
def filter_case(ctx: Any, case: Any) -> bool:
    meta = getattr(case, "meta", None)
    positive = meta is None or getattr(meta.generation.mode, "name", "POSITIVE") == "POSITIVE"
    return not (positive and holds_nul(case.body))
