"""Standing answers in Vietnam Battles (rules version 2 on; ours, not in the rulebook:
rules/core/standing.py). Each kind is a decision where the game would wait for a seat, most of
them the other seat's in the phasing player's turn (Part V A2/A4):

* `support` (either side, VB 8.3): at a support fire step of a battle, commit the `strongest` or
  `weakest` marker it may commit, or `pass`;
* `retreat` (either side, VB 7.7-7.8): `hold` at all costs (a step loss) or `retreat` (the first
  path listed);
* `displace` (either side, VB 7.7.2): `displace` the blocking unit (the first hex listed) or
  `refuse`;
* `ambush` (the VC, VB 11.1): `push` the ambushed unit into the first hex listed.

The conditions test the decision's public context: `hex` (support: the battle's hex; retreat: the
first retreating unit's; displace: the blocker's; ambush: the landing hex), `step` (support: 1-4),
`bombard` (support: 1 for a bombardment, 0 for an attack), `n` (retreat: hexes to retreat).
"""

from __future__ import annotations

from typing import Any

from rules.core import standing
from rules.core.game import Action
from rules.vietnam_battles import combat, flow
from rules.vietnam_battles.data import World
from rules.vietnam_battles.support import value

State = dict[str, Any]

KINDS: dict[str, standing.Kind] = {k.name: k for k in (
    standing.Kind("support", ("strongest", "weakest", "pass"), {"hex": str, "step": int, "bombard": int}, "VB 8.3",
                  "commit support fire at a step of a battle, or pass"),
    standing.Kind("retreat", ("hold", "retreat"), {"hex": str, "n": int}, "VB 7.7, 7.8",
                  "hold at all costs or retreat"),
    standing.Kind("displace", ("displace", "refuse"), {"hex": str}, "VB 7.7.2",
                  "displace a blocking unit, or refuse"),
    standing.Kind("ambush", ("push",), {"hex": str}, "VB 11.1", "push an ambushed unit"),
)}


def point(s: State, w: World) -> tuple[str, str, dict[str, Any]] | None:
    """The decision the game waits at, as (seat, kind, public context), if a kind fits."""
    if s["phase"] in ("over", "setup"):
        return None
    d = s["decision"]
    if d is not None:
        seat = str(d["seat"])
        if d["kind"] == "retreat" and d["units"]:
            return seat, "retreat", {"hex": str(s["units"][d["units"][0]]["at"]), "n": int(d["n"])}
        if d["kind"] == "displace":
            return seat, "displace", {"hex": str(s["units"][d["blocker"]]["at"])}
        if d["kind"] == "ambush":
            return seat, "ambush", {"hex": str(d["hex"])}
        return None
    b = s["battle"]
    if b is not None and 1 <= b["step"] <= 4:
        return combat.step_side(b), "support", {"hex": str(b["at"]), "step": int(b["step"]),
                                                 "bombard": int(b["kind"] == "bombard")}
    return None


def pick(s: State, w: World, kind: str, answer: str) -> Action | None:
    """The legal action the answer stands for (the game's listing decides what is legal)."""
    legal = flow.legal(s, w)
    if kind == "support":
        markers = sorted((a for a in legal if a["type"] == "support"), key=lambda a: (value(w, a["marker"]), a["marker"]))
        if answer == "pass" or not markers:
            return {"type": "pass"} if {"type": "pass"} in legal else None
        return markers[-1] if answer == "strongest" else markers[0]
    want = {"hold": "hold", "retreat": "retreat", "displace": "displace", "refuse": "refuse", "push": "push"}[answer]
    fits = [a for a in legal if a["type"] == want]
    fits = [a for a in fits if a.get("path") != []] + [a for a in fits if a.get("path") == []]  # a real retreat first
    fits = fits or legal  # the answer cannot be had: the first listed
    return fits[0] if fits else None
