"""A Vietnam Battles map as SVG, the same for every state and built once per map: terrain (a
colour-blind safe palette, each terrain told apart by lightness and its own pattern), the
Mekong (all-water hexes, bank hexes with their water side, split hexes with both land
portions and the channel between), rivers on hexsides with their names, roads, trails and
bridges, hex numbers, named places, the Iron Triangle's outline, the tunnel hexes and the red
exit edges, and the title band."""

from __future__ import annotations

import math
from functools import lru_cache

from rules.vietnam_battles.data import World
from warlog.render.boardkit import arrow_marker, map_frame
from warlog.render.hexmap import HexLayout, Point, el, line, num, points, text
from warlog.render.vietnam_battles.geometry import BAND, S, VbLayout, layout, world

RIVER = "#2166ac"
ROAD = "#7a4a1e"
RED_EDGE = "#cc3311"  # Tol's vibrant red
OUTLINE = "#1d1d1b"
WATER = "#3f7fba"

# terrain -> (base colour, pattern id or None, label); lightest (open paddy) to darkest (jungle, water)
TERRAIN: dict[str, tuple[str, str | None, str]] = {
    "clear": ("#eef0c8", "v-paddy", "Clear (rice paddy)"),
    "village": ("#ecdcb8", None, "Village"),
    "town": ("#dcc8a6", "v-town", "Town"),
    "cp": ("#dcc8a6", None, "C.P. (checkpoint)"),
    "hill": ("#c9a87a", "v-hill", "Hill"),
    "plantation": ("#b9cf86", "v-plantation", "Plantation (rubber)"),
    "swamp": ("#9fc9bd", "v-swamp", "Swamp (Plain of Reeds)"),
    "jungle": ("#4d8446", "v-jungle", "Jungle"),
    "all_water": (WATER, "v-water", "All-water Mekong hex"),
}
TITLES = {"snoopy": ("VIETNAM BATTLES · SNOOPY'S NOSE", "Dinh Tuong, the Mekong delta, 1967 · 1 hex ≈ 0.44 km"),
          "iron": ("VIETNAM BATTLES · THE IRON TRIANGLE", "Binh Duong, Operation Cedar Falls, January 1967 · "
                                                        "1 hex ≈ 0.9 km · map top ≈ 20° east of north")}


def defs(prefix: str = "") -> str:
    """Terrain patterns and the highlights' arrowhead (ids prefixed for a second copy on a page)."""
    p = prefix

    def pattern(pid: str, w: int, h: int, body: str) -> str:
        return el("pattern", body, id=f"{p}{pid}", width=str(w), height=str(h), patternUnits="userSpaceOnUse")

    def base(t: str, w: int, h: int) -> str:
        return el("rect", width=str(w), height=str(h), fill=TERRAIN[t][0])

    return el("defs", "".join([
        pattern("v-paddy", 12, 12, base("clear", 12, 12)
                + el("path", d="M0,0.5 H12 M0.5,0 V12", stroke="#c9d39a", stroke_width="0.8", fill="none")
                + el("path", d="M4,8 v-2.2 M6,8 v-2.8 M8,8 v-2.2", stroke="#8fae6e", stroke_width="0.7")),
        pattern("v-town", 10, 10, base("town", 10, 10)
                + el("rect", x="1.5", y="1.5", width="4", height="3", fill="#8c7a62")
                + el("rect", x="6", y="6", width="3", height="3", fill="#8c7a62")),
        pattern("v-hill", 17, 16, base("hill", 17, 16)
                + el("path", d="M1,8 L4.5,3 L8,8 M9,15 L12.5,10 L16,15", stroke="#6b4b26", stroke_width="1.2",
                     fill="none")),
        pattern("v-plantation", 9, 9, base("plantation", 9, 9)
                + el("circle", cx="2.5", cy="2.5", r="1.5", fill="#5d7a2e") + el("circle", cx="7", cy="7", r="1.5",
                                                                                fill="#5d7a2e")),
        pattern("v-swamp", 14, 12, base("swamp", 14, 12)
                + el("path", d="M2,9 h5 M3,9 l-1,-3 M4.5,9 v-4 M6,9 l1,-3 M8,4 h5", stroke="#2e6b5e",
                     stroke_width="0.8", fill="none")),
        pattern("v-jungle", 13, 12, base("jungle", 13, 12)
                + el("circle", cx="3", cy="3", r="2.6", fill="#2c5a29") + el("circle", cx="10", cy="9", r="2.6",
                                                                            fill="#2c5a29")),
        pattern("v-water", 18, 9, base("all_water", 18, 9)
                + el("path", d="M0,5 q2.25,-2.5 4.5,0 t4.5,0 t4.5,0 t4.5,0", stroke="#9cc3e4", stroke_width="0.9",
                     fill="none")),
        arrow_marker(p),
    ]))


