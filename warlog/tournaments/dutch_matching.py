"""The Dutch system's maximum-weight matchings on bbpPairings' matching computer (C.04.3).

caissify-pairings' Dutch engine pairs a round as bbpPairings does — one graph of the whole
field, bracket after bracket, each edge's weight packing every criterion of C.04.3 into one
integer of several hundred bits — but it solves each step (134 steps for one round of 256)
with networkx's pure-Python maximum-weight matching, the graph rebuilt from nothing each time:
146 s for a round of 255 entrants. bbpPairings itself keeps one matching and, when weights
change, re-solves only around the vertices whose edges changed. py4swiss (MIT) ships that C++
computer with arbitrary-width integer weights (`ComputerDutchOptimality`, `DynamicUint`).

`fast_pairing(engine)` gives one engine instance its own copy of the engine's
`_pair_iterative_mwm`, compiled from the library's source with two edits (checked to apply
exactly, else `FastPairingUnavailable`): its table of edge weights records which weights change,
and each step hands only those to the computer (`IncrementalMatcher.solve`) instead of building
a networkx graph. Nothing else of the engine changes, and nothing global is patched. The
maximum weight is the same number either way; the recorded pairings of the FIDE-endorsed
engine (tests/tournaments/test_fide_dutch.py) check that the matching chosen is the same too.
A player's colour preference is also computed once per round instead of at every look
(`_CachedPlayer`: the history does not change while a round is paired).
"""

from __future__ import annotations

import inspect
import textwrap
import types
from functools import cache, cached_property
from typing import Any

from py4swiss.dynamicuint import DynamicUint
from py4swiss.matching_computer import ComputerDutchOptimality

_PART = 32  # DynamicUint is a sequence of 32-bit parts
_MARGIN = 4  # spare bits above the largest weight (bbpPairings: a weight is at most the type's maximum >> 2)
_MASK = (1 << _PART) - 1


class FastPairingUnavailable(RuntimeError):
    """The installed caissify-pairings' source is not the one the edits were written for."""


class TrackedWeights(dict[tuple[int, int], int]):
    """The engine's table of edge weights, remembering each changed edge's weight at the last solve."""

    __slots__ = ("before",)

    def __init__(self) -> None:
        super().__init__()
        self.before: dict[tuple[int, int], int] = {}

    def __setitem__(self, key: tuple[int, int], value: int) -> None:
        if key not in self.before:
            self.before[key] = self.get(key, 0)
        super().__setitem__(key, value)


