"""Movement (LnL 6.0-6.3, 1.3, 13.1, T3): costs, movement allowances, legal steps, and the
opportunity-fire window each movement point opens (5.3, W1)."""

from __future__ import annotations

from typing import Any

from rules.lock_n_load import units as U
from rules.lock_n_load.data import World
from rules.lock_n_load.geometry import hexside
from rules.lock_n_load.los import cached_los

State = dict[str, Any]
MODES = ("normal", "assault", "double", "crawl")


def cost(s: State, w: World, uid: str, frm: str, to: str) -> int:
    """T3: the terrain's MP; road to road across a road hexside 1; VC pay 1 in jungle (13.1, A37);
    +1 MP moving up in elevation (T3 hill)."""
    k = U.kind(s, w, uid)
    row = w.tec[w.terrain(to)]
    mp = int(row["mp"])
    if w.hexsides.get(hexside(frm, to), {}).get("road"):
        mp = 1
    elif k.nationality == "VC" and row.get("jungle"):
        mp = 1
    if w.level(to) > w.level(frm):
        mp += 1
    return mp


def allowance(s: State, w: World, uid: str, mode: str, leader_mf: int | None) -> int:
    """6.0 MF; an SMC carrying a SW loses 2 (T7); Double Time +2 up to the leader's MF (6.2, A34);
    Assault Move half the (double-timed) MF, rounded up (6.1)."""
    k = U.kind(s, w, uid)
    r = s["units"][uid]
    mf = k.mf
    if k.is_smc and r["sws"]:
        mf -= 2
    if mode == "double" and leader_mf is not None:
        mf = mf if k.cls == "leader" else min(mf + 2, leader_mf)
    if mode == "assault":
        mf = (mf + 1) // 2
    return max(0, mf)


def group_leader_mf(s: State, w: World, group: list[str]) -> int | None:
    for u in group:
        if U.kind(s, w, u).cls == "leader" and not s["units"][u]["shaken"] and not s["units"][u]["wounds"]:
            return U.kind(s, w, u).mf
    return None


def modes(s: State, w: World, group: list[str]) -> list[str]:
    """The movement modes open to a group (6.0-6.3)."""
    out = ["normal", "crawl"]
    if all(U.kind(s, w, u).assault_move for u in group) and not any(s["units"][u]["shaken"] for u in group):
        out.append("assault")
    if group_leader_mf(s, w, group) is not None and len(group) > 1:
        out.append("double")
    if any(s["units"][u]["shaken"] for u in group):
        out = [m for m in out if m in ("normal", "crawl")]
    return out


def nearest_enemy(s: State, w: World, hex_id: str, side: str) -> int | None:
    ds = [w.board.distance(hex_id, h) for h in U.side_hexes(s, U.other(side))]
    return min(ds) if ds else None


def legal_steps(s: State, w: World, mv: dict[str, Any]) -> list[str]:
    """Adjacent hexes the moving group may enter now (6.0, 1.3, 5.1, 8.0)."""
    at = mv["at"]
    group = mv["units"]
    side = s["units"][group[0]]["side"]
    if mv["mode"] == "crawl" and mv["steps"] >= 1:
        return []
    out = []
    for n in w.board.neighbours(at):
        enemy = U.units_in(s, n, U.other(side))
        if enemy and mv["mode"] == "assault":
            continue  # 8.0: no Assault Move into melee
        if enemy and any(s["units"][u]["shaken"] for u in group):
            continue
        if any(s["units"][u]["shaken"] for u in group):
            here, there = nearest_enemy(s, w, at, side), nearest_enemy(s, w, n, side)
            if here is not None and there is not None and there < here:
                continue  # 5.1 (A41): a shaken unit may not move closer to a known enemy
        ok = True
        for u in group:
            c = cost(s, w, u, at, n)
            left = mv["mp"][u]
            if c > left and not (mv["steps"] == 0 and left > 0):  # 6.0: always one hex
                ok = False
        if ok and not U.stacking_ok(s, w, n, side, extra=[u for u in group]):
            ok = False
        if ok:
            out.append(n)
    return out


def opp_fire_hexes(s: State, w: World, mv: dict[str, Any]) -> list[str]:
    """Hexes of the non-moving side that may still opportunity-fire at the movers' hex (5.3):
    an unmarked, OC or Assault-Moved-not-fired GO unit with LOS and range; each hex once per MP (A14)."""
    from rules.lock_n_load.fire import plan

    at = mv["at"]
    side = s["units"][mv["units"][0]]["side"]
    foe = U.other(side)
    if mv["mode"] == "crawl" and not (at in s["spotted"] or U.open_hex(s, w, at)):
        return []  # 5.3: low crawlers only when entering a spotted hex
    out = []
    for h in U.side_hexes(s, foe):
        if h in mv["fired_from"] or h == at:
            continue
        firers = opp_firers(s, w, h, foe)
        if not firers:
            continue
        if cached_los(w, h, at, sorted(s["smoke"])).blocked:
            continue
        if plan(s, w, firers, at, opportunity=True) is not None:
            out.append(h)
    return out


def opp_firers(s: State, w: World, hex_id: str, side: str) -> list[str]:
    out = []
    for u in U.units_in(s, hex_id, side):
        r = s["units"][u]
        if r["shaken"] or r["melee_locked"]:
            continue
        if r["marker"] in ("", "oc") or (r["marker"] == "assault" and not r["am_fired"]):
            out.append(u)
    return out