def terrain_fill(terrain: str, prefix: str = "") -> str:
    colour, pat, _ = TERRAIN.get(terrain, TERRAIN["clear"])
    return f"url(#{prefix}{pat})" if pat else colour


def describe_hex(w: World, h: str) -> str:
    """A hex's tooltip: number, name, terrain, its Mekong state, its cost and CRT row."""
    hx = w.hexes[h]
    t = str(hx.get("terrain", "clear"))
    bits = [TERRAIN.get(t, TERRAIN["clear"])[2]]
    mk = hx.get("mekong")
    if mk == "split":
        bits.append("split by the Mekong: two land portions (VB 19.0)")
    elif mk == "bank":
        bits.append("Mekong bank")
    if "tunnels" in hx.get("features", []):
        bits.append("Cu Chi tunnels (VB 22.0)")
    info = w.terrain_info(h)
    cost = "no land units" if info.get("prohibited") else f"{info.get('mp', 1)} MP, CRT row {info.get('row')}"
    name = f" {hx['name']}" if hx.get("name") else ""
    return f"{h}{name}: {', '.join(bits)}; {cost}"


@lru_cache(maxsize=2)
def static_map(which: str) -> str:
    w, lay = world(which), layout(which)
    out = [el("rect", width=num(lay.width), height=num(lay.height), fill="#f7f5ee")]
    out.append(terrain(w, lay))
    out.append(_regions(w, lay))
    out.append(_rivers(w, lay))
    out.append(_roads(w, lay))
    out.append(_places(w, lay))
    out.append(el("g", "".join(_river_label(lay, n, k) for n, k in sorted(rivers_by_name(w).items())),
                  class_="places river-names"))
    m = lay.margin / 2
    title, sub = TITLES[which]
    out.append(el("rect", x=num(m), y=num(m), width=num(lay.width - 2 * m), height=num(BAND), fill="#22301c"))
    out.append(text(m + 12, m + 22, title, class_="map-title", font_size="15", font_weight="bold", fill="#f3f0e2", letter_spacing="0.5"))
    out.append(text(m + 12, m + 38, sub, font_size="9", fill="#d9dcc0"))
    out.append(map_frame(lay))
    return "".join(out)


def terrain(w: World, lay: VbLayout) -> str:
    """Every hex (and each split hex's two land portions, `data-hex` "0826:north") in the
    `terrain` group the page's script reads; bank hexes get their water side."""
    out = []
    for h in sorted(w.hexes):
        hx = w.hexes[h]
        t = str(hx.get("terrain", "clear"))
        split = [n for n in lay.portions if n.startswith(h + ":")]
        fill = terrain_fill("all_water" if split else t)
        cls = "hex t-" + ("mekong-split" if split else t)
        out.append(el("polygon", el("title", describe_hex(w, h)), points=lay.polygon(h), fill=fill, class_=cls,
                      data_hex=h))
        for n in sorted(split):
            title = f"{n}: the {n.split(':')[1]} land portion of split hex {h} ({TERRAIN.get(t, TERRAIN['clear'])[2]})"
            out.append(el("polygon", el("title", title), points=points(lay.portions[n][0]), fill=terrain_fill(t),
                          class_=f"hex portion t-{t}", data_hex=n))
        if hx.get("mekong") == "bank":
            out.append(_bank_water(w, lay, h))
    return el("g", "".join(out), class_="terrain")


