"""Lock 'n Load's board: board 1 (`map.static_map`) with the state as the viewing seat may see it
(`Game.view`: no event paragraph before it activates, no other seat's standing orders, no sniper
before it is placed; the full state, the judge's view, shows both sides' orders and every paragraph): counters in stacks, hex markers (Smoke, Melee, Spotted, face-down event
markers, objectives), the hexes and units legal actions name, and a line of sight when the scene
asks for one (`scene.extra["los"] = (a, b)`, traced by rules/lock_n_load/los.py, the rules' own).
Registered as the renderer of "lock-n-load"."""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup

from rules.lock_n_load.data import World
from rules.lock_n_load.los import line_of_sight
from rules.lock_n_load.orders import HIDDEN as HIDDEN_ORDER
from rules.lock_n_load.orders import SNIPER_KEY
from warlog.render import Scene, register_renderer
from warlog.render.boardkit import STATE_STYLE, focus_point, highlight_marks, svg_document, targets
from warlog.render.hexmap import HexLayout, el, line, num, path_through, text
from warlog.render.lock_n_load.counters import draw_unit
from warlog.render.lock_n_load.map import GAME, TERRAIN_LABEL, defs, layout, static_map, world

C = 36.0  # counter side, px
STYLE = """
.hexmap text{font-family:'DejaVu Sans',Verdana,sans-serif}
.hexmap .hex{stroke:#7e7c70;stroke-width:.7}
.hexmap .hexnum{font-size:9.5px;fill:#2b2a24;font-weight:bold;paint-order:stroke;stroke:#f4f1e4;stroke-width:2.6px;stroke-linejoin:round}
""" + STATE_STYLE + """.hexmap .features,.hexmap .hexmarks,.hexmap .highlights,.hexmap .los,.hexmap .oppfire{pointer-events:none}
.hexmap .counter.can-fire .body{stroke:#117733;stroke-width:4}
.hexmap .los-pick{fill:#4477aa;fill-opacity:.25;stroke:#4477aa;stroke-width:3;pointer-events:none}
"""


class LnlRenderer:
    """The `Renderer` of Lock 'n Load: Forgotten Heroes Vietnam."""

    seat_names = {"us": "US", "vc": "VC"}
    action_groups = {"select": "Select units", "move": "Move", "step": "Move to", "fire": "Fire at",
                     "activate": "Activate a hex", "opp_fire": "Opportunity fire at", "melee": "Melee",
                     "smoke": "Smoke", "spot": "Spot", "place_sniper": "Place the sniper",
                     "order": "Standing orders (secret)", "sniper_order": "The sniper's standing order (secret)",
                     "split": "Split a squad", "withdraw": "Withdraw from melee"}

    def action_words(self, action: dict[str, Any]) -> str | None:
        """An action in words, units by their counters' names (warlog.render.words)."""
        from warlog.render.lock_n_load.words import action_words

        return action_words(world(), action)

    def fact_words(self, fact: dict[str, Any]) -> str:
        """A recorded fact's text with the scenario's ids put in words (the record is unchanged)."""
        from warlog.render.lock_n_load.words import text_words

        return text_words(world(), str(fact.get("text", "")))

    def planner(self, state: dict[str, Any] | None) -> str | None:
        return None  # a move is stepped hex by hex: each step may draw opportunity fire (LnL 5.0)

    def los_report(self, state: dict[str, Any] | None, a: str, b: str) -> dict[str, Any] | None:
        return los_report(state, a, b)

    def board(self, scene: Scene) -> Markup:
        return Markup(board_svg(scene))

    def legend(self) -> Markup:
        from warlog.render.lock_n_load.legend import legend_html

        return Markup(legend_html())

    def action_targets(self, action: dict[str, Any]) -> tuple[str | None, str | None]:
        """The unit and the hex a click on the map picks an action by: a unit to select, the hex
        to step into, fire at, activate, melee in, lay smoke in."""
        if action.get("type") in ("order", "sniper_order"):
            return None, None  # standing orders are given from their buttons, not by a click on the map
        hx = action.get("hex")
        if hx is None and action.get("type") in ("fire", "snipe"):
            hx = action.get("target")
        unit = action.get("unit") if action.get("type") in ("select", "split", "rally", "spot", "place_sniper",
                                                             "snipe", "drop_sw") else None
        if action.get("type") in ("place_sniper", "place_hero"):
            unit = None  # the sniper (a new hero, W6) is off the map until placed: its hex is the click
        return (unit if isinstance(unit, str) else None), (hx if isinstance(hx, str) else None)


