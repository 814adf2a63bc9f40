"""Step losses and eliminations (VB 7.6), with their consequences: body count (VB 21.0) and
the scenario's immediate checks."""

from __future__ import annotations

from typing import Any

from rules.core.game import Fact
from rules.vietnam_battles.data import World

State = dict[str, Any]


def lose_step(s: State, w: World, u: str, facts: list[Fact], rule: str, why: str = "") -> None:
    """VB 7.6: a two-step unit flips; a reduced or one-step unit is eliminated."""
    r = s["units"][u]
    d = w.units[u]
    if r["reduced"] or d.steps == 1:
        eliminate(s, w, u, facts, rule, why)
        return
    r["reduced"] = True
    facts.append(Fact(f"{d.name} loses a step (now reduced {d.r_attack}-{d.r_defense}-{d.r_ma})" + (f": {why}" if why else ""),
                      rule, "loss", {"unit": u, "hex": r["at"]}))


def eliminate(s: State, w: World, u: str, facts: list[Fact], rule: str, why: str = "") -> None:
    r = s["units"][u]
    d = w.units[u]
    at = r["at"]
    r["status"], r["at"] = "dead", None
    s["eliminated"].append(u)
    facts.append(Fact(f"{d.name} is eliminated" + (f": {why}" if why else ""), rule, "eliminated",
                      {"unit": u, "hex": at}))
    if s.get("iron") is not None and d.side == "us":  # VB 27.0 US casualties (A-25: ARVN, monitors too)
        s["iron"]["us_lost"] += 1
        s["iron"]["pending"].append("casualties")
    if s["rules"].get("body_count") and d.side == "us" and d.nationality != "ARVN":
        # VB 21.0 (A-24: monitors count; ARVN units do not)
        s["final_turn"] -= 1
        facts.append(Fact(f"Body count: a US unit is lost, the game now ends after turn {s['final_turn']}", "VB 21.0",
                          "body_count", {"final_turn": s["final_turn"]}))
