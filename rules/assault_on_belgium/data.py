"""Map and order of battle as frozen values (AoB 23.1-23.3).

`build_world(map_doc, oob_doc)` turns the two JSON documents (the schemas of
data/map.json and data/oob.json) into a `World`; every rules function takes a World, so
tests build small synthetic ones from dicts. `load_world()` reads the package data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from typing import Any

from rules.core.hexgrid import HexGrid, hexside

SIDES = ("germany", "belgium")
LAND_TYPES = ("infantry", "tank", "cavalry")
AIR_TYPES = ("fighter", "bomber")
TERRAINS = ("sea", "clear", "forest", "rough", "hex_city")
COUNTRIES = ("BE", "DE", "NL", "FR", "LU", "SEA")
HOME = {"belgium": "BE", "germany": "DE"}  # AoB 2.1, 2.2
SIDE_NAME = {"belgium": "Belgium", "germany": "Germany"}


class DataError(ValueError):
    """The map or OOB document does not fit its schema."""


@dataclass(frozen=True)
class City:
    name: str
    kind: str  # "small_city" | "hex_city"
    aa: int


@dataclass(frozen=True)
class Hex:
    label: str
    terrain: str
    country: str
    city: City | None
    fortress: bool
    name: str | None

    @property
    def is_sea(self) -> bool:
        return self.terrain == "sea"

    @property
    def is_hex_city(self) -> bool:
        return self.terrain == "hex_city" or (self.city is not None and self.city.kind == "hex_city")

    @property
    def is_small_city(self) -> bool:
        return self.city is not None and self.city.kind == "small_city" and not self.is_hex_city

    def title(self) -> str:
        """'1315' or 'Brussels (1315)' for display."""
        nm = self.name or (self.city.name if self.city else None)
        return f"{nm} ({self.label})" if nm else self.label


@dataclass(frozen=True)
class Unit:
    """A counter. Land units use attack/defense/movement; aircraft air/tactical/range."""

    id: str
    side: str
    name: str
    type: str
    attack: int = 0
    defense: int = 0
    movement: int = 0
    command: int = 0
    air: int = 0
    tactical: int = 0
    tactical_alt: int = 0
    naval: int = 0
    range: int = 0

    @property
    def is_land(self) -> bool:
        return self.type in LAND_TYPES

    @property
    def is_air(self) -> bool:
        return self.type in AIR_TYPES

    @property
    def is_tank(self) -> bool:
        return self.type == "tank"

    @property
    def bombing(self) -> int:
        """AoB 8.6 (memo 3): of the two printed bombing values one is 0; use the other."""
        return max(self.tactical, self.tactical_alt)

    def factors(self) -> str:
        if self.is_land:
            return f"{self.attack}-{self.defense}-{self.movement}"
        return f"air {self.air}, tactical {self.bombing}, range {self.range}"


@dataclass(frozen=True, eq=False)
class World:
    """Everything fixed for a game: map, rivers, objectives, counters, default set-up."""

    map_id: str
    oob_id: str
    grid: HexGrid
    hexes: Mapping[str, Hex]
    rivers: Mapping[str, str]  # hexside id ("0504/0505") -> river name
    objectives: Mapping[str, str]  # "brussels", "antwerp" -> hex
    units: Mapping[str, Unit]  # in OOB order
    default_setup: Mapping[str, Mapping[str, str]]
    adjacency: Mapping[str, tuple[str, ...]]

    def neighbours(self, label: str) -> tuple[str, ...]:
        return self.adjacency[label]

    def river(self, a: str, b: str) -> str | None:
        return self.rivers.get(hexside(a, b))

    def distance(self, a: str, b: str) -> int:
        return self.grid.distance(a, b)

    def unit(self, uid: str) -> Unit:
        return self.units[uid]

    def side_units(self, side: str) -> list[str]:
        return list(self._units_of.get(side, ()))

    @cached_property
    def _units_of(self) -> dict[str, tuple[str, ...]]:
        """Each side's units in OOB order (asked for many times a listing)."""
        out: dict[str, list[str]] = {}
        for u, x in self.units.items():
            out.setdefault(x.side, []).append(u)
        return {side: tuple(us) for side, us in out.items()}

    @cached_property
    def land_order(self) -> dict[str | None, tuple[str, ...]]:
        """The land units in OOB order: of each side, and (None) of both."""
        land = [u for u, x in self.units.items() if x.is_land]
        out: dict[str | None, tuple[str, ...]] = {None: tuple(land)}
        for side in {x.side for x in self.units.values()}:
            out[side] = tuple(u for u in land if self.units[u].side == side)
        return out

    def hex_title(self, label: str) -> str:
        h = self.hexes.get(label)
        return h.title() if h else label


