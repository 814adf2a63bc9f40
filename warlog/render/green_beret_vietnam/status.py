"""The Green Beret: Vietnam markers that are not units: base camps (the triangular Special
Forces camp, with its PBR), the mission marker, the group under way, and the status cartouche
(turn, phase, Prestige Points, the mission and what it needs, the tally, the two PP-track
markers face down until the game ends, 3.6)."""

from __future__ import annotations

from typing import Any

from rules.green_beret_vietnam.data import World
from warlog.render.boardkit import star_points
from warlog.render.green_beret_vietnam.map import S
from warlog.render.hexmap import HexLayout, el, num, path_through, points, text

CAMP = "#2f3b12"
MISSION = "#f0c419"
PHASES = {"setup_camp": "Set-up: place the base camp", "procurement": "Mission placement and procurement",
          "movement": "Friendly movement", "combat": "Friendly combat", "enemy": "Enemy movement and combat",
          "victory": "Victory determination", "over": "Game over"}


def camp_mark(k: str, rec: dict[str, Any], lay: HexLayout) -> str:
    """A base camp: a ring round its hex and the camp counter at its upper left, a triangular
    Special Forces fort (clickable for evade and relocate: a `counter` whose unit is the camp)."""
    hx = str(rec["hex"])
    cx, cy = lay.centre(hx)
    body = el("polygon", points=lay.polygon(hx, 0.95), fill="none", stroke="#f3f0e2", stroke_width="5")
    body += el("polygon", points=lay.polygon(hx, 0.95), fill="none", stroke=CAMP, stroke_width="3",
               stroke_dasharray="9 3")
    body += camp_chit(cx - S * 1.1, cy - lay.hex_height / 2 - 11, bool(rec.get("pbr")))
    label = f"Base camp {k.rsplit('-', 1)[1]}" + (" with its PBR" if rec.get("pbr") else "")
    title = el("title", f"{label} in {hx}: a sanctuary; a team entering it is no longer detected (12.5)")
    return el("g", title + body, class_="counter camp", data_unit=k, data_hex=hx)


def camp_chit(x: float, y: float, pbr: bool = False) -> str:
    """The base camp counter: a triangular fort with a bunker at each corner."""
    tri = [(x + 11, y + 3.5), (x + 18, y + 15), (x + 4, y + 15)]
    body = el("rect", x=num(x + 1.2), y=num(y + 1.2), width="22", height="22", rx="2", fill="#000", opacity="0.35")
    body += el("rect", x=num(x), y=num(y), width="22", height="22", rx="2", fill=CAMP, stroke="#e9e4cf",
               stroke_width="1", class_="body")
    body += el("polygon", points=points(tri), fill="none", stroke="#f3f0e2", stroke_width="1.6",
               stroke_linejoin="round")
    body += "".join(el("rect", x=num(px - 1.8), y=num(py - 1.8), width="3.6", height="3.6", fill="#f3f0e2")
                    for px, py in tri)
    return body + text(x + 11, y + 21, "PBR" if pbr else "CAMP", font_size="4.6", font_weight="bold", fill="#f3f0e2",
                       text_anchor="middle")


def mission_marker(state: dict[str, Any], w: World, lay: HexLayout) -> str:
    """The mission in play: a gold ring round its hex, a marker with its Prestige Points, its name."""
    m = state.get("mission")
    if not m or m.get("hex") not in w.hexes or m.get("id") not in w.missions:
        return ""
    mi = w.missions[m["id"]]
    hx = m["hex"]
    cx, cy = lay.centre(hx)
    hh = lay.hex_height
    x, y = cx + S * 0.34, cy - hh / 2 - 6
    title = el("title", f"Mission: {mi.name} in {hx}, {mi.pp} PP; needs {mi.printed} (7.0, 6.1)")
    body = el("polygon", points=lay.polygon(hx, 0.95), fill="none", stroke=MISSION, stroke_width="4")
    body += el("polygon", points=lay.polygon(hx, 0.95), fill="none", stroke="#1d1d1b", stroke_width="1",
               stroke_dasharray="4 3")
    body += el("rect", x=num(x), y=num(y), width="22", height="22", rx="2", fill=MISSION, stroke="#1d1d1b",
               stroke_width="1.2")
    body += el("polygon", points=star_points(x + 11, y + 8.5, 6, 2.5), fill="#1d1d1b")
    body += text(x + 11, y + 20.5, f"{mi.pp}", font_size="7.5", font_weight="bold", text_anchor="middle")
    body += text(cx - S * 0.2, y + 2, mi.name, font_size="8.5", font_weight="bold", fill="#1d1d1b",
                 text_anchor="end", stroke="#fff3bf", stroke_width="2.6", paint_order="stroke")
    return el("g", title + body, class_="mission", data_mission=mi.id)


def moving_path(state: dict[str, Any], w: World, lay: HexLayout) -> str:
    """The group under way: the hexes it has stepped through and the MP it has left."""
    mv = state.get("moving")
    if not mv or mv.get("start") not in w.hexes:
        return ""
    hexes = [mv["start"]] + [h for h in mv.get("path") or [] if h in w.hexes]
    out = []
    x0, y0 = lay.centre(mv["start"])
    out.append(el("circle", cx=num(x0), cy=num(y0), r="5", fill="#ffcf00", stroke="#1d1d1b", stroke_width="1"))
    if len(hexes) > 1:
        d = path_through(lay, hexes)
        out.append(el("path", d=d, fill="none", stroke="#1d1d1b", stroke_width="6", stroke_linecap="round",
                      stroke_linejoin="round", opacity="0.5"))
        out.append(el("path", d=d, fill="none", stroke="#ffcf00", stroke_width="3", stroke_linecap="round",
                      stroke_linejoin="round", stroke_dasharray="6 4"))
    title = el("title", "Moving: " + " → ".join(hexes))
    return el("g", title + "".join(out), class_="moving")


