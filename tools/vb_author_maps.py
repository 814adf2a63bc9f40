#!/usr/bin/env python3
"""Author the two Vietnam Battles hex maps (Warlog approximations) from public geography.

    python tools/vb_author_maps.py            # writes rules/vietnam_battles/data/*-map.json
    python tools/vb_author_maps.py --check    # exits 1 if a map file is not what this script writes
    python tools/vb_author_maps.py --report   # also prints a short summary of each map

The printed maps of MW#7 "Vietnam Battles" are not available to us. This script lays a
flat-topped hex grid (rules.core.hexgrid conventions: labels CCRR, even columns half a hex lower,
0101 in the north-west corner) over the public geography of the two vendored fact sheets
(rules/vietnam_battles/data/*-geo.md, vendored public-geography fact sheets) and assigns every hex
from its centre point. Rivers are traced along hexsides through the projected river polylines;
where the rulebook names a hex or a hexside (VB 25.0-27.0) the trace is pinned to it, and where a
centre-point rule gives the wrong terrain for a hex the scenarios use, a hand override in one of
the clearly marked tables fixes it (each with its reason). Running the script again writes the
same bytes (stdlib only, sorted keys, no floats in the output).
"""

from __future__ import annotations

import argparse
import cmath
import heapq
import json
import math
import re
import sys
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from rules.core.hexgrid import HexGrid, hexside  # noqa: E402

DATA = REPO / "rules" / "vietnam_battles" / "data"
KM_PER_DEG = 111.195
SQ3 = math.sqrt(3.0)

TERRAINS = ("clear", "jungle", "swamp", "village", "town", "plantation", "cp", "hill", "all_water")

# =============================================================================================
# 1. Geometry: hex units (1 = across the flats), lattice corners, projection
# =============================================================================================
# Physical map coordinates (x east, y south) in hex units: the centre of hex (col, row) is at
# x = (col - 1) * sqrt(3)/2, y = (row - 1) + (0.5 if col is even). Corners live on an integer
# lattice: X in units of R/2 (R = 1/sqrt(3), the corner radius), Y in units of 1/2.
CORNER_OFFSETS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))  # E, SE, SW, W, NW, NE
# Side between corner i and i+1 -> rules.core.hexgrid direction (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW).
SIDE_DIRECTION = {0: 2, 1: 3, 2: 4, 3: 5, 4: 0, 5: 1}

Vertex = tuple[int, int]
Pt = tuple[float, float]


def centre_lattice(col: int, row: int) -> Vertex:
    return 3 * (col - 1), 2 * (row - 1) + (1 if col % 2 == 0 else 0)


def lattice_xy(v: Vertex) -> Pt:
    return v[0] / (2 * SQ3), v[1] / 2.0


def centre_xy(grid: HexGrid, label: str) -> Pt:
    return lattice_xy(centre_lattice(*grid.parse(label)))


def M(col: float, row: float) -> Pt:
    """A point given in map offset coordinates (a column number and a row coordinate measured
    like an odd column's rows) -> physical x, y."""
    return (col - 1) * SQ3 / 2, row - 1


def corners(grid: HexGrid, label: str) -> list[Vertex]:
    X, Y = centre_lattice(*grid.parse(label))
    return [(X + dx, Y + dy) for dx, dy in CORNER_OFFSETS]


def hex_at(grid: HexGrid, p: Pt) -> str | None:
    x, y = p
    cg = int(round(x / (SQ3 / 2))) + 1
    best: tuple[float, int, int] | None = None
    for col in range(cg - 1, cg + 2):
        off = 0.5 if col % 2 == 0 else 0.0
        rg = int(round(y - off)) + 1
        for row in range(rg - 1, rg + 2):
            cx, cy = (col - 1) * SQ3 / 2, (row - 1) + off
            d = (cx - x) ** 2 + (cy - y) ** 2
            if best is None or d < best[0]:
                best = (d, col, row)
    assert best is not None
    _, col, row = best
    return grid.label(col, row) if grid.contains_offset(col, row) else None


def dist_seg(p: Pt, a: Pt, b: Pt) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def dist_polyline(p: Pt, line: list[Pt]) -> float:
    if len(line) == 1:
        return math.hypot(p[0] - line[0][0], p[1] - line[0][1])
    return min(dist_seg(p, line[i], line[i + 1]) for i in range(len(line) - 1))


def side_of_polyline(p: Pt, line: list[Pt]) -> int:
    """+1 if p lies left of the polyline's direction of travel (y points south), -1 if right."""
    best = None
    for i in range(len(line) - 1):
        d = dist_seg(p, line[i], line[i + 1])
        if best is None or d < best[0]:
            best = (d, i)
    assert best is not None
    a, b = line[best[1]], line[best[1] + 1]
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    return -1 if cross > 0 else 1   # y down: cross > 0 means clockwise = right of travel


def point_in_poly(p: Pt, poly: list[Pt]) -> bool:
    x, y = p
    inside = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < xi + (y - yi) * (xj - xi) / (yj - yi):
            inside = not inside
        j = i
    return inside


@dataclass(frozen=True)
class Projection:
    """Geographic (lat, lon) -> physical map coordinates by a similarity transform.

    km east/south of (lat0, lon0) form the complex number e + i*s; map = a * km + b, where a
    carries the scale (1/hex km) and any rotation of the printed map relative to north."""

    lat0: float
    lon0: float
    a: complex
    b: complex

    def km(self, lat: float, lon: float) -> complex:
        e = (lon - self.lon0) * KM_PER_DEG * math.cos(math.radians(self.lat0))
        s = (self.lat0 - lat) * KM_PER_DEG
        return complex(e, s)

    def __call__(self, lat: float, lon: float) -> Pt:
        z = self.a * self.km(lat, lon) + self.b
        return z.real, z.imag

    def inverse(self, p: Pt) -> tuple[float, float]:
        z = (complex(*p) - self.b) / self.a
        lat = self.lat0 - z.imag / KM_PER_DEG
        lon = self.lon0 + z.real / (KM_PER_DEG * math.cos(math.radians(self.lat0)))
        return lat, lon

    @property
    def hex_km(self) -> float:
        return 1 / abs(self.a)

    @property
    def rotation_deg(self) -> float:
        return math.degrees(cmath.phase(self.a))


