"""The VC's secret set-up for Snoopy's Nose (VB 26.0, 16.0; A-30, A-37; H2, H3).

The VC sets up first (A-30). Steps, each an action of the VC seat:
1. `camp {hex}` five times: the base camps, jungle hexes only, one per hex, recorded secretly.
2. For each VC unit, `place {unit}` (openly) or `hide {unit}` (secretly), then `at {hex}`. The 2d6
   rolled at set-up (public) is the attack strength the open units must reach before any unit may
   be hidden; hidden units go in jungle only. No VC unit in a village, 0934, 1606 or an all-water
   hex (the map's `vc_setup_forbidden` region), no two VC units in one position.
The secret choices are facts addressed to the VC only; the US seat reads "a unit is set up hidden".
When the last unit is placed, game turn 1 begins.
"""

from __future__ import annotations

from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Action, Fact, IllegalAction
from rules.vietnam_battles.board import land_at, occupancy
from rules.vietnam_battles.data import World, hexpart

State = dict[str, Any]
CAMPS = 5


def _jungle(w: World, h: str) -> bool:
    return w.terrain_of(h) == "jungle"


def _forbidden(w: World, h: str) -> bool:
    bad = w.__dict__.get("_vc_forbidden")  # the map's region, read once per map
    if bad is None:
        bad = w.__dict__["_vc_forbidden"] = frozenset(w.regions.get("vc_setup_forbidden", [])) | {"0934", "1606"}
    return hexpart(h) in bad or w.terrain_of(h) == "village" or w.prohibited(h)


def _unplaced(s: State, w: World) -> list[str]:
    return [u for u, r in sorted(s["units"].items()) if r["status"] == "off" and w.units[u].side == "vc"
            and u not in s["secret"]["hidden"]]


def _open_attack(s: State, w: World) -> int:
    return sum(w.units[u].attack for u, r in s["units"].items() if r["status"] == "map" and w.units[u].side == "vc")


def _nodes(w: World) -> list[str]:
    out: list[str] = []
    for h in sorted(w.hexes):
        out += [f"{h}:{p}" for p in w.portions(h)] or [h]
    return out


def _node_set(w: World) -> frozenset[str]:
    """`_nodes(w)` as a set, made once per map."""
    got = w.__dict__.get("_vc_nodes")
    if got is None:
        got = w.__dict__["_vc_nodes"] = frozenset(_nodes(w))
    return got


def _taken(s: State, w: World, node: str) -> bool:
    return land_at(s, w, node) is not None or node in s["secret"]["hidden"].values()


def _variant(s: State) -> bool:
    return bool(s["options"].get("real_chit"))


def legal(s: State, w: World) -> list[Action]:
    sec = s["secret"]
    if _variant(s):
        # VB 16.0 designer's variant: 5 camps + 3 caches openly anywhere, then one secretly real
        if len(s["camps"]) < CAMPS + 3:
            used = {c["hex"] for c in s["camps"].values()}
            return [{"type": "camp", "hex": h} for h in sorted(w.hexes)
                    if h not in used and not w.prohibited(h) and not w.portions(h)]
        if sec.get("real") is None:
            return [{"type": "designate", "camp": c} for c in sorted(s["camps"])]
    elif len(sec["camps"]) < CAMPS:
        return [{"type": "camp", "hex": h} for h in sorted(w.hexes) if _jungle(w, h) and h not in sec["camps"].values()]
    pend = s["vc_setup"]["pending"]
    if pend is None:
        out: list[Action] = [{"type": "place", "unit": u} for u in _unplaced(s, w)]
        if _open_attack(s, w) >= s["vc_setup"]["roll"]:
            out += [{"type": "hide", "unit": u} for u in _unplaced(s, w)]
        return out
    with occupancy(s, w):  # reads the state only: who is where answers from one index
        return [{"type": "at", "hex": n} for n in _nodes(w)
                if not _forbidden(w, n) and not _taken(s, w, n) and (not pend["hidden"] or _jungle(w, n))]


def is_legal(s: State, w: World, a: Action) -> bool:
    """`a in legal(s, w)`; a unit's place (`at`) is asked of that one place, not listed among all."""
    if not (isinstance(a, dict) and a.get("type") == "at" and set(a) == {"type", "hex"}
            and s["vc_setup"]["pending"] is not None):
        return a in legal(s, w)
    sec = s["secret"]
    if _variant(s):
        if len(s["camps"]) < CAMPS + 3 or sec.get("real") is None:
            return False  # the chits come first (VB 16.0, the designer's variant)
    elif len(sec["camps"]) < CAMPS:
        return False  # the camps come first
    n, hidden = a["hex"], s["vc_setup"]["pending"]["hidden"]
    return (isinstance(n, str) and n in _node_set(w) and not _forbidden(w, n) and not _taken(s, w, n)
            and (not hidden or _jungle(w, n)))


def perform(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact], start: Any) -> None:
    if not is_legal(s, w, a):
        raise IllegalAction("that set-up step is not allowed", "VB 26.0")
    sec = s["secret"]
    t = a["type"]
    if t == "designate":
        sec["real"] = a["camp"]
        facts.append(Fact(f"The VC designates {a['camp']} as the real one", "VB 16.0", "secret_setup",
                          {"camp": a["camp"]}, visible_to=("vc",)))
        facts.append(Fact("The VC secretly designates the real chit", "VB 16.0", "setup"))
        return
    if t == "camp" and _variant(s):
        n = len(s["camps"])
        cid = f"camp-{n + 1}" if n < CAMPS else f"cache-{n - CAMPS + 1}"
        s["camps"][cid] = {"hex": a["hex"], "status": "revealed"}
        facts.append(Fact(f"VC chit {cid} placed in {a['hex']} (designer's variant)", "VB 16.0", "setup",
                          {"camp": cid, "hex": a["hex"]}))
        return
    if t == "camp":
        cid = f"camp-{len(sec['camps']) + 1}"
        sec["camps"][cid] = a["hex"]
        s["camps"][cid] = {"hex": None, "status": "hidden"}
        facts.append(Fact(f"The VC records base camp {cid} in {a['hex']}", "VB 16.0", "secret_setup",
                          {"camp": cid, "hex": a["hex"]}, visible_to=("vc",)))
        facts.append(Fact(f"The VC secretly records base camp {cid}", "VB 16.0", "setup", {"camp": cid}))
        return
    if t in ("place", "hide"):
        s["vc_setup"]["pending"] = {"unit": a["unit"], "hidden": t == "hide"}
        return
    pend = s["vc_setup"]["pending"]
    u, node = pend["unit"], a["hex"]
    s["vc_setup"]["pending"] = None
    d = w.units[u]
    if pend["hidden"]:
        sec["hidden"][u] = node
        s["units"][u]["status"] = "hidden"
        facts.append(Fact(f"{d.name} is set up hidden in {node}", "VB 26.0", "secret_setup", {"unit": u, "hex": node},
                          visible_to=("vc",)))
        facts.append(Fact(f"The VC sets up {d.name} hidden", "VB 26.0", "setup", {"unit": u}))
    else:
        s["units"][u]["status"], s["units"][u]["at"] = "map", node
        facts.append(Fact(f"{d.name} is set up openly in {node} (open attack {_open_attack(s, w)} of the "
                          f"{s['vc_setup']['roll']} rolled)", "VB 26.0", "setup", {"unit": u, "hex": node}))
    if not _unplaced(s, w):
        s["vc_setup"] = None
        start(s, w, dice, facts)
