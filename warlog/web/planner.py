"""Path planning for the play page: where can this unit go, and by which path?

For games whose movement is the vocabulary `select {unit}` then one `move {hex}` per hex
(Assault on Belgium's movement and reaction), the planner asks the rules themselves:
it applies `select` and every legal `move` to copies of the state (a pure function, no
dice are rolled by movement) and searches for the path that leaves the most movement
points to each hex it can reach. The page then submits exactly those actions, one by one,
through the ledger like any other move.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.core.dice import fixed_dice
from rules.core.game import Game, IllegalAction
from warlog.render.words import action_text

State = dict[str, Any]


class PlanError(ValueError):
    """The unit cannot be moved, or the given path is not legal from the current state."""


@dataclass
class Reach:
    unit: str
    start: str
    path: list[str]  # the hexes already planned (from the request)
    left: int  # movement points left at the end of `path`
    hexes: dict[str, dict[str, Any]] = field(default_factory=dict)  # hex -> {left, path, tank_battle}

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "start": self.start, "path": self.path, "left": self.left, "reach": self.hexes}


def _mp(unit: str) -> Callable[[State], int]:
    return lambda s: int(s["units"][unit].get("mp") or 0)


def _apply(game: Game, state: State, seat: str, action: dict[str, Any]) -> State:
    if action not in game.legal_actions(state, seat):
        raise PlanError(f"not legal now: {action_text(game, action)}")
    try:
        return game.apply(state, seat, action, fixed_dice([])).state
    except IllegalAction as err:  # pragma: no cover - the legal list and apply agree
        raise PlanError(err.message) from None


def reach(game: Game, state: State, seat: str, unit: str, path: list[str],
          left: Callable[[State], int] | None = None, limit: int = 400) -> Reach:
    """Every hex `unit` can reach after `path`, with the best path to it (most MP left)."""
    score = left or _mp(unit)
    s = state
    if s.get("selected") != unit:
        s = _apply(game, s, seat, {"type": "select", "unit": unit})
    start = s["units"][unit]["hex"]
    for hx in path:
        if s.get("selected") != unit:
            raise PlanError("the unit has stopped: it cannot move further")
        s = _apply(game, s, seat, {"type": "move", "hex": hx})
    out = Reach(unit, start, list(path), score(s) if s.get("selected") == unit else 0)
    if s.get("selected") != unit:
        return out
    best: dict[str, int] = {s["units"][unit]["hex"]: score(s)}
    heap: list[tuple[int, int, str, list[str], State]] = [(-score(s), 0, s["units"][unit]["hex"], [], s)]
    tie = 0
    while heap and len(out.hexes) < limit:
        neg, _, here, steps, st = heapq.heappop(heap)
        if best.get(here, -1) > -neg or st.get("selected") != unit:
            continue
        moves = [a for a in game.legal_actions(st, seat) if a.get("type") == "move"]
        tanks = {a["hex"] for a in moves if a.get("tank_battle")}
        for a in moves:
            if a.get("tank_battle"):
                continue
            nxt = game.apply(st, seat, a, fixed_dice([])).state
            hx, mp = a["hex"], score(nxt)
            if hx in best and best[hx] >= mp:
                continue
            best[hx] = mp
            out.hexes[hx] = {"left": mp, "path": steps + [hx], "tank_battle": hx in tanks,
                             "stops": nxt.get("selected") != unit}
            tie += 1
            heapq.heappush(heap, (-mp, tie, hx, steps + [hx], nxt))
    out.hexes.pop(start, None)
    return out
