"""Checks on the authored Assault on Belgium map and order of battle (Warlog approximations).

The data files are rules/assault_on_belgium/data/map.json and oob.json, generated/authored as
described in docs/games/assault-on-belgium-data.md. These tests pin the schema the rules engine
reads and the design properties the data promise (a tank can reach both objectives in the one
German move, infantry cannot, every land hex is connected, the rulebook's example values exist).
"""

from __future__ import annotations

import heapq
import importlib.util
import json
from collections import Counter, deque
from pathlib import Path

import pytest

from ledger.canonical import canonical_bytes
from rules.core.hexgrid import DIRECTIONS, HexGrid, hexside

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "rules" / "assault_on_belgium" / "data"

TERRAINS = {"sea", "clear", "forest", "rough", "hex_city"}
COUNTRIES = {"BE", "DE", "NL", "FR", "LU", "SEA"}
RIVERS = {
    "Meuse", "Albert Canal", "Scheldt", "Sambre", "Dyle", "Ourthe", "Lys", "Dender", "Demer",
    "Nete", "Gete", "Vesdre", "Ambleve", "Lesse", "Semois",
}
REQUIRED_RIVERS = {"Meuse", "Albert Canal", "Scheldt", "Sambre", "Dyle"}
LAND_TYPES = {"infantry", "tank", "cavalry"}
AIR_TYPES = {"fighter", "bomber"}
TERRAIN_MP = {"clear": 1, "forest": 2, "rough": 2, "hex_city": 1}


