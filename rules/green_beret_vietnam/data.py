"""Map, counters and tables as frozen values (GBV 2.2-2.4, 6.1, 7.0, 5.0, 12.1).

`build_world(map_doc, counters_doc, tables_doc)` checks the three JSON documents of
data/ and freezes them into a `World`; every rules function takes a World, so tests can build
small synthetic ones. `load_world()` reads the package's own data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from rules.core.hexgrid import HexGrid

TERRAINS = ("grassland", "rice_paddy", "coast", "village", "airfield", "jungle", "mountain", "jungle_mountain",
            "stream", "full_water")
FEATURES = ("road", "bridge", "destroyed_bridge")


class DataError(ValueError):
    """A data document does not fit its schema."""


@dataclass(frozen=True)
class Hex:
    label: str
    terrain: str
    features: tuple[str, ...]
    mp: int | None  # None: full water (prohibited without a blue-hex counter, 11.0)
    combat: int  # attacker's penalty when this hex is attacked (13.0 step 3)
    noise: int  # terrain noise (12.1)
    name: str | None

    @property
    def full_water(self) -> bool:
        return self.terrain == "full_water"

    @property
    def stream(self) -> bool:
        return self.terrain == "stream"

    @property
    def water(self) -> bool:
        return self.terrain in ("full_water", "stream")

    @property
    def road(self) -> bool:
        return "road" in self.features

    @property
    def bridge(self) -> bool:
        return "bridge" in self.features

    def title(self) -> str:
        return f"{self.name} ({self.label})" if self.name else self.label


@dataclass(frozen=True)
class Counter:
    """A Green Beret counter: team, leader or item (weapon / equipment)."""

    id: str
    kind: str
    name: str
    cls: str  # "team" | "leader" | "item"
    fp: int = 0
    cost: int = 0
    noise: int = 0
    move: str = "minus"  # "basic" | "plus" | "minus" (10.2)
    ma: int = 0  # basic MA, plus value, or minus value (<= 0)
    black: bool = False
    blue: bool = False
    carry: int = 0
    weapon: bool = False
    anti_tank: bool = False
    naval: bool = False
    water_only: bool = False
    free: bool = False

    @property
    def plus(self) -> bool:
        return self.move == "plus"

    @property
    def capacity(self) -> int:
        """9.1 teams 6, leaders 1; 9.2 a plus counter carries up to its noise value."""
        if self.cls in ("team", "leader"):
            return self.carry
        return max(self.noise, 0) if self.plus else 0


@dataclass(frozen=True)
class Enemy:
    id: str
    kind: str
    name: str
    fp: int
    ma: int
    circled: bool


@dataclass(frozen=True)
class Damage:
    id: str
    kind: str
    name: str
    fp: int = 0
    ma: int = 0
    noise: int = 0
    kills: str | None = None  # "commander" | "officer"


@dataclass(frozen=True)
class Mission:
    id: str
    name: str
    requires: tuple[tuple[str, ...], ...]  # AND of OR-groups of item kinds (6.1, AMBIG-13)
    placement: tuple[str, str, str]  # hexes for d6 1-2, 3-4, 5-6 (7.0)
    pp: int
    printed: str

    def hex_for(self, die: int) -> str:
        return self.placement[(die - 1) // 2]


@dataclass(frozen=True)
class Level:
    min: int
    max: int
    name: str
    jp: str


@dataclass(frozen=True, eq=False)
class World:
    map_id: str
    counters_id: str
    tables_id: str
    grid: HexGrid
    hexes: Mapping[str, Hex]
    adjacency: Mapping[str, tuple[str, ...]]
    counters: Mapping[str, Counter]  # every GB counter, catalogue order
    enemies: Mapping[str, Enemy]
    damage: Mapping[str, Damage]
    missions: Mapping[str, Mission]
    levels: tuple[Level, ...]
    camp_ids: tuple[str, ...]
    camp_cost: int
    start_pp: int
    coast_bonus_pp: int
    coast_bonus_within: int
    water_mp: int
    coastal: frozenset[str]  # hexes within coast_bonus_within of a coast hex (6.3)
    camp_hexes: tuple[str, ...]  # hexes a base camp may be placed in (3.1, AMBIG-3)
    pbr_hexes: tuple[str, ...]  # full-water hexes (a PBR camp, 3.1)

    def neighbours(self, label: str) -> tuple[str, ...]:
        return self.adjacency[label]

    def distance(self, a: str, b: str) -> int:
        return self.grid.distance(a, b)

    def title(self, label: str) -> str:
        h = self.hexes.get(label)
        return h.title() if h else label

    def level(self, net: int) -> Level:
        """5.0 table; a negative net total reads the 0 row (AMBIG-11)."""
        net = max(0, min(net, self.levels[-1].max))
        return next(lv for lv in self.levels if lv.min <= net <= lv.max)

    def kinds(self, cls: str) -> list[str]:
        out: list[str] = []
        for c in self.counters.values():
            if c.cls == cls and c.kind not in out:
                out.append(c.kind)
        return out


def _int(doc: Mapping[str, Any], key: str, where: str, default: int | None = None) -> int:
    v = doc.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool):
        raise DataError(f"{where}: {key} must be an integer")
    return v


def _hexes(map_doc: Mapping[str, Any], tables: Mapping[str, Any], grid: HexGrid) -> dict[str, Hex]:
    chart, feats = tables["terrain"], tables["features"]
    names = map_doc.get("names", {})
    out: dict[str, Hex] = {}
    for label in grid.labels():
        h = map_doc["hexes"].get(label)
        if h is None:
            raise DataError(f"hex {label} is missing from the map")
        t = h.get("terrain")
        if t not in TERRAINS or t not in chart:
            raise DataError(f"hex {label}: unknown terrain {t!r}")
        fs = tuple(sorted(h.get("features", [])))
        for f in fs:
            if f not in FEATURES:
                raise DataError(f"hex {label}: unknown feature {f!r}")
        if ("bridge" in fs or "destroyed_bridge" in fs) and t != "stream":
            raise DataError(f"hex {label}: a bridge stands on a stream hex (11.0)")
        parts = [chart[t]] + [feats[f] for f in fs]
        # 10.7: several terrain types -> the single highest movement cost; AMBIG-25: the highest
        # noise and the penalty most favourable to the defender (the most negative).
        mp = None if t == "full_water" else max(int(p["mp"]) for p in parts)
        noise = max(int(p["noise"]) for p in parts)
        combat = min(int(p["combat"]) for p in parts)
        out[label] = Hex(label, t, fs, mp, combat, noise, names.get(label))
    extra = sorted(set(map_doc["hexes"]) - set(out))
    if extra:
        raise DataError(f"hexes off the grid: {extra[:5]}")
    return out


def _counters(doc: Mapping[str, Any]) -> dict[str, Counter]:
    out: dict[str, Counter] = {}

    def add(c: Counter) -> None:
        if c.id in out:
            raise DataError(f"counter id {c.id} repeated")
        out[c.id] = c

    for t in doc["teams"]:
        for n in range(1, _int(t, "count", t["kind"]) + 1):
            add(Counter(f"{t['kind']}-{n}", t["kind"], f"{t['name']} {n}", "team", fp=_int(t, "fp", t["kind"]),
                        cost=_int(t, "cost", t["kind"]), noise=_int(t, "noise", t["kind"]), move="basic",
                        ma=_int(t, "ma", t["kind"]), carry=_int(t, "carry", t["kind"]), free=n <= t.get("free", 0)))
    for t in doc["leaders"]:
        for n in range(1, _int(t, "count", t["kind"]) + 1):
            add(Counter(f"{t['kind']}-{n}", t["kind"], f"{t['name']} {n}", "leader", fp=_int(t, "fp", t["kind"]),
                        cost=_int(t, "cost", t["kind"]), noise=_int(t, "noise", t["kind"]), move="plus",
                        ma=_int(t, "ma", t["kind"]), black=bool(t.get("black")), carry=_int(t, "carry", t["kind"]),
                        free=n <= t.get("free", 0)))
    for t in doc["items"]:
        k = t["kind"]
        move = t.get("move")
        if move not in ("plus", "minus"):
            raise DataError(f"item {k}: move must be plus or minus")
        ma = _int(t, "ma", k)
        if (move == "minus" and ma > 0) or (move == "plus" and ma < 1):
            raise DataError(f"item {k}: a {move} counter cannot have MA {ma}")
        count = _int(t, "count", k)
        for n in range(1, count + 1):
            add(Counter(f"{k}-{n}", k, t["name"] if count == 1 else f"{t['name']} {n}", "item",
                        fp=_int(t, "fp", k), cost=_int(t, "cost", k), noise=_int(t, "noise", k), move=move, ma=ma,
                        black=bool(t.get("black")), blue=bool(t.get("blue")), weapon=bool(t.get("weapon")),
                        anti_tank=bool(t.get("anti_tank")), naval=bool(t.get("naval")),
                        water_only=bool(t.get("water_only"))))
    return out


def build_world(map_doc: Mapping[str, Any], counters_doc: Mapping[str, Any], tables_doc: Mapping[str, Any]) -> World:
    try:
        g = map_doc["grid"]
        grid = HexGrid(g["first_col"], g["first_row"], g["cols"], g["rows"], g.get("shifted", "even"), g.get("digits", 2))
    except (KeyError, TypeError, ValueError) as err:
        raise DataError(f"map grid is malformed: {err}") from None
    hexes = _hexes(map_doc, tables_doc, grid)
    adjacency = {lab: tuple(grid.neighbours(lab)) for lab in hexes}
    counters = _counters(counters_doc)
    enemies: dict[str, Enemy] = {}
    for e in counters_doc["enemies"]:
        for n in range(1, _int(e, "count", e["kind"]) + 1):
            enemies[f"{e['kind']}-{n}"] = Enemy(f"{e['kind']}-{n}", e["kind"], e["name"], _int(e, "fp", e["kind"]),
                                                _int(e, "ma", e["kind"]), bool(e.get("circled")))
    damage: dict[str, Damage] = {}
    for d in counters_doc["damage"]:
        for n in range(1, _int(d, "count", d["kind"]) + 1):
            damage[f"{d['kind']}-{n}"] = Damage(f"{d['kind']}-{n}", d["kind"], d["name"], int(d.get("fp", 0)),
                                                int(d.get("ma", 0)), int(d.get("noise", 0)), d.get("kills"))
    if len(damage) != 16:
        raise DataError(f"there are 16 damage markers (2.3), not {len(damage)}")
    item_kinds = {c.kind for c in counters.values() if c.cls == "item"}
    missions: dict[str, Mission] = {}
    for m in tables_doc["missions"]:
        req = tuple(tuple(g) for g in m["requires"])
        for group in req:
            for k in group:
                if k not in item_kinds:
                    raise DataError(f"mission {m['name']} requires unknown item {k!r}")
        pl = (m["placement"]["1-2"], m["placement"]["3-4"], m["placement"]["5-6"])
        for h in pl:
            if h not in hexes:
                raise DataError(f"mission {m['name']} is placed off the map ({h})")
        missions[m["id"]] = Mission(m["id"], m["name"], req, pl, _int(m, "pp", m["id"]), m["printed_requirement"])
    if len(missions) != 30:
        raise DataError("the Mission Placement Table has 30 missions (7.0)")
    levels = tuple(Level(lv["min"], lv["max"], lv["name"], lv["jp"]) for lv in tables_doc["victory_levels"])
    camps = counters_doc["base_camps"]
    camp_ids = tuple(f"camp-{n}" for n in range(1, _int(camps, "count", "base_camps") + 1))
    bonus = tables_doc["coast_bonus"]
    within = _int(bonus, "within", "coast_bonus")
    coast = [h for h, x in hexes.items() if x.terrain == "coast"]
    coastal = frozenset(h for h in hexes if any(grid.distance(h, c) <= within for c in coast))
    # 3.1 with AMBIG-3: no camp on, or next to, a village, an airfield or a full-water hex.
    forbidden = {h for h, x in hexes.items() if x.terrain in ("village", "airfield", "full_water")}
    camp_hexes = tuple(h for h in hexes if h not in forbidden and not any(n in forbidden for n in adjacency[h]))
    pbr_hexes = tuple(h for h, x in hexes.items() if x.full_water)
    return World(str(map_doc.get("id", "")), str(counters_doc.get("id", "")), str(tables_doc.get("id", "")), grid,
                 hexes, adjacency, counters, enemies, damage, missions, levels, camp_ids, _int(camps, "cost", "camps"),
                 _int(tables_doc, "start_pp", "tables"), _int(bonus, "pp", "coast_bonus"), within,
                 _int(tables_doc, "water_mp", "tables"), coastal, camp_hexes, pbr_hexes)


def read_data(name: str) -> dict[str, Any]:
    text = resources.files("rules.green_beret_vietnam").joinpath("data", name).read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


@lru_cache(maxsize=1)
def load_world() -> World:
    return build_world(read_data("map.json"), read_data("counters.json"), read_data("tables.json"))
