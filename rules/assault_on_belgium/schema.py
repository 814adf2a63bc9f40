"""Shapes: the action shape check (from the verb table, verbs.py) and the state document (docs/games/assault-on-belgium.md)."""

from __future__ import annotations

from typing import Any

from rules.assault_on_belgium.data import World
from rules.assault_on_belgium.verbs import VERBS
from rules.core.game import Action, InvalidState, State
from rules.core.shapes import check_shape

# action type -> {field: python type}; every field is required except move's tank_battle (the
# verb table, rules/assault_on_belgium/verbs.py).
ACTIONS: dict[str, dict[str, type]] = VERBS.shapes()
_FLAGS = VERBS.flags({"tank_battle": "AoB 15.4"})


ACTIONS_V1: dict[str, dict[str, type]] = {k: v for k, v in ACTIONS.items() if k != "standing"}


def check_action_shape(action: Any) -> Action:
    """Refuse malformed actions with IllegalAction (apply never trusts the client)."""
    return check_shape(action, ACTIONS, _FLAGS)


def check_action_shape_v1(action: Any) -> Action:
    """Rules version 1: no standing answers (its refusals word for word as they were)."""
    return check_shape(action, ACTIONS_V1, _FLAGS)


LAND_STATUS = ("unplaced", "active", "eliminated")
AIR_STATUS = ("unplaced", "active", "removed")
BATTLE_STATUS = ("pending", "active", "done")
TOP_KEYS = ("game", "version", "scenario", "map_id", "oob_id", "options", "phase", "selected", "units", "battles",
            "next_battle", "combat", "result")


def _need(cond: bool, msg: str) -> None:
    if not cond:
        raise InvalidState(msg)


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_state(s: Any, w: World, phases: tuple[str, ...], steps: tuple[str, ...]) -> None:
    _need(isinstance(s, dict), "the state must be an object")
    missing = [k for k in TOP_KEYS if k not in s]
    _need(not missing, f"state lacks {', '.join(missing)}")
    _need(s["game"] == "assault-on-belgium", f"state is of game {s['game']!r}")
    _need(s["map_id"] == w.map_id, f"state was set up on map {s['map_id']!r}, the rules have {w.map_id!r}")
    _need(s["oob_id"] == w.oob_id, f"state was set up with OOB {s['oob_id']!r}, the rules have {w.oob_id!r}")
    _need(isinstance(s["options"], dict) and all(isinstance(v, bool) for v in s["options"].values()),
          "options must be an object of booleans")
    _need(s["phase"] in phases, f"unknown phase {s['phase']!r}")
    _need(s["selected"] is None or s["selected"] in w.units, f"selected unit {s['selected']!r} is unknown")
    units = s["units"]
    _need(isinstance(units, dict) and set(units) == set(w.units),
          "units must hold exactly the OOB's unit ids" + (
              f" (unknown: {sorted(set(units) - set(w.units))[:3]}, missing: {sorted(set(w.units) - set(units))[:3]})"
              if isinstance(units, dict) else ""))
    for uid, st in units.items():
        u = w.units[uid]
        _need(isinstance(st, dict), f"unit {uid} must be an object")
        where = f"unit {uid}"
        _need(st.get("hex") is None or st.get("hex") in w.hexes, f"{where}: hex {st.get('hex')!r} is not on the map")
        if u.is_land:
            _need(st.get("status") in LAND_STATUS, f"{where}: status must be one of {LAND_STATUS}")
            _need(_int(st.get("hits")) and 0 <= st["hits"] <= u.defense, f"{where}: hits must be 0..{u.defense}")
            _need(st.get("mp") is None or (_int(st["mp"]) and st["mp"] >= 0), f"{where}: mp must be null or >= 0")
            _need(isinstance(st.get("moved"), bool) and isinstance(st.get("done"), bool),
                  f"{where}: moved and done must be booleans")
            _need(st["status"] != "active" or (st["hits"] < u.defense), f"{where}: an active unit has hits < defense")
        else:
            _need(st.get("status") in AIR_STATUS, f"{where}: status must be one of {AIR_STATUS}")
            _need(st.get("mission") is None or _int(st.get("mission")), f"{where}: mission must be a battle number")
            _need(st.get("with") is None or st.get("with") in w.units, f"{where}: with must be a unit id")
        _need((st["status"] == "active") == (st["hex"] is not None) or (u.is_air and st["status"] == "removed"),
              f"{where}: an active unit has a hex and only an active land unit has one")
        if st["status"] == "active":
            _need(not w.hexes[st["hex"]].is_sea, f"{where}: stands on a sea hex")
    _check_selected(s, w)
    _need(isinstance(s["battles"], list), "battles must be a list")
    numbers = set()
    for b in s["battles"]:
        _need(isinstance(b, dict) and _int(b.get("n")), "each battle needs a number n")
        where = f"battle {b['n']}"
        _need(b["n"] not in numbers, f"{where} appears twice")
        numbers.add(b["n"])
        _need(b.get("hex") in w.hexes and b.get("origin") in w.hexes, f"{where}: hex and origin must be map hexes")
        _need(b["origin"] in w.neighbours(b["hex"]), f"{where}: the vector's origin must be adjacent")
        _need(b.get("status") in BATTLE_STATUS, f"{where}: status must be one of {BATTLE_STATUS}")
        _need(b.get("marker") is None or (_int(b["marker"]) and b["marker"] >= 0), f"{where}: bad marker")
        _need(_int(b.get("round")) and b["round"] >= 0, f"{where}: round must be >= 0")
        _need(isinstance(b.get("aa_loss"), dict) and isinstance(b.get("retreats"), list), f"{where}: bad aa_loss/retreats")
        for key in ("marker_removed",):
            _need(isinstance(b.get(key), bool), f"{where}: {key} must be a boolean")
    _need(_int(s["next_battle"]) and all(n < s["next_battle"] for n in numbers), "next_battle must exceed every n")
    for uid, st in units.items():
        if w.units[uid].is_air and st["mission"] is not None:
            _need(st["mission"] in numbers, f"unit {uid}: flies to unknown battle {st['mission']}")
    c = s["combat"]
    if s["phase"] == "combat":
        _need(isinstance(c, dict), "the combat phase needs a combat object")
    if c is not None:
        _need(isinstance(c, dict) and c.get("step") in steps, f"combat step must be one of {steps}")
        _need(c.get("battle") is None or c["battle"] in numbers, "combat.battle is not a battle number")
        for key in ("fighting", "bomber", "retreat_due"):
            _need(isinstance(c.get(key), dict), f"combat.{key} must be an object")
            for v in c[key].values():
                _need(v is None or v in w.units, f"combat.{key} names an unknown unit")
        _need(_int(c.get("pending_hits")) and c["pending_hits"] >= 0, "combat.pending_hits must be >= 0")
        _need(isinstance(c.get("queue"), list) and all(n in numbers for n in c["queue"]), "combat.queue is bad")
        _check_step(s, c)
    r = s["result"]
    _need(r is None or (isinstance(r, dict) and r.get("winner") in ("germany", "belgium")),
          "result must be null or name a winner")
    _need((r is not None) == (s["phase"] == "over"), "a result is present exactly when the phase is over")


