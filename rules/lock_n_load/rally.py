"""The Rally Phase (LnL 3.0, 11.3 medics, 11.5 chaplains, T2 Charismatic, 1.6.1 SW pick-up)."""

from __future__ import annotations

from collections.abc import Iterator
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
            if h != r["at"] and U.card(s, w, u) != "Charismatic":  # T2: his counter's card or one he drew
                continue
            v = U.lm(s, w, u) if lk.cls == "leader" else lk.lm
            if v > best[1]:
                best = (u, v)
    if best[0] is not None:
        return best[0], best[1]
    for u in U.units_in(s, r["at"], r["side"]):  # 11.2: units in a hero's hex may rally without a leader
        if u != uid and U.kind(s, w, u).cls == "hero":
            return u, 0
    if k.cls in ("leader", "sniper") or k.self_rally or k.cls == "wt":
        return uid, 0
    return None, 0


def legal(s: State, w: World, side: str) -> list[Action]:
    """Every Rally Phase action of `side`, section by section (SECTIONS), end_rally last."""
    out = rallies(s, w, side) + medics(s, w, side) + pickups(s, w, side) + reorganisations(s, w, side)
    if s["version"] != "1":
        out += exchanges(s, w, side)
    out.append({"type": "end_rally"})
    return out


def rallies(s: State, w: World, side: str) -> list[Action]:
    """3.0: each shaken unit that has not tried yet and has someone to rally it, leaders first."""
    out: list[Action] = []
    shaken = [u for u in U.on_map(s) if s["units"][u]["side"] == side and s["units"][u]["shaken"]
              and not s["units"][u]["rallied"]]
    leaders_first = [u for u in shaken if U.kind(s, w, u).cls == "leader"]
    for u in shaken:
        if leaders_first and u not in leaders_first:
            continue  # 3.0: rally shaken leaders first
        if rallier(s, w, u)[0] is not None:
            out.append({"type": "rally", "unit": u})
    return out


def medics(s: State, w: World, side: str) -> list[Action]:
    """11.3: a GO medic treats a wounded SMC or a shaken MMC in its hex."""
    out: list[Action] = []
    for m in U.on_map(s):
        r = s["units"][m]
        if r["side"] != side or U.kind(s, w, m).cls != "medic" or r["shaken"] or r["rallied"]:
            continue
        for p in U.units_in(s, r["at"], side):
            pr = s["units"][p]
            pk = U.kind(s, w, p)
            if p != m and ((pk.is_smc and pr["wounds"]) or (pk.is_mmc and pr["shaken"] and not pr["rallied"])):
                out.append({"type": "medic", "unit": m, "patient": p})
    return out


def pickups(s: State, w: World, side: str) -> list[Action]:
    """1.6.1: a unit picks up a SW lying in its hex, no enemy there."""
    out: list[Action] = []
    for x, sw in sorted(s["sws"].items()):
        if sw["holder"] is not None or sw["at"] is None or U.units_in(s, sw["at"], U.other(side)):
            continue
        for u in U.units_in(s, sw["at"], side):
            if can_carry(s, w, u):
                out.append({"type": "pickup", "unit": u, "sw": x})
    return out


def of_type(s: State, w: World, side: str, kind: str) -> list[Action]:
    """The actions of `legal(s, w, side)` of type `kind`, in its order, from its one section that
    lists that type (SECTIONS) instead of the whole listing."""
    if kind == "end_rally":
        return [{"type": "end_rally"}]
    section = SECTIONS.get(kind)
    if section is None or (section is exchanges and s["version"] == "1"):
        return []
    return [x for x in section(s, w, side) if x["type"] == kind]


def only_end(s: State, w: World, side: str) -> bool:
    """`legal(s, w, side)` is end_rally alone: no section lists anything (the reorganisations asked
    only until the first: an action is a non-empty dict, true)."""
    return not (rallies(s, w, side) or pickups(s, w, side) or any(_reorganisations(s, w, side))
                or medics(s, w, side) or (s["version"] != "1" and exchanges(s, w, side)))


def exchanges(s: State, w: World, side: str) -> list[Action]:
    """3.0, 1.6.1 (rules v2 on): GO units in one hex may hand a SW to a unit that can carry one more
    ("give_sw") or trade one SW each ("swap_sw"); never in melee, never to or from a shaken unit, a
    WT, medic, chaplain or sniper (can_carry)."""
    out: list[Action] = []
    for h in U.side_hexes(s, side):
        if h in s["melee"]:
            continue
        go = [u for u in U.units_in(s, h, side) if not s["units"][u]["shaken"]
              and U.kind(s, w, u).cls not in ("wt", "medic", "chaplain", "sniper")]
        for a in go:
            for x in s["units"][a]["sws"]:
                for b in go:
                    if b == a:
                        continue
                    if can_carry(s, w, b):
                        out.append({"type": "give_sw", "unit": a, "sw": x, "to": b})
                    out += [{"type": "swap_sw", "sw": x, "for": y} for y in s["units"][b]["sws"] if x < y]
    return out


