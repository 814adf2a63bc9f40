"""The Green Beret: Vietnam map as SVG, the same for every state and built once: terrain (a
colour-blind safe palette, each terrain told apart by lightness and its own pattern), the
streams drawn through their hexes to the sea, the road network with its bridges, hex numbers,
villages and airfields with their names, and the title cartouche."""

from __future__ import annotations

import math
from functools import lru_cache

from rules.green_beret_vietnam.data import World, load_world
from warlog.render.boardkit import arrow_marker, map_frame, terrain_layer
from warlog.render.hexmap import HexLayout, Point, el, line, num, points, text

GAME = "green-beret-vietnam"
S = 28.0  # hex corner radius: 26 x 36 hexes in about 1130 x 1800 pixels
BAND = 62.0  # the title and status band above the hexes
STREAM = "#2166ac"
ROAD = "#7a4a1e"

# terrain -> (base colour, pattern id or None, label); lightest (open ground) to darkest (jungle, sea)
TERRAIN: dict[str, tuple[str, str | None, str]] = {
    "coast": ("#f3e4b8", "g-coast", "Coast"),
    "grassland": ("#e6e9b4", None, "Grassland"),
    "village": ("#e6e9b4", None, "Village"),
    "airfield": ("#dcdad0", None, "Airfield"),
    "rice_paddy": ("#cfe6c6", "g-paddy", "Rice paddy"),
    "stream": ("#b8dcef", None, "Stream"),
    "mountain": ("#c9a87a", "g-mountain", "Mountain"),
    "jungle_mountain": ("#7e8d4c", "g-jmountain", "Jungle mountain"),
    "jungle": ("#4d8446", "g-jungle", "Jungle"),
    "full_water": ("#3f7fba", "g-water", "Full water"),
}


world = load_world  # the game's own data (rules/green_beret_vietnam/data), read once


@lru_cache(maxsize=1)
def layout() -> HexLayout:
    return HexLayout(world().grid, S, 14.0, BAND)


def defs(prefix: str = "") -> str:
    """Terrain patterns and the highlights' arrowhead (ids prefixed for a second copy on a page)."""
    p = prefix

    def pattern(pid: str, w: int, h: int, body: str) -> str:
        return el("pattern", body, id=f"{p}{pid}", width=str(w), height=str(h), patternUnits="userSpaceOnUse")

    trees = "".join(el("circle", cx=str(x), cy=str(y), r="2.6", fill="#2c5a29") for x, y in ((3, 3), (10, 9)))
    ridges = 'M1,8 L4.5,3 L8,8 M9,15 L12.5,10 L16,15'
    return el("defs", "".join([
        pattern("g-coast", 8, 8, el("rect", width="8", height="8", fill=TERRAIN["coast"][0])
                + el("circle", cx="2", cy="2", r="0.8", fill="#b59a55") + el("circle", cx="6", cy="6", r="0.8",
                                                                             fill="#b59a55")),
        pattern("g-paddy", 10, 10, el("rect", width="10", height="10", fill=TERRAIN["rice_paddy"][0])
                + el("path", d="M0,0.5 H10 M0.5,0 V10", stroke="#6d9f86", stroke_width="0.9", fill="none")
                + el("path", d="M3,6 v-2 M5,6 v-2.5 M7,6 v-2", stroke="#3f7a4a", stroke_width="0.7")),
        pattern("g-mountain", 17, 16, el("rect", width="17", height="16", fill=TERRAIN["mountain"][0])
                + el("path", d=ridges, stroke="#6b4b26", stroke_width="1.2", fill="none")),
        pattern("g-jmountain", 17, 16, el("rect", width="17", height="16", fill=TERRAIN["jungle_mountain"][0])
                + el("path", d=ridges, stroke="#4a3417", stroke_width="1.3", fill="none")
                + el("circle", cx="13", cy="4", r="2.2", fill="#3d5a26") + el("circle", cx="4", cy="12", r="2.2",
                                                                             fill="#3d5a26")),
        pattern("g-jungle", 13, 12, el("rect", width="13", height="12", fill=TERRAIN["jungle"][0]) + trees),
        pattern("g-water", 18, 9, el("rect", width="18", height="9", fill=TERRAIN["full_water"][0])
                + el("path", d="M0,5 q2.25,-2.5 4.5,0 t4.5,0 t4.5,0 t4.5,0", stroke="#9cc3e4", stroke_width="0.9",
                     fill="none")),
        arrow_marker(p),
    ]))


