"""Pieces every hex-map renderer shares: the <svg> document, the clickable-target overlay, a
replay step's highlights (hexes fought over, paths moved), the arrowhead they use, the
counter-state styles, and the legend's swatches. Game renderers (`aob`, `gbv`) add their own
map and counters around them."""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterable

from markupsafe import escape

from warlog.render import Highlights
from warlog.render.hexmap import HexLayout, el, num, path_through, points

HL_PATH = "#ee3377"  # a replay step's path moved (Tol's bright palette: magenta)
HL_HEX = "#ee7733"  # a hex fought over (orange)

# Counter states the page script and the highlights rely on (same rules for every board).
STATE_STYLE = """.hexmap .counter.selected .body{stroke:#ffcf00;stroke-width:4}
.hexmap .counter.hl .body{stroke:#ee3377;stroke-width:3.5}
.hexmap .counter.lost{opacity:.7}
.hexmap .counter.done{opacity:.78}
.hexmap .target-hex{fill:#ffcf00;fill-opacity:.16;stroke:#b38f00;stroke-width:2.5;stroke-dasharray:6 3;pointer-events:none}
.hexmap .counter.target .body{stroke:#ffcf00;stroke-width:3}
"""


def scene_classes(uid: str, scene: object, selected: bool) -> list[str]:
    """A counter's classes every board gives alike: "selected" (the unit under way), "hl" (a
    replay step names it), "target" (a legal action names it); `scene` is a `Scene`."""
    out = ["selected"] if selected else []
    if uid in getattr(getattr(scene, "highlights", None), "units", ()):
        out.append("hl")
    if uid in getattr(scene, "target_units", ()):
        out.append("target")
    return out


def svg_document(body: str, width: float, height: float, label: str, game: str,
                 focus: tuple[float, float] | None = None) -> str:
    """The board's root element (class "hexmap": the page's zoom and click handling find it).
    `focus` is where the action is: the page scrolls a board larger than its box to it."""
    return el("svg", body, xmlns="http://www.w3.org/2000/svg", class_="hexmap",
              viewBox=f"0 0 {num(width)} {num(height)}", width=num(width), height=num(height), role="img",
              aria_label=label, data_game=game, data_focus=f"{num(focus[0])},{num(focus[1])}" if focus else None)


