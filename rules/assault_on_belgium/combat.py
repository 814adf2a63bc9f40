"""Land combat: one round, hits, elimination, excess hits and retreats (AoB 11, 13, 14).

A battle is fought by one unit per side per round (AoB 11.11); the attacker rolls 1d6 on
the LCT at attack − defense (AoB 11.2, 11.3). Germany is always the attacker.
"""

from __future__ import annotations

from typing import Any

from rules.assault_on_belgium.board import (
    ATTACKER,
    DEFENDER,
    aircraft,
    battle_at,
    enterable_country,
    fact,
    land_units,
    name,
    other,
)
from rules.assault_on_belgium.data import World
from rules.assault_on_belgium.tables import LandResult, land_result
from rules.assault_on_belgium.terrain import Modified, attack_strength, bomber_support, defense_strength
from rules.core.dice import DiceSource
from rules.core.game import Fact, IllegalAction, State

# -- hits ------------------------------------------------------------------------------------

def add_hits(s: State, w: World, b: dict[str, Any], uid: str, n: int, facts: list[Fact], why: str) -> int:
    """AoB 11.5, 11.7: add hits; eliminate at hits >= printed defense. Returns the excess hits."""
    st = s["units"][uid]
    u = w.units[uid]
    total = st["hits"] + n
    excess = max(0, total - u.defense)
    st["hits"] = min(total, u.defense)
    a, d = max(0, u.attack - st["hits"]), max(0, u.defense - st["hits"])
    facts.append(fact(f"{u.name} takes {n} hit{'s' if n != 1 else ''} ({why}): now {a}-{d}-{u.movement}",
                      "AoB 11.5", "hit", battle=b["n"], hex=b["hex"], unit=uid, hits=n, total=st["hits"]))
    if st["hits"] >= u.defense:
        eliminate(s, w, b, uid, facts)
    return int(excess)


def eliminate(s: State, w: World, b: dict[str, Any], uid: str, facts: list[Fact], rule: str = "AoB 11.7") -> None:
    st = s["units"][uid]
    where = st["hex"]
    st["status"], st["hex"] = "eliminated", None
    if w.units[uid].side == DEFENDER:
        b["last_defender_exit"] = "eliminated"
    facts.append(fact(f"{w.units[uid].name} is eliminated", rule, "eliminated", battle=b["n"], hex=where, unit=uid))


# -- strengths and one round ----------------------------------------------------------------

def strengths(s: State, w: World, b: dict[str, Any], att: str, dfn: str,
              bombers: dict[str, str | None]) -> tuple[Modified, Modified, Modified | None, Modified | None]:
    """Modified attack and defense of the two fighting units, and each side's bomber support."""
    a = attack_strength(w, w.units[att], s["units"][att]["hits"], b["hex"], b["origin"])
    d = defense_strength(w, w.units[dfn], s["units"][dfn]["hits"], b["hex"])
    sup: dict[str, Modified | None] = {}
    for side, cap in ((ATTACKER, a.value), (DEFENDER, d.value)):
        bomber = bombers.get(side)
        sup[side] = None if bomber is None else bomber_support(
            w, w.units[bomber], b["aa_loss"].get(bomber, 0), b["hex"], cap)
    return a, d, sup[ATTACKER], sup[DEFENDER]


