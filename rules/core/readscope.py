"""A read-only scope over a state's units: inside it, who-is-where questions answer
from an index built on entry instead of scanning every unit. Shared by Vietnam Battles
(`board.occupancy`) and Lock 'n Load (`units.indexed`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from contextvars import ContextVar, Token
from types import TracebackType
from typing import Any


class read_only_scope:  # noqa: N801 (used as a function: `with read_only_scope(...)`)
    """Set `scope` to (units, *build(places on entry)) for the block; a nested scope over the same
    units is served by the outer one. For work that moves no unit: on leaving, every unit's place
    (`where()`) is compared with the one on entry, so a block that moved one fails loudly instead
    of having answered from a stale index. (A class, not a generator: the rules open many of
    these per move, and a generator's context manager costs several times as much.)"""

    __slots__ = ("_scope", "_units", "_where", "_build", "_what", "_before", "_token")

    def __init__(self, scope: ContextVar[Any], units: Any, where: Callable[[], Hashable],
                 build: Callable[[Any], tuple[Any, ...]], what: str) -> None:
        self._scope, self._units, self._where, self._build, self._what = scope, units, where, build, what
        self._before: Hashable = None
        self._token: Token[Any] | None = None

    def __enter__(self) -> None:
        cur = self._scope.get()
        if cur is not None and cur[0] is self._units:
            return  # nested: the outer scope's index serves
        self._before = before = self._where()
        self._token = self._scope.set((self._units, *self._build(before)))

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._token is None:
            return
        self._scope.reset(self._token)
        self._token = None
        if kind is None and self._where() != self._before:
            raise RuntimeError(f"{self._what} went stale: a unit moved inside a read-only scope")
