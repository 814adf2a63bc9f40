"""Shapes: the action shape check (from the verb table, verbs.py), the state document, prompts and descriptions
(docs/games/vietnam-battles.md)."""

from __future__ import annotations

from typing import Any, cast

from rules.core.game import Action, IllegalAction, InvalidState
from rules.core.shapes import check_shape
from rules.vietnam_battles.data import World
from rules.vietnam_battles.support import value
from rules.vietnam_battles.verbs import VERBS

# action type -> {field: python type}; every field is required (the verb table, rules/vietnam_battles/verbs.py).
ACTIONS: dict[str, dict[str, type]] = VERBS.shapes()


ACTIONS_V1: dict[str, dict[str, type]] = {k: v for k, v in ACTIONS.items() if k != "standing"}


def check_action_shape_v1(action: Any) -> Action:
    """Rules version 1: no standing answers (its refusals word for word as they were)."""
    check_shape(action, ACTIONS_V1)
    if action["type"] == "retreat" and not all(isinstance(h, str) for h in action["path"]):
        raise IllegalAction("a retreat path is a list of hex numbers")
    return cast(Action, action)


def check_action_shape(action: Any) -> Action:
    check_shape(action, ACTIONS)
    if action["type"] == "retreat" and not all(isinstance(h, str) for h in action["path"]):
        raise IllegalAction("a retreat path is a list of hex numbers")
    return cast(Action, action)


def explain(s: dict[str, Any], w: World, action: Action) -> IllegalAction:
    t = action["type"]
    return IllegalAction(f"{describe(action)} is not legal now ({ask(s, w, None)})", VERBS.rule_of(t) or "VB 4.1")


PHASES = ("setup", "movement", "combat", "mech_movement", "mech_combat", "over")
TOP_KEYS = ("game", "version", "scenario", "map_id", "data_id", "options", "rules", "turn", "final_turn", "phase",
            "player", "units", "moving", "battle", "decision", "hands", "spent", "bombarded", "defended",
            "attacks_made", "eliminated", "chits", "bridges_down", "eng_bridge", "eng", "secret", "camps", "captures",
            "vc_setup", "iron",
            "result")
UNIT_KEYS = ("at", "status", "reduced", "moved", "attacked", "advanced", "retreated", "transported")


def _need(cond: bool, msg: str) -> None:
    if not cond:
        raise InvalidState(msg)


def check_state(s: Any, w: World) -> None:
    _need(isinstance(s, dict), "a state is an object")
    _need(sorted(s) in (sorted(TOP_KEYS), sorted(TOP_KEYS + ("standing",))),
          f"state keys must be exactly {sorted(TOP_KEYS)} (and standing, rules version 2 on)")
    _need(s["game"] == "vietnam-battles", "not a Vietnam Battles state")
    _need(s["phase"] in PHASES and s["player"] in ("us", "vc"), "bad phase or player")
    _need(isinstance(s["turn"], int) and 1 <= s["turn"], "turn is a whole number from 1")
    land: dict[str, str] = {}
    spaces: dict[str, str] = {}
    for u, r in s["units"].items():
        _need(u in w.units, f"unknown unit {u}")
        _need(sorted(r) == sorted(UNIT_KEYS), f"unit {u}: keys {UNIT_KEYS}")
        _need(r["status"] in ("map", "dead", "off", "hidden", "exited"), f"unit {u}: bad status")
        if r["status"] != "map":
            _need(r["at"] is None, f"unit {u}: off the map has no position")
            continue
        at = r["at"]
        if "/" in at:
            a, b = at.split("/")
            _need(w.units[u].monitor and a in w.hexes and b in w.hexes and w.grid.distance(a, b) == 1,
                  f"unit {u}: only a monitor may sit on a hexside, and it must be one")
            _need(at not in spaces or s["moving"] is not None, f"two monitors on {at}")
            spaces[at] = u
            continue
        if w.units[u].monitor:
            _need(at in w.hexes, f"unit {u}: {at} is not a map hex")
            continue
        _need(w.is_node(at), f"unit {u}: {at} is not a land position (a hex, or a split hex's portion)")
        moving = s["moving"] is not None and s["moving"]["unit"] in (u, land.get(at))
        _need(at not in land or moving or s["decision"] is not None, f"units {land.get(at)} and {u} stacked in {at}")
        land[at] = u
    for side in ("us", "vc"):
        _need(isinstance(s["hands"][side], list) and isinstance(s["spent"][side], list), "hands are lists")