def board_svg(scene: Scene) -> str:
    w, lay = world(), layout()
    state = scene.state
    body = [f"<style>{STYLE}</style>", defs(), static_map()]
    if state:
        body.append(_hex_marks(dict(state, _seat=scene.extra.get("seat")), w, lay))
    body.append(targets(scene.target_hexes, lay, w.hexes))
    if state:
        body.append(_move_path(state, w, lay))
        body.append(_units(scene, state, w, lay))
        body.append(opp_fire_layer(state, w, lay, scene.extra.get("seat")))
    if scene.highlights:
        body.append(el("g", "".join(highlight_marks(scene.highlights, lay, w.hexes)), class_="highlights"))
    los = scene.extra.get("los")
    if los:
        body.append(los_layer(state or {}, w, lay, str(los[0]), str(los[1])))
    if scene.caption:
        body.append(text(lay.width - 12, lay.height - 4, scene.caption, font_size="11", text_anchor="end", fill="#333"))
    return svg_document("".join(body), lay.width, lay.height, "Lock 'n Load board 1", GAME, _focus(scene, w, lay))


def _focus(scene: Scene, w: World, lay: HexLayout) -> tuple[float, float] | None:
    units = (scene.state or {}).get("units") or {}

    def at(u: str) -> Any:
        return (units.get(u) or {}).get("at")

    seat = scene.extra.get("seat")
    groups = [[at(u) for u in sorted(scene.target_units)], sorted(scene.target_hexes),
              [r.get("at") for u, r in sorted(units.items()) if r.get("side") == seat]]
    return focus_point(lay, w.hexes, [p[-1] for p in scene.highlights.paths if p], groups)


def _units(scene: Scene, state: dict[str, Any], w: World, lay: HexLayout) -> str:
    """Units on the map, laid out side by side in their hex (a leader is never hidden under a
    squad): one at full size, two in a row, three or four in a 2x2 grid, more in rows of three;
    the US first, then the VC (both in a hex only in melee, 8.0). A unit with no hex (a sniper
    not yet placed, 11.4; a unit eliminated) is not drawn."""
    placed: dict[str, list[str]] = {}
    for uid, r in sorted(state.get("units", {}).items()):
        if r.get("dead") or r.get("at") not in w.hexes or r.get("kind") not in w.kinds:
            continue
        placed.setdefault(r["at"], []).append(uid)
    imp = state.get("impulse") or {}
    mv = imp.get("move") or {}
    chosen = set(imp.get("group") or []) | set(mv.get("units") or [])
    can_fire = set(opp_fire_eligible(state, w, scene.extra.get("seat")))
    out = []
    for hx in sorted(placed):
        ids = sorted(placed[hx], key=lambda u: (state["units"][u]["side"] != "us",
                                                 w.kinds[state["units"][u]["kind"]].is_smc, u))
        out.append(_stack(ids, *lay.centre(hx), hx, state, scene, w, chosen, can_fire))
    return el("g", "".join(out), class_="units")


def _grid(n: int) -> tuple[int, float]:
    """(columns, counter side) for n counters in one hex."""
    if n == 1:
        return 1, C
    if n == 2:
        return 2, 30.0
    if n <= 4:
        return 2, 27.0
    return 3, 23.0