def _bank_water(w: World, lay: HexLayout, h: str) -> str:
    """The water side of a Mekong bank hex: a strip along each hexside on the channel."""
    c = HexLayout.centre(lay, h)
    out = []
    for d in range(6):
        n = w.grid.neighbour(h, d)
        if n is None or w.hexes.get(n, {}).get("terrain") != "all_water":
            continue
        a, b = lay.corner(c, 4 + d), lay.corner(c, 5 + d)
        ia, ib = lay.corner(c, 4 + d, 0.55), lay.corner(c, 5 + d, 0.55)
        out.append(el("polygon", points=points([a, b, ib, ia]), fill="url(#v-water)", class_="bank-water"))
    return el("g", "".join(out), pointer_events="none") if out else ""


def edge_of(lay: HexLayout, key: str) -> tuple[Point, Point]:
    a, b = key.split("/")
    return lay.edge(a, b)


def rivers_by_name(w: World) -> dict[str, list[str]]:
    """Each river's hexsides, by its name."""
    out: dict[str, list[str]] = {}
    for key in sorted(w.hexsides):
        sd = w.hexsides[key]
        if sd.get("river") or sd.get("kind") in ("river", "stream", "canal"):
            out.setdefault(str(sd.get("river") or "river"), []).append(key)
    return out


def _rivers(w: World, lay: HexLayout) -> str:
    """Rivers and streams on their hexsides (the Thi Tinh, closed to monitors, thinner)."""
    halo, body = [], []
    for name, keys in sorted(rivers_by_name(w).items()):
        no_monitor = any(w.hexsides[k].get("no_monitor") for k in keys)
        for k in keys:
            p, q = edge_of(lay, k)
            halo.append(line(p, q, stroke="#e8f3fa", stroke_width="8", stroke_linecap="round"))
            body.append(line(p, q, stroke=RIVER, stroke_width="3.4" if no_monitor else "4.6", stroke_linecap="round",
                             class_="river", data_river=name))
    return el("g", "".join(halo + body), class_="rivers")


def _river_label(lay: HexLayout, name: str, keys: list[str]) -> str:
    """The river's name along one of its hexsides near its middle (sorted by position)."""
    order = sorted(keys, key=lambda k: (lay.centre(k.split("/")[0])[1], k))
    k = order[len(order) // 3]
    (x1, y1), (x2, y2) = edge_of(lay, k)
    ang = math.degrees(math.atan2(y2 - y1, x2 - x1))
    if ang > 90:
        ang -= 180
    elif ang < -90:
        ang += 180
    x, y = (x1 + x2) / 2, (y1 + y2) / 2
    return text(x, y - 6, name, class_="river-name", text_anchor="middle",
                transform=f"rotate({num(ang)} {num(x)} {num(y)})")


def road_links(w: World) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[tuple[str, str]]]:
    """(roads, trails, roads drawn but cut by a river without a bridge), as hex pairs."""
    roads, trails, cut = [], [], []
    for key in sorted(w.hexsides):
        sd = w.hexsides[key]
        a, b = key.split("/")
        if sd.get("road"):
            roads.append((a, b))
        elif sd.get("trail"):
            trails.append((a, b))
        elif sd.get("road_drawn"):
            cut.append((a, b))
    return roads, trails, cut


def _roads(w: World, lay: HexLayout) -> str:
    roads, trails, cut = road_links(w)
    c = lay.centre
    out = [line(c(a), c(b), stroke="#fff6e0", stroke_width="5.5", stroke_linecap="round") for a, b in roads]
    out += [line(c(a), c(b), stroke=ROAD, stroke_width="2.6", stroke_linecap="round", class_="road") for a, b in roads]
    out += [line(c(a), c(b), stroke=ROAD, stroke_width="1.8", stroke_dasharray="4 3", class_="trail")
            for a, b in trails]
    out += [line(c(a), c(b), stroke=ROAD, stroke_width="1.8", stroke_dasharray="1 4", stroke_linecap="round",
                 class_="road-cut") for a, b in cut]
    return el("g", "".join(out), class_="roads")


