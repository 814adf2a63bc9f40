#!/usr/bin/env python3
"""Render a Vietnam Battles map (rules/vietnam_battles/data/*-map.json) as an SVG preview.

    python tools/vb_render_map_preview.py snoopys-nose --out /tmp/sn.svg
    python tools/vb_render_map_preview.py iron-triangle --out /tmp/it.svg [--regions]
    chromium --headless --screenshot=/tmp/sn.png --window-size=1400,1000 file:///tmp/sn.svg

Hexes are coloured by terrain (Mekong water blue, bank hexes with a blue rim, split hexes with a
blue bar), rivers are blue hexside lines (the Thi Tinh lighter), bridges short black bars, roads
red and trails dashed brown through hex centres (a road cut by an unbridged river is drawn
dotted), named hexes and the hexes/hexsides the scenarios name are labelled. --regions marks
the set-up regions (Iron Triangle, Filhol, the two US set-up areas) with dots; --overlay draws
the fact sheet's rivers, roads, areas and places (dashed) in the generator's projection, to judge
how well the hexes follow the geography. Preview only: not game data.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from xml.sax.saxutils import escape

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "rules" / "vietnam_battles" / "data"

S = 16.0                      # corner radius in pixels
H = S * math.sqrt(3.0)
MARGIN = 30.0
FILL = {"clear": "#f1ecc4", "jungle": "#4f8a4a", "swamp": "#9cc3a0", "village": "#d9a066", "town": "#c46a5e",
        "plantation": "#a7c957", "cp": "#8a5a9a", "hill": "#b8956a", "all_water": "#6fa8dc"}
NAMED = {
    "snoopys-nose": ["0717", "0816", "0616", "0615", "0711", "0618", "0917", "1215", "0934", "1606", "0734", "0833"],
    "iron-triangle": ["1210", "4223", "4323"],
}
NAMED_SIDES = {"snoopys-nose": ["0717/0718", "0712/0811"], "iron-triangle": ["4223/4323"]}


def centre(label: str) -> tuple[float, float]:
    col, row = int(label[:2]), int(label[2:])
    return MARGIN + S + (col - 1) * 1.5 * S, MARGIN + H / 2 + (row - 1) * H + (H / 2 if col % 2 == 0 else 0.0)


def corners(label: str) -> list[tuple[float, float]]:
    cx, cy = centre(label)
    return [(cx + S * math.cos(math.radians(60 * k)), cy + S * math.sin(math.radians(60 * k))) for k in range(6)]


def shared_edge(a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
    ca, cb = corners(a), corners(b)
    common = [p for p in ca if any(abs(p[0] - q[0]) < 0.01 and abs(p[1] - q[1]) < 0.01 for q in cb)]
    return common[0], common[1]


def overlay(kind: str) -> list[str]:
    """The fact sheet's rivers, roads and places drawn thin and dashed over the hexes, to judge how
    well the hex approximation follows the geography (the generator's own projection)."""
    sys.path.insert(0, str(REPO / "tools"))
    import vb_author_maps as vam  # noqa: E402

    proj_fn, geo_name = vam.PROJECTIONS[kind]
    proj = proj_fn()
    geo = vam.load_geo(geo_name)

    def px(lat: float, lon: float) -> tuple[float, float]:
        x, y = proj(lat, lon)
        return MARGIN + S + x * math.sqrt(3.0) * S, MARGIN + H / 2 + y * H

    out = []
    for key, colour in (("waters", "#00f"), ("rivers", "#00f"), ("roads", "#f00")):
        for line in geo.get(key, []):
            pts = " ".join(f"{a:.1f},{b:.1f}" for a, b in (px(p[0], p[1]) for p in line["points"]))
            out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="1" '
                       f'stroke-dasharray="4,3" opacity="0.7"/>')
    for area in geo.get("areas", []):
        pts = " ".join(f"{a:.1f},{b:.1f}" for a, b in (px(p[0], p[1]) for p in area["points"]))
        out.append(f'<polygon points="{pts}" fill="none" stroke="#000" stroke-width="0.8" stroke-dasharray="2,3" opacity="0.6"/>')
    for pl in geo.get("places", []):
        x, y = px(pl["lat"], pl["lon"])
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="none" stroke="#000"/>')
    return out


