"""Lock 'n Load counters as SVG (1.5, 1.6): a square in the nation's colour with its name, its
FP-range-movement (T1), its morale (Good Order side, or the red Shaken side), a leader's LM, the
support weapons it carries on a band, and its marker (Moved, Fired, OC, ...) and wounds."""

from __future__ import annotations

from typing import Any

from rules.lock_n_load.data import World
from warlog.render.counters import finish, frame
from warlog.render.hexmap import el, num, text

NATION = {  # body, edge, ink (counters.json: US/USMC green, ARVN golden brown, VC grey, NVA butternut)
    "US": ("#7d9a5a", "#2f3f1f", "#101010"), "USMC": ("#7d9a5a", "#2f3f1f", "#101010"),
    "ARVN": ("#c9a24f", "#5a4422", "#101010"), "VC": ("#a7a7a2", "#3c3c38", "#101010"),
    "NVA": ("#c8a97a", "#5a4422", "#101010"),
}
SHAKEN = ("#e9b8b0", "#8b1a10", "#5a0d06")  # the Shaken side (1.5)
MARKER = {"moved": ("Moved", "#4477aa"), "assault": ("Assault", "#4477aa"), "low_crawl": ("Crawl", "#4477aa"),
          "fired": ("Fired", "#c0182a"), "oc": ("OC", "#555555")}
SHORT = {"squad": "Sqd", "half": "½ Sqd", "wt": "WT", "medic": "Medic", "sniper": "Sniper", "chaplain": "Chap",
         "advisor": "Adv", "hero": "Hero"}


def values(w: World, kind_id: str) -> str:
    k = w.kinds[kind_id]
    return k.designation or f"{k.fp}-{k.range}-{k.mf}"


def title(uid: str, r: dict[str, Any], w: World) -> str:
    k = w.kinds[r["kind"]]
    bits = [f"{k.name} ({uid})"]
    if k.is_mmc:
        bits.append(f"FP-range-MF {values(w, r['kind'])}")
    else:
        bits.append(f"LM {k.lm}, MF {k.mf}" if k.cls == "leader" else f"MF {k.mf}")
    bits.append(f"morale {k.morale[1]} (Shaken)" if r["shaken"] else f"morale {k.morale[0]}")
    if r.get("wounds"):
        bits.append(f"wounded ×{r['wounds']}")
    if r.get("marker"):
        bits.append(MARKER.get(r["marker"], (r["marker"], ""))[0] + " marker")
    if r.get("melee_locked"):
        bits.append("locked in melee")
    for x in r.get("sws") or []:
        sd = w.sws.get(x)
        if sd is not None:
            bits.append(f"carries {sd.name} ({sd.fp}-{sd.range})")
    return "; ".join(bits)


def draw_unit(uid: str, r: dict[str, Any], w: World, sws: dict[str, Any], x: float, y: float, s: float,
              classes: tuple[str, ...], hex_: str | None) -> str:
    """The counter with its top-left corner at (x, y), side `s`."""
    k = w.kinds[r["kind"]]
    body, edge, ink = SHAKEN if r["shaken"] else NATION.get(k.nationality, ("#d0d0d0", "#444", "#111"))
    parts = frame(s, body, edge)
    name = k.name.split()[-1] if k.cls == "leader" else SHORT.get(k.cls, k.cls)
    parts.append(text(s * 0.06, s * 0.2, k.nationality, font_size=num(s * 0.16), font_weight="bold", fill=ink))
    morale = k.morale[1] if r["shaken"] else k.morale[0]
    parts.append(el("rect", x=num(s * 0.68), y="2", width=num(s * 0.3), height=num(s * 0.24), rx="2",
                    fill="#fff" if not r["shaken"] else "#8b1a10", stroke=edge, stroke_width="0.6"))
    parts.append(text(s * 0.83, s * 0.21, str(morale), font_size=num(s * 0.2), font_weight="bold",
                      text_anchor="middle", fill="#8b1a10" if not r["shaken"] else "#fff", class_="morale"))
    if r["shaken"] and k.cls != "leader":
        name = "SHAKEN"  # the red side and the red morale box say it too (1.5)
    parts.append(text(s / 2, s * 0.47, name[:8], font_size=num(s * 0.17), font_weight="bold", text_anchor="middle",
                      fill="#8b1a10" if name == "SHAKEN" else ink, class_="shaken" if name == "SHAKEN" else "name"))
    if k.is_mmc:
        bottom = values(w, r["kind"])
    elif k.cls == "leader":
        bottom = f"LM {k.lm:+d}"
    else:
        bottom = f"MF {k.mf}"
    parts.append(text(s / 2, s * 0.93, bottom, font_size=num(s * 0.22), font_weight="bold", text_anchor="middle",
                      fill=ink, class_="values"))
    carried = []
    for x_ in r.get("sws") or []:  # 1.6: the support weapons it carries, on a band across the counter
        sd = w.sws.get((sws.get(x_) or {}).get("kind", x_))
        carried.append(f"{sd.name} {sd.fp}-{sd.range}" if sd else x_)
    if carried:
        parts.append(el("rect", x="1.5", y=num(s * 0.53), width=num(s - 3), height=num(s * 0.2), fill="#f7f3e3",
                        stroke="#26231f", stroke_width="0.5", class_="sw"))
        parts.append(text(s / 2, s * 0.685, " + ".join(carried), font_size=num(s * (0.15 if len(carried) == 1 else 0.11)),
                          font_weight="bold", text_anchor="middle", fill="#111"))
    if r.get("wounds"):
        parts.append(el("circle", cx=num(s * 0.12), cy=num(s * 0.62), r=num(s * 0.11), fill="#c0182a"))
        parts.append(text(s * 0.12, s * 0.67, "W" if r["wounds"] == 1 else f"W{r['wounds']}", font_size=num(s * 0.13),
                          font_weight="bold", text_anchor="middle", fill="#fff", class_="wounded"))
    marker = r.get("marker")
    if marker:
        label, colour = MARKER.get(marker, (str(marker).replace("_", " ").title(), "#555555"))
        parts.append(el("rect", x=num(-s * 0.06), y=num(-s * 0.14), width=num(s * 0.66), height=num(s * 0.24), rx="2",
                        fill=colour, stroke="#fff", stroke_width="0.8", class_=f"marker marker-{marker}"))
        parts.append(text(s * 0.27, s * 0.04, label, font_size=num(s * 0.15), font_weight="bold",
                          text_anchor="middle", fill="#fff"))
    side = r["side"]
    return finish(parts, s, title(uid, r, w), ("counter", side, k.cls) + classes, x, y, uid, hex_)
