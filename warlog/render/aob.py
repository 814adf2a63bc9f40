"""Assault on Belgium's board: the hex map with its terrain, rivers, borders, cities,
fortresses and objectives; the counters; battle vectors and tank battle markers; the
replay's highlights. Registered as the renderer of "assault-on-belgium".

Terrain colours are colour-blind safe by lightness and each also has its own pattern
(trees, hachures, buildings, waves), so no distinction rests on hue alone.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from rules import get_game
from rules.assault_on_belgium.data import Unit, World, read_data
from warlog.render import Highlights, Scene, register_renderer
from warlog.render.counters import Counter, draw
from warlog.render.hexmap import HexLayout, arrow_shape, el, line, num, path_through, points, text

GAME = "assault-on-belgium"
PATH_PHASES = ("german_land_move", "belgian_reaction")
S = 46.0  # hex corner radius
C = 40.0  # counter side
TRAY_ROW = 64.0

TERRAIN_PATTERN = {"forest": "t-forest", "rough": "t-rough", "hex_city": "t-city", "sea": "t-sea"}
CLEAR_TINT = {"BE": "#f4e9c8", "DE": "#e3e3d9", "NL": "#f2dcc6", "FR": "#e6ebd5", "LU": "#ebe1ea"}
TERRAIN_LABEL = {"clear": "Clear", "forest": "Forest", "rough": "Rough", "hex_city": "Hex city", "sea": "Sea"}
COUNTRY_NAME = {"BE": "BELGIQUE · BELGIË", "DE": "DEUTSCHES REICH", "NL": "NEDERLAND", "FR": "FRANCE",
                "LU": "LUXEMBOURG"}
COUNTRY_LABEL_HEX = {"FR": "0411", "NL": "1201", "DE": "2008", "LU": "1913", "BE": "0606"}
MAJOR_RIVERS = ("Meuse", "Scheldt", "Albert Canal")
RIVER = "#2166ac"
HL_PATH = "#ee3377"
HL_HEX = "#ee7733"
BATTLE = "#d55e00"

STYLE = """
.hexmap text{font-family:'DejaVu Sans',Verdana,sans-serif}
.hexmap .hex{stroke:#7e7c70;stroke-width:.7}
.hexmap .hexnum{font-size:9px;fill:#5b5a52}
.hexmap .place{font-size:9.5px;font-weight:bold;fill:#1d1d1b}
.hexmap .region{font-size:8px;font-style:italic;fill:#5b5a52}
.hexmap .country{font-size:18px;letter-spacing:3px;fill:#000;opacity:.28;font-weight:bold}
.hexmap .counter.selected .body{stroke:#ffcf00;stroke-width:4}
.hexmap .counter.hl .body{stroke:#ee3377;stroke-width:3.5}
.hexmap .counter.lost{opacity:.7}
.hexmap .counter.done{opacity:.78}
.hexmap .target-hex{fill:#ffcf00;fill-opacity:.16;stroke:#b38f00;stroke-width:2.5;stroke-dasharray:6 3;pointer-events:none}
.hexmap .counter.target .body{stroke:#ffcf00;stroke-width:3}
.hexmap .borders,.hexmap .rivers,.hexmap .roads,.hexmap .places,.hexmap .battles,.hexmap .highlights,.hexmap .markers,
.hexmap .cartouche{pointer-events:none}
"""


@lru_cache(maxsize=1)
def world() -> World:
    game: Any = get_game(GAME)
    w: World = game.world
    return w


@lru_cache(maxsize=1)
def layout() -> HexLayout:
    return HexLayout(world().grid, S, 14.0)


class AobRenderer:
    """The `Renderer` of Assault on Belgium."""

    def planner(self, state: dict[str, Any] | None) -> str | None:
        return "path" if state and state.get("phase") in PATH_PHASES else None

    def board(self, scene: Scene) -> Markup:
        return Markup(board_svg(scene))

    def legend(self) -> Markup:
        from warlog.render.aob_legend import legend_html

        return Markup(legend_html())

    def die_owner(self, purpose: str) -> str | None:
        """Whose die it is, from its recorded purpose: the attacker's land combat die (AoB 11.3),
        Belgium's AA fire (AoB 16), each aircraft's own air combat dice (AoB 10.6)."""
        if purpose.startswith("land combat"):
            return "germany"
        if purpose.startswith("AA fire"):
            return "belgium"
        m = re.match(r"air combat battle \d+: (\S+) fires", purpose)
        if m and m.group(1) in world().units:
            return world().units[m.group(1)].side
        return None

    def name_of(self, kind: str, key: str) -> str:
        """Display names for the page's buttons: a hex's title, a unit's name and factors."""
        w = world()
        if kind == "hex":
            return w.hex_title(key)
        u = w.units.get(key)
        return f"{u.name} ({u.factors()})" if u and u.is_land else (u.name if u else key)


def board_svg(scene: Scene) -> str:
    w, lay = world(), layout()
    state = scene.state
    trays = _trays(state, w) if state else []
    height = lay.height + (TRAY_ROW * len(trays) + 10 if trays else 0)
    body = [f"<style>{STYLE}</style>", defs(), _static_map()]
    if state:
        body.append(_battles(state, w, lay))
    body.append(_targets(scene, lay))
    if state:
        body.append(_units(scene, w, lay))
        body.append(_markers(state, w, lay))
    body.append(_highlights(scene.highlights, state, w, lay))
    body.extend(_tray_rows(trays, scene, lay))
    if scene.caption:
        body.append(text(lay.width - 12, lay.height - 6, scene.caption, font_size="11", text_anchor="end",
                         fill="#333"))
    return el("svg", "".join(body), xmlns="http://www.w3.org/2000/svg", class_="hexmap",
              viewBox=f"0 0 {num(lay.width)} {num(height)}", width=num(lay.width), height=num(height), role="img",
              aria_label="Map of Belgium and the border, May 1940", data_game=GAME)


# -- the printed map (the same for every state: built once) ---------------------------------

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
        el("marker", el("path", d="M0,0 L10,5 L0,10 z", fill=HL_PATH), id=f"{p}arrow", viewBox="0 0 10 10",
           refX="7", refY="5", markerWidth="4", markerHeight="4", orient="auto-start-reverse"),
    ]
    return el("defs", "".join(pats))


def terrain_fill(terrain: str, country: str, prefix: str = "") -> str:
    pat = TERRAIN_PATTERN.get(terrain)
    return f"url(#{prefix}{pat})" if pat else CLEAR_TINT.get(country, "#f2f0e6")


@lru_cache(maxsize=1)
def _static_map() -> str:
    w, lay = world(), layout()
    out = [el("rect", width=num(lay.width), height=num(lay.height), fill="#f7f5ee")]
    hexes = []
    for lab in sorted(w.hexes):
        h = w.hexes[lab]
        title = el("title", _hex_title(w, lab))
        hexes.append(el("polygon", title, points=lay.polygon(lab), fill=terrain_fill(h.terrain, h.country),
                        class_="hex", data_hex=lab))
    out.append(el("g", "".join(hexes), class_="terrain"))
    out.append(_borders(w, lay))
    out.append(_rivers(w, lay))
    out.append(_roads_and_bridges(lay))
    out.append(_places(w, lay))
    out.append(_cartouche(lay))
    m = lay.margin / 2
    out.append(el("rect", x=num(m), y=num(m), width=num(lay.width - 2 * m), height=num(lay.height - 2 * m), fill="none",
                  stroke="#26231f", stroke_width="3", pointer_events="none"))
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
    pts = []
    for k in range(10):
        r = 7.5 if k % 2 == 0 else 3.8
        a = math.radians(-90 + 36 * k)
        pts.append((x + r * math.cos(a), y + r * math.sin(a)))
    return el("polygon", el("title", "Fortress"), points=points(pts), fill="#fff", stroke="#1d1d1b",
              stroke_width="1.6")


def _star(x: float, y: float, r: float, colour: str) -> str:
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * k)
        pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    return el("polygon", points=points(pts), fill=colour, stroke="#fff", stroke_width="0.8")


def _cartouche(lay: HexLayout) -> str:
    x, y = lay.margin + 8, lay.margin + 8
    body = (el("rect", x=num(x), y=num(y), width="214", height="62", fill="#fbf8ef", stroke="#26231f",
               stroke_width="1.5", rx="2")
            + text(x + 107, y + 20, "ASSAULT ON BELGIUM", font_size="13", font_weight="bold", text_anchor="middle",
                   letter_spacing="0.5")
            + text(x + 107, y + 36, "10 May 1940", font_size="10", text_anchor="middle", fill="#333")
            + line((x + 38, y + 48), (x + 38 + S * 1.5, y + 48), stroke="#26231f", stroke_width="2")
            + text(x + 42 + S * 1.5, y + 51, "1 hex = 17 km", font_size="9", fill="#333")
            + el("path", d=f"M{num(x + 16)},{num(y + 56)} L{num(x + 16)},{num(y + 40)} M{num(x + 12)},{num(y + 45)} "
                           f"L{num(x + 16)},{num(y + 39)} L{num(x + 20)},{num(y + 45)}", stroke="#26231f",
                 stroke_width="1.5", fill="none")
            + text(x + 16, y + 36, "N", font_size="9", font_weight="bold", text_anchor="middle"))
    return el("g", body, class_="cartouche")


# -- the game state ------------------------------------------------------------------------------

def _battles(state: dict[str, Any], w: World, lay: HexLayout) -> str:
    out = []
    combat = state.get("combat") or {}
    for b in state.get("battles", []):
        if b["hex"] not in w.hexes or b["origin"] not in w.hexes:
            continue
        done = b["status"] == "done"
        colour = "#8a8a8a" if done else BATTLE
        if not done:
            out.append(el("polygon", points=lay.polygon(b["hex"], 0.82), fill="none", stroke=BATTLE,
                          stroke_width="4" if combat.get("battle") == b["n"] else "2.2",
                          stroke_dasharray=None if combat.get("battle") == b["n"] else "7 4"))
        if w.grid.direction_to(b["origin"], b["hex"]) is not None:
            p, q = lay.between(b["origin"], b["hex"], 0.3), lay.between(b["origin"], b["hex"], 0.7)
            out.append(el("polygon", points=arrow_shape(p, q, 7, 9), fill=colour, stroke="#fff", stroke_width="1.2",
                          opacity="0.95"))
            lx, ly = lay.between(b["origin"], b["hex"], 0.24)
        else:
            lx, ly = lay.centre(b["hex"])
            lx, ly = lx - S * 0.7, ly
        winner = f", won by {b['winner']}" if b.get("winner") else ""
        label = el("title", f"Battle {b['n']} at {w.hex_title(b['hex'])}: vector from {b['origin']}, "
                            f"{b['status']}{winner}")
        out.append(el("g", label + el("circle", cx=num(lx), cy=num(ly), r="8", fill="#fff", stroke=colour,
                                       stroke_width="2")
                      + text(lx, ly + 3.5, str(b["n"]), font_size="10", font_weight="bold", fill=colour,
                             text_anchor="middle"), class_="battle-label"))
    return el("g", "".join(out), class_="battles")


def _markers(state: dict[str, Any], w: World, lay: HexLayout) -> str:
    """Tank battle markers, on top of the counters (AoB 15.4)."""
    out = []
    for b in state.get("battles", []):
        if b.get("marker") is None or b.get("marker_removed") or b["status"] == "done" or b["hex"] not in w.hexes:
            continue
        cx, cy = lay.centre(b["hex"])
        x, y = cx + S * 0.5, cy - 14
        out.append(el("g", el("title", f"Tank battle marker: {b['marker']} MP for pursuit")
                      + el("rect", width="17", height="17", fill="#f0c419", stroke="#26231f", stroke_width="1",
                           rx="1.5")
                      + text(8.5, 7, "TB", font_size="6", font_weight="bold", text_anchor="middle")
                      + text(8.5, 15, str(b["marker"]), font_size="8", font_weight="bold", text_anchor="middle"),
                      transform=f"translate({num(x)},{num(y)})", class_="marker tank-battle"))
    return el("g", "".join(out), class_="markers")


def _targets(scene: Scene, lay: HexLayout) -> str:
    out = [el("polygon", points=lay.polygon(h, 0.9), class_="target-hex", data_target=h)
           for h in sorted(scene.target_hexes) if h in world().hexes]
    return el("g", "".join(out), class_="targets")


def short_label(u: Unit) -> str:
    """A counter's designation from the unit's name: "3 Pz", "IV", "PFL", "Bf 109E"."""
    n = u.name
    rules = (
        (r"^(\d+)\. Panzer", r"\1 Pz"), (r"^(\d+)\. Infanterie-Division \(mot", r"\1 mot"),
        (r"^([IVXL]+)\. Armeekorps", r"\1"), (r"^([IVXL]+) Corps", r"\1"), (r"^Cavalry Corps", "Cav"),
        (r"^(\d)\w* Chasseurs Ardennais", r"\1 ChA"), (r"\((PF\w)", r"\1"), (r"^Antwerp", "NR"),
    )
    for pattern, repl in rules:
        m = re.search(pattern, n)
        if m:
            return m.expand(repl)
    m = re.search(r"\(([^)]*)\)", n)
    if u.is_air and m:
        words = [x for x in m.group(1).split() if x not in ("Hawker", "Fiat", "Gloster", "Fairey", "I")]
        return " ".join(words)[:8]
    return n[:6]


def size_mark(u: Unit) -> str:
    if re.search(r"Corps|korps", u.name):
        return "XXX"
    if re.search(r"Division", u.name):
        return "XX"
    return ""


def counter_for(uid: str, st: dict[str, Any], w: World, classes: tuple[str, ...] = (),
                hex_: str | None = None) -> Counter:
    u = w.units[uid]
    if u.is_land:
        hits = int(st.get("hits") or 0)
        a, d = max(0, u.attack - hits), max(0, u.defense - hits)
        values = f"{a}-{d}-{u.movement}"
        title = f"{u.name}: {u.type}, printed {u.attack}-{u.defense}-{u.movement}"
        if hits:
            title += f", {hits} hit{'s' if hits > 1 else ''}: now {values}"
        if st.get("mp") is not None and st.get("status") == "active":
            title += f"; {st['mp']} MP left"
    else:
        values = f"{u.air}-{u.bombing}-{u.range}"
        title = f"{u.name}: {u.type}, air {u.air}, tactical {u.bombing}, range {u.range}"
        if st.get("mission") is not None:
            title += f"; flying to battle {st['mission']}"
        hits = 0
    status = st.get("status")
    if status in ("eliminated", "removed"):
        title += f" — {status}"
    return Counter(uid, u.side, u.type, short_label(u), size_mark(u) if u.is_land else "", values, title,
                   reduced=bool(hits), classes=classes, hex=hex_)


def _where(uid: str, st: dict[str, Any], state: dict[str, Any], w: World) -> str | None:
    """The hex a unit is drawn in: aircraft on a mission fly over their battle hex."""
    if st.get("status") != "active":
        return None
    if w.units[uid].is_air:
        if st.get("mission") is not None:
            for b in state.get("battles", []):
                if b["n"] == st["mission"]:
                    return str(b["hex"])
        escort = st.get("with")
        if escort and state["units"].get(escort, {}).get("status") == "active":
            return str(state["units"][escort]["hex"])
    hx = st.get("hex")
    return str(hx) if hx else None


def _unit_classes(uid: str, st: dict[str, Any], state: dict[str, Any], scene: Scene) -> tuple[str, ...]:
    cls = []
    if state.get("selected") == uid:
        cls.append("selected")
    if uid in scene.highlights.units:
        cls.append("hl")
    if uid in scene.target_units:
        cls.append("target")
    if st.get("done") and state.get("phase") in PATH_PHASES:
        cls.append("done")
    if st.get("status") in ("eliminated", "removed"):
        cls.append("eliminated")
    elif st.get("status") == "active" and (st.get("mission") is not None or any(
            b["hex"] == st.get("hex") and b["status"] in ("pending", "active") for b in state.get("battles", []))):
        cls.append("in-battle")
    return tuple(cls)


def _units(scene: Scene, w: World, lay: HexLayout) -> str:
    state = scene.state or {}
    stacks: dict[str, dict[str, list[str]]] = {}
    for uid in w.units:  # OOB order: land before air within each side's listing
        st = state["units"].get(uid)
        if st is None:
            continue
        hx = _where(uid, st, state, w)
        if hx is None or hx not in w.hexes:
            continue
        stacks.setdefault(hx, {}).setdefault(w.units[uid].side, []).append(uid)
    out = []
    for hx in sorted(stacks):
        sides = stacks[hx]
        cx, cy = lay.centre(hx)
        cy -= 5
        both = len(sides) > 1
        size = C * 0.82 if both else C
        for side in sorted(sides):
            ids = sorted(sides[side], key=lambda u: (w.units[u].is_air, list(w.units).index(u)))
            scx = cx + ((-0.56 if side == "germany" else 0.56) * size if both else 0.0)
            out.append(_stack(ids, scx, cy, hx, state, scene, w, size))
    return el("g", "".join(out), class_="units")


def _stack(ids: list[str], cx: float, cy: float, hx: str, state: dict[str, Any], scene: Scene, w: World,
           size: float = C) -> str:
    """A stack, top counter first in `ids`; the ones below peek out up and to the right."""
    n = len(ids)
    d = (4.0 if n > 3 else 5.0) * size / C
    bx = cx - (size + (n - 1) * d) / 2
    by = cy - size / 2 + (n - 1) * d / 2
    out = []
    for k in range(n - 1, -1, -1):
        uid = ids[k]
        st = state["units"][uid]
        c = counter_for(uid, st, w, _unit_classes(uid, st, state, scene), hx)
        out.append(draw(c, bx + k * d, by - k * d, size))
    title = el("title", f"{n} units in {w.hex_title(hx)}")
    return el("g", title + "".join(out), class_="stack", data_hex=hx, data_count=str(n))


def _highlights(hl: Highlights, state: dict[str, Any] | None, w: World, lay: HexLayout) -> str:
    if not hl:
        return ""
    out = []
    for hx in hl.hexes:
        if hx in w.hexes:
            out.append(el("polygon", points=lay.polygon(hx, 0.94), fill=HL_HEX, fill_opacity="0.18", stroke=HL_HEX,
                          stroke_width="4.5", class_="hl-hex"))
    for path in hl.paths:
        hexes = [h for h in path if h in w.hexes]
        if len(hexes) < 2:
            continue
        d = path_through(lay, hexes)
        out.append(el("path", d=d, fill="none", stroke="#fff", stroke_width="9", stroke_linejoin="round",
                      stroke_linecap="round", opacity="0.85"))
        out.append(el("path", d=d, fill="none", stroke=HL_PATH, stroke_width="4.5", stroke_linejoin="round",
                      stroke_linecap="round", stroke_dasharray="10 5", marker_end="url(#arrow)", class_="hl-path"))
        for h in hexes[:-1]:
            x, y = lay.centre(h)
            out.append(el("circle", cx=num(x), cy=num(y), r="3.5", fill=HL_PATH))
    for uid, hx in hl.lost:
        if hx not in w.hexes or uid not in w.units or state is None:
            continue
        cx, cy = lay.centre(hx)
        st = dict(state["units"].get(uid, {}), status="eliminated")
        c = counter_for(uid, st, w, ("lost", "eliminated"), hx)
        out.append(draw(c, cx - C / 2 + 10, cy - C / 2 + 8, C * 0.8))
    return el("g", "".join(out), class_="highlights")


# -- trays: units not on the map --------------------------------------------------------------

def _trays(state: dict[str, Any], w: World) -> list[tuple[str, list[str]]]:
    rows = []
    for title, status in (("Not yet set up", "unplaced"), ("Eliminated / removed", "gone")):
        ids = [u for u in w.units
               if (state["units"][u]["status"] == status if status == "unplaced"
                   else state["units"][u]["status"] in ("eliminated", "removed"))]
        if ids:
            rows.append((title, ids))
    return rows


def _tray_rows(trays: list[tuple[str, list[str]]], scene: Scene, lay: HexLayout) -> list[str]:
    w, state = world(), scene.state or {}
    out = []
    y = lay.height + 4
    for title, ids in trays:
        row = [el("rect", x=num(lay.margin), y=num(y), width=num(lay.width - 2 * lay.margin), height=num(TRAY_ROW - 6),
                  fill="#ece8dc", stroke="#b9b3a2", rx="3"),
               text(lay.margin + 8, y + 14, title, font_size="10", font_weight="bold", fill="#333")]
        x = lay.margin + 8
        for side in ("belgium", "germany"):
            side_ids = [u for u in ids if w.units[u].side == side]
            if not side_ids:
                continue
            x = max(x, lay.margin + 110) if side == "belgium" else max(x + 24, lay.width / 2 + 40)
            row.append(text(x, y + 14, "Belgium" if side == "belgium" else "Germany", font_size="9", fill="#555"))
            x += 52
            for uid in side_ids:
                st = state["units"][uid]
                c = counter_for(uid, st, w, _unit_classes(uid, st, state, scene), None)
                row.append(draw(c, x, y + 8, C))
                x += C + 5
        out.append(el("g", "".join(row), class_="tray"))
        y += TRAY_ROW
    return out


register_renderer(GAME, AobRenderer())
