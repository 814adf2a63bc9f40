"""Assault on Belgium's board: the printed map (`aob_map`) with the state on it: counters
in stacks, battle vectors and tank battle markers, what a replay step changed, and trays for
the units off the map. Registered as the renderer of "assault-on-belgium"."""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup

from rules.assault_on_belgium.data import Unit, World
from warlog.render import Highlights, Scene, register_renderer
from warlog.render.assault_on_belgium.map import BATTLE, GAME, S, defs, layout, static_map, world
from warlog.render.boardkit import STATE_STYLE, focus_point, highlight_marks, svg_document, targets
from warlog.render.counters import Counter, draw
from warlog.render.hexmap import HexLayout, arrow_shape, el, num, text

PATH_PHASES = ("german_land_move", "belgian_reaction")
C = 40.0  # counter side
TRAY_ROW = 64.0

STYLE = """
.hexmap text{font-family:'DejaVu Sans',Verdana,sans-serif}
.hexmap .hex{stroke:#7e7c70;stroke-width:.7}
.hexmap .hexnum{font-size:9px;fill:#5b5a52}
.hexmap .place{font-size:9.5px;font-weight:bold;fill:#1d1d1b}
.hexmap .region{font-size:8px;font-style:italic;fill:#5b5a52}
.hexmap .country{font-size:18px;letter-spacing:3px;fill:#000;opacity:.28;font-weight:bold}
""" + STATE_STYLE + """.hexmap .borders,.hexmap .rivers,.hexmap .roads,.hexmap .places,.hexmap .battles,.hexmap .highlights,.hexmap .markers,
.hexmap .cartouche{pointer-events:none}
"""


_QUOTED_ID = re.compile(r"'([a-z]{2}-[a-z0-9-]+)'")  # a unit's id as a refusal quotes it back ('de-ftr-1')


class AobRenderer:
    """The `Renderer` of Assault on Belgium."""

    seat_names = {"germany": "Germany", "belgium": "Belgium"}  # display names (the pages never capitalise an id)

    def planner(self, state: dict[str, Any] | None) -> str | None:
        return "path" if state and state.get("phase") in PATH_PHASES else None

    def board(self, scene: Scene) -> Markup:
        return Markup(board_svg(scene))

    def legend(self) -> Markup:
        from warlog.render.assault_on_belgium.legend import legend_html

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

    def fact_words(self, fact: dict[str, Any]) -> str:
        """A recorded text in the words a player uses: the rules word their facts with the units'
        names already; a refusal quotes back the id its action sent ("'de-ftr-1' is not a Belgian
        aircraft"), said by that unit's name when it is one ("JG 27 (Bf 109E) is not ...")."""
        units = world().units
        return _QUOTED_ID.sub(lambda m: units[m[1]].name if m[1] in units else m[0], str(fact.get("text", "")))

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
    body = [f"<style>{STYLE}</style>", defs(), static_map()]
    if state:
        body.append(_battles(state, w, lay))
    body.append(targets(scene.target_hexes, lay, w.hexes))
    if state:
        body.append(_units(scene, w, lay))
        body.append(_markers(state, w, lay))
    body.append(_highlights(scene.highlights, state, w, lay))
    body.extend(_tray_rows(trays, scene, lay))
    if scene.caption:
        body.append(text(lay.width - 12, lay.height - 6, scene.caption, font_size="11", text_anchor="end",
                         fill="#333"))
    return svg_document("".join(body), lay.width, height, "Map of Belgium and the border, May 1940", GAME,
                        _focus(scene, w, lay))


def _focus(scene: Scene, w: World, lay: HexLayout) -> tuple[float, float] | None:
    """Where the action is: the selected unit, the battle being fought, what a replay step
    changed; else the units and hexes the legal actions name, else the viewing seat's units
    (`scene.extra["seat"]`), else the front (every unit on the map)."""
    state, hl = scene.state or {}, scene.highlights
    units = state.get("units") or {}

    def hex_of(uid: object) -> str | None:
        st = units.get(uid) if isinstance(uid, str) else None
        return _where(str(uid), st, state, w) if isinstance(st, dict) and uid in w.units else None

    now = (state.get("combat") or {}).get("battle")
    battles = state.get("battles") or []
    fighting = [b.get("hex") for b in battles if b.get("n") == now and now is not None]
    fighting += [b.get("hex") for b in battles if b.get("status") in ("pending", "active")]
    first = [hex_of(state.get("selected"))] + fighting + [p[-1] for p in hl.paths if p] + list(hl.hexes)
    first += [h for _, h in hl.lost]
    seat = scene.extra.get("seat")
    groups = [[hex_of(u) for u in sorted(scene.target_units)], sorted(scene.target_hexes),
              [hex_of(u) for u in w.units if w.units[u].side == seat], [hex_of(u) for u in w.units]]
    return focus_point(lay, w.hexes, first, groups)


# -- the printed map (the same for every state: built once) ---------------------------------
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
    out = highlight_marks(hl, lay, w.hexes)
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
