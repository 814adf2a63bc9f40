"""A read-only scope over a state's units: inside it, who-is-where questions answer
from an index built on entry instead of scanning every unit. Shared by Vietnam Battles
(`board.occupancy`) and Lock 'n Load (`units.indexed`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any


@contextmanager
def read_only_scope(scope: ContextVar[Any], units: Any, where: Callable[[], Hashable],
                    build: Callable[[Any], tuple[Any, ...]], what: str) -> Iterator[None]:
    """Set `scope` to (units, *build(places on entry)) for the block; a nested scope over the same
    units is served by the outer one. For work that moves no unit: on leaving, every unit's place
    (`where()`) is compared with the one on entry, so a block that moved one fails loudly instead
    of having answered from a stale index."""
    cur = scope.get()
    if cur is not None and cur[0] is units:
        yield  # nested: the outer scope's index serves
        return
    before = where()
    token = scope.set((units, *build(before)))
    try:
        yield
    finally:
        scope.reset(token)
    if where() != before:
        raise RuntimeError(f"{what} went stale: a unit moved inside a read-only scope")
