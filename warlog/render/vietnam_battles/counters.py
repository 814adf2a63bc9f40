"""Vietnam Battles counters and chits as SVG.

Units (VB 2.3): a square in the nationality's colour — US light olive, ARVN yellow, VC dark
charcoal with white print (told apart by lightness as well as hue) — with the designation at the
top, the unit size, the NATO type symbol (infantry, mechanized infantry, armoured cavalry,
engineer, special forces; a monitor's hull) and attack-defense-movement along the bottom; a
reduced unit (VB 7.6) shows its reduced values on a red strip and an "R" corner. A VC unit its
owner set up hidden (VB 15.0) is drawn dashed and faded, for the VC seat only.
Chits: the Landing Zone and Landing Beach chits under a transported unit (VB 10.0, 11.0), base
camps and supply caches (VB 16.0, 16.1) as they stand: secret (the VC's own view), revealed,
captured."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules.vietnam_battles.data import UnitDef, load_json
from warlog.render.counters import finish, frame
from warlog.render.hexmap import el, num, text

# nationality -> (body, edge, symbol box, ink)
PALETTE = {"US": ("#a9bf86", "#2f3b12", "#e3ead2", "#111111"), "ARVN": ("#f2d45c", "#6b5310", "#fbf1c4", "#111111"),
           "VC": ("#34302c", "#000000", "#d8d2c4", "#ffffff")}
REDUCED = "#f3b7ae"
REDUCED_TEXT = "#8b1a10"
LZ = "#f0c419"
LB = "#7fb2dc"
CAMP = "#8c2d19"
CACHE = "#6b4a2b"


@dataclass(frozen=True)
class Piece:
    uid: str
    nationality: str
    symbol: str  # infantry | mech | cavalry | engineer | sf | monitor | hq
    label: str
    size: str
    values: str
    title: str
    reduced: bool = False
    classes: tuple[str, ...] = ()
    hex: str | None = None


@lru_cache(maxsize=1)
def sizes() -> dict[str, str]:
    """Each unit's size (I, II, III, X) from the counter sheet (not kept by the rules' `UnitDef`)."""
    units = load_json("counters.json").get("units", {})
    return {u: str(d.get("size") or "") for u, d in units.items() if isinstance(d, dict)}


def symbol_of(d: UnitDef) -> str:
    if d.monitor:
        return "monitor"
    if d.engineer:
        return "engineer"
    if d.special_forces:
        return "sf"
    if d.mech:
        return "cavalry" if "cav" in d.name.lower() or d.id.startswith("it-1-11") or "3-11" in d.id else "mech"
    if sizes().get(d.id) == "X":
        return "hq"
    return "infantry"


def short_label(d: UnitDef) -> str:
    """The designation printed on the counter: "Monitor 1-4-11" is a monitor ("Mon"), the
    sappers lose their word ("C.207")."""
    if d.monitor:
        return "Mon"
    return d.name.replace(" Sapper", "")


def piece(d: UnitDef, rec: dict[str, Any], classes: tuple[str, ...] = (), hex_: str | None = None,
          hidden: bool = False) -> Piece:
    """A unit's counter as it stands: the side face up (VB 7.6), its flags this turn."""
    reduced = bool(rec.get("reduced"))
    a, df, ma = d.values(reduced)
    kind = {"monitor": "monitor (river craft, on a hexside or water hex, VB 12.0)", "engineer": "engineer",
            "sf": "special forces (ignore enemy ZOC, VB 20.0)", "mech": "mechanized",
            "cavalry": "armoured cavalry, mechanized", "hq": "brigade", "infantry": "leg infantry"}[symbol_of(d)]
    notes = [f"{d.nationality} {kind}", f"{a}-{df}-{ma}" + (" (reduced)" if reduced else "")]
    if d.steps == 2 and not reduced:
        notes.append(f"reduced side {d.r_attack}-{d.r_defense}-{d.r_ma}")
    elif d.steps == 1:
        notes.append("one step")
    for key, what in (("moved", "has moved"), ("attacked", "has attacked"), ("retreated", "retreated"),
                      ("advanced", "advanced after combat")):
        if rec.get(key):
            notes.append(what)
    if rec.get("transported"):
        notes.append("landed by " + ("helicopter (Landing Zone)" if rec["transported"] == "slick"
                                     else "river craft (Landing Beach)"))
    if hidden:
        notes.append("HIDDEN: only the VC sees it (VB 15.0)")
    cls = classes + (("reduced",) if reduced else ()) + (("hidden-unit",) if hidden else ())
    cls += ("mechanized",) if d.mech else ()
    where = f" in {hex_}" if hex_ else ""
    return Piece(d.id, d.nationality if d.nationality in PALETTE else ("VC" if d.side == "vc" else "US"),
                 symbol_of(d), short_label(d), sizes().get(d.id, ""), f"{a}-{df}-{ma}",
                 f"{d.name}{where}: " + "; ".join(notes), reduced, cls, hex_)