def _leader_here(s: State, w: World, h: str, side: str) -> bool:
    return any(U.kind(s, w, u).cls == "leader" and not s["units"][u]["shaken"] for u in U.units_in(s, h, side))


def reorganisations(s: State, w: World, side: str) -> list[Action]:
    """3.0 (A49): with a GO leader in the hex and not in melee, two GO half squads of one kind combine
    into the squad they come from, and a GO squad splits into two half squads (stacking permitting)."""
    return list(_reorganisations(s, w, side))


def _reorganisations(s: State, w: World, side: str) -> Iterator[Action]:
    """`reorganisations`, one at a time (`only_end` stops at the first)."""
    for h in U.side_hexes(s, side):
        if h in s["melee"] or not _leader_here(s, w, h, side):
            continue
        halves: dict[str, list[str]] = {}
        room: bool | None = None  # may a squad split here: the same for every squad of the hex, asked once
        for u in U.units_in(s, h, side):
            r, k = s["units"][u], U.kind(s, w, u)
            if r["shaken"]:
                continue
            if k.cls == "half" and _parent(w, k.id):
                halves.setdefault(k.id, []).append(u)
            if k.cls == "squad" and k.reduces_to:
                if room is None:
                    room = U.stacking_ok(s, w, h, side, extra=[]) and \
                        sum(U.kind(s, w, x).squad_equivalent2 for x in U.units_in(s, h, side)) <= 6
                if room:
                    yield {"type": "split", "unit": u}
        for us in halves.values():
            for i in range(len(us) - 1):
                yield {"type": "combine", "unit": us[i], "with": us[i + 1]}


def _parent(w: World, half: str) -> str | None:
    """The squad a half squad comes from (worked out once per counter data)."""
    key = ("parent", half)
    if key not in w.cache:
        w.cache[key] = next((k.id for k in w.kinds.values() if k.reduces_to == half and k.cls == "squad"), None)
    return w.cache[key]  # type: ignore[no-any-return]


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
    if t in ("give_sw", "swap_sw"):
        x = a["sw"]
        a_u = s["sws"][x]["holder"]
        if t == "give_sw":
            b_u, y = a["to"], None
        else:
            y = a["for"]
            b_u = s["sws"][y]["holder"]
        s["units"][a_u]["sws"].remove(x)
        s["units"][b_u]["sws"].append(x)
        s["sws"][x]["holder"] = b_u
        if y is not None:
            s["units"][b_u]["sws"].remove(y)
            s["units"][a_u]["sws"].append(y)
            s["sws"][y]["holder"] = a_u

        def name(z: str) -> str:
            return f"{w.sws[s['sws'][z]['kind']].name} ({z})"
        facts.append(Fact(f"{a_u} hands {name(x)} to {b_u}" + (f" for {name(y)}" if y else ""), "LnL 3.0, 1.6.1",
                          "sw_exchange", {"from": a_u, "to": b_u, "sw": x, "for": y}))
        return False
    if t == "combine":
        a_u, b_u = a["unit"], a["with"]
        parent = _parent(w, s["units"][a_u]["kind"])
        ra, rb = s["units"][a_u], s["units"][b_u]
        ra["kind"] = parent
        ra["sws"] += rb["sws"]
        for x in rb["sws"]:
            s["sws"][x]["holder"] = a_u
        ra["sws"] = ra["sws"][:2]
        for x in rb["sws"][2:]:
            s["sws"][x]["holder"] = None
            s["sws"][x]["at"] = ra["at"]
        del s["units"][b_u]
        facts.append(Fact(f"{a_u} and {b_u} combine into a squad", "LnL 3.0", "reorganise", {"units": [a_u, b_u]}))
        return False
    if t == "split":
        u = a["unit"]
        r = s["units"][u]
        half = U.kind(s, w, u).reduces_to
        if half is None:  # split is listed only for a squad that has a half squad (LnL 3.0)
            raise IllegalAction(f"{u} cannot split", "LnL 3.0")
        new = f"{u}-2"
        n = 2
        while new in s["units"]:
            n += 1
            new = f"{u}-{n}"
        from rules.lock_n_load.events import new_unit

        s["units"][new] = new_unit(r["side"], half, r["at"])
        r["kind"] = half
        if len(r["sws"]) > 1:
            moved = r["sws"].pop()
            s["units"][new]["sws"].append(moved)
            s["sws"][moved]["holder"] = new
        facts.append(Fact(f"{u} splits into two half squads, {u} and {new}", "LnL 3.0", "reorganise",
                          {"unit": u, "new": new}))
        return False
    raise IllegalAction(f"{t} is not a Rally Phase action", "LnL 3.0")


# The section of `legal` that lists each action type (every type in exactly one).
SECTIONS = {"rally": rallies, "medic": medics, "pickup": pickups, "split": reorganisations,
            "combine": reorganisations, "give_sw": exchanges, "swap_sw": exchanges}
