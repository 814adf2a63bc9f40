"""NATO-style counters as SVG: a square in the side's colour, the unit-type symbol in a box,
the unit size above it, its designation, and its factors along the bottom edge.

Land units show attack-defense-movement; aircraft carry a sky band with a silhouette and
show air-tactical-range. A reduced unit shows its current factors on a red strip.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from markupsafe import escape

from warlog.render.hexmap import el, num, text

# Side palettes: body, edge, symbol box, text.  Field grey for Germany, khaki for Belgium.
SIDES: dict[str, tuple[str, str, str, str]] = {
    "germany": ("#9ba393", "#3b4036", "#c9cfc1", "#111111"),
    "belgium": ("#c8ac6e", "#5a4422", "#e6d3a3", "#111111"),
}
DEFAULT_SIDE = ("#d0d0d0", "#444444", "#eeeeee", "#111111")
SKY = "#a9d6f5"
REDUCED = "#f3b7ae"
REDUCED_TEXT = "#8b1a10"


@dataclass(frozen=True)
class Counter:
    uid: str
    side: str
    kind: str  # infantry | tank | cavalry | fighter | bomber
    label: str  # short designation ("3 Pz", "IV")
    size_mark: str  # "XXX", "XX" or ""
    values: str  # "7-5-12"
    title: str  # the full tooltip
    reduced: bool = False
    classes: tuple[str, ...] = ()
    hex: str | None = None  # where it stands, for the page's click handling


@lru_cache(maxsize=8192)  # pure: a board redrawn for the next step draws most counters again
def draw(c: Counter, x: float, y: float, s: float) -> str:
    """The counter with its top-left corner at (x, y) and side `s`."""
    body, edge, box, ink = SIDES.get(c.side, DEFAULT_SIDE)
    air = c.kind in ("fighter", "bomber")
    parts = frame(s, body, edge)
    if air:
        parts.append(el("rect", x="1", y="1", width=num(s - 2), height=num(s * 0.6), fill=SKY))
        parts.append(_plane(c.kind, s * 0.6, s * 0.33, s))
    else:
        parts.append(_nato_box(c.kind, s, box))
        if c.size_mark:
            parts.append(text(s * 0.55, s * 0.22, c.size_mark, font_size=num(s * 0.17), text_anchor="middle",
                              font_weight="bold", fill=ink, letter_spacing="-0.5"))
    parts.append(_side_label(c.label, s, "#16324f" if air else ink))
    if c.reduced:
        parts.append(el("rect", x="1", y=num(s * 0.7), width=num(s - 2), height=num(s * 0.29), fill=REDUCED))
    parts.append(text(s / 2, s * 0.93, c.values, font_size=num(s * 0.27), font_weight="bold", text_anchor="middle",
                      fill=REDUCED_TEXT if c.reduced else ink, class_="values"))
    if "in-battle" in c.classes:  # an orange corner: this unit is committed to a battle
        parts.append(el("path", d=f"M{num(s * 0.72)},1 L{num(s - 1)},1 L{num(s - 1)},{num(s * 0.28)} Z",
                        fill="#d55e00", stroke="#fff", stroke_width="0.6"))
    return finish(parts, s, c.title, ("counter", c.side, "air" if air else "land", c.kind) + c.classes, x, y, c.uid,
                  c.hex)


def frame(s: float, body: str, edge: str, dashed: str | None = None) -> list[str]:
    """A counter's square (side `s`) with its drop shadow; the square is `.body` (the page
    outlines it when the counter is selected, a target or highlighted)."""
    return [el("rect", x="1.6", y="1.6", width=num(s), height=num(s), rx="2", fill="#000", opacity="0.35"),
            el("rect", class_="body", width=num(s), height=num(s), rx="2", fill=body, stroke=edge, stroke_width="1",
               stroke_dasharray=dashed)]


def finish(parts: list[str], s: float, title: str, classes: tuple[str, ...], x: float, y: float, uid: str,
           hex_: str | None) -> str:
    """The counter as a group at (x, y): crossed out in red when eliminated, with its tooltip,
    its classes and the unit and hex the page's clicks read."""
    if "eliminated" in classes:
        parts.append(el("path", d=f"M3,3 L{num(s - 3)},{num(s - 3)} M{num(s - 3)},3 L3,{num(s - 3)}",
                        stroke="#c0182a", stroke_width="3", stroke_linecap="round"))
    parts.append(el("title", str(escape(title))))
    return el("g", "".join(parts), class_=" ".join(classes), transform=f"translate({num(x)},{num(y)})",
              data_unit=uid or None, data_hex=hex_)


def _side_label(label: str, s: float, ink: str) -> str:
    """The designation, left of the symbol box, written upwards as on printed counters."""
    size = s * (0.17 if len(label) <= 5 else 0.145)
    return text(0, 0, label, font_size=num(size), font_weight="bold", fill=ink, text_anchor="middle",
                class_="desig", transform=f"translate({num(s * 0.16)},{num(s * 0.4)}) rotate(-90)")


def _nato_box(kind: str, s: float, fill: str) -> str:
    """The unit-type symbol: infantry ✕, armour (an oval track), cavalry (one diagonal)."""
    x0, y0, w, h = s * 0.27, s * 0.27, s * 0.62, s * 0.38
    x1, y1 = x0 + w, y0 + h
    out = [el("rect", x=num(x0), y=num(y0), width=num(w), height=num(h), fill=fill, stroke="#111",
              stroke_width="1.1")]
    stroke = {"stroke": "#111", "stroke_width": "1.1", "fill": "none"}
    if kind == "infantry":
        out.append(el("path", d=f"M{num(x0)},{num(y0)} L{num(x1)},{num(y1)} M{num(x1)},{num(y0)} L{num(x0)},{num(y1)}",
                      **stroke))
    elif kind == "tank":
        out.append(el("rect", x=num(x0 + w * 0.16), y=num(y0 + h * 0.22), width=num(w * 0.68), height=num(h * 0.56),
                      rx=num(h * 0.28), **stroke))
    elif kind == "cavalry":
        out.append(el("path", d=f"M{num(x0)},{num(y1)} L{num(x1)},{num(y0)}", **stroke))
    return "".join(out)


def _plane(kind: str, cx: float, cy: float, s: float) -> str:
    """A top-view silhouette: a fighter has a slim body and straight wings, a bomber a
    broader span with two engines."""
    k = s / 34
    if kind == "bomber":
        d = ("M0,-8 L1.6,-6 L1.6,-2 L13,1 L13,3 L1.6,2.4 L1.2,6 L4.5,7.6 L4.5,8.8 L-4.5,8.8 L-4.5,7.6 "
             "L-1.2,6 L-1.6,2.4 L-13,3 L-13,1 L-1.6,-2 L-1.6,-6 Z")
        engines = (el("rect", x="-8", y="-1.6", width="2.2", height="4.4", fill="#16324f")
                   + el("rect", x="5.8", y="-1.6", width="2.2", height="4.4", fill="#16324f"))
    else:
        d = ("M0,-8 L1.3,-5 L1.3,-1.5 L10,0.5 L10,2.4 L1.3,2.2 L0.9,5.6 L3.6,7 L3.6,8.2 L-3.6,8.2 "
             "L-3.6,7 L-0.9,5.6 L-1.3,2.2 L-10,2.4 L-10,0.5 L-1.3,-1.5 L-1.3,-5 Z")
        engines = ""
    return el("g", el("path", d=d, fill="#16324f") + engines,
              transform=f"translate({num(cx)},{num(cy)}) scale({k * 0.78:.3f})")
