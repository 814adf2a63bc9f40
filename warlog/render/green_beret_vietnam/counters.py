"""Green Beret: Vietnam counters as SVG.

Green Beret teams and leaders are light olive with the Special Forces box ("SF") or the
leader's star; weapons and equipment are pale chits (black for the black plus counters, blue
for the boats); enemy units are dark, in a hostile diamond frame: red for the VC, maroon with
yellow for the NVA and their vehicles, brown for positions and hazards. Every counter shows
firepower-movement along its bottom edge (a circled MA for vehicles, "+n"/"−n" for the plus
and minus MA of leaders and items) and its noise in a white disc. A detected team has a
red-orange border and corner; a damaged one its current values on a red strip.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.green_beret_vietnam.data import Counter as GbCounter
from rules.green_beret_vietnam.data import Enemy, World
from warlog.render.boardkit import star_points
from warlog.render.counters import finish, frame
from warlog.render.hexmap import el, num, points, text

GB = ("#b5c78a", "#2f3b12", "#111111")
ITEM = ("#f1efe6", "#55524a", "#111111")
BLACK = ("#262626", "#000000", "#ffffff")
BLUE = ("#2f6db5", "#163d6b", "#ffffff")
VC = ("#a8281e", "#4a0c07", "#ffffff")
NVA = ("#6e1b10", "#2e0903", "#ffd94a")
POSITION = ("#5b4636", "#2a1f16", "#ffffff")
DETECTED = "#d55e00"
DAMAGED = "#f3b7ae"
DAMAGED_TEXT = "#8b1a10"

SHORT = {"medical-kit": "Med kit", "night-vision": "NV", "booby-trap": "Booby", "flamethrower": "Flame",
         "grenades": "Grenade", "ex-ammo": "Ex.Ammo", "naval-gunfire": "Naval", "m2": "M2 .50",
         "vc-squad": "VC Sqd", "vc-platoon": "VC Plt", "vc-company": "VC Co", "nva-platoon": "NVA Plt",
         "nva-company": "NVA Co", "nva-sappers": "Sappers", "pt-76": "PT-76", "btr-40": "BTR-40", "convoy": "Convoy",
         "checkpoint": "Chkpt", "watch-tower": "Tower", "fixed-position": "Fixed", "unaware-patrol": "Patrol",
         "punji-trap": "Punji", "commander": "CDR", "officer": "OFF"}
ENEMY_SYMBOL = {"pt-76": "armour", "btr-40": "mech", "convoy": "wheeled", "checkpoint": "position",
                "watch-tower": "position", "fixed-position": "position", "snakes": "hazard", "insects": "hazard",
                "punji-trap": "hazard"}


@dataclass(frozen=True)
class Chit:
    uid: str
    kind: str  # team | leader | item | enemy
    label: str
    fp: str
    ma: str
    title: str
    palette: tuple[str, str, str]
    symbol: str = ""  # sf | leader | infantry | armour | mech | wheeled | position | hazard | "" (an item)
    noise: int = 0
    circled: bool = False
    damaged: bool = False
    classes: tuple[str, ...] = ()
    hex: str | None = None


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("−" + str(-n) if n < 0 else "0")


def gb_chit(w: World, cid: str, rec: dict[str, object], classes: tuple[str, ...] = (),
            hex_: str | None = None) -> Chit:
    """A Green Beret counter as it stands: a team's damage, detection and move this turn."""
    c: GbCounter = w.counters[cid]
    fp, ma, noise = c.fp, c.ma, c.noise
    damage = [w.damage[d] for d in rec.get("damage") or [] if d in w.damage]  # type: ignore[union-attr]
    notes = []
    for d in damage:
        fp, ma, noise = fp + d.fp, ma + d.ma, noise + d.noise
        notes.append(f"damaged: {d.name}")
    if c.cls == "team":
        notes.append("DETECTED" if rec.get("detected") else "undetected")
    if rec.get("moved"):
        notes.append("has moved this turn")
    if rec.get("left"):
        notes.append("left lying in the hex (not carried)")
    if c.cls == "team":
        label, symbol, pal, ma_text = f"{c.kind[0].upper()}{cid.rsplit('-', 1)[1]}", "sf", GB, str(ma)
    elif c.cls == "leader":
        label, symbol, pal, ma_text = SHORT.get(c.kind, c.name[:4]), "leader", GB, signed(ma)
    else:
        name = c.name.split(" (")[0]
        words = name.split(" ")
        label = SHORT.get(c.kind, " ".join(words[:-1]) if len(words) > 1 and words[-1].isdigit() else name)[:7]
        symbol, ma_text = "", signed(ma) if c.move != "basic" else str(ma)
        pal = BLUE if c.blue else BLACK if c.black else ITEM
    values = f"FP {fp}, MA {ma_text}, noise {noise}"
    title = f"{c.name}: {values}" + (f" — {'; '.join(notes)}" if notes else "")
    cls = classes + (("detected",) if rec.get("detected") else ("undetected",) if c.cls == "team" else ())
    cls += ("moved",) if rec.get("moved") else ()
    cls += ("left",) if rec.get("left") else ()
    return Chit(cid, c.cls, label, str(fp), ma_text, title, pal, symbol, noise, False, bool(damage), cls, hex_)