def ask(s: dict[str, Any], w: World, seat: str | None) -> str:
    if s["phase"] == "over":
        r = s["result"] or {}
        return f"The game is over: {r.get('result', '')}"
    d = s["decision"]
    b = s["battle"]
    if d is not None:
        k = d["kind"]
        if k == "retreat":
            text = f"Retreat {d['n']} hex(es) or hold at all costs: " + ", ".join(w.units[u].name for u in d["units"])
        elif k == "displace":
            text = (f"Displace {w.units[d['blocker']].name} one hex so that {w.units[d['unit']].name} can retreat, "
                    "or refuse")
        elif k == "loss":
            text = f"Choose the attacking unit that loses a step ({d['why']})"
        elif k == "advance":
            text = "Advance after combat along the path of retreat, or stop"
        elif k == "ambush":
            text = f"Ambush: push {w.units[d['unit']].name} out of {d['hex']} into an empty adjacent hex"
        elif k == "ben_suc":
            text = "Ben Suc: roll to change the game's length, or decline" if s["iron"]["ben_suc"] == "offered" \
                else f"Ben Suc: extend or shorten the game by {s['iron']['ben_suc_roll']} turn(s)"
        elif k == "errant":
            text = "Errant fire: choose which of your nearest units it falls on"
        else:
            text = str(d.get("prompt", k))
        return f"{d['seat'].upper()}: {text}"
    if b is not None:
        side = "attacker" if b["step"] in (1, 3) else "defender"
        who = b["attacker"] if side == "attacker" else ("vc" if b["attacker"] == "us" else "us")
        return (f"{who.upper()} ({side}): support fire step {b['step']} against {w.units[b['defender']].name}: commit a "
                "marker or pass" + (", or add attacking units" if b["step"] == 1 and b["kind"] == "attack" else ""))
    if s["moving"] is not None:
        u = s["moving"]["unit"]
        return f"{s['player'].upper()}: move {w.units[u].name} hex by hex, or end its move"
    if s["phase"] == "setup":
        return f"{s['player'].upper()}: set up (VB 26.0/27.0)"
    return f"{s['player'].upper()}: Turn {s['turn']} {s['phase'].replace('_', ' ')} phase"


def describe(a: Action, w: World | None = None) -> str:
    """One line for logs and buttons; with the world, units by name and values and markers by
    their value ("4/47 C 3-4-5 attacks 514/1 3-5-6", "commit support fire +2")."""
    t = a.get("type")
    if w is not None:
        a = {**a, **{k: _named(w, a[k]) for k in ("unit", "defender") if isinstance(a.get(k), str)}}
        if isinstance(a.get("marker"), str):
            a["marker"] = _marker(w, a["marker"])
    texts = {
        "select": f"move {a.get('unit')}", "enter": f"enter {a.get('hex')}", "sail": f"sail to {a.get('to')}",
        "end_move": "end this move", "end_phase": "end the phase",
        "declare": f"{a.get('unit')} attacks {a.get('defender')}", "add": f"{a.get('unit')} joins the attack",
        "support": f"commit support fire {a.get('marker')}", "pass": "pass",
        "bombard": f"bombard {a.get('unit')} with {a.get('marker')}", "lose_step": f"{a.get('unit')} loses the step",
        "hold": f"{a.get('unit')} holds at all costs", "retreat": f"{a.get('unit')} retreats {a.get('path')}",
        "displace": f"displace to {a.get('hex')}", "refuse": "refuse displacement",
        "advance": f"{a.get('unit')} advances to {a.get('hex')}", "end_advance": "stop advancing",
        "errant": f"errant fire hits {a.get('unit')}", "slick": f"helicopter-lift {a.get('unit')}",
        "tango": f"river-lift {a.get('unit')}", "land": f"land in {a.get('hex')}",
        "demolish": f"demolish the bridge {a.get('hexside')}", "push": f"push the ambushed unit into {a.get('hex')}",
        "repair": f"{a.get('unit')} repairs the bridge {a.get('hexside')}",
        "eng_bridge": f"engineers bridge {a.get('site')}", "camp": f"record a base camp in {a.get('hex')}",
        "place": f"set up {a.get('unit')} openly", "hide": f"set up {a.get('unit')} hidden",
        "at": f"put it in {a.get('hex')}", "choose_victory": f"choose the victory condition {a.get('condition')}",
        "cache": f"place a supply cache in {a.get('hex')}", "b52": f"B-52 strike on {a.get('unit')}",
        "ben_suc": f"Ben Suc: {a.get('choice')}", "exit": "leave the map",
        "designate": f"designate {a.get('camp')} as the real chit",
        "standing": f"standing answer to {a.get('kind')}: {a.get('answer')}",
    }
    return texts.get(str(t), ", ".join(f"{k}={v}" for k, v in sorted(a.items())))


def _named(w: World, uid: str) -> str:
    u = w.units.get(uid)
    return f"{u.name} {u.attack}-{u.defense}-{u.ma}" if u is not None else uid


def _marker(w: World, marker: str) -> str:
    try:
        return f"+{value(w, marker)} ({marker})"
    except (KeyError, IndexError, ValueError):
        return marker
