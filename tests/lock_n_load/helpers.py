"""Small hand-made worlds for the Lock 'n Load tests (the shipped TEC and counters, a tiny board)."""

from __future__ import annotations

from typing import Any

from rules.lock_n_load.data import World, load_json, world_from_docs

CODES = {"o": "open", "p": "paddy", "b": "brush", "g": "grass", "l": "light_jungle", "d": "dense_jungle",
         "w": "wooden_building", "h": "bamboo_hut"}


def tiny(rows: list[str], levels: dict[str, int] | None = None, slivers: list[dict[str, Any]] | None = None,
         board: str = "9") -> World:
    """A board `board` whose terrain rows are given one letter per hex (columns A.., rows 1..)."""
    real = load_json("board1.json")
    hexes = {}
    for r, line in enumerate(rows, start=1):
        for c, ch in enumerate(line):
            h = f"{board}{chr(ord('A') + c)}{r}"
            hexes[h] = {"terrain": CODES[ch], "level": (levels or {}).get(h, 0)}
    doc = {"board": board, "cols": len(rows[0]), "rows": len(rows), "hexes": hexes, "hexsides": {},
           "slivers": slivers or [], "tec": real["tec"]}
    return world_from_docs(doc, load_json("counters.json"))


def blank_state(w: World, units: dict[str, tuple[str, str, str | None]],
                sws: dict[str, tuple[str, str]] | None = None, **over: Any) -> dict[str, Any]:
    """An operations-phase state of turn 1 holding exactly `units` {id: (side, kind, hex)} and `sws`
    {id: (kind, holder)}; `over` replaces top-level keys."""
    from rules.lock_n_load.events import new_unit

    s: dict[str, Any] = {
        "game": "lock-n-load", "version": "1", "scenario": "test", "data_id": w.data_id,
        "options": {"tall_obstacles_block": False}, "turn": 1, "turns": 6, "phase": "operations",
        "initiative": "us", "rally_side": "us", "rally_done": ["us", "vc"], "player": "us", "passes": 0,
        "units": {u: new_unit(side, kind, at) for u, (side, kind, at) in units.items()}, "sws": {}, "spotted": [],
        "smoke": {}, "melee": {}, "impulse": None, "decision": None, "spot": None, "spot_used": False,
        "events": {}, "secret": {"events": {}, "effects": {}}, "objectives": [], "cache": False, "pending": [], "drops": [],
        "eliminated": [], "orders": {"us": {}, "vc": {}}, "stats": {"opp_fire_prompts": 0, "order_fires": 0},
        "result": None,
    }
    for x, (kind, holder) in (sws or {}).items():
        s["sws"][x] = {"kind": kind, "side": s["units"][holder]["side"], "holder": holder, "at": None}
        s["units"][holder]["sws"].append(x)
    s.update(over)
    if s["version"] not in ("1", "2", "3"):
        s.setdefault("standing", {})  # rules version 4: the sides' standing answers
    return s


def texts(facts: list[Any]) -> list[str]:
    return [f.text for f in facts]
