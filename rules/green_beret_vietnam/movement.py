"""Friendly movement (10.0-10.11, 11.0-11.2), step by step.

A move is a group (`state["moving"]`): `begin_move` names its first counter, `join` adds
counters of the same hex before the first step (teams, leaders, plus counters as movers; items
as carried counters), `step` enters one adjacent hex, `drop` leaves a member behind (before the
first step it simply unloads it), `end_move` completes the move.

The group model (9.1-9.3, 10.2-10.5; AMBIG-21, AMBIG-23, AMBIG-47):
* at most one non-black plus counter (a plus counter never carries another non-black one);
* without a team, the carrier is that non-black plus counter, else the one black-plus counter
  (black-plus counters cannot carry each other);
* capacity = every team's 6 + every leader's 1 + the carrier's (its noise value); load = every
  member other than the teams and the carrier (items, leaders, black-plus counters);
* MA with teams = the lowest team MA (after damage) + the one largest plus MA in the group +
  the minus MAs of everything carried; without teams = the carrier's plus MA + minus MAs;
  minus MAs still count once dropped (10.5); MP spent so far are spent by the whole group.
"""

from __future__ import annotations

from typing import Any

from rules.core.game import Fact, IllegalAction, State
from rules.green_beret_vietnam.board import at, camp_at, fact, name, names, team_value
from rules.green_beret_vietnam.data import World
from rules.green_beret_vietnam.effects import enemies_go_home

Move = dict[str, Any]


def can_begin(s: State, w: World, cid: str) -> bool:
    """10.2: teams (basic MA) and plus counters move by themselves; minus counters never."""
    rec = s["gb"].get(cid)
    if rec is None or rec["status"] != "map" or rec["moved"]:
        return False
    c = w.counters[cid]
    return c.cls == "team" or c.plus


def movers(s: State, w: World) -> list[str]:
    return [c for c in s["gb"] if can_begin(s, w, c)]


def carrier(w: World, members: list[str]) -> str | None:
    nonblack = [m for m in members if w.counters[m].plus and not w.counters[m].black]
    if nonblack:
        return nonblack[0]
    if any(w.counters[m].cls == "team" for m in members):
        return None
    plus = [m for m in members if w.counters[m].plus]
    return plus[0] if plus else None


def composition_problem(w: World, members: list[str]) -> str | None:
    """Why a group cannot travel together (None if it can)."""
    cs = [w.counters[m] for m in members]
    nonblack = [c for c in cs if c.plus and not c.black]
    if len(nonblack) > 1:
        return "a plus counter cannot carry another plus counter unless its plus MA is black (9.2, 10.4)"
    has_team = any(c.cls == "team" for c in cs)
    if not has_team and not nonblack and sum(1 for c in cs if c.plus) > 1:
        return "black-plus counters cannot carry each other (10.4)"
    if not has_team and not any(c.plus for c in cs):
        return "a minus counter cannot move by itself (10.2, 10.5)"
    return None


def capacity(w: World, members: list[str]) -> tuple[int, int]:
    """(load, capacity) of a group (9.1-9.3, AMBIG-21)."""
    car = carrier(w, members)
    cap = sum(w.counters[m].capacity for m in members if w.counters[m].cls in ("team", "leader") or m == car)
    load = sum(1 for m in members if w.counters[m].cls != "team" and m != car)
    return load, cap


def minus_total(w: World, members: list[str]) -> int:
    return sum(w.counters[m].ma for m in members if w.counters[m].move == "minus")


def total_ma(s: State, w: World, members: list[str], minus: int) -> int:
    """10.3-10.5: total MA of the group."""
    tms = [m for m in members if w.counters[m].cls == "team"]
    if tms:
        base = min(team_value(s, w, t, "ma") for t in tms)
        plus = max([w.counters[m].ma for m in members if w.counters[m].plus] or [0])
        return base + plus + minus
    car = carrier(w, members)
    return (w.counters[car].ma if car else 0) + minus


def remaining(s: State, w: World, mv: Move) -> int:
    if mv["min_move"]:
        return 0
    minus = mv["minus"] if mv["steps"] else minus_total(w, mv["members"])
    return total_ma(s, w, mv["members"], int(minus)) - int(mv["spent"])


