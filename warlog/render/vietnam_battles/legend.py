"""The key to a Vietnam Battles map: each terrain with its movement cost and CRT row (the
Terrain Effects Chart as the data gives it), the Mekong's hexes, rivers, roads, trails and
bridges, the regions, and sample counters and chits in every state the board shows."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from rules.vietnam_battles.data import UnitDef
from warlog.render.boardkit import legend_hex, legend_item, legend_list, replay_items, swatch
from warlog.render.hexmap import el, line, text
from warlog.render.vietnam_battles.counters import camp_chit, draw, landing_chit, piece
from warlog.render.vietnam_battles.geometry import world
from warlog.render.vietnam_battles.map import (
    OUTLINE,
    RED_EDGE,
    RIVER,
    ROAD,
    TERRAIN,
    WATER,
    bridge_at,
    checkpoint,
    defs,
    fortification,
    terrain_fill,
    village,
)

P = "lg-"  # pattern id prefix: the legend has its own copy of the patterns


def _effects(terrain: str) -> str:
    info = world("snoopy").terrain.get(terrain) or {}
    if info.get("prohibited"):
        return "closed to land units; monitors and river craft only"
    return f"{info.get('mp', 1)} MP; CRT row {info.get('row', info.get('crt_row', 'clear'))}"


def _sample(uid: str, **rec: object) -> str:
    d: UnitDef = world("snoopy").units.get(uid) or world("iron").units[uid]
    return swatch(draw(replace(piece(d, dict(rec)), uid=""), 5, 3, 30), 40, 36)


@lru_cache(maxsize=1)
def legend_html() -> str:
    items = []
    for k, t in enumerate(t for t in TERRAIN if t != "hill"):
        extra = {"village": village(20, 12), "town": village(20, 12, 5), "cp": checkpoint(20, 14)}.get(t, "")
        body = (defs(P) if k == 0 else "") + legend_hex(terrain_fill(t, P), extra)
        items.append(legend_item(swatch(body), TERRAIN[t][2], _effects(t)))
    bank = legend_hex(terrain_fill("clear", P)) + el("polygon", points="5,14 12.5,1 17,8 13.7,14", fill=f"url(#{P}v-water)")
    split = (legend_hex(WATER) + el("polygon", points="5,11 12.5,-1 27.5,-1 33,9", fill=terrain_fill("jungle", P))
             + el("polygon", points="7,18 35,17 27.5,27 12.5,27", fill=terrain_fill("jungle", P)))
    items += [
        legend_item(swatch(bank), "Mekong bank hex", "land terrain; attacked on its land terrain (VB 19.0)"),
        legend_item(swatch(split), "Split Mekong hex", "two land portions with the channel between (VB 19.0)"),
        legend_item(swatch(line((4, 20), (36, 8), stroke="#e8f3fa", stroke_width="8")
                           + line((4, 20), (36, 8), stroke=RIVER, stroke_width="4.6")), "River on a hexside",
                    "+1 MP to cross; named on the map; monitors sail on it (VB 12.0)"),
        legend_item(swatch(line((4, 20), (36, 8), stroke=RIVER, stroke_width="3.4")), "Thi Tinh",
                    "a river no monitor may enter (VB 12.0)"),
        legend_item(swatch(line((2, 14), (38, 14), stroke="#fff6e0", stroke_width="5.5")
                           + line((2, 14), (38, 14), stroke=ROAD, stroke_width="2.6")), "Road", "VB 5.2.1"),
        legend_item(swatch(line((2, 14), (38, 14), stroke=ROAD, stroke_width="1.8", stroke_dasharray="4 3")), "Trail",
                    "VB 5.2.2"),
        legend_item(swatch(line((2, 14), (38, 14), stroke=ROAD, stroke_width="1.8", stroke_dasharray="1 4",
                                stroke_linecap="round")), "Road cut by a river", "no bridge: it does not connect"),
        legend_item(swatch(_bridge_sample("")), "Bridge"),
        legend_item(swatch(_bridge_sample("down")), "Demolished bridge", "VB 18.0"),
        legend_item(swatch(_bridge_sample("engineer")), "Engineer bridge", "VB 18.3"),
        legend_item(swatch(text(20, 17, "0717", font_size="8", text_anchor="middle")), "Hex number",
                    "column then row; even columns half a hex lower"),
        legend_item(swatch(line((4, 20), (36, 8), stroke=OUTLINE, stroke_width="2.6", stroke_dasharray="9 4")),
                    "Iron Triangle", "B-52 area, VC set-up and Hold (VB 23.0, 27.0)"),
        legend_item(swatch(el("path", d="M14,20 v-3 a3,3 0 0 1 6,0 v3", fill="none", stroke="#5b3a1a",
                              stroke_width="1.3")), "Cu Chi tunnels", "VB 22.0"),
        legend_item(swatch(fortification(20, 14)), "Fortification", "VB 7.5 (none on the shipped maps)"),
        legend_item(swatch(line((4, 20), (36, 8), stroke=RED_EDGE, stroke_width="3", stroke_dasharray="2 3")),
                    "Minefield hexside", "VB 5.1.2 (none on the shipped maps)"),
        legend_item(swatch(line((4, 14), (36, 14), stroke=RED_EDGE, stroke_width="6")), "Red map edge",
                    "VC units may leave the map here (VB 27.0)"),
    ]
    samples = [
        (_sample("us-4-47-c"), "US unit: attack-defense-movement, size, type"),
        (_sample("us-4-47-b", reduced=True), "Reduced (red strip and corner, VB 7.6)"),
        (_sample("us-5-60-a"), "Mechanized (oval track)"),
        (_sample("us-5-cav"), "Armoured cavalry, mechanized"),
        (_sample("us-15-eng"), "Engineer (VB 18.0)"),
        (_sample("us-seals"), "Special forces (VB 20.0)"),
        (_sample("us-mon-1"), "Monitor: on a river hexside or water hex (VB 12.0)"),
        (_sample("arvn-5"), "ARVN unit"),
        (_sample("vc-514-1"), "VC unit"),
    ]
    items += [legend_item(body, label) for body, label in samples]
    hidden = replace(piece(world("snoopy").units["vc-263-1"], {}, hidden=True), uid="")
    items += [
        legend_item(swatch(draw(hidden, 5, 3, 30), 40, 36), "Hidden VC unit", "shown to the VC seat only (VB 15.0)"),
        legend_item(swatch(landing_chit("slick", 4, 8) + landing_chit("tango", 21, 8)), "Landing Zone / Landing Beach",
                    "landed by slick or tango this turn (VB 10.0, 11.0)"),
        legend_item(swatch(camp_chit("camp-1", "revealed", 2, 4) + camp_chit("cache-1", "revealed", 20, 4), 44),
                    "Base camp / supply cache", "revealed (VB 16.0, 16.1)"),
        legend_item(swatch(camp_chit("camp-2", "captured", 2, 4) + camp_chit("camp-3", "secret", 20, 4), 44),
                    "Captured camp / secret camp", "the secret one in the VC's own view only"),
        *replay_items(legend_hex),
    ]
    return legend_list(items)


def _bridge_sample(state: str) -> str:
    return line((2, 14), (38, 14), stroke=ROAD, stroke_width="2.6") + bridge_at(20, 14, 0.0, state)
