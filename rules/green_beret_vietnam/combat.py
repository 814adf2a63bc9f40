"""Combat (13.0-13.3), damage (13.1), naval gunfire scatter (14.0) and suppression fire (15.0).

A combat is a task on the agenda: {"t": "combat", "attacker": "gb" | "enemy", "enemy": id,
"hex": the GB hex}. Its follow-ups (damage, item losses, claims, the naval scatter, combat
detection) are tasks put in front of the rest, in the order 13.0 gives them.
"""

from __future__ import annotations

from typing import Any

from rules.core.chits import draw, put_back
from rules.core.dice import DiceSource
from rules.core.game import Fact, State
from rules.green_beret_vietnam.board import (
    DIRS,
    at,
    camp_at,
    capacity_at,
    fact,
    gb_fp,
    items_at,
    leaders_at,
    name,
    names,
    teams_at,
    usable_items,
)
from rules.green_beret_vietnam.data import World
from rules.green_beret_vietnam.effects import (
    destroy_camp,
    eliminate_items,
    eliminate_leader,
    eliminate_team,
    remove_enemy,
)

Task = dict[str, Any]


def totals(attack_die: int, attack_fp: int, penalty: int, defend_die: int, defend_fp: int) -> tuple[int, int, str]:
    """13.0 steps 1-5: 10 x d6 + FP (+ the attacked hex's penalty for the attacker only);
    the higher final total wins; equal totals: both sides lose."""
    a = 10 * attack_die + attack_fp + penalty
    d = 10 * defend_die + defend_fp
    return a, d, ("attacker" if a > d else "defender" if d > a else "both")


