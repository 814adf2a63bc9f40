"""A plain-minded player for Assault on Belgium that plays only through the HTTP API, reading
`GET .../actions` and `GET .../state` like any client. Used by the end-to-end API test.

Germany drives its tanks down the shortest road to Brussels and Antwerp, declaring tank
battles, flies everything to the battles and always pursues; Belgium sets up by the book,
reacts next to battles and intercepts; both prefer to retreat rather than take an extra hit.
"""

from __future__ import annotations

from typing import Any

from rules import get_game
from rules.core.hexgrid import HexGrid
from tests.conftest import Player

PREFERENCE = ["standard_setup", "done_setup", "pursue", "attack", "resolve_battle", "retreat", "continue",
              "choose_fighter", "choose_bomber", "assign_hit", "take_hit", "no_pursuit"]


class Bot:
    def __init__(self, p: Player) -> None:
        self.p = p
        world = get_game("assault-on-belgium").world  # type: ignore[attr-defined]
        self.grid: HexGrid = world.grid
        self.objectives = [world.objectives["brussels"], world.objectives["antwerp"]]
        self.targets: dict[str, str] = {}
        self.features: set[str] = set()
        self.moves = 0

    def state(self) -> dict[str, Any]:
        return self.p.client.get(f"/api/v1/games/{self.p.id}/state").get_json()["state"]

    def choose(self, seat: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
        state = self.state()
        by_type: dict[str, list[dict[str, Any]]] = {}
        for a in actions:
            by_type.setdefault(a["type"], []).append(a)
        phase = state["phase"]
        if phase == "german_land_move":
            return self._german_move(state, by_type)
        if phase == "belgian_reaction":
            return self._reaction(state, by_type)
        if phase in ("german_air", "belgian_air"):
            return (by_type.get("fly") or by_type["end_air"])[0]
        for kind in PREFERENCE:
            if kind in by_type:
                return by_type[kind][0]
        return actions[0]

    def _german_move(self, state: dict[str, Any], by_type: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
        units = state["units"]
        sel = state.get("selected")
        if sel and "move" in by_type:
            target = self.targets[sel]
            here = units[sel]["hex"]
            best = min(by_type["move"], key=lambda a: (self.grid.distance(a["hex"], target),
                                                       0 if a.get("tank_battle") else 1))
            if self.grid.distance(best["hex"], target) < self.grid.distance(here, target):
                return best
        if sel and "end_unit_move" in by_type:
            return by_type["end_unit_move"][0]
        tanks = [a for a in by_type.get("select", []) if a["unit"].startswith("de-pz")]
        if tanks:
            unit = tanks[0]["unit"]
            self.targets[unit] = self.objectives[len(self.targets) % 2]
            return tanks[0]
        return by_type["end_movement"][0]

    def _reaction(self, state: dict[str, Any], by_type: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
        sel = state.get("selected")
        if sel and "end_unit_move" in by_type:
            self.features.add("reaction")
            return by_type["end_unit_move"][0]
        if sel and "move" in by_type:
            return by_type["move"][0]
        if "select" in by_type and "reaction" not in self.features:
            return by_type["select"][0]
        return by_type["end_reaction"][0]

    def play(self, limit: int = 2000) -> dict[str, Any]:
        for _ in range(limit):
            info = self.p.info()
            if info["status"] != "active":
                return info
            seat = info["active_seats"][0]
            listing = self.p.actions(seat)
            action = self.choose(seat, listing["actions"])
            res = self.p.play(seat, action)
            assert res["status"] == "resolved", (action, res)
            self.moves += 1
            for fact in res["facts"]:
                self.features.add(fact["kind"])
                if "tank battle" in fact["text"].lower():
                    self.features.add("tank_battle")
        raise AssertionError("the game did not end")