def terrain_fill(terrain: str, prefix: str = "") -> str:
    colour, pat, _ = TERRAIN[terrain]
    return f"url(#{prefix}{pat})" if pat else colour


@lru_cache(maxsize=1)
def static_map() -> str:
    w, lay = world(), layout()
    out = [el("rect", width=num(lay.width), height=num(lay.height), fill="#f7f5ee")]
    out.append(terrain_layer(lay, ((lab, describe_hex(w, lab), terrain_fill(w.hexes[lab].terrain),
                                    "hex t-" + w.hexes[lab].terrain) for lab in sorted(w.hexes))))
    out.append(_streams(w, lay))
    out.append(_roads(w, lay))
    out.append(_places(w, lay))
    m = lay.margin / 2
    out.append(el("rect", x=num(m), y=num(m), width=num(lay.width - 2 * m), height=num(BAND), fill="#2f3b12"))
    out.append(text(m + 12, m + 24, "GREEN BERET: VIETNAM", class_="map-title", font_size="16", font_weight="bold", fill="#f3f0e2",
                    letter_spacing="0.5"))
    out.append(text(m + 12, m + 42, "Central Highlands · solitaire · 1 hex ≈ 2 km", font_size="9.5",
                    fill="#d9dcc0"))
    out.append(map_frame(lay))
    return "".join(out)


def describe_hex(w: World, lab: str) -> str:
    """A hex's tooltip: its number and name, terrain, features and costs (GBV 10.7, 12.1)."""
    h = w.hexes[lab]
    bits = [TERRAIN[h.terrain][2]] + [f.replace("_", " ") for f in h.features]
    cost = "no entry without a boat (11.0)" if h.mp is None else f"{h.mp} MP"
    return f"{h.title()}: {', '.join(bits)}; {cost}, noise {h.noise:+d}, attacked at {h.combat:+d}"


def _neighbours_where(w: World, lab: str, keep: set[str]) -> list[str]:
    return [n for n in w.neighbours(lab) if n in keep]


def _streams(w: World, lay: HexLayout) -> str:
    """Each stream as one line through its hexes' centres, run on into the water it reaches."""
    streams = {lab for lab, h in w.hexes.items() if h.stream}
    water = {lab for lab, h in w.hexes.items() if h.full_water or h.terrain == "coast"}
    segs: list[tuple[Point, Point]] = []
    for lab in sorted(streams):
        for n in _neighbours_where(w, lab, streams):
            if lab < n:
                segs.append((lay.centre(lab), lay.centre(n)))
        if len(_neighbours_where(w, lab, streams)) < 2:
            for n in sorted(_neighbours_where(w, lab, water), key=lambda n: not w.hexes[n].full_water)[:1]:
                segs.append((lay.centre(lab), lay.between(lab, n, 0.6)))
    body = "".join(line(p, q, stroke="#e8f3fa", stroke_width="7", stroke_linecap="round") for p, q in segs)
    body += "".join(line(p, q, stroke=STREAM, stroke_width="3.6", stroke_linecap="round", class_="stream")
                    for p, q in segs)
    return el("g", body, class_="streams")


def road_links(w: World) -> list[tuple[str, str]]:
    """The road network: the hexes with a road or a bridge, joined to their road neighbours by a
    spanning forest (so three road hexes round a corner draw one bend, not a triangle)."""
    roads = sorted(lab for lab, h in w.hexes.items() if h.road or h.bridge or "destroyed_bridge" in h.features)
    keep = set(roads)
    root = {lab: lab for lab in roads}

    def find(x: str) -> str:
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    links = []
    # straight runs first (same column), then the rest, each in label order: deterministic
    edges = sorted({(a, b) if a < b else (b, a) for a in roads for b in _neighbours_where(w, a, keep)},
                   key=lambda e: (e[0][:2] != e[1][:2], e))
    for a, b in edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            root[ra] = rb
            links.append((a, b))
    return links


