"""The key to the Lock 'n Load board: terrain (T3), hills, slivers, the road, counters and markers."""

from __future__ import annotations

from functools import lru_cache

from warlog.render.boardkit import legend_hex, legend_item, legend_list, replay_items, swatch
from warlog.render.hexmap import el, line, text
from warlog.render.lock_n_load.board import chip
from warlog.render.lock_n_load.counters import draw_unit
from warlog.render.lock_n_load.map import LEVEL_TINT, TERRAIN_FILL, TERRAIN_LABEL, defs, world

P = "lg-"


@lru_cache(maxsize=1)
def legend_html() -> str:
    w = world()
    items = []
    first = True
    for t in ("open", "grass", "paddy", "brush", "light_jungle", "dense_jungle", "bamboo_hut", "wooden_building"):
        if t not in w.tec:
            continue
        tec = w.tec[t]
        fill = TERRAIN_FILL[t].replace("url(#", f"url(#{P}")
        items.append(legend_item(swatch((defs(P) if first else "") + legend_hex(fill)), TERRAIN_LABEL[t],
                                 f"{tec.get('kind')}, TM {tec.get('tm', 0):+d}, {tec.get('mp', 1)} MP (T3)"))
        first = False
    for lv, (colour, op) in sorted(LEVEL_TINT.items()):
        items.append(legend_item(swatch(legend_hex("#ece6c6") + legend_hex(colour).replace(
            f'fill="{colour}"', f'fill="{colour}" fill-opacity="{op}"')), f"Hill, level {lv}", "hex id shows L" + str(lv)))
    items.append(legend_item(swatch(el("polygon", points="6,22 20,8 34,22", fill="#4f8f45", stroke="#24531f")),
                             "Sliver", "jungle over the hexside (10.1, 10.3)"))
    items.append(legend_item(swatch(line((2, 14), (38, 14), stroke="#a87b4f", stroke_width="5")), "Road"))
    sample = {"side": "us", "kind": "us-sq-264", "shaken": False, "wounds": 0, "marker": "", "sws": [],
              "melee_locked": False}
    if "us-sq-264" in w.kinds:
        items.append(legend_item(swatch(draw_unit("", sample, w, {}, 4, 2, 34, (), None), 44, 40),
                                 "Squad: nation, morale, FP-range-movement"))
        shaken = dict(sample, shaken=True, marker="moved")
        items.append(legend_item(swatch(draw_unit("", shaken, w, {}, 4, 8, 30, (), None), 44, 42),
                                 "Shaken side, with a Moved marker"))
        carrying = dict(sample, sws=["m60"], marker="fired")
        items.append(legend_item(swatch(draw_unit("", carrying, w, {}, 4, 8, 30, (), None), 44, 42),
                                 "Carrying a support weapon (1.6), with a Fired marker",
                                 "markers: Moved, Assault, Crawl, Fired, OC (ops complete); W = wounded"))
    for label, colour, note in (("Smoke 1", "#666666", "blocks LOS, TM +1"), ("Melee", "#c0182a", "8.0"),
                                ("Spot", "#ee7733", "the hex is spotted (10.4)"),
                                ("SO within2", "#117733", "your standing order for the hex: only you see it")):
        items.append(legend_item(swatch(chip(2, 18, label, colour, note), 72, 28), label, note))
    items.append(legend_item(swatch(el("rect", x="12", y="6", width="16", height="16", rx="2", fill="#2b2b52")
                                    + text(20, 18.5, "?", font_size="11", font_weight="bold", fill="#fff",
                                           text_anchor="middle")), "Event marker, face down (1.7)"))
    items.append(legend_item(swatch(legend_hex("none", stroke="#c0182a").replace('stroke-width="0.8"',
                                                                                 'stroke-width="2.5"')),
                             "Objective hex"))
    items.append(legend_item(swatch(line((2, 14), (38, 14), stroke="#ee7733", stroke_width="3")),
                             "Line of sight", "green clear, amber degraded, red blocked (10.0)"))
    return legend_list(items + replay_items())
