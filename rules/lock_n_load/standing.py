"""Standing answers in Lock 'n Load (rules version 4 on; ours, not in the rulebook: the generic
machinery is rules/core/standing.py, as Assault on Belgium's and Vietnam Battles'). Standing
orders (rules/lock_n_load/orders.py) answer the opportunity-fire prompts (5.3); a standing answer
answers a side's impulse between the other side's (4.0, 4.1), where a defender that waits in its
cover is asked, impulse after impulse, only to pass:

* `impulse` (LnL 4.0, 4.1): `pass` — the side passes its impulse without being asked;
* `rally` (LnL 3.0): `end` — the side ends its Rally Phase step without being asked (what it
  might still do there, exchanging or recombining units and weapons, is left undone).

The conditions test the impulse's public context: `targets` (the enemy hexes the side's units
that can act could fire at now: in LOS, range and spotted, 5.0, 10.1), `near` (the fewest hexes
between a unit of the side and an enemy unit; 99 with none on the map), `turn`, `turns_left` (the
turns after this one) and `passes` (passes in a row so far, 4.1), `held` (the objectives the enemy holds now, 2.0); a rally step's: `rallies` (the rally, medic and pickup
actions open to the side now, 3.0, 11.3), `shaken` (its shaken units on the map), `turn` and
`turns_left`. For example, a defender that
fires only when it has a target and counter-attacks in the last turns:

    {"type": "standing", "kind": "impulse", "answer": "pass", "when": [["targets", "==", 0], ["turns_left", ">=", 2]]}

A standing answer is the seat's hidden move and a face-down marker (rules/core/standing.py): its
kind and conditions are public (they decide, publicly, whether the game waits), its answer is the
seat's until the game ends. Recording one changes nothing else: the seat is asked again.
"""

from __future__ import annotations

from typing import Any

from rules.core import standing
from rules.core.game import Action
from rules.lock_n_load import fire
from rules.lock_n_load import units as U
from rules.lock_n_load.data import World

State = dict[str, Any]
NONE_NEAR = 99  # `near` when either side has no unit on the map

KINDS: dict[str, standing.Kind] = {k.name: k for k in (
    standing.Kind("impulse", ("pass",), {"targets": int, "near": int, "turn": int, "turns_left": int, "passes": int,
                                          "held": int},
                  "LnL 4.0, 4.1", "activate a hex, spot, or pass the impulse"),
    standing.Kind("rally", ("end",), {"rallies": int, "shaken": int, "turn": int, "turns_left": int},
                  "LnL 3.0", "rally, treat, pick up or exchange, or end the Rally Phase step"),
)}
_FIXES = ("rally", "medic", "pickup")  # the rally step's actions that `rallies` counts


def uses(s: State) -> bool:
    """Standing answers exist from rules version 4."""
    return s["version"] not in ("1", "2", "3")


def allowed(s: State, a: Action) -> bool:
    """A well-formed standing answer (any stop of the acting seat, version 4 on)."""
    if not uses(s) or s["phase"] == "over":
        return False
    try:
        standing.check(KINDS, a)
    except Exception:  # IllegalAction: malformed
        return False
    return True


def targets(s: State, w: World, side: str) -> int:
    """The enemy hexes the side's units that can act could fire at now (fire.plan: LOS, range,
    spotted)."""
    foes = U.side_hexes(s, U.other(side))
    out = set()
    for h in U.side_hexes(s, side):
        group = [u for u in U.units_in(s, h, side) if U.can_act(s, w, u)]
        if not group:
            continue
        out |= {t for t in foes if t not in out and fire.plan(s, w, group, t, opportunity=False) is not None}
    return len(out)


def context(s: State, w: World, side: str) -> dict[str, Any]:
    mine, theirs = U.side_hexes(s, side), U.side_hexes(s, U.other(side))
    near = min((w.board.distance(a, b) for a in mine for b in theirs), default=NONE_NEAR)
    from rules.lock_n_load.events import holds

    return {"targets": targets(s, w, side), "near": near, "turn": s["turn"], "turns_left": s["turns"] - s["turn"],
            "passes": s["passes"], "held": sum(1 for o in s["objectives"] if holds(s, w, o, U.other(side)))}


def rally_context(s: State, w: World, side: str) -> dict[str, Any]:
    from rules.lock_n_load import rally

    acts = rally.legal(s, w, side)
    shaken = [u for u in U.on_map(s) if s["units"][u]["side"] == side and s["units"][u]["shaken"]]
    return {"rallies": sum(1 for a in acts if a["type"] in _FIXES), "shaken": len(shaken), "turn": s["turn"],
            "turns_left": s["turns"] - s["turn"]}


def point(s: State, w: World) -> tuple[str, str, dict[str, Any]] | None:
    """The decision the game waits at, if a standing answer may settle it: a side's impulse, or
    its Rally Phase step."""
    if not uses(s) or s["decision"] is not None:
        return None
    if s["phase"] == "rally":
        side = str(s["rally_side"])
        if "rally" not in s.get("standing", {}).get(side, {}):
            return None  # no marker: nothing to compute
        return side, "rally", rally_context(s, w, side)
    if s["phase"] != "operations" or s["impulse"] is not None:
        return None
    side = str(s["player"])
    if "impulse" not in s.get("standing", {}).get(side, {}):
        return None
    return side, "impulse", context(s, w, side)