def focus_point(lay: HexLayout, known: Container[str], first: Iterable[object],
                groups: Iterable[Iterable[object]] = ()) -> tuple[float, float] | None:
    """Where a board opens (the page centres a board larger than its box on it): the first known
    hex of `first` (the unit under way, the battle, what a replay step changed), else the middle
    of the first of `groups` with a known hex in it (the units a legal action names, the hexes it
    names, the viewing seat's own units), by the median of their centres."""
    for h in first:
        if isinstance(h, str) and h in known:
            return lay.centre(h)
    for group in groups:
        pts = [lay.centre(h) for h in group if isinstance(h, str) and h in known]
        if pts:
            xs, ys = sorted(p[0] for p in pts), sorted(p[1] for p in pts)
            return xs[len(xs) // 2], ys[len(ys) // 2]
    return None


def terrain_layer(lay: HexLayout, cells: Iterable[tuple[str, str, str, str]]) -> str:
    """The hexes, one polygon each from (label, tooltip, fill, class), in the `terrain` group
    where the page's script finds every hex and its centre (`.terrain [data-hex]`)."""
    return el("g", "".join(el("polygon", el("title", title), points=lay.polygon(lab), fill=fill, class_=cls,
                              data_hex=lab) for lab, title, fill, cls in cells), class_="terrain")


def map_frame(lay: HexLayout) -> str:
    """The neat line round the whole map."""
    m = lay.margin / 2
    return el("rect", x=num(m), y=num(m), width=num(lay.width - 2 * m), height=num(lay.height - 2 * m), fill="none",
              stroke="#26231f", stroke_width="3", pointer_events="none")


def arrow_marker(prefix: str = "") -> str:
    """The arrowhead at the end of a highlighted path (`url(#arrow)`)."""
    return el("marker", el("path", d="M0,0 L10,5 L0,10 z", fill=HL_PATH), id=f"{prefix}arrow", viewBox="0 0 10 10",
              refX="7", refY="5", markerWidth="4", markerHeight="4", orient="auto-start-reverse")


def targets(hexes: Iterable[str], lay: HexLayout, known: Container[str]) -> str:
    """A dashed outline on each hex a legal action names (the page makes them clickable)."""
    out = [el("polygon", points=lay.polygon(h, 0.9), class_="target-hex", data_target=h)
           for h in sorted(hexes) if h in known]
    return el("g", "".join(out), class_="targets")


def highlight_marks(hl: Highlights, lay: HexLayout, known: Container[str], width: float = 4.5, hexes: bool = True,
                    paths: bool = True) -> list[str]:
    """The hexes fought over (an orange outline) and the paths moved (a dashed magenta line
    with an arrowhead, a dot in each hex passed through); either alone when asked."""
    out = []
    for hx in hl.hexes if hexes else ():
        if hx in known:
            out.append(el("polygon", points=lay.polygon(hx, 0.94), fill=HL_HEX, fill_opacity="0.18", stroke=HL_HEX,
                          stroke_width=num(width), class_="hl-hex"))
    for path in hl.paths if paths else ():
        steps = [h for h in path if h in known]
        if len(steps) < 2:
            continue
        d = path_through(lay, steps)
        out.append(el("path", d=d, fill="none", stroke="#fff", stroke_width=num(width * 2), stroke_linejoin="round",
                      stroke_linecap="round", opacity="0.85"))
        out.append(el("path", d=d, fill="none", stroke=HL_PATH, stroke_width=num(width), stroke_linejoin="round",
                      stroke_linecap="round", stroke_dasharray="10 5", marker_end="url(#arrow)", class_="hl-path"))
        for h in steps[:-1]:
            x, y = lay.centre(h)
            out.append(el("circle", cx=num(x), cy=num(y), r=num(width * 0.78), fill=HL_PATH))
    return out


def star_points(x: float, y: float, r: float, inner: float) -> str:
    """A five-pointed star centred on (x, y), point up."""
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else inner
        a = math.radians(-90 + 36 * k)
        pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    return points(pts)


# -- the legend ------------------------------------------------------------------------------------

def legend_hex(fill: str, extra: str = "", stroke: str = "#7e7c70") -> str:
    """A small hex for a legend swatch."""
    pts = [(20 + 15 * math.cos(math.radians(60 * k)), 14 + 15 * math.sin(math.radians(60 * k))) for k in range(6)]
    return el("polygon", points=points(pts), fill=fill, stroke=stroke, stroke_width="0.8") + extra


def swatch(body: str, width: int = 40, height: int = 28) -> str:
    return el("svg", body, xmlns="http://www.w3.org/2000/svg", width=str(width), height=str(height),
              viewBox=f"0 0 {width} {height}", aria_hidden="true")


def legend_item(svg: str, label: str, note: str = "") -> str:
    note_html = f' <span class="muted">{escape(note)}</span>' if note else ""
    return f"<li>{svg}<span>{escape(label)}{note_html}</span></li>"


def legend_list(items: Iterable[str]) -> str:
    return '<ul class="legend">' + "".join(items) + "</ul>"


def replay_items(hex_swatch: Callable[..., str] = legend_hex) -> list[str]:
    """The key to a replay step's highlights."""
    return [
        legend_item(swatch(el("path", d="M4,20 L20,10 L34,14", fill="none", stroke=HL_PATH, stroke_width="4",
                              stroke_dasharray="8 4")), "Replay: path moved"),
        legend_item(swatch(hex_swatch(HL_HEX, stroke=HL_HEX).replace('fill="' + HL_HEX + '"',
                                                                    'fill="' + HL_HEX + '" fill-opacity="0.25"')),
                    "Replay: hex fought over"),
    ]
