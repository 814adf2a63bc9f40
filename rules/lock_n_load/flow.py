"""The sequence of play (LnL 2.0-4.1, 9.0) as named phases and decision points.

Phases: "rally" (3.0: the initiative side, then the other), "operations" (4.0: alternating impulses,
ended by three consecutive passes or when no unit of either side can act, 4.1, A13), then the
Administrative Phase (9.0, no decisions) and the next turn, or "over". A decision the non-moving
seat must take (opportunity fire at each movement point, 5.3, W1) sets `decision` and makes that
seat the active one until it has answered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import standing
from rules.core.dice import DiceSource
from rules.core.game import Action, Fact, IllegalAction
from rules.core.verbs import FieldKind, Verb, VerbTable
from rules.lock_n_load import events, fire, melee, movement, orders, rally
from rules.lock_n_load import standing as lnl_standing
from rules.lock_n_load import units as U
from rules.lock_n_load.data import World
from rules.lock_n_load.los import cached_los

State = dict[str, Any]


def acting(s: State) -> str | None:
    if s["phase"] == "over":
        return None
    if s["decision"] is not None:
        return str(s["decision"]["seat"])
    if s["phase"] == "rally":
        return str(s["rally_side"])
    return str(s["player"])


# -- what may be done ---------------------------------------------------------------------------
# The verbs open in each situation, in the order the listing gives their actions.
_DECISIONS = ("melee_targets", "drop_sw", "retreat", "place_hero")  # one verb each, named as the decision
_OPP_FIRE = ("opp_fire", "hold_fire", "place_sniper", "snipe", "order", "sniper_order")  # 5.2, 5.3, 11.4, A42
_RETREAT_FIRE = ("opp_fire", "hold_fire", "order")  # W9: no sniper here, the retreat is one step
_RALLY = ("rally", "medic", "pickup", "split", "combine", "give_sw", "swap_sw", "end_rally")  # 3.0
_BETWEEN_IMPULSES = ("pass", "activate", "spot", "place_sniper")  # 4.0, 10.1, 11.4 (and standing orders)
_MOVING = ("step", "stop")  # 6.0
_IMPULSE = ("select", "fire", "move", "smoke", "clear", "melee", "withdraw", "spot", "end_impulse")  # 4.0-10.1


def open_verbs(s: State, *, orders_too: bool = True) -> tuple[str, ...]:
    """The verbs open now (the sequence of play): a decision's prompt, the Rally Phase, between
    impulses, a move under way, or an impulse. `orders_too=False` leaves out the standing orders
    given between impulses (not those of an opportunity-fire prompt)."""
    if s["phase"] == "over":
        return ()
    return _open_verbs(s, orders_too) + (("standing",) if lnl_standing.uses(s) else ())  # v4: at every stop


def _open_verbs(s: State, orders_too: bool) -> tuple[str, ...]:
    d = s["decision"]
    if d is not None:
        if d["kind"] == "opp_fire":
            return _RETREAT_FIRE if d.get("retreat") else _OPP_FIRE
        if d["kind"] in _DECISIONS:
            return (d["kind"],)
        raise AssertionError(f"unknown decision {d['kind']}")
    if s["phase"] == "rally":
        return _RALLY
    imp = s["impulse"]
    if imp is None:
        return _BETWEEN_IMPULSES + (("order", "sniper_order") if orders_too else ())
    return _MOVING if imp["move"] is not None else _IMPULSE


def is_legal(s: State, w: World, a: Action) -> bool:
    """`a` is in `legal(s, w)` as a JSON document, found without listing what cannot
    match: only the generator of the action's own verb is asked, if that verb is open now (the
    standing orders answer for the action's own hex: `orders.allowed`). An action of any other
    shape (not a dict, no or a foreign type, missing, extra or wrong-typed keys) is False."""
    if not isinstance(a, dict) or not isinstance(a.get("type"), str) or s["phase"] == "over":
        return False
    with U.indexed(s):
        return a["type"] in open_verbs(s) and VERBS[a["type"]].is_legal(s, w, a)


def _order_seat(s: State) -> str | None:
    """The side whose standing orders are listed: at an opportunity-fire prompt its seat,
    between impulses of the operations phase the side to play, else none."""
    d = s["decision"]
    if d is not None:
        return str(d["seat"]) if d["kind"] == "opp_fire" else None
    if s["phase"] != "rally" and s["impulse"] is None:
        return str(s["player"])
    return None


def legal(s: State, w: World, *, orders_too: bool = True) -> list[Action]:
    """Every legal action; the listing moves no unit, so who is where answers from one index.
    `orders_too=False` leaves out the standing orders given outside an opportunity-fire prompt
    (the `actions` of rules/lock_n_load/orders.py), for a question about any other action."""
    with U.indexed(s):
        return _legal(s, w, orders_too)


def _legal(s: State, w: World, orders_too: bool) -> list[Action]:
    if s["phase"] == "rally" and s["decision"] is None:
        return rally.legal(s, w, s["rally_side"])  # in its own order: unit by unit, hex by hex (3.0)
    return [a for t in open_verbs(s, orders_too=orders_too) for a in VERBS[t].legal(s, w)]


def activatable(s: State, w: World, side: str) -> list[str]:
    """Hexes with a unit that can still do something this turn (4.0)."""
    out = []
    for h in U.side_hexes(s, side):
        for u in U.units_in(s, h, side):
            r = s["units"][u]
            if U.can_act(s, w, u) or (r["shaken"] and r["marker"] == "" and not r["melee_locked"]
                                      and U.kind(s, w, u).mf > 0):
                out.append(h)
                break
        else:
            if melee_hexes(s, w, {"hexes": [h]}, side) or withdraw_hexes(s, w, [h], side):
                out.append(h)
    return out


def activation_hexes(s: State, w: World, h: str, side: str) -> tuple[list[str], str | None]:
    """4.0, 6.0: the hex, and its neighbours if a GO, unwounded, not yet activated leader is in it."""
    for u in U.units_in(s, h, side):
        r = s["units"][u]
        if U.kind(s, w, u).cls == "leader" and not r["shaken"] and not r["wounds"] and not r["activated"] \
                and r["marker"] == "":
            return [h] + [n for n in w.board.neighbours(h) if U.units_in(s, n, side)], u
    return [h], None


def selectable(s: State, w: World, imp: dict[str, Any]) -> list[str]:
    g = imp["group"]
    gh = s["units"][g[0]]["at"] if g else None
    out = []
    for h in imp["hexes"]:
        if gh is not None and h != gh:
            continue
        if h in imp["fired"]:
            continue  # 4.0: the firers of one hex fire together, once
        for u in U.units_in(s, h, s["player"]):
            if u in g or u in imp["done"]:
                continue
            r = s["units"][u]
            spot = s["spot"] or {}
            if U.can_act(s, w, u) or (r["shaken"] and r["marker"] == "" and not r["melee_locked"]) or (
                    spot.get("unit") == u and r["marker"] == "oc" and not r["shaken"]):
                out.append(u)
    return out


def fire_targets(s: State, w: World, imp: dict[str, Any]) -> list[str]:
    g = imp["group"]
    if any(s["units"][u]["shaken"] for u in g):
        return []
    side = s["player"]
    spot = s["spot"] or {}
    out = []
    for h in U.side_hexes(s, U.other(side)):
        if any(s["units"][u]["marker"] == "oc" for u in g) and spot.get("hex") != h:
            continue  # 4.1 spot-and-shoot: only at the hex the OC unit itself spotted
        if fire.plan(s, w, g, h, opportunity=False) is not None:
            out.append(h)
    return out


def smoke_ok(s: State, w: World, u: str) -> bool:
    """7.0: a GO MMC not marked Moved, Low Crawl, Fired or OC."""
    r = s["units"][u]
    return U.kind(s, w, u).is_mmc and not r["shaken"] and r["marker"] == "" and not r["melee_locked"]


def melee_hexes(s: State, w: World, imp: dict[str, Any], side: str | None = None) -> list[str]:
    """8.0 (A31): a locked hex in the activation where no round has been fought this turn."""
    side = side or s["player"]
    out = []
    for h in imp["hexes"]:
        m = s["melee"].get(h)
        if not m or m.get("over") or m["fought"] == s["turn"]:
            continue
        mine = [u for u in U.units_in(s, h, side) if U.melee_eligible(s, w, u) and not s["units"][u]["late"]]
        if mine and U.units_in(s, h, U.other(side)):
            out.append(h)
    return out


def withdraw_hexes(s: State, w: World, hexes: list[str], side: str) -> list[str]:
    """8.0: locked units may declare a withdrawal at the start of their impulse (each unit one
    attempt a turn: ours, so that a failing unit cannot hold the phase open)."""
    return [h for h in hexes if h in s["melee"] and not s["melee"][h].get("over")
            and any(_may_withdraw(s, w, u) for u in U.units_in(s, h, side))]


def _may_withdraw(s: State, w: World, u: str) -> bool:
    r = s["units"][u]
    return r["melee_locked"] and not r["shaken"] and not r["activated"] and U.kind(s, w, u).mf > 0


def spot_actions(s: State, w: World, side: str) -> list[Action]:
    """10.1: once per friendly impulse, a unit able to spot tries an unspotted enemy hex in LOS."""
    if s["spot_used"] or (s["impulse"] and s["impulse"]["move"]):
        return []
    out: list[Action] = []
    enemy = [h for h in U.side_hexes(s, U.other(side)) if not U.spotted(s, w, h, side)]
    if not enemy:
        return out
    for u in U.on_map(s):
        r = s["units"][u]
        k = U.kind(s, w, u)
        if r["side"] != side or r["shaken"] or r["marker"] or k.cls in ("medic", "chaplain") or r["melee_locked"]:
            continue
        for h in enemy:
            if not cached_los(w, r["at"], h, sorted(s["smoke"])).blocked:
                out.append({"type": "spot", "unit": u, "hex": h})
    return out


def snipe_actions(s: State, w: World, side: str) -> list[Action]:
    """11.4, A42: a GO sniper on the map that has not fired this turn may attack a spotted enemy hex
    in LOS and range whenever its side is asked (here: at an opportunity-fire prompt)."""
    out: list[Action] = []
    for u, r in sorted(s["units"].items()):
        if r["side"] != side or r["at"] is None or r["shaken"] or r["marker"] or U.kind(s, w, u).cls != "sniper":
            continue
        for h in U.side_hexes(s, U.other(side)):
            if fire.plan(s, w, [u], h, opportunity=False) is not None:
                out.append({"type": "snipe", "unit": u, "target": h})
    return out


def sniper_actions(s: State, w: World, side: str) -> list[Action]:
    """11.4: the sniper is placed in a hex with a positive TM and no enemy unit (A42: at the start of
    one of its side's impulses, or when its side is asked to opportunity-fire)."""
    out: list[Action] = []
    for u, r in sorted(s["units"].items()):
        if r["side"] != side or r["at"] is not None or r.get("dead") or U.kind(s, w, u).cls != "sniper":
            continue
        for h in w.board.hexes():
            row = w.tec[w.terrain(h)]
            tmv = int(row.get("tm_by", {}).get(U.kind(s, w, u).nationality, row["tm"]))
            if tmv > 0 and not U.units_in(s, h, U.other(side)) and U.stacking_ok(s, w, h, side, extra=[u]):
                out.append({"type": "place_sniper", "unit": u, "hex": h})
    return out


# -- doing it -------------------------------------------------------------------------------------
AS_IS = True  # a verb's handler returns it when nothing follows the action (no events, drops or automatic moves)


def perform(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    """Do the legal action `a` (its verb's handler), then, unless the handler says AS_IS, what
    follows any action: the event markers it reveals (1.7), the owners' decisions its fire left
    (W4-W6) and the choices that need nobody (`_auto`)."""
    verb = VERBS[a["type"]] if a["type"] in VERBS else None
    if verb is None or verb.handle is None:
        raise IllegalAction(f"unknown action {a['type']}")
    if verb.handle(s, w, a, dice, facts) is AS_IS:
        return
    if s["phase"] != "over":
        events.check(s, w, facts)
        _drops(s, w, dice, facts)
        _standing_snipers(s, w, dice, facts)
        _auto(s, w, dice, facts)


def _standing_snipers(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    """11.4, A42 (rules version 4 on): after every action, each sniper's standing order whose target
    has come is carried out at once: the sniper is placed in its hex and attacks (2d6, one random
    unit), as `place_sniper` and `snipe` do, without waiting for its owner. Not while an owner's
    decision other than opportunity fire is open (it is tried again after the next action)."""
    for _ in range(4):
        d = s["decision"]
        if s["phase"] == "over" or (d is not None and (d["kind"] != "opp_fire" or d.get("retreat"))):
            return
        due = orders.due_snipers(s, w)
        if not due:
            return
        u, h, target = due[0]
        side = s["units"][u]["side"]
        form = s["orders"][side].pop(orders.SNIPER_KEY + u).split(":", 1)[1]
        s["units"][u]["at"] = h
        facts.append(Fact(f"{side.upper()}'s face-down sniper order is carried out: {u} is placed in {h} ({form}) "
                          f"and attacks {target}", orders.SNIPER_RULE, "sniper",
                          {"hex": h, "unit": u, "order": form, "target": target, "standing": True}))
        fire.resolve(s, w, [u], target, dice, facts)
        imp = s["impulse"]
        mv = imp["move"] if imp is not None else None
        if mv is not None:
            mv["units"] = _alive_movers(s, mv)
            if not mv["units"]:  # the sniper killed every mover: no move left to fire at
                imp["move"] = mv = None
        if s["decision"] is not None and s["decision"]["kind"] == "opp_fire":
            s["decision"]["hexes"] = movement.opp_fire_hexes(s, w, mv) if mv is not None else []
            if not s["decision"]["hexes"]:
                s["decision"] = None
        _drops(s, w, dice, facts)


def _drops(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    """The owner's decisions a fire leaves, before anything else (the decision under way, if any,
    resumes after): W5, a squad with two SWs reduced to a half squad drops one; W4, a unit shaken
    by flamethrower fire picks its retreat hex (1.6.2; a single possible hex is taken unasked),
    then W9, its enemy may opportunity-fire at it there."""
    while s["drops"]:
        item = s["drops"].pop(0)
        if isinstance(item, dict) and item["kind"] == "hero":  # W6, 11.2: {"kind": "hero", "unit", "near"}
            hexes = fire.hero_hexes(s, w, item["unit"], item["near"])
            if len(hexes) > 1:
                s["decision"] = {"kind": "place_hero", "seat": s["units"][item["unit"]]["side"], "unit": item["unit"],
                                 "hexes": hexes, "resume": s["decision"]}
                return
            _place_hero(s, w, item["unit"], hexes[0] if hexes else None, facts)
            continue
        if isinstance(item, dict):  # {"kind": "retreat", "unit", "hexes"}
            r = s["units"][item["unit"]]
            if r["at"] is None:
                continue
            if len(item["hexes"]) == 1:
                fire.retreat(s, w, item["unit"], item["hexes"][0], facts)
                if _retreat_fire(s, w, item["unit"], dice, facts):
                    return
                continue
            s["decision"] = {"kind": "retreat", "seat": r["side"], "unit": item["unit"], "hexes": item["hexes"],
                             "resume": s["decision"]}
            return
        u = item
        r = s["units"][u]
        if r["at"] is None or len(r["sws"]) < 2:
            continue
        s["decision"] = {"kind": "drop_sw", "seat": r["side"], "unit": u, "resume": s["decision"]}
        return


def _only(s: State, w: World) -> list[Action] | None:
    """The one legal action as a list of one, or None if there are none or several. The listing
    without standing orders decides it, unless it is one action and orders could join it. In the
    Rally Phase with no decision open that one action can only be end_rally, listed alone when no
    other section of the listing has one (`rally.only_end`); no standing order joins it there."""
    if s["phase"] == "rally" and s["decision"] is None:
        with U.indexed(s):
            return [{"type": "end_rally"}] if rally.only_end(s, w, s["rally_side"]) else None
    acts = legal(s, w, orders_too=False)
    if len(acts) != 1:
        return None  # several stay several with orders added; none plus orders is not one non-order
    if lnl_standing.uses(s):
        return acts  # version 4: the side's standing orders stand; it changes them at its next stop
    who = _order_seat(s) if s["decision"] is None else None  # a prompt's listing has its orders
    if who is not None:
        with U.indexed(s):
            if orders.any_order(s, w, who) or orders.any_sniper_order(s, w, who):
                return None
    return acts


def _auto(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    """Close what needs no decision: a move with no step left stops; a side whose only choice is to
    pass (or to end an empty rally step) does so without being asked."""
    for _ in range(20):
        if s["phase"] == "over" or s["decision"] is not None:
            return
        imp = s["impulse"]
        if imp is not None and imp["move"] is not None and not movement.legal_steps(s, w, imp["move"]):
            imp["move"] = None
            continue
        acts = _only(s, w)
        if s["phase"] == "rally" and (acts == [{"type": "end_rally"}] or _standing_says(s, w, "end", facts)):
            _next_rally_step(s, w, dice, facts)
            continue
        if s["phase"] == "operations" and (acts == [{"type": "pass"}] or _standing_says(s, w, "pass", facts)):
            perform(s, w, {"type": "pass"}, dice, facts)
            return
        if s["phase"] == "operations" and imp is not None and acts == [{"type": "end_impulse"}]:
            perform(s, w, {"type": "end_impulse"}, dice, facts)
            return
        return


def _standing_says(s: State, w: World, answer: str, facts: list[Fact]) -> bool:
    """Version 4: the side to decide has a standing answer (rules/lock_n_load/standing.py) whose
    conditions hold and which says `answer` ("pass" its impulse, "end" its rally step): it does so
    without being asked, publicly."""
    p = lnl_standing.point(s, w)
    if p is None:
        return False
    seat, kind, ctx = p
    if standing.answer_for(s, seat, kind, ctx) != answer:
        return False
    facts.append(Fact(f"{seat.upper()}'s standing answer settles its {kind}", standing.RULE, "standing_used",
                      {"kind": kind, "seat": seat}))
    return True


def _next_impulse(s: State, w: World, dice: DiceSource, facts: list[Fact], acted: bool = False) -> None:
    if acted:
        s["passes"] = 0
    s["impulse"] = None
    s["spot"] = None
    s["spot_used"] = False
    if not activatable(s, w, "us") and not activatable(s, w, "vc"):
        facts.append(Fact("No unit of either side can act: the Operations Phase ends", "LnL 4.1, 9.0 (A13)", "phase"))
        admin(s, w, dice, facts)
        return
    s["player"] = U.other(s["player"])


def _start_move(s: State, w: World, mode: str, facts: list[Fact]) -> None:
    imp = s["impulse"]
    g = list(imp["group"])
    lmf = movement.group_leader_mf(s, w, g)
    at = s["units"][g[0]]["at"]
    marker = {"normal": "moved", "double": "moved", "assault": "assault", "crawl": "low_crawl"}[mode]
    for u in g:
        s["units"][u]["marker"] = marker
    imp["move"] = {"units": g, "at": at, "mode": mode, "steps": 0, "fired_from": [], "path": [at],
                   "mp": {u: movement.allowance(s, w, u, mode, lmf) for u in g}, "start": at}
    imp["done"] += g
    imp["group"] = []
    imp["acted"] = True
    facts.append(Fact(f"{', '.join(g)} {'low crawl' if mode == 'crawl' else mode + ' move'} from {at}",
                      {"assault": "LnL 6.1", "double": "LnL 6.2", "crawl": "LnL 6.3"}.get(mode, "LnL 6.0"), "move",
                      {"units": g, "hex": at, "mode": mode}))


def _withdraw(s: State, w: World, h: str, dice: DiceSource, facts: list[Fact]) -> None:
    """8.0: each locked unit passes a morale check (2d6 - LM <= morale) to leave, paying MP as usual;
    failure has no penalty. Those who pass move out together."""
    imp = s["impulse"]
    side = s["player"]
    _, lm = U.best_leader(s, w, h, side)
    out = []
    for u in U.units_in(s, h, side):
        if not _may_withdraw(s, w, u):
            continue
        s["units"][u]["activated"] = True
        d1, d2 = dice.roll(6, f"LnL 8.0 withdrawal of {u}"), dice.roll(6, f"LnL 8.0 withdrawal of {u}")
        m = U.morale(s, w, u)
        ok = d1 + d2 - lm <= m
        facts.append(Fact(f"{u} tries to withdraw from the melee in {h}: {d1}+{d2}" + (f" - {lm}" if lm else "")
                          + f" vs morale {m}: {'withdraws' if ok else 'stays locked'}", "LnL 8.0", "withdraw",
                          {"unit": u, "dice": [d1, d2], "success": ok}))
        if ok:
            out.append(u)
    imp["acted"] = True
    imp["done"] += U.units_in(s, h, side)
    if out:
        for u in out:
            s["units"][u]["melee_locked"] = False
        imp["group"] = out
        _start_move(s, w, "normal", facts)


def _step(s: State, w: World, to: str, dice: DiceSource, facts: list[Fact]) -> None:
    imp = s["impulse"]
    mv = imp["move"]
    frm = mv["at"]
    if frm in s["melee"] and not any(s["units"][u]["at"] == frm and u not in mv["units"]
                                     for u in U.units_in(s, frm, s["player"])):
        # 8.0 (W2): the last units leave: the Melee marker goes at once and the enemy left behind is
        # free to fire at them (the opportunity-fire window of this step).
        del s["melee"][frm]
        for u in U.units_in(s, frm):
            s["units"][u]["melee_locked"] = False
        facts.append(Fact(f"The melee in {frm} ends: the last {s['player'].upper()} units withdraw", "LnL 8.0",
                          "melee_end", {"hex": frm}))
    for u in mv["units"]:
        c = movement.cost(s, w, u, frm, to)
        mv["mp"][u] = max(0, mv["mp"][u] - c)
        s["units"][u]["at"] = to
        for x in s["units"][u]["sws"]:
            s["sws"][x]["at"] = None
    mv["steps"] += 1
    mv["at"] = to
    mv["path"].append(to)
    mv["fired_from"] = []
    facts.append(Fact(f"{', '.join(mv['units'])} enter {to}", "LnL 6.0", "step", {"units": mv["units"], "hex": to}))
    side = s["player"]
    foe = U.units_in(s, to, U.other(side))
    if foe:
        _enter_enemy(s, w, mv, to, dice, facts)
        return
    _opportunity(s, w, mv, dice, facts)


def _opportunity(s: State, w: World, mv: dict[str, Any], dice: DiceSource, facts: list[Fact]) -> None:
    """W1: the standing orders of the non-moving side answer first (fire or decline, hex by hex);
    the seat is prompted only for hexes whose order is "ask"."""
    foe = U.other(s["player"])
    while True:
        hexes = movement.opp_fire_hexes(s, w, mv)
        auto = [(h, orders.decides(orders.order_of(s, foe, h), h, mv["at"], w)) for h in hexes]
        auto = [(h, v) for h, v in auto if v != "ask"]
        if not auto:
            break
        h, verdict = auto[0]
        mv["fired_from"].append(h)
        if verdict != "fire":
            facts += orders.silent(s, foe, h, mv["at"], "LnL 5.3 (standing order)")
        else:
            facts.append(Fact(f"{foe.upper()}'s standing order: {h} fires at {mv['at']}", "LnL 5.3 (standing order)",
                              "standing_order", {"hex": h, "at": mv["at"]}))
            fire.resolve(s, w, movement.opp_firers(s, w, h, foe), mv["at"], dice, facts, opportunity=True,
                         movers=mv["units"], crawling=mv["mode"] == "crawl")
            s["stats"]["order_fires"] += 1
            mv["units"] = _alive_movers(s, mv)
            if not mv["units"]:
                s["impulse"]["move"] = None
                return
    hexes = movement.opp_fire_hexes(s, w, mv)
    if hexes:
        s["decision"] = {"kind": "opp_fire", "seat": foe, "hexes": hexes, "at": mv["at"]}
        s["stats"]["opp_fire_prompts"] += 1


def _enter_enemy(s: State, w: World, mv: dict[str, Any], to: str, dice: DiceSource, facts: list[Fact]) -> None:
    """6.0, 8.0, 8.1, 13.1: entering an enemy hex ends the move in melee."""
    side = s["player"]
    s["impulse"]["move"] = None
    for u in mv["units"]:
        s["units"][u]["marker"] = "moved"
    foe = U.units_in(s, to, U.other(side))
    if not any(U.melee_eligible(s, w, u) for u in foe):
        for u in foe:
            fire.eliminate(s, w, u, facts, "cannot melee: surrenders to the entering units (8.0, 11.1)")
        return
    m = s["melee"].get(to)
    if m and m["fought"] == s["turn"]:
        for u in mv["units"]:
            s["units"][u]["late"] = True  # 8.1: after this turn's round, no part in melee this turn
            s["units"][u]["melee_locked"] = True
        return
    ambush = (all(U.kind(s, w, u).nationality == "VC" for u in mv["units"])
              and to not in s["impulse"]["visible"].get(mv["start"], []) and not m)
    _melee_start(s, w, to, ambush, dice, facts)


def _melee_start(s: State, w: World, hex_id: str, ambush: bool, dice: DiceSource, facts: list[Fact]) -> None:
    """8.0 (W3): the attacker chooses the enemies it attacks, then the defender its own targets;
    a choice with only one possibility is made without asking. Then the round is fought."""
    d = {"kind": "melee_targets", "seat": s["player"], "hex": hex_id, "attacker": s["player"], "ambush": ambush,
         "a_targets": None, "choices": []}
    _melee_next(s, w, d, dice, facts)


def _melee_next(s: State, w: World, d: dict[str, Any], dice: DiceSource, facts: list[Fact]) -> None:
    h, attacker = d["hex"], d["attacker"]
    att, dfn = melee.combatants(s, w, h, attacker), melee.combatants(s, w, h, U.other(attacker))
    if att and dfn:
        if d["a_targets"] is None:
            choices = melee.target_choices(s, w, att, dfn)
            if len(choices) > 1:
                s["decision"] = {**d, "seat": attacker, "choices": choices}
                return
            d["a_targets"] = choices[0]
        choices = melee.target_choices(s, w, dfn, att)
        if len(choices) > 1 and d.get("d_targets") is None:
            s["decision"] = {**d, "seat": U.other(attacker), "choices": choices}
            s["stats"]["melee_prompts"] = s["stats"].get("melee_prompts", 0) + 1
            return
        d["d_targets"] = d.get("d_targets") or choices[0]
    s["decision"] = None
    melee.fight(s, w, h, attacker, dice, facts, ambush=d["ambush"], a_targets=d.get("a_targets"),
                d_targets=d.get("d_targets"))


def _place_hero(s: State, w: World, uid: str, h: str | None, facts: list[Fact]) -> None:
    """W6 (11.2): the owner puts a new hero whose parent's hex is full in an adjacent hex free of
    enemies; if none is left by then, the hero does not appear."""
    if h is None:
        del s["units"][uid]
        facts.append(Fact(f"No hex can hold the hero {uid} any more: he does not appear", "LnL 11.2", "hero",
                          {"hero": uid, "success": False}))
        return
    s["units"][uid]["at"] = h
    facts.append(Fact(f"The hero {uid} is placed in {h}", "LnL 11.2", "hero_place", {"hero": uid, "hex": h}))


def _retreat_fire(s: State, w: World, uid: str, dice: DiceSource, facts: list[Fact]) -> bool:
    """W9 (1.6.2, 5.3, role reversal): the retreat is a move of one hex, so the retreating unit's enemy
    (the active player when his flamethrower fired) may opportunity-fire at it in its new hex, each
    eligible hex once; standing orders answer first, as for any mover. True if the seat is prompted."""
    r = s["units"][uid]
    if r["at"] is None:
        return False
    foe = U.other(r["side"])
    rv = {"units": [uid], "at": r["at"], "mode": "normal", "fired_from": []}
    while r["at"] == rv["at"]:
        auto = [(h, orders.decides(orders.order_of(s, foe, h), h, rv["at"], w))
                for h in movement.opp_fire_hexes(s, w, rv)]
        auto = [(h, v) for h, v in auto if v != "ask"]
        if not auto:
            break
        h, verdict = auto[0]
        rv["fired_from"].append(h)
        if verdict != "fire":
            facts += orders.silent(s, foe, h, rv["at"], "LnL 1.6.2, 5.3 (standing order)")
        else:
            facts.append(Fact(f"{foe.upper()}'s standing order: {h} fires at {rv['at']}", "LnL 1.6.2, 5.3 (standing order)",
                              "standing_order", {"hex": h, "at": rv["at"]}))
            fire.resolve(s, w, movement.opp_firers(s, w, h, foe), rv["at"], dice, facts, opportunity=True, movers=[uid])
            s["stats"]["order_fires"] += 1
    if r["at"] != rv["at"]:
        return False
    hexes = movement.opp_fire_hexes(s, w, rv)
    if not hexes:
        return False
    s["decision"] = {"kind": "opp_fire", "seat": foe, "hexes": hexes, "at": rv["at"], "retreat": rv,
                     "resume": s["decision"]}
    s["stats"]["opp_fire_prompts"] += 1
    return True


def _alive_movers(s: State, mv: dict[str, Any]) -> list[str]:
    """5.3: a mover shaken, reduced or wounded by opportunity fire stops (A38: the rest go on)."""
    return [u for u in mv["units"] if s["units"][u]["at"] == mv["at"] and not s["units"][u]["shaken"]]


def _smoke(s: State, w: World, h: str, dice: DiceSource, facts: list[Fact]) -> None:
    imp = s["impulse"]
    u = imp["group"][0]
    n = w.nations[U.kind(s, w, u).nationality]["smoke"]
    die = dice.roll(6, f"LnL 7.0 smoke by {u}")
    ok = die <= n
    if ok:
        s["smoke"][h] = 1
    s["units"][u]["marker"] = "oc"
    imp["done"].append(u)
    imp["group"] = []
    imp["acted"] = True
    facts.append(Fact(f"{u} lays smoke in {h}: rolled {die} vs {n}: {'Smoke 1 placed' if ok else 'failed'}",
                      "LnL 7.0", "smoke", {"unit": u, "hex": h, "die": die, "success": ok}))


def _spot(s: State, w: World, u: str, h: str, dice: DiceSource, facts: list[Fact]) -> None:
    """10.1: 1d6 + degrading hexes - own LM (A21): blocking target < half morale (rounded up),
    degrading target <= half morale; the spotter is marked OC either way."""
    r = s["units"][u]
    los = cached_los(w, r["at"], h, sorted(s["smoke"]))
    die = dice.roll(6, f"LnL 10.1 spotting by {u}")
    total = die + los.degrading - U.lm(s, w, u)
    need = (U.morale(s, w, u) + 1) // 2
    kind = "blocking" if (w.kind_of(w.terrain(h)) == "blocking" or h in s["smoke"]) else "degrading"
    ok = total < need if kind == "blocking" else total <= need
    r["marker"] = "oc"
    s["spot_used"] = True
    if ok:
        s["spotted"].append(h)
        s["spot"] = {"unit": u, "hex": h}
    facts.append(Fact(f"{u} tries to spot {h} ({kind}): {die}{los.degrading:+d} = {total} vs "
                      f"{'<' if kind == 'blocking' else '<='} {need}: {'spotted' if ok else 'not spotted'}",
                      "LnL 10.1", "spot", {"unit": u, "hex": h, "die": die, "success": ok}))


# -- rally phase, administrative phase ---------------------------------------------------------
def start_turn(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    """3.0: initiative by 1d6 each (tie: the previous holder; turn 1: the scenario's)."""
    if s["turn"] > 1:
        us, vc = dice.roll(6, "LnL 3.0 initiative, US"), dice.roll(6, "LnL 3.0 initiative, VC")
        if us != vc:
            s["initiative"] = "us" if us > vc else "vc"
        facts.append(Fact(f"Turn {s['turn']}: initiative US {us}, VC {vc}: {s['initiative'].upper()}", "LnL 3.0",
                          "initiative", {"us": us, "vc": vc}))
    events.reinforce(s, w, facts)
    s["phase"] = "rally"
    s["rally_side"] = s["initiative"]
    s["rally_done"] = []
    _auto(s, w, dice, facts)


def _next_rally_step(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    s["rally_done"].append(s["rally_side"])
    if len(s["rally_done"]) < 2:
        s["rally_side"] = U.other(s["rally_side"])
        return
    s["phase"] = "operations"
    s["player"] = s["initiative"]
    s["passes"] = 0
    s["impulse"] = None
    s["spot"] = None
    s["spot_used"] = False
    facts.append(Fact(f"Turn {s['turn']}: Operations Phase, {s['initiative'].upper()} first", "LnL 4.0", "phase"))


def admin(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    """9.0: markers off, Spotted off, Smoke 2 removed then Smoke 1 flipped, finished melees cleared."""
    s["impulse"] = None
    s["decision"] = None
    for r in s["units"].values():
        r["marker"] = ""
        r["am_fired"] = False
        r["activated"] = False
        r["rallied"] = False
        r["late"] = False
    s["spotted"] = []
    s["smoke"] = {h: 2 for h, v in s["smoke"].items() if v == 1}
    for h in list(s["melee"]):
        if not all(U.units_in(s, h, side) for side in U.SIDES):
            del s["melee"][h]
            for u in U.units_in(s, h):
                s["units"][u]["melee_locked"] = False
    facts.append(Fact(f"Turn {s['turn']}: Administrative Phase", "LnL 9.0", "phase"))
    if s["turn"] >= s["turns"]:
        events.finish(s, w, facts)
        return
    s["turn"] += 1
    start_turn(s, w, dice, facts)


# -- the verbs: each one's generator beside its handler, then the table -----------------------------
# A handler does the action on the copy of the state `apply` made; it returns AS_IS when nothing
# follows (see `perform`). Which verbs are open when: `open_verbs`.
def _prompt_seat(s: State) -> str:
    """The side asked now: the prompt's seat at a decision, else the side to play."""
    return str(s["decision"]["seat"] if s["decision"] is not None else s["player"])


def _gen_order(s: State, w: World) -> list[Action]:
    who = _order_seat(s)
    return orders.actions(s, w, who) if who is not None else []


def _allows_order(s: State, w: World, a: Action) -> bool:
    """Asked about the action's own hex (orders.allowed), not by listing every order."""
    who = _order_seat(s)
    return who is not None and orders.allowed(s, w, who, a)


def _do_order(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> bool:
    orders.give(s, acting(s) or "", a, facts)
    return AS_IS  # a standing order changes nothing else: the same seat is asked again


def _gen_standing(s: State, w: World) -> list[Action]:
    """None listed: the answer language is open (rules/lock_n_load/standing.py), any well-formed one
    is legal at any stop of the acting seat (`_allows_standing`), as in Assault on Belgium."""
    return []


def _allows_standing(s: State, w: World, a: Action) -> bool:
    return lnl_standing.allowed(s, a)


def _do_standing(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> bool:
    """Record a standing answer (rules/lock_n_load/standing.py): the seat's secret, a public marker."""
    standing.record(s, lnl_standing.KINDS, acting(s) or "", a, facts)
    return AS_IS  # it changes nothing else: the same seat is asked again


def _gen_sniper_order(s: State, w: World) -> list[Action]:
    who = _order_seat(s)
    return orders.sniper_actions(s, w, who) if who is not None else []


def _allows_sniper_order(s: State, w: World, a: Action) -> bool:
    who = _order_seat(s)
    return who is not None and orders.sniper_allowed(s, w, who, a)


def _do_sniper_order(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    """11.4, A42: the order is given (a face-down marker); what follows any action follows, so an
    order whose target is already there is carried out at once."""
    orders.give_sniper(s, acting(s) or "", a, facts)


def _gen_opp_fire(s: State, w: World) -> list[Action]:
    return [{"type": "opp_fire", "hex": h} for h in s["decision"]["hexes"]]


def _gen_hold_fire(s: State, w: World) -> list[Action]:
    return [{"type": "hold_fire"}]


def _do_opp_fire(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    """5.3 (W1): fire from one of the prompt's hexes at the movers' hex, or hold fire ("hold_fire"):
    the prompt goes on while hexes able to fire are left; W9: the same at a unit retreating from
    flamethrower fire, after which the decision under way resumes."""
    d = s["decision"]
    if d.get("retreat"):
        rv = d["retreat"]
        if a["type"] == "opp_fire":
            fire.resolve(s, w, movement.opp_firers(s, w, a["hex"], d["seat"]), d["at"], dice, facts,
                         opportunity=True, movers=rv["units"])
            rv["fired_from"].append(a["hex"])
            d["hexes"] = movement.opp_fire_hexes(s, w, rv) if s["units"][rv["units"][0]]["at"] == rv["at"] else []
            if d["hexes"]:
                return
        s["decision"] = d.get("resume")
        return
    mv = s["impulse"]["move"]
    if a["type"] == "opp_fire":
        h = a["hex"]
        firers = movement.opp_firers(s, w, h, d["seat"])
        fire.resolve(s, w, firers, d["at"], dice, facts, opportunity=True, movers=mv["units"],
                     crawling=mv["mode"] == "crawl")
        mv["fired_from"].append(h)
        d["hexes"] = movement.opp_fire_hexes(s, w, mv) if _alive_movers(s, mv) else []
        if d["hexes"]:
            return
    s["decision"] = None
    mv["units"] = _alive_movers(s, mv)
    if not mv["units"]:
        s["impulse"]["move"] = None


def _gen_place_sniper(s: State, w: World) -> list[Action]:
    return sniper_actions(s, w, _prompt_seat(s))


def _do_place_sniper(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> bool | None:
    """11.4, A42: the sniper enters the map. At an opportunity-fire prompt the prompt's hexes are
    counted again and the prompt goes on (nothing else follows); at the start of an impulse the
    action is followed as any other."""
    s["units"][a["unit"]]["at"] = a["hex"]
    s["orders"][s["units"][a["unit"]]["side"]].pop(orders.SNIPER_KEY + a["unit"], None)  # its standing order, if any
    facts.append(Fact(f"The sniper is placed in {a['hex']}", "LnL 11.4", "sniper", {"hex": a["hex"]}))
    if s["decision"] is not None:
        s["decision"]["hexes"] = movement.opp_fire_hexes(s, w, s["impulse"]["move"])
        return AS_IS
    return None


def _gen_snipe(s: State, w: World) -> list[Action]:
    return snipe_actions(s, w, s["decision"]["seat"])


def _do_snipe(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> bool:
    """11.4, A42: the sniper fires at an opportunity-fire prompt; the prompt goes on if the movers
    can still be fired at; the owners' decisions the fire leaves come first."""
    fire.resolve(s, w, [a["unit"]], a["target"], dice, facts)
    if s["decision"] is not None and s["decision"]["kind"] == "opp_fire":
        mv = s["impulse"]["move"]
        mv["units"] = _alive_movers(s, mv)
        s["decision"]["hexes"] = movement.opp_fire_hexes(s, w, mv) if mv["units"] else []
        if not s["decision"]["hexes"]:
            s["decision"] = None
            if not mv["units"]:
                s["impulse"]["move"] = None
    _drops(s, w, dice, facts)
    return AS_IS


def _gen_melee_targets(s: State, w: World) -> list[Action]:
    return [{"type": "melee_targets", "units": pick} for pick in s["decision"]["choices"]]


def _do_melee_targets(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    """8.0 (W3): the attacker's, then the defender's, choice of the enemies it attacks."""
    d = {**s["decision"], "choices": []}
    d["a_targets" if d["seat"] == d["attacker"] else "d_targets"] = list(a["units"])
    _melee_next(s, w, d, dice, facts)


def _gen_drop_sw(s: State, w: World) -> list[Action]:
    d = s["decision"]
    return [{"type": "drop_sw", "unit": d["unit"], "sw": x} for x in s["units"][d["unit"]]["sws"]]


def _do_drop_sw(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    """1.6.1 (W5): a half squad keeps one support weapon and drops the other in its hex."""
    d = s["decision"]
    u, x = a["unit"], a["sw"]
    s["units"][u]["sws"].remove(x)
    fire.drop_sw(s, x, s["units"][u]["at"])
    facts.append(Fact(f"{u} drops {w.sws[s['sws'][x]['kind']].name} ({x}) in {s['units'][u]['at']}",
                      "LnL 1.6.1", "sw_drop", {"unit": u, "sw": x}))
    s["decision"] = d.get("resume")


def _gen_retreat(s: State, w: World) -> list[Action]:
    d = s["decision"]
    return [{"type": "retreat", "unit": d["unit"], "hex": h} for h in d["hexes"]]


def _do_retreat(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    """1.6.2 (W4): a unit shaken by flamethrower fire retreats; then its enemy may fire at it (W9)."""
    d = s["decision"]
    fire.retreat(s, w, a["unit"], a["hex"], facts)
    s["decision"] = d.get("resume")
    _retreat_fire(s, w, a["unit"], dice, facts)


def _gen_place_hero(s: State, w: World) -> list[Action]:
    d = s["decision"]
    return [{"type": "place_hero", "unit": d["unit"], "hex": h} for h in d["hexes"]]


def _do_place_hero(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    d = s["decision"]
    _place_hero(s, w, a["unit"], a["hex"], facts)
    s["decision"] = d.get("resume")


def _rally_gen(kind: str) -> Callable[[State, World], list[Action]]:
    """A Rally Phase verb's actions: rally.legal's of this type (3.0)."""
    def gen(s: State, w: World) -> list[Action]:
        return rally.of_type(s, w, s["rally_side"], kind)
    return gen


def _do_rally_step(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    """3.0: every Rally Phase verb is rally.perform's; end_rally hands the step on."""
    if rally.perform(s, w, s["rally_side"], a, dice, facts):
        _next_rally_step(s, w, dice, facts)


def _gen_pass(s: State, w: World) -> list[Action]:
    return [{"type": "pass"}]


def _do_pass(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    """4.1: three passes in a row end the Operations Phase."""
    s["passes"] += 1
    facts.append(Fact(f"{s['player'].upper()} passes ({s['passes']} in a row)", "LnL 4.1", "pass"))
    if s["passes"] >= 3:
        facts.append(Fact("Three passes in a row: the Operations Phase ends", "LnL 4.1, 9.0", "phase"))
        admin(s, w, dice, facts)
    else:
        _next_impulse(s, w, dice, facts)


def _gen_end_impulse(s: State, w: World) -> list[Action]:
    return [{"type": "end_impulse"}]


def _do_end_impulse(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    """4.0: an activation that did nothing counts as a pass."""
    if not s["impulse"]["acted"]:
        _do_pass(s, w, a, dice, facts)
    else:
        _next_impulse(s, w, dice, facts, acted=True)


def _gen_activate(s: State, w: World) -> list[Action]:
    return [{"type": "activate", "hex": h} for h in activatable(s, w, s["player"])]


def _do_activate(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    hexes, leader = activation_hexes(s, w, a["hex"], s["player"])
    for h in hexes:
        for u in U.units_in(s, h, s["player"]):
            if U.kind(s, w, u).cls == "leader":
                s["units"][u]["activated"] = True  # A52
    vis = {h: [e for e in U.side_hexes(s, U.other(s["player"]))
               if not cached_los(w, h, e, sorted(s["smoke"])).blocked] for h in hexes}
    s["impulse"] = {"hexes": hexes, "group": [], "done": [], "fired": {}, "move": None, "acted": False,
                    "visible": vis}
    facts.append(Fact(f"{s['player'].upper()} activates {', '.join(hexes)}"
                      + (f" (leader {leader})" if leader else ""), "LnL 4.0", "activate", {"hexes": hexes}))


def _gen_spot(s: State, w: World) -> list[Action]:
    return spot_actions(s, w, s["player"])


def _do_spot(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    _spot(s, w, a["unit"], a["hex"], dice, facts)


def _gen_select(s: State, w: World) -> list[Action]:
    return [{"type": "select", "unit": u} for u in selectable(s, w, s["impulse"])]


def _do_select(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    s["impulse"]["group"].append(a["unit"])


def _gen_clear(s: State, w: World) -> list[Action]:
    return [{"type": "clear"}] if s["impulse"]["group"] else []


def _do_clear(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    s["impulse"]["group"] = []


def _gen_fire(s: State, w: World) -> list[Action]:
    imp = s["impulse"]
    return [{"type": "fire", "target": t} for t in fire_targets(s, w, imp)] if imp["group"] else []


def _do_fire(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    """5.0: the selected group fires at a hex; the firers of one hex fire together, once (4.0)."""
    imp = s["impulse"]
    g = imp["group"]
    frm = s["units"][g[0]]["at"]
    fire.resolve(s, w, g, a["target"], dice, facts)
    imp["fired"][frm] = a["target"]
    imp["done"] += g
    imp["group"] = []
    imp["acted"] = True


def _gen_move(s: State, w: World) -> list[Action]:
    g = s["impulse"]["group"]
    if g and all(s["units"][u]["marker"] == "" for u in g) and all(U.kind(s, w, u).mf > 0 for u in g):
        return [{"type": "move", "mode": m} for m in movement.modes(s, w, g)]
    return []


def _do_move(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    _start_move(s, w, a["mode"], facts)


def _gen_step(s: State, w: World) -> list[Action]:
    return [{"type": "step", "hex": h} for h in movement.legal_steps(s, w, s["impulse"]["move"])]


def _do_step(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    _step(s, w, a["hex"], dice, facts)


def _gen_stop(s: State, w: World) -> list[Action]:
    return [{"type": "stop"}]


def _do_stop(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    s["impulse"]["move"] = None


def _gen_smoke(s: State, w: World) -> list[Action]:
    g = s["impulse"]["group"]
    if len(g) != 1 or not smoke_ok(s, w, g[0]):
        return []
    at = s["units"][g[0]]["at"]
    return [{"type": "smoke", "hex": h} for h in [at] + w.board.neighbours(at) if h not in s["smoke"]]


def _do_smoke(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    _smoke(s, w, a["hex"], dice, facts)


def _gen_melee(s: State, w: World) -> list[Action]:
    return [{"type": "melee", "hex": h} for h in melee_hexes(s, w, s["impulse"])]


def _do_melee(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    imp = s["impulse"]
    imp["done"] += [u for u in U.units_in(s, a["hex"], s["player"])]
    imp["acted"] = True
    _melee_start(s, w, a["hex"], False, dice, facts)


def _gen_withdraw(s: State, w: World) -> list[Action]:
    imp = s["impulse"]
    return [] if imp["acted"] else [{"type": "withdraw", "hex": h}
                                    for h in withdraw_hexes(s, w, imp["hexes"], s["player"])]


def _do_withdraw(s: State, w: World, a: Action, dice: DiceSource, facts: list[Fact]) -> None:
    _withdraw(s, w, a["hex"], dice, facts)


# The wire kinds of the fields (validators/lock_n_load.py gives each its marshmallow field).
UNIT_ID = FieldKind("id", str)  # a unit's or support weapon's id
HEX = FieldKind("hex", str)  # 1F5: board, column, row
MOVE_MODE = FieldKind("move_mode", str)  # normal, assault, double, crawl (6.0-6.3)
STANDING_ORDER = FieldKind("standing_order", str)  # ask, hold, fire, within1-3, at:<hex>
SNIPER_ORDER = FieldKind("sniper_order", str)  # ask, fire, within1-3 (rules version 4 on)
UNIT_IDS = FieldKind("unit_ids", list)
STANDING_KIND = FieldKind("standing_kind", str)  # a decision that takes a standing answer (standing.KINDS)
STANDING_ANSWER = FieldKind("standing_answer", str)  # one of its answers, or ask
STANDING_WHEN = FieldKind("standing_when", list)  # up to three [field, op, value] conditions

_RALLY_HANDLER = _do_rally_step
VERBS: VerbTable[World] = VerbTable(
    # 3.0 Rally Phase (rules/lock_n_load/rally.py)
    Verb("rally", "LnL 3.0", {"unit": UNIT_ID}, _rally_gen("rally"), _RALLY_HANDLER),
    Verb("medic", "LnL 11.3", {"unit": UNIT_ID, "patient": UNIT_ID}, _rally_gen("medic"), _RALLY_HANDLER),
    Verb("pickup", "LnL 3.0", {"unit": UNIT_ID, "sw": UNIT_ID}, _rally_gen("pickup"), _RALLY_HANDLER),
    Verb("combine", "LnL 3.0", {"unit": UNIT_ID, "with": UNIT_ID}, _rally_gen("combine"), _RALLY_HANDLER),
    Verb("split", "LnL 3.0", {"unit": UNIT_ID}, _rally_gen("split"), _RALLY_HANDLER),
    Verb("give_sw", "LnL 3.0", {"unit": UNIT_ID, "sw": UNIT_ID, "to": UNIT_ID}, _rally_gen("give_sw"),
         _RALLY_HANDLER),
    Verb("swap_sw", "LnL 3.0", {"sw": UNIT_ID, "for": UNIT_ID}, _rally_gen("swap_sw"), _RALLY_HANDLER),
    Verb("end_rally", "LnL 3.0", {}, _rally_gen("end_rally"), _RALLY_HANDLER),
    # 4.0 Operations Phase: between impulses
    Verb("pass", "LnL 4.1", {}, _gen_pass, _do_pass),
    Verb("activate", "LnL 4.0", {"hex": HEX}, _gen_activate, _do_activate),
    Verb("spot", "LnL 10.1", {"unit": UNIT_ID, "hex": HEX}, _gen_spot, _do_spot),
    Verb("place_sniper", "LnL 11.4", {"unit": UNIT_ID, "hex": HEX}, _gen_place_sniper, _do_place_sniper),
    Verb("order", "standing orders", {"hex": HEX, "order": STANDING_ORDER}, _gen_order, _do_order, _allows_order),
    Verb("sniper_order", "LnL 11.4", {"unit": UNIT_ID, "hex": HEX, "order": SNIPER_ORDER}, _gen_sniper_order,
         _do_sniper_order, _allows_sniper_order),
    Verb("standing", "standing answers (ours)", {"kind": STANDING_KIND, "answer": STANDING_ANSWER,
                                                 "when": STANDING_WHEN}, _gen_standing, _do_standing, _allows_standing),  # v4
    # an impulse
    Verb("select", "LnL 4.0", {"unit": UNIT_ID}, _gen_select, _do_select),
    Verb("clear", "LnL 4.0", {}, _gen_clear, _do_clear),
    Verb("fire", "LnL 5.0", {"target": HEX}, _gen_fire, _do_fire),
    Verb("move", "LnL 6.0", {"mode": MOVE_MODE}, _gen_move, _do_move),
    Verb("step", "LnL 6.0", {"hex": HEX}, _gen_step, _do_step),
    Verb("stop", "LnL 6.0", {}, _gen_stop, _do_stop),
    Verb("smoke", "LnL 7.0", {"hex": HEX}, _gen_smoke, _do_smoke),
    Verb("melee", "LnL 8.0", {"hex": HEX}, _gen_melee, _do_melee),
    Verb("withdraw", "LnL 8.0", {"hex": HEX}, _gen_withdraw, _do_withdraw),
    Verb("end_impulse", "LnL 4.0", {}, _gen_end_impulse, _do_end_impulse),
    # the other side's prompts and the owners' decisions
    Verb("opp_fire", "LnL 5.3", {"hex": HEX}, _gen_opp_fire, _do_opp_fire),
    Verb("hold_fire", "LnL 5.3", {}, _gen_hold_fire, _do_opp_fire),
    Verb("snipe", "LnL 11.4", {"unit": UNIT_ID, "target": HEX}, _gen_snipe, _do_snipe),
    Verb("melee_targets", "LnL 8.0", {"units": UNIT_IDS}, _gen_melee_targets, _do_melee_targets),
    Verb("drop_sw", "LnL 1.6.1", {"unit": UNIT_ID, "sw": UNIT_ID}, _gen_drop_sw, _do_drop_sw),
    Verb("retreat", "LnL 1.6.2", {"unit": UNIT_ID, "hex": HEX}, _gen_retreat, _do_retreat),
    Verb("place_hero", "LnL 11.2", {"unit": UNIT_ID, "hex": HEX}, _gen_place_hero, _do_place_hero),
)