def bridge(lay: HexLayout, key: str, state: str = "") -> str:
    """A bridge across a river hexside, along the road: a deck with parapets; "down" crossed
    out in red (VB 18.0), "engineer" a pontoon bridge (VB 18.3)."""
    a, b = key.split("/")
    (x1, y1), (x2, y2) = lay.centre(a), lay.centre(b)
    return bridge_at((x1 + x2) / 2, (y1 + y2) / 2, math.degrees(math.atan2(y2 - y1, x2 - x1)), state, key)


def bridge_at(x: float, y: float, ang: float, state: str = "", key: str = "") -> str:
    deck = "#9fb8c9" if state == "engineer" else "#d9d2c3"
    body = el("rect", x=num(x - 9), y=num(y - 4.5), width="18", height="9", fill=deck, stroke="#26231f",
              stroke_width="1.4", rx="1")
    body += el("path", d=f"M{num(x - 11)},{num(y - 7)} l2,2.5 M{num(x + 11)},{num(y - 7)} l-2,2.5 "
                         f"M{num(x - 11)},{num(y + 7)} l2,-2.5 M{num(x + 11)},{num(y + 7)} l-2,-2.5",
               stroke="#26231f", stroke_width="1.3", fill="none")
    if state == "down":
        body += el("path", d=f"M{num(x - 7)},{num(y - 7)} L{num(x + 7)},{num(y + 7)} M{num(x + 7)},{num(y - 7)} "
                              f"L{num(x - 7)},{num(y + 7)}", stroke="#c0182a", stroke_width="2.8")
    what = {"down": "Demolished bridge (VB 18.0)", "engineer": "Engineer bridge (VB 18.3)"}.get(state, "Bridge")
    return el("g", el("title", f"{what} {key}".strip()) + body, class_="bridge " + (state or "intact"),
              transform=f"rotate({num(ang)} {num(x)} {num(y)})" if ang else None, data_hexside=key or None)


def _regions(w: World, lay: HexLayout) -> str:
    """The Iron Triangle's outline (VB 23.0, 27.0), the tunnel hexes (VB 22.0), fortifications
    (VB 7.5) and minefield hexsides (VB 5.1.2) where a map has them, and the red map edges the VC
    may leave by (VB 27.0)."""
    out = []
    tri = set(w.regions.get("iron_triangle", []))
    segs = []
    for h in sorted(tri):
        for d in range(6):
            n = w.grid.neighbour(h, d)
            if n not in tri:
                c = HexLayout.centre(lay, h)
                segs.append(f"M{points([lay.corner(c, 4 + d, 0.93)])}L{points([lay.corner(c, 5 + d, 0.93)])}")
    if segs:
        out.append(el("path", d="".join(segs), fill="none", stroke="#fff", stroke_width="5.5", stroke_linecap="round",
                      opacity="0.8"))
        out.append(el("path", d="".join(segs), fill="none", stroke=OUTLINE, stroke_width="2.6",
                      stroke_dasharray="9 4", stroke_linecap="round", class_="iron-triangle"))
        cs = [HexLayout.centre(lay, h) for h in sorted(tri)]
        x, y = sum(c[0] for c in cs) / len(cs), sum(c[1] for c in cs) / len(cs)
        out.append(text(x, y, "IRON TRIANGLE", class_="region-name", text_anchor="middle",
                        transform=f"rotate(-22 {num(x)} {num(y)})"))
    for h in sorted(w.regions.get("tunnels", [])):
        x, y = HexLayout.centre(lay, h)
        out.append(el("path", d=f"M{num(x - 17)},{num(y + 16)} v-3 a3,3 0 0 1 6,0 v3", fill="none", stroke="#5b3a1a",
                      stroke_width="1.3", class_="tunnel"))
    for h in sorted(w.hexes):  # none on the shipped maps (Part VIII): a transcription may add them
        if "fortification" in (w.hexes[h].get("features") or ()):
            x, y = HexLayout.centre(lay, h)
            out.append(fortification(x + S * 0.55, y - 4))
    for key in sorted(k for k, sd in w.hexsides.items() if sd.get("minefield")):
        (x1, y1), (x2, y2) = edge_of(lay, key)
        out.append(line((x1, y1), (x2, y2), stroke="#cc3311", stroke_width="3", stroke_dasharray="2 3",
                        class_="minefield"))
    red = []
    for h in sorted(w.edges.get("red", [])):
        c = HexLayout.centre(lay, h)
        for d in range(6):
            if w.grid.neighbour(h, d) is None:
                p, q = lay.corner(c, 4 + d), lay.corner(c, 5 + d)
                red.append(f"M{points([p])}L{points([q])}")
    if red:
        out.append(el("path", d="".join(red), fill="none", stroke=RED_EDGE, stroke_width="6", stroke_linecap="round",
                      class_="red-edge"))
    return el("g", "".join(out), class_="regions")


