"""US engineers: bridge repair (VB 18.2; A-10) and engineer bridging (VB 18.3; A-9).

Both in the US Movement or Mechanized Movement Phase, when no unit is in the middle of a move.
Range is counted in hexes, not MP: the engineer's MA from its hex to the nearer hex of the
hexside. Neither hex of the hexside may hold a VC unit or lie in a VC zone of control.
- Repair: one attempt per engineer per phase; a die, 5-6 repairs (T12). It does not use up the
  engineer's move.
- Bridging: one river hexside for the whole US side; a new site at most once per game turn; it
  stays bridged until another is designated (A-9). Any unit may then cross it as over a bridge
  (no river MP, the trail rate, no river row in combat). The Mekong portion of a split hex cannot
  be bridged in this version.
"""

from __future__ import annotations

from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Action, Fact, IllegalAction
from rules.core.hexgrid import hexside
from rules.vietnam_battles.board import hex_of, in_ezoc, land_at
from rules.vietnam_battles.data import World, hexpart

State = dict[str, Any]


def _engineers(s: State, w: World) -> list[str]:
    return sorted(u for u, r in s["units"].items() if r["status"] == "map" and w.units[u].engineer
                  and w.units[u].side == "us" and hex_of(s, u) is not None)  # chosen, then sorted: fewer to sort


def _safe(s: State, w: World, key: str) -> bool:
    """Neither hex of the site holds a VC unit or lies in a VC zone of control."""
    for h in key.split("/"):
        nodes = [f"{h}:{p}" for p in w.portions(h)] or [h]
        for n in nodes:
            occ = land_at(s, w, n)
            if (occ is not None and w.units[occ].side == "vc") or in_ezoc(s, w, "us", n):
                return False
    return True


def _in_range(s: State, w: World, u: str, key: str) -> bool:
    at = hexpart(str(hex_of(s, u)))
    ma = w.units[u].values(bool(s["units"][u]["reduced"]))[2]
    return min(w.distance(at, h) for h in key.split("/")) <= ma


def _idle(s: State) -> bool:
    return s["player"] == "us" and s["phase"] in ("movement", "mech_movement") and s["moving"] is None


def actions(s: State, w: World) -> list[Action]:
    if not _idle(s):
        return []
    out: list[Action] = []
    for u in _engineers(s, w):
        if u not in s["eng"]["done"]:
            out += [{"type": "repair", "unit": u, "hexside": k} for k in s["bridges_down"]
                    if _in_range(s, w, u, k) and _safe(s, w, k)]
    if s["eng"]["bridge_turn"] != s["turn"]:
        sites: set[str] = set()
        for u in _engineers(s, w):
            at = hexpart(str(hex_of(s, u)))
            ma = w.units[u].values(bool(s["units"][u]["reduced"]))[2]
            for h in w.grid.within(at, ma + 1):
                if h not in w.hexes:
                    continue
                for n in w.neighbours(h):
                    k = hexside(h, n)
                    if (w.is_river(h, n) and not w.bridged(h, n, s["bridges_down"]) and k != s["eng_bridge"]
                            and _in_range(s, w, u, k) and _safe(s, w, k)):
                        sites.add(k)
                if w.portions(h) and h != s["eng_bridge"] and w.distance(at, h) <= ma and _safe(s, w, h):
                    sites.add(h)  # VB 18.3: the Mekong portion of a split hex
        out += [{"type": "eng_bridge", "site": k} for k in sorted(sites)]
    return out


def is_legal(s: State, w: World, a: Action) -> bool:
    """`a in actions(s, w)`, asked of the named engineer (repair) or the named site (bridging)."""
    if not _idle(s):
        return False
    if a.get("type") == "repair" and set(a) == {"type", "unit", "hexside"}:
        u, k = a["unit"], a["hexside"]
        return (k in s["bridges_down"] and u in _engineers(s, w) and u not in s["eng"]["done"]
                and _in_range(s, w, u, k) and _safe(s, w, k))
    if a.get("type") != "eng_bridge" or set(a) != {"type", "site"} or s["eng"]["bridge_turn"] == s["turn"]:
        return False
    k = a["site"]
    if not isinstance(k, str):
        return False
    if "/" in k:  # a river hexside between two adjacent map hexes, written as hexside() writes it
        ends = k.split("/")
        if (len(ends) != 2 or not all(h in w.hexes for h in ends) or ends[1] not in w.neighbours(ends[0])
                or hexside(ends[0], ends[1]) != k or not w.is_river(ends[0], ends[1])
                or w.bridged(ends[0], ends[1], s["bridges_down"]) or k == s["eng_bridge"]):
            return False
        return _safe(s, w, k) and any(_in_range(s, w, u, k) for u in _engineers(s, w))
    if k not in w.hexes or not w.portions(k) or k == s["eng_bridge"]:
        return False  # VB 18.3: else the Mekong portion of a split hex
    return _safe(s, w, k) and any(w.distance(hexpart(str(hex_of(s, u))), k) <= _ma(s, w, u) for u in _engineers(s, w))


def _ma(s: State, w: World, u: str) -> int:
    return w.units[u].values(bool(s["units"][u]["reduced"]))[2]


def check_site(s: State, w: World, facts: list[Fact]) -> None:
    """VB 18.3 (A-9): the site stays bridged only while, in the US movement phases, an engineer keeps
    it within its range; otherwise it lapses."""
    k = s.get("eng_bridge")
    if k is None or s["player"] != "us" or s["phase"] not in ("movement", "mech_movement"):
        return
    site = k if "/" in k else f"{k}/{k}"
    if not any(_in_range(s, w, u, site) for u in _engineers(s, w)):
        s["eng_bridge"] = None
        facts.append(Fact(f"No engineer has {k} within range any more: the engineer bridge lapses", "VB 18.3",
                          "eng_bridge", {"site": k}))


def perform(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    if not is_legal(s, w, a):
        raise IllegalAction("that engineer task is not possible now", "VB 18.2" if a["type"] == "repair" else "VB 18.3")
    if a["type"] == "repair":
        u, k = a["unit"], a["hexside"]
        s["eng"]["done"].append(u)
        die = dice.roll(6, "VB 18.2 bridge repair")
        ok = die >= 5
        if ok:
            s["bridges_down"] = [b for b in s["bridges_down"] if b != k]
        facts.append(Fact(f"{w.units[u].name} tries to repair the bridge {k}: die {die}, "
                          + ("repaired" if ok else "it fails (5-6 needed)"), "VB 18.2", "repair",
                          {"unit": u, "hexside": k, "die": die, "repaired": ok}))
        return
    k = a["site"]
    s["eng_bridge"], s["eng"]["bridge_turn"] = k, s["turn"]
    what = f"the river hexside {k}" if "/" in k else f"the Mekong in {k}"
    facts.append(Fact(f"US engineers bridge {what}", "VB 18.3", "eng_bridge", {"site": k}))
