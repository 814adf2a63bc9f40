"""Deep copies of plain JSON data (game states), for the rules' apply (the copy was a
tenth of a move's time in verify, then a fifth once the rules were faster)."""

from __future__ import annotations

from typing import Any

_LEAVES = frozenset({str, int, bool, float, type(None)})


def clone(x: Any) -> Any:
    """A deep copy of dicts and lists (their subclasses copied as dict and list); anything else
    is shared, as a JSON leaf may be. A dict or list holding only JSON leaves (a unit's record, a
    hand of cards) is copied in one C-level call; leaves are taken without a call each."""
    t = type(x)
    if t is dict:
        if _LEAVES.issuperset(map(type, x.values())):
            return x.copy()
        return {k: v if type(v) in _LEAVES else clone(v) for k, v in x.items()}
    if t is list:
        if _LEAVES.issuperset(map(type, x)):
            return x.copy()
        return [v if type(v) in _LEAVES else clone(v) for v in x]
    if t not in _LEAVES and isinstance(x, dict):
        return {k: v if type(v) in _LEAVES else clone(v) for k, v in x.items()}
    if t not in _LEAVES and isinstance(x, list):
        return [v if type(v) in _LEAVES else clone(v) for v in x]
    return x
