"""The key to the Assault on Belgium map: one small SVG swatch per symbol, with its meaning
and the rule that gives it effect (Terrain Effects Chart, AoB 19.1)."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from rules.assault_on_belgium.data import read_data
from warlog.render.assault_on_belgium.board import counter_for
from warlog.render.assault_on_belgium.map import BATTLE, RIVER, defs, terrain_fill, world
from warlog.render.boardkit import legend_hex as _hex
from warlog.render.boardkit import legend_item as _item
from warlog.render.boardkit import legend_list, replay_items, star_points
from warlog.render.boardkit import swatch as _swatch
from warlog.render.counters import draw
from warlog.render.hexmap import arrow_shape, el, line

P = "lg-"  # pattern id prefix: the legend has its own copy of the patterns


@lru_cache(maxsize=1)
def legend_html() -> str:
    w = world()
    items = [
        _item(_swatch(defs(P) + _hex(terrain_fill("clear", "BE"))), "Clear", "1 MP"),
        _item(_swatch(_hex(terrain_fill("forest", "BE", P))), "Forest", "2 MP; −1 bombing; tanks −2"),
        _item(_swatch(_hex(terrain_fill("rough", "BE", P))), "Rough", "2 MP; +1 defender; −1 bombing"),
        _item(_swatch(_hex(terrain_fill("hex_city", "BE", P))), "Hex city", "1 MP; tanks −2, others +2 defending; "
              "defender ignores R"),
        _item(_swatch(_hex(terrain_fill("sea", "SEA", P))), "Sea", "no entry"),
        _item(_swatch(line((4, 20), (36, 8), stroke=RIVER, stroke_width="5", stroke_linecap="round")),
              "River (hexside)", "+1 MP to cross; −1 attack across it"),
        _item(_swatch(line((4, 20), (36, 8), stroke=RIVER, stroke_width="5") + line((4, 20), (36, 8), stroke="#e8f1fa",
                                                                                  stroke_width="1.2",
                                                                                  stroke_dasharray="3 3")),
              "Albert Canal", "as a river"),
        _item(_swatch(line((2, 14), (38, 14), stroke="#26231f", stroke_width="3", stroke_dasharray="9 3 2 3")),
              "International border"),
        *_road_items(),
        _item(_swatch(el("circle", cx="9", cy="14", r="3.5", fill="#1d1d1b")
                      + el("rect", x="21", y="10", width="8", height="8", fill="#1d1d1b")),
              "Small city / hex city"),
        _item(_swatch(el("rect", x="12", y="8", width="16", height="12", rx="1.5", fill="#fff", stroke="#c0182a")
                      + el("text", "3", x="20", y="17.5", font_size="9", font_weight="bold", fill="#c0182a",
                           text_anchor="middle")), "City AA strength", "fires at German bombers (AoB 16)"),
        _item(_swatch(el("polygon", points=star_points(20, 14, 9, 4.5), fill="#fff", stroke="#1d1d1b",
                                 stroke_width="1.5")), "Fortress",
              "tanks −2, others +2; ignores R; bombing halved"),
        _item(_swatch(_hex("none", stroke="#c0182a").replace('stroke-width="0.8"', 'stroke-width="3"')),
              "Objective", "Brussels and Antwerp (AoB 3)"),
    ]
    sample = {"status": "active", "hits": 0}
    for uid, label in (("de-pz-3", "German tank division (attack-defense-movement)"),
                       ("be-inf-1", "Belgian infantry corps"),
                       ("be-cav-1", "Belgian cavalry")):
        if uid in w.units:
            items.append(_item(_swatch(draw(replace(counter_for(uid, sample, w), uid=""), 3, 1, 34), 44, 38), label))
    if "de-inf-4" in w.units:
        items.append(_item(_swatch(draw(replace(counter_for("de-inf-4", {"status": "active", "hits": 2}, w), uid=""), 3, 1, 34),
                                   44, 38), "Reduced unit (2 hits): current factors on red"))
    if "be-inf-3" in w.units:
        c = replace(counter_for("be-inf-3", sample, w), uid="", classes=("in-battle",))
        items.append(_item(_swatch(draw(c, 3, 1, 34), 44, 38), "Unit committed to a battle (orange corner)"))
    for uid, label in (("de-ftr-1", "German fighter (air-tactical-range)"), ("be-bmb-1", "Belgian bomber")):
        if uid in w.units:
            items.append(_item(_swatch(draw(replace(counter_for(uid, sample, w), uid=""), 3, 1, 34), 44, 38), label))
    items += [
        _item(_swatch(el("polygon", points=arrow_shape((4, 14), (32, 14), 7, 9), fill=BATTLE)
                      + el("circle", cx="8", cy="14", r="6", fill="#fff", stroke=BATTLE, stroke_width="2")),
              "Battle vector and number", "from the hex the attack came from (AoB 5.5)"),
        _item(_swatch(el("rect", x="11", y="5", width="17", height="17", fill="#f0c419", stroke="#26231f")
                      + el("text", "TB", x="19.5", y="12", font_size="6", font_weight="bold", text_anchor="middle")
                      + el("text", "4", x="19.5", y="20", font_size="8", font_weight="bold", text_anchor="middle")),
              "Tank battle marker", "MP left for pursuit (AoB 15)"),
        *replay_items(),
    ]
    return legend_list(items)


def _road_items() -> list[str]:
    """Roads and bridges appear in the key only when the map data has them."""
    feats = read_data("map.json").get("hexsides", {}).values()
    out = []
    if any(f.get("road") for f in feats):
        out.append(_item(_swatch(line((2, 14), (38, 14), stroke="#8c5a2b", stroke_width="2.5", stroke_dasharray="7 3")),
                         "Road"))
    if any(f.get("bridge") for f in feats):
        out.append(_item(_swatch(line((4, 20), (36, 8), stroke=RIVER, stroke_width="5")
                                 + line((14, 9), (20, 21), stroke="#26231f", stroke_width="2.2")
                                 + line((20, 7), (26, 19), stroke="#26231f", stroke_width="2.2")), "Bridge"))
    return out

