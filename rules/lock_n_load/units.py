"""Reading the state: units, stacks, morale, leaders, target modifiers, spotting (LnL 1.3, 1.5,
5.0.1, 10.1, 11.x, 13.x, T3). Pure functions of (state, world); nothing here changes the state."""

from __future__ import annotations

from contextlib import AbstractContextManager
from contextvars import ContextVar
from operator import itemgetter
from typing import Any

from rules.core.readscope import read_only_scope
from rules.lock_n_load.data import Kind, World

State = dict[str, Any]
SIDES = ("us", "vc")
MARKERS = ("", "moved", "assault", "low_crawl", "fired", "oc")


def other(side: str) -> str:
    return "vc" if side == "us" else "us"


def kind(s: State, w: World, uid: str) -> Kind:
    return w.kinds[s["units"][uid]["kind"]]


def on_map(s: State) -> list[str]:
    return sorted(u for u, r in s["units"].items() if r["at"] is not None)


def units_in(s: State, hex_id: str, side: str | None = None) -> list[str]:
    """The units in hex_id (of `side`, if given), in id order; inside an `indexed` scope on s, from
    its index of the units by hex instead of a scan of every unit."""
    cur = _SCOPE.get()
    if cur is not None and cur[0] is s["units"]:
        return list(cur[1].get((hex_id, side), ()))
    return scan_units_in(s, hex_id, side)


def scan_units_in(s: State, hex_id: str, side: str | None = None) -> list[str]:
    """units_in by a scan of every unit (outside a scope; the index's reference)."""
    return sorted(u for u, r in s["units"].items() if r["at"] == hex_id and (side is None or r["side"] == side))


_AT_SIDE = itemgetter("at", "side")
Where = tuple[list[str], list[tuple[Any, Any]]]  # every unit, and each one's (at, side), in unit order
ByHex = dict[tuple[Any, Any], list[str]]  # (hex, side or None) -> its units, sorted
_SCOPE: ContextVar[tuple[Any, ByHex] | None] = ContextVar("lnl_units_by_hex", default=None)
_RECENT: tuple[tuple[Where, ByHex], ...] = ()  # the last few indexes, newest first; swapped whole
_KEEP = 4


def _where(s: State) -> Where:
    units = s["units"]
    return list(units), list(map(_AT_SIDE, units.values()))


def _by_hex(where: Where) -> ByHex:
    """The index for these places: a recent one if the units stood just so, else built and kept."""
    global _RECENT
    recent = _RECENT
    for where2, idx in recent:
        if where2 == where:
            return idx
    idx = {}
    for u, (at, side) in zip(*where):
        idx.setdefault((at, None), []).append(u)
        idx.setdefault((at, side), []).append(u)
    for lst in idx.values():
        lst.sort()
    _RECENT = ((where, idx), *recent[: _KEEP - 1])
    return idx


def indexed(s: State) -> AbstractContextManager[None]:
    """Within this scope units_in(s, ...) answers from an index. For work that moves no unit: on
    leaving, every unit's hex and side are compared with those on entry, so a scope that moved one
    fails loudly instead of having answered from a stale index."""
    return read_only_scope(_SCOPE, s["units"], lambda: _where(s), lambda where: (_by_hex(where),),
                           "units-by-hex index")


def side_hexes(s: State, side: str) -> list[str]:
    return sorted({r["at"] for r in s["units"].values() if r["side"] == side and r["at"] is not None})


def morale(s: State, w: World, uid: str) -> int:
    """The morale on the unit's current side (1.5, 13.3), -1 per wound of a leader (5.1, A11/A45),
    +1 for ARVN with an advisor (11.6)."""
    r = s["units"][uid]
    k = kind(s, w, uid)
    m = k.morale[1] if r["shaken"] else k.morale[0]
    if k.cls == "leader":
        m -= r["wounds"]
    if k.nationality == "ARVN" and r["at"] is not None and any(
            kind(s, w, a).cls == "advisor" and not s["units"][a]["shaken"] for a in units_in(s, r["at"], r["side"])):
        m += 1  # 11.6 (A43): a Good Order advisor raises stacked ARVN morale by 1
    return m


def card(s: State, w: World, uid: str) -> str | None:
    """12.0: the skill card a unit holds: a hero's own draw (11.2, 11.12), else its counter's (scenario)."""
    r = s["units"][uid]
    return r["card"] if "card" in r else kind(s, w, uid).card


def lm(s: State, w: World, uid: str) -> int:
    """A leader's usable LM: 0 if shaken (5.1), -1 per wound (5.1, A45), never below 0."""
    r = s["units"][uid]
    k = kind(s, w, uid)
    if k.cls != "leader" or r["shaken"]:
        return 0
    return max(0, k.lm - int(r["wounds"]))


