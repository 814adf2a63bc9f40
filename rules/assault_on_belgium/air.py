"""Air missions, anti-aircraft fire and air combat (AoB 7-10, AoB 16).

Missions: an aircraft flies to a battle hex within its range, counted in hexes from its
base (its set-up hex). Bombers give combat support (AoB 8), fighters escort or intercept
(AoB 9).

Air combat pairing (AoB 23.7, our deterministic reading): each side's fighters are sorted
by air factor, highest first, then by id; the i-th fighter of a side fires at the i-th
enemy fighter, wrapping around the shorter list. German shots are rolled first, then
Belgian ones; all results apply together (AoB 10.6). In the bomber round each fighter
with no adverse result engages one enemy bomber (sorted the same way), one fighter per
bomber, extra fighters idle; the bomber fires back with its own air factor. German
fighters' engagements are rolled first (fighter shot, then the bomber's return shot).
Any E, D or A removes the aircraft from the game (AoB 10.7).
"""

from __future__ import annotations

from typing import Any

from rules.assault_on_belgium.board import aircraft, battle_at, fact, name, side_adj, side_name
from rules.assault_on_belgium.data import World
from rules.assault_on_belgium.tables import aa_result, air_result
from rules.core.dice import DiceSource
from rules.core.game import Action, Fact, IllegalAction, State

RESULT_WORDS = {"E": "eliminated", "D": "damaged", "A": "aborts"}


# -- missions ------------------------------------------------------------------------------

def mission_problem(s: State, w: World, side: str, uid: object, hex_: object) -> IllegalAction | None:
    rule = "AoB 7.1" if side == "germany" else "AoB 9.4"
    if not isinstance(uid, str) or uid not in w.units:
        return IllegalAction(f"there is no unit {uid!r}")
    u = w.units[uid]
    if u.side != side:
        return IllegalAction(f"{u.name} is not a {side_adj(side)} aircraft", rule)
    if not u.is_air:
        return IllegalAction(f"{u.name} is a land unit; only aircraft fly missions", rule)
    st = s["units"][uid]
    if st["status"] != "active":
        return IllegalAction(f"{u.name} is out of the game", "AoB 10.7")
    if st["mission"] is not None:
        return IllegalAction(f"{u.name} already flies to battle {st['mission']}; take it back first", rule)
    if not isinstance(hex_, str) or hex_ not in w.hexes:
        return IllegalAction(f"there is no hex {hex_!r} on the map")
    if battle_at(s, hex_) is None:
        return IllegalAction(f"{hex_} is not a battle hex; aircraft fly only to existing battles", "AoB 8.2")
    dist = w.distance(st["hex"], hex_)
    if dist > u.range:
        return IllegalAction(f"{hex_} is {dist} hexes from {u.name}'s base {st['hex']}, beyond its range {u.range}",
                             "AoB 9.1")
    return None


def candidates(s: State, w: World, side: str) -> list[Action]:
    out: list[Action] = []
    for uid in aircraft(s, w, side):
        st = s["units"][uid]
        if st["mission"] is None:
            for b in s["battles"]:
                if b["status"] == "pending" and mission_problem(s, w, side, uid, b["hex"]) is None:
                    out.append({"type": "fly", "unit": uid, "hex": b["hex"]})
        else:
            out.append({"type": "unfly", "unit": uid})
    out.append({"type": "end_air"})
    return out


def check(s: State, w: World, side: str, action: Action) -> None:
    kind = action["type"]
    if kind == "fly":
        problem = mission_problem(s, w, side, action["unit"], action["hex"])
        if problem:
            raise problem
    elif kind == "unfly":
        uid = action["unit"]
        if uid not in w.units or w.units[uid].side != side or not w.units[uid].is_air:
            raise IllegalAction(f"{uid!r} is not a {side_adj(side)} aircraft", "AoB 7.1")
        if s["units"][uid]["mission"] is None:
            raise IllegalAction(f"{name(w, uid)} flies no mission", "AoB 7.1")
    elif kind != "end_air":
        raise IllegalAction(f"{kind} is not an action of the air phase")


def perform(s: State, w: World, side: str, action: Action, facts: list[Fact]) -> None:
    kind = action["type"]
    if kind == "fly":
        uid = action["unit"]
        b = battle_at(s, action["hex"])
        assert b is not None
        s["units"][uid]["mission"] = b["n"]
        u = w.units[uid]
        role = ("combat support" if u.type == "bomber" else ("escort" if side == "germany" else "interception"))
        facts.append(fact(f"{u.name} ({u.type}) flies {role} to battle {b['n']} at {w.hex_title(b['hex'])}",
                          "AoB 8.2" if u.type == "bomber" else "AoB 9.1", "air_mission",
                          unit=uid, hex=b["hex"], battle=b["n"]))
    elif kind == "unfly":
        uid = action["unit"]
        s["units"][uid]["mission"] = None
        facts.append(fact(f"{name(w, uid)} stays at its base", "AoB 7.1", "air_mission", unit=uid))
    else:
        facts.append(fact(f"{side_name(side)} ends its air missions", "AoB 9.4", "phase"))