def svg(doc: dict, kind: str, regions: bool, window: list[str] | None = None, geo: bool = False) -> str:
    g = doc["grid"]
    w = MARGIN * 2 + S * 2 + (g["cols"] - 1) * 1.5 * S
    h = MARGIN * 2 + H * (g["rows"] + 0.5)
    vb = f"0 0 {w:.0f} {h + 120:.0f}"
    width, height = w, h + 120
    if window:
        (x1, y1), (x2, y2) = centre(window[0]), centre(window[1])
        vb = f"{x1 - S:.0f} {y1 - H:.0f} {x2 - x1 + 2 * S:.0f} {y2 - y1 + 2 * H:.0f}"
        k = 1300 / (x2 - x1 + 2 * S)
        width, height = 1300, (y2 - y1 + 2 * H) * k
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" viewBox="{vb}" '
           f'font-family="sans-serif"><rect x="-1000" y="-1000" width="9000" height="9000" fill="white"/>']
    for lab, hx in doc["hexes"].items():
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners(lab))
        fill = FILL[hx["terrain"]]
        stroke = "#888"
        out.append(f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" stroke-width="0.5"/>')
        cx, cy = centre(lab)
        if hx["mekong"] == "bank":
            out.append(f'<polygon points="{pts}" fill="none" stroke="#3d85c6" stroke-width="3" opacity="0.8"/>')
        if hx["mekong"] == "split":
            out.append(f'<line x1="{cx - S * 0.9:.1f}" y1="{cy:.1f}" x2="{cx + S * 0.9:.1f}" y2="{cy:.1f}" '
                       f'stroke="#6fa8dc" stroke-width="5"/>')
        if "tunnels" in hx["features"]:
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="2" fill="#333"/>')
        out.append(f'<text x="{cx:.1f}" y="{cy - S * 0.55:.1f}" font-size="5" text-anchor="middle" fill="#555">{lab}</text>')
    if regions and "regions" in doc:
        colours = {"iron_triangle": "#d00", "filhol_plantation": "#080", "setup_196": "#00c", "setup_2_25": "#c0c",
                   "ngu_hiep_island": "#c60"}
        for reg, col in colours.items():
            for lab in doc["regions"].get(reg, []):
                cx, cy = centre(lab)
                out.append(f'<circle cx="{cx:.1f}" cy="{cy + 4:.1f}" r="2.2" fill="{col}" opacity="0.8"/>')
    # roads / trails through centres
    for key, sd in doc["hexsides"].items():
        a, b = key.split("/")
        (x1, y1), (x2, y2) = centre(a), centre(b)
        if sd["road"]:
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#c00" stroke-width="2.2"/>')
        elif sd["trail"]:
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#7a4a1a" '
                       f'stroke-width="1.5" stroke-dasharray="3,2"/>')
        elif sd["road_drawn"]:
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#c00" '
                       f'stroke-width="1.5" stroke-dasharray="1,3"/>')
    for key, sd in doc["hexsides"].items():
        a, b = key.split("/")
        if sd["river"]:
            (x1, y1), (x2, y2) = shared_edge(a, b)
            col = "#9fc5e8" if sd.get("no_monitor") else "#0b5394"
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{col}" '
                       f'stroke-width="3.5" stroke-linecap="round"/>')
            if sd["bridge"]:
                mx, my = (x1 + x2) / 2, (y1 + y2) / 2
                out.append(f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="3.5" fill="black"/>')
    if geo:
        out += overlay(kind)
    for key in NAMED_SIDES.get(kind, []):
        a, b = key.split("/")
        (x1, y1), (x2, y2) = shared_edge(a, b)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#ff0" stroke-width="2" '
                   f'stroke-dasharray="2,2"/>')
    for lab in NAMED.get(kind, []):
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners(lab))
        out.append(f'<polygon points="{pts}" fill="none" stroke="#f0f" stroke-width="1.5"/>')
    for lab, hx in doc["hexes"].items():
        if hx["name"]:
            cx, cy = centre(lab)
            out.append(f'<text x="{cx:.1f}" y="{cy + S * 0.85:.1f}" font-size="8" font-weight="bold" text-anchor="middle" '
                       f'fill="black" stroke="white" stroke-width="2" paint-order="stroke">{escape(hx["name"])}</text>')
    out.append(f'<text x="{MARGIN}" y="{h + 25:.0f}" font-size="12">{escape(doc["title"])}</text>')
    out.append(legend(MARGIN, h + 40))
    out.append("</svg>")
    return "\n".join(out)


def legend(x: float, y: float) -> str:
    """Terrain swatches and line symbols, in rows under the map."""
    parts = []
    items = [(t, FILL[t]) for t in ("clear", "jungle", "swamp", "village", "town", "plantation", "cp", "all_water")]
    for i, (t, col) in enumerate(items):
        cx = x + (i % 4) * 95
        cy = y + (i // 4) * 16
        parts.append(f'<rect x="{cx:.0f}" y="{cy:.0f}" width="12" height="10" fill="{col}" stroke="#888"/>'
                     f'<text x="{cx + 16:.0f}" y="{cy + 9:.0f}" font-size="9">{t}</text>')
    lines = [("river (monitors)", '#0b5394', "3.5", ""), ("Thi Tinh (no monitors)", "#9fc5e8", "3.5", ""),
             ("road", "#c00", "2.2", ""), ("trail", "#7a4a1a", "1.5", 'stroke-dasharray="3,2"'),
             ("road cut (no bridge)", "#c00", "1.5", 'stroke-dasharray="1,3"')]
    for i, (label, col, wdt, extra) in enumerate(lines):
        cx = x + (i % 3) * 130
        cy = y + 40 + (i // 3) * 16
        parts.append(f'<line x1="{cx:.0f}" y1="{cy + 5:.0f}" x2="{cx + 20:.0f}" y2="{cy + 5:.0f}" stroke="{col}" '
                     f'stroke-width="{wdt}" {extra}/><text x="{cx + 24:.0f}" y="{cy + 9:.0f}" font-size="9">{label}</text>')
    cy = y + 72
    parts.append(f'<circle cx="{x + 6:.0f}" cy="{cy + 4:.0f}" r="3.5" fill="black"/><text x="{x + 16:.0f}" y="{cy + 8:.0f}" '
                 f'font-size="9">bridge; blue rim = Mekong bank hex; blue bar = split hex; dot = tunnels; '
                 f'magenta = hexes/hexsides the scenarios name</text>')
    return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("map", choices=["snoopys-nose", "iron-triangle"])
    ap.add_argument("--out", default=None)
    ap.add_argument("--regions", action="store_true")
    ap.add_argument("--overlay", action="store_true", help="draw the fact sheet's lines over the hexes")
    ap.add_argument("--window", nargs=2, metavar=("NW_HEX", "SE_HEX"), help="zoom on a rectangle of hexes")
    args = ap.parse_args(argv)
    doc = json.loads((DATA / f"{args.map}-map.json").read_text(encoding="utf-8"))
    text = svg(doc, args.map, args.regions, args.window, args.overlay)
    out = Path(args.out or f"/tmp/vb-{args.map}.svg")
    out.write_text(text, encoding="utf-8")
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