def _check_step(s: State, c: dict[str, Any]) -> None:
    """A combat step the game can stop at must have what that step asks about."""
    step = c["step"]
    status = {b["n"]: b["status"] for b in s["battles"]}
    if step == "choose_battle":
        _need("pending" in status.values(), "choose_battle needs a pending battle")
    elif step == "pursuit":
        _need(status.get(c.get("battle")) == "done", "the pursuit step needs combat.battle to be a finished battle")
    elif step != "done":
        _need(status.get(c.get("battle")) == "active", f"combat step {step} needs combat.battle to be an active battle")
    if step.endswith("_retreat"):
        side = "germany" if step.startswith("attacker") else "belgium"
        _need(c["retreat_due"].get(side) is not None, f"{step} needs combat.retreat_due.{side}")
    if step == "assign_hits":
        _need(c["pending_hits"] > 0, "assign_hits needs pending_hits > 0")
    if step == "pursuit":
        p = c.get("pursuit")
        _need(isinstance(p, dict) and isinstance(p.get("selected"), list) and isinstance(p.get("sent"), list)
              and isinstance(p.get("aircraft_moved"), bool) and p.get("battle") == c.get("battle"),
              "the pursuit step needs combat.pursuit for the current battle")
    if step == "done":
        _need(s["phase"] == "over", "combat is done only when the game is over")


MOVERS = {"setup_belgium": "belgium", "setup_germany": "germany", "german_land_move": "germany",
          "belgian_reaction": "belgium"}


def _check_selected(s: State, w: World) -> None:
    """The selected unit belongs to the side acting in a set-up or movement phase, else none is."""
    side = MOVERS.get(s["phase"])
    sel = s["selected"]
    if side is None:
        _need(sel is None, f"no unit is selected in phase {s['phase']}")
        return
    if s["phase"].startswith("setup"):
        _need(sel is None or (w.units[sel].side == side and s["units"][sel]["status"] == "unplaced"),
              "the selected unit must be an unplaced unit of the side setting up")
        return
    for uid in w.side_units(side):
        st = s["units"][uid]
        if w.units[uid].is_land and st["status"] == "active":
            _need(_int(st["mp"]), f"unit {uid}: a moving side's units need their mp")
    _need(sel is None or (w.units[sel].side == side and w.units[sel].is_land and s["units"][sel]["status"] == "active"
                          and not s["units"][sel]["done"]),
          "the selected unit must be an active, unfinished land unit of the moving side")
