"""Reading and writing the plain-JSON state (schema: docs/games/assault-on-belgium.md).

Handlers work on a deep copy made once per `apply`, so the helpers here may change the
dict they are given; nothing ever changes the caller's state.
"""

from __future__ import annotations

from typing import Any

from rules.assault_on_belgium.data import SIDE_NAME, World
from rules.core.game import Fact, IllegalAction, State

ATTACKER = "germany"  # Germany always has the initiative and attacks (AoB 0, memo 2)
DEFENDER = "belgium"
UNRESOLVED = ("pending", "active")


def other(side: str) -> str:
    return DEFENDER if side == ATTACKER else ATTACKER


def fact(text: str, rule: str | None, kind: str, **data: Any) -> Fact:
    return Fact(text=text, rule=rule, kind=kind, data=data)


def name(w: World, uid: str) -> str:
    return w.units[uid].name


def side_adj(side: str) -> str:
    return "German" if side == ATTACKER else "Belgian"


def side_name(side: str) -> str:
    return SIDE_NAME[side]


def ustate(s: State, uid: str) -> dict[str, Any]:
    u: dict[str, Any] = s["units"][uid]
    return u


def land_units(s: State, w: World, side: str | None = None, hex_: str | None = None) -> list[str]:
    """Active land units (in OOB order), optionally of one side and/or in one hex."""
    out = []
    units = s["units"]
    for uid in w.land_order.get(side, ()):
        st = units[uid]
        if st["status"] == "active" and (hex_ is None or st["hex"] == hex_):
            out.append(uid)
    return out


def aircraft(s: State, w: World, side: str, kind: str | None = None, mission: int | None = None) -> list[str]:
    """Aircraft still in the game, of one side, optionally one type and flying one battle."""
    out = []
    for uid, unit in w.units.items():
        if not unit.is_air or unit.side != side or (kind is not None and unit.type != kind):
            continue
        st = s["units"][uid]
        if st["status"] != "active":
            continue
        if mission is not None and st["mission"] != mission:
            continue
        out.append(uid)
    return out


def battle(s: State, n: int) -> dict[str, Any]:
    for b in s["battles"]:
        if b["n"] == n:
            found: dict[str, Any] = b
            return found
    raise IllegalAction(f"there is no battle {n}", "AoB 5.5")


def battle_at(s: State, hex_: str) -> dict[str, Any] | None:
    """The unresolved battle in a hex, if any."""
    for b in s["battles"]:
        if b["hex"] == hex_ and b["status"] in UNRESOLVED:
            found: dict[str, Any] = b
            return found
    return None


def battle_hexes(s: State) -> list[str]:
    return [b["hex"] for b in s["battles"] if b["status"] in UNRESOLVED]


def enterable_country(s: State, w: World, hex_: str) -> IllegalAction | None:
    """Sea (AoB 5.7) and, with the optional rule, the Netherlands and France (AoB 18.1)."""
    h = w.hexes[hex_]
    if h.is_sea:
        return IllegalAction(f"{hex_} is a sea hex and cannot be entered", "AoB 5.7")
    if s["options"].get("no_entry_nl_france") and h.country in ("NL", "FR"):
        country = "the Netherlands" if h.country == "NL" else "France"
        return IllegalAction(f"{hex_} is in {country}; the optional rule forbids entering it", "AoB 18.1")
    return None

