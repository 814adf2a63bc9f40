"""Static data: the map (hexes, hexsides, regions), the counters, the terrain chart and the
turn track. Loaded once from rules/vietnam_battles/data/ (authored by the data engineer, see
docs/games/vietnam-battles-data.md); tests build small `World`s by hand.

Map schema (shared with AoB): {"id", "grid": {cols, rows, first_col, first_row, digits,
shifted}, "hexes": {"0717": {"terrain", "road", "trail", ...}}, "hexsides": {"0717/0718":
{"river", "kind", "bridge", "road", "trail"}}, "regions": {...}}. Hexside keys are the two
labels sorted and joined by "/" (rules.core.hexgrid.hexside).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.core.hexgrid import HexGrid, hexside

DATA = Path(__file__).parent / "data"

# VB 5.2 / Part VIII G4: the movement costs are printed on the map, not in the text. These are the
# defaults used when tables.json gives none (authored; docs/games/vietnam-battles.md).
DEFAULT_TERRAIN: dict[str, dict[str, Any]] = {
    "clear": {"mp": 1, "row": "clear"},
    "rice_paddy": {"mp": 1, "row": "clear"},
    "jungle": {"mp": 2, "row": "jungle"},
    "swamp": {"mp": 2, "row": "jungle"},
    "village": {"mp": 1, "row": "village"},
    "plantation": {"mp": 1, "row": "village"},
    "town": {"mp": 1, "row": "hill"},
    "hill": {"mp": 2, "row": "hill"},
    "cp": {"mp": 1, "row": "hill"},
    "all_water": {"mp": 0, "row": "clear", "prohibited": True},
}
DEFAULT_RIVER_MP = 1


@dataclass(frozen=True)
class UnitDef:
    """A counter (VB 2.3, 3.0): attack-defense-MA on each side; `steps` 1 or 2."""

    id: str
    name: str
    side: str  # "us" | "vc"
    nationality: str  # "US" | "ARVN" | "VC"
    attack: int
    defense: int
    ma: int
    r_attack: int
    r_defense: int
    r_ma: int
    steps: int = 2
    mech: bool = False
    monitor: bool = False
    engineer: bool = False
    special_forces: bool = False

    def values(self, reduced: bool) -> tuple[int, int, int]:
        return (self.r_attack, self.r_defense, self.r_ma) if reduced else (self.attack, self.defense, self.ma)


@dataclass
class World:
    map_id: str
    grid: HexGrid
    hexes: dict[str, dict[str, Any]]
    hexsides: dict[str, dict[str, Any]]
    units: dict[str, UnitDef]
    terrain: dict[str, dict[str, Any]] = field(default_factory=lambda: dict(DEFAULT_TERRAIN))
    river_mp: int = DEFAULT_RIVER_MP
    gtrt: dict[str, list[list[int]]] = field(default_factory=dict)  # scenario -> [[us, vc], ...] per turn
    pools: dict[str, list[int]] = field(default_factory=dict)  # side -> marker values (VB 8.0)
    slicks: int = 0
    tangos: int = 0
    regions: dict[str, list[str]] = field(default_factory=dict)
    data_id: str = "fixture"
    scenarios: dict[str, Any] = field(default_factory=dict)
    edges: dict[str, list[str]] = field(default_factory=dict)  # the map's edge hexes by side  # counters.json "scenarios": set-ups, reinforcements

    # -- map queries ------------------------------------------------------------------------
    # A land position is a hex label, or in a split Mekong hex "HHHH:portion" (VB 19.0; the map's
    # `portions` say which neighbouring hexes or portions each land portion touches).
    def neighbours(self, h: str) -> list[str]:
        """The map hexes around h's hex, computed once per hex (hex geometry precomputed per map)."""
        cache = self.__dict__.setdefault("_hex_nbrs", {})
        got = cache.get(h)
        if got is None:
            got = cache[h] = tuple(n for n in self.grid.neighbours(hexpart(h)) if n in self.hexes)
        return list(got)

    def land_nbrs(self, node: str) -> list[str]:
        """VB 19.0: the land positions adjacent to `node`; never across the Mekong portion of a hex."""
        return list(self.adjacent(node))

    def adjacent(self, node: str) -> tuple[str, ...]:
        """land_nbrs, worked out once per position and shared read-only (the hot paths' form)."""
        cache = self.__dict__.setdefault("_nbrs", {})
        got = cache.get(node)
        if got is not None:
            return got  # type: ignore[no-any-return]
        if ":" in node:
            h, p = node.split(":")
            out = list(self.hexes[h]["portions"][p])
        else:
            out = []
            for n in self.neighbours(node):
                por = self.hexes[n].get("portions") if self.hexes[n].get("mekong") == "split" else None
                if por:
                    out += [f"{n}:{p}" for p, lst in sorted(por.items()) if node in lst]
                else:
                    out.append(n)
        got = cache[node] = tuple(sorted(out))
        return got

    def side_key(self, a: str, b: str) -> str:
        """The hexside key between the hexes of positions a and b (rules.core.hexgrid.hexside), once per pair."""
        cache = self.__dict__.setdefault("_side_keys", {})
        got = cache.get((a, b))
        if got is None:
            got = cache[a, b] = hexside(hexpart(a), hexpart(b))
        return got  # type: ignore[no-any-return]

    def tunnels(self) -> frozenset[str]:
        """The tunnel hexes (VB 22.0: the map's `tunnels` region)."""
        got = self.__dict__.get("_tunnels")
        if got is None:
            got = self.__dict__["_tunnels"] = frozenset(self.regions.get("tunnels", []))
        return got

    def portions(self, h: str) -> list[str]:
        por = self.hexes[h].get("portions") if self.hexes[h].get("mekong") == "split" else None
        return sorted(por) if por else []

    def is_node(self, node: str) -> bool:
        h, _, p = node.partition(":")
        if h not in self.hexes:
            return False
        return p in self.portions(h) if p else not self.portions(h)

    def distance(self, a: str, b: str) -> int:
        return self.grid.distance(hexpart(a), hexpart(b))  # HexGrid keeps each label's axial coordinates

    def side(self, a: str, b: str) -> dict[str, Any]:
        """The hexside record between the hexes of a and b ({} if the map has none): one lookup per pair."""
        cache = self.__dict__.setdefault("_sides", {})
        try:
            got = cache[a, b]
        except KeyError:
            got = cache[a, b] = self.hexsides.get(hexside(hexpart(a), hexpart(b)))
        return {} if got is None else got  # a fresh {} as before, never one shared empty record

    def terrain_of(self, h: str) -> str:
        return str(self.hexes[hexpart(h)].get("terrain", "clear"))

    def terrain_info(self, h: str) -> dict[str, Any]:
        cache = self.__dict__.setdefault("_tinfo", {})
        got = cache.get(h)
        if got is None:
            t = self.terrain_of(h)
            got = cache[h] = self.terrain.get(t) or DEFAULT_TERRAIN.get(t) or {"mp": 1, "row": "clear"}
        return got  # type: ignore[no-any-return]

    def prohibited(self, h: str) -> bool:
        """VB 5.1, 19.0: all-water (Mekong) hexes are closed to land units; so is a split hex taken whole."""
        cache = self.__dict__.setdefault("_prohibited", {})
        got = cache.get(h)
        if got is None:
            got = cache[h] = bool(self.terrain_info(h).get("prohibited")) or (
                ":" not in h and bool(self.portions(hexpart(h))))
        return got  # type: ignore[no-any-return]

    def fortified(self, h: str) -> bool:
        """VB 7.5 [Generic]: a fortification hex (the shipped maps have none: Part VIII)."""
        return "fortification" in ((self.hexes.get(hexpart(h)) or {}).get("features") or ())  # a hexside: no

    def minefield(self, a: str, b: str) -> bool:
        """VB 5.1.2 [Generic]: a minefield hexside (none on the shipped maps)."""
        return bool(self.side(a, b).get("minefield"))

    def is_river(self, a: str, b: str) -> bool:
        s = self.side(a, b)
        return bool(s.get("river")) or s.get("kind") in ("river", "stream", "canal")

    def bridged(self, a: str, b: str, down: Any = ()) -> bool:
        """A drawn bridge (VB 2.1) not demolished (VB 18.1: `down` lists demolished bridge hexsides)."""
        return bool(self.side(a, b).get("bridge")) and hexside(hexpart(a), hexpart(b)) not in down

    def road_along(self, a: str, b: str, down: Any = ()) -> bool:
        """VB 5.2.1, A-22: the road must cross this hexside (a river without a bridge cuts it)."""
        s = self.side(a, b)
        return bool(s.get("road")) and (not self.is_river(a, b) or self.bridged(a, b, down))

    def trail_along(self, a: str, b: str, down: Any = (), eng: str | None = None) -> bool:
        """VB 5.2.2; VB 18.3: the trail rate also across an engineer-bridged river hexside."""
        s = self.side(a, b)
        return bool(s.get("trail")) and (not self.is_river(a, b) or self.bridged(a, b, down)
                                         or eng == hexside(hexpart(a), hexpart(b)))


