"""Set-up: Belgium then Germany place every unit in their own country (AoB 2, AoB 4)."""

from __future__ import annotations

from rules.assault_on_belgium.board import fact, land_units, name, side_adj, side_name
from rules.assault_on_belgium.data import HOME, World
from rules.core.game import Action, Fact, IllegalAction, State

COUNTRY_NAME = {"BE": "Belgium", "DE": "Germany"}
RULE = {"belgium": "AoB 2.1", "germany": "AoB 2.2"}


def unplaced(s: State, w: World, side: str) -> list[str]:
    return [u for u in w.side_units(side) if s["units"][u]["status"] == "unplaced"]


def placed(s: State, w: World, side: str) -> list[str]:
    return [u for u in w.side_units(side) if s["units"][u]["status"] == "active"]


def home_hexes(w: World, side: str) -> list[str]:
    return [lab for lab, h in w.hexes.items() if h.country == HOME[side] and not h.is_sea]


def land_stacks(s: State, w: World, side: str) -> dict[str, list[str]]:
    """The side's active land units by hex, in OOB order (`land_units` of every hex at once)."""
    stacks: dict[str, list[str]] = {}
    for uid in land_units(s, w, side):
        stacks.setdefault(s["units"][uid]["hex"], []).append(uid)
    return stacks


def place_problem(s: State, w: World, side: str, uid: str, hex_: str,
                  stacks: dict[str, list[str]] | None = None) -> IllegalAction | None:
    """Why `uid` may not be set up on `hex_`, or None (`stacks`: `land_stacks`, when many hexes are asked)."""
    h = w.hexes.get(hex_)
    if h is None:
        return IllegalAction(f"there is no hex {hex_} on the map")
    if h.is_sea:
        return IllegalAction(f"{hex_} is a sea hex", "AoB 5.7")
    if h.country != HOME[side]:
        return IllegalAction(
            f"{side_name(side)} sets up in {COUNTRY_NAME[HOME[side]]}; {hex_} is not", RULE[side])
    if w.units[uid].is_land:
        there = [u for u in (stacks.get(hex_, []) if stacks is not None else land_units(s, w, side, hex_)) if u != uid]
        if len(there) >= 3:
            return IllegalAction(f"stacking: {hex_} already holds 3 {side_adj(side)} land units", "AoB 4.1")
    return None


def candidates(s: State, w: World, side: str) -> list[Action]:
    out: list[Action] = []
    sel = s["selected"]
    for uid in unplaced(s, w, side):
        if uid != sel:
            out.append({"type": "select", "unit": uid})
    stacks = land_stacks(s, w, side)
    if sel is not None:
        for lab in home_hexes(w, side):
            if place_problem(s, w, side, sel, lab, stacks) is None:
                out.append({"type": "place", "hex": lab})
    for uid in placed(s, w, side):
        out.append({"type": "unplace", "unit": uid})
    if _standard_plan(s, w, side, stacks)[0]:
        out.append({"type": "standard_setup"})
    if not unplaced(s, w, side):
        out.append({"type": "done_setup"})
    return out


def _own_unit(w: World, side: str, uid: object) -> str:
    if not isinstance(uid, str) or uid not in w.units:
        raise IllegalAction(f"there is no unit {uid!r}")
    if w.units[uid].side != side:
        raise IllegalAction(f"{name(w, uid)} is not a {side_adj(side)} unit", RULE[side])
    return uid


def check(s: State, w: World, side: str, action: Action) -> None:
    kind = action["type"]
    if kind == "select":
        uid = _own_unit(w, side, action["unit"])
        if s["units"][uid]["status"] != "unplaced":
            raise IllegalAction(f"{name(w, uid)} is already placed; unplace it first", RULE[side])
        if uid == s["selected"]:
            raise IllegalAction(f"{name(w, uid)} is already selected")
    elif kind == "place":
        if s["selected"] is None:
            raise IllegalAction("select a unit to place first", RULE[side])
        problem = place_problem(s, w, side, s["selected"], action["hex"])
        if problem:
            raise problem
    elif kind == "unplace":
        uid = _own_unit(w, side, action["unit"])
        if s["units"][uid]["status"] != "active":
            raise IllegalAction(f"{name(w, uid)} is not on the map", RULE[side])
    elif kind == "standard_setup":
        if not _standard_plan(s, w, side)[0]:
            raise IllegalAction("the standard set-up would place no unit: all placed, or their hexes are full", RULE[side])
    elif kind == "done_setup":
        left = unplaced(s, w, side)
        if left:
            raise IllegalAction(f"{len(left)} unit(s) still to place, e.g. {name(w, left[0])}", RULE[side])
    else:
        raise IllegalAction(f"{kind} is not an action of the set-up")


def _standard_plan(s: State, w: World, side: str,
                   stacks: dict[str, list[str]] | None = None) -> tuple[list[tuple[str, str]], list[str]]:
    """Which unplaced units the OOB's default set-up can place, in OOB order, and which not."""
    stacks = land_stacks(s, w, side) if stacks is None else stacks
    counts: dict[str, int] = {}
    plan: list[tuple[str, str]] = []
    skipped: list[str] = []
    for uid in unplaced(s, w, side):
        lab = w.default_setup.get(side, {}).get(uid)
        if lab is None:
            skipped.append(uid)
            continue
        problem = place_problem(s, w, side, uid, lab, stacks)
        extra = counts.get(lab, 0) if w.units[uid].is_land else 0
        if problem is None and w.units[uid].is_land and len(stacks.get(lab, [])) + extra >= 3:
            problem = IllegalAction("full", "AoB 4.1")
        if problem is not None:
            skipped.append(uid)
            continue
        if w.units[uid].is_land:
            counts[lab] = extra + 1
        plan.append((uid, lab))
    return plan, skipped


def _put(s: State, uid: str, lab: str) -> None:
    st = s["units"][uid]
    st["status"] = "active"
    st["hex"] = lab


def perform(s: State, w: World, side: str, action: Action, facts: list[Fact]) -> None:
    kind = action["type"]
    if kind == "select":
        s["selected"] = action["unit"]
    elif kind == "place":
        uid = s["selected"]
        _put(s, uid, action["hex"])
        s["selected"] = None
        facts.append(fact(f"{name(w, uid)} set up in {w.hex_title(action['hex'])}", RULE[side], "setup",
                          unit=uid, hex=action["hex"]))
    elif kind == "unplace":
        uid = action["unit"]
        st = s["units"][uid]
        old = st["hex"]
        st["status"], st["hex"] = "unplaced", None
        facts.append(fact(f"{name(w, uid)} taken back from {old}", RULE[side], "setup", unit=uid, hex=old))
    elif kind == "standard_setup":
        plan, skipped = _standard_plan(s, w, side)
        for uid, lab in plan:
            _put(s, uid, lab)
        if s["selected"] in [u for u, _ in plan]:
            s["selected"] = None
        text = f"{side_name(side)} standard set-up: {len(plan)} unit(s) placed"
        if skipped:
            text += "; still to place by hand: " + ", ".join(name(w, u) for u in skipped)
        facts.append(fact(text, RULE[side], "setup", units={u: lab for u, lab in plan}))
    elif kind == "done_setup":
        s["selected"] = None
        facts.append(fact(f"{side_name(side)} has finished setting up", RULE[side], "setup"))
