"""Flat-topped hex map geometry and SVG building blocks, for any game on a `HexGrid`.

Pixel positions follow the printed layout: column 01 at the left, row 01 at the top, the
shifted columns (`grid.shifted`) half a hex lower. Every number is formatted with one
decimal, so the same scene always gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from markupsafe import escape

from rules.core.hexgrid import HexGrid

SQRT3 = math.sqrt(3.0)
Point = tuple[float, float]


def num(x: float) -> str:
    """A coordinate for SVG: one decimal, no trailing '.0', never '-0'."""
    text = f"{x:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def attrs(pairs: dict[str, object]) -> str:
    """` key="value"` for each pair whose value is not None (values escaped)."""
    out = []
    for key, value in pairs.items():
        if value is None or value is False:
            continue
        if isinstance(value, float):
            value = num(value)
        out.append(f' {key}="{escape(str(value))}"')
    return "".join(out)


def el(tag: str, body: str = "", /, **kw: object) -> str:
    """One SVG element; `class_` and `data_x` keyword names become `class` and `data-x`."""
    names = {k.rstrip("_").replace("_", "-"): v for k, v in kw.items()}
    if body:
        return f"<{tag}{attrs(names)}>{body}</{tag}>"
    return f"<{tag}{attrs(names)}/>"


def text(x: float, y: float, content: str, **kw: object) -> str:
    return el("text", str(escape(content)), x=num(x), y=num(y), **kw)


def points(pts: Iterable[Point]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in pts)


@dataclass(frozen=True)
class HexLayout:
    """Where each hex of `grid` sits, for hexes of corner radius `size` pixels."""

    grid: HexGrid
    size: float = 40.0
    margin: float = 14.0
    top: float = 0.0  # room above the hexes (a title band)

    @property
    def hex_height(self) -> float:
        return self.size * SQRT3

    @property
    def width(self) -> float:
        return 2 * self.margin + self.size * (2 + 1.5 * (self.grid.cols - 1))

    @property
    def height(self) -> float:
        return 2 * self.margin + self.top + self.hex_height * (self.grid.rows + 0.5)

    def _shifted(self, col: int) -> bool:
        return (col % 2 == 0) == (self.grid.shifted == "even")

    def centre(self, label: str) -> Point:
        col, row = self.grid.parse(label)
        h = self.hex_height
        x = self.margin + self.size + (col - self.grid.first_col) * 1.5 * self.size
        y = self.margin + self.top + h / 2 + (row - self.grid.first_row) * h + (h / 2 if self._shifted(col) else 0.0)
        return x, y

    def corner(self, centre: Point, k: int, scale: float = 1.0) -> Point:
        """Corner k (0 = east, clockwise in screen coordinates, every 60°)."""
        a = math.radians(60 * k)
        return centre[0] + scale * self.size * math.cos(a), centre[1] + scale * self.size * math.sin(a)

    def polygon(self, label: str, scale: float = 1.0) -> str:
        c = self.centre(label)
        return points(self.corner(c, k, scale) for k in range(6))

    def edge(self, a: str, b: str) -> tuple[Point, Point]:
        """The hexside between adjacent hexes a and b, as its two end corners."""
        d = self.grid.direction_to(a, b)
        if d is None:
            raise ValueError(f"{a} and {b} are not adjacent")
        c = self.centre(a)
        # direction 0 (north) is the edge between the corners at 240° and 300°
        return self.corner(c, 4 + d), self.corner(c, 5 + d)

    def between(self, a: str, b: str, t: float) -> Point:
        """The point a fraction t of the way from a's centre to b's centre."""
        (x1, y1), (x2, y2) = self.centre(a), self.centre(b)
        return x1 + (x2 - x1) * t, y1 + (y2 - y1) * t


def line(p: Point, q: Point, **kw: object) -> str:
    return el("line", x1=num(p[0]), y1=num(p[1]), x2=num(q[0]), y2=num(q[1]), **kw)


def path_through(layout: HexLayout, hexes: Iterable[str]) -> str:
    """An SVG path `d` through the centres of `hexes`."""
    pts = [layout.centre(h) for h in hexes]
    return " ".join(("M" if i == 0 else "L") + f"{num(x)},{num(y)}" for i, (x, y) in enumerate(pts))


def arrow_shape(p: Point, q: Point, width: float, head: float) -> str:
    """A filled arrow polygon from p to q (shaft `width`, head `head` long and 2·width wide)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    hw, bw = width / 2, width
    base = (q[0] - ux * head, q[1] - uy * head)
    pts = [
        (p[0] + nx * hw, p[1] + ny * hw), (base[0] + nx * hw, base[1] + ny * hw),
        (base[0] + nx * bw * 1.4, base[1] + ny * bw * 1.4), q,
        (base[0] - nx * bw * 1.4, base[1] - ny * bw * 1.4), (base[0] - nx * hw, base[1] - ny * hw),
        (p[0] - nx * hw, p[1] - ny * hw),
    ]
    return points(pts)
