"""Loading the shipped data (rules/vietnam_battles/data/, authored by the data engineer).

The map file follows the shared schema (data.py); counters.json and tables.json are read
through `data.world_from_json`. Only what the registered scenarios need is required.
"""

from __future__ import annotations

import hashlib
from typing import Any

from rules.vietnam_battles.data import DATA, UnitDef, World, _unit_from_json, load_json, world_from_json


def _digest(*names: str) -> str:
    h = hashlib.sha256()
    for n in names:
        p = DATA / n
        if p.exists():
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def load_units(doc: Any) -> dict[str, UnitDef]:
    units = doc.get("units", doc) if isinstance(doc, dict) else {u["id"]: u for u in doc}
    if isinstance(units, list):
        units = {u["id"]: u for u in units}
    return {uid: _unit_from_json(uid, u) for uid, u in units.items()}


def load_world(map_name: str = "snoopys-nose-map.json") -> World:
    m = load_json(map_name)
    units = load_units(load_json("counters.json"))  # {"units": {...}, "scenarios": {...}, "chits": {...}}
    tables = load_json("tables.json")
    w = world_from_json(m, units, tables)
    w.data_id = _digest(map_name, "counters.json", "tables.json")
    counters = load_json("counters.json")
    w.scenarios = dict(counters.get("scenarios", {}))
    return w