def join_problem(s: State, w: World, mv: Move, cid: str) -> str | None:
    rec = s["gb"].get(cid)
    if rec is None or rec["status"] != "map" or rec["hex"] != mv["hex"]:
        return "only counters in the moving group's hex can join it"
    if cid in mv["members"]:
        return "already in the group"
    if rec["moved"]:
        return "it has moved (or was dropped) this turn: each counter moves once (10.1)"
    if mv["steps"]:
        return "counters join a move before its first step (10.4: stacked from the start; AMBIG-23)"
    members = mv["members"] + [cid]
    why = composition_problem(w, members)
    if why:
        return why
    load, cap = capacity(w, members)
    if load > cap:
        return f"over the carrying limit: {load} counters to carry, room for {cap} (9.1-9.3)"
    return None


def entry_cost(s: State, w: World, mv: Move, h: str) -> tuple[int | None, str]:
    """Cost to enter h, or (None, why not) (10.7, 11.0-11.2, AMBIG-27)."""
    hx = w.hexes[h]
    cs = [w.counters[m] for m in mv["members"]]
    blue = any(c.blue for c in cs)
    if any(c.water_only for c in cs) and not hx.water:
        return None, "the PBR moves only in full-water and stream hexes (11.2)"
    if hx.full_water:
        if not blue:
            return None, "full water: only with a counter bearing the blue hexagon (11.0)"
        if mv["water"] == "out":
            return None, "the full-water hexes of one move form one connected stretch (11.1, AMBIG-27)"
        return w.water_mp, "water"
    if hx.stream and blue:
        return w.water_mp, "water"
    assert hx.mp is not None
    return hx.mp, "land"


def legal_steps(s: State, w: World, mv: Move) -> list[str]:
    out = []
    left = remaining(s, w, mv)
    for n in w.neighbours(mv["hex"]):
        cost, _ = entry_cost(s, w, mv, n)
        if cost is None:
            continue
        if cost <= left or mv["steps"] == 0:  # 10.8 minimum move
            out.append(n)
    return out


def has_mover(w: World, members: list[str]) -> bool:
    return any(w.counters[m].cls == "team" or w.counters[m].plus for m in members)


def drop_problem(s: State, w: World, mv: Move, cid: str) -> str | None:
    if cid not in mv["members"]:
        return "not in the moving group"
    rest = [m for m in mv["members"] if m != cid]
    if not rest or not has_mover(w, rest):
        return None
    why = composition_problem(w, rest)
    if why:
        return why + ": drop the other counter first"
    load, cap = capacity(w, rest)
    if load > cap:
        return f"the rest would be over its carrying limit ({load} for {cap}): drop carried counters first (9.3)"
    return None


# -- actions -----------------------------------------------------------------------------------
def begin(s: State, w: World, cid: str) -> None:
    if not can_begin(s, w, cid):
        raise IllegalAction(f"{name(w, cid)} cannot start a move now (10.1, 10.2)", "GBV 10.2")
    s["moving"] = {"hex": s["gb"][cid]["hex"], "start": s["gb"][cid]["hex"], "members": [cid], "minus": 0,
                   "spent": 0, "steps": 0, "min_move": False, "water": "none", "path": [], "ma": 0,
                   "started": [cid], "pending": []}


def join(s: State, w: World, cid: str) -> None:
    why = join_problem(s, w, s["moving"], cid)
    if why:
        raise IllegalAction(f"{name(w, cid)} cannot join: {why}", "GBV 9.0")
    s["moving"]["members"].append(cid)


def step(s: State, w: World, h: str, facts: list[Fact]) -> None:
    mv = s["moving"]
    if h not in w.neighbours(mv["hex"]):
        raise IllegalAction(f"{h} is not next to {mv['hex']} (10.1)", "GBV 10.1")
    cost, kind = entry_cost(s, w, mv, h)
    if cost is None:
        raise IllegalAction(f"cannot enter {h}: {kind}", "GBV 11.0")
    if mv["steps"] == 0:
        mv["minus"] = minus_total(w, mv["members"])
        mv["ma"] = total_ma(s, w, mv["members"], mv["minus"])
        mv["started"] = list(mv["members"])
    left = remaining(s, w, mv)
    if cost > left:
        if mv["steps"]:
            raise IllegalAction(f"{h} costs {cost} MP; {left} left (10.3)", "GBV 10.3")
        mv["min_move"] = True  # 10.8: all its MA for one hex
        facts.append(fact(f"Minimum move: {h} costs {cost} MP, more than the group's {left}; it spends all its MA "
                          "to enter it (a quiet move)", "10.8", "move", hex=h, cost=cost, ma=left))
    mv["spent"] += cost
    mv["steps"] += 1
    if w.hexes[h].full_water:
        mv["water"] = "in"
    elif mv["water"] == "in":
        mv["water"] = "out"
    mv["hex"] = h
    mv["path"].append(h)
    for m in mv["members"]:
        s["gb"][m]["hex"] = h
    if camp_at(s, h) is not None:
        cleared = [m for m in mv["members"] if w.counters[m].cls == "team" and s["gb"][m]["detected"]]
        for m in cleared:
            s["gb"][m]["detected"] = False
        if cleared:
            facts.append(fact(f"{names(w, cleared)} enter the base camp at {h}: no longer detected", "12.5",
                              "detection", hex=h, teams=cleared))
            enemies_go_home(s, w, facts)


