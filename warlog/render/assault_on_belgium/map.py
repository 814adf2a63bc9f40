"""The printed Assault on Belgium map as SVG, the same for every state and built once:
terrain (a colour-blind safe palette by lightness, each terrain with its own pattern), country
borders, rivers on hexsides, roads and bridges where the data has them, hex numbers, cities
with their AA strength, fortresses, objectives and the title cartouche."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules import get_game
from rules.assault_on_belgium.data import World, read_data
from warlog.render.boardkit import arrow_marker, map_frame, star_points, terrain_layer
from warlog.render.hexmap import HexLayout, el, line, num, text

GAME = "assault-on-belgium"
S = 46.0  # hex corner radius

TERRAIN_PATTERN = {"forest": "t-forest", "rough": "t-rough", "hex_city": "t-city", "sea": "t-sea"}
CLEAR_TINT = {"BE": "#f4e9c8", "DE": "#e3e3d9", "NL": "#f2dcc6", "FR": "#e6ebd5", "LU": "#ebe1ea"}
TERRAIN_LABEL = {"clear": "Clear", "forest": "Forest", "rough": "Rough", "hex_city": "Hex city", "sea": "Sea"}
COUNTRY_NAME = {"BE": "BELGIQUE · BELGIË", "DE": "DEUTSCHES REICH", "NL": "NEDERLAND", "FR": "FRANCE",
                "LU": "LUXEMBOURG"}
COUNTRY_LABEL_HEX = {"FR": "0411", "NL": "1201", "DE": "2008", "LU": "1913", "BE": "0606"}
MAJOR_RIVERS = ("Meuse", "Scheldt", "Albert Canal")
RIVER = "#2166ac"
BATTLE = "#d55e00"


@lru_cache(maxsize=1)
def world() -> World:
    game: Any = get_game(GAME)
    w: World = game.world
    return w


@lru_cache(maxsize=1)
def layout() -> HexLayout:
    return HexLayout(world().grid, S, 14.0)


def defs(prefix: str = "") -> str:
    """Terrain patterns and the arrowhead marker (ids prefixed for a second copy on a page)."""
    p = prefix
    pats = [
        el("pattern", el("rect", width="14", height="14", fill="#5f9a5b")
           + el("circle", cx="3.5", cy="4", r="2.7", fill="#2f6233") + el("circle", cx="10.5", cy="11", r="2.7",
                                                                          fill="#2f6233"),
           id=f"{p}t-forest", width="14", height="14", patternUnits="userSpaceOnUse"),
        el("pattern", el("rect", width="16", height="14", fill="#d2bb90")
           + el("path", d="M1,7 L4,2.5 L7,7 M9,13 L12,8.5 L15,13", stroke="#6f5431", stroke_width="1.2",
                fill="none"),
           id=f"{p}t-rough", width="16", height="14", patternUnits="userSpaceOnUse"),
        el("pattern", el("rect", width="10", height="10", fill="#c2bdb3")
           + el("rect", x="1.5", y="1.5", width="4", height="3", fill="#6c665e")
           + el("rect", x="6", y="6", width="3", height="3", fill="#6c665e"),
           id=f"{p}t-city", width="10", height="10", patternUnits="userSpaceOnUse"),
        el("pattern", el("rect", width="20", height="10", fill="#a9d2ec")
           + el("path", d="M0,6 q2.5,-3 5,0 t5,0 t5,0 t5,0", stroke="#6ea6cf", stroke_width="1", fill="none"),
           id=f"{p}t-sea", width="20", height="10", patternUnits="userSpaceOnUse"),
        arrow_marker(p),
    ]
    return el("defs", "".join(pats))


def terrain_fill(terrain: str, country: str, prefix: str = "") -> str:
    pat = TERRAIN_PATTERN.get(terrain)
    return f"url(#{prefix}{pat})" if pat else CLEAR_TINT.get(country, "#f2f0e6")


@lru_cache(maxsize=1)
def static_map() -> str:
    w, lay = world(), layout()
    out = [el("rect", width=num(lay.width), height=num(lay.height), fill="#f7f5ee")]
    out.append(terrain_layer(lay, ((lab, _hex_title(w, lab), terrain_fill(w.hexes[lab].terrain, w.hexes[lab].country),
                                    "hex") for lab in sorted(w.hexes))))
    out.append(_borders(w, lay))
    out.append(_rivers(w, lay))
    out.append(_roads_and_bridges(lay))
    out.append(_places(w, lay))
    out.append(_cartouche(lay))
    out.append(map_frame(lay))
    return "".join(out)


def _hex_title(w: World, lab: str) -> str:
    h = w.hexes[lab]
    bits = [TERRAIN_LABEL.get(h.terrain, h.terrain), h.country]
    if h.city and h.city.aa:
        bits.append(f"AA {h.city.aa}")
    if h.fortress:
        bits.append("fortress")
    if lab in w.objectives.values():
        bits.append("objective")
    rivers = sorted({w.rivers[k] for k in w.rivers if lab in k.split("/")})
    if rivers:
        bits.append("river " + ", ".join(rivers))
    return f"{w.hex_title(lab)}: " + ", ".join(bits)


def _borders(w: World, lay: HexLayout) -> str:
    out = []
    for lab in sorted(w.hexes):
        for n in w.neighbours(lab):
            if n < lab:
                continue
            a, b = w.hexes[lab].country, w.hexes[n].country
            if a == b:
                continue
            p, q = lay.edge(lab, n)
            if "SEA" in (a, b):
                out.append(line(p, q, stroke="#3f7aa8", stroke_width="1.6"))
            else:
                out.append(line(p, q, stroke="#fff", stroke_width="6", stroke_opacity="0.55", stroke_linecap="round"))
                out.append(line(p, q, stroke="#26231f", stroke_width="3", stroke_dasharray="9 3 2 3",
                                stroke_linecap="butt"))
    return el("g", "".join(out), class_="borders")


def _rivers(w: World, lay: HexLayout) -> str:
    out = []
    for side in sorted(w.rivers):
        name = w.rivers[side]
        a, b = side.split("/")
        p, q = lay.edge(a, b)
        width = "6" if name in MAJOR_RIVERS else "4"
        out.append(el("line", el("title", f"{name} ({side}): +1 MP to cross, −1 attack across it"),
                      x1=num(p[0]), y1=num(p[1]), x2=num(q[0]), y2=num(q[1]), stroke=RIVER, stroke_width=width,
                      stroke_linecap="round", class_="river"))
        if name == "Albert Canal":
            out.append(line(p, q, stroke="#e8f1fa", stroke_width="1.2", stroke_dasharray="3 3"))
    return el("g", "".join(out), class_="rivers")


def _roads_and_bridges(lay: HexLayout) -> str:
    """Hexside `road` / `bridge` features, drawn when the map data has them (Warlog's own
    approximation has rivers only; a transcription of the printed map may add them)."""
    out = []
    for side, feat in sorted(read_data("map.json").get("hexsides", {}).items()):
        a, b = side.split("/")
        if feat.get("road"):
            out.append(line(lay.between(a, b, 0.0), lay.between(a, b, 1.0), stroke="#8c5a2b", stroke_width="2.5",
                            stroke_dasharray="7 3", class_="road"))
        if feat.get("bridge"):
            (x1, y1), (x2, y2) = lay.edge(a, b)
            mx, my = lay.between(a, b, 0.5)
            dx, dy = (x2 - x1) * 0.18, (y2 - y1) * 0.18
            for k in (-1, 1):
                ox, oy = (lay.centre(b)[0] - lay.centre(a)[0]) * 0.07 * k, (lay.centre(b)[1] - lay.centre(a)[1]) * 0.07 * k
                out.append(line((mx - dx + ox, my - dy + oy), (mx + dx + ox, my + dy + oy), stroke="#26231f",
                                stroke_width="2.2", class_="bridge"))
    return el("g", "".join(out), class_="roads")


def _places(w: World, lay: HexLayout) -> str:
    out = []
    hh = lay.hex_height
    for lab in sorted(w.hexes):
        h = w.hexes[lab]
        cx, cy = lay.centre(lab)
        out.append(text(cx, cy - hh / 2 + 10, lab, class_="hexnum", text_anchor="middle"))
        y = cy + hh / 2 - 7
        if h.city is not None:
            name = h.city.name
            width = len(name) * 6.2 + (15 if h.city.aa else 0)
            x0 = cx - width / 2
            if h.city.kind == "hex_city":
                out.append(el("rect", x=num(x0 - 7), y=num(y - 6.5), width="6", height="6", fill="#1d1d1b"))
            else:
                out.append(el("circle", cx=num(x0 - 4), cy=num(y - 3), r="3", fill="#1d1d1b"))
            out.append(text(x0, y, name, class_="place"))
            if h.city.aa:
                ax = x0 + len(name) * 6.2 + 2
                out.append(el("rect", x=num(ax), y=num(y - 7.5), width="13", height="9", rx="1.5", fill="#fff",
                              stroke="#c0182a", stroke_width="1"))
                out.append(text(ax + 6.5, y - 0.5, f"{h.city.aa}", font_size="7.5", font_weight="bold",
                                fill="#c0182a", text_anchor="middle"))
                out.append(el("title", f"AA strength {h.city.aa}"))
        elif h.name and not h.is_sea:
            out.append(text(cx, y, h.name[:20], class_="region", text_anchor="middle"))
        if h.fortress:
            out.append(_fort(cx + S * 0.62, cy - hh * 0.18))
    for key in sorted(w.objectives):
        lab = w.objectives[key]
        cx, cy = lay.centre(lab)
        out.append(el("polygon", el("title", f"Objective: {w.hex_title(lab)}"), points=lay.polygon(lab, 0.9),
                      fill="none", stroke="#c0182a", stroke_width="3.2"))
        out.append(_star(cx - S * 0.6, cy - lay.hex_height * 0.22, 6.5, "#c0182a"))
    for country, lab in sorted(COUNTRY_LABEL_HEX.items()):
        if lab in w.hexes and w.hexes[lab].country == country:
            cx, cy = lay.centre(lab)
            out.append(text(cx, cy + 5, COUNTRY_NAME[country], class_="country", text_anchor="middle"))
    return el("g", "".join(out), class_="places")


def _fort(x: float, y: float) -> str:
    """A fortress: a bastioned star outline."""
    return el("polygon", el("title", "Fortress"), points=star_points(x, y, 7.5, 3.8), fill="#fff", stroke="#1d1d1b",
              stroke_width="1.6")


def _star(x: float, y: float, r: float, colour: str) -> str:
    return el("polygon", points=star_points(x, y, r, r * 0.45), fill=colour, stroke="#fff", stroke_width="0.8")


def _cartouche(lay: HexLayout) -> str:
    x, y = lay.margin + 8, lay.margin + 8
    body = (el("rect", x=num(x), y=num(y), width="214", height="62", fill="#fbf8ef", stroke="#26231f",
               stroke_width="1.5", rx="2")
            + text(x + 107, y + 20, "ASSAULT ON BELGIUM", font_size="13", font_weight="bold", text_anchor="middle", class_="map-title",
                   letter_spacing="0.5")
            + text(x + 107, y + 36, "10 May 1940", font_size="10", text_anchor="middle", fill="#333")
            + line((x + 38, y + 48), (x + 38 + S * 1.5, y + 48), stroke="#26231f", stroke_width="2")
            + text(x + 42 + S * 1.5, y + 51, "1 hex = 17 km", font_size="9", fill="#333")
            + el("path", d=f"M{num(x + 16)},{num(y + 56)} L{num(x + 16)},{num(y + 40)} M{num(x + 12)},{num(y + 45)} "
                           f"L{num(x + 16)},{num(y + 39)} L{num(x + 20)},{num(y + 45)}", stroke="#26231f",
                 stroke_width="1.5", fill="none")
            + text(x + 16, y + 36, "N", font_size="9", font_weight="bold", text_anchor="middle"))
    return el("g", body, class_="cartouche")