def _stack(ids: list[str], cx: float, cy: float, hx: str, state: dict[str, Any], scene: Scene, w: World,
           chosen: set[str], can_fire: set[str] | None = None) -> str:
    n = len(ids)
    cols, size = _grid(n)
    rows = -(-n // cols)
    gap = 2.0
    x0 = cx - (cols * size + (cols - 1) * gap) / 2
    y0 = cy + 4 - (rows * size + (rows - 1) * gap) / 2
    out = []
    for i, uid in enumerate(ids):
        cls: list[str] = []
        if uid in chosen:
            cls.append("selected")
        if uid in scene.highlights.units:
            cls.append("hl")
        if uid in scene.target_units:
            cls.append("target")
        if can_fire and uid in can_fire:
            cls.append("can-fire")
        x, y = x0 + (i % cols) * (size + gap), y0 + (i // cols) * (size + gap)
        out.append(draw_unit(uid, state["units"][uid], w, state.get("sws") or {}, x, y, size, tuple(cls), hx))
    return el("g", el("title", f"{n} unit{'s' if n > 1 else ''} in {hx}") + "".join(out), class_="stack",
              data_hex=hx, data_count=str(n))


def _move_path(state: dict[str, Any], w: World, lay: HexLayout) -> str:
    """The hexes the moving group has entered so far this move (5.0), start to where it stands."""
    mv = (state.get("impulse") or {}).get("move") or {}
    steps = [h for h in mv.get("path") or [] if h in w.hexes]
    if len(steps) < 2:
        return ""
    return el("path", el("title", "Moved this impulse: " + " › ".join(steps)), d=path_through(lay, steps),
              fill="none", stroke="#4477aa", stroke_width="4", stroke_dasharray="9 4", stroke_linecap="round",
              opacity="0.9", class_="move-path", pointer_events="none")


def _hex_marks(state: dict[str, Any], w: World, lay: HexLayout) -> str:
    """Objectives, Spotted, Smoke (13.x), Melee (8.0) and event markers face down (1.7)."""
    out = []
    hh = lay.hex_height
    for h in state.get("objectives") or []:
        if h in w.hexes:
            out.append(el("polygon", el("title", f"Objective hex {h}"), points=lay.polygon(h, 0.92), fill="none",
                          stroke="#c0182a", stroke_width="2.5", stroke_dasharray="8 4", class_="objective"))
    for h in sorted(set(state.get("spotted") or [])):
        if h in w.hexes:
            cx, cy = lay.centre(h)
            out.append(chip(cx - lay.size * 0.62, cy + hh * 0.12, "Spot", "#ee7733", f"{h} is spotted (10.4)"))
    for h, level in sorted((state.get("smoke") or {}).items()):
        if h in w.hexes:
            cx, cy = lay.centre(h)
            out.append(el("circle", el("title", f"Smoke {level} in {h}: blocks LOS, TM +1"), cx=num(cx), cy=num(cy),
                          r=num(lay.size * 0.8), fill="#9a9a9a", fill_opacity="0.45", stroke="#666",
                          stroke_width="1.5", class_="smoke"))
            out.append(chip(cx + lay.size * 0.2, cy + hh * 0.3, f"Smoke {level}", "#666666", f"Smoke {level}"))
    for h in sorted(state.get("melee") or {}):
        if h in w.hexes:
            cx, cy = lay.centre(h)
            out.append(chip(cx - lay.size * 0.45, cy + hh * 0.3, "Melee", "#c0182a", f"Melee in {h} (8.0)"))
    out += _orders(state, w, lay)
    whole = isinstance(state.get("secret"), dict)  # the full state: the judge's view, or the game is over
    for eid, e in sorted((state.get("events") or {}).items()):
        h = e.get("hex")
        if h not in w.hexes:
            continue
        cx, cy = lay.centre(h)
        if e.get("revealed"):
            label, note = eid, f"Event {eid} in {h}, activated: {e.get('paragraph') or ''}"
        else:
            label, note = "?", f"Event marker {eid} in {h}, face down (1.7)"
            if whole:  # the judge reads the paragraph no seat may read yet
                note += ": " + str(((state.get("secret") or {}).get("events") or {}).get(eid) or "")
        out.append(el("g", el("title", note) + el("rect", x="-8", y="-8", width="16", height="16", rx="2",
                                                 fill="#2b2b52" if not e.get("revealed") else "#f0c419",
                                                 stroke="#fff", stroke_width="1")
                      + text(0, 4.5, label, font_size="11", font_weight="bold", text_anchor="middle",
                             fill="#fff" if not e.get("revealed") else "#111"),
                      transform=f"translate({num(cx + lay.size * 0.62)},{num(cy + hh * 0.22)})",
                      class_="event" + ("" if e.get("revealed") else " face-down"), data_event=eid))
    return el("g", "".join(out), class_="hexmarks")


def _orders(state: dict[str, Any], w: World, lay: HexLayout) -> list[str]:
    """Standing orders as the view holds them: the viewer's own, every side's in the full state (the
    judge's view), and, from rules version 3, the other side's as face-down markers ("hidden")."""
    seat = state.get("_seat")
    out = []
    for side, orders in sorted((state.get("orders") or {}).items()):
        for h, order in sorted((orders or {}).items()):
            if h.startswith(SNIPER_KEY) and order != HIDDEN_ORDER and ":" in order:
                # 11.4 (rules v4): a sniper's standing order, drawn where it would place him for whoever may
                # read it (its owner; everyone at the end); another side's has no hex to draw
                at, form = order.split(":", 1)
                if at in w.hexes:
                    cx, cy = lay.centre(at)
                    whose = "Your" if side == seat else f"{side.upper()}"
                    out.append(chip(cx - lay.size * 0.62, cy + lay.hex_height * 0.12, f"SN {form}", "#882255",
                                    f"{whose} sniper order: {h[len(SNIPER_KEY):]} is placed here and fires ({form})",
                                    "standing-order sniper-order"))
                continue
            if h not in w.hexes:
                continue
            cx, cy = lay.centre(h)
            if order == HIDDEN_ORDER:
                label, note = "SO ?", f"{side.upper()} standing order for {h}: face down"
            elif side == seat:
                label, note = f"SO {order}", f"Your standing order for {h}: {order}"
            else:
                label, note = f"SO {order}", f"{side.upper()} standing order for {h}: {order}"
            out.append(chip(cx - lay.size * 0.62, cy - lay.hex_height * 0.3, label, "#117733", note, "standing-order"))
    return out


def chip(x: float, y: float, label: str, colour: str, note: str, cls: str = "") -> str:
    wdt = 6 + len(label) * 5.6
    return el("g", el("title", note) + el("rect", x="0", y="-9", width=num(wdt), height="12", rx="2", fill=colour,
                                          stroke="#fff", stroke_width="0.8")
              + text(wdt / 2, 0.5, label, font_size="9", font_weight="bold", text_anchor="middle", fill="#fff"),
              transform=f"translate({num(x)},{num(y)})", class_=("chip " + cls).strip())


def los_layer(state: dict[str, Any], w: World, lay: HexLayout, a: str, b: str) -> str:
    """The line of sight a -> b as the rules trace it (LnL 10.0): green clear, amber degraded,
    red blocked; each obstacle's hex outlined, the verdict as its title."""
    if a not in w.hexes or b not in w.hexes:
        return ""
    los = line_of_sight(w, a, b, list(state.get("smoke") or {}),
                        tall_obstacles_block=bool((state.get("options") or {}).get("tall_obstacles_block")))
    colour = "#c0182a" if los.blocked else ("#ee7733" if los.degrading else "#228833")
    verdict = ("blocked" if los.blocked else f"clear, {los.degrading} degrading hex"
               + ("es" if los.degrading != 1 else "") + f" (DRM {los.drm:+d})")
    out = []
    for o in los.obstacles:
        hx = o.where
        if hx in w.hexes:
            out.append(el("polygon", el("title", f"{hx}: {o.what} {o.effect} the line ({o.rule}): {o.why}"), points=lay.polygon(hx, 0.85), fill="none",
                          stroke="#c0182a" if o.effect == "blocks" else "#ee7733", stroke_width="3",
                          class_="los-obstacle", data_effect=o.effect))
    out.append(line(lay.centre(a), lay.centre(b), stroke="#fff", stroke_width="6", stroke_linecap="round",
                    opacity="0.8"))
    out.append(line(lay.centre(a), lay.centre(b), stroke=colour, stroke_width="3", stroke_linecap="round",
                    class_="los-line"))
    return el("g", el("title", f"Line of sight {a} → {b}: {verdict}") + "".join(out), class_="los",
              data_from=a, data_to=b, data_blocked="true" if los.blocked else "false")


def opp_fire_eligible(state: dict[str, Any], w: World, seat: Any) -> list[str]:
    """At an opportunity-fire prompt (5.3, W1), the prompted seat's units that may fire now (the
    rules' own `movement.opp_firers` for each hex the decision lists); nobody else's."""
    d = state.get("decision") or {}
    if d.get("kind") != "opp_fire" or seat is None or d.get("seat") != seat:
        return []
    from rules.lock_n_load.movement import opp_firers

    out: list[str] = []
    for h in d.get("hexes") or []:
        try:
            out += opp_firers(state, w, h, str(seat))
        except (KeyError, TypeError, ValueError):
            continue  # a state this build's data cannot read: draw no marks rather than fail
    return out


def opp_fire_layer(state: dict[str, Any], w: World, lay: HexLayout, seat: Any) -> str:
    """5.3: where the enemy mover stands (both seats see it: the move is public) and, for the seat
    asked, a ring and a "may fire" chip on each hex whose units may fire at it."""
    d = state.get("decision") or {}
    if d.get("kind") != "opp_fire" or d.get("at") not in w.hexes:
        return ""
    at = str(d["at"])
    mover = ", ".join(((d.get("retreat") or (state.get("impulse") or {}).get("move") or {}).get("units")) or [])
    cx, cy = lay.centre(at)
    out = [el("polygon", el("title", f"The enemy mover ({mover}) is in {at}: opportunity fire (5.3)"),
              points=lay.polygon(at, 0.96), fill="#c0182a", fill_opacity="0.12", stroke="#c0182a",
              stroke_width="4", class_="opp-mover", data_hex=at),
           chip(cx - lay.size * 0.5, cy - lay.hex_height * 0.3, "MOVER", "#c0182a", f"The mover is in {at}")]
    if seat is not None and d.get("seat") == seat:
        firers = set(opp_fire_eligible(state, w, seat))
        for h in d.get("hexes") or []:
            if h not in w.hexes:
                continue
            names = [u for u in sorted(firers) if (state["units"].get(u) or {}).get("at") == h]
            hx, hy = lay.centre(h)
            out.append(el("polygon", el("title", f"{h} may fire at {at}: {', '.join(names)}"),
                          points=lay.polygon(h, 0.96), fill="none", stroke="#117733", stroke_width="4",
                          stroke_dasharray="7 3", class_="opp-firer", data_hex=h))
            out.append(chip(hx - lay.size * 0.5, hy + lay.hex_height * 0.42, "MAY FIRE", "#117733",
                            f"{', '.join(names)} may fire at {at}"))
            out.append(line(lay.centre(h), lay.centre(at), stroke="#117733", stroke_width="2",
                            stroke_dasharray="4 4", opacity="0.8"))
    return el("g", "".join(out), class_="oppfire", data_at=at)


def los_report(state: dict[str, Any] | None, a: str, b: str) -> dict[str, Any] | None:
    """The words beside the drawn line (10.0): the verdict, the hexes the line crosses, and each
    thing that degrades or blocks it with its rule section."""
    w = world()
    if a not in w.hexes or b not in w.hexes:
        return None
    st = state or {}
    los = line_of_sight(w, a, b, list(st.get("smoke") or {}),
                        tall_obstacles_block=bool((st.get("options") or {}).get("tall_obstacles_block")))
    verdict = ("blocked" if los.blocked else "clear" if not los.degrading
               else f"degraded by {los.degrading} hex{'es' if los.degrading != 1 else ''} (DRM {los.drm:+d}, T5)")
    return {"a": a, "b": b, "blocked": los.blocked, "verdict": verdict, "distance": w.board.distance(a, b),
            "crosses": list(los.hexes),
            "obstacles": [dict(o.to_json(), what=TERRAIN_LABEL.get(o.what) or _terrain_words(o.what),
                               why=_terrain_words(o.why)) for o in los.obstacles]}


def _terrain_words(text: str) -> str:
    """The terrain ids in an obstacle's words ("dense_jungle (blocking)") by their names
    ("dense jungle (blocking)"), as the map key names them."""
    return re.sub(r"\b(" + "|".join(TERRAIN_LABEL) + r")\b", lambda m: TERRAIN_LABEL[m.group(1)].lower(), text)


register_renderer(GAME, LnlRenderer())