# -- AA fire (AoB 16) ------------------------------------------------------------------------

def aa_fire(s: State, w: World, b: dict[str, Any], dice: DiceSource, facts: list[Fact]) -> None:
    """AoB 16.1-16.2: a city with AA fires first, once per German bomber, in unit-id order."""
    h = w.hexes[b["hex"]]
    if h.city is None or h.city.aa <= 0:
        return
    for uid in sorted(aircraft(s, w, "germany", "bomber", b["n"])):
        u = w.units[uid]
        die = dice.roll(6, f"AA fire at {b['hex']} on {uid}")
        res = aa_result(h.city.aa, die)
        before = max(0, u.bombing - b["aa_loss"].get(uid, 0))
        b["aa_loss"][uid] = b["aa_loss"].get(uid, 0) + res.loss
        after = max(0, u.bombing - b["aa_loss"][uid])
        text = f"AA fire at {h.city.name or b['hex']} (STR {h.city.aa}): die {die} → "
        if res.cell == "-":
            text += f"no effect on {u.name}"
        else:
            text += f"{u.name} loses {res.loss}: tactical {before} → {after}"
        if res.removed:
            s["units"][uid]["status"] = "removed"
            text += f"; result {res.cell}: {u.name} is also hit and removed from the game"
        facts.append(fact(text, "AoB 16.2", "aa", battle=b["n"], hex=b["hex"], unit=uid, die=die, result=res.cell,
                          loss=res.loss))


# -- air combat (AoB 10) ------------------------------------------------------------------

def _order(w: World, ids: list[str]) -> list[str]:
    return sorted(ids, key=lambda u: (-w.units[u].air, u))


def _shot(w: World, firer: str, target: str, dice: DiceSource, n: int, facts: list[Fact],
          hits: dict[str, str]) -> None:
    f, t = w.units[firer], w.units[target]
    d1 = dice.roll(6, f"air combat battle {n}: {firer} fires at {target}")
    d2 = dice.roll(6, f"air combat battle {n}: {firer} fires at {target}")
    col = f.air - t.air
    res = air_result(col, d1 + d2)
    if res != "-" and target not in hits:
        hits[target] = res
    outcome = f"{res}: {t.name} {RESULT_WORDS[res]}, removed from the game" if res != "-" else "- (no effect)"
    facts.append(fact(f"Air combat: {f.name} ({f.air}) vs {t.name} ({t.air}), column {col:+d}, "
                      f"2d6={d1 + d2} → {outcome}", "AoB 10.6", "air", battle=n, firer=firer, target=target,
                      dice=[d1, d2], column=col, result=res))


def air_combat(s: State, w: World, b: dict[str, Any], dice: DiceSource, facts: list[Fact]) -> None:
    """One fighter round, then the fighters with no adverse result engage enemy bombers."""
    n = b["n"]
    fighters = {side: _order(w, aircraft(s, w, side, "fighter", n)) for side in ("germany", "belgium")}
    bombers = {side: _order(w, aircraft(s, w, side, "bomber", n)) for side in ("germany", "belgium")}
    free = {side: list(fighters[side]) for side in fighters}
    if fighters["germany"] and fighters["belgium"]:
        hits: dict[str, str] = {}
        for side, enemy in (("germany", "belgium"), ("belgium", "germany")):
            for i, f in enumerate(fighters[side]):
                _shot(w, f, fighters[enemy][i % len(fighters[enemy])], dice, n, facts, hits)
        _remove(s, hits)  # AoB 10.6: simultaneous
        free = {side: [f for f in fighters[side] if f not in hits] for side in fighters}
    hits = {}
    for side, enemy in (("germany", "belgium"), ("belgium", "germany")):
        for f, target in zip(free[side], bombers[enemy]):
            facts.append(fact(f"{w.units[f].name} engages {w.units[target].name}", "AoB 10.5", "air",
                              battle=n, firer=f, target=target))
            _shot(w, f, target, dice, n, facts, hits)
            _shot(w, target, f, dice, n, facts, hits)  # the bomber fires back (INFERRED)
    _remove(s, hits)


def _remove(s: State, hits: dict[str, str]) -> None:
    for uid in sorted(hits):
        s["units"][uid]["status"] = "removed"  # AoB 10.7
