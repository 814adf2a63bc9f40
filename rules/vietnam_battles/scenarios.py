"""Scenario set-ups and victory conditions (VB 25.0-27.0)."""

from __future__ import annotations

from typing import Any

from rules.core.game import Fact
from rules.vietnam_battles.data import World

State = dict[str, Any]

# VB 25.0 The Boys of '67: unit key -> set-up position (a hex, or a hexside for the monitors).
BOYS67_SETUP: dict[str, str] = {
    "vc-514-1": "0717", "vc-514-2": "0816",
    "us-4-47-c": "0616", "us-4-47-b": "0615", "us-3-47-c": "0711", "us-5-cav": "0618",
    "us-3-47-b": "0917", "us-3-47-a": "1215", "us-mon-1": "0717/0718", "us-mon-3": "0712/0811",
}
# the units under the pre-placed Landing Zone / Landing Beach chits were transported on turn 1.
BOYS67_TRANSPORTED = {"us-3-47-c": "tango", "us-3-47-b": "slick", "us-3-47-a": "slick"}
BOYS67_RULES = {"body_count": True}


def boys67_setup(w: World) -> tuple[dict[str, str], dict[str, str]]:
    """(unit -> position, unit -> "slick"|"tango" for the pre-placed LZ/Landing Beach chits), from the
    counter data's scenario block when it has one (counters.json "scenarios.boys67.setup")."""
    sc = w.scenarios.get("boys67")
    if not sc:
        return dict(BOYS67_SETUP), dict(BOYS67_TRANSPORTED)
    at = {e["unit"]: e["at"] for e in sc["setup"]}
    how = {e["unit"]: e["chit"] for e in sc["setup"] if e.get("chit") and e.get("landed")}
    return at, how


def boys67_victory(s: State, w: World, facts: list[Fact], immediate: bool) -> dict[str, Any] | None:
    """VB 25.0. US victory: both VC units eliminated (certain at once: A-24). Draw: one eliminated or both
    reduced — but the US loses instead if any US unit has been eliminated (A-24: only the draw case)."""
    vc = [u for u in s["units"] if w.units[u].side == "vc"]
    dead = [u for u in vc if s["units"][u]["status"] == "dead"]
    reduced = [u for u in vc if s["units"][u]["status"] == "map" and s["units"][u]["reduced"]]
    us_lost = [u for u in s["eliminated"] if w.units[u].side == "us" and w.units[u].nationality != "ARVN"]
    if immediate:
        if len(dead) == len(vc):
            facts.append(Fact("Both VC units are eliminated", "VB 25.0", "game_end"))
            return {"winner": None}
        return None
    r: dict[str, str | None]
    if len(dead) == len(vc):
        r = {"winner": "us", "result": "US victory", "reason": "both VC units eliminated"}
    elif dead or len(reduced) == len(vc):
        what = "one VC unit eliminated" if dead else "both VC units reduced"
        if us_lost:
            r = {"winner": "vc", "result": "VC victory (US loss)",
                 "reason": f"{what}, but {len(us_lost)} US unit(s) eliminated"}
        else:
            r = {"winner": None, "result": "Draw", "reason": what}
    else:
        r = {"winner": "vc", "result": "VC victory", "reason": "the US neither eliminated a VC unit nor reduced both"}
    facts.append(Fact(f"{r['result']}: {r['reason']}", "VB 25.0", "victory", r))
    return r


SNOOPY_RULES = {"body_count": True}


def snoopy_units(w: World) -> tuple[dict[str, str], list[str]]:
    """VB 26.0: the engineer at 1606; every reinforcement and every VC unit starts off the map."""
    sc = w.scenarios["snoopys_nose"]
    placed = {e["unit"]: e["at"] for e in sc["setup"]}
    off = [u for g in sc["reinforcements"] for u in g["units"]] + list(sc["vc_setup"]["units"])
    return placed, off


def snoopy_victory(s: State, w: World, facts: list[Fact], immediate: bool) -> dict[str, Any] | None:
    """VB 26.0: the US wins by capturing every base camp by the end of the final turn (13, less one per US unit
    lost, VB 21.0); otherwise the VC wins, even with no unit left. No draw. Captures are permanent, so the
    US victory is certain (and the game ends) as soon as the fifth camp falls."""
    camps = s["camps"]
    real = s["secret"].get("real")
    if s["options"].get("real_chit"):  # VB 16.0 variant: only the real chit counts
        done = real is not None and camps[real]["status"] == "captured"
    else:
        done = len(camps) == 5 and all(c["status"] == "captured" for c in camps.values()) and not s["secret"]["camps"]
    if immediate:
        if done and s["phase"] != "setup":
            facts.append(Fact("The real VC chit is captured" if real else "All five VC base camps are captured",
                              "VB 26.0", "game_end"))
            return {"winner": "us"}
        return None
    n = sum(1 for c in camps.values() if c["status"] == "captured")
    if real is not None:
        r = {"winner": "us" if done else "vc", "result": "US victory" if done else "VC victory",
             "reason": f"the real chit was {real} ({'captured' if done else 'not captured'}; designer's variant)",
             "rule": "VB 16.0"}
    elif done:
        r = {"winner": "us", "result": "US victory", "reason": "all five VC base camps captured", "rule": "VB 26.0"}
    else:
        r = {"winner": "vc", "result": "VC victory", "reason": f"{n} of 5 base camps captured", "rule": "VB 26.0"}
    facts.append(Fact(f"{r['result']}: {r['reason']}", "VB 26.0", "victory", r))
    return r


def iron_units(w: World) -> tuple[dict[str, str], list[str]]:
    """VB 27.0: the monitor on 4223/4323; every other unit starts off the map (set up or entering)."""
    sc = w.scenarios["iron_triangle"]
    placed = {e["unit"]: e["at"] for e in sc["setup"] if "at" in e and not e.get("chit")}
    off = [u for e in sc["setup"] for u in (e.get("units") or ([e["unit"]] if e.get("chit") else []))]
    off += [u for g in sc["reinforcements"] for u in g["units"]] + list(sc["vc_setup"]["units"])
    return placed, off


def victory(s: State, w: World, facts: list[Fact], immediate: bool) -> dict[str, Any] | None:
    if s["scenario"] == "iron_triangle":
        from rules.vietnam_battles import iron

        return iron.victory(s, w, facts, immediate)
    if s["scenario"] == "snoopys_nose":
        return snoopy_victory(s, w, facts, immediate)
    return boys67_victory(s, w, facts, immediate)
