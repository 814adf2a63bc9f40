"""Schemathesis hooks for this API (loaded by SCHEMATHESIS_HOOKS; tests/support/schemathesis.toml
has the settings). OpenAPI 3.0 has no `propertyNames`: the document cannot say that a key of a
free-form object (a game's options, a fork's JSON Patch, an ignored extra field) must not hold the
NUL character, which the server refuses everywhere (warlog.boundary). Bodies with such a key are
left out; a NUL in a value the document does forbid (its patterns), so those are still sent."""

from __future__ import annotations

from typing import Any

import schemathesis


def nul_in_a_key(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if any(isinstance(k, str) and "\x00" in k for k in item):
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


@schemathesis.hook
def filter_body(ctx: Any, body: Any) -> bool:
    return not nul_in_a_key(body)
