"""Where things sit on a Vietnam Battles map: hex centres, the two land portions of a split
Mekong hex (VB 19.0) and the water between them, the middle of a hexside (a monitor's place,
VB 12.0), for both maps (Snoopy's Nose, the Iron Triangle). A position is a hex ("0717"), a
split hex's land portion ("0826:north") or a hexside ("0717/0718"); `VbLayout.centre` takes
any of them, so the shared highlight and path drawing (`boardkit`) work on all three."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rules import get_game
from rules.vietnam_battles.data import World
from warlog.render.hexmap import HexLayout, Point, points

GAME = "vietnam-battles"
S = 28.0  # hex corner radius: Snoopy's Nose 24 x 34 hexes in about 1060 x 1760 pixels, the Iron Triangle twice as wide
BAND = 80.0  # the title and status band above the hexes
INSET = 0.2  # half the Song Nam Thon's width where it crosses a hexside, in hexside lengths


@dataclass(frozen=True)
class VbLayout(HexLayout):
    """A `HexLayout` that also places split-hex portions and hexsides."""

    portions: dict[str, tuple[tuple[Point, ...], Point]] = field(default_factory=dict, compare=False, hash=False)

    def centre(self, label: str) -> Point:
        if "/" in label:
            a, b = label.split("/")
            (x1, y1), (x2, y2) = HexLayout.centre(self, a), HexLayout.centre(self, b)
            return (x1 + x2) / 2, (y1 + y2) / 2
        if ":" in label:
            got = self.portions.get(label)
            if got is not None:
                return got[1]
            label = label.split(":")[0]
        return HexLayout.centre(self, label)


def scenario_map(scenario: str | None) -> str:
    return "iron" if scenario == "iron_triangle" else "snoopy"


@lru_cache(maxsize=2)
def world(which: str) -> World:
    game: Any = get_game(GAME)
    w: World = game.iron if which == "iron" else game.world
    return w


@lru_cache(maxsize=2)
def layout(which: str) -> VbLayout:
    w = world(which)
    base = VbLayout(w.grid, S, 14.0, BAND)
    por: dict[str, tuple[tuple[Point, ...], Point]] = {}
    for h in sorted(w.hexes):
        for name, pts in split_portions(w, base, h).items():
            cx = sum(p[0] for p in pts) / len(pts)
            cy = sum(p[1] for p in pts) / len(pts)
            por[f"{h}:{name}"] = (tuple(pts), (cx, cy))
    return VbLayout(w.grid, S, 14.0, BAND, por)


def boundary_point(lay: HexLayout, h: str, t: float) -> Point:
    """The point at `t` round hex h's boundary: edge d (direction d, 0 = north, clockwise) runs
    from t = d to t = d + 1, so whole numbers are corners."""
    t %= 6.0
    d = int(t)
    f = t - d
    c = HexLayout.centre(lay, h)
    (x1, y1), (x2, y2) = lay.corner(c, 4 + d), lay.corner(c, 5 + d)
    return x1 + (x2 - x1) * f, y1 + (y2 - y1) * f


def _arc(lay: HexLayout, h: str, t0: float, t1: float) -> list[Point]:
    """The boundary from t0 clockwise to t1, through the corners between."""
    if t1 <= t0:
        t1 += 6.0
    out = [boundary_point(lay, h, t0)]
    k = int(t0) + 1
    while k < t1:
        out.append(boundary_point(lay, h, float(k)))
        k += 1
    out.append(boundary_point(lay, h, t1))
    return out


def _edge_sides(w: World, h: str) -> list[str]:
    """For each direction, which land portion touches that neighbour: "north", "south", "both"
    (the channel goes on into it) or "" (off the map, or water)."""
    por = w.hexes[h]["portions"]
    out = []
    for d in range(6):
        n = w.grid.neighbour(h, d)
        if n is None or n not in w.hexes:
            out.append("")
            continue
        sides = {p for p, lst in por.items() if n in lst or any(x.split(":")[0] == n for x in lst)}
        out.append("both" if len(sides) == 2 else sides.pop() if sides else "")
    return out


def _channel_ends(sides: list[str]) -> list[float]:
    """Where the channel meets the boundary: the middle of each hexside both portions touch, and
    between a hexside of one portion and the next hexside of the other (the middle of any
    off-map or water hexsides between them)."""
    ends = [d + 0.5 for d, s in enumerate(sides) if s == "both"]
    marked = [d for d, s in enumerate(sides) if s in ("north", "south")]
    for i, d in enumerate(marked):
        e = marked[(i + 1) % len(marked)]
        if sides[d] == sides[e] or len(marked) < 2:
            continue
        gap = (e - d - 1) % 6
        if any(sides[(d + 1 + k) % 6] == "both" for k in range(gap)):
            continue
        ends.append(((d + 1) + gap / 2.0) % 6.0)
    return sorted(ends)


def split_portions(w: World, lay: HexLayout, h: str) -> dict[str, list[Point]]:
    """A split hex's two land portions as polygons, with the Song Nam Thon between them (VB 19.0):
    each portion is the boundary arc on its side, stopped short of the channel's two ends."""
    hx = w.hexes[h]
    if hx.get("mekong") != "split" or not hx.get("portions"):
        return {}
    sides = _edge_sides(w, h)
    ends = _channel_ends(sides)
    if len(ends) != 2:  # an unusual split: the channel straight across, west to east
        ends = [1.5, 4.5]
        sides = ["north", "north", "south", "south", "south", "north"]
    a, b = ends
    out: dict[str, list[Point]] = {}
    for t0, t1 in ((a, b), (b, a)):
        span = (t1 - t0) % 6.0
        mid = (t0 + span / 2.0) % 6.0
        owner = _owner(sides, t0, span) or ("north" if 0 <= ((mid + 1.5) % 6.0) < 3 else "south")
        out[owner] = _arc(lay, h, t0 + INSET, (t0 + span - INSET) % 6.0)
    if len(out) < 2:  # both arcs read as one portion: give the second to the other
        return {}
    return out


def _owner(sides: list[str], t0: float, span: float) -> str:
    """The portion whose hexsides lie whole on the arc from t0 (span long)."""
    found = {sides[d % 6] for d in range(math.ceil(t0 - 1e-9), math.floor(t0 + span + 1e-9))} & {"north", "south"}
    return found.pop() if len(found) == 1 else ""


def portion_points(lay: VbLayout, node: str) -> str:
    return points(lay.portions[node][0])