def enemy_chit(w: World, eid: str, rec: dict[str, object], classes: tuple[str, ...] = (),
               hex_: str | None = None) -> Chit:
    e: Enemy = w.enemies[eid]
    symbol = ENEMY_SYMBOL.get(e.kind, "infantry")
    pal = VC if e.kind.startswith("vc-") else POSITION if symbol in ("position", "hazard") else NVA
    notes = [f"FP {e.fp}, MA {e.ma}" + (" (circled: a vehicle, 11.0)" if e.circled else "")]
    if rec.get("suppressed"):
        notes.append("SUPPRESSED: it does not move this phase")
    cls = classes + (("suppressed",) if rec.get("suppressed") else ())
    return Chit(eid, "enemy", SHORT.get(e.kind, e.name[:7]), str(e.fp), str(e.ma), f"{e.name} ({eid}): "
                + "; ".join(notes), pal, symbol, 0, e.circled, False, cls, hex_)


@lru_cache(maxsize=8192)  # pure: a board redrawn for the next step draws most counters again
def draw(c: Chit, x: float, y: float, s: float) -> str:
    """The counter with its top-left corner at (x, y) and side `s`."""
    body, edge, ink = c.palette
    parts = frame(s, body, edge, "2.5 1.5" if "left" in c.classes else None)
    if c.symbol:
        parts.append(text(s * 0.07, s * 0.27, c.label, font_size=num(s * (0.22 if len(c.label) <= 5 else 0.18)),
                          font_weight="bold", fill=ink, class_="desig"))
        parts.append(_symbol(c.symbol, s, ink, body))
    else:  # an item: its name is the picture
        size = s * (0.25 if len(c.label) <= 5 else 0.19)
        parts.append(text(s / 2, s * 0.55, c.label, font_size=num(size), font_weight="bold", fill=ink,
                          text_anchor="middle", class_="desig"))
    if c.noise:
        parts.append(el("circle", cx=num(s * 0.83), cy=num(s * 0.19), r=num(s * 0.15), fill="#fff", stroke="#333",
                        stroke_width="0.6"))
        parts.append(text(s * 0.83, s * 0.26, str(c.noise), font_size=num(s * 0.19), font_weight="bold",
                          fill="#111", text_anchor="middle", class_="noise"))
    vink = ink
    if c.damaged:
        parts.append(el("rect", x="1", y=num(s * 0.69), width=num(s - 2), height=num(s * 0.3), fill=DAMAGED))
        vink = DAMAGED_TEXT
    parts.append(_values(c, s, vink))
    if "detected" in c.classes:
        parts.append(el("path", d=f"M1,{num(s - 1)} L{num(s * 0.26)},{num(s - 1)} L1,{num(s * 0.74)} Z", fill=DETECTED,
                        stroke="#fff", stroke_width="0.6"))
        parts.append(el("rect", width=num(s), height=num(s), rx="2", fill="none", stroke=DETECTED,
                        stroke_width="2.2", class_="detected-ring"))
    if "suppressed" in c.classes:
        parts.append(el("rect", x="0", y=num(s * 0.42), width=num(s), height=num(s * 0.2), fill="#ffd94a",
                        opacity="0.92"))
        parts.append(text(s / 2, s * 0.57, "SUPPR", font_size=num(s * 0.16), font_weight="bold", fill="#111",
                          text_anchor="middle"))
    return finish(parts, s, c.title, ("counter", c.kind) + c.classes, x, y, c.uid, c.hex)