class IncrementalMatcher:
    """One maximum-weight matching kept between the steps of one round (not thread-safe)."""

    def __init__(self) -> None:
        self.computer: Any = None
        self.size = 0
        self.bits = 0
        self.zero: Any = None
        self.cache: dict[int, Any] = {}
        self.solves = 0

    def solve(self, weights: TrackedWeights, n: int) -> set[tuple[int, int]]:
        """The matching of greatest total weight over `weights` (a weight 0 is no edge). The
        engine's weights rank a complete pairing first: their top bits count the pairs."""
        self.solves += 1
        changed = {k: weights.get(k, 0) for k, old in weights.before.items() if weights.get(k, 0) != old}
        weights.before.clear()
        widest = max((w.bit_length() for w in changed.values()), default=1)
        if self.computer is None or n != self.size or widest + _MARGIN > self.bits:
            self._fresh(n, max(widest, self.bits - _PART))
            changed = {k: w for k, w in weights.items() if w > 0}
        touched: dict[int, int] = {}
        for u, v in changed:
            touched[u] = touched.get(u, 0) + 1
            touched[v] = touched.get(v, 0) + 1
        setter = self.computer.set_edge_weight
        uint = self._uint
        for (u, v), w in changed.items():
            # the computer re-solves around the first vertex named in each change: name few
            if touched[u] >= touched[v]:
                setter(u, v, uint(w))
            else:
                setter(v, u, uint(w))
        self.computer.compute_matching()
        mate = self.computer.get_matching()
        return {(u, v) for u, v in enumerate(mate) if u < v}

    # networkx's two names for the engine's one other matching (the odd field's bye, once a round)
    class Graph:
        def __init__(self) -> None:
            self.size = 0
            self.edges = TrackedWeights()

        def add_node(self, node: int) -> None:
            self.size = max(self.size, node + 1)

        def add_edge(self, u: int, v: int, weight: int) -> None:
            self.edges[(u, v) if u < v else (v, u)] = weight
            self.size = max(self.size, u + 1, v + 1)

    @staticmethod
    def max_weight_matching(graph: IncrementalMatcher.Graph, maxcardinality: bool = False) -> set[tuple[int, int]]:
        return IncrementalMatcher().solve(graph.edges, graph.size)

    def _fresh(self, size: int, widest: int) -> None:
        parts = -(-(widest + _MARGIN + _PART) // _PART)  # a spare part for weights that grow later
        self.bits = parts * _PART
        top = DynamicUint(1)
        top.shift_grow(self.bits - 1)
        self.zero = top & 0
        self.cache = {}
        self.computer = ComputerDutchOptimality(size, self._uint((1 << (self.bits - 2)) - 1))
        for _ in range(size):
            self.computer.add_vertex()
        self.size = size

    def _uint(self, value: int) -> Any:
        """`value` as a DynamicUint of the computer's width (zero words skipped: one shift for a run)."""
        out = self.cache.get(value)
        if out is not None:
            return out
        if value < 0:
            raise ValueError("a matching weight below zero")
        out = DynamicUint(self.zero)
        pending = 0
        started = False
        for shift in range((value.bit_length() - 1) // _PART * _PART if value else 0, -1, -_PART):
            word = (value >> shift) & _MASK
            pending += _PART
            if word:
                if started:
                    out <<= pending
                started = True
                out |= word
                pending = 0
        if started and pending:
            out <<= pending
        if len(self.cache) < 200_000:
            self.cache[value] = out
        return out


_EDITS = (
    ("        import networkx as nx\n", ""),
    ("        edge_weights: Dict[Tuple[int, int], int] = {}\n",
     "        edge_weights: Dict[Tuple[int, int], int] = nx.TrackedWeights()\n"),
    ("""            G = nx.Graph()
            for i in range(n):
                G.add_node(i)
            for (i, j), w in edge_weights.items():
                if w > 0:
                    G.add_edge(i, j, weight=w)
            m = nx.max_weight_matching(G, maxcardinality=True)
""", "            m = nx.matcher.solve(edge_weights, n)\n"),
)


@cache
def _pair_iterative_code(engine_class: Any) -> tuple[types.CodeType, dict[str, Any]]:
    """The code of `_pair_iterative_mwm` with the edits applied, and the module's globals."""
    func = engine_class._pair_iterative_mwm
    source = inspect.getsource(func)
    for old, new in _EDITS:
        if source.count(old) != 1:
            raise FastPairingUnavailable("caissify-pairings' _pair_iterative_mwm is not the expected source")
        source = source.replace(old, new)
    source = textwrap.dedent(source)
    scope: dict[str, Any] = dict(func.__globals__)
    namespace: dict[str, Any] = {}
    exec(compile(source, inspect.getsourcefile(func) or "<dutch>", "exec"), scope, namespace)  # noqa: S102
    return namespace[func.__name__].__code__, func.__globals__


class _Networkx:
    """What the edited method finds under the name `nx`: this round's matcher, the tracked table,
    and networkx's Graph/max_weight_matching for the bye's preliminary matching."""

    TrackedWeights = TrackedWeights
    Graph = IncrementalMatcher.Graph
    max_weight_matching = staticmethod(IncrementalMatcher.max_weight_matching)

    def __init__(self) -> None:
        self.matcher = IncrementalMatcher()


def fast_pairing(engine: Any) -> IncrementalMatcher:
    """Make `engine` (a caissify DutchEngine) solve its matchings on the incremental computer."""
    defining = next(c for c in type(engine).__mro__ if "_pair_iterative_mwm" in vars(c))
    code, module_globals = _pair_iterative_code(defining)
    nx = _Networkx()
    func = types.FunctionType(code, {**module_globals, "nx": nx}, "_pair_iterative_mwm")
    engine._pair_iterative_mwm = types.MethodType(func, engine)
    for player in engine._players:
        player.__class__ = _cached_player_class(player.__class__)
    can_pair = engine._can_pair  # B1, B5/B6 of a pair: fixed while the round is paired
    verdicts: dict[tuple[int, int], bool] = {}

    def _can_pair(p1: Any, p2: Any) -> bool:
        key = (p1.id, p2.id)
        verdict = verdicts.get(key)
        if verdict is None:
            verdict = verdicts[key] = can_pair(p1, p2)
        return verdict

    engine._can_pair = _can_pair
    return nx.matcher


@cache
def _cached_player_class(base: Any) -> type:
    """`base` (caissify's DutchPlayer) with its colour properties computed once: the engine reads
    them for every edge of every step, and a player's history does not change within a round."""

    def would_violate_absolute_color(self: Any, color: str) -> bool:
        memo = self.__dict__.setdefault("_violates", {})
        if color not in memo:
            memo[color] = base.would_violate_absolute_color(self, color)
        return bool(memo[color])

    names = ("color_diff", "last_color", "color_preference", "preference_strength")  # not floats: recorded as it pairs
    members: dict[str, Any] = {name: cached_property(getattr(base, name).fget) for name in names}
    members["would_violate_absolute_color"] = would_violate_absolute_color
    return type("_CachedPlayer", (base,), members)
