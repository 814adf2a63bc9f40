"""Vietnam Battles' board: the scenario's map (`vb_map`: Snoopy's Nose for The Boys of '67 and
Snoopy's Nose, the Iron Triangle) with the state on it — bridges as they stand, base camps and
supply caches, units as counters (`vb_counters`; monitors on their hexside or water hex, units in
a split Mekong hex in their land portion), Landing Zone and Landing Beach chits, the battle being
fought, the unit under way, what a replay step changed (`vb_replay`), the units off the map, and
the status band (`vb_status`). Registered as the renderer of "vietnam-battles".

It only ever sees `Game.view(state, seat)`: a hidden VC unit or an unrevealed camp is drawn only
when the view holds its position (the VC seat's own view, `secret`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from markupsafe import Markup

from rules.vietnam_battles.data import World
from warlog.render import Highlights, Scene, register_renderer
from warlog.render.boardkit import STATE_STYLE, highlight_marks, scene_classes, svg_document, targets
from warlog.render.hexmap import el, num, points, text
from warlog.render.vietnam_battles.counters import camp_chit, draw, landing_chit, piece
from warlog.render.vietnam_battles.geometry import GAME, S, VbLayout, layout, scenario_map, world
from warlog.render.vietnam_battles.map import bridge, defs, describe_hex, static_map
from warlog.render.vietnam_battles.replay import highlights as step_highlights
from warlog.render.vietnam_battles.status import status_band

C = 30.0  # counter side
TRAY_ROW = 52.0
BATTLE = "#ee7733"
CAMP_RING = {"secret": "#8c2d19", "revealed": "#8c2d19", "captured": "#555555"}

STYLE = """
.hexmap text{font-family:'DejaVu Sans',Verdana,sans-serif}
.hexmap .hex{stroke:#6f6c5e;stroke-width:.6}
.hexmap .hexnum{font-size:7px;fill:#1d1d1b;stroke:#fff;stroke-opacity:.6;stroke-width:1.8px;paint-order:stroke}
.hexmap .hexnum.water{fill:#fff;stroke:#1d4f7a}
.hexmap .place{font-size:9px;font-weight:bold;fill:#111;stroke:#fffbe8;stroke-width:2.6px;paint-order:stroke;
stroke-linejoin:round}
.hexmap .river-name{font-size:9px;font-style:italic;font-weight:bold;fill:#123e6b;stroke:#fff;stroke-width:2.4px;
paint-order:stroke}
.hexmap .region-name{font-size:30px;font-weight:bold;letter-spacing:6px;fill:#000;opacity:.3}
.hexmap .target-side{fill:#ffcf00;fill-opacity:.35;stroke:#b38f00;stroke-width:1.5}
""" + STATE_STYLE + """.hexmap .rivers,.hexmap .roads,.hexmap .places,.hexmap .regions,.hexmap .highlights,
.hexmap .battle,.hexmap .status,.hexmap .bridges,.hexmap .chit{pointer-events:none}
"""

# action type -> (the key naming the unit a click picks it by, the key naming its hex)
TARGETS: dict[str, tuple[str | None, str | None]] = {
    "select": ("unit", None), "enter": (None, "hex"), "sail": (None, "to"), "declare": ("unit", "@defender"),
    "add": ("unit", None), "bombard": ("unit", None), "lose_step": ("unit", None), "hold": ("unit", None),
    "retreat": ("unit", "@path"), "displace": (None, "hex"), "advance": ("unit", "hex"), "errant": ("unit", None),
    "slick": ("unit", None), "tango": ("unit", None), "land": (None, "hex"), "demolish": (None, "hexside"),
    "push": (None, "hex"), "camp": (None, "hex"), "place": ("unit", None), "hide": ("unit", None),
    "at": (None, "hex"), "cache": (None, "hex"), "b52": ("unit", None), "repair": ("unit", "hexside"),
    "eng_bridge": (None, "site"),
}
GROUPS = {"select": "Move a unit", "enter": "Enter", "sail": "Sail to", "declare": "Attack",
          "add": "Add to the attack", "support": "Commit support fire", "bombard": "Bombard", "lose_step":
          "Loses the step", "hold": "Hold at all costs", "retreat": "Retreat", "displace": "Displace to",
          "advance": "Advance after combat", "errant": "Errant fire falls on", "slick": "Helicopter lift (slick)",
          "tango": "River lift (tango)", "land": "Land in", "demolish": "Demolish the bridge", "push": "Push into",
          "camp": "Secret base camp in", "place": "Set up openly", "hide": "Set up hidden", "at": "Put it in",
          "cache": "Supply cache in", "b52": "B-52 strike on", "repair": "Repair the bridge",
          "eng_bridge": "Engineer bridge at", "choose_victory": "Secret victory condition", "ben_suc": "Ben Suc"}


class VbRenderer:
    """The `Renderer` of Vietnam Battles."""

    title = "Vietnam Battles"  # the game's own title names two of its three scenarios
    seat_names = {"us": "US", "vc": "VC"}  # display names (the pages never capitalise an id)

    action_groups = GROUPS

    def action_words(self, action: dict[str, Any]) -> str | None:
        """An action in words (warlog.render.words)."""
        from warlog.render.vietnam_battles.words import action_words

        return action_words(action)

    def fact_words(self, fact: dict[str, Any]) -> str:
        """A recorded fact's text with the ids put in words (the record is unchanged)."""
        from warlog.render.vietnam_battles.words import text_words

        return text_words(str(fact.get("text", "")))

    def hidden_move(self, seat: str) -> str:
        """Another seat's move the viewer may not see."""
        from warlog.render.vietnam_battles.words import hidden_move

        return hidden_move(seat)

    def planner(self, state: dict[str, Any] | None) -> str | None:
        return None  # one click, one action: `select` a unit, then `enter` hex by hex, each judged at once

    def board(self, scene: Scene) -> Markup:
        return Markup(board_svg(scene))

    def legend(self) -> Markup:
        from warlog.render.vietnam_battles.legend import legend_html

        return Markup(legend_html())

    def action_targets(self, action: dict[str, Any]) -> tuple[str | None, str | None]:
        """The unit and the position a click on the map picks this action by: an attack by the
        attacker, then the defender (whose counter the board marks as that "position" while an
        attack on it is legal); a retreat by the unit, then where its path ends."""
        ukey, hkey = TARGETS.get(str(action.get("type")), (None, None))
        unit = action.get(ukey) if ukey else None
        hx: Any = None
        if hkey == "@path":
            path = action.get("path")
            hx = path[-1] if isinstance(path, list) and path else None
        elif hkey == "@defender":
            hx = action.get("defender")
        elif hkey:
            hx = action.get(hkey)
        return (unit if isinstance(unit, str) else None), (hx if isinstance(hx, str) else None)

    def highlights(self, event: dict[str, Any] | None, before: Any, after: Any) -> Highlights:
        """What a replay step changed, read from Vietnam Battles' own facts (`vb_replay`)."""
        return step_highlights(event, before, after)

    def name_of(self, kind: str, key: str) -> str:
        """Display names for the page's buttons: a unit with its printed values (an attack's
        defender too), a hexside, a split hex's land portion, a hex number (both maps share the
        numbering, and the buttons are named before any map is chosen)."""
        w = world("snoopy")
        if key in w.units:
            d = w.units[key]
            return f"{d.name} {d.attack}-{d.defense}-{d.ma}"
        if "/" in key:
            return f"hexside {key}"
        if ":" in key:
            h, part = key.split(":", 1)
            return f"{h} ({part} portion)"
        return key


def board_svg(scene: Scene) -> str:
    state = scene.state
    which = scenario_map((state or {}).get("scenario"))
    w, lay = world(which), layout(which)
    where = positions(state)
    body = [f"<style>{STYLE}</style>", defs(), static_map(which)]
    body.append(_bridges(state or {}, w, lay))
    known = set(w.hexes)
    body.append(targets([h for h in scene.target_hexes if h in known], lay, known))
    body.append(_side_targets(scene, w, lay, where))
    if state:
        body.append(_camps(state, w, lay))
        body.append(_battle(state, w, lay, where))
    places = _known_places(w, lay)
    if scene.highlights.paths:
        body.append(el("g", "".join(highlight_marks(scene.highlights, lay, places, 3.5, hexes=False)),
                       class_="highlights"))
    trays: list[str] = []
    if state:
        body.append(_units(scene, w, lay))
        trays = _trays(scene, w, lay)
    body.append(_highlights(scene.highlights, state, w, lay, places))
    body.append(status_band(state, w, lay))
    body.extend(trays)
    height = lay.height + (TRAY_ROW * len(trays) + 8 if trays else 0)
    if scene.caption:
        body.append(text(lay.width - 12, lay.height - 6, scene.caption, font_size="11", text_anchor="end",
                         fill="#fff", font_weight="bold"))
    title = "Map of the Iron Triangle, January 1967" if which == "iron" else "Map of Snoopy's Nose, Dinh Tuong 1967"
    focus = _focus(scene, places, where)
    return svg_document("".join(body), lay.width, height, f"{title}, Vietnam Battles", GAME,
                        lay.centre(focus) if focus else None)


def positions(state: dict[str, Any] | None) -> dict[str, str]:
    """Where each unit on the map stands (a hex, a split hex's portion, a monitor's hexside)."""
    return {u: r["at"] for u, r in ((state or {}).get("units") or {}).items()
            if isinstance(r, dict) and r.get("status") == "map" and isinstance(r.get("at"), str)}


def _known_places(w: World, lay: VbLayout) -> set[str]:
    return set(w.hexes) | set(lay.portions) | set(w.hexsides)


def _focus(scene: Scene, places: set[str], where: dict[str, str]) -> str | None:
    """Where the action is: the unit under way, the battle, what a replay step changed."""
    state, hl = scene.state or {}, scene.highlights
    mv, b = state.get("moving") or {}, state.get("battle") or {}
    cands = [where.get(str(mv.get("unit"))), b.get("at")]
    cands += [p[-1] for p in hl.paths if p] + list(hl.hexes) + [h for _, h in hl.lost]
    found = next((h for h in cands if isinstance(h, str) and h in places), None)
    if found is not None:
        return found
    seat = scene.extra.get("seat")  # else the units a legal action names, its hexes, the seat's own units
    units = state.get("units") or {}
    for group in ([where.get(u) for u in sorted(scene.target_units)], sorted(scene.target_hexes),
                  [where.get(u) for u in sorted(units) if seat and u.startswith(f"{seat}-")]):
        known = [h for h in group if isinstance(h, str) and h in places]
        if known:
            return sorted(known)[len(known) // 2]
    return None


def _bridges(state: dict[str, Any], w: World, lay: VbLayout) -> str:
    down = set(state.get("bridges_down") or [])
    eng = state.get("eng_bridge")
    out = [bridge(lay, k, "down" if k in down else "") for k in sorted(w.hexsides) if w.hexsides[k].get("bridge")]
    if isinstance(eng, str) and "/" in eng:
        out.append(bridge(lay, eng, "engineer"))
    return el("g", "".join(out), class_="bridges")


def _side_targets(scene: Scene, w: World, lay: VbLayout, where: dict[str, str]) -> str:
    """Clickable hexsides (a monitor's move, a bridge to demolish), split-hex portions and the
    units an attack may be declared on, that legal actions name: shapes in a `terrain` group,
    where the page's script finds them (a defender's shape is named by the unit)."""
    out = []
    for t in sorted(scene.target_hexes):
        if t in where:
            at = where[t]
            shape = lay.portions[at][0] if at in lay.portions else None
            pts = points(shape) if shape else lay.polygon(at.split("/")[0] if "/" in at else at, 0.9)
            if "/" in at:
                x, y = lay.centre(at)
                pts = points([(x - 14, y - 14), (x + 14, y - 14), (x + 14, y + 14), (x - 14, y + 14)])
            out.append(el("polygon", el("title", f"attack {t}"), points=pts, class_="target-side", data_hex=t))
            continue
        if "/" in t and t in w.hexsides or ("/" in t and all(h in w.hexes for h in t.split("/"))):
            a, b = t.split("/")
            p, q = lay.edge(a, b)
            ca, cb = lay.centre(a), lay.centre(b)
            pa = ((ca[0] * 0.35 + (p[0] + q[0]) / 2 * 0.65), (ca[1] * 0.35 + (p[1] + q[1]) / 2 * 0.65))
            pb = ((cb[0] * 0.35 + (p[0] + q[0]) / 2 * 0.65), (cb[1] * 0.35 + (p[1] + q[1]) / 2 * 0.65))
            out.append(el("polygon", el("title", f"hexside {t}"), points=points([p, pa, q, pb]),
                          class_="target-side", data_hex=t))
        elif ":" in t and t in lay.portions:
            out.append(el("polygon", points=points(lay.portions[t][0]), class_="target-hex", data_target=t))
    return el("g", "".join(out), class_="terrain side-targets") if out else ""


def _camps(state: dict[str, Any], w: World, lay: VbLayout) -> str:
    """Revealed and captured camps and caches; the VC's own secret records in its view only."""
    out = []
    entries = [(c, rec.get("hex"), str(rec.get("status"))) for c, rec in sorted((state.get("camps") or {}).items())
               if isinstance(rec, dict)]
    entries += [(c, h, "secret") for c, h in sorted(((state.get("secret") or {}).get("camps") or {}).items())]
    for cid, hx, status in entries:
        if not isinstance(hx, str) or hx.split(":")[0] not in w.hexes or status == "hidden":
            continue
        h = hx.split(":")[0]
        x, y = lay.centre(h)
        ring = CAMP_RING.get(status, CAMP_RING["revealed"])
        out.append(el("polygon", points=lay.polygon(h, 0.9), fill="none", stroke="#f3e9d2", stroke_width="5",
                      opacity="0.85"))
        out.append(el("polygon", points=lay.polygon(h, 0.9), fill="none", stroke=ring, stroke_width="3",
                      stroke_dasharray="6 3" if status == "secret" else None, class_="camp-ring"))
        out.append(camp_chit(cid, status, x - S * 0.9, y + 3, 14.0, describe_hex(w, h).split(":")[0]))
    return el("g", "".join(out), class_="camps")


def _battle(state: dict[str, Any], w: World, lay: VbLayout, where: dict[str, str]) -> str:
    """The battle being fought: the defender's position ringed, an arrow from each attacker."""
    b = state.get("battle")
    if not b or not isinstance(b.get("at"), str):
        return ""
    at = b["at"]
    cx, cy = lay.centre(at)
    out = [el("circle", cx=num(cx), cy=num(cy), r=num(S * 0.95), fill="none", stroke=BATTLE, stroke_width="4",
              stroke_dasharray="7 3")]
    for u in b.get("units") or []:
        frm = where.get(u)
        if frm:
            (x1, y1) = lay.centre(frm)
            out.append(el("path", d=f"M{num(x1)},{num(y1)} L{num(x1 + (cx - x1) * 0.8)},{num(y1 + (cy - y1) * 0.8)}",
                          stroke=BATTLE, stroke_width="4", marker_end="url(#arrow)", opacity="0.9"))
    what = "Bombardment" if b.get("kind") == "bombard" else "Attack"
    return el("g", el("title", f"{what} on {at}, support fire step {b.get('step')}") + "".join(out), class_="battle")


def _classes(uid: str, rec: dict[str, Any], state: dict[str, Any], scene: Scene) -> tuple[str, ...]:
    cls = scene_classes(uid, scene, (state.get("moving") or {}).get("unit") == uid)
    b = state.get("battle") or {}
    if uid == b.get("defender") or uid in (b.get("units") or []):
        cls.append("in-battle")
    if rec.get("moved") and state.get("phase") in ("movement", "mech_movement"):
        cls.append("done")
    return tuple(cls)


def _units(scene: Scene, w: World, lay: VbLayout) -> str:
    """Every unit on the map at its position; the VC's hidden units in the VC's own view."""
    state = scene.state or {}
    placed: list[tuple[str, str, bool]] = []
    for u, rec in sorted((state.get("units") or {}).items()):
        if isinstance(rec, dict) and rec.get("status") == "map" and isinstance(rec.get("at"), str) and u in w.units:
            placed.append((u, rec["at"], False))
    for u, at in sorted(((state.get("secret") or {}).get("hidden") or {}).items()):
        if u in w.units and isinstance(at, str):
            placed.append((u, at, True))
    out: list[str] = []
    top: list[str] = []
    for u, at, hidden in placed:
        rec = state["units"].get(u) or {}
        d = w.units[u]
        p = piece(d, rec, _classes(u, rec, state, scene), at, hidden)
        if u in scene.target_hexes:  # an attack on it is legal: a click on it picks the attack
            p = replace(p, hex=u)
        x, y = lay.centre(at)
        size = C * 0.66 if "/" in at else C * 0.72 if ":" in at else C
        if "/" not in at and ":" not in at and d.monitor:
            size = C * 0.86
        if rec.get("transported") and "/" not in at:
            out.append(landing_chit(str(rec["transported"]), x - size / 2 - 11, y - 4))
        (top if "/" in at else out).append(draw(p, x - size / 2, y - size / 2 + (2 if size == C else 0), size))
    return el("g", "".join(out + top), class_="units")  # monitors on hexsides over the land units beside them


def _trays(scene: Scene, w: World, lay: VbLayout) -> list[str]:
    """The units off the map: reinforcements and set-up (those an action names first), the
    eliminated, the VC units that left by the red edge."""
    state = scene.state or {}
    units = state.get("units") or {}
    rows = []
    for title, status in (("Off the map", "off"), ("Eliminated", "dead"),
                          ("Left the map (VB 27.0)", "exited")):
        ids = [u for u, r in sorted(units.items()) if isinstance(r, dict) and r.get("status") == status and u in w.units]
        ids.sort(key=lambda u: (u not in scene.target_units, w.units[u].side, u))
        if ids:
            rows.append((title, ids))
    out = []
    y = lay.height + 4
    per_row = max(1, int((lay.width - 2 * lay.margin - 120) // (C + 4)))
    for title, ids in rows:
        for k in range(0, len(ids), per_row):
            chunk = ids[k:k + per_row]
            row = [el("rect", x=num(lay.margin), y=num(y), width=num(lay.width - 2 * lay.margin),
                      height=num(TRAY_ROW - 6), fill="#ece8dc", stroke="#b9b3a2", rx="3")]
            if k == 0:
                row.append(text(lay.margin + 8, y + 16, title, font_size="9.5", font_weight="bold", fill="#333"))
            x = lay.margin + 110
            for u in chunk:
                rec = units[u]
                cls = _classes(u, rec, state, scene) + (("eliminated",) if status_of(rec) == "dead" else ())
                row.append(draw(piece(w.units[u], rec, cls), x, y + 8, C))
                x += C + 4
            out.append(el("g", "".join(row), class_="tray"))
            y += TRAY_ROW
    return out


def status_of(rec: dict[str, Any]) -> str:
    return str(rec.get("status"))


def _highlights(hl: Highlights, state: dict[str, Any] | None, w: World, lay: VbLayout, places: set[str]) -> str:
    if not hl:
        return ""
    out = highlight_marks(hl, lay, places, 3.5, paths=False)
    units = (state or {}).get("units") or {}
    for k, (u, at) in enumerate(hl.lost):
        if at not in places or u not in w.units:
            continue
        x, y = lay.centre(at)
        p = piece(w.units[u], units.get(u) or {}, ("lost", "eliminated"), at)
        out.append(draw(p, x - C * 0.4 + 8 + 3 * (k % 3), y - C * 0.4 + 6, C * 0.8))
    return el("g", "".join(out), class_="highlights")


register_renderer(GAME, VbRenderer())
