"""The Rally Phase (LnL 3.0, 11.3 medics, 11.5 chaplains, T2 Charismatic, 1.6.1 SW pick-up)."""

from __future__ import annotations

from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Action, Fact, IllegalAction
from rules.lock_n_load import units as U
from rules.lock_n_load.data import World

State = dict[str, Any]


def rallier(s: State, w: World, uid: str) -> tuple[str | None, int]:
    """Who lets a shaken unit attempt to rally, and the LM to subtract (3.0): itself if a leader
    (no LM) or SR; a GO leader (or chaplain, 11.5) of the same nationality in its hex, or in an
    adjacent hex if the leader is Charismatic (T2)."""
    r = s["units"][uid]
    k = U.kind(s, w, uid)
    best: tuple[str | None, int] = (None, -1)
    for h in [r["at"]] + w.board.neighbours(r["at"]):
        for u in U.units_in(s, h, r["side"]):
            lk = U.kind(s, w, u)
            if u == uid or s["units"][u]["shaken"] or lk.nationality != k.nationality:
                continue
            if lk.cls not in ("leader", "chaplain"):
                continue
            if h != r["at"] and lk.card != "Charismatic":
                continue
            v = U.lm(s, w, u) if lk.cls == "leader" else lk.lm
            if v > best[1]:
                best = (u, v)
    if best[0] is not None:
        return best[0], best[1]
    if k.cls in ("leader", "sniper") or k.self_rally or k.cls == "wt":
        return uid, 0
    return None, 0


def legal(s: State, w: World, side: str) -> list[Action]:
    out: list[Action] = []
    shaken = [u for u in U.on_map(s) if s["units"][u]["side"] == side and s["units"][u]["shaken"]
              and not s["units"][u]["rallied"]]
    leaders_first = [u for u in shaken if U.kind(s, w, u).cls == "leader"]
    for u in shaken:
        if leaders_first and u not in leaders_first:
            continue  # 3.0: rally shaken leaders first
        if rallier(s, w, u)[0] is not None:
            out.append({"type": "rally", "unit": u})
    for m in U.on_map(s):
        r = s["units"][m]
        if r["side"] != side or U.kind(s, w, m).cls != "medic" or r["shaken"] or r["rallied"]:
            continue
        for p in U.units_in(s, r["at"], side):
            pr = s["units"][p]
            pk = U.kind(s, w, p)
            if p != m and ((pk.is_smc and pr["wounds"]) or (pk.is_mmc and pr["shaken"] and not pr["rallied"])):
                out.append({"type": "medic", "unit": m, "patient": p})
    for x, sw in sorted(s["sws"].items()):
        if sw["holder"] is not None or sw["at"] is None or U.units_in(s, sw["at"], U.other(side)):
            continue
        for u in U.units_in(s, sw["at"], side):
            if can_carry(s, w, u):
                out.append({"type": "pickup", "unit": u, "sw": x})
    out.append({"type": "end_rally"})
    return out


def can_carry(s: State, w: World, uid: str) -> bool:
    """T7, 1.6.1, A8, A47: a GO squad carries 2 SWs, a half squad or a qualified SMC 1; WTs, medics,
    chaplains and snipers none."""
    r = s["units"][uid]
    k = U.kind(s, w, uid)
    if r["shaken"] or k.cls in ("wt", "medic", "chaplain", "sniper"):
        return False
    return len(r["sws"]) < (2 if k.cls == "squad" else 1)


def perform(s: State, w: World, side: str, a: Action, dice: DiceSource, facts: list[Fact]) -> bool:
    """Apply one Rally Phase action; True when the side has finished (end_rally)."""
    t = a["type"]
    if t == "end_rally":
        return True
    if t == "rally":
        u = a["unit"]
        who, lm = rallier(s, w, u)
        r = s["units"][u]
        d1, d2 = dice.roll(6, f"LnL 3.0 rally of {u}"), dice.roll(6, f"LnL 3.0 rally of {u}")
        tm_bonus = 2 if U.rally_tm_positive(s, w, r["at"], u) else 0
        total = d1 + d2 - (lm if who != u else 0) - tm_bonus
        m = U.morale(s, w, u)
        r["rallied"] = True
        ok = total <= m
        if ok:
            r["shaken"] = False
        facts.append(Fact(f"{U.kind(s, w, u).name} {u} rallies{' with ' + str(who) if who != u else ''}: "
                          f"{d1}+{d2}" + (f" - LM {lm}" if who != u and lm else "") +
                          (" - 2 terrain" if tm_bonus else "") + f" = {total} vs morale {m}: "
                          + ("Good Order" if ok else "still shaken"), "LnL 3.0", "rally",
                          {"unit": u, "dice": [d1, d2], "total": total, "morale": m, "success": ok}))
        return False
    if t == "medic":
        m, p = a["unit"], a["patient"]
        r = s["units"][m]
        d1, d2 = dice.roll(6, f"LnL 11.3 medic {m}"), dice.roll(6, f"LnL 11.3 medic {m}")
        bonus = 2 if U.rally_tm_positive(s, w, r["at"], m) else 0
        total = d1 + d2 - bonus
        ok = total <= U.morale(s, w, m)
        r["rallied"] = True
        if ok:
            pr = s["units"][p]
            if U.kind(s, w, p).is_smc:
                pr["wounds"] = max(0, pr["wounds"] - 1)  # GAP: healing removes one Wounded marker
                if pr["wounds"] == 0:
                    pr["shaken"] = False
            else:
                pr["shaken"] = False
                pr["rallied"] = True
        facts.append(Fact(f"Medic {m} treats {p}: {d1}+{d2}{' - 2' if bonus else ''} = {total}: "
                          + ("success" if ok else "failure"), "LnL 11.3", "medic",
                          {"unit": m, "patient": p, "dice": [d1, d2], "success": ok}))
        return False
    if t == "pickup":
        u, x = a["unit"], a["sw"]
        s["sws"][x]["holder"] = u
        s["sws"][x]["at"] = None
        s["units"][u]["sws"].append(x)
        facts.append(Fact(f"{u} picks up {w.sws[s['sws'][x]['kind']].name} ({x})", "LnL 3.0, 1.6.1", "pickup",
                          {"unit": u, "sw": x}))
        return False
    raise IllegalAction(f"{t} is not a Rally Phase action", "LnL 3.0")