def hexpart(node: str) -> str:
    """The map hex of a land position ("0510:north" -> "0510")."""
    return node.partition(":")[0]


def _unit_from_json(uid: str, d: dict[str, Any]) -> UnitDef:
    red = d.get("reduced")
    steps = int(d.get("steps", 2 if red else 1))
    a, df, ma = int(d["attack"]), int(d["defense"]), int(d["ma"])
    ra, rd, rm = (int(red["attack"]), int(red["defense"]), int(red["ma"])) if red else (a, df, ma)
    side = str(d.get("side", "us")).lower()
    return UnitDef(uid, str(d.get("name", uid)), "vc" if side == "vc" else "us",
                   str(d.get("nationality", "VC" if side == "vc" else "US")), a, df, ma, ra, rd, rm, steps,
                   bool(d.get("mech", d.get("mechanized", False))), bool(d.get("monitor", False)),
                   bool(d.get("engineer", False)), bool(d.get("special_forces", False)))


def world_from_json(map_doc: dict[str, Any], units: dict[str, UnitDef], tables: dict[str, Any] | None = None) -> World:
    g = map_doc["grid"]
    grid = HexGrid(int(g["first_col"]), int(g["first_row"]), int(g["cols"]), int(g["rows"]),
                   str(g.get("shifted", "even")), int(g.get("digits", 2)))
    w = World(str(map_doc.get("id", "map")), grid, dict(map_doc["hexes"]), dict(map_doc.get("hexsides", {})), units,
              regions={k: list(v) for k, v in map_doc.get("regions", {}).items()},
              edges={k: list(v) for k, v in map_doc.get("edges", {}).items()})
    t = tables or {}
    terr = t.get("terrain_effects") or t.get("terrain")
    if isinstance(terr, dict):
        merged = dict(DEFAULT_TERRAIN)
        for k, v in terr.items():
            if isinstance(v, dict):
                merged[k] = {**DEFAULT_TERRAIN.get(k, {}), **v}
        w.terrain = merged
    if isinstance(t.get("river_mp"), int):
        w.river_mp = int(t["river_mp"])
    if isinstance(t.get("gtrt"), dict):
        w.gtrt = {k: [list(map(int, x)) for x in v] for k, v in t["gtrt"].items()}
    if isinstance(t.get("pools"), dict):
        w.pools = {k.lower(): [int(x) for x in v] for k, v in t["pools"].items()}
    w.slicks, w.tangos = int(t.get("slicks", 0)), int(t.get("tangos", 0))
    return w


def load_json(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def data_present() -> bool:
    return all((DATA / n).exists() for n in ("snoopys-nose-map.json", "counters.json", "tables.json"))
