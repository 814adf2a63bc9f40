"""Combat: declaration, the support fire alternation, resolution (VB 7.0-7.4, 8.3, 8.4, 13.0).

A battle is `s["battle"]`. Its `step` runs 1..4 through the VB 8.3 alternation: 1 and 3 the
attacker's, 2 and 4 the defender's (the defender's seat becomes active: Part V A2/A4). At step
1 the attacker may still add units; a declared combat is never cancelled (VB 8.3). A step where
the side holds no marker it may commit is passed for it (it has no choice to make). After step 4
the die is rolled and the result applied (results.py).
"""

from __future__ import annotations

from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Fact, IllegalAction
from rules.vietnam_battles import crt, fortification, iron
from rules.vietnam_battles.board import hex_of, in_contact, is_hexside, side_hexes, values
from rules.vietnam_battles.data import World
from rules.vietnam_battles.support import value

State = dict[str, Any]


def eligible_attacker(s: State, w: World, u: str) -> bool:
    r, d = s["units"][u], w.units[u]
    if r["status"] != "map" or d.side != s["player"] or r["attacked"] or r["advanced"] or r["retreated"]:
        return False
    if s["phase"] == "mech_combat":
        return d.mech or d.monitor  # VB 4.1; A-34 monitors may attack here if they did not before
    return True


def eligible_defender(s: State, w: World, u: str) -> bool:
    r = s["units"][u]
    return r["status"] == "map" and w.units[u].side != s["player"] and u not in s["defended"]


def declarations(s: State, w: World) -> list[tuple[str, str]]:
    """Every (defender, first attacker) pair the phasing player may declare (VB 7.1, 7.2)."""
    out = []
    foes = [u for u in sorted(s["units"]) if eligible_defender(s, w, u)]
    mine = [u for u in sorted(s["units"]) if eligible_attacker(s, w, u)]
    for dft in foes:
        for a in mine:
            if in_contact(s, w, a, dft) and not _across_water(s, w, a, dft):
                out.append((dft, a))
    return out


def _across_water(s: State, w: World, a: str, d: str) -> bool:
    """VB 19.0: land units never attack across the Mekong portion (split hexes, map data `split`)."""
    return False


def declare(s: State, w: World, defender: str, unit: str, facts: list[Fact]) -> None:
    if (defender, unit) not in declarations(s, w):
        raise IllegalAction("that attack may not be declared now", "VB 7.1")
    s["attacks_made"] += 1
    s["battle"] = {"kind": "attack", "attacker": s["player"], "defender": defender,
                   "at": s["units"][defender]["at"], "units": [unit], "step": 1, "att": [], "def": [],
                   "att_passed": [], "def_passed": [], "att_limit": _att_limit(s, w, [unit], defender)}
    iron.attacked(s, w, defender)
    facts.append(Fact(f"{w.units[unit].name} attacks {w.units[defender].name} at {s['units'][defender]['at']}",
                      "VB 7.1", "declare", {"defender": defender, "units": [unit]}))


def _att_limit(s: State, w: World, units: list[str], defender: str) -> int:
    """VB 10.1, 11.2 (A-7): one attacker marker if a slick- or tango-delivered unit takes part;
    VB 22.0: one against a VC unit in a tunnel hex (bombardment too, A-7)."""
    if w.units[defender].side == "vc" and iron.tunnel(w, s["units"][defender]["at"]):
        return 1
    return 1 if any(s["units"][u]["transported"] for u in units) else 2


def addable(s: State, w: World) -> list[str]:
    b = s["battle"]
    if b is None or b["kind"] != "attack" or b["step"] != 1 or b["att"] or b["att_passed"] or b.get("ambush"):
        return []
    return [a for (dft, a) in declarations_for(s, w, b["defender"]) if a not in b["units"]]


def declarations_for(s: State, w: World, defender: str) -> list[tuple[str, str]]:
    return [(defender, a) for a in sorted(s["units"])
            if eligible_attacker(s, w, a) and in_contact(s, w, a, defender) and not _across_water(s, w, a, defender)]


def add(s: State, w: World, unit: str, facts: list[Fact]) -> None:
    if unit not in addable(s, w):
        raise IllegalAction("that unit may not join this attack", "VB 7.1")
    b = s["battle"]
    b["units"].append(unit)
    b["att_limit"] = _att_limit(s, w, b["units"], b["defender"])
    facts.append(Fact(f"{w.units[unit].name} joins the attack on {w.units[b['defender']].name}", "VB 7.1", "declare",
                      {"defender": b["defender"], "units": list(b["units"])}))


def step_side(b: dict[str, Any]) -> str:
    return b["attacker"] if b["step"] in (1, 3) else ("vc" if b["attacker"] == "us" else "us")


def committable(s: State, w: World) -> list[str]:
    b = s["battle"]
    if b is None or not 1 <= b["step"] <= 4:
        return []
    side = step_side(b)
    mine = b["att"] if side == b["attacker"] else b["def"]
    limit = b["att_limit"] if side == b["attacker"] else b.get("def_limit", 2)
    if len(mine) >= limit:
        return []
    return list(s["hands"][side])


def commit(s: State, w: World, marker: str, dice: DiceSource, facts: list[Fact]) -> None:
    b = s["battle"]
    side = step_side(b)
    if marker not in committable(s, w):
        raise IllegalAction(f"marker {marker} may not be committed now", "VB 8.3")
    s["hands"][side].remove(marker)
    s["spent"][side].append(marker)
    (b["att"] if side == b["attacker"] else b["def"]).append(marker)
    who = "attacker" if side == b["attacker"] else "defender"
    facts.append(Fact(f"{side.upper()} ({who}) commits support fire +{value(w, marker)} (step {b['step']})", "VB 8.3",
                      "support", {"side": side, "marker": marker, "value": value(w, marker), "step": b["step"]}))
    b["step"] += 1
    run_steps(s, w, dice, facts)