def is_go(s: State, uid: str) -> bool:
    return not s["units"][uid]["shaken"]


def best_leader(s: State, w: World, hex_id: str, side: str, nationality: str | None = None, *,
                exclude: str | None = None, unmarked: bool = False, allow_oc: bool = True) -> tuple[str | None, int]:
    """The GO leader in the hex with the highest LM (A17: one leader's LM per roll)."""
    best: tuple[str | None, int] = (None, 0)
    for u in units_in(s, hex_id, side):
        k = kind(s, w, u)
        r = s["units"][u]
        if k.cls != "leader" or u == exclude or r["shaken"]:
            continue
        if nationality is not None and k.nationality != nationality:
            continue
        if unmarked and r["marker"] in ("moved", "low_crawl", "fired", "oc"):
            continue
        if not allow_oc and r["marker"] == "oc":
            continue
        v = lm(s, w, u)
        if best[0] is None or v > best[1]:
            best = (u, v)
    return best


def stacking_ok(s: State, w: World, hex_id: str, side: str, extra: list[str] = ()) -> bool:  # type: ignore[assignment]
    """1.3: per side 3 squads (or equivalent: WT 1, half squad 1/2) and 2 SMCs; dense jungle 2 squads,
    2 SWs, 2 SMCs (T3; NVA use the normal limit, A29)."""
    present = [u for u in units_in(s, hex_id, side) if u not in extra] + list(extra)
    se2 = sum(kind(s, w, u).squad_equivalent2 for u in present)
    smcs = sum(1 for u in present if kind(s, w, u).is_smc)
    limit2, limit_sw = 6, None
    row = w.tec[w.terrain(hex_id)]
    if row.get("stacking") and not all(kind(s, w, u).nationality == "NVA" for u in present if kind(s, w, u).is_mmc):
        limit2, limit_sw = row["stacking"]["squads2"], row["stacking"]["sws"]
    if se2 > limit2 or smcs > 2:
        return False
    if limit_sw is not None:
        sws = sum(len(s["units"][u]["sws"]) for u in present)
        if sws > limit_sw:
            return False
    return True


def tm(s: State, w: World, hex_id: str, uid: str, firer_level: int | None = None) -> int:
    """Target modifier (T3): the terrain's TM by nationality (13.1, 13.2), +1 smoke (7.0), +1 on a hill
    against fire from a lower level (T3), doubled for a sniper (11.4)."""
    k = kind(s, w, uid)
    row = w.tec[w.terrain(hex_id)]
    v = int(row.get("tm_by", {}).get(k.nationality, row["tm"]))
    if hex_id in s["smoke"]:
        v += 1
    if firer_level is not None and w.level(hex_id) > firer_level:
        v += 1
    if k.cls == "sniper":
        v *= 2
    return v


def rally_tm_positive(s: State, w: World, hex_id: str, uid: str) -> bool:
    """3.0/11.3 (A23): the hex's printed TM for the unit's nationality plus smoke, without the hill +1."""
    return tm(s, w, hex_id, uid) > 0


def open_hex(s: State, w: World, hex_id: str) -> bool:
    return w.kind_of(w.terrain(hex_id)) == "open" and hex_id not in s["smoke"]


def spotted(s: State, w: World, hex_id: str, by: str) -> bool:
    """10.1: the enemy units (of side other(by)) in hex_id are spotted by side `by`."""
    enemy = units_in(s, hex_id, other(by))
    if not enemy:
        return False
    if hex_id in s["spotted"] or hex_id in s["melee"]:
        return True
    if open_hex(s, w, hex_id):
        return True
    for u in enemy:
        if s["units"][u]["marker"] in ("moved", "assault", "fired"):
            return True
    for n in w.board.neighbours(hex_id):
        if units_in(s, n, by):
            return True
    return bool(units_in(s, hex_id, by))


def squad_like(k: Kind) -> bool:
    return k.cls in ("squad", "half")


def melee_eligible(s: State, w: World, uid: str) -> bool:
    """8.0: GO MMCs, heroes, and leaders/advisors carrying an LMG or flamethrower can melee."""
    r = s["units"][uid]
    k = kind(s, w, uid)
    if r["shaken"]:
        return False
    if k.is_mmc or k.cls == "hero":
        return True
    if k.cls in ("leader", "advisor"):
        return any(w.sws[s["sws"][x]["kind"]].kind in ("lmg", "flamethrower") for x in r["sws"])
    return False


def can_act(s: State, w: World, uid: str) -> bool:
    """Not shaken, not marked (an Assault-Moved unit that has not fired may still fire, 6.1)."""
    r = s["units"][uid]
    if r["at"] is None or r["shaken"] or r["melee_locked"]:
        return False
    return r["marker"] == "" or (r["marker"] == "assault" and not r["am_fired"])
