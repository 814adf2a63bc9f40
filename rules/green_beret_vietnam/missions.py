"""Missions: drawing and placing (3.4, 7.0), accomplishing (7.0, 7.1, 10.10), abandoning (7.2),
the optional assassination rule (16.0)."""

from __future__ import annotations

from typing import Any

from rules.core.chits import draw
from rules.core.dice import DiceSource
from rules.core.game import Fact, State
from rules.green_beret_vietnam.board import camp_at, fact, name, requirement_met, teams, teams_at
from rules.green_beret_vietnam.data import World
from rules.green_beret_vietnam.effects import eliminate_leader, eliminate_team

KILL_DOUBLE_AGENT = "Kill Double-Agent"
Task = dict[str, Any]


def band(die: int) -> str:
    return ("1-2", "3-4", "5-6")[(die - 1) // 2]


def draw_and_place(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    """7.0: draw one mission at random; 1d6 on the Mission Placement Table gives its hex. On a hex
    holding a GB team or a base camp it is accomplished at once (even if detected: AMBIG-17)."""
    before = s["mission_pool"]
    mid, s["mission_pool"] = draw(before, dice, "7.0 draw a mission")
    m = w.missions[mid]
    die = dice.roll(6, "7.0 mission placement")
    h = m.hex_for(die)
    s["mission"] = {"id": mid, "hex": h}
    req = m.printed if m.requires else "nothing"
    facts.append(fact(f"Mission drawn: {m.name} ({m.pp} PP; needs {req}). Rolled {die} on d6 ({band(die)}): "
                      f"placed in {w.title(h)}", "7.0", "mission", mission=mid, die=die, hex=h,
                      pool_die=before.index(mid) + 1 if len(before) > 1 else None,
                      left_in_pool=len(s["mission_pool"])))
    if teams_at(s, w, h) or camp_at(s, h) is not None:
        why = "a Green Beret team" if teams_at(s, w, h) else "a base camp"
        accomplish(s, w, f"placed on {why}: accomplished automatically", "7.0", facts)


def accomplish(s: State, w: World, how: str, rule: str, facts: list[Fact]) -> None:
    mid = s["mission"]["id"]
    m = w.missions[mid]
    s["mission"] = None
    s["tally"]["accomplished"].append(mid)
    s["pp"] += m.pp
    facts.append(fact(f"Mission {m.name} {how}: +{m.pp} PP (now {s['pp']}); to the Missions Accomplished box",
                      rule, "mission", mission=mid, pp=m.pp, accomplished=len(s["tally"]["accomplished"])))
    if s["options"].get("assassination") and m.name == KILL_DOUBLE_AGENT:
        s["agenda"].insert(0, {"t": "assassination", "outcome": "accomplished"})


def check(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    """7.1 / 10.10: a GB team that ends its move in the mission hex with the required items there."""
    h = task["hex"]
    if s["mission"] is None or s["mission"]["hex"] != h or not teams_at(s, w, h):
        return
    ok, missing = requirement_met(s, w, s["mission"]["id"], h)
    m = w.missions[s["mission"]["id"]]
    if not ok:
        facts.append(fact(f"{m.name} not accomplished in {h}: missing {'; '.join(missing)}", "6.1", "mission",
                          mission=m.id, missing=missing))
        return
    accomplish(s, w, f"accomplished by {', '.join(name(w, t) for t in teams_at(s, w, h))} stopping in {h}",
               "7.1", facts)


def abandon(s: State, w: World, facts: list[Fact]) -> None:
    """7.2: the mission is removed, has no value, counts against the score, never returns (AMBIG-19)."""
    mid = s["mission"]["id"]
    m = w.missions[mid]
    s["mission"] = None
    s["tally"]["abandoned"].append(mid)
    facts.append(fact(f"Mission {m.name} abandoned (it counts against the victory level)", "7.2", "mission",
                      mission=mid))
    if s["options"].get("assassination") and m.name == KILL_DOUBLE_AGENT:
        s["agenda"].insert(0, {"t": "assassination", "outcome": "abandoned"})


def assassination_wins(outcome: str, d6: int, d10: int) -> bool:
    """16.0: accomplished -> d6 > d10 gains; abandoned -> d10 > d6 gains."""
    return d6 > d10 if outcome == "accomplished" else d10 > d6


def assassination(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    """16.0 (optional): one d6 and one d10 right after Kill Double-Agent is accomplished or abandoned."""
    if task.get("stage") is None:
        a = dice.roll(6, "16.0 assassination d6")
        b = dice.roll(10, "16.0 assassination d10")
        win = assassination_wins(task["outcome"], a, b)
        cmp = (">" if a > b else "≤") if task["outcome"] == "accomplished" else (">" if b > a else "≤")
        pair = f"d6 {a} {cmp} d10 {b}" if task["outcome"] == "accomplished" else f"d10 {b} {cmp} d6 {a}"
        if win:
            s["pp"] += a + b
            facts.append(fact(f"Assassination ({task['outcome']}): {pair}: +{a + b} PP (now {s['pp']}), which may be "
                              "spent at once", "16.0", "assassination", d6=a, d10=b, gain=a + b))
            s["decision"] = {"kind": "spend"}
            return
        facts.append(fact(f"Assassination ({task['outcome']}): {pair}: the leak costs one Green Beret team and one "
                          "commander or officer", "16.0", "assassination", d6=a, d10=b, gain=0))
        task["stage"] = "team"
    if task["stage"] == "team":
        options = teams(s, w)
        if task.get("choice") is None and len(options) > 1:
            s["decision"] = {"kind": "assassinate_team", "options": options}
            s["agenda"].insert(0, task)
            return
        if options:
            t = task.get("choice") or options[0]
            h = s["gb"][t]["hex"]
            eliminate_team(s, w, t, "assassinated after the double agent's leak", "16.0", facts)
            # AMBIG-45b: its hex suffers the 13.1 item loss; then the leader.
            s["agenda"][0:0] = [{"t": "item_loss", "hex": h, "k": None, "claim": True}]
        task.update(stage="leader", choice=None)
        s["agenda"].insert(1 if options else 0, task)
        return
    if task["stage"] == "leader":
        options = [c for c, x in s["gb"].items() if x["status"] == "map" and w.counters[c].cls == "leader"]
        if not options:
            return
        if task.get("choice") is None and len(options) > 1:
            s["decision"] = {"kind": "assassinate_leader", "options": options}
            s["agenda"].insert(0, task)
            return
        eliminate_leader(s, w, task.get("choice") or options[0], "assassinated after the double agent's leak",
                         "16.0", facts)