@lru_cache(maxsize=8192)  # pure: a board redrawn for the next step draws most counters again
def draw(p: Piece, x: float, y: float, s: float) -> str:
    """The counter with its top-left corner at (x, y) and side `s`."""
    body, edge, box, ink = PALETTE[p.nationality]
    hidden = "hidden-unit" in p.classes
    parts = frame(s, body, edge, "3 2" if hidden else None)
    size = s * (0.2 if len(p.label) <= 5 else 0.17 if len(p.label) <= 7 else 0.14)
    parts.append(text(s / 2, s * 0.21, p.label, font_size=num(size), font_weight="bold", fill=ink,
                      text_anchor="middle", class_="desig"))
    parts.append(_symbol(p.symbol, s, box, p.size, ink))
    if p.reduced:
        parts.append(el("rect", x="1", y=num(s * 0.71), width=num(s - 2), height=num(s * 0.28), fill=REDUCED))
        parts.append(el("path", d=f"M{num(s - 1)},{num(s * 0.24)} L{num(s - 1)},{num(s * 0.5)} "
                                  f"L{num(s * 0.78)},{num(s * 0.5)} Z", fill="#c0182a"))
    parts.append(text(s / 2, s * 0.93, p.values, font_size=num(s * 0.25), font_weight="bold", text_anchor="middle",
                      fill=REDUCED_TEXT if p.reduced else ink, class_="values"))
    if hidden:
        parts.append(el("rect", width=num(s), height=num(s), fill="#fff", opacity="0.28", rx="2"))
        parts.append(text(s * 0.88, s * 0.62, "H", font_size=num(s * 0.2), font_weight="bold", fill="#ffcf00",
                          text_anchor="middle"))
    side = "vc" if p.nationality == "VC" else "us"
    return finish(parts, s, p.title, ("counter", side, p.nationality.lower(), p.symbol) + p.classes, x, y, p.uid,
                  p.hex)


def _symbol(kind: str, s: float, fill: str, size: str, ink: str) -> str:
    """The unit-type symbol in its box, the size mark above it; a monitor's hull instead."""
    x0, y0, w, h = s * 0.22, s * 0.34, s * 0.56, s * 0.33
    x1, y1 = x0 + w, y0 + h
    stroke = {"stroke": "#111", "stroke_width": "1", "fill": "none"}
    if kind == "monitor":
        hull = (f"M{num(s * 0.1)},{num(s * 0.5)} L{num(s * 0.9)},{num(s * 0.5)} L{num(s * 0.78)},{num(s * 0.66)} "
                f"L{num(s * 0.2)},{num(s * 0.66)} Z")
        turret = el("rect", x=num(s * 0.38), y=num(s * 0.38), width=num(s * 0.22), height=num(s * 0.12), fill=fill,
                    stroke="#111", stroke_width="0.8")
        gun = el("path", d=f"M{num(s * 0.6)},{num(s * 0.43)} h{num(s * 0.18)}", stroke="#111", stroke_width="1.2")
        return el("path", d=hull, fill=fill, stroke="#111", stroke_width="1") + turret + gun
    out = [el("rect", x=num(x0), y=num(y0), width=num(w), height=num(h), fill=fill, stroke="#111",
              stroke_width="1")]
    if size:
        out.append(text(s / 2, y0 - s * 0.015, size, font_size=num(s * 0.13), font_weight="bold", fill=ink,
                        text_anchor="middle", class_="size"))
    cross = f"M{num(x0)},{num(y0)} L{num(x1)},{num(y1)} M{num(x1)},{num(y0)} L{num(x0)},{num(y1)}"
    oval = el("rect", x=num(x0 + w * 0.18), y=num(y0 + h * 0.22), width=num(w * 0.64), height=num(h * 0.56),
              rx=num(h * 0.28), **stroke)
    if kind in ("infantry", "hq"):
        out.append(el("path", d=cross, **stroke))
    elif kind == "mech":
        out.append(el("path", d=cross, **stroke) + oval)
    elif kind == "cavalry":
        out.append(el("path", d=f"M{num(x0)},{num(y1)} L{num(x1)},{num(y0)}", **stroke) + oval)
    elif kind == "engineer":
        my = y0 + h * 0.35
        out.append(el("path", d=f"M{num(x0 + w * 0.22)},{num(y1 - h * 0.2)} V{num(my)} H{num(x1 - w * 0.22)} "
                                f"V{num(y1 - h * 0.2)} M{num(s / 2)},{num(my)} V{num(y1 - h * 0.2)}", **stroke))
    elif kind == "sf":
        out.append(text(s / 2, y1 - h * 0.22, "SF", font_size=num(h * 0.62), font_weight="bold", fill="#111",
                        text_anchor="middle"))
    return "".join(out)