def fortification(x: float, y: float) -> str:
    """A fortification (VB 7.5): a small square fort with a bastion at each corner."""
    d = "".join(f"M{num(x + dx - 2)},{num(y + dy - 2)} h4 v4 h-4 z" for dx in (-5, 5) for dy in (-5, 5))
    return el("g", el("title", "Fortification (VB 7.5)")
              + el("rect", x=num(x - 5), y=num(y - 5), width="10", height="10", fill="none", stroke="#1d1d1b",
                   stroke_width="1.6") + el("path", d=d, fill="#1d1d1b"), class_="fortification")


def village(x: float, y: float, n: int = 3) -> str:
    """Huts (three for a village, five for a town)."""
    spots = ((-5, 1), (3, -2), (4, 5), (-4, -5), (-1, 7))[:n]
    return "".join(el("polygon", points=points([(x + dx - 3, y + dy), (x + dx, y + dy - 3.5), (x + dx + 3, y + dy),
                                                 (x + dx + 3, y + dy + 3), (x + dx - 3, y + dy + 3)]),
                      fill="#1d1d1b") for dx, dy in spots)


def checkpoint(x: float, y: float) -> str:
    """The C.P.: a flag on a post inside a square (the district HQ on Route 4)."""
    return (el("rect", x=num(x - 8), y=num(y - 7), width="16", height="14", fill="none", stroke="#1d1d1b",
               stroke_width="1.4")
            + el("path", d=f"M{num(x - 3)},{num(y + 5)} V{num(y - 5)} l7,2.5 l-7,2.5", fill="#1d1d1b",
                 stroke="#1d1d1b", stroke_width="1.2"))


def _places(w: World, lay: HexLayout) -> str:
    """Hex numbers at the top of each hex; villages, towns, the C.P. and the map's names."""
    hh = lay.hex_height
    out = []
    for h in sorted(w.hexes):
        x, y = HexLayout.centre(lay, h)
        water = w.hexes[h].get("terrain") == "all_water" or w.hexes[h].get("mekong") == "split"
        out.append(text(x, y - hh / 2 + 8, h, class_="hexnum water" if water else "hexnum", text_anchor="middle"))
    for h, hx in sorted(w.hexes.items()):
        x, y = HexLayout.centre(lay, h)
        t = hx.get("terrain")
        if t == "village":
            out.append(village(x - 12, y + 7))
        elif t == "town":
            out.append(village(x - 12, y + 5, 5))
        elif t == "cp":
            out.append(checkpoint(x - 13, y + 8))
        if hx.get("name"):
            out.append(text(x, y + hh / 2 - 3, str(hx["name"]), class_="place", text_anchor="middle"))
    return el("g", "".join(out), class_="places")