def _int(doc: Mapping[str, Any], key: str, where: str) -> int:
    v = doc.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise DataError(f"{where}: {key} must be an integer")
    return v


def build_world(map_doc: Mapping[str, Any], oob_doc: Mapping[str, Any]) -> World:
    """Check and freeze the two documents. Raises DataError with the first problem found."""
    try:
        g = map_doc["grid"]
        grid = HexGrid(g["first_col"], g["first_row"], g["cols"], g["rows"], g.get("shifted", "even"), g.get("digits", 2))
    except (KeyError, TypeError, ValueError) as err:
        raise DataError(f"map grid is malformed: {err}") from None
    hexes: dict[str, Hex] = {}
    for label in sorted(map_doc.get("hexes", {})):
        h = map_doc["hexes"][label]
        if not grid.is_hex(label):
            raise DataError(f"hex {label} is not on the grid")
        if h.get("terrain") not in TERRAINS:
            raise DataError(f"hex {label}: unknown terrain {h.get('terrain')!r}")
        if h.get("country") not in COUNTRIES:
            raise DataError(f"hex {label}: unknown country {h.get('country')!r}")
        c = h.get("city")
        city = None
        if c is not None:
            if c.get("kind") not in ("small_city", "hex_city"):
                raise DataError(f"hex {label}: unknown city kind {c.get('kind')!r}")
            city = City(str(c.get("name", "")), c["kind"], _int(c, "aa", f"hex {label} city"))
        hexes[label] = Hex(label, h["terrain"], h["country"], city, bool(h.get("fortress", False)), h.get("name"))
    rivers: dict[str, str] = {}
    for side_id, info in sorted(map_doc.get("hexsides", {}).items()):
        parts = side_id.split("/")
        if len(parts) != 2 or any(p not in hexes for p in parts):
            raise DataError(f"hexside {side_id!r} does not join two map hexes")
        if grid.direction_to(parts[0], parts[1]) is None:
            raise DataError(f"hexside {side_id!r} joins hexes that are not adjacent")
        if info.get("river"):
            rivers[hexside(parts[0], parts[1])] = str(info["river"])
    objectives = dict(map_doc.get("objectives", {}))
    for key in ("brussels", "antwerp"):
        if objectives.get(key) not in hexes:
            raise DataError(f"objective {key} is not a map hex")
    units: dict[str, Unit] = {}
    for u in oob_doc.get("units", []):
        uid = u.get("id")
        if not isinstance(uid, str) or uid in units:
            raise DataError(f"unit id {uid!r} is missing or repeated")
        if u.get("side") not in SIDES:
            raise DataError(f"unit {uid}: unknown side {u.get('side')!r}")
        kind = u.get("type")
        where = f"unit {uid}"
        if kind in LAND_TYPES:
            units[uid] = Unit(uid, u["side"], str(u.get("name", uid)), kind, attack=_int(u, "attack", where),
                              defense=_int(u, "defense", where), movement=_int(u, "movement", where),
                              command=int(u.get("command", 0) or 0))
            if units[uid].defense < 1:
                raise DataError(f"{where}: defense must be at least 1")
        elif kind in AIR_TYPES:
            units[uid] = Unit(uid, u["side"], str(u.get("name", uid)), kind, air=_int(u, "air", where),
                              tactical=_int(u, "tactical", where), tactical_alt=int(u.get("tactical_alt", 0) or 0),
                              naval=int(u.get("naval", 0) or 0), range=_int(u, "range", where))
        else:
            raise DataError(f"{where}: unknown type {kind!r}")
    default: dict[str, dict[str, str]] = {}
    for side in SIDES:
        placed = dict(oob_doc.get("default_setup", {}).get(side, {}))
        for uid, label in placed.items():
            if uid not in units or units[uid].side != side:
                raise DataError(f"default set-up names {uid!r}, not a {side} unit")
            if label not in hexes:
                raise DataError(f"default set-up puts {uid} on {label!r}, not a map hex")
        default[side] = placed
    adjacency = {lab: tuple(n for n in grid.neighbours(lab) if n in hexes) for lab in hexes}
    return World(str(map_doc.get("id", "")), str(oob_doc.get("id", "")), grid, hexes, rivers, objectives,
                 units, default, adjacency)


def read_data(name: str) -> dict[str, Any]:
    """One JSON document of the package data (data/map.json, data/oob.json)."""
    text = resources.files("rules.assault_on_belgium").joinpath("data", name).read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


@lru_cache(maxsize=1)
def load_world() -> World:
    """The World built from the package's own map and order of battle."""
    return build_world(read_data("map.json"), read_data("oob.json"))