def landing_chit(kind: str, x: float, y: float) -> str:
    """The Landing Zone (a slick's back) or Landing Beach (a tango's back) chit, 12 by 10."""
    fill, label, what = (LZ, "LZ", "Landing Zone: landed by helicopter this turn (VB 10.0)") if kind == "slick" else \
        (LB, "LB", "Landing Beach: landed by river craft this turn (VB 11.0)")
    return el("g", el("title", what)
              + el("rect", x=num(x), y=num(y), width="12", height="10", rx="1.5", fill=fill, stroke="#1d1d1b",
                   stroke_width="0.9")
              + text(x + 6, y + 7.6, label, font_size="6.2", font_weight="bold", text_anchor="middle", fill="#111"),
              class_="chit landing " + kind)


def camp_chit(cid: str, status: str, x: float, y: float, s: float = 20.0, where: str = "") -> str:
    """A base camp (a hut under a star) or supply cache (crates) as it stands: "secret" (the VC's
    own record, dashed), "revealed", "captured" (greyed, crossed out)."""
    cache = cid.startswith("cache")
    fill = CACHE if cache else CAMP
    parts = [el("rect", x=num(x + 1.2), y=num(y + 1.2), width=num(s), height=num(s), rx="2", fill="#000",
                opacity="0.3"),
             el("rect", x=num(x), y=num(y), width=num(s), height=num(s), rx="2", fill=fill, stroke="#f3e9d2",
                stroke_width="1.2", stroke_dasharray="3 2" if status == "secret" else None, class_="body")]
    k = s / 20
    if cache:
        parts.append(el("path", d=f"M{num(x + 4 * k)},{num(y + 9 * k)} h{num(12 * k)} v{num(6 * k)} h{num(-12 * k)} z "
                                  f"M{num(x + 7 * k)},{num(y + 4 * k)} h{num(6 * k)} v{num(5 * k)} h{num(-6 * k)} z",
                        fill="#e9c98f", stroke="#2a1a0c", stroke_width="0.8"))
    else:
        parts.append(el("path", d=f"M{num(x + 4 * k)},{num(y + 11 * k)} L{num(x + 10 * k)},{num(y + 6 * k)} "
                                  f"L{num(x + 16 * k)},{num(y + 11 * k)} V{num(y + 15 * k)} H{num(x + 4 * k)} Z",
                        fill="#f3e9d2"))
        parts.append(el("circle", cx=num(x + 10 * k), cy=num(y + 3.6 * k), r=num(1.8 * k), fill="#ffcf00"))
    parts.append(text(x + s / 2, y + s - 1.2 * k, "CACHE" if cache else "CAMP", font_size=num(3.8 * k),
                      font_weight="bold", fill="#fff", text_anchor="middle"))
    if status == "secret":
        parts.append(el("rect", x=num(x), y=num(y), width=num(s), height=num(s), fill="#fff", opacity="0.3", rx="2"))
    if status == "captured":
        parts.append(el("rect", x=num(x), y=num(y), width=num(s), height=num(s), fill="#777", opacity="0.55", rx="2"))
        parts.append(el("path", d=f"M{num(x + 3)},{num(y + 3)} L{num(x + s - 3)},{num(y + s - 3)} M{num(x + s - 3)},"
                                  f"{num(y + 3)} L{num(x + 3)},{num(y + s - 3)}", stroke="#c0182a", stroke_width="2.4"))
    noun = "Supply cache" if cache else "VC base camp"
    what = {"secret": "secret: only the VC sees it", "revealed": "revealed", "captured": "captured by the US"}[status]
    title = f"{noun} {cid.rsplit('-', 1)[-1]}{' in ' + where if where else ''}: {what} (VB 16.0)"
    return el("g", el("title", title) + "".join(parts), class_=f"chit camp {status}" + (" cache" if cache else ""),
              data_camp=cid)
