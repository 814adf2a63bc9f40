"""The key to the Green Beret: Vietnam map: each terrain with its cost, noise and combat effect
(the Terrain Effects Chart, GBV 10.7, 12.1, 13.0), the hex features, the markers, and sample
counters of every kind in every state the board shows."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from rules.green_beret_vietnam.data import read_data
from warlog.render.boardkit import legend_hex, legend_item, legend_list, replay_items, swatch
from warlog.render.green_beret_vietnam.counters import draw, enemy_chit, gb_chit
from warlog.render.green_beret_vietnam.map import (
    ROAD,
    STREAM,
    TERRAIN,
    airfield,
    bridge,
    defs,
    terrain_fill,
    village,
    world,
)
from warlog.render.green_beret_vietnam.status import MISSION, camp_chit, pp_marker
from warlog.render.hexmap import el, line, text

P = "lg-"  # pattern id prefix: the legend has its own copy of the patterns


def _effects(row: dict[str, Any]) -> str:
    cost = "boats only" if row.get("mp") is None else f"{row['mp']} MP"
    return f"{cost}; noise {row['noise']:+d}; attacked {row['combat']:+d}"


def _counter(chit: Any, width: int = 40) -> str:
    return swatch(draw(chit, 4, 3, 30), width, 36)


@lru_cache(maxsize=1)
def legend_html() -> str:
    w = world()
    chart = read_data("tables.json")
    terrain, features = chart["terrain"], chart["features"]
    items = []
    for k, t in enumerate(TERRAIN):
        extra = village(20, 14) if t == "village" else airfield(20, 14) if t == "airfield" else ""
        if t == "stream":
            extra = line((6, 8), (34, 20), stroke=STREAM, stroke_width="3.6", stroke_linecap="round")
        body = (defs(P) if k == 0 else "") + legend_hex(terrain_fill(t, P), extra)
        items.append(legend_item(swatch(body), TERRAIN[t][2], _effects(terrain[t])))
    items += [
        legend_item(swatch(line((2, 14), (38, 14), stroke="#fff6e0", stroke_width="5")
                           + line((2, 14), (38, 14), stroke=ROAD, stroke_width="2.4")), "Road",
                    _effects(features["road"])),
        legend_item(swatch(line((2, 14), (38, 14), stroke=ROAD, stroke_width="2.4") + bridge((20, 14), False)),
                    "Bridge", _effects(features["bridge"])),
        legend_item(swatch(bridge((20, 14), True)), "Destroyed bridge", _effects(features["destroyed_bridge"])),
        legend_item(swatch(text(20, 17, "1518", font_size="8", text_anchor="middle")), "Hex number",
                    "column then row; even columns half a hex lower"),
        legend_item(swatch(camp_chit(9, 2)), "Base camp", "sanctuary: a team there is no longer detected (12.5)"),
        legend_item(swatch(legend_hex("none", stroke=MISSION).replace('stroke-width="0.8"', 'stroke-width="3"')
                           + el("rect", x="26", y="1", width="13", height="13", fill=MISSION, stroke="#1d1d1b")
                           + text(32.5, 11, "8", font_size="7", font_weight="bold", text_anchor="middle")),
                    "Mission marker", "its Prestige Points; the status band names what it needs (7.0, 6.1)"),
    ]
    gb = {"status": "map", "damage": [], "detected": False}
    samples = [
        (gb_chit(w, "a-team-1", gb), "Green Beret team: firepower-movement, noise in the disc, undetected"),
        (gb_chit(w, "b-team-1", dict(gb, detected=True)), "Detected team (red-orange border and corner, 12.0)"),
        (gb_chit(w, "a-team-2", dict(gb, damage=["wounded-1"])), "Damaged team: current values on red (13.1)"),
        (gb_chit(w, "commander-1", gb), "Leader (commander, officer): FP and plus MA"),
        (gb_chit(w, "m60-1", gb), "Weapon or equipment: FP and minus or plus MA"),
        (gb_chit(w, "h-34-1", gb), "Plus counter (vehicle, helicopter, boat)"),
        (gb_chit(w, "demo-1", dict(gb, left=True)), "Item left lying in a hex (dashed)"),
        (enemy_chit(w, "vc-platoon-1", {}), "VC unit: firepower-movement"),
        (enemy_chit(w, "nva-company-1", {}), "NVA unit"),
        (enemy_chit(w, "pt-76-1", {}), "Vehicle: circled MA (11.0)"),
        (enemy_chit(w, "checkpoint-1", {}), "Position or hazard (MA 0)"),
        (enemy_chit(w, "vc-squad-1", {"suppressed": True}), "Suppressed enemy (15.0)"),
    ]
    items += [legend_item(_counter(replace(c, uid="", title=label)), label) for c, label in samples]
    items += [
        legend_item(swatch(el("circle", cx="28", cy="8", r="6", fill="#1d1d1b")
                           + text(28, 11, "5", font_size="8", font_weight="bold", fill="#fff", text_anchor="middle")),
                    "Counters in the stack"),
        legend_item(swatch(el("path", d="M4,20 L20,10 L36,14", fill="none", stroke="#ffcf00", stroke_width="3",
                              stroke_dasharray="6 4") + el("circle", cx="4", cy="20", r="3.5", fill="#ffcf00",
                                                           stroke="#1d1d1b")),
                    "The group under way", "with the MP it has left"),
        legend_item(swatch(pp_marker(7, 1, "hidden", w), 40, 30), "PP-track marker", "face down until the end (3.6)"),
        *replay_items(legend_hex),
    ]
    return legend_list(items)

