"""The Vietnam Battles status band, read from the viewer's view only: the game turn and the
last one (VB 21.0, 24.0), the phase and the phasing player, whose decision the game waits on
and what it is, the support fire allotment of the turn (VB 14.1) and the markers in hand — the
viewer's own by value, the other side's face down — and what each scenario counts: base camps
(VB 26.0), helicopter and river-craft chits (VB 10.0, 11.0), VC units out and US losses, the B-52
and Ben Suc (VB 23.0, 24.0, 27.0)."""

from __future__ import annotations

from typing import Any

from rules.vietnam_battles.data import World
from rules.vietnam_battles.support import allotment, value
from warlog.render.hexmap import HexLayout, el, text
from warlog.render.vietnam_battles.geometry import BAND

PHASES = {"setup": "Secret set-up", "movement": "Movement Phase", "combat": "Combat Phase",
          "mech_movement": "Mechanized Movement Phase", "mech_combat": "Mechanized Combat Phase", "over": "Game over"}
DECISIONS = {"retreat": "retreat or hold at all costs (VB 7.7)", "displace": "displace a unit (VB 7.7.2)",
             "loss": "choose the attacker that loses a step (VB 7.6)", "advance": "advance after combat (VB 7.9)",
             "ambush": "push the ambushed unit (VB 11.1)", "errant": "where the errant fire falls (VB 8.4.2)",
             "ben_suc": "Ben Suc: roll, decline, extend or shorten (VB 24.0)"}


def acting(state: dict[str, Any]) -> str | None:
    """Whose decision it is (the same reading as the rules' `flow.acting`, on the view)."""
    if state.get("phase") == "over":
        return None
    if state.get("decision"):
        return str(state["decision"].get("seat"))
    b = state.get("battle")
    if b and 1 <= int(b.get("step", 0)) <= 4:
        attacker = str(b.get("attacker"))
        return attacker if b["step"] in (1, 3) else ("vc" if attacker == "us" else "us")
    return str(state.get("player"))


def waiting_on(state: dict[str, Any], w: World) -> str:
    seat = acting(state)
    if seat is None:
        r = state.get("result") or {}
        return f"Game over: {r.get('result', '')}" + (f" — {r['reason']}" if r.get("reason") else "")
    who = seat.upper()
    d, b, mv = state.get("decision"), state.get("battle"), state.get("moving")
    if d:
        return f"Waiting on {who}: {DECISIONS.get(str(d.get('kind')), str(d.get('kind')))}"
    if b:
        name = w.units[b["defender"]].name if b.get("defender") in w.units else "?"
        what = "bombardment of" if b.get("kind") == "bombard" else "attack on"
        return f"Waiting on {who}: support fire step {b.get('step')} of the {what} {name} at {b.get('at')}"
    if mv and mv.get("unit") in w.units:
        name = w.units[mv["unit"]].name
        if mv.get("mode"):
            return f"Waiting on {who}: land {name} ({'helicopter' if mv['mode'] == 'slick' else 'river craft'})"
        return f"Waiting on {who}: moving {name}"
    if state.get("phase") == "setup":
        return f"Waiting on {who}: set-up"
    return f"Waiting on {who}: {PHASES.get(str(state.get('phase')), '')}"


def hand_text(state: dict[str, Any], w: World, side: str) -> str:
    """A side's markers: values when the view shows them, "?" face down; spent ones struck."""
    hand = list((state.get("hands") or {}).get(side) or [])
    spent = list((state.get("spent") or {}).get(side) or [])
    if not hand and not spent:
        return "none"
    shown = []
    for m in hand:
        try:
            shown.append(f"+{value(w, m)}")
        except (KeyError, ValueError, IndexError):
            shown.append("?")
    out = " ".join(shown) if shown else "none"
    if spent:
        out += f" (spent {len(spent)})"
    return out


def scenario_text(state: dict[str, Any], w: World) -> str:
    bits = []
    chits = state.get("chits") or {}
    if w.slicks or w.tangos:
        bits.append(f"Slicks {chits.get('slick', 0)}/{w.slicks} · Tangos {chits.get('tango', 0)}/{w.tangos}")
    camps = state.get("camps") or {}
    secret = state.get("secret") or {}
    if state.get("scenario") == "snoopys_nose":
        captured = sum(1 for c in camps.values() if c.get("status") == "captured")
        found = sum(1 for c in camps.values() if c.get("status") == "revealed")
        bits.append(f"Base camps captured {captured}/5, revealed {found}")
        hidden = len(secret.get("hidden") or {}) or int(secret.get("hidden_count") or 0)
        if hidden:
            bits.append(f"{hidden} VC unit{'s' if hidden != 1 else ''} hidden")
    it = state.get("iron")
    if it:
        bits.append(f"VC out {it.get('exited', 0)} · US lost {it.get('us_lost', 0)}")
        bits.append("B-52 used this turn" if it.get("b52_turn") == state.get("turn") else "B-52 ready")
        if it.get("ben_suc") not in (None, "done"):
            bits.append(f"Ben Suc: {it['ben_suc']}")
        if secret.get("victory"):
            bits.append(f"VC condition: {secret['victory']} (secret)")
    down = state.get("bridges_down") or []
    if down:
        bits.append(f"Bridges down: {', '.join(down)}")
    return " · ".join(bits)


def status_band(state: dict[str, Any] | None, w: World, lay: HexLayout) -> str:
    """The right half of the title band; before the game starts, a line saying so."""
    m = lay.margin / 2
    x = lay.width - m - 12
    if state is None:
        return el("g", text(x, m + 24, "Waiting for both seats to join", font_size="12", font_weight="bold",
                            fill="#f3f0e2", text_anchor="end"), class_="status")
    turn = f"TURN {state.get('turn')} OF {state.get('final_turn')}"
    phase = state.get("phase")
    head = f"{turn} · {str(state.get('player', '')).upper()} {PHASES.get(str(phase), '')}" if phase not in (
        "setup", "over") else f"{turn} · {PHASES.get(str(phase), '')}"
    lines = [text(x, m + 22, head, font_size="14", font_weight="bold", fill="#ffcf00", text_anchor="end",
                  class_="status-turn"),
             text(x, m + 38, waiting_on(state, w), font_size="10.5", fill="#f3f0e2", text_anchor="end",
                  class_="status-wait")]
    fire = []
    for side in ("us", "vc"):
        n = allotment(state, w, side) if phase not in ("setup",) else 0
        fire.append(f"{side.upper()} allotment {n}, in hand {hand_text(state, w, side)}")
    lines.append(text(x, m + 54, "Support fire — " + "; ".join(fire), font_size="10", fill="#d9dcc0",
                      text_anchor="end", class_="status-fire"))
    extra = scenario_text(state, w)
    if extra:
        lines.append(text(m + 12, m + 72, extra, font_size="9.5", fill="#d9dcc0", class_="status-scenario"))
    return el("g", "".join(lines), class_="status", data_band=str(BAND))
