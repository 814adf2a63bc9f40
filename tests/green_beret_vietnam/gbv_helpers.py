"""Hand-built states for Green Beret: Vietnam tests.

`world(terrain)` is the real counter mix and tables over a synthetic 26 x 36 map, all grassland
except the hexes given ({"1010": "jungle", "1011": ("stream", ["road", "bridge"])}); `state(g)`
is a mid-game state with nothing on the map, in the phase asked for; `put`, `enemy`, `camp`
place things.
"""

from __future__ import annotations

from typing import Any

from rules.core.dice import RecordingDice, fixed_dice
from rules.green_beret_vietnam.data import World, build_world, read_data
from rules.green_beret_vietnam.game import GreenBeretVietnam

_REAL: GreenBeretVietnam | None = None


def real() -> GreenBeretVietnam:
    global _REAL
    if _REAL is None:
        _REAL = GreenBeretVietnam()
    return _REAL


def world(terrain: dict[str, Any] | None = None) -> World:
    hexes: dict[str, Any] = {}
    for c in range(1, 27):
        for r in range(1, 37):
            hexes[f"{c:02d}{r:02d}"] = {"terrain": "grassland"}
    for h, t in (terrain or {}).items():
        if isinstance(t, tuple):
            hexes[h] = {"terrain": t[0], "features": list(t[1])}
        else:
            hexes[h] = {"terrain": t}
    doc = {"id": "synthetic", "grid": {"first_col": 1, "first_row": 1, "cols": 26, "rows": 36, "shifted": "even"},
           "hexes": hexes}
    return build_world(doc, read_data("counters.json"), read_data("tables.json"))


def game(terrain: dict[str, Any] | None = None) -> GreenBeretVietnam:
    return GreenBeretVietnam(world(terrain))


def dice(*values: int) -> RecordingDice:
    return fixed_dice(list(values))


def state(g: GreenBeretVietnam, phase: str = "movement", **options: Any) -> dict[str, Any]:
    """A state after set-up with nothing on the map (the PP markers are the last two enemies)."""
    n = len(g.world.enemies)
    s = g.setup("campaign", options, dice(n, n - 1))
    s.update(phase=phase, turn=3)
    if phase == "enemy":
        s["enemy_step"] = "resolve"
    return s


def put(s: dict[str, Any], cid: str, h: str, **kw: Any) -> None:
    s["gb"][cid].update(status="map", hex=h, **kw)


def enemy(s: dict[str, Any], e: str, h: str) -> None:
    s["enemy_pool"].remove(e)
    s["enemies"][e] = {"hex": h, "from": h, "mp": 0, "moved": False, "suppressed": False, "target": None,
                       "next": None, "path": []}
    s["enemy_order"].append(e)


def camp(s: dict[str, Any], h: str, pbr: bool = False) -> str:
    k = next(k for k, x in s["camps"].items() if x["status"] == "supply")
    s["camps"][k].update(status="map", hex=h, pbr=pbr)
    return k


def mission(s: dict[str, Any], w: World, name: str, band: int = 0) -> str:
    m = next(m for m in w.missions.values() if m.name == name)
    s["mission_pool"].remove(m.id)
    s["mission"] = {"id": m.id, "hex": m.placement[band]}
    return m.placement[band]


def texts(facts: list[Any]) -> str:
    return "\n".join(f.text for f in facts)