def fight_round(s: State, w: World, b: dict[str, Any], att: str, dfn: str, bombers: dict[str, str | None],
                dice: DiceSource, facts: list[Fact]) -> LandResult:
    """AoB 11.2-11.4: compute the differential, roll, read the LCT; hits are applied by the caller."""
    a, d, sa, sd = strengths(s, w, b, att, dfn, bombers)
    total_a = a.value + (sa.value if sa else 0)
    total_d = d.value + (sd.value if sd else 0)
    diff = total_a - total_d
    die = dice.roll(6, f"land combat battle {b['n']} round {b['round']}")
    res = land_result(diff, die)
    ua, ud = w.units[att], w.units[dfn]

    def side_text(u_name: str, kind: str, word: str, m: Modified, sup: Modified | None, bomber: str | None) -> str:
        t = f"{u_name} ({kind}, {word} {m.text}"
        if sup is not None and bomber is not None:
            t += f", +{sup.value} {w.units[bomber].name} [{sup.text}]"
        return t + ")"

    facts.append(fact(
        f"Round {b['round']} at {w.hex_title(b['hex'])}: "
        f"{side_text(ua.name, ua.type, 'attack', a, sa, bombers.get(ATTACKER))} vs "
        f"{side_text(ud.name, ud.type, 'defense', d, sd, bombers.get(DEFENDER))}: "
        f"differential {diff:+d}, die {die} → {res.cell}",
        "AoB 11.3", "land_round", battle=b["n"], hex=b["hex"], round=b["round"], attacker=att, defender=dfn,
        attack=total_a, defense=total_d, differential=diff, die=die, result=res.cell,
        bombers={k: v for k, v in bombers.items() if v is not None}))
    return res


# -- retreats (AoB 14) -------------------------------------------------------------------------

def retreat_problem(s: State, w: World, b: dict[str, Any], uid: str, to: str) -> IllegalAction | None:
    """Why `uid` may not retreat from battle `b` into `to` (1 hex, AoB 14.1-14.3, 14.6)."""
    side = w.units[uid].side
    if to not in w.hexes:
        return IllegalAction(f"there is no hex {to} on the map")
    if to not in w.neighbours(b["hex"]):
        return IllegalAction(f"{to} is not adjacent to the battle hex {b['hex']}; a retreat is 1 hex", "AoB 14.6")
    blocked = enterable_country(s, w, to)
    if blocked:
        return blocked
    if side == DEFENDER and to == b["origin"]:
        return IllegalAction(f"{to} is the base of the battle vector: the defender cannot retreat in the enemy's "
                             "main attacking direction", "AoB 14.2")
    if land_units(s, w, other(side), to):
        return IllegalAction(f"{to} holds enemy units; a retreat goes to a friendly hex", "AoB 14.3")
    if battle_at(s, to) is not None:
        return IllegalAction(f"{to} is a battle hex; units cannot retreat into another battle", "AoB 14.3")
    if len(land_units(s, w, side, to)) >= 3:
        return IllegalAction(f"stacking: {to} already holds 3 land units of that side", "AoB 4.1")
    return None


def retreat_hexes(s: State, w: World, b: dict[str, Any], uid: str) -> list[str]:
    return [h for h in w.neighbours(b["hex"]) if retreat_problem(s, w, b, uid, h) is None]


def retreat(s: State, w: World, b: dict[str, Any], c: dict[str, Any], uid: str, to: str, facts: list[Fact],
            voluntary: bool) -> None:
    """Move the unit out of the battle; its supporting aircraft go with it (AoB 14.5)."""
    side = w.units[uid].side
    frm = s["units"][uid]["hex"]
    s["units"][uid]["hex"] = to
    word = "withdraws" if voluntary else "retreats"
    facts.append(fact(f"{name(w, uid)} {word} from {w.hex_title(frm)} to {w.hex_title(to)}",
                      "AoB 11.9" if voluntary else "AoB 14.1", "retreat", battle=b["n"], unit=uid, hexes=[frm, to]))
    if side == DEFENDER:
        b["retreats"].append({"unit": uid, "hex": to})
        b["last_defender_exit"] = "retreat"
    going: list[str] = []
    bomber = c["bomber"].get(side)
    if bomber is not None and c["fighting"].get(side) == uid and s["units"][bomber]["status"] == "active" \
            and s["units"][bomber]["mission"] == b["n"]:
        going.append(bomber)
    if not land_units(s, w, side, b["hex"]):
        going.extend(a for a in aircraft(s, w, side, mission=b["n"]) if a not in going)
    for a in going:
        s["units"][a]["mission"], s["units"][a]["with"] = None, uid
        facts.append(fact(f"{name(w, a)} leaves the battle with {name(w, uid)}", "AoB 14.5", "retreat",
                          battle=b["n"], unit=a, escorting=uid))