def _values(c: Chit, s: float, ink: str) -> str:
    """FP-MA along the bottom edge; a circled MA for vehicles."""
    size = s * 0.27
    y = s * 0.93
    if c.kind in ("leader", "item"):
        return text(s / 2, y, f"{c.fp} {c.ma}", font_size=num(size), font_weight="bold", fill=ink,
                    text_anchor="middle", class_="values")
    out = text(s * 0.5, y, f"{c.fp}-{c.ma}", font_size=num(size), font_weight="bold", fill=ink, text_anchor="middle",
               class_="values")
    if c.circled:
        half = (len(c.fp) + 1 + len(c.ma)) * size * 0.3
        mx = s * 0.5 + half - len(c.ma) * size * 0.3
        out += el("circle", cx=num(mx), cy=num(y - size * 0.36), r=num(size * 0.52), fill="none", stroke=ink,
                  stroke_width="0.9")
    return out


def _symbol(kind: str, s: float, ink: str, body: str) -> str:
    """The unit-type symbol: the SF box, a leader's star, or a hostile diamond with its type."""
    cx, cy = s * 0.5, s * 0.5
    stroke = {"stroke": ink, "stroke_width": "1", "fill": "none"}
    if kind == "sf":
        w, h = s * 0.56, s * 0.3
        return (el("rect", x=num(cx - w / 2), y=num(cy - h / 2), width=num(w), height=num(h), fill="#e6edd2",
                   stroke="#111", stroke_width="1")
                + text(cx, cy + s * 0.07, "SF", font_size=num(s * 0.2), font_weight="bold", fill="#111",
                       text_anchor="middle"))
    if kind == "leader":
        return el("polygon", points=star_points(cx, cy, s * 0.17, s * 0.07), fill="#1d1d1b")
    rx, ry = s * 0.26, s * 0.17
    out = el("polygon", points=points([(cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)]), **stroke)
    a, b = rx * 0.5, ry * 0.5
    if kind in ("infantry", "mech"):
        out += el("path", d=f"M{num(cx - a)},{num(cy - b)} L{num(cx + a)},{num(cy + b)} M{num(cx + a)},{num(cy - b)} "
                            f"L{num(cx - a)},{num(cy + b)}", **stroke)
    if kind in ("armour", "mech"):
        out += el("rect", x=num(cx - a * 1.1), y=num(cy - b * 0.8), width=num(a * 2.2), height=num(b * 1.6),
                  rx=num(b * 0.8), **stroke)
    if kind == "wheeled":
        out += el("circle", cx=num(cx - a * 0.6), cy=num(cy + b * 0.4), r=num(b * 0.45), **stroke)
        out += el("circle", cx=num(cx + a * 0.6), cy=num(cy + b * 0.4), r=num(b * 0.45), **stroke)
    if kind == "position":
        out += el("polygon", points=points([(cx, cy - b), (cx + a * 0.8, cy + b * 0.7), (cx - a * 0.8, cy + b * 0.7)]),
                  fill=ink)
    if kind == "hazard":
        out += text(cx, cy + ry * 0.45, "!", font_size=num(s * 0.22), font_weight="bold", fill=ink,
                    text_anchor="middle")
    return out
