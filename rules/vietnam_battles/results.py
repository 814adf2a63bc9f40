"""Applying combat and bombardment results, with the decisions they ask for (VB 7.6-7.9, 8.4, 8.4.2).

Decisions are `s["decision"]` = {"kind", "seat", ...}; the named seat is the active one until it
answers (Part V V.14): the defender chooses hold or a retreat path and displacements; the
attacker chooses which unit takes a loss, its own retreats or hold, and advances.
"""

from __future__ import annotations

from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Fact, IllegalAction
from rules.vietnam_battles import crt, fortification
from rules.vietnam_battles.board import is_hexside, land_at, monitor_at, other, space_distance, values
from rules.vietnam_battles.data import World
from rules.vietnam_battles.losses import eliminate, lose_step
from rules.vietnam_battles.retreat import _paths, displace_options, nearest_enemies, retreat_options
from rules.vietnam_battles.support import value

State = dict[str, Any]


def _alive(s: State, u: str) -> bool:
    return bool(s["units"][u]["status"] == "map")


def apply_attack_result(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    b = s["battle"]
    res = b["result"]
    dft = b["defender"]
    rule = "VB 7.6"
    if res == "-":
        return end_battle(s)
    if res == "De":
        eliminate(s, w, dft, facts, rule, "De")
        return end_battle(s)  # A-4 (literal): no advance after De
    if res == "Ex":
        lose_step(s, w, dft, facts, rule, "Ex")
        return _attacker_loss(s, w, facts, "Ex")
    if res == "(A)":
        return _attacker_loss(s, w, facts, "(A)")
    if res == "Ae":
        for u in list(b["units"]):
            eliminate(s, w, u, facts, rule, "Ae")
        return end_battle(s)
    n = int(res[1])
    if res.startswith("D"):
        s["decision"] = {"kind": "retreat", "seat": other(b["attacker"]), "units": [dft], "n": n,
                         "away": sorted({s["units"][u]["at"] for u in b["units"]}), "participants": [dft],
                         "hold": "each", "mode": "combat", "then": "advance"}
        return
    s["decision"] = {"kind": "retreat", "seat": b["attacker"], "units": list(b["units"]), "n": n,
                     "away": [s["units"][dft]["at"]], "participants": list(b["units"]), "hold": "one",
                     "mode": "combat", "then": None}


def _attacker_loss(s: State, w: World, facts: list[Fact], why: str) -> None:
    b = s["battle"]
    alive = [u for u in b["units"] if _alive(s, u)]
    if len(alive) == 1:
        lose_step(s, w, alive[0], facts, "VB 7.6", why)
        return end_battle(s)
    if not alive:
        return end_battle(s)
    s["decision"] = {"kind": "loss", "seat": b["attacker"], "units": alive, "why": why}


def choose_loss(s: State, w: World, u: str, facts: list[Fact]) -> None:
    d = s["decision"]
    if u not in d["units"]:
        raise IllegalAction("that unit did not take part in this attack", "VB 7.6")
    s["decision"] = None
    lose_step(s, w, u, facts, "VB 7.6", f"{d['why']}, the attacker's choice")
    end_battle(s)


def end_battle(s: State) -> None:
    s["battle"] = None
    s["decision"] = None


# -- retreat or hold ------------------------------------------------------------------------
def options(s: State, w: World, u: str) -> tuple[str, list[list[str]]]:
    d = s["decision"]
    if d["mode"] == "bombard":
        away = nearest_enemies(s, w, u)
        return retreat_options(s, w, u, d["n"], away, [u])
    return retreat_options(s, w, u, d["n"], d["away"], d["participants"])


def retreat_actions(s: State, w: World) -> list[dict[str, Any]]:
    d = s["decision"]
    out: list[dict[str, Any]] = []
    if d["hold"] == "each" or (d["hold"] == "one" and not d.get("started")):
        out += [{"type": "hold", "unit": u} for u in d["units"]]
    for u in d["units"]:
        kind, paths = options(s, w, u)
        out += [{"type": "retreat", "unit": u, "path": p} for p in paths]
        if kind == "none":
            out.append({"type": "retreat", "unit": u, "path": []})
    return out


def hold(s: State, w: World, u: str, dice: DiceSource, facts: list[Fact]) -> None:
    """VB 7.8: hold at all costs — a step loss instead of the retreat; no advance. A-5: one step
    from one attacking unit cancels the retreat of all the attackers."""
    d = s["decision"]
    if u not in d["units"]:
        raise IllegalAction("that unit has no retreat to cancel", "VB 7.8")
    lose_step(s, w, u, facts, "VB 7.8", "holds at all costs instead of retreating")
    if d["hold"] == "one":
        d["units"] = []
    else:
        d["units"].remove(u)
        d["then"] = None
    _after_retreat(s, w, dice, facts)


def retreat(s: State, w: World, u: str, path: list[str], dice: DiceSource, facts: list[Fact]) -> None:
    d = s["decision"]
    if {"type": "retreat", "unit": u, "path": path} not in retreat_actions(s, w):
        raise IllegalAction("that retreat is not allowed", "VB 7.7")
    d["started"] = True
    kind, _ = options(s, w, u)
    start = s["units"][u]["at"]
    if kind == "none":
        d["units"].remove(u)
        if d["mode"] == "bombard" and _paths_unbounded(s, w, u, d["n"]):
            lose_step(s, w, u, facts, "VB 7.7.1", "it could retreat only toward the enemy (A-16)")
        else:
            eliminate(s, w, u, facts, "VB 7.7", "it cannot retreat at all")
            _vacated(s, d, start, [])
        return _after_retreat(s, w, dice, facts)
    if kind == "displace":
        blocker = land_at(s, w, path[-1]) if not w.units[u].monitor else monitor_at(s, w, path[-1])
        s["decision"] = {"kind": "displace", "seat": d["seat"], "unit": u, "path": path, "blocker": blocker,
                         "coming_from": path[-2] if len(path) > 1 else start, "chain": [path[-1]], "back": d}
        return
    _finish_move(s, w, u, path, kind == "short", facts)
    d["units"].remove(u)
    _vacated(s, d, start, path)
    _after_retreat(s, w, dice, facts)


def _paths_unbounded(s: State, w: World, u: str, n: int) -> bool:
    return bool(_paths(s, w, u, n, []))


def _finish_move(s: State, w: World, u: str, path: list[str], short: bool, facts: list[Fact]) -> None:
    s["units"][u]["at"] = path[-1]
    s["units"][u]["retreated"] = True
    facts.append(Fact(f"{w.units[u].name} retreats {' -> '.join(path)}", "VB 7.7", "retreat", {"unit": u, "path": path}))
    if short:
        lose_step(s, w, u, facts, "VB 7.7", "it could not complete its retreat")


def _vacated(s: State, d: dict[str, Any], start: str, path: list[str]) -> None:
    """VB 7.9: the path of retreat — the combat hex and the hexes the defender left behind."""
    if d.get("then") == "advance":
        b = s["battle"]
        u = b["defender"]
        end = s["units"][u]["at"]
        b["vacated"] = [start] + [h for h in path if h != end or s["units"][u]["status"] != "map"]


def displace(s: State, w: World, to: str | None, dice: DiceSource, facts: list[Fact]) -> None:
    """VB 7.7.2: move the blocking friendly unit 1 hex (a chain if that hex is occupied too), or refuse."""
    d = s["decision"]
    back = d["back"]
    u, path = d["unit"], d["path"]
    start = s["units"][u]["at"]
    if to is None:
        s["decision"] = back
        back["units"].remove(u)
        stop = [h for h in path[:-1] if land_at(s, w, h) is None]
        if stop and stop[-1] == path[len(stop) - 1]:
            _finish_move(s, w, u, path[:len(stop)], True, facts)
            _vacated(s, back, start, path[:len(stop)])
        else:
            eliminate(s, w, u, facts, "VB 7.7.2", "displacement refused and no other retreat")
            _vacated(s, back, start, [])
        return _after_retreat(s, w, dice, facts)
    blocker = d["blocker"]
    if to not in displace_options(s, w, blocker, d["coming_from"], back["away"] if back["mode"] == "combat"
                                  else nearest_enemies(s, w, blocker), d["chain"]):
        raise IllegalAction(f"{w.units[blocker].name} may not be displaced to {to}", "VB 7.7.2")
    occ = land_at(s, w, to)
    if occ is not None:
        d["pending"] = d.get("pending", []) + [[blocker, to]]
        d["coming_from"], d["blocker"] = s["units"][blocker]["at"], occ
        d["chain"].append(to)
        return
    moves = d.get("pending", []) + [[blocker, to]]
    for unit, dest in reversed(moves):
        s["units"][unit]["at"] = dest
        s["units"][unit]["retreated"] = True
        facts.append(Fact(f"{w.units[unit].name} is displaced to {dest}", "VB 7.7.2", "displace",
                          {"unit": unit, "hex": dest}))
    s["decision"] = back
    _finish_move(s, w, u, path, False, facts)
    back["units"].remove(u)
    _vacated(s, back, start, path)
    _after_retreat(s, w, dice, facts)


def displace_actions(s: State, w: World) -> list[dict[str, Any]]:
    d = s["decision"]
    back = d["back"]
    away = back["away"] if back["mode"] == "combat" else nearest_enemies(s, w, d["blocker"])
    out: list[dict[str, Any]] = [{"type": "displace", "hex": h}
                                 for h in displace_options(s, w, d["blocker"], d["coming_from"], away, d["chain"])]
    return out + [{"type": "refuse"}]


def _after_retreat(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    d = s["decision"]
    if d["units"]:
        return
    b = s["battle"]
    if d.get("then") == "advance" and b.get("vacated") and _advancers(s, w):
        s["decision"] = {"kind": "advance", "seat": b["attacker"]}
        return
    end_battle(s)


# -- advance after combat (VB 7.9) ------------------------------------------------------------
def _advancers(s: State, w: World) -> list[str]:
    b = s["battle"]
    return [u for u in b["units"] if _alive(s, u) and not w.units[u].monitor and not s["units"][u]["transported"]
            and not s["units"][u]["advanced"] and not is_hexside(s["units"][u]["at"])
            and not w.units[b["defender"]].monitor]


def advance_actions(s: State, w: World) -> list[dict[str, Any]]:
    b = s["battle"]
    out: list[dict[str, Any]] = []
    for u in _advancers(s, w):
        for h in b["vacated"]:
            occ = land_at(s, w, h)
            if occ is not None and w.units[occ].side != b["attacker"]:
                break  # VB 7.9: along the path only, never through an enemy unit
            if occ is None:
                out.append({"type": "advance", "unit": u, "hex": h})
    return out + [{"type": "end_advance"}]


def advance(s: State, w: World, u: str, h: str, facts: list[Fact]) -> None:
    if {"type": "advance", "unit": u, "hex": h} not in advance_actions(s, w):
        raise IllegalAction("that advance is not allowed", "VB 7.9")
    frm = s["units"][u]["at"]
    s["units"][u]["at"] = h
    s["units"][u]["advanced"] = True
    facts.append(Fact(f"{w.units[u].name} advances after combat {frm} -> {h}", "VB 7.9", "advance",
                      {"unit": u, "from": frm, "hex": h}))
    if len(advance_actions(s, w)) == 1:
        end_battle(s)


# -- bombardment (VB 8.4) ----------------------------------------------------------------------
def resolve_bombard(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    from rules.vietnam_battles.combat import terrain_row

    b = s["battle"]
    tgt = b["defender"]
    fort = w.fortified(s["units"][tgt]["at"])
    strength = (fortification.attacker_modifiers(sum(value(w, m) for m in b["att"]), fort)
                - sum(value(w, m) for m in b["def"]))
    dfn = fortification.defense(values(s, w, tgt)[1], fort)
    d = strength - dfn
    row, why = terrain_row(s, w, b)
    col = crt.column(d, row)
    die = dice.roll(6, "VB 8.4 bombardment")
    res = crt.RESULTS[die][col - 1]
    facts.append(Fact(
        f"Bombardment of {w.units[tgt].name}: markers {strength:+d} - defense {dfn} = differential {d:+d}, row "
        f"{crt.ROW_TITLE[row]} ({why}{fortification.note(fort)}), column {col}, die {die}: {res}", "VB 8.4", "bombardment",
        {"defender": tgt, "strength": strength, "defense": dfn, "differential": d, "row": row, "column": col,
         "die": die, "result": res, "att_markers": list(b["att"]), "def_markers": list(b["def"])}))
    if res == "-":
        return end_battle(s)
    if res == "De":
        eliminate(s, w, tgt, facts, "VB 8.4", "De")
        return end_battle(s)
    if res == "Ex":
        lose_step(s, w, tgt, facts, "VB 8.4", "Ex hits only the target")
        return end_battle(s)
    if res.startswith("D"):
        s["decision"] = {"kind": "retreat", "seat": other(b["attacker"]), "units": [tgt], "n": int(res[1]),
                         "away": [], "participants": [tgt], "hold": "each", "mode": "bombard", "then": None}
        return
    # VB 8.4.2 (A-3 reading i): every A result falls on the bombarding side's unit nearest the target.
    mine = [u for u, r in sorted(s["units"].items()) if r["status"] == "map" and w.units[u].side == b["attacker"]]
    if not mine:
        facts.append(Fact("Errant fire: the bombarding side has no unit on the map", "VB 8.4.2", "errant"))
        return end_battle(s)
    best = min(space_distance(w, s["units"][u]["at"], b["at"]) for u in mine)
    near = [u for u in mine if space_distance(w, s["units"][u]["at"], b["at"]) == best]
    b["result"] = res
    if len(near) > 1:
        s["decision"] = {"kind": "errant", "seat": b["attacker"], "units": near}
        return
    errant(s, w, near[0], facts)


def errant(s: State, w: World, u: str, facts: list[Fact]) -> None:
    b = s["battle"]
    res = b["result"]
    if s["decision"] is not None and (s["decision"]["kind"] != "errant" or u not in s["decision"]["units"]):
        raise IllegalAction("that unit is not the nearest to the target", "VB 8.4.2")
    s["decision"] = None
    facts.append(Fact(f"Errant fire ({res}) falls on {w.units[u].name}", "VB 8.4.2", "errant", {"unit": u}))
    if res == "(A)":
        lose_step(s, w, u, facts, "VB 8.4.2", "errant fire")
        return end_battle(s)
    if res == "Ae":
        eliminate(s, w, u, facts, "VB 8.4.2", "errant fire")
        return end_battle(s)
    s["decision"] = {"kind": "retreat", "seat": b["attacker"], "units": [u], "n": int(res[1]), "away": [],
                     "participants": [u], "hold": "each", "mode": "bombard", "then": None}