def projection_north_up(anchor: tuple[float, float], at: Pt, hex_km: float) -> Projection:
    lat0, lon0 = anchor
    return Projection(lat0, lon0, complex(1 / hex_km, 0), complex(*at))


def projection_two_points(p1: tuple[float, float], m1: Pt, p2: tuple[float, float], m2: Pt) -> Projection:
    lat0, lon0 = p1
    tmp = Projection(lat0, lon0, 1 + 0j, 0j)
    z1, z2 = tmp.km(*p1), tmp.km(*p2)
    a = (complex(*m2) - complex(*m1)) / (z2 - z1)
    return Projection(lat0, lon0, a, complex(*m1) - a * z1)


# =============================================================================================
# 2. Fact sheets
# =============================================================================================
def load_geo(name: str) -> dict[str, Any]:
    """Merge every ```json block of a vendored fact sheet into one dict (lists are concatenated)."""
    text = (DATA / name).read_text(encoding="utf-8")
    merged: dict[str, Any] = {}
    for block in re.findall(r"```json\n(.*?)\n```", text, re.S):
        for k, v in json.loads(block).items():
            if isinstance(v, list) and isinstance(merged.get(k), list):
                merged[k] = merged[k] + v
            else:
                merged[k] = v
    return merged


def by_id(items: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {d["id"]: d for d in items}


# =============================================================================================
# 3. The map builder (shared by both maps)
# =============================================================================================
@dataclass
class Builder:
    map_id: str
    grid: HexGrid
    proj: Projection
    hexes: dict[str, dict[str, Any]] = field(default_factory=dict)
    sides: dict[str, dict[str, Any]] = field(default_factory=dict)
    river_paths: dict[str, list[Vertex]] = field(default_factory=dict)
    why: dict[str, str] = field(default_factory=dict)   # hex -> reason of a hand override

    def __post_init__(self) -> None:
        for lab in self.grid.labels():
            self.hexes[lab] = {"terrain": "clear", "name": None, "road": False, "trail": False,
                               "mekong": None, "features": []}
        # Vertex graph of interior hexsides.
        self.adj: dict[Vertex, list[tuple[Vertex, str]]] = {}
        self.vertex_hexes: dict[Vertex, set[str]] = {}
        for lab in self.grid.labels():
            cs = corners(self.grid, lab)
            for v in cs:
                self.vertex_hexes.setdefault(v, set()).add(lab)
            for i in range(6):
                n = self.grid.neighbour(lab, SIDE_DIRECTION[i])
                if n is None or n < lab:
                    continue
                a, b = cs[i], cs[(i + 1) % 6]
                key = hexside(lab, n)
                self.adj.setdefault(a, []).append((b, key))
                self.adj.setdefault(b, []).append((a, key))
        self.side_vertices: dict[str, tuple[Vertex, Vertex]] = {}
        for a, lst in self.adj.items():
            for b, key in lst:
                self.side_vertices[key] = (min(a, b), max(a, b))

    # -- geography -----------------------------------------------------------------------
    def geo(self, lat: float, lon: float) -> Pt:
        return self.proj(lat, lon)

    def xy(self, label: str) -> Pt:
        return centre_xy(self.grid, label)

    def latlon(self, label: str) -> tuple[float, float]:
        return self.proj.inverse(self.xy(label))

    def hex_clamped(self, p: Pt) -> str:
        """The hex containing p, or for a point off the map the nearest edge hex."""
        g = self.grid
        x = min(max(p[0], 0.0), (g.cols - 1) * SQ3 / 2)
        y = min(max(p[1], 0.0), g.rows - 1.0)
        h = hex_at(g, (x, y))
        assert h is not None
        return h

    def hex_of_geo(self, lat: float, lon: float) -> str | None:
        return hex_at(self.grid, self.geo(lat, lon))

    def poly(self, points: list[list[float]]) -> list[Pt]:
        return [self.geo(p[0], p[1]) for p in points]

    # -- hexes -----------------------------------------------------------------------------
    def set_terrain(self, label: str, terrain: str, why: str | None = None) -> None:
        assert terrain in TERRAINS, terrain
        self.hexes[label]["terrain"] = terrain
        if why:
            self.why[label] = why

    def add_feature(self, label: str, feat: str) -> None:
        fs = self.hexes[label]["features"]
        if feat not in fs:
            fs.append(feat)
            fs.sort()

    def name(self, label: str, name: str) -> None:
        self.hexes[label]["name"] = name

    def side(self, a: str, b: str) -> dict[str, Any]:
        key = hexside(a, b)
        if key not in self.sides:
            self.sides[key] = {"river": None, "kind": None, "bridge": False, "road": False,
                               "trail": False, "road_drawn": False, "no_monitor": False}
        return self.sides[key]

    def is_river(self, key: str) -> bool:
        return bool(self.sides.get(key, {}).get("river"))

    def water(self, label: str) -> bool:
        return self.hexes[label]["mekong"] is not None

    # -- rivers along hexsides -----------------------------------------------------------------
    def nearest_vertex(self, p: Pt, allowed: Callable[[Vertex], bool] = lambda v: True) -> Vertex:
        best = None
        for v in self.adj:
            if not allowed(v):
                continue
            x, y = lattice_xy(v)
            d = (x - p[0]) ** 2 + (y - p[1]) ** 2
            if best is None or (d, v) < best:
                best = (d, v)
        assert best is not None
        return best[1]

    def _edge_ok(self, key: str) -> bool:
        a, b = key.split("/")
        # A river hexside never runs between two Mekong hexes or along an all-water hex.
        if self.water(a) and self.water(b):
            return False
        return self.hexes[a]["mekong"] != "all_water" and self.hexes[b]["mekong"] != "all_water"

    def _dijkstra(self, start: Vertex, goal: Callable[[Vertex], bool], seg: tuple[Pt, Pt] | None,
                  used: set[Vertex]) -> list[Vertex]:
        dist = {start: 0.0}
        prev: dict[Vertex, Vertex] = {}
        heap = [(0.0, start)]
        while heap:
            d, v = heapq.heappop(heap)
            if d > dist.get(v, math.inf):
                continue
            if v != start and goal(v):
                path = [v]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return path[::-1]
            for w, key in sorted(self.adj.get(v, [])):
                if w in used or not self._edge_ok(key):
                    continue
                mid = ((lattice_xy(v)[0] + lattice_xy(w)[0]) / 2, (lattice_xy(v)[1] + lattice_xy(w)[1]) / 2)
                cost = 1.0 + (3.0 * dist_seg(mid, *seg) if seg else 0.0)
                nd = d + cost
                if nd < dist.get(w, math.inf) - 1e-12:
                    dist[w] = nd
                    prev[w] = v
                    heapq.heappush(heap, (nd, w))
        raise RuntimeError("no hexside route")

    def _side_of(self, a: Vertex, b: Vertex) -> list[str]:
        return next(k for w, k in self.adj[a] if w == b).split("/")

    def on_edge(self, v: Vertex) -> bool:
        return len(self.vertex_hexes.get(v, ())) < 3

    def trace_river(self, name: str, steps: list[tuple[str, Any]], end: Callable[[Vertex], bool] | None = None,
                    start_edge: bool = False, **flags: Any) -> list[Vertex]:
        """Trace a river along hexsides through `steps`: ("pt", (x, y)) passes near a point,
        ("side", "0712/0811") runs along that named hexside. `end` extends the trace to the first
        vertex satisfying it (e.g. touching the Mekong)."""
        path: list[Vertex] = []
        last_pt: Pt | None = None
        for i, (kind, val) in enumerate(steps):
            if kind == "pt":
                target = self.nearest_vertex(val, lambda v: sum(self._edge_ok(k) for _, k in self.adj[v]) >= 2)
                final = end if (end is not None and i == len(steps) - 1) else (lambda v: False)
                if not path:
                    path = [target]
                elif target != path[-1] and target not in path:
                    seg = (last_pt or lattice_xy(path[-1]), val)
                    path += self._dijkstra(path[-1], lambda v, t=target, f=final: v == t or f(v), seg, set(path[:-1]))[1:]
                last_pt = val
            else:
                v1, v2 = self.side_vertices[val]
                if not path:
                    path = [v1, v2]
                elif path[-1] in (v1, v2):
                    other = v2 if path[-1] == v1 else v1
                    if len(path) < 2 or path[-2] != other:
                        path.append(other)
                else:
                    seg_end = lattice_xy(v1)
                    options = []
                    for first, second in ((v1, v2), (v2, v1)):
                        if path[-1] == first:
                            sub = [first]
                        else:
                            try:
                                sub = self._dijkstra(path[-1], lambda v, t=first: v == t,
                                                     (last_pt or lattice_xy(path[-1]), seg_end), set(path[:-1]) | {second})
                            except RuntimeError:
                                continue
                        options.append((len(sub), sub, second))
                    options.sort(key=lambda o: o[0])
                    _, sub, second = options[0]
                    path += sub[1:] + [second]
                last_pt = lattice_xy(path[-1])
        if end is not None and not end(path[-1]):
            path += self._dijkstra(path[-1], end, None, set(path[:-1]))[1:]
        if start_edge and not self.on_edge(path[0]):
            path = self._dijkstra(path[0], self.on_edge, None, set(path[1:]))[::-1] + path[1:]
        for a, b in zip(path, path[1:]):
            key = next(k for w, k in self.adj[a] if w == b)
            s = self.side(*key.split("/"))
            assert s["river"] is None, f"{name} crosses {s['river']} at {key}"
            s["river"] = name
            s["kind"] = "river"
            s.update(flags)
        self.river_paths[name] = path
        return path

    def at_mouth(self, v: Vertex) -> bool:
        """A corner where two Mekong hexes meet a land hex: a river ending here flows into the
        Mekong between the two, and its last hexside is a side of a Mekong hex (so a monitor
        passes from the river into the Mekong, VB 12.0)."""
        hs = self.vertex_hexes.get(v, set())
        return len(hs) == 3 and sum(self.water(h) for h in hs) == 2

    # -- roads and trails through hex centres ----------------------------------------------
    def trace_route(self, points: list[Pt], kind: str, bridges: bool | Callable[[str], bool]) -> list[str]:
        """Mark a road or trail through the hexes nearest the polyline; consecutive hexes share a
        hexside. Crossing a river: connected only if `bridges` says a bridge is drawn there."""
        # Sample the polyline every 1.5 hexes; the part off the map is clipped (a road leaving the
        # map and coming back is two routes). Consecutive samples are joined by hex lines.
        runs: list[list[str]] = [[]]
        for p, q in zip(points, points[1:]):
            n = max(1, int(math.ceil(math.hypot(q[0] - p[0], q[1] - p[1]) / 1.5)))
            for i in range(n + 1):
                h = hex_at(self.grid, (p[0] + (q[0] - p[0]) * i / n, p[1] + (q[1] - p[1]) * i / n))
                if h is None:
                    if runs[-1]:
                        runs.append([])
                elif not runs[-1] or runs[-1][-1] != h:
                    runs[-1].append(h)
        hexes: list[str] = []
        pairs: list[tuple[str, str]] = []
        for run in runs:
            line: list[str] = []
            for a, c in zip(run, run[1:]):
                for h in self.grid.line(a, c):
                    if h is not None and (not line or line[-1] != h):
                        line.append(h)
            if len(run) == 1:
                line = run
            hexes += line
            pairs += list(zip(line, line[1:]))
        # drop all-water hexes from a road (a road never runs through the river)
        for a, b in pairs:
            if self.hexes[a]["mekong"] == "all_water" or self.hexes[b]["mekong"] == "all_water":
                continue
            s = self.side(a, b)
            if s["river"]:
                bridged = bridges(hexside(a, b)) if callable(bridges) else bridges
                s["road_drawn"] = True
                if bridged:
                    s["bridge"] = True
                    s[kind] = True
            else:
                s[kind] = True
        for h in hexes:
            if self.hexes[h]["mekong"] != "all_water":
                self.hexes[h][kind] = True
        return hexes

    # -- regions -----------------------------------------------------------------------------
    def flood(self, seeds: list[str], ok: Callable[[str], bool], cross: Callable[[str, str], bool]) -> list[str]:
        seen = set(s for s in seeds if ok(s))
        q = deque(sorted(seen))
        while q:
            h = q.popleft()
            for n in self.grid.neighbours(h):
                if n not in seen and ok(n) and cross(h, n):
                    seen.add(n)
                    q.append(n)
        return sorted(seen)

    def edges(self) -> dict[str, list[str]]:
        g = self.grid
        c0, c1, r0, r1 = g.first_col, g.first_col + g.cols - 1, g.first_row, g.first_row + g.rows - 1
        return {
            "north": [g.label(c, r0) for c in range(c0, c1 + 1)],
            "south": [g.label(c, r1) for c in range(c0, c1 + 1)],
            "west": [g.label(c0, r) for r in range(r0, r1 + 1)],
            "east": [g.label(c1, r) for r in range(r0, r1 + 1)],
        }

    # -- output ------------------------------------------------------------------------------
    def finish_features(self) -> None:
        river_hexes = set()
        for key, s in self.sides.items():
            if s["river"]:
                river_hexes.update(key.split("/"))
        for lab, h in self.hexes.items():
            t = h["terrain"]
            if t in ("village", "town", "cp", "plantation"):
                self.add_feature(lab, t)
            if h["mekong"] in ("bank", "split") or lab in river_hexes:
                if h["mekong"] != "all_water":
                    self.add_feature(lab, "landing_beach_ok")
            if t not in ("jungle", "all_water"):
                self.add_feature(lab, "lz_ok")

    def document(self, title: str, provenance: str, extra: dict[str, Any]) -> dict[str, Any]:
        g = self.grid
        sides = {k: v for k, v in sorted(self.sides.items())
                 if v["river"] or v["road"] or v["trail"] or v["bridge"] or v["road_drawn"]}
        doc = {
            "id": self.map_id,
            "title": title,
            "provenance": provenance,
            "grid": {"cols": g.cols, "rows": g.rows, "first_col": g.first_col, "first_row": g.first_row,
                     "digits": g.digits, "shifted": g.shifted},
            "projection": {
                "hex_km_across_flats": round(self.proj.hex_km, 3),
                "map_up_bearing_deg": round(-self.proj.rotation_deg, 1),
                "note": "approximate; a hex centre's lat/lon is in hexes[h].latlon",
            },
            "hexes": {lab: {**h, "latlon": [round(self.latlon(lab)[0], 4), round(self.latlon(lab)[1], 4)]}
                      for lab, h in sorted(self.hexes.items())},
            "hexsides": sides,
            "edges": self.edges(),
            "hand_overrides": dict(sorted(self.why.items())),
        }
        doc.update(extra)
        return _no_floats(doc)


def _no_floats(o: Any) -> Any:
    """latlon is the only place with decimals: store those as strings so the JSON has no floats."""
    if isinstance(o, dict):
        return {k: _no_floats(v) for k, v in o.items()}
    if isinstance(o, list):
        return [_no_floats(v) for v in o]
    if isinstance(o, float):
        return f"{o:.4f}".rstrip("0").rstrip(".") if o != int(o) else str(int(o))
    return o


# =============================================================================================
# 4. Snoopy's Nose (VB 25.0 The Boys of '67, 26.0 Snoopy's Nose)
# =============================================================================================
SN_GRID = HexGrid(first_col=1, first_row=1, cols=24, rows=34, shifted="even", digits=2)
# Scale and anchor (ours): 0.44 km hexes (the fact sheet recommends 0.4-1.0 km; 34 rows then span
# Route 4 to the main Tien channel), north up, the 1967 Cai Lay district town centre on Route 4
# at the centre of hex 1606, which the rulebook calls the C.P. (checkpoint).
SN_HEX_KM = 0.44
SN_ANCHOR = (10.408, 106.115)
SN_ANCHOR_HEX = "1606"

SN_TITLE = "Snoopy's Nose — the Rach Ba Rai and Rach Tra Tan, Dinh Tuong, 1967 (Warlog approximation)"
SN_PROVENANCE = (
    "Authored by Warlog, not transcribed: the printed Vietnam Battles maps are not available to us. "
    "Generated by tools/vb_author_maps.py from public geography (snoopys-nose-1967-geo.md: the Tien "
    "(Mekong) main channel and the Song Nam Thon side channel, the Rach Ba Rai and Rach Tra Tan, Route 4 "
    "and the river-bank road, Cai Lay, Cam Son, Hoi Xuan, Long Trung, the Plain of Reeds, the levee "
    "orchards) by centre-point rules and hand overrides. From the rulebook: the hex numbering, the "
    "hexes and hexsides the scenarios name (0717, 0816, 0616, 0615, 0711, 0618, 0917, 1215, 0717/0718, "
    "0712/0811, 0934 To Dong Tam, 1606 C.P., 0734 and 0833) and what their use needs; the terrain "
    "classes are the CRT's. Everything else is ours (docs/games/vietnam-battles-data.md). An owner of "
    "the printed game may replace this file with a transcription of the printed map in the same schema."
)

# Hand overrides (ours), each with the reason. Applied after the centre-point rules.
SN_TERRAIN_OVERRIDES: dict[str, tuple[str, str]] = {
    "0717": ("jungle", "VB 25.0: 514/1 waits in an L-shaped ambush at the edge of the jungle"),
    "0816": ("jungle", "VB 25.0: 514/2, the other arm of the L-shaped ambush"),
    "0615": ("clear", "VB 25.0: B/4/47 in the open paddy"),
    "0616": ("clear", "VB 25.0: C/4/47 'walked into the VC field of fire in a completely open rice paddy'"),
    "0614": ("clear", "the open paddy inside the Nose"),
    "0714": ("clear", "the open paddy inside the Nose"),
    "0715": ("clear", "the open paddy inside the Nose"),
    "0716": ("clear", "the open paddy inside the Nose (the edge of the jungle is 0717)"),
    "0917": ("clear", "VB 25.0: Landing Zone of B/3/47 (VB 10.0: not jungle)"),
    "1016": ("clear", "the paddy around the 0917 landing zone"),
    "1215": ("clear", "VB 25.0: Landing Zone of A/3/47 (VB 10.0: not jungle)"),
    "0618": ("clear", "VB 25.0: 5 Cav/3 (mechanized) on the paddy south of the river"),
    "0711": ("clear", "VB 25.0: Landing Beach of C/3/47, a paddy bank of the Ba Rai"),
}
# Split hexes placed by hand (the rest follow the Song Nam Thon line).
SN_EXTRA_SPLIT: dict[str, str] = {
    "0128": "split hex: the Nam Thon's mouth into the main channel at the west edge, so that the chain of "
            "split hexes is joined to the channel water (monitors and tangos pass from one to the other)",
}

# Places from the fact sheet: (place id, terrain, name); each goes to the hex containing it, unless
# SN_PLACE_MOVES puts it elsewhere (with the reason).
SN_PLACES: list[tuple[str, str, str]] = [
    ("binh_phu", "town", "Cai Lay"),            # the district seat; the 1967 town centre is the C.P.
    ("cam_son", "village", "Cam Son"),
    ("hoi_xuan", "village", "Hoi Xuan"),
    ("long_trung", "village", "Long Trung"),
    ("ngu_hiep_island", "village", "Ngu Hiep"),
]
SN_PLACE_MOVES: dict[str, tuple[str, str]] = {
    "cam_son": ("0814", "the Cam Son commune office falls in 0717, the jungle edge of the VB 25.0 ambush; "
                        "the village is moved to 0814, off the open paddy"),
    "ngu_hiep_island": ("1130", "the island's centre point falls in channel water (1231); moved to the nearest island hex"),
}


def sn_projection() -> Projection:
    return projection_north_up(SN_ANCHOR, centre_xy(SN_GRID, SN_ANCHOR_HEX), SN_HEX_KM)


def build_snoopys_nose() -> dict[str, Any]:
    geo = load_geo("snoopys-nose-1967-geo.md")
    places = by_id(geo["places"])
    waters = by_id(geo["waters"])
    roads = by_id(geo["roads"])
    areas = by_id(geo["areas"])
    b = Builder("vb-snoopys-nose-warlog-1", SN_GRID, sn_projection())
    G = b.geo

    # -- the Mekong (VB 19.0) ------------------------------------------------------------------
    # Main Tien channel: the fact sheet's centre line, 1.4 km wide ("1-2 km"); pulled 0.3 km
    # north at the bottom edge (ours) so that the rulebook's river entry hexes 0734 and 0833
    # are channel water and 0934 (To Dong Tam) is the bank where the channel leaves the map.
    main = [G(*p) for p in waters["tien_main"]["points"][:6]]
    main = [(x, y - 0.7) for x, y in main]
    half_width = 0.7 / SN_HEX_KM
    # Song Nam Thon side channel (a split-hex chain: land on both sides), joined to the main channel
    # at the west edge (ours: the fact sheet draws only its middle reach).
    nam_thon = [M(0.6, 31.0), M(2.4, 28.4)] + [G(*p) for p in waters["nam_thon_channel"]["points"]] + [M(24.5, 28.3)]
    for lab in SN_GRID.labels():
        p = b.xy(lab)
        # 7 sample points: centre and six points half-way to the corners
        samples = [p] + [(p[0] + 0.29 * math.cos(math.radians(60 * k)), p[1] + 0.29 * math.sin(math.radians(60 * k)))
                         for k in range(6)]
        wet = sum(dist_polyline(s, main) <= half_width for s in samples)
        if wet >= 6:
            b.hexes[lab]["mekong"] = "all_water"
            b.set_terrain(lab, "all_water")
        elif wet >= 2:
            b.hexes[lab]["mekong"] = "bank"
    for lab in ("0734", "0833"):
        b.hexes[lab]["mekong"] = "all_water"
        b.set_terrain(lab, "all_water", "VB 26.0: river entry hex (monitors, tango) in the main channel")
    b.hexes["0934"]["mekong"] = "bank"
    b.set_terrain("0934", "clear", "VB 26.0: 'To Dong Tam' (no VC set-up), the bank where the channel leaves the map")
    # Split hexes: in each column, the land hex whose centre is nearest the Nam Thon line (if within
    # half a hex), plus the hand-placed junction with the main channel.
    nearest: dict[str, str] = {}
    for lab in SN_GRID.labels():
        d = dist_polyline(b.xy(lab), nam_thon)
        if b.hexes[lab]["mekong"] is None and d < 0.5:
            col = lab[:2]
            if col not in nearest or d < dist_polyline(b.xy(nearest[col]), nam_thon):
                nearest[col] = lab
    split = sorted(set(nearest.values()) | set(SN_EXTRA_SPLIT))
    b.why.update(SN_EXTRA_SPLIT)
    for lab in split:
        b.hexes[lab]["mekong"] = "split"
    # the island between the two channels, and Kien Hoa beyond the main channel
    island: set[str] = set()
    for lab in SN_GRID.labels():
        if b.hexes[lab]["mekong"] in (None, "bank") and b.xy(lab)[1] > 22 and side_of_polyline(b.xy(lab), nam_thon) < 0 \
                and dist_polyline(b.xy(lab), nam_thon) >= 0.5:
            x, y = b.xy(lab)
            if side_of_polyline((x, y), main) > 0 or dist_polyline((x, y), main) <= half_width:
                island.add(lab)
    # portions of each split hex: neighbours left (north, mainland) / right (south, island)
    for lab in split:
        portions: dict[str, list[str]] = {"north": [], "south": []}
        for n in SN_GRID.neighbours(lab):
            if b.hexes[n]["mekong"] == "all_water":
                continue
            if n in split:
                portions["north"].append(f"{n}:north")
                portions["south"].append(f"{n}:south")
                continue
            portions["north" if side_of_polyline(b.xy(n), nam_thon) > 0 else "south"].append(n)
        b.hexes[lab]["portions"] = {k: sorted(v) for k, v in portions.items()}

    # -- terrain by centre point -----------------------------------------------------------------
    reeds = b.poly(areas["plain_of_reeds_edge"]["points"])
    levee = b.poly(areas["river_levee_orchards"]["points"])
    cam_son = b.poly(areas["cam_son_base"]["points"])
    for lab in SN_GRID.labels():
        if b.hexes[lab]["mekong"] == "all_water":
            continue
        p = b.xy(lab)
        if point_in_poly(p, reeds):
            b.set_terrain(lab, "swamp")
        elif lab in island or point_in_poly(p, cam_son):
            b.set_terrain(lab, "jungle")
        elif point_in_poly(p, levee) and dist_polyline(p, nam_thon) <= 2.6:
            b.set_terrain(lab, "jungle")

    # -- rivers (hexsides) ------------------------------------------------------------------------
    ba_rai = waters["rach_ba_rai"]["points"]
    b.trace_river("Rach Ba Rai", [
        ("pt", G(*ba_rai[1])), ("pt", G(*ba_rai[2])), ("pt", G(*ba_rai[3])), ("pt", G(*ba_rai[4])),
        ("pt", M(8.4, 10.6)),
        # VB 25.0: 3/47 C lands at 0711 and a monitor sits on 0712/0811: the Ba Rai runs down the
        # 07/08 column line there.
        ("side", "0711/0811"), ("side", "0712/0811"),
        # Snoopy's Nose (ours): the fact sheet's 280-degree loop of the lower Ba Rai in Cam Son,
        # drawn as a bend round the open paddy 0614-0616 / 0714-0716; the other monitor of VB 25.0
        # sits on its southern reach at 0717/0718, below the ambush hex 0717.
        ("pt", M(7.55, 13.2)), ("pt", M(5.6, 13.9)), ("pt", M(5.5, 17.2)),
        ("side", "0717/0718"),
        ("pt", M(7.6, 19.2)), ("pt", G(*ba_rai[7])), ("pt", G(*ba_rai[8])),
    ], end=b.at_mouth, start_edge=True)
    tra_tan = waters["rach_tra_tan"]["points"]
    b.trace_river("Rach Tra Tan", [("pt", M(19.6, 9.8))] + [("pt", G(*p)) for p in tra_tan], end=b.at_mouth)
    # A river mouth at the corner of two split hexes separates their mainland portions: a land unit
    # does not walk round the mouth from one bank to the other through the Nam Thon's banks.
    for path in b.river_paths.values():
        pair = sorted(h for h in b.vertex_hexes[path[-1]] if b.hexes[h]["mekong"] == "split")
        assert len(pair) == 2, pair
        if pair:
            x, y = pair
            b.hexes[x]["portions"]["north"].remove(f"{y}:north")
            b.hexes[y]["portions"]["north"].remove(f"{x}:north")

    # -- river banks: treelines (fact sheet: "dense treelines, nipa palm and gardens on both banks")
    for key, s in b.sides.items():
        if s["river"]:
            for h in key.split("/"):
                lat, _ = b.latlon(h)
                if lat < 10.40 and b.hexes[h]["terrain"] == "clear" and b.hexes[h]["mekong"] is None:
                    b.set_terrain(h, "jungle")

    # -- places and overrides ----------------------------------------------------------------------
    b.set_terrain("1606", "cp", "VB 26.0: hex 1606 is the C.P. (checkpoint): the 1967 Cai Lay town centre on Route 4")
    b.name("1606", "C.P.")
    for pid, terrain, nm in SN_PLACES:
        lab, why = SN_PLACE_MOVES.get(pid, (b.hex_of_geo(places[pid]["lat"], places[pid]["lon"]), ""))
        assert lab is not None, pid
        b.set_terrain(lab, terrain, why or None)
        b.name(lab, nm)
    for lab, (terrain, why) in SN_TERRAIN_OVERRIDES.items():
        b.set_terrain(lab, terrain, why)
    b.name("0934", "To Dong Tam")
    b.add_feature("0934", "to_dong_tam")
    for lab in ("0734", "0833"):
        b.add_feature(lab, "river_entry")

    # -- roads and trails ---------------------------------------------------------------------------
    r4 = roads["route_4"]["points"]
    b.trace_route([M(24.6, 5.6), G(*r4[6]), b.xy("1207"), G(*r4[7]), M(0.4, 12.6)], "road", True)
    rr = roads["river_road"]["points"]
    # river-bank road: Route 4 bridges everything; the river road bridges the Ba Rai at Hoi Xuan
    # (fact sheet: the Ba Rai bridge) but not the Tra Tan (ours: a ferry, so the road is cut).
    b.trace_route([M(0.4, 24.3), G(*rr[1]), G(*rr[2]), M(14.0, 25.2), M(18.5, 24.6), M(24.6, 25.6)], "road",
                  lambda key: b.sides[key]["river"] == "Rach Ba Rai")
    # Trails (ours): dike paths from the C.P. to Cam Son and down to Long Trung; along the Tra Tan.
    b.trace_route([b.xy("1507"), M(12.0, 11.0), b.xy("0814"), b.xy("0917"), M(11.5, 20.0), b.xy("1325")], "trail", False)
    b.trace_route([b.xy("1606"), M(17.0, 12.0), M(15.8, 20.0), b.xy("1325")], "trail", False)

    b.finish_features()

    # -- regions, edges, objectives ----------------------------------------------------------------
    def land(h: str) -> bool:
        return b.hexes[h]["mekong"] in (None, "bank") and h not in island
    north = b.flood(["1606"], land, lambda x, y: True)
    north_all = sorted(set(north) | set(split))
    edges = b.edges()
    jungle = sorted(h for h, d in b.hexes.items() if d["terrain"] == "jungle")
    forbidden = sorted(h for h, d in b.hexes.items()
                       if d["terrain"] == "village" or d["mekong"] == "all_water" or h in ("0934", "1606"))
    edges["east_north_of_mekong"] = [h for h in edges["east"] if h in north]
    extra = {
        "regions": {
            "north_of_mekong": north_all,
            "ngu_hiep_island": sorted(island),
            "mekong_all_water": sorted(h for h, d in b.hexes.items() if d["mekong"] == "all_water"),
            "mekong_split": split,
            "jungle": jungle,
            "vc_setup_forbidden": forbidden,
        },
        "objectives": {"to_dong_tam": "0934", "checkpoint": "1606", "river_entry": ["0734", "0833"]},
        "edges": edges,
        "named_rivers": sorted(b.river_paths),
    }
    return b.document(SN_TITLE, SN_PROVENANCE, extra)


# =============================================================================================
# 5. The Iron Triangle (VB 27.0)
# =============================================================================================
IT_GRID = HexGrid(first_col=1, first_row=1, cols=48, rows=34, shifted="even", digits=2)
# Projection (ours): a similarity transform fixed by two rulebook anchors. Ben Suc (fact sheet
# 11.17N 106.465E) is hex 1210 (VB 24.0); the Saigon River point 11.00N 106.635E (between the
# Thi Tinh confluence and Phu Cuong) is the middle of hexside 4223/4323 (VB 27.0). That gives
# hexes of about 0.9 km and a map whose top edge faces about 19 degrees east of north: the
# printed numbering cannot be laid north-up over the real river (columns 12 -> 42 span 13 rows).
IT_BEN_SUC = (11.17, 106.465)
IT_RIVER_POINT = (11.00, 106.635)

IT_TITLE = "The Iron Triangle — the Saigon and Thi Tinh rivers, Ben Suc, the Filhol, Cu Chi, January 1967 (Warlog approximation)"
IT_PROVENANCE = (
    "Authored by Warlog, not transcribed: the printed Vietnam Battles maps are not available to us. "
    "Generated by tools/vb_author_maps.py from public geography (iron-triangle-1967-geo.md: the Saigon "
    "and Thi Tinh rivers, the Iron Triangle outline, Ben Suc, Ben Cat, Rach Bap, Phu Hoa Dong, Cu Chi, "
    "the Filhol and Route 13 rubber, the Thanh Dien, Ho Bo and Boi Loi woods, the Cu Chi tunnel belt, "
    "Routes 1 and 13 and the river road) by centre-point rules and hand overrides. From the rulebook: "
    "the hex numbering, Ben Suc village at 1210, the 12xx column, the Saigon River hexside 4223/4323, "
    "the red (west/north) exit edges, the east entry edge, the Filhol plantation dividing the two US "
    "set-up areas south of the Saigon, the tunnel hexes south of the Saigon; the terrain classes are "
    "the CRT's. Everything else is ours (docs/games/vietnam-battles-data.md). An owner of the printed "
    "game may replace this file with a transcription of the printed map in the same schema."
)

IT_TOWNS = ("ben_cat", "cu_chi", "phu_cuong", "lai_khe", "dau_tieng", "trang_bang", "hoc_mon", "lai_thieu")
IT_VILLAGES = ("rach_bap", "phu_hoa_dong", "trung_lap", "bau_bang", "ben_duoc", "an_tay")
IT_NAMES = {"ben_cat": "Ben Cat", "cu_chi": "Cu Chi", "phu_cuong": "Phu Cuong", "lai_khe": "Lai Khe",
            "dau_tieng": "Dau Tieng", "trang_bang": "Trang Bang", "hoc_mon": "Hoc Mon", "lai_thieu": "Lai Thieu",
            "rach_bap": "Rach Bap", "phu_hoa_dong": "Phu Hoa Dong", "trung_lap": "Trung Lap",
            "bau_bang": "Bau Bang", "ben_duoc": "Ben Duoc", "an_tay": "An Tay"}


def it_projection() -> Projection:
    m_ben_suc = centre_xy(IT_GRID, "1210")
    c4223, c4323 = centre_xy(IT_GRID, "4223"), centre_xy(IT_GRID, "4323")
    m_river = ((c4223[0] + c4323[0]) / 2, (c4223[1] + c4323[1]) / 2)
    return projection_two_points(IT_BEN_SUC, m_ben_suc, IT_RIVER_POINT, m_river)


# For the preview's overlay: map name -> (projection, vendored fact sheet)
PROJECTIONS: dict[str, tuple[Callable[[], Projection], str]] = {}


def build_iron_triangle() -> dict[str, Any]:
    geo = load_geo("iron-triangle-1967-geo.md")
    places = by_id(geo["places"])
    rivers = by_id(geo["rivers"])
    roads = by_id(geo["roads"])
    areas = by_id(geo["areas"])
    b = Builder("vb-iron-triangle-warlog-1", IT_GRID, it_projection())
    G = b.geo

    # -- terrain by centre point ------------------------------------------------------------------
    for lab in IT_GRID.labels():
        p = b.xy(lab)
        for aid in ("thanh_dien_forest", "ho_bo_woods", "boi_loi_woods", "iron_triangle"):
            if point_in_poly(p, b.poly(areas[aid]["points"])):
                b.set_terrain(lab, "jungle")
        for aid in ("filhol_plantation", "michelin_plantation", "route13_rubber"):
            if point_in_poly(p, b.poly(areas[aid]["points"])):
                b.set_terrain(lab, "plantation")

    # -- rivers --------------------------------------------------------------------------------------
    sg = rivers["saigon_river"]["points"]
    steps: list[tuple[str, Any]] = [("pt", G(*p)) for p in sg[2:5]]
    steps += [("side", "1111/1210")]          # Ben Suc on the NE (Triangle) bank, VB 24.0
    steps += [("pt", G(*p)) for p in sg[6:14]]
    steps += [("side", "4223/4323")]          # VB 27.0: the monitor and tango start hexside
    steps += [("pt", G(*p)) for p in sg[15:18]]
    path = b.trace_river("Saigon River", steps, end=b.on_edge, start_edge=True)
    on_saigon = set(path)
    tt = rivers["thi_tinh"]["points"]
    b.trace_river("Thi Tinh", [("pt", G(*p)) for p in tt[3:-1]], end=lambda v: v in on_saigon,
                  start_edge=True, no_monitor=True)

    # -- places ----------------------------------------------------------------------------------------
    for pid in IT_TOWNS:
        h = b.hex_of_geo(places[pid]["lat"], places[pid]["lon"])
        if h:
            b.set_terrain(h, "town")
            b.name(h, IT_NAMES[pid])
    for pid in IT_VILLAGES:
        h = b.hex_of_geo(places[pid]["lat"], places[pid]["lon"])
        if h:
            b.set_terrain(h, "village")
            b.name(h, IT_NAMES[pid])
    b.set_terrain("1210", "village", "VB 24.0: Ben Suc village is hex 1210")
    b.name("1210", "Ben Suc")

    # -- roads and trails -------------------------------------------------------------------------------
    def route(rid: str) -> list[Pt]:
        return [G(*p) for p in roads[rid]["points"]]
    b.trace_route(route("route_13"), "road", True)
    b.trace_route(route("route_1"), "road", True)
    # The river road keeps to the NE bank: below the Thi Tinh bridge (near the apex) it follows the
    # bank to Phu Cuong through two waypoints of ours, so that it never crosses the Saigon.
    rr = route("river_road_ne_bank")
    b.trace_route([rr[0], M(44.0, 22.4), M(39.0, 20.3)] + rr[2:], "road", True)  # bridges the Thi Tinh near the apex
    b.trace_route(route("ben_cat_an_tay_road"), "road", True)        # the Ben Cat bridge over the Thi Tinh
    b.trace_route(route("cu_chi_phu_hoa_dong_road"), "road", True)
    b.trace_route(route("ben_suc_ferry_road") + [b.xy("1210")], "trail", False)   # the Ben Suc ferry: no bridge

    # -- regions ----------------------------------------------------------------------------------------
    def no_river(x: str, y: str) -> bool:
        return not b.sides.get(hexside(x, y), {}).get("river")
    cu_chi = b.hex_of_geo(places["cu_chi"]["lat"], places["cu_chi"]["lon"])
    assert cu_chi
    south = b.flood([cu_chi], lambda h: True, lambda x, y: b.sides.get(hexside(x, y), {}).get("river") != "Saigon River")
    bs, bc = b.xy("1210"), G(places["ben_cat"]["lat"], places["ben_cat"]["lon"])

    def below_line(h: str) -> bool:   # south of the Ben Suc - Ben Cat line (map coordinates)
        x, y = b.xy(h)
        t = (x - bs[0]) / (bc[0] - bs[0])
        return y >= bs[1] + t * (bc[1] - bs[1]) - 0.25
    seed = b.hex_of_geo(places["rach_bap"]["lat"], places["rach_bap"]["lon"])
    assert seed
    triangle = b.flood([seed], lambda h: below_line(h) and h not in south, no_river)
    triangle = sorted(set(triangle) | {"1210"})
    tunnel_poly = b.poly(areas["cu_chi_tunnel_zone"]["points"])
    tunnels = sorted(h for h in south if point_in_poly(b.xy(h), tunnel_poly))
    for h in tunnels:
        b.add_feature(h, "tunnels")
    # Clearings (fact sheet: villages, orchards and rice fields along the river road inside the
    # Triangle; elephant grass in the northern clearings): Triangle hexes on the river road.
    for h in triangle:
        if b.hexes[h]["road"] and b.hexes[h]["terrain"] == "jungle":
            b.set_terrain(h, "clear")
    filhol_poly = b.poly(areas["filhol_plantation"]["points"])
    filhol = sorted(h for h in south if point_in_poly(b.xy(h), filhol_poly))
    west_col = min(int(h[:2]) for h in filhol)
    edges = b.edges()
    edges["red"] = sorted(set(edges["west"]) | set(edges["north"]))
    b.finish_features()
    extra = {
        "regions": {
            "iron_triangle": triangle,
            "south_of_saigon": south,
            "filhol_plantation": filhol,
            "setup_2_25": sorted(h for h in south if int(h[:2]) >= west_col),
            "setup_196": sorted(h for h in south if int(h[:2]) < west_col),
            "vc_setup": sorted(h for h in triangle if int(h[:2]) >= 12),
            "tunnels": tunnels,
            "b52_targets": sorted(h for h in triangle if b.hexes[h]["terrain"] not in ("town", "village")),
        },
        "objectives": {"ben_suc": "1210", "monitor_start": "4223/4323"},
        "edges": edges,
        "named_rivers": sorted(b.river_paths),
    }
    return b.document(IT_TITLE, IT_PROVENANCE, extra)


# =============================================================================================
# 6. Output
# =============================================================================================
PROJECTIONS.update({"snoopys-nose": (sn_projection, "snoopys-nose-1967-geo.md"),
                    "iron-triangle": (it_projection, "iron-triangle-1967-geo.md")})

OUTPUTS: dict[str, Callable[[], dict[str, Any]]] = {
    "snoopys-nose-map.json": build_snoopys_nose,
    "iron-triangle-map.json": build_iron_triangle,
}


def render(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def report(name: str, doc: dict[str, Any]) -> None:
    from collections import Counter
    t = Counter(h["terrain"] for h in doc["hexes"].values())
    mk = Counter(h["mekong"] for h in doc["hexes"].values() if h["mekong"])
    rivers = Counter(s["river"] for s in doc["hexsides"].values() if s["river"])
    bridges = sorted(k for k, s in doc["hexsides"].items() if s["bridge"])
    cut = sorted(k for k, s in doc["hexsides"].items() if s["road_drawn"] and not s["bridge"])
    print(f"{name}: {doc['grid']['cols']}x{doc['grid']['rows']} hexes, {doc['projection']}")
    print("  terrain", dict(sorted(t.items())), "mekong", dict(sorted(mk.items())))
    print("  rivers", dict(sorted(rivers.items())), "bridges", bridges, "unbridged crossings", cut)
    print("  regions", {k: len(v) for k, v in doc["regions"].items()})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 if a file differs from what would be written")
    ap.add_argument("--report", action="store_true")
    args = ap.parse_args(argv)
    bad = 0
    for name, fn in OUTPUTS.items():
        doc = fn()
        text = render(doc)
        path = DATA / name
        if args.report:
            report(name, doc)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"{path} is not what tools/vb_author_maps.py writes", file=sys.stderr)
                bad = 1
        else:
            path.write_text(text, encoding="utf-8")
    return bad


if __name__ == "__main__":
    sys.exit(main())