def moving_label(state: dict[str, Any], w: World, lay: HexLayout) -> str:
    """The MP the group under way has left, in a tag under its stack (drawn above the counters)."""
    mv = state.get("moving")
    if not mv or not mv.get("steps") or mv.get("hex") not in w.hexes:
        return ""
    left = max(0, int(mv.get("ma") or 0) - int(mv.get("spent") or 0))
    x, y = lay.centre(mv["hex"])
    y += lay.hex_height / 2 + 1
    tag = f"{left} MP left"
    return el("g", el("rect", x=num(x - len(tag) * 2.6 - 3), y=num(y - 8), width=num(len(tag) * 5.2 + 6), height="11",
                      rx="2", fill="#ffcf00", stroke="#1d1d1b", stroke_width="0.8")
              + text(x, y, tag, font_size="8", font_weight="bold", fill="#1d1d1b", text_anchor="middle"),
              class_="moving mp-left")


def cartouche(state: dict[str, Any] | None, w: World, lay: HexLayout) -> str:
    """The status fields in the title band: turn and phase, PP, the mission, the tally, and the
    two PP-track markers (face down while the game runs: the view hides them, 3.6)."""
    if not state:
        return ""
    y1, y2 = 30.0, 48.0
    light, dim, gold = "#f3f0e2", "#d9dcc0", MISSION
    out = []
    r = state.get("result")
    turn = "GAME OVER" if r else f"TURN {state.get('turn', 0)}"
    phase = (("Defeat" if r.get("defeat") else f"{r.get('level')}, net {r.get('net')}") if r
             else PHASES.get(str(state.get("phase")), str(state.get("phase"))))
    out.append(text(292, y1, turn, font_size="13", font_weight="bold", fill=light))
    out.append(text(292, y2, phase, font_size="9.5", fill=dim))
    out.append(text(452, y1 + 2, str(state.get("pp", 0)), font_size="20", font_weight="bold", fill=gold))
    out.append(text(456 + 12 * len(str(state.get("pp", 0))), y1 + 2, "PP", font_size="10", font_weight="bold",
                    fill=gold))
    out.append(text(452, y2, "Prestige Points", font_size="9.5", fill=dim))
    m = state.get("mission")
    if m and m.get("id") in w.missions:
        mi = w.missions[m["id"]]
        out.append(text(556, y1, f"MISSION · {mi.name} · {mi.pp} PP · in {m.get('hex')}", font_size="10.5",
                        font_weight="bold", fill=gold))
        out.append(text(556, y2, "needs " + requirement(w, mi.requires), font_size="9.5", fill=dim))
    else:
        out.append(text(556, y1, "MISSION · none on the map", font_size="11", font_weight="bold", fill=dim))
    t = state.get("tally") or {}
    out.append(text(902, y1, f"Accomplished {len(t.get('accomplished', []))} · abandoned "
                             f"{len(t.get('abandoned', []))}", font_size="9.5", fill=light))
    out.append(text(902, y2, f"Teams lost {len(t.get('teams_lost', []))} · leaders lost "
                             f"{len(t.get('leaders_lost', []))}", font_size="9.5", fill=light))
    for k, marker in enumerate(list(state.get("pp_markers") or [])[:2]):
        out.append(pp_marker(lay.width - 70 + k * 30, 18, str(marker), w))
    return el("g", "".join(out), class_="cartouche")


def requirement(w: World, requires: tuple[tuple[str, ...], ...]) -> str:
    """A mission's requirement (6.1): "Intel + M21 or SVD or Demo"; "nothing" when it has none."""
    names = _kind_names(w)
    return " + ".join(" or ".join(names.get(k, k) for k in group) for group in requires) or "nothing"


def _kind_names(w: World) -> dict[str, str]:
    names = {}
    for c in w.counters.values():
        words = c.name.split(" (")[0].split(" ")  # "Demo 1" -> "Demo", "M72 (LAW)" -> "M72"
        names[c.kind] = " ".join(words[:-1]) if len(words) > 1 and words[-1].isdigit() else " ".join(words)
    return names


def requirement_names(w: World) -> list[str]:
    """The names a mission's requirement uses (for the catalogs): the counters' ("Radio", "Demo")
    and those the Mission Table prints ("Ex. Ammo", "*Night Scope", the rulebook's error for Night
    Vision: 6.1)."""
    printed = {item for m in w.missions.values() for part in m.printed.split(", ") for item in part.split(" or ")}
    return sorted(set(_kind_names(w).values()) | printed)


def pp_marker(x: float, y: float, marker: str, w: World) -> str:
    """A PP-track marker: an enemy unit drawn at set-up, face down until the game is over (3.6)."""
    known = marker in w.enemies
    label = w.enemies[marker].name if known else "face down"
    body = el("rect", x=num(x), y=num(y), width="26", height="26", rx="2", fill="#1d1d1b", stroke="#d9dcc0",
              stroke_width="1")
    body += text(x + 13, y + 18, marker.split("-")[0].upper()[:4] if known else "?", font_size="9" if known else "15",
                 font_weight="bold", fill="#f3f0e2", text_anchor="middle")
    return el("g", el("title", f"PP-track marker: {label} (3.6)") + body, class_="pp-marker")
