"""Deep copies of plain JSON data (game states), for the rules' apply (the copy was a
tenth of a move's time in verify, then a fifth once the rules were faster)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
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


# The one state an `apply` may change where it stands instead of on a copy (`applied_in_place`).
_IN_PLACE: ContextVar[Any] = ContextVar("applied_in_place", default=None)


@contextmanager
def applied_in_place(state: Any) -> Iterator[None]:
    """Inside the block, the first `working_copy(state)` of this very object returns it uncopied:
    the rules' `apply` then changes `state` itself. For a caller that keeps no other use of the
    state before the move (warlog.trust.verify: it folds the recorded patches on a state of its
    own, and judges again on a copy of that if the rules refuse the move, as a refusal may leave
    the state half changed). Any other copy, and any copy after that first, is a real one."""
    token = _IN_PLACE.set(state)
    try:
        yield
    finally:
        _IN_PLACE.reset(token)


def working_copy(state: Any) -> Any:
    """The state a move is applied to: `clone(state)`, or `state` itself once inside
    `applied_in_place(state)`."""
    if state is not None and _IN_PLACE.get() is state:
        _IN_PLACE.set(None)
        return state
    return clone(state)
