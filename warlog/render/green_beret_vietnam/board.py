"""Green Beret: Vietnam's board: the map (`gbv_map`) with the state on it: base camps, the
mission marker, Green Beret stacks and enemy units as counters (`gbv_counters`), the group
under way, what a replay step changed (`gbv_replay`), and a status cartouche (turn, PP,
mission, tally, the two face-down PP-track markers). Registered as the renderer of
"green-beret-vietnam". It only ever sees `Game.view(state, seat)`."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from rules.green_beret_vietnam.data import World
from warlog.render import Highlights, Scene, register_renderer
from warlog.render.boardkit import STATE_STYLE, highlight_marks, svg_document, targets
from warlog.render.green_beret_vietnam.counters import Chit, draw, enemy_chit, gb_chit
from warlog.render.green_beret_vietnam.legend import legend_html
from warlog.render.green_beret_vietnam.map import GAME, TERRAIN, defs, layout, static_map, world
from warlog.render.green_beret_vietnam.replay import highlights as step_highlights
from warlog.render.green_beret_vietnam.status import camp_mark, cartouche, mission_marker, moving_label, moving_path
from warlog.render.hexmap import HexLayout, el, num, text

C = 30.0  # counter side

STYLE = """
.hexmap text{font-family:'DejaVu Sans',Verdana,sans-serif}
.hexmap .hex{stroke:#5d5a4c;stroke-width:.6}
.hexmap .hexnum{font-size:7px;fill:#1d1d1b;stroke:#fff;stroke-opacity:.6;stroke-width:1.8px;paint-order:stroke}
.hexmap .place{font-size:8.5px;font-weight:bold;fill:#111;stroke:#fffbe8;stroke-width:2.6px;paint-order:stroke;
stroke-linejoin:round}
""" + STATE_STYLE + """.hexmap .streams,.hexmap .roads,.hexmap .places,.hexmap .highlights,.hexmap .moving,
.hexmap .cartouche,.hexmap .mission,.hexmap .stack-count{pointer-events:none}
"""

# action type -> the key naming the counter (or camp) a click on the map picks for it
UNIT_KEYS = {"attack": "enemy", "suppress": "enemy", "begin_move": "counter", "join": "counter", "drop": "counter",
             "take": "item", "jettison": "item", "lose_item": "item", "claim": "item", "damage_team": "team",
             "assassinate_team": "team", "kill_leader": "leader", "assassinate_leader": "leader", "evade": "camp",
             "relocate": "camp"}
GROUPS = {"place_camp": "Place the base camp in", "buy": "Buy", "buy_camp": "Buy a base camp in",
          "relocate_to": "Put the relocated camp in", "begin_move": "Start moving", "join": "Add to the move",
          "drop": "Drop", "step": "Move to", "take": "Take up", "jettison": "Jettison", "suppress": "Suppress",
          "evade": "Evade to", "choose_target": "The enemy chases", "choose_hex": "The enemy enters",
          "damage_team": "Takes the damage", "kill_leader": "Killed", "lose_item": "Lose", "claim": "Claim",
          "assassinate_team": "Lost", "assassinate_leader": "Lost"}


class GbvRenderer:
    """The `Renderer` of Green Beret: Vietnam."""

    seat_names = {"player": "Player"}  # display names (the pages never capitalise an id)

    action_groups = GROUPS

    def action_words(self, action: dict[str, Any]) -> str | None:
        """An action in words (warlog.render.words)."""
        from warlog.render.green_beret_vietnam.words import action_words

        return action_words(action)

    def fact_words(self, fact: dict[str, Any]) -> str:
        """A recorded fact's text with the ids put in words (the record is unchanged)."""
        from warlog.render.green_beret_vietnam.words import text_words

        return text_words(str(fact.get("text", "")))

    def planner(self, state: dict[str, Any] | None) -> str | None:
        return None  # one click, one action: a move goes hex by hex (`step`), each judged at once

    def board(self, scene: Scene) -> Markup:
        return Markup(board_svg(scene))

    def legend(self) -> Markup:
        return Markup(legend_html())

    def action_targets(self, action: dict[str, Any]) -> tuple[str | None, str | None]:
        """The counter and the hex a click on the map picks this action by."""
        key = UNIT_KEYS.get(str(action.get("type")))
        if key is not None:
            unit = action.get(key)
            return (unit if isinstance(unit, str) else None), None
        hx = action.get("hex")
        return None, hx if isinstance(hx, str) else None

    def highlights(self, event: dict[str, Any] | None, before: Any, after: Any) -> Highlights:
        """What a replay step changed, read from Green Beret's own facts (`gbv_replay`)."""
        return step_highlights(event, before, after, world())

    def name_of(self, kind: str, key: str) -> str:
        """Display names for the page's buttons: a hex with its terrain, a counter with its values."""
        w = world()
        if kind == "hex":
            h = w.hexes.get(key)
            return f"{h.title()} {TERRAIN[h.terrain][2].lower()}" if h else key
        if key in w.counters:
            return w.counters[key].name
        if key in w.enemies:
            e = w.enemies[key]
            return f"{e.name} {e.fp}-{e.ma} ({key})"
        return key.replace("-", " ").capitalize()


def board_svg(scene: Scene) -> str:
    w, lay = world(), layout()
    state = scene.state
    body = [f"<style>{STYLE}</style>", defs(), static_map()]
    if state:
        body.append(_camps(state, w, lay))
        body.append(mission_marker(state, w, lay))
    body.append(targets(scene.target_hexes, lay, w.hexes))
    if state:
        body.append(moving_path(state, w, lay))
    if scene.highlights.paths:  # under the counters, which they lead to
        body.append(el("g", "".join(highlight_marks(scene.highlights, lay, w.hexes, 3.5, hexes=False)),
                       class_="highlights"))
    if state:
        body.append(_units(scene, w, lay))
        body.append(moving_label(state, w, lay))
    body.append(_highlights(scene.highlights, w, lay))
    body.append(cartouche(state, w, lay))
    if scene.caption:
        body.append(text(lay.width - 12, lay.height - 6, scene.caption, font_size="11", text_anchor="end",
                         fill="#fff", font_weight="bold"))
    focus = focus_hex(scene, w)
    return svg_document("".join(body), lay.width, lay.height, "Map of the Central Highlands, Green Beret: Vietnam",
                        GAME, lay.centre(focus) if focus else None)


def focus_hex(scene: Scene, w: World) -> str | None:
    """Where the action is, for the page to scroll to: the group under way, what a replay step
    changed, a detected team, the first team on the map, the mission."""
    state, hl = scene.state or {}, scene.highlights
    gb = state.get("gb") or {}
    on_map = [(c, r["hex"]) for c, r in gb.items() if r.get("status") == "map" and r.get("hex") in w.hexes
              and c in w.counters and w.counters[c].cls == "team"]
    candidates = [(state.get("moving") or {}).get("hex")]
    candidates += [p[-1] for p in hl.paths if p] + list(hl.hexes) + [h for _, h in hl.lost]
    candidates += [h for c, h in on_map if gb[c].get("detected")] + [h for _, h in on_map]
    candidates.append((state.get("mission") or {}).get("hex"))
    return next((h for h in candidates if isinstance(h, str) and h in w.hexes), None)


def _camps(state: dict[str, Any], w: World, lay: HexLayout) -> str:
    out = []
    for k in sorted(state.get("camps", {})):
        rec = state["camps"][k]
        if rec.get("status") == "map" and rec.get("hex") in w.hexes:
            out.append(camp_mark(k, rec, lay))
    return el("g", "".join(out), class_="camps")


def _classes(uid: str, rec: dict[str, Any], state: dict[str, Any], scene: Scene) -> tuple[str, ...]:
    cls = []
    mv = state.get("moving") or {}
    if uid in (mv.get("members") or []):
        cls.append("selected")
    if uid in scene.highlights.units:
        cls.append("hl")
    if uid in scene.target_units:
        cls.append("target")
    if rec.get("moved") and state.get("phase") == "movement":
        cls.append("done")
    return tuple(cls)


def _units(scene: Scene, w: World, lay: HexLayout) -> str:
    state = scene.state or {}
    gb: dict[str, list[str]] = {}
    for cid in sorted(w.counters, key=lambda c: _stack_order(w, c)):
        rec = (state.get("gb") or {}).get(cid)
        if rec and rec.get("status") == "map" and rec.get("hex") in w.hexes:
            gb.setdefault(rec["hex"], []).append(cid)
    foes: dict[str, list[str]] = {}
    enemies = state.get("enemies") or {}
    for eid in list(state.get("enemy_order") or []) or sorted(enemies):
        rec = enemies.get(eid)
        if rec and eid in w.enemies and rec.get("hex") in w.hexes:
            foes.setdefault(rec["hex"], []).append(eid)
    out = []
    for hx in sorted(set(gb) | set(foes)):
        cx, cy = lay.centre(hx)
        both = hx in gb and hx in foes
        size = C * 0.78 if both else C
        for ids, side in ((gb.get(hx), -1), (foes.get(hx), 1)):
            if not ids:
                continue
            chits = [(gb_chit(w, u, state["gb"][u], _classes(u, state["gb"][u], state, scene), hx) if side < 0 else
                      enemy_chit(w, u, enemies[u], _classes(u, enemies[u], state, scene), hx)) for u in ids]
            out.append(_stack(chits, cx + (side * 0.5 * size if both else 0.0), cy + 2, hx, size))
    return el("g", "".join(out), class_="units")


def _stack_order(w: World, cid: str) -> tuple[int, int]:
    """Teams on top, then leaders, the vehicles, boats and helicopters that carry them, then the
    weapons and equipment; each in catalogue order."""
    c = w.counters[cid]
    rank = {"team": 0, "leader": 1}.get(c.cls, 2 if c.plus else 3)
    return rank, list(w.counters).index(cid)


def _stack(chits: list[Chit], cx: float, cy: float, hx: str, size: float) -> str:
    """A stack, the first chit on top; the ones below peek out up and to the right."""
    n = len(chits)
    d = min(3.0, 12.0 / (n - 1)) if n > 1 else 0.0
    bx = cx - (size + (n - 1) * d) / 2
    by = cy - size / 2 + (n - 1) * d / 2
    out = [draw(chits[k], bx + k * d, by - k * d, size) for k in range(n - 1, -1, -1)]
    if n > 1:
        x, y = bx + (n - 1) * d + size + 2, by - (n - 1) * d - 2
        out.append(el("g", el("circle", cx=num(x), cy=num(y), r="6", fill="#1d1d1b", stroke="#fff", stroke_width="1")
                      + text(x, y + 3, str(n), font_size="8", font_weight="bold", fill="#fff", text_anchor="middle"),
                      class_="stack-count"))
    names = ", ".join(c.title.split(":")[0] for c in chits)
    return el("g", el("title", f"{n} counter{'s' if n > 1 else ''} in {hx}: {names}") + "".join(out), class_="stack",
              data_hex=hx, data_count=str(n))


def _highlights(hl: Highlights, w: World, lay: HexLayout) -> str:
    if not hl:
        return ""
    out = highlight_marks(hl, lay, w.hexes, 3.5, paths=False)
    fanned: dict[str, int] = {}
    for uid, hx in hl.lost:
        if hx not in w.hexes:
            continue
        k = fanned[hx] = fanned.get(hx, -1) + 1  # several lost in one hex: fanned out
        if uid in w.counters:
            c = gb_chit(w, uid, {}, ("lost", "eliminated"), hx)
        elif uid in w.enemies:
            c = enemy_chit(w, uid, {}, ("lost", "eliminated"), hx)
        else:
            continue
        cx, cy = lay.centre(hx)
        out.append(draw(c, cx - C * 0.4 + 8 + 4 * k, cy - C * 0.4 + 6 - 3 * k, C * 0.8))
    return el("g", "".join(out), class_="highlights")


register_renderer(GAME, GbvRenderer())