def drop(s: State, w: World, cid: str, facts: list[Fact]) -> list[dict[str, Any]]:
    """Leave a member behind (10.1 dropping, 10.3 stopping part of a stack). Returns tasks to run."""
    mv = s["moving"]
    why = drop_problem(s, w, mv, cid)
    if why:
        raise IllegalAction(f"cannot drop {name(w, cid)}: {why}", "GBV 10.3")
    mv["members"].remove(cid)
    tasks: list[dict[str, Any]] = []
    if mv["steps"]:
        rec = s["gb"][cid]
        rec["moved"] = True
        if w.counters[cid].cls == "item":
            rec["left"] = True
        facts.append(fact(f"{name(w, cid)} dropped in {mv['hex']}: it cannot move again this turn", "10.1", "move",
                          counter=cid, hex=mv["hex"]))
        if w.counters[cid].cls == "team":
            # its move is complete; its mission and noise checks run when the group's move ends,
            # so that an evasion there (12.3) never pulls counters out of a move under way
            mv["pending"] += end_tasks(mv, [cid])
    if not mv["members"] or not has_mover(w, mv["members"]):
        tasks += end(s, w, facts)
    return tasks


def end_tasks(mv: Move, tms: list[str]) -> list[dict[str, Any]]:
    if not tms:
        return []
    out: list[dict[str, Any]] = [{"t": "mission_check", "hex": mv["hex"]}]
    if mv["steps"]:
        out.append({"t": "noise", "hex": mv["hex"], "quiet": mv["steps"] == 1, "teams": tms})
    return out


def end(s: State, w: World, facts: list[Fact]) -> list[dict[str, Any]]:
    """End the group's move (10.1: it cannot be taken back). Returns the mission check and the
    noise check to run (7.1, 10.10, 12.0)."""
    mv = s["moving"]
    s["moving"] = None
    for m in mv["members"]:
        s["gb"][m]["moved"] = True
        if w.counters[m].cls == "item":
            s["gb"][m]["left"] = False
    if mv["steps"]:
        spent = "all its MA: minimum move" if mv["min_move"] else f"{mv['spent']} MP spent of {mv['ma']}"
        text = f"{names(w, mv['started'])} move {' → '.join([mv['start']] + mv['path'])} ({spent})"
        gone = [m for m in mv["started"] if m not in mv["members"]]
        if gone:
            text += f"; dropped on the way: {names(w, gone)}"
        facts.append(fact(text, "10.3", "move", members=mv["started"], path=[mv["start"]] + mv["path"],
                          spent=mv["spent"], ma=mv["ma"]))
    tms = [m for m in mv["members"] if w.counters[m].cls == "team"]
    return list(mv["pending"]) + end_tasks(mv, tms)


def take(s: State, w: World, item: str, facts: list[Fact]) -> None:
    """10.11: an eligible GB counter takes up items left in its hex."""
    rec = s["gb"].get(item)
    if rec is None or rec["status"] != "map" or w.counters[item].cls != "item" or not rec["left"]:
        raise IllegalAction("only an item left in a hex can be taken up (10.11)", "GBV 10.11")
    if not any(w.counters[c].cls == "team" for c in at(s, rec["hex"])):
        raise IllegalAction("no Green Beret team there to take it up (10.11)", "GBV 10.11")
    rec["left"] = False
    facts.append(fact(f"{name(w, item)} taken up in {rec['hex']}", "10.11", "move", item=item))


def takeable(s: State, w: World) -> list[str]:
    out = []
    for c, rec in s["gb"].items():
        if rec["status"] == "map" and rec["left"] and any(w.counters[x].cls == "team" for x in at(s, rec["hex"])):
            out.append(c)
    return out
