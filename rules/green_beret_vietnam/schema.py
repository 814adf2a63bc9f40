"""Shapes: the action shape check (from the verb table, flow.py VERBS) and the state document (docs/games/green-beret-vietnam.md)."""

from __future__ import annotations

from typing import Any

from rules.core.game import Action, InvalidState
from rules.core.shapes import check_shape
from rules.green_beret_vietnam.data import World
from rules.green_beret_vietnam.flow import VERBS

# action type -> {field: python type}; every field is required except the `pbr` flag (the verb
# table, rules/green_beret_vietnam/flow.py VERBS).
ACTIONS: dict[str, dict[str, type]] = VERBS.shapes()
_FLAGS = VERBS.flags({"pbr": "GBV 3.1"})


def check_action_shape(action: Any) -> Action:
    return check_shape(action, ACTIONS, _FLAGS)


PHASES = ("setup_camp", "procurement", "movement", "combat", "enemy", "victory", "over")
DECISIONS = ("evade", "target", "pursuit_hex", "naval", "damage_team", "kill_leader", "lose_item", "claim",
             "relocate_to", "spend", "assassinate_team", "assassinate_leader")
TASKS = ("phase", "spawn", "enemy_moves", "enemy_move", "enemy_combats", "enemy_end", "suppression", "combat",
         "gb_loss", "item_loss", "claim", "naval", "combat_detect", "mission_check", "noise", "detected",
         "assassination")
TOP_KEYS = ("game", "version", "scenario", "map_id", "counters_id", "tables_id", "options", "turn", "phase", "pp",
            "gb", "camps", "camp_bought", "enemy_pool", "pp_markers", "enemies", "enemy_order", "damage_pool",
            "mission_pool", "mission", "tally", "moving", "attacked", "enemy_step", "suppress", "agenda", "decision",
            "result")
GB_KEYS = ("status", "hex", "moved", "left", "detected", "damage", "flipped")
ENEMY_KEYS = ("hex", "from", "mp", "moved", "suppressed", "target", "next", "path")


def _need(cond: bool, msg: str) -> None:
    if not cond:
        raise InvalidState(msg)


def _hex(w: World, v: Any, where: str) -> None:
    _need(isinstance(v, str) and v in w.hexes, f"{where}: {v!r} is not a map hex")


def check_state(s: Any, w: World) -> None:
    """Raise InvalidState unless `s` is a well-formed Green Beret: Vietnam state."""
    _need(isinstance(s, dict), "a state is an object")
    _need(tuple(sorted(s)) == tuple(sorted(TOP_KEYS)), f"state keys must be exactly {sorted(TOP_KEYS)}")
    _need(s["game"] == "green-beret-vietnam", "not a Green Beret: Vietnam state")
    _need((s["map_id"], s["counters_id"], s["tables_id"]) == (w.map_id, w.counters_id, w.tables_id),
          "the state was made with other data")
    _need(s["phase"] in PHASES, f"unknown phase {s['phase']!r}")
    _need(isinstance(s["turn"], int) and s["turn"] >= 0, "turn is a whole number")
    _need(isinstance(s["pp"], int) and not isinstance(s["pp"], bool) and s["pp"] >= 0, "PP are a whole number >= 0")
    _need(sorted(s["gb"]) == sorted(w.counters), "gb must list every Green Beret counter"
          f" (missing: {', '.join(sorted(set(w.counters) - set(s['gb']))) or 'none'};"
          f" unknown: {', '.join(sorted(set(s['gb']) - set(w.counters))) or 'none'})")
    for c, rec in s["gb"].items():
        _need(isinstance(rec, dict) and tuple(sorted(rec)) == tuple(sorted(GB_KEYS)), f"gb {c}: keys {GB_KEYS}")
        _need(rec["status"] in ("supply", "map"), f"gb {c}: bad status")
        if rec["status"] == "map":
            _hex(w, rec["hex"], f"gb {c}")
        else:
            _need(rec["hex"] is None, f"gb {c}: off the map has no hex")
        for k in ("moved", "left", "detected", "flipped"):
            _need(isinstance(rec[k], bool), f"gb {c}: {k} is true or false")
        _need(isinstance(rec["damage"], list) and all(d in w.damage for d in rec["damage"]), f"gb {c}: bad damage")
        _need(len(rec["damage"]) <= 1, f"gb {c}: a team holds at most one damage marker (13.1)")
        if w.counters[c].cls != "team":
            _need(not rec["detected"] and not rec["damage"], f"gb {c}: only teams are detected or damaged")
    _need(sorted(s["camps"]) == sorted(w.camp_ids), "camps must list every base camp counter")
    seen_hexes = set()
    for k, rec in s["camps"].items():
        _need(rec["status"] in ("supply", "map", "destroyed"), f"camp {k}: bad status")
        _need(isinstance(rec["pbr"], bool), f"camp {k}: pbr is true or false")
        if rec["status"] == "map":
            _hex(w, rec["hex"], f"camp {k}")
            _need(rec["hex"] not in seen_hexes, "two base camps in one hex")
            seen_hexes.add(rec["hex"])
    enemy_ids = list(s["enemy_pool"]) + list(s["pp_markers"]) + list(s["enemies"])
    _need(sorted(enemy_ids) == sorted(w.enemies), "every enemy unit is in the pool, a PP marker or on the map, once")
    _need(len(s["pp_markers"]) == 2, "two enemy units serve as PP markers (3.6)")
    _need(s["enemy_pool"] == sorted(s["enemy_pool"]), "the enemy pool is kept sorted")
    _need(sorted(s["enemy_order"]) == sorted(s["enemies"]) and len(set(s["enemy_order"])) == len(s["enemy_order"]),
          "enemy_order lists the enemies on the map")
    for e, rec in s["enemies"].items():
        _need(isinstance(rec, dict) and tuple(sorted(rec)) == tuple(sorted(ENEMY_KEYS)), f"enemy {e}: keys")
        _hex(w, rec["hex"], f"enemy {e}")
        _need(not w.hexes[rec["hex"]].full_water, f"enemy {e} in full water")
    held = [d for rec in s["gb"].values() for d in rec["damage"]]
    _need(sorted(held + list(s["damage_pool"])) == sorted(w.damage), "each damage marker is in the pool or on a team")
    t = s["tally"]
    _need(sorted(t) == ["abandoned", "accomplished", "leaders_lost", "teams_lost"], "tally keys")
    placed = list(t["accomplished"]) + list(t["abandoned"]) + list(s["mission_pool"])
    if s["mission"] is not None:
        _need(s["mission"]["id"] in w.missions, "unknown mission")
        _hex(w, s["mission"]["hex"], "mission")
        _need(s["mission"]["hex"] in w.missions[s["mission"]["id"]].placement, "mission off its table hexes (7.0)")
        placed.append(s["mission"]["id"])
    _need(sorted(placed) == sorted(w.missions), "every mission is in the pool, on the map, accomplished or abandoned")
    _need(s["decision"] is None or (isinstance(s["decision"], dict) and s["decision"].get("kind") in DECISIONS),
          "bad decision")
    _need(isinstance(s["agenda"], list) and all(isinstance(x, dict) and x.get("t") in TASKS for x in s["agenda"]),
          "bad agenda")
    if s["phase"] != "over":
        _need(not s["agenda"] or s["decision"] is not None, "a state rests only where the player must act")
    _need(s["moving"] is None or s["phase"] == "movement", "a move is under way only in the movement phase")
    _need(s["enemy_step"] in (None, "suppression", "resolve"), "bad enemy_step")
    _need((s["result"] is None) == (s["phase"] != "over"), "a result exactly when the game is over")