def pass_step(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    b = s["battle"]
    side = step_side(b)
    (b["att_passed"] if side == b["attacker"] else b["def_passed"]).append(b["step"])
    facts.append(Fact(f"{side.upper()} passes (support fire step {b['step']})", "VB 8.3", "support_pass",
                      {"side": side, "step": b["step"]}))
    b["step"] += 1
    run_steps(s, w, dice, facts)


def run_steps(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    """Skip steps with nothing to commit; after step 4, resolve (VB 8.3 then 4.1 step 4)."""
    from rules.vietnam_battles import results

    b = s["battle"]
    while b["step"] <= 4 and not committable(s, w) and not (b["step"] == 1 and addable(s, w)):
        side = step_side(b)
        (b["att_passed"] if side == b["attacker"] else b["def_passed"]).append(b["step"])
        b["step"] += 1
    if b["step"] > 4:
        if b["kind"] == "attack":
            resolve_attack(s, w, dice, facts)
        else:
            results.resolve_bombard(s, w, dice, facts)


def terrain_row(s: State, w: World, b: dict[str, Any]) -> tuple[str, str]:
    """VB 7.4, IV.3 step 2: the single most favourable row; river only if every attacker is across
    an unbridged river hexside (A-38: a monitor on a river hexside attacks across it)."""
    dft = b["defender"]
    if w.units[dft].monitor:
        return "clear", "vs. river flotilla (VB 12.0)"
    h = hex_of(s, dft)
    assert h is not None
    info = w.terrain_info(h)
    row = str(info.get("row", "clear"))
    why = w.terrain_of(h)
    if b["kind"] == "attack" and b["units"]:
        def across(a: str) -> bool:
            at = s["units"][a]["at"]
            if is_hexside(at):
                return h in side_hexes(at)
            if at == h:
                return False
            return w.is_river(at, h) and not w.bridged(at, h, s["bridges_down"]) and not _eng_bridged(s, at, h)
        if all(across(a) for a in b["units"]) and crt.SHIFT[row] < crt.SHIFT["village"]:
            row, why = "village", "river hexside"
    return row, why


def _eng_bridged(s: State, a: str, b: str) -> bool:
    return s.get("eng_bridge") == "/".join(sorted((a, b)))


def resolve_attack(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    from rules.vietnam_battles import results

    b = s["battle"]
    fort = w.fortified(s["units"][b["defender"]]["at"])
    att = (sum(values(s, w, u)[0] for u in b["units"])
           + fortification.attacker_modifiers(sum(value(w, m) for m in b["att"]), fort))
    dfn = fortification.defense(values(s, w, b["defender"])[1], fort) + sum(value(w, m) for m in b["def"])
    d = att - dfn
    row, why = terrain_row(s, w, b)
    col = crt.column(d, row)
    die = dice.roll(6, "VB 7.3 combat")
    res = crt.RESULTS[die][col - 1]
    if not b.get("ambush"):  # A-12: the ambush's forced attack is extra
        for u in b["units"]:
            s["units"][u]["attacked"] = s["phase"]
        s["defended"].append(b["defender"])
    b["result"] = res
    facts.append(Fact(
        f"Attack on {w.units[b['defender']].name}: {att} - {dfn} = differential {d:+d}, row {crt.ROW_TITLE[row]} "
        f"({why}{fortification.note(fort)}), column {col}, die {die}: {res} ({crt.RESULT_TEXT[res]})", "VB 7.3", "combat",
        {"defender": b["defender"], "units": list(b["units"]), "attack": att, "defense": dfn, "differential": d,
         "row": row, "column": col, "die": die, "result": res, "att_markers": list(b["att"]),
         "def_markers": list(b["def"]), **({"fortified": True} if fort else {})}))
    results.apply_attack_result(s, w, dice, facts)


def bombard_targets(s: State, w: World) -> list[str]:
    """VB 8.4, 8.6: before the first attack of the phase, any enemy unit on the map whose hex was not
    bombarded this game turn (A-28: also in the Mechanized Combat Phase)."""
    if s["attacks_made"] or not s["hands"][s["player"]]:
        return []
    out = []
    for u, r in sorted(s["units"].items()):
        if r["status"] == "map" and w.units[u].side != s["player"] and r["at"] not in s["bombarded"]:
            out.append(u)
    return out


def bombard(s: State, w: World, target: str, marker: str, dice: DiceSource, facts: list[Fact]) -> None:
    if target not in bombard_targets(s, w) or marker not in s["hands"][s["player"]]:
        raise IllegalAction("that bombardment is not possible now", "VB 8.4")
    at = s["units"][target]["at"]
    s["bombarded"].append(at)
    s["battle"] = {"kind": "bombard", "attacker": s["player"], "defender": target, "at": at, "units": [],
                   "step": 1, "att": [], "def": [], "att_passed": [], "def_passed": [],
                   "att_limit": _att_limit(s, w, [], target)}
    iron.attacked(s, w, target)
    facts.append(Fact(f"{s['player'].upper()} bombards {w.units[target].name} at {at}", "VB 8.4", "declare",
                      {"defender": target, "bombard": True}))
    commit(s, w, marker, dice, facts)