@pytest.fixture(scope="module")
def mapdoc() -> dict:
    return json.loads((DATA / "map.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def oob() -> dict:
    return json.loads((DATA / "oob.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def grid(mapdoc) -> HexGrid:
    return HexGrid(**mapdoc["grid"])


def _walk(value, path="$"):
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{path}[{i}]")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _land(hexes, lab) -> bool:
    return hexes[lab]["terrain"] != "sea"


def mp_from(grid: HexGrid, mapdoc: dict, sources) -> dict[str, int]:
    """Dijkstra with the Terrain Effects Chart costs: clear 1, forest 2, rough 2, hex city 1, sea
    impassable, +1 per river hexside crossed; small cities and fortresses cost as their terrain."""
    hexes, sides = mapdoc["hexes"], mapdoc["hexsides"]
    dist = {s: 0 for s in sources}
    heap = [(0, s) for s in sources]
    heapq.heapify(heap)
    while heap:
        d, h = heapq.heappop(heap)
        if d > dist[h]:
            continue
        for n in grid.neighbours(h):
            t = hexes[n]["terrain"]
            if t == "sea":
                continue
            c = d + TERRAIN_MP[t] + (1 if hexside(h, n) in sides else 0)
            if c < dist.get(n, 10**9):
                dist[n] = c
                heapq.heappush(heap, (c, n))
    return dist


# ---------------------------------------------------------------------------------------------
# map.json
# ---------------------------------------------------------------------------------------------
def test_map_header(mapdoc):
    assert mapdoc["id"] == "aob-belgium-warlog-2"
    assert set(mapdoc) == {"id", "title", "provenance", "grid", "projection", "hexes", "hexsides", "objectives"}
    assert "Warlog" in mapdoc["title"] and mapdoc["provenance"].strip()
    g = mapdoc["grid"]
    assert g["first_col"] == 1 and g["first_row"] == 1 and g["shifted"] == "even" and g["digits"] == 2
    assert _is_int(g["cols"]) and _is_int(g["rows"]) and 10 <= g["cols"] < 100 and 10 <= g["rows"] < 100
    p = mapdoc["projection"]
    assert _is_int(p["hex_km"]) and 15 <= p["hex_km"] <= 17
    for key in ("lat_top", "lon_left", "note"):
        assert isinstance(p[key], str)
    float(p["lat_top"]), float(p["lon_left"])  # numbers stored as strings


@pytest.mark.parametrize("name", ["map.json", "oob.json"])
def test_no_floats_and_canonical(name):
    doc = json.loads((DATA / name).read_text(encoding="utf-8"))
    for path, v in _walk(doc):
        assert not isinstance(v, float), f"{name}: float at {path}"
    canonical_bytes(doc)  # raises on anything canonical JSON refuses


def test_every_hex_present_and_valid(mapdoc, grid):
    hexes = mapdoc["hexes"]
    assert set(hexes) == set(grid.labels())
    for lab, h in hexes.items():
        assert set(h) == {"terrain", "country", "city", "fortress", "name"}, lab
        assert h["terrain"] in TERRAINS, lab
        assert h["country"] in COUNTRIES, lab
        assert (h["terrain"] == "sea") == (h["country"] == "SEA"), lab
        assert isinstance(h["fortress"], bool), lab
        assert h["name"] is None or (isinstance(h["name"], str) and h["name"]), lab
        c = h["city"]
        if c is None:
            assert h["terrain"] != "hex_city", lab
        else:
            assert set(c) == {"name", "kind", "aa"}, lab
            assert isinstance(c["name"], str) and c["name"], lab
            assert c["kind"] in ("small_city", "hex_city"), lab
            assert _is_int(c["aa"]) and 0 <= c["aa"] <= 5, lab
            if c["kind"] == "hex_city":
                assert h["terrain"] == "hex_city", lab
            else:
                assert h["terrain"] in ("clear", "forest", "rough"), lab
        if h["fortress"]:
            assert h["country"] == "BE", lab


def test_cities_unique_and_named(mapdoc):
    names = [h["city"]["name"] for h in mapdoc["hexes"].values() if h["city"]]
    assert len(names) == len(set(names))
    by_name = {h["city"]["name"]: lab for lab, h in mapdoc["hexes"].items() if h["city"]}
    for city in ("Brussels", "Antwerp", "Liège", "Namur", "Ghent", "Aachen", "Maastricht"):
        assert city in by_name
    hexes = mapdoc["hexes"]
    assert hexes[by_name["Aachen"]]["country"] == "DE"
    assert hexes[by_name["Maastricht"]]["country"] == "NL"
    assert hexes[by_name["Liège"]]["fortress"] and hexes[by_name["Namur"]]["fortress"]


def test_objectives(mapdoc, grid):
    obj = mapdoc["objectives"]
    assert set(obj) == {"brussels", "antwerp"}
    hexes = mapdoc["hexes"]
    for key, lab in obj.items():
        h = hexes[lab]
        assert h["terrain"] == "hex_city" and h["country"] == "BE"
        assert h["city"]["kind"] == "hex_city"
        assert h["city"]["name"].lower() == key
    assert hexes[obj["brussels"]]["city"]["aa"] == 3  # RULEBOOK (TV-AA1)
    assert 2 <= grid.distance(obj["brussels"], obj["antwerp"]) <= 4


def test_hexside_keys(mapdoc, grid):
    hexes = mapdoc["hexes"]
    for key, feat in mapdoc["hexsides"].items():
        a, b = key.split("/")
        assert grid.is_hex(a) and grid.is_hex(b), key
        assert a < b and key == hexside(a, b), key
        assert grid.direction_to(a, b) is not None, f"{key} not adjacent"
        assert feat == {"river": feat["river"]} and feat["river"] in RIVERS, key
        assert _land(hexes, a) and _land(hexes, b), f"{key}: river against sea"
    present = {f["river"] for f in mapdoc["hexsides"].values()}
    assert REQUIRED_RIVERS <= present


def _vertices(grid: HexGrid, key: str) -> tuple[frozenset, frozenset]:
    """The two end corners of a hexside, each named by the three axial hexes that meet there."""
    a, b = key.split("/")
    d = grid.direction_to(a, b)
    q, r = grid.to_axial(a)
    out = []
    for e in (d - 1, d + 1):
        dq, dr = DIRECTIONS[d % 6]
        eq, er = DIRECTIONS[e % 6]
        out.append(frozenset({(q, r), (q + dq, r + dr), (q + eq, r + er)}))
    return out[0], out[1]


def _chain_components(grid, keys) -> list[set]:
    adj: dict = {}
    for k in keys:
        u, v = _vertices(grid, k)
        adj.setdefault(u, set()).add(v)
        adj.setdefault(v, set()).add(u)
    seen, comps = set(), []
    for start in adj:
        if start in seen:
            continue
        comp, todo = set(), [start]
        while todo:
            x = todo.pop()
            if x in comp:
                continue
            comp.add(x)
            todo.extend(adj[x] - comp)
        seen |= comp
        comps.append(comp)
    return comps


def test_meuse_and_albert_canal_are_continuous(mapdoc, grid):
    sides = mapdoc["hexsides"]
    meuse = [k for k, f in sides.items() if f["river"] == "Meuse"]
    canal = [k for k, f in sides.items() if f["river"] == "Albert Canal"]
    assert len(meuse) >= 15 and len(canal) >= 6
    assert len(_chain_components(grid, meuse)) == 1, "Meuse has a gap"
    canal_comps = _chain_components(grid, canal)
    assert len(canal_comps) == 1, "Albert Canal has a gap"
    # The canal joins the Meuse (near Maastricht/Liège) and reaches Antwerp.
    meuse_vertices = set().union(*_chain_components(grid, meuse))
    assert canal_comps[0] & meuse_vertices, "Albert Canal does not meet the Meuse"
    ant = grid.to_axial(mapdoc["objectives"]["antwerp"])
    assert any(ant in v for v in canal_comps[0]), "Albert Canal does not reach Antwerp"


def test_every_land_hex_connected(mapdoc, grid):
    hexes = mapdoc["hexes"]
    land = [lab for lab in hexes if _land(hexes, lab)]
    seen, todo = {land[0]}, deque([land[0]])
    while todo:
        h = todo.popleft()
        for n in grid.neighbours(h):
            if n not in seen and _land(hexes, n):
                seen.add(n)
                todo.append(n)
    assert seen == set(land), sorted(set(land) - seen)


def test_set_up_areas(mapdoc):
    count = Counter(h["country"] for h in mapdoc["hexes"].values() if h["terrain"] != "sea")
    assert count["DE"] >= 25 and count["BE"] >= 80


def test_generator_reproduces_map():
    spec = importlib.util.spec_from_file_location("author_aob_map", REPO / "tools" / "author_aob_map.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    doc, _ = gen.build(gen.load_geo(gen.DEFAULT_GEO))
    assert gen.dump(doc) == (DATA / "map.json").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# oob.json
# ---------------------------------------------------------------------------------------------
def test_oob_units_typed(oob):
    assert oob["id"] == "aob-oob-warlog-2" and oob["provenance"].strip()
    assert set(oob) == {"id", "provenance", "units", "default_setup"}
    ids = [u["id"] for u in oob["units"]]
    assert len(ids) == len(set(ids))
    for u in oob["units"]:
        assert u["side"] in ("belgium", "germany")
        assert isinstance(u["name"], str) and u["name"]
        if u["type"] in LAND_TYPES:
            assert set(u) == {"id", "side", "name", "type", "attack", "defense", "movement", "command"}, u["id"]
            assert all(_is_int(u[k]) and u[k] >= 0 for k in ("attack", "defense", "movement", "command"))
            assert u["defense"] >= 1 and u["movement"] >= 1
        else:
            assert u["type"] in AIR_TYPES, u["id"]
            assert set(u) == {"id", "side", "name", "type", "air", "tactical", "tactical_alt", "naval", "range"}, u["id"]
            assert all(_is_int(u[k]) and u[k] >= 0 for k in ("air", "tactical", "tactical_alt", "naval", "range"))
            assert u["tactical"] == 0 or u["tactical_alt"] == 0, f"{u['id']}: one bombing value must be 0"
            if u["type"] == "bomber":
                assert u["tactical"] + u["tactical_alt"] > 0
            assert u["range"] >= 1


def test_oob_size(oob):
    c = Counter((u["side"], u["type"] in LAND_TYPES) for u in oob["units"])
    assert 10 <= c[("belgium", True)] <= 14
    assert 3 <= c[("belgium", False)] <= 4
    assert 10 <= c[("germany", True)] <= 14
    assert 4 <= c[("germany", False)] <= 6
    tanks = [u for u in oob["units"] if u["side"] == "germany" and u["type"] == "tank"]
    assert 3 <= len(tanks) <= 5


def test_rulebook_values_present(oob):
    units = oob["units"]
    assert any(u["type"] == "infantry" and (u["attack"], u["defense"], u["movement"]) == (5, 4, 6) for u in units)
    assert any(u["side"] == "germany" and u["type"] == "fighter" and u["air"] == 6 for u in units)
    assert any(u["side"] == "belgium" and u["type"] == "fighter" and u["air"] == 3 for u in units)
    assert any(u["side"] == "germany" and u["type"] == "bomber" and u["tactical"] == 4 for u in units)


def test_default_setup_legal(oob, mapdoc, grid):
    hexes = mapdoc["hexes"]
    units = {u["id"]: u for u in oob["units"]}
    setup = oob["default_setup"]
    assert set(setup) == {"belgium", "germany"}
    placed = set(setup["belgium"]) | set(setup["germany"])
    assert placed == set(units) and not set(setup["belgium"]) & set(setup["germany"])
    for side, country in (("belgium", "BE"), ("germany", "DE")):
        stack: Counter = Counter()
        for uid, lab in setup[side].items():
            assert units[uid]["side"] == side, uid
            assert grid.is_hex(lab), (uid, lab)
            assert hexes[lab]["country"] == country and hexes[lab]["terrain"] != "sea", (uid, lab)
            if units[uid]["type"] in LAND_TYPES:
                stack[lab] += 1
        assert max(stack.values()) <= 3, stack


def test_aircraft_reach_the_objectives_from_their_bases(oob, mapdoc, grid):
    setup = {**oob["default_setup"]["belgium"], **oob["default_setup"]["germany"]}
    for u in oob["units"]:
        if u["type"] in AIR_TYPES:
            for lab in mapdoc["objectives"].values():
                assert grid.distance(setup[u["id"]], lab) <= u["range"], (u["id"], lab)


# ---------------------------------------------------------------------------------------------
# The one German move: tanks can reach both objectives, infantry cannot.
# ---------------------------------------------------------------------------------------------
def _german_hexes(mapdoc):
    return [lab for lab, h in mapdoc["hexes"].items() if h["country"] == "DE" and h["terrain"] != "sea"]


def test_best_tank_reaches_both_objectives_with_mp_to_spare(oob, mapdoc, grid):
    best = max(u["movement"] for u in oob["units"] if u["side"] == "germany" and u["type"] == "tank")
    for key, lab in mapdoc["objectives"].items():
        cost = min(mp_from(grid, mapdoc, [s]).get(lab, 10**9) for s in _german_hexes(mapdoc))
        assert best - cost >= 2, f"{key}: cheapest path {cost} MP, best tank {best} MP"


def test_infantry_cannot_reach_either_objective(oob, mapdoc, grid):
    dist = mp_from(grid, mapdoc, _german_hexes(mapdoc))
    non_tank = max(u["movement"] for u in oob["units"] if u["side"] == "germany" and u["type"] != "tank"
                   and u["type"] in LAND_TYPES)
    for key, lab in mapdoc["objectives"].items():
        assert dist[lab] > 6, f"a 6-MP infantry unit reaches {key}"
        assert dist[lab] > non_tank, f"a German non-tank unit ({non_tank} MP) reaches {key}"
