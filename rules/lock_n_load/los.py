"""Line of sight (LnL 10.0, 10.3, T3, T5): one pure function, used by the rules and the renderer.

`line_of_sight(world, a, b, smoke)` traces the line between the two hex centres (geometry.line_pair)
and reports every obstacle it meets — which hex, hexside or sliver, what terrain, whether it blocks
or degrades, and the rule. It is reciprocal: both directions are computed from the same canonical
order, so `line_of_sight(w, a, b) == line_of_sight(w, b, a)` in everything but the order of a and b.

Readings (docs/games/lock-n-load.md, digest A4, A26):
* terrain is the hex's terrain at its centre dot (1.4), plus the sliver table (10.1/10.3);
* endpoints' own terrain never blocks or degrades (10.3);
* a line running along a hexside (the two nudged lines differ) is hindered only as much as the less
  hindering of the two hexes, except smoke, which blocks a LOS "tracing along its edge" (T3);
* elevation compares hex ground levels: ground higher than both ends blocks; terrain lower than
  both does not count; terrain at the higher end's level blocks/degrades as on the flat; between
  the two levels it is seen over, except that a level-1/2 obstacle (or rising ground) blinds the one
  hex directly behind it, the lower end's neighbour (10.3, A26); `tall_obstacles_block` (option)
  also blocks when the obstacle's top (ground + obstacle height) rises above the higher end;
* each degrading hex, traced hexside or sliver is -1 (T5); a third one blocks (T5, A4).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rules.lock_n_load.data import World
from rules.lock_n_load.geometry import hexside

NONE, DEGRADES, BLOCKS = 0, 1, 2
EFFECT_NAME = {DEGRADES: "degrades", BLOCKS: "blocks"}
MAX_DEGRADING = 2  # T5: "maximum 2 - the 3rd degrading hex blocks LOS" (A4)


@dataclass(frozen=True)
class Obstacle:
    """Something the LOS meets: `where` a hex id, a hexside "1C3/1C4" or a sliver id."""

    where: str
    what: str
    effect: str  # "blocks" | "degrades"
    rule: str
    why: str

    def to_json(self) -> dict[str, str]:
        return {"where": self.where, "what": self.what, "effect": self.effect, "rule": self.rule, "why": self.why}


@dataclass(frozen=True)
class Los:
    a: str
    b: str
    blocked: bool
    obstacles: tuple[Obstacle, ...]
    hexes: tuple[str, ...]  # every hex the line passes through or along, a to b (for drawing)
    traced: tuple[str, ...] = field(default=())  # hexsides the line runs along

    @property
    def degrading(self) -> int:
        return sum(1 for o in self.obstacles if o.effect == "degrades")

    @property
    def drm(self) -> int:
        """T5: -1 per degrading hex (only meaningful when not blocked)."""
        return -self.degrading

    @property
    def blocked_by(self) -> Obstacle | None:
        return next((o for o in self.obstacles if o.effect == "blocks"), None)

    def key(self) -> tuple[Any, ...]:
        """Everything but the direction: equal for (a, b) and (b, a)."""
        return (frozenset((self.a, self.b)), self.blocked, frozenset(self.obstacles), frozenset(self.hexes),
                frozenset(self.traced))

    def to_json(self) -> dict[str, Any]:
        return {"from": self.a, "to": self.b, "blocked": self.blocked, "degrading": self.degrading, "drm": self.drm,
                "obstacles": [o.to_json() for o in self.obstacles], "hexes": list(self.hexes),
                "traced": list(self.traced)}


def line_of_sight(world: World, a: str, b: str, smoke: Iterable[str] = (), *,
                  tall_obstacles_block: bool = False) -> Los:
    """The LOS between the centres of hexes a and b (LnL 10.0), reciprocal and deterministic."""
    board = world.board
    board.parse(a)
    board.parse(b)
    smoke_set = frozenset(smoke)
    first, second = (a, b) if _order(board, a) <= _order(board, b) else (b, a)
    steps, hexes_met, slivers = _trace(world, first, second)
    la, lb = world.level(first), world.level(second)
    lo, hi = min(la, lb), max(la, lb)
    low_ends = [h for h, lv in ((first, la), (second, lb)) if lv == lo] if lo < hi else []
    obstacles: list[Obstacle] = []
    traced: list[str] = []
    hexes = list(hexes_met)
    ctx = _Ctx(world, lo, hi, low_ends, smoke_set, tall_obstacles_block)
    for p, m in steps[1:-1]:
        if p is None or m is None:  # off the board: cannot happen between two on-board hexes
            continue
        if p == m:
            ob = ctx.hex_obstacle(p, p)
        else:
            side = hexside(p, m)
            traced.append(side)
            ob = ctx.traced_obstacle(p, m, side)
        if ob is not None:
            obstacles.append(ob)
    for sl in slivers:
        ob = ctx.sliver_obstacle(sl)
        if ob is not None:
            obstacles.append(ob)
    degr = [o for o in obstacles if o.effect == "degrades"]
    if len(degr) > MAX_DEGRADING:
        third = degr[MAX_DEGRADING]
        obstacles.append(Obstacle(third.where, third.what, "blocks", "LnL 10.3, T5",
                                  f"a third degrading hex ({third.where}) blocks the LOS"))
    blocked = any(o.effect == "blocks" for o in obstacles)
    if (a, b) != (first, second):
        hexes.reverse()
    return Los(a, b, blocked, tuple(obstacles), tuple(hexes), tuple(traced))


Steps = list[tuple[str | None, str | None]]


def _trace(world: World, first: str, second: str) -> tuple[Steps, tuple[str, ...], list[dict[str, Any]]]:
    """The smoke-free geometry of the line first-second (10.0): its steps (geometry.line_pair), the
    hexes met in order, the slivers met; worked out once per pair and board, shared read-only."""
    key = ("trace", first, second)
    hit = world.cache.get(key)
    if hit is None:
        steps = world.board.line_pair(first, second)
        hexes: list[str] = []
        for p, m in steps:
            for h in (p, m):
                if h is not None and h not in hexes:
                    hexes.append(h)
        hit = world.cache[key] = (steps, tuple(hexes), _slivers_met(world, steps, first, second))
    return hit


def cached_los(world: World, a: str, b: str, smoke: Iterable[str] = (), *, tall_obstacles_block: bool = False) -> Los:
    """`line_of_sight`, memoised on the world (the board never changes). Smoke counts only in the
    hexes the line meets (7.0, T3), so only those are part of the key: smoke laid elsewhere on the
    map leaves the answer, and the memo, as they were."""
    smoke_met = frozenset(smoke)
    if smoke_met:
        smoke_met &= _met(world, a, b)
    key = ("los", a, b, smoke_met, tall_obstacles_block)
    hit = world.cache.get(key)
    if hit is None:
        hit = world.cache[key] = line_of_sight(world, a, b, smoke_met, tall_obstacles_block=tall_obstacles_block)
    return hit


def _met(world: World, a: str, b: str) -> frozenset[str]:
    """Every hex the line a-b meets (both nudged lines), as line_of_sight traces it."""
    key = ("met", a, b)
    hit = world.cache.get(key)
    if hit is None:
        board = world.board
        board.parse(a)
        board.parse(b)
        first, second = (a, b) if _order(board, a) <= _order(board, b) else (b, a)
        hit = world.cache[key] = frozenset(_trace(world, first, second)[1])
    return hit


def _order(board: Any, h: str) -> tuple[int, int]:
    col, row = board.parse(h)
    return col, row


def _slivers_met(world: World, steps: list[tuple[str | None, str | None]], a: str, b: str) -> list[dict[str, Any]]:
    """Slivers whose hexside the line crosses (both nudged lines cross it) or runs along (10.1, 10.3)."""
    if not world.slivers:
        return []
    plus = [p for p, _ in steps]
    minus = [m for _, m in steps]
    crossed_p = {hexside(x, y) for x, y in zip(plus, plus[1:]) if x and y and x != y}
    crossed_m = {hexside(x, y) for x, y in zip(minus, minus[1:]) if x and y and x != y}
    along = {hexside(p, m) for p, m in steps if p and m and p != m}
    met = (crossed_p & crossed_m) | along
    out = []
    for sl in world.slivers:
        if sl["hexside"] not in met:
            continue
        if a in sl["hexside"].split("/") or b in sl["hexside"].split("/"):
            continue  # 10.1 sliver exception: a fragment of the firer's (or target's) own hex
        out.append(sl)
    return out


@dataclass(frozen=True)
class _Ctx:
    world: World
    lo: int
    hi: int
    low_ends: list[str]
    smoke: frozenset[str]
    tall: bool

    def effect(self, where: str, terrain: str, kind: str, height: int, g: int,
               blind_from: str | None) -> tuple[int, str, str]:
        """(effect, rule, why) of terrain `kind`/`height` standing on ground level g (10.3)."""
        lo, hi = self.lo, self.hi
        if g > hi:
            return BLOCKS, "LnL 10.3", f"ground at level {g} is higher than both ends"
        if g < lo:
            if self.tall and kind == "blocking" and g + height > hi:
                return BLOCKS, "LnL 10.3 (A26 option)", f"{terrain} rises to level {g + height}"
            return NONE, "", ""
        if g == hi:
            at = "on the same level as both ends" if lo == hi else f"at level {g}, the higher end's level"
            if kind == "blocking":
                return BLOCKS, "LnL 10.3", f"{terrain} ({kind}) {at}"
            if kind == "degrading":
                return DEGRADES, "LnL 10.3, T5", f"{terrain} ({kind}) {at}"
            return NONE, "", ""
        # lo <= g < hi: the higher end sees over it, except the one hex directly behind (blind hex).
        rises = g > lo or (kind != "open" and height >= 1)
        if rises and blind_from is not None and any(self.world.board.adjacent(blind_from, e) for e in self.low_ends):
            return BLOCKS, "LnL 10.3", f"{terrain} at {blind_from} hides the hex directly behind it (blind hex)"
        if self.tall and kind == "blocking" and g + height > hi:
            return BLOCKS, "LnL 10.3 (A26 option)", f"{terrain} rises to level {g + height}"
        return NONE, "", ""

    def hex_obstacle(self, h: str, where: str) -> Obstacle | None:
        w = self.world
        t = w.terrain(h)
        kind, height = w.kind_of(t), w.height(t)
        if h in self.smoke:
            t, kind, height = f"smoke in {t}", "blocking", max(height, 1)
        eff, rule, why = self.effect(where, t, kind, height, w.level(h), h)
        if eff == NONE:
            return None
        if h in self.smoke and eff == BLOCKS:
            rule = "LnL 7.0, T3"
        return Obstacle(where, t, EFFECT_NAME[eff], rule, why)

    def traced_obstacle(self, p: str, m: str, side: str) -> Obstacle | None:
        if p in self.smoke or m in self.smoke:
            s = p if p in self.smoke else m
            return Obstacle(side, "smoke", "blocks", "LnL 7.0, T3", f"the LOS runs along the edge of smoke in {s}")
        op, om = self.hex_obstacle(p, side), self.hex_obstacle(m, side)
        if op is None or om is None:
            return None  # the less hindering side is clear
        lesser = op if EFFECT_RANK[op.effect] <= EFFECT_RANK[om.effect] else om
        return Obstacle(side, lesser.what, lesser.effect, lesser.rule,
                        f"along the hexside {side}: {op.what} and {om.what} on both sides")

    def sliver_obstacle(self, sl: dict[str, Any]) -> Obstacle | None:
        w = self.world
        t = sl["terrain"]
        eff, rule, why = self.effect(sl["id"], t, w.kind_of(t), w.height(t), w.level(sl["from"]), None)
        if eff == NONE:
            return None
        return Obstacle(sl["id"], f"{t} sliver on {sl['hexside']}", EFFECT_NAME[eff], "LnL 10.1, 10.3",
                        f"a fragment of {t} from {sl['from']} across {sl['hexside']}")


EFFECT_RANK = {"degrades": 1, "blocks": 2}