def _roads(w: World, lay: HexLayout) -> str:
    out = []
    links = road_links(w)
    for a, b in links:
        out.append(line(lay.centre(a), lay.centre(b), stroke="#fff6e0", stroke_width="5", stroke_linecap="round"))
    for a, b in links:
        out.append(line(lay.centre(a), lay.centre(b), stroke=ROAD, stroke_width="2.4", stroke_linecap="round",
                        class_="road"))
    for lab in sorted(w.hexes):
        h = w.hexes[lab]
        if h.bridge or "destroyed_bridge" in h.features:
            ends = [b if a == lab else a for a, b in links if lab in (a, b)]
            p, q = (ends[0], ends[1]) if len(ends) > 1 else (ends[0], lab) if ends else (lab, lab)
            (x1, y1), (x2, y2) = lay.centre(p), lay.centre(q)
            angle = math.degrees(math.atan2(y2 - y1, x2 - x1)) if p != q else 0.0
            out.append(bridge(lay.centre(lab), "destroyed_bridge" in h.features, lab, angle))
    return el("g", "".join(out), class_="roads")


def bridge(c: Point, destroyed: bool, lab: str = "", angle: float = 0.0) -> str:
    """A bridge along the road: a deck with its parapets; a destroyed one crossed out in red."""
    x, y = c
    body = el("rect", x=num(x - 7), y=num(y - 4), width="14", height="8", fill="#d9d2c3", stroke="#26231f",
              stroke_width="1.4", rx="1")
    body += el("path", d=f"M{num(x - 9)},{num(y - 6)} l2,2 M{num(x + 9)},{num(y - 6)} l-2,2 "
                         f"M{num(x - 9)},{num(y + 6)} l2,-2 M{num(x + 9)},{num(y + 6)} l-2,-2",
               stroke="#26231f", stroke_width="1.3", fill="none")
    if destroyed:
        body += el("path", d=f"M{num(x - 6)},{num(y - 6)} L{num(x + 6)},{num(y + 6)} M{num(x + 6)},{num(y - 6)} "
                              f"L{num(x - 6)},{num(y + 6)}", stroke="#c0182a", stroke_width="2.4")
    title = el("title", ("Destroyed bridge" if destroyed else "Bridge") + (f" ({lab})" if lab else ""))
    return el("g", title + body, class_="bridge destroyed" if destroyed else "bridge",
              transform=f"rotate({num(angle)} {num(x)} {num(y)})" if angle else None)


def village(x: float, y: float) -> str:
    """Three huts."""
    out = []
    for dx, dy in ((-5, 1), (3, -2), (4, 5)):
        hx, hy = x + dx, y + dy
        out.append(el("polygon", points=points([(hx - 3, hy), (hx, hy - 3.5), (hx + 3, hy), (hx + 3, hy + 3),
                                                (hx - 3, hy + 3)]), fill="#1d1d1b"))
    return "".join(out)


def airfield(x: float, y: float) -> str:
    """A runway with its centre line."""
    return (el("rect", x=num(x - 13), y=num(y - 3), width="26", height="6", fill="#5f5f5f",
               transform=f"rotate(-30 {num(x)} {num(y)})")
            + el("path", d=f"M{num(x - 10)},{num(y)} H{num(x + 10)}", stroke="#fff", stroke_width="0.9",
                 stroke_dasharray="3 2", transform=f"rotate(-30 {num(x)} {num(y)})"))


def _places(w: World, lay: HexLayout) -> str:
    """Hex numbers at the top of each hex; villages, airfields and their names."""
    top, bottom = lay.hex_height / 2 - 8, lay.hex_height / 2 - 4
    out = [text(lay.centre(lab)[0], lay.centre(lab)[1] - top, lab, class_="hexnum", text_anchor="middle")
           for lab in sorted(w.hexes)]
    for lab, h in sorted(w.hexes.items()):
        cx, cy = lay.centre(lab)
        symbol = {"village": village, "airfield": airfield}.get(h.terrain)
        if symbol is not None:
            out.append(symbol(cx, cy + 1))
        if h.name:
            out.append(text(cx, cy + bottom, h.name, class_="place", text_anchor="middle"))
    return el("g", "".join(out), class_="places")