def combat(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    e, h = task["enemy"], task["hex"]
    if e not in s["enemies"] or not teams_at(s, w, h) or w.distance(s["enemies"][e]["hex"], h) > 1:
        return
    en = w.enemies[e]
    gb_attacks = task["attacker"] == "gb"
    eh = s["enemies"][e]["hex"]
    vs_circled = en.circled and (not gb_attacks or bool(s["options"].get("antitank_on_attack", False)))
    if not gb_attacks and task.get("naval") is None:
        naval = [c for c in usable_items(s, w, h, vs_circled) if w.counters[c].naval]
        if naval:  # AMBIG-43a: a defender may declare its naval gunfire unused (jettison it, 9.0)
            s["decision"] = {"kind": "naval", "hex": h, "enemy": e, "items": naval}
            s["agenda"].insert(0, task)
            return
    fp, parts = gb_fp(s, w, h, vs_circled)
    naval_used = [c for c in parts if w.counters.get(c) is not None and w.counters[c].naval]
    gb_names = names(w, list(parts))
    if gb_attacks:
        pen = w.hexes[eh].combat
        ad = dice.roll(6, "13.0 attacker's die (Green Berets)")
        dd = dice.roll(6, "13.0 defender's die (enemy)")
        a, d, win = totals(ad, fp, pen, dd, en.fp)
        who_a, who_d = f"Green Berets in {h} ({gb_names}: FP {fp})", f"{name(w, e)} (FP {en.fp}) in {eh}"
        gb_lost, enemy_lost = win in ("defender", "both"), win in ("attacker", "both")
    else:
        pen = w.hexes[h].combat
        ad = dice.roll(6, "13.0 attacker's die (enemy)")
        dd = dice.roll(6, "13.0 defender's die (Green Berets)")
        a, d, win = totals(ad, en.fp, pen, dd, fp)
        who_a, who_d = f"{name(w, e)} (FP {en.fp}) from {eh}", f"Green Berets in {h} ({gb_names}: FP {fp})"
        gb_lost, enemy_lost = win in ("attacker", "both"), win in ("defender", "both")
    afp, dfp = (fp, en.fp) if gb_attacks else (en.fp, fp)
    doubled = [c for c in parts if vs_circled and w.counters.get(c) is not None and w.counters[c].anti_tank]
    result = {"attacker": "the attacker wins", "defender": "the defender wins",
              "both": "equal totals: both sides lose"}[win]
    text = (f"{who_a} attacks {who_d}: {ad}×10 + {afp} + terrain {pen} = {a} against {dd}×10 + {dfp} = {d}: "
            f"{result}")
    if doubled:
        text += f" (anti-tank {names(w, doubled)} doubled against a circled-MA unit, 13.3)"
    facts.append(fact(text, "13.0", "combat", attacker=task["attacker"], enemy=e, gb_hex=h, enemy_hex=eh,
                      attack_die=ad, defend_die=dd, attack_total=a, defend_total=d, penalty=pen, gb_fp=fp,
                      gb_parts=parts, enemy_fp=en.fp, result=win, anti_tank=doubled))
    follow: list[Task] = []
    if enemy_lost:
        remove_enemy(s, e)
        facts.append(fact(f"{name(w, e)} loses: removed and returned to the pool", "13.0", "combat", enemy=e))
    if gb_lost:
        follow.append({"t": "gb_loss", "hex": h, "team": None})
    if naval_used:
        follow.append({"t": "naval", "center": eh})
    if not enemy_lost:
        follow.append({"t": "combat_detect", "hex": h})
    else:
        facts.append(fact("The enemy unit was eliminated: no combat noise", "12.4", "detection", hex=h))
    s["agenda"][0:0] = follow


def answer_naval(s: State, w: World, use: bool, facts: list[Fact]) -> None:
    d = s["decision"]
    task = s["agenda"][0]
    task["naval"] = "use" if use else "hold"
    if not use:
        for c in d["items"]:
            s["gb"][c]["left"] = True
        facts.append(fact(f"{names(w, d['items'])} not used in this combat (jettisoned in {d['hex']})", "9.0",
                          "combat", items=d["items"]))


def gb_loss(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    """13.0 step 7, 13.1: a damage marker for one team of the losing stack."""
    h = task["hex"]
    tms = teams_at(s, w, h)
    if not tms:
        return
    if task.get("marker") is None:
        if task["team"] is None:
            if len(tms) > 1:  # AMBIG-39a: the player chooses which team takes the marker
                s["decision"] = {"kind": "damage_team", "hex": h, "options": tms}
                s["agenda"].insert(0, task)
                return
            task["team"] = tms[0]
        if not s["damage_pool"]:
            facts.append(fact("The damage pool is empty: no marker can be drawn (GAP-18)", "13.1", "damage"))
            return
        before = s["damage_pool"]
        marker, s["damage_pool"] = draw(before, dice, "13.1 draw a damage marker")
        task["marker"] = marker
        task["pool_die"] = before.index(marker) + 1 if len(before) > 1 else None
    marker = task["marker"]
    dm = w.damage[marker]
    team = task["team"]
    if dm.kills:
        victims = [ld for ld in leaders_at(s, w, h) if w.counters[ld].kind == dm.kills]
        if not victims:
            s["damage_pool"] = put_back(s["damage_pool"], [marker])
            facts.append(fact(f"{name(w, team)} draws '{dm.name}': no {dm.kills} in {h}, the marker goes back "
                              "to the pool with no effect", "13.1", "damage", marker=marker, team=team,
                              pool_die=task.get("pool_die")))
            return
        if len(victims) > 1 and task.get("victim") is None:
            s["decision"] = {"kind": "kill_leader", "hex": h, "options": victims}
            s["agenda"].insert(0, task)
            return
        victim = task.get("victim") or victims[0]
        s["damage_pool"] = put_back(s["damage_pool"], [marker])  # AMBIG-40
        facts.append(fact(f"{name(w, team)} draws '{dm.name}': the team is not damaged", "13.1", "damage",
                          marker=marker, team=team, pool_die=task.get("pool_die")))
        eliminate_leader(s, w, victim, f"'{dm.name}' marker (back to the pool)", "13.1", facts)
        return
    rec = s["gb"][team]
    if not rec["damage"]:
        rec["damage"] = [marker]
        eff = ", ".join(f"{k} {v:+d}" for k, v in (("FP", dm.fp), ("MA", dm.ma), ("noise", dm.noise)) if v)
        facts.append(fact(f"{name(w, team)} draws damage marker '{dm.name}' ({eff or 'no value change'})", "13.1",
                          "damage", marker=marker, team=team, pool_die=task.get("pool_die")))
        s["agenda"].insert(0, {"t": "item_loss", "hex": h, "k": None, "claim": False})
        return
    s["damage_pool"] = put_back(s["damage_pool"], [marker])
    facts.append(fact(f"{name(w, team)}, already damaged, draws damage marker '{dm.name}': a second damage", "13.1",
                      "damage", marker=marker, team=team, pool_die=task.get("pool_die")))
    eliminate_team(s, w, team, f"damaged a second time ('{dm.name}')", "13.1", facts)
    s["agenda"].insert(0, {"t": "item_loss", "hex": h, "k": None, "claim": True})


def item_loss(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    """13.0 step 8: roll 1d6 and remove that many weapon/equipment counters, the player's choice."""
    h = task["hex"]
    if task["k"] is None:
        k = dice.roll(6, "13.0 step 8 weapons/equipment lost")
        task["k"] = k
        facts.append(fact(f"Rolled {k} on d6: {k} weapon/equipment counter(s) lost in {h}", "13.0", "loss",
                          hex=h, die=k))
    items = items_at(s, w, h)
    if task["k"] > 0 and items:
        if len(items) <= task["k"]:
            eliminate_items(s, w, items, "lost in combat (13.0 step 8)", "13.0", facts)
            task["k"] = 0
        else:
            s["decision"] = {"kind": "lose_item", "hex": h, "options": items, "left": task["k"]}
            s["agenda"].insert(0, task)
            return
    if task["claim"]:
        s["agenda"].insert(0, {"t": "claim", "hex": h, "kept": []})


def answer_lose_item(s: State, w: World, item: str, facts: list[Fact]) -> None:
    task = s["agenda"][0]
    eliminate_items(s, w, [item], "lost in combat, the player's choice", "13.0", facts)
    task["k"] -= 1


def claim(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    """13.1: the eliminated team's items are eliminated, unless another team in the hex claims
    them within its carrying limits (it may drop what it holds to make room: AMBIG-39c, the
    items in the hex are pooled and the player keeps up to the survivors' capacity)."""
    h = task["hex"]
    items = [c for c in items_at(s, w, h) if c not in task["kept"]]
    if not items:
        return
    if not teams_at(s, w, h):
        eliminate_items(s, w, items, "their team was eliminated and no other team is there", "13.1", facts)
        return
    room = capacity_at(s, w, h) - len(task["kept"])
    if camp_at(s, h) is not None or len(items) <= room:
        for c in items:
            s["gb"][c]["left"] = False
        why = "carrying limits are ignored at a base camp (3.5, 9.4)" if camp_at(s, h) else "within their limits"
        facts.append(fact(f"{names(w, teams_at(s, w, h))} claim {names(w, items)} ({why})", "13.1", "claim",
                          hex=h, items=items))
        return
    if room <= 0:
        eliminate_items(s, w, items, "no room left to claim them", "13.1", facts)
        return
    s["decision"] = {"kind": "claim", "hex": h, "options": items, "room": room}
    s["agenda"].insert(0, task)


def answer_claim(s: State, w: World, item: str | None, facts: list[Fact]) -> None:
    task = s["agenda"][0]
    if item is None:
        rest = [c for c in items_at(s, w, task["hex"]) if c not in task["kept"]]
        eliminate_items(s, w, rest, "not claimed (13.1)", "13.1", facts)
        return
    task["kept"].append(item)
    s["gb"][item]["left"] = False
    facts.append(fact(f"{name(w, item)} claimed", "13.1", "claim", item=item))


def naval(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    """14.0: after any combat that used naval gunfire, 1d6 on the scatter diagram (numbered as
    12.8, one hex from the enemy's hex: GAP-11); everything in the hex hit is eliminated."""
    c = task["center"]
    r = dice.roll(6, "14.0 naval gunfire scatter")
    hit = w.grid.neighbour(c, r - 1)
    if hit is None:
        facts.append(fact(f"Naval gunfire scatter: rolled {r} ({DIRS[r - 1]}) from {c}: off the map, no effect "
                          "(AMBIG-43b)", "14.0", "naval", die=r, center=c))
        return
    here = at(s, hit)
    foes = [e for e in s["enemy_order"] if s["enemies"][e]["hex"] == hit]
    camp = camp_at(s, hit)
    if not here and not foes and camp is None:
        facts.append(fact(f"Naval gunfire scatter: rolled {r} ({DIRS[r - 1]}) from {c}: {hit} is empty, no effect",
                          "14.0", "naval", die=r, center=c, hit=hit))
        return
    facts.append(fact(f"Naval gunfire scatter: rolled {r} ({DIRS[r - 1]}) from {c}: the stray rounds hit {hit}",
                      "14.0", "naval", die=r, center=c, hit=hit))
    for t in teams_at(s, w, hit):
        eliminate_team(s, w, t, f"naval gunfire misfire into {hit}", "14.0", facts)
    for ld in leaders_at(s, w, hit):
        eliminate_leader(s, w, ld, f"naval gunfire misfire into {hit}", "14.0", facts)
    eliminate_items(s, w, items_at(s, w, hit), f"naval gunfire misfire into {hit}", "14.0", facts)
    if camp is not None:
        destroy_camp(s, w, camp, "naval gunfire misfire", "14.0", facts)
    for e in foes:
        remove_enemy(s, e)
        facts.append(fact(f"{name(w, e)} eliminated by the naval gunfire misfire", "14.0", "naval", enemy=e))


def combat_detect(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    """12.4 (AMBIG-31): combat in which the enemy survives detects the GB stack (no evasion,
    12.3) and more enemies appear (12.7), even if it was detected already."""
    h = task["hex"]
    tms = teams_at(s, w, h)
    if not tms:
        return
    for t in tms:
        s["gb"][t]["detected"] = True
    facts.append(fact(f"Combat noise: {names(w, tms)} in {h} detected", "12.4", "detection", hex=h, teams=tms))
    s["agenda"].insert(0, {"t": "spawn", "hex": h, "why": "combat"})


# -- suppression fire (15.0) --------------------------------------------------------------------
def suppressors(s: State, w: World) -> list[str]:
    """15.0 (AMBIG-44): weapons (a '+' FP, not leaders) held by a detected team, not yet used."""
    declared = {d["item"] for d in s["suppress"]}
    out = []
    for c, rec in s["gb"].items():
        cc = w.counters[c]
        if rec["status"] != "map" or cc.cls != "item" or not cc.weapon or cc.fp <= 0 or rec["left"]:
            continue
        if c in declared or rec["flipped"]:
            continue
        if any(s["gb"][t]["detected"] for t in teams_at(s, w, rec["hex"])):
            out.append(c)
    return out


def suppression_targets(s: State, w: World, item: str) -> list[str]:
    """Enemies that could be stopped: MA > 0, not adjacent (suppression only stops movement),
    and within 5 hexes (a d6 never exceeds 6 or more)."""
    h = s["gb"][item]["hex"]
    return [e for e in s["enemy_order"]
            if w.enemies[e].ma > 0 and 2 <= w.distance(h, s["enemies"][e]["hex"]) <= 5]


def suppression_succeeds(die: int, distance: int) -> bool:
    """15.0: the attempt succeeds if the roll is greater than the number of hexes to the target."""
    return die > distance


def resolve_suppression(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    for d in s["suppress"]:
        item, e = d["item"], d["enemy"]
        s["gb"][item]["flipped"] = True
        if e not in s["enemies"] or s["gb"][item]["status"] != "map":
            continue
        dist = w.distance(s["gb"][item]["hex"], s["enemies"][e]["hex"])
        r = dice.roll(6, "15.0 suppression fire")
        ok = suppression_succeeds(r, dist)
        if ok:
            s["enemies"][e]["suppressed"] = True
        facts.append(fact(f"Suppression fire: {name(w, item)} at {name(w, e)} {dist} hex(es) away: rolled {r} "
                          f"{'>' if ok else '≤'} {dist}: {'suppressed, it cannot move this phase' if ok else 'fails'}",
                          "15.0", "suppression", item=item, enemy=e, die=r, distance=dist, success=ok))
    s["suppress"] = []
