"""Event markers (LnL 1.7), the demo's reinforcements and its victory check (scenario: ours)."""

from __future__ import annotations

from typing import Any

from rules.core.game import Fact
from rules.lock_n_load import units as U
from rules.lock_n_load.data import World
from rules.lock_n_load.los import cached_los

State = dict[str, Any]


def check(s: State, w: World, facts: list[Fact]) -> None:
    """1.7: an occupation marker activates when its side occupies the hex; a line-of-sight marker
    when a unit of its side traces LOS to the hex (A46: either side if none is named). The paragraph
    is secret from both seats until then."""
    on_map: list[str] | None = None  # worked out at the first marker not yet revealed: no unit moves here
    smoke = s["smoke"]
    for eid, e in sorted(s["events"].items()):
        if e["revealed"]:
            continue
        if on_map is None:
            on_map = U.on_map(s)
        sides = [e["side"]] if e.get("side") else list(U.SIDES)
        hit = False
        for side in sides:
            mine = [u for u in on_map if s["units"][u]["side"] == side]
            if e["type"] == "occupation":
                hit = any(s["units"][u]["at"] == e["hex"] for u in mine)
            else:
                hit = any(not cached_los(w, s["units"][u]["at"], e["hex"], smoke).blocked for u in mine)
            if hit:
                break
        if not hit:
            continue
        paragraph = s["secret"]["events"][eid]
        e["revealed"] = True
        e["paragraph"] = paragraph
        facts.append(Fact(f"Event {eid} in {e['hex']} activates: {paragraph}", "LnL 1.7", "event",
                          {"event": eid, "hex": e["hex"]}))
        if eid in s["secret"]["effects"]:
            eff = s["secret"]["effects"][eid]
            if eff["type"] == "cache":
                s["cache"] = True
            elif eff["type"] == "reinforcement":
                s["pending"].append(eff["unit"])


def reinforce(s: State, w: World, facts: list[Fact]) -> None:
    """The demo's E2: the reinforcement arrives in the next Rally Phase (if its hex is free of enemies;
    otherwise in the nearest hex that is)."""
    for rec in s["pending"]:
        uid = rec["id"]
        at = rec["at"]
        if U.units_in(s, at, U.other(rec["side"])):
            free = [h for h in w.board.hexes() if not U.units_in(s, h, U.other(rec["side"]))]
            at = min(free, key=lambda h: (w.board.distance(h, rec["at"]), h))
        s["units"][uid] = new_unit(rec["side"], rec["kind"], at)
        facts.append(Fact(f"Reinforcement: {w.kinds[rec['kind']].name} {uid} enters in {at}", "LnL 1.7 (scenario)",
                          "reinforcement", {"unit": uid, "hex": at}))
    s["pending"] = []


def new_unit(side: str, kind: str, at: str | None) -> dict[str, Any]:
    return {"side": side, "kind": kind, "at": at, "shaken": False, "wounds": 0, "marker": "", "am_fired": False,
            "activated": False, "rallied": False, "sws": [], "melee_locked": False, "late": False, "dead": False}


def holds(s: State, w: World, hex_id: str, side: str) -> bool:
    return any(U.kind(s, w, u).is_mmc and not s["units"][u]["shaken"] for u in U.units_in(s, hex_id, side))


def finish(s: State, w: World, facts: list[Fact]) -> None:
    """The demo's victory (scenario, ours): the US needs two of the three hamlet hexes (the cache of
    E1 counts as one), each held by a Good Order US MMC with no Good Order VC MMC in it."""
    objs = s["objectives"]
    vc = [h for h in objs if holds(s, w, h, "vc")]
    us = sum(1 for h in objs if holds(s, w, h, "us") and h not in vc) + (1 if s["cache"] else 0)
    winner = "us" if us >= 2 else "vc"
    reason = (f"the US holds {us} of the hamlet's objectives"
              + (" (with the rice cache)" if s["cache"] else "")
              + (f"; the VC still hold {', '.join(vc)}" if vc else ""))
    s["phase"] = "over"
    s["result"] = {"winner": winner, "result": f"{winner}_win", "reason": reason, "rule": "demo scenario (ours)"}
    for e in s["events"].values():
        if not e["revealed"]:
            e["paragraph"] = None
    facts.append(Fact(f"End of turn {s['turn']}: {winner.upper()} wins — {reason}", "demo scenario", "result",
                      {"winner": winner}))
