"""Board 1 of Lock 'n Load as SVG: every hex's terrain (T3), its elevation shaded, the road, the
slivers (10.1, 10.3) and the hex ids in the rulebook's form ("1F5", LnL 1.4). The same for every
state, so it is built once. Data: rules/lock_n_load/data/board1.json (docs/games/lock-n-load-data.md)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules.lock_n_load.data import World
from warlog.render.boardkit import arrow_marker, map_frame, terrain_layer
from warlog.render.hexmap import HexLayout, el, line, num, points, text

GAME = "lock-n-load"
S = 42.0  # hex corner radius, px

TERRAIN_FILL = {  # T3 terrain: a tint, or a pattern for the ones a player must tell apart at a glance
    "open": "#ece6c6", "grass": "#dfdc9a", "paddy": "url(#lnl-paddy)", "brush": "url(#lnl-brush)",
    "light_jungle": "url(#lnl-ljungle)", "dense_jungle": "url(#lnl-djungle)",
    "bamboo_hut": "#e3cf9c", "wooden_building": "#d9c3a0",
}
TERRAIN_LABEL = {"open": "Open ground", "grass": "Grass", "paddy": "Rice paddy", "brush": "Brush",
                 "light_jungle": "Light jungle", "dense_jungle": "Dense jungle", "bamboo_hut": "Bamboo hut",
                 "wooden_building": "Wooden building"}
LEVEL_TINT = {1: ("#8a5a2b", "0.16"), 2: ("#6b3f17", "0.30")}  # hills: darker the higher (T3 hill)


@dataclass(frozen=True)
class LnlGrid:
    """The Lock 'n Load board as `HexLayout` wants a grid: columns A.. (0-based, A, C, ... half a
    hex lower, as rules/lock_n_load/geometry.py lays them), rows 1.."""

    world: Any
    cols: int
    rows: int
    first_col: int = 0
    first_row: int = 1
    shifted: str = "even"

    def parse(self, label: str) -> tuple[int, int]:
        col, row = self.world.board.parse(label)
        return int(col), int(row)

    def direction_to(self, a: str, b: str) -> int | None:
        for d in range(6):
            if self.world.board.neighbour(a, d) == b:
                return d
        return None


@lru_cache(maxsize=1)
def world() -> World:
    from rules.lock_n_load.data import load_world

    return load_world()


@lru_cache(maxsize=1)
def layout() -> HexLayout:
    w = world()
    return HexLayout(LnlGrid(w, w.board.cols, w.board.rows), S, 14.0)  # type: ignore[arg-type]


def defs(prefix: str = "") -> str:
    """Terrain patterns and the arrowhead (ids prefixed for the legend's own copy)."""
    p = prefix
    pats = [
        el("pattern", el("rect", width="14", height="10", fill="#cfe8b8")
           + el("path", d="M0,5 h14 M3,2 v6 M10,2 v6", stroke="#7fb3c9", stroke_width="0.9"),
           id=f"{p}lnl-paddy", width="14", height="10", patternUnits="userSpaceOnUse"),
        el("pattern", el("rect", width="12", height="12", fill="#d3d59a")
           + el("circle", cx="3", cy="3", r="1.8", fill="#7e9a4a") + el("circle", cx="9", cy="9", r="1.8",
                                                                        fill="#7e9a4a"),
           id=f"{p}lnl-brush", width="12", height="12", patternUnits="userSpaceOnUse"),
        el("pattern", el("rect", width="14", height="14", fill="#8fc27a")
           + el("circle", cx="4", cy="4", r="3", fill="#4f8f45") + el("circle", cx="11", cy="11", r="3",
                                                                      fill="#4f8f45"),
           id=f"{p}lnl-ljungle", width="14", height="14", patternUnits="userSpaceOnUse"),
        el("pattern", el("rect", width="12", height="12", fill="#3f7a3a")
           + el("circle", cx="3", cy="3", r="3.4", fill="#24531f") + el("circle", cx="9", cy="9", r="3.4",
                                                                        fill="#24531f"),
           id=f"{p}lnl-djungle", width="12", height="12", patternUnits="userSpaceOnUse"),
        arrow_marker(p),
    ]
    return el("defs", "".join(pats))


def hex_title(w: World, h: str) -> str:
    d = w.hexes[h]
    t = d["terrain"]
    bits = [TERRAIN_LABEL.get(t, t)]
    tec = w.tec.get(t, {})
    if tec:
        bits.append(f"{tec.get('kind', 'open')}, TM {tec.get('tm', 0):+d}, {tec.get('mp', 1)} MP")
    if int(d.get("level", 0)):
        bits.append(f"level {d['level']} (hill)")
    return f"{h}: " + "; ".join(bits)


@lru_cache(maxsize=1)
def static_map() -> str:
    w, lay = world(), layout()
    hexes = sorted(w.hexes)
    out = [el("rect", width=num(lay.width), height=num(lay.height), fill="#f4f1e4")]
    out.append(terrain_layer(lay, ((h, hex_title(w, h), TERRAIN_FILL.get(w.terrain(h), "#ece6c6"), "hex")
                                   for h in hexes)))
    out.append(_features(w, lay, hexes))
    out.append(map_frame(lay))
    return "".join(out)


def _features(w: World, lay: HexLayout, hexes: list[str]) -> str:
    out = []
    for h in hexes:  # elevation: a brown wash and a contour line inside the hex
        lv = w.level(h)
        if lv in LEVEL_TINT:
            colour, op = LEVEL_TINT[lv]
            out.append(el("polygon", points=lay.polygon(h), fill=colour, fill_opacity=op, stroke=colour,
                          stroke_width="2", class_="level", data_level=str(lv)))
    for side in sorted(w.hexsides):  # the road, centre to centre
        if w.hexsides[side].get("road"):
            a, b = side.split("/")
            out.append(line(lay.centre(a), lay.centre(b), stroke="#a87b4f", stroke_width="5", stroke_linecap="round",
                            class_="road"))
    for sl in w.slivers:  # 10.1/10.3: a fragment of `from`'s terrain over the hexside into its neighbour
        a, b = sl["hexside"].split("/")
        src = sl["from"]
        into = b if src == a else a
        p, q = lay.edge(src, into)
        m = lay.between(src, into, 0.68)
        out.append(el("polygon", el("title", f"Sliver {sl['id']}: {sl.get('note', '')}"), points=points([p, m, q]),
                      fill=TERRAIN_FILL.get(sl["terrain"], "#4f8f45"), stroke="#24531f", stroke_width="1.2",
                      class_="sliver", data_sliver=sl["id"]))
    for h in hexes:
        cx, cy = lay.centre(h)
        d = w.hexes[h]
        t = d["terrain"]
        if t in ("bamboo_hut", "wooden_building"):
            out.append(_hut(cx, cy + lay.hex_height * 0.24, t == "wooden_building"))
        label = h if not int(d.get("level", 0)) else f"{h} L{d['level']}"
        out.append(text(cx, cy - lay.hex_height / 2 + 10, label, class_="hexnum", text_anchor="middle"))
    return el("g", "".join(out), class_="features")


def _hut(x: float, y: float, wooden: bool) -> str:
    """A small building symbol: a roof over a wall."""
    colour = "#6b4a2b" if wooden else "#9a7a3e"
    return el("path", d=f"M{num(x - 9)},{num(y)} L{num(x)},{num(y - 8)} L{num(x + 9)},{num(y)} Z "
                        f"M{num(x - 6)},{num(y)} h12 v6 h-12 Z", fill=colour, stroke="#3b2a16", stroke_width="0.8")
