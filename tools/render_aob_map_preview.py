#!/usr/bin/env python3
"""Render rules/assault_on_belgium/data/map.json as an SVG preview for a visual check.

    python tools/render_aob_map_preview.py [--map PATH] [--out /tmp/aob-map.svg] [--no-overlay]
    rsvg-convert -o /tmp/aob-map.png /tmp/aob-map.svg

Hexes are coloured by terrain (clear hexes tinted by country), country borders are thick dark
hexside lines, rivers are blue hexside segments, cities are dots with names (squares for hex
cities), fortresses carry a black star, hex numbers are small grey text. Unless --no-overlay, the
fact sheet's real borders and river polylines are drawn as thin dashed lines on top, to judge how
well the hex approximation follows the geography. With --oob, the default set-up is drawn as unit
counts per hex. Preview only: not part of the game data.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from xml.sax.saxutils import escape

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from rules.core.hexgrid import HexGrid  # noqa: E402

DATA = REPO / "rules" / "assault_on_belgium" / "data"

S = 30.0                      # hex corner radius in pixels
H = S * math.sqrt(3.0)        # across the flats
MARGIN = 40.0

TERRAIN_FILL = {"sea": "#8fbfe0", "forest": "#4f8a4a", "rough": "#a88f63", "hex_city": "#c46a5e"}
COUNTRY_FILL = {"BE": "#f7e9a8", "DE": "#cfcfcf", "NL": "#f3c79a", "FR": "#d6e4c6", "LU": "#dcc8e4", "SEA": "#8fbfe0"}
RIVER_COLOUR = {"Meuse": "#0b4fa8", "Albert Canal": "#6a1fb0", "Scheldt": "#0b4fa8"}


def centre(grid: HexGrid, label: str) -> tuple[float, float]:
    col, row = grid.parse(label)
    x = MARGIN + S + (col - 1) * 1.5 * S
    y = MARGIN + H / 2 + (row - 1) * H + (H / 2 if col % 2 == 0 else 0.0)
    return x, y


def corner(cx: float, cy: float, deg: float) -> tuple[float, float]:
    a = math.radians(deg)
    return cx + S * math.cos(a), cy + S * math.sin(a)


def edge(grid: HexGrid, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
    d = grid.direction_to(a, b)
    cx, cy = centre(grid, a)
    return corner(cx, cy, 240 + 60 * d), corner(cx, cy, 300 + 60 * d)


def render(doc: dict, overlay: bool, oob: dict | None, view: str | None = None) -> str:
    grid = HexGrid(**doc["grid"])
    hexes = doc["hexes"]
    last = grid.label(grid.first_col + grid.cols - 1, grid.first_row + grid.rows - 1)
    W = MARGIN * 2 + S * 2 + (grid.cols - 1) * 1.5 * S
    Hh = MARGIN * 2 + H * (grid.rows + 0.5) + 40
    full_h = Hh
    box = f'viewBox="0 0 {W:.0f} {Hh:.0f}"'
    if view:  # "x,y,w,h" in pixels of the full drawing: zoom on a part of the map
        vx, vy, vw, vh = (float(v) for v in view.split(","))
        box, W, Hh = f'viewBox="{vx:.0f} {vy:.0f} {vw:.0f} {vh:.0f}"', vw, vh
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W:.0f}" height="{Hh:.0f}" {box} '
        f'font-family="DejaVu Sans, sans-serif">',
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    # hexes
    for lab in grid.labels():
        h = hexes[lab]
        cx, cy = centre(grid, lab)
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (corner(cx, cy, 60 * k) for k in range(6)))
        fill = TERRAIN_FILL.get(h["terrain"], COUNTRY_FILL[h["country"]])
        out.append(f'<polygon points="{pts}" fill="{fill}" stroke="#888" stroke-width="0.6"/>')
        if h["terrain"] in ("forest", "rough") or h["country"] not in ("BE", "SEA"):
            # country tint ring so foreign forest/rough is recognisable
            inner = " ".join(
                f"{x:.1f},{y:.1f}" for x, y in ((cx + 0.82 * (px - cx), cy + 0.82 * (py - cy))
                                                 for px, py in (corner(cx, cy, 60 * k) for k in range(6)))
            )
            if h["terrain"] in ("forest", "rough"):
                out.append(f'<polygon points="{inner}" fill="none" stroke="{COUNTRY_FILL[h["country"]]}" '
                           f'stroke-width="2.5" opacity="0.9"/>')
    # country borders
    for lab in grid.labels():
        for d in (1, 2, 3):
            n = grid.neighbour(lab, d)
            if n is None:
                continue
            ca, cb = hexes[lab]["country"], hexes[n]["country"]
            if ca != cb and "SEA" not in (ca, cb):
                (x1, y1), (x2, y2) = edge(grid, lab, n)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                           f'stroke="#222" stroke-width="4" stroke-linecap="round"/>')
            elif ("SEA" in (ca, cb)) and ca != cb:
                (x1, y1), (x2, y2) = edge(grid, lab, n)
                out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                           f'stroke="#2a6f9e" stroke-width="2"/>')
    # rivers
    for key, feat in sorted(doc["hexsides"].items()):
        a, b = key.split("/")
        (x1, y1), (x2, y2) = edge(grid, a, b)
        col = RIVER_COLOUR.get(feat["river"], "#2f7fe0")
        w = 5 if feat["river"] in RIVER_COLOUR else 3.5
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{col}" '
                   f'stroke-width="{w}" stroke-linecap="round"><title>{escape(feat["river"])} {key}</title></line>')
    # overlay of the real geography
    if overlay:
        out.extend(_overlay(doc))
    # labels
    for lab in grid.labels():
        h = hexes[lab]
        cx, cy = centre(grid, lab)
        out.append(f'<text x="{cx:.1f}" y="{cy - H / 2 + 8:.1f}" font-size="6.5" fill="#555" '
                   f'text-anchor="middle">{lab}</text>')
        if h["fortress"]:
            out.append(f'<text x="{cx + 11:.1f}" y="{cy - 3:.1f}" font-size="13" text-anchor="middle">★</text>')
        if h["city"]:
            if h["city"]["kind"] == "hex_city":
                out.append(f'<rect x="{cx - 4:.1f}" y="{cy - 4:.1f}" width="8" height="8" fill="#000"/>')
            else:
                out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.5" fill="#000"/>')
            aa = h["city"]["aa"]
            txt = h["city"]["name"] + (f" AA{aa}" if aa else "")
            out.append(f'<text x="{cx:.1f}" y="{cy + 12:.1f}" font-size="7.5" font-weight="bold" '
                       f'text-anchor="middle">{escape(txt)}</text>')
        elif h["name"]:
            out.append(f'<text x="{cx:.1f}" y="{cy + 11:.1f}" font-size="6" font-style="italic" '
                       f'fill="#333" text-anchor="middle">{escape(h["name"][:22])}</text>')
    for _obj, lab in doc["objectives"].items():
        cx, cy = centre(grid, lab)
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{S * 0.8:.1f}" fill="none" stroke="#d00" '
                   f'stroke-width="2.5"/>')
    if oob:
        out.extend(_setup(grid, oob))
    out.append(f'<text x="{MARGIN:.0f}" y="{full_h - 15:.0f}" font-size="11">{escape(doc["title"])} — '
               f'{grid.cols}x{grid.rows} hexes, {doc["projection"]["hex_km"]} km; last hex {last}. '
               f'Dashed: fact-sheet borders/rivers.</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _setup(grid: HexGrid, oob: dict) -> list[str]:
    units = {u["id"]: u for u in oob["units"]}
    out = []
    for side, colour in (("belgium", "#1b5e20"), ("germany", "#111")):
        per: dict[str, list[str]] = {}
        for uid, lab in oob["default_setup"][side].items():
            per.setdefault(lab, []).append(uid)
        for lab, uids in per.items():
            cx, cy = centre(grid, lab)
            land = sum(1 for u in uids if units[u]["type"] in ("infantry", "tank", "cavalry"))
            air = len(uids) - land
            txt = f"{land}" + (f"+{air}a" if air else "")
            out.append(f'<rect x="{cx - 12:.1f}" y="{cy - 18:.1f}" width="24" height="10" '
                       f'fill="{colour}" opacity="0.85"/>')
            out.append(f'<text x="{cx:.1f}" y="{cy - 10:.1f}" font-size="8" fill="white" '
                       f'text-anchor="middle">{txt}</text>')
    return out


def _overlay(doc: dict) -> list[str]:
    sys.path.insert(0, str(REPO / "tools"))
    import author_aob_map as gen  # noqa: E402

    geo = gen.load_geo(gen.DEFAULT_GEO)
    hex_km = doc["projection"]["hex_km"]
    lat_top, lon_left = float(doc["projection"]["lat_top"]), float(doc["projection"]["lon_left"])
    k = S / (hex_km / math.sqrt(3.0))  # px per km
    cosr = math.cos(math.radians(gen.LAT_REF))

    def px(lat, lon):
        x = (lon - lon_left) * gen.KM_PER_DEG * cosr
        y = (lat_top - lat) * gen.KM_PER_DEG
        return MARGIN + S + x * k, MARGIN + H / 2 + y * k

    def path(points, closed, colour, width):
        d = " ".join(("M" if i == 0 else "L") + "{:.1f},{:.1f}".format(*px(p[0], p[1]))
                     for i, p in enumerate(points))
        return (f'<path d="{d}{" Z" if closed else ""}" fill="none" stroke="{colour}" '
                f'stroke-width="{width}" stroke-dasharray="4,3" opacity="0.8"/>')

    out = [path(geo["outline"]["points"], True, "#b00000", 1.2)]
    for poly in (gen.NL_DE_BORDER, gen.LU_DE_BORDER, gen.LU_FR_BORDER):
        out.append(path(poly, False, "#b00000", 0.8))
    for r in geo["rivers"]:
        out.append(path(r["points"], False, "#00a0ff", 0.9))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--map", type=Path, default=DATA / "map.json")
    ap.add_argument("--oob", type=Path, default=None, help="also draw oob.json's default set-up")
    ap.add_argument("--out", type=Path, default=Path("/tmp/aob-map.svg"))
    ap.add_argument("--no-overlay", action="store_true")
    ap.add_argument("--view", default=None, help="x,y,w,h crop of the drawing in pixels (zoom)")
    args = ap.parse_args(argv)
    doc = json.loads(args.map.read_text(encoding="utf-8"))
    oob = json.loads(args.oob.read_text(encoding="utf-8")) if args.oob else None
    args.out.write_text(render(doc, not args.no_overlay, oob, args.view), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
