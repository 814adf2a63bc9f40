"""Shapes: the state document, the action shape check (from the verb table, rules/lock_n_load/flow.py
VERBS), prompts and descriptions (docs/games/lock-n-load.md)."""

from __future__ import annotations

from typing import Any, cast

from rules.core.game import Action, IllegalAction, InvalidState
from rules.core.shapes import check_shape
from rules.lock_n_load.data import World
from rules.lock_n_load.flow import VERBS

# action type -> {field: python type} and -> its rule section: from the verb table (flow.VERBS)
ACTIONS: dict[str, dict[str, type]] = VERBS.shapes()
RULES = VERBS.rules()
TOP_KEYS = ("game", "version", "scenario", "data_id", "options", "turn", "turns", "phase", "initiative",
            "rally_side", "rally_done", "player", "passes", "units", "sws", "spotted", "smoke", "melee", "impulse",
            "decision", "spot", "spot_used", "events", "secret", "objectives", "cache", "pending", "drops", "eliminated",
            "orders", "stats", "result")
UNIT_KEYS = ("side", "kind", "at", "shaken", "wounds", "marker", "am_fired", "activated", "rallied", "sws",
             "melee_locked", "late", "dead")
PHASES = ("rally", "operations", "over")


def check_action_shape(action: Any) -> Action:
    check_shape(action, ACTIONS)
    if action["type"] == "melee_targets" and not all(isinstance(u, str) for u in action["units"]):
        raise IllegalAction("melee_targets takes a list of unit ids", "LnL 8.0")
    return cast(Action, action)


def explain(s: dict[str, Any], w: World, action: Action) -> IllegalAction:
    return IllegalAction(f"{describe(action)} is not legal now ({ask(s, w, None)})", RULES.get(action["type"]))


def _need(cond: bool, msg: str) -> None:
    if not cond:
        raise InvalidState(msg)


def check_state(s: Any, w: World) -> None:
    _need(isinstance(s, dict), "a state is an object")
    keys = TOP_KEYS if s.get("version") in ("1", "2", "3") else TOP_KEYS + ("standing",)  # v4: standing answers
    _need(sorted(s) == sorted(keys), f"state keys must be exactly {sorted(keys)}")
    _need(s["game"] == "lock-n-load", "not a Lock 'n Load state")
    _need(s["phase"] in PHASES and s["player"] in ("us", "vc") and s["initiative"] in ("us", "vc"), "bad phase")
    _need(isinstance(s["turn"], int) and 1 <= s["turn"] <= s["turns"], "turn out of range")
    from rules.lock_n_load import units as U

    for u, r in s["units"].items():
        _need(isinstance(r, dict), f"unit {u}: an object")
        # 11.2, 11.12: a hero's drawn card; from rules version 4 a leader's too (12.0, option skill_cards)
        holders = ("hero",) if s["version"] in ("1", "2", "3") else ("hero", "leader")
        has_card = "card" in r and r.get("kind") in w.kinds and w.kinds[r["kind"]].cls in holders
        _need(sorted(r) == sorted(UNIT_KEYS + (("card",) if has_card else ())),
              f"unit {u}: keys {UNIT_KEYS} (a hero: and card; from rules version 4 a leader too)")
        _need(not has_card or r["card"] in w.skill_cards, f"unit {u}: card {r.get('card')!r} is not a skill card "
              f"({', '.join(sorted(set(w.skill_cards)))}, T2)")
        _need(r["kind"] in w.kinds and r["side"] in ("us", "vc"), f"unit {u}: unknown kind or side")
        _need(r["marker"] in U.MARKERS, f"unit {u}: bad marker")
        _need(r["at"] is None or w.board.is_hex(r["at"]), f"unit {u}: {r['at']} is not a hex")
        for x in r["sws"]:
            _need(x in s["sws"] and s["sws"][x]["holder"] == u, f"unit {u}: SW {x} not held by it")
    for x, sw in s["sws"].items():
        _need(sw["kind"] in w.sws, f"SW {x}: unknown kind")
        _need((sw["holder"] is None) != (sw["at"] is None) or (sw["holder"] is None and sw["at"] is None),
              f"SW {x}: held or on the ground, not both")
    if s["phase"] != "over":
        for h in {r["at"] for r in s["units"].values() if r["at"]}:
            for side in ("us", "vc"):
                _need(U.stacking_ok(s, w, h, side), f"{side} over-stacked in {h} (1.3)")
    for h, v in s["smoke"].items():
        _need(w.board.is_hex(h) and v in (1, 2), f"smoke in {h}")


def ask(s: dict[str, Any], w: World, seat: str | None) -> str:
    if s["phase"] == "over":
        r = s["result"] or {}
        return f"The game is over: {r.get('winner', '').upper()} wins — {r.get('reason', '')}"
    d = s["decision"]
    if d is not None and d["kind"] == "drop_sw":
        return f"{d['seat'].upper()}: {d['unit']} is now a half squad and keeps one support weapon — drop the other (1.6.1)"
    if d is not None and d["kind"] == "retreat":
        return (f"{d['seat'].upper()}: {d['unit']} is shaken by flamethrower fire — choose the hex it retreats to: "
                f"{', '.join(d['hexes'])} (1.6.2)")
    if d is not None and d["kind"] == "place_hero":
        return (f"{d['seat'].upper()}: a hero ({d['unit']}) appears but his hex is full — choose an adjacent hex: "
                f"{', '.join(d['hexes'])} (11.2)")
    if d is not None and d["kind"] == "melee_targets":
        role = "attacker" if d["seat"] == d["attacker"] else "defender"
        return f"{d['seat'].upper()}: melee in {d['hex']} — as the {role}, choose the enemy units you attack (8.0)"
    if d is not None and d.get("retreat"):
        return (f"{d['seat'].upper()}: {d['retreat']['units'][0]} retreats from flamethrower fire into {d['at']} — "
                f"opportunity fire from {', '.join(d['hexes'])}, or hold fire (1.6.2, 5.3)")
    if d is not None:
        return (f"{d['seat'].upper()}: the enemy is moving into {d['at']} — opportunity fire from "
                f"{', '.join(d['hexes'])}, or hold fire (5.3)")
    if s["phase"] == "rally":
        what = "weapons" if s["version"] == "1" else "or exchange weapons"
        return f"{s['rally_side'].upper()}: Rally Phase — rally, treat, pick up {what}, then end the step (3.0)"
    imp = s["impulse"]
    who = s["player"].upper()
    if imp is None:
        return f"{who}: turn {s['turn']} impulse — activate a hex, spot, or pass ({s['passes']} pass(es) in a row)"
    if imp["move"] is not None:
        mv = imp["move"]
        return f"{who}: {', '.join(mv['units'])} in {mv['at']} — step into the next hex or stop"
    if imp["group"]:
        return f"{who}: {', '.join(imp['group'])} selected — fire, move, lay smoke, add units or clear"
    return f"{who}: activated {', '.join(imp['hexes'])} — select units, melee, or end the impulse"


def describe(a: Action) -> str:
    t = a["type"]
    rest = ", ".join(f"{k} {v}" for k, v in sorted(a.items()) if k != "type")
    return f"{t.replace('_', ' ')}" + (f" ({rest})" if rest else "")
