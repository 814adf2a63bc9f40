"""Fire combat (LnL 5.0-5.3, 4.1, 6.1, 1.6.1, T4, T5, T7, T10): firepower, modifiers, the DFT.

The pure arithmetic (`dft`, `combine`, `unit_fire`) is separate from `resolve`, which rolls the dice
and applies the results to the state. Firepower is counted in half points so that 5.2's "fractions
retained, total rounded up" (A5) stays integral.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Fact
from rules.lock_n_load import units as U
from rules.lock_n_load.data import World
from rules.lock_n_load.los import Los, cached_los

State = dict[str, Any]


def dft(dr: int, morale: int, *, smc: bool, shaken: bool, hero: bool = False) -> str:
    """T4 with the lost glyphs restored (A2): DR <= M none; M < DR < 2M; 2M <= DR < 3M; DR >= 3M eliminated."""
    if dr <= morale:
        return "none"
    if dr >= 3 * morale:
        return "eliminated"
    if hero:
        return "wounded"
    band2 = dr >= 2 * morale
    if not smc:
        return "casualty" if band2 or shaken else "shaken"
    return "wounded" if band2 or shaken else "shaken"


def half_down(v: int) -> int:
    return v // 2


def half_up(v: int) -> int:
    return (v + 1) // 2


@dataclass
class UnitFire:
    """One firing unit's share: its inherent FP (or None if not used) and each SW's FP, after the
    per-unit halvings of T10 (captured, SMC, OC, Assault Move)."""

    uid: str
    inherent: int | None
    sws: list[tuple[str, int, bool]] = field(default_factory=list)  # (sw id, fp, full in a group: MG/flame)
    smc: bool = False
    full: bool = False  # a hero's inherent FP counts in full in a group (5.2, 11.2)


def unit_fire(s: State, w: World, uid: str, dist: int, *, oc_opp: bool) -> UnitFire | None:
    """The best legal use of a unit's inherent FP and SWs at range `dist` (T7; the owner's choice,
    made for the most firepower). None if the unit cannot fire at that range."""
    r = s["units"][uid]
    k = U.kind(s, w, uid)
    am = r["marker"] == "assault"
    sws = []
    for x in r["sws"]:
        d = w.sws[s["sws"][x]["kind"]]
        if d.oft or d.range < dist or k.cls in ("medic", "chaplain", "sniper"):
            continue  # OFT weapons need the to-hit tables (not in the demo); 1.6.1/A8
        fp = d.fp
        captured = s["sws"][x]["side"] != r["side"]
        if k.is_smc:
            fp = half_up(fp)  # 1.6.1 (A6: one halving for an SMC, captured or not)
        elif captured:
            fp = half_up(fp)  # 1.6.1
        if oc_opp and d.kind == "lmg":
            fp = half_down(fp)  # 4.1
        if am:
            fp = half_down(fp)  # 6.1
        sws.append((x, fp, d.kind in ("lmg", "flamethrower")))
    sws.sort(key=lambda t: -t[1])
    inherent: int | None = None
    if k.is_mmc or k.cls in ("sniper", "hero"):
        if k.range >= dist:
            inherent = k.fp
            if oc_opp:
                inherent = -1 if k.fp == 0 else half_down(k.fp)  # 4.1
            if am:
                inherent = half_down(inherent)  # 6.1
    options: list[UnitFire] = []
    if k.cls == "squad":
        if inherent is not None or sws:
            options.append(UnitFire(uid, inherent, sws[:1]))  # TV8: the SW alone beyond its own range
        if len(sws) >= 2:
            options.append(UnitFire(uid, None, sws[:2]))  # T7: two SWs, inherent FP lost
    elif k.cls in ("half", "wt"):
        if inherent is not None:
            options.append(UnitFire(uid, inherent, []))
        if sws and k.cls == "half":
            options.append(UnitFire(uid, None, sws[:1]))  # T7 (A7): a SW, inherent FP lost
    elif k.cls == "sniper":
        if inherent is not None:
            options.append(UnitFire(uid, inherent, []))
    elif k.cls == "hero":  # 11.2: his own FP, in full in a group, and a SW as an SMC (1.6.1)
        if inherent is not None:
            options.append(UnitFire(uid, inherent, [], smc=True, full=True))
        if sws:
            options.append(UnitFire(uid, None, sws[:1], smc=True))
    elif sws:  # leaders, heroes, advisors carrying a SW (1.6.1, 11.1, 11.6)
        options.append(UnitFire(uid, None, sws[:1], smc=True))
    if not options:
        return None
    return max(options, key=lambda f: ((f.inherent or 0) + sum(v for _, v, _ in f.sws), -len(f.sws)))


def combine(shares: list[UnitFire]) -> int:
    """5.2 (A5): the lead unit's inherent FP in full, each other MMC's half, MGs and flamethrowers in
    full, an SMC's SW in full; fractions kept, the total rounded up. A lone 0-FP unit under OC: -1 (4.1)."""
    if not shares:
        return 0
    inh = sorted((f.inherent for f in shares if f.inherent is not None and not f.full), reverse=True)
    half_points = 2 * sum(f.inherent for f in shares if f.inherent is not None and f.full)  # heroes (5.2, 11.2)
    if inh:
        half_points += 2 * inh[0] + sum(max(0, v) for v in inh[1:])
    for f in shares:
        for _, fp, _full in f.sws:
            half_points += 2 * fp  # MGs and flamethrowers in full (5.2); the demo's other SWs use the OFT
    return -((-half_points) // 2)


@dataclass
class Attack:
    fp: int
    drm: int
    los: Los
    leader: str | None
    firers: list[str]
    parts: list[str]


def plan(s: State, w: World, firers: list[str], target: str, *, opportunity: bool) -> Attack | None:
    """The attack a group of units in one hex would make on `target` (5.0, 5.2, T5, T10), or None
    if it cannot (no LOS, out of range, not spotted, no firepower)."""
    if not firers:
        return None
    frm = s["units"][firers[0]]["at"]
    side = s["units"][firers[0]]["side"]
    if target == frm or not U.units_in(s, target, U.other(side)):
        return None
    los = cached_los(w, frm, target, sorted(s["smoke"]), tall_obstacles_block=s["options"]["tall_obstacles_block"])
    if los.blocked or not U.spotted(s, w, target, side):
        return None
    dist = w.board.distance(frm, target)
    shares: list[UnitFire] = []
    leaders = []
    for u in firers:
        k = U.kind(s, w, u)
        oc_opp = opportunity and s["units"][u]["marker"] == "oc"
        if k.cls == "leader" and not s["units"][u]["sws"]:
            leaders.append(u)
            continue
        f = unit_fire(s, w, u, dist, oc_opp=oc_opp)
        if f is not None:
            shares.append(f)
    if not shares:
        return None
    fp = combine(shares)
    parts = [f"FP {fp} (5.2, T10)"]
    drm = 0
    # 5.0.1: a GO leader not marked Moved/LC/Fired/OC, of the firers' nationality, not firing a SW;
    # 4.1 spot-and-shoot (rules v2 on): an OC leader at the hex he spotted himself this impulse.
    nat = U.kind(s, w, shares[0].uid).nationality
    leader, best = None, 0
    spot_shoot = s["spot"] or {}
    for u in leaders:
        r = s["units"][u]
        oc_ok = (r["marker"] == "oc" and not opportunity and s["version"] != "1"
                 and spot_shoot.get("unit") == u and spot_shoot.get("hex") == target)
        if (r["marker"] in ("moved", "low_crawl", "fired", "oc") and not oc_ok) or U.kind(s, w, u).nationality != nat:
            continue
        v = U.lm(s, w, u)
        if v > best:
            leader, best = u, v
    if leader is not None:
        drm += best
        why = "4.1 spot-and-shoot" if s["units"][leader]["marker"] == "oc" else "5.0.1"
        parts.append(f"leader +{best} ({why})")
    if dist == 1:
        drm += 2
        parts.append("adjacent +2 (T5)")
    if los.degrading:
        drm -= los.degrading
        parts.append(f"degrading {-los.degrading} (T5, 10.3)")
    if frm in s["smoke"]:
        drm -= 1
        parts.append("firing from smoke -1 (7.0)")
    return Attack(fp, drm, los, leader, [f.uid for f in shares], parts)


def _sides(s: State, base: int, bonus: int, att: int, d_die: int, tm: int, dfn: int) -> tuple[str, str]:
    """A damage check's attack and defence as its fact says them. Rules version 3 on, every
    modifier applied is shown: the fire's total, the moving target's +1 (5.3, T5) and the TM
    (T5); versions 1 and 2 (kept for their recorded games) showed the totals alone."""
    if int(s["version"]) < 3:
        return str(att), f"{dfn} (die {d_die} + TM)" if att <= dfn else str(dfn)
    attack = f"{base} + moving +{bonus} (5.3, T5) = {att}" if bonus else str(att)
    return attack, f"{dfn} (die {d_die} + TM {tm:+d})"


def moving_bonus(s: State, w: World, uid: str, movers: list[str], crawling: bool) -> int:
    """+1 against a non-vehicle unit moving or marked Moved/Assault Move, not a low crawler, not in
    brush or grass (5.3, 6.0, T3, T5, A30)."""
    r = s["units"][uid]
    if w.tec[w.terrain(r["at"])].get("no_moving_bonus"):
        return 0
    if uid in movers and not crawling:
        return 1
    return 1 if r["marker"] in ("moved", "assault") else 0


def resolve(s: State, w: World, firers: list[str], target: str, dice: DiceSource, facts: list[Fact], *,
            opportunity: bool = False, movers: list[str] | None = None, crawling: bool = False) -> dict[str, str]:
    """Roll and apply one attack. Returns {unit: DFT result} for the units hit."""
    atk = plan(s, w, firers, target, opportunity=opportunity)
    assert atk is not None, "resolve() is only called for an attack plan() allows"
    side = s["units"][firers[0]]["side"]
    frm = s["units"][firers[0]]["at"]
    movers = movers or []
    sniper = any(U.kind(s, w, u).cls == "sniper" for u in atk.firers)
    a_die = dice.roll(6, f"LnL 5.0 attacker's die, {frm} at {target}")
    if sniper:
        a_die += dice.roll(6, "LnL 11.4 sniper's second die")
    d_die = dice.roll(6, f"LnL 5.0 defender's die in {target}")
    targets = U.units_in(s, target, U.other(side))
    if sniper and len(targets) > 1:
        pick = dice.roll(len(targets), "LnL 11.4 the sniper's random target") if len(targets) > 1 else 1
        targets = [targets[pick - 1]]
    firer_level = w.level(frm)
    results: dict[str, str] = {}
    base = a_die + atk.fp + atk.drm
    facts.append(Fact(f"{'Opportunity fire' if opportunity else 'Fire'} from {frm} at {target}: "
                      f"die {a_die} + {', '.join(atk.parts)} = {base}; LOS {_los_words(atk.los)}",
                      "LnL 5.0" + (", 5.3" if opportunity else ""), "fire",
                      {"from": frm, "target": target, "firers": atk.firers, "die": a_die, "fp": atk.fp,
                       "drm": atk.drm, "los": atk.los.to_json(), "defender_die": d_die}))
    # Leaders take their damage checks first (5.0 step 5).
    order = sorted(targets, key=lambda u: (U.kind(s, w, u).cls != "leader", u))
    helper: str | None = None
    for u in order:
        if s["units"][u]["at"] != target:
            continue
        bonus = moving_bonus(s, w, u, movers, crawling)
        att = base + bonus
        tm = U.tm(s, w, target, u, firer_level)
        dfn = d_die + tm
        k = U.kind(s, w, u)
        attack, defence = _sides(s, base, bonus, att, d_die, tm, dfn)
        if att <= dfn:
            facts.append(Fact(f"{k.name} {u}: attack {attack} vs defence {defence}: no effect",
                              "LnL 5.0", "no_effect", {"unit": u, "attack": att, "defence": dfn}))
            if k.cls == "leader" and not s["units"][u]["shaken"]:
                helper = helper or u
            continue
        die = dice.roll(6, f"LnL 5.0 damage check of {u}")
        lm_help = U.lm(s, w, helper) if helper and helper != u else 0
        dr = die + (att - dfn) - lm_help
        m = U.morale(s, w, u)
        res = dft(dr, m, smc=k.is_smc, shaken=s["units"][u]["shaken"], hero=k.cls == "hero")
        results[u] = res
        facts.append(Fact(f"{k.name} {u}: attack {attack} vs defence {defence}; damage check {die} + {att - dfn}"
                          + (f" - leader {lm_help}" if lm_help else "") + f" = {dr} vs morale {m}: {res}",
                          "LnL 5.0, 5.1, T4", "damage",
                          {"unit": u, "die": die, "dr": dr, "morale": m, "result": res}))
        marker = s["units"][u]["marker"]
        apply_result(s, w, u, res, facts)
        if die == 1 and k.cls in ("squad", "half") and s["options"].get("heroes"):
            hero_check(s, w, u, target, marker, dice, facts)
        if k.cls == "leader" and s["units"][u]["at"] is not None and not s["units"][u]["shaken"]:
            helper = helper or u
    if _flamethrower_fired(s, w, atk.firers, frm, target):
        for u in order:
            if s["units"][u]["at"] == target and s["units"][u]["shaken"]:
                _must_retreat(s, w, u, frm, facts)
    for u in atk.firers + ([atk.leader] if atk.leader else []):
        r = s["units"][u]
        if r["marker"] == "assault":
            r["am_fired"] = True
        r["marker"] = "fired"
    return results


CARDS = ("Bull", "Charismatic")  # 12.0, T2: the demo's only skill cards, drawn at random (A33)
HERO_CARDS = ("Bull",)  # T2: Bull for leaders and heroes, Charismatic for leaders only


def hero_check(s: State, w: World, parent: str, at: str, marker: str, dice: DiceSource, facts: list[Fact]) -> None:
    """11.2 (option `heroes`): a squad or half squad that rolled 1 on its damage check rolls 1d6;
    even (ARVN: 1, 13.4) and a hero of its nationality appears in its hex with the parent's marker
    as it stood (A: the parent's activation state), or, over stacking (1.3), in an adjacent hex free
    of enemies where it fits, the owner choosing (W6: queued in `drops`; one such hex: taken unasked)."""
    k = U.kind(s, w, parent)
    side = s["units"][parent]["side"]
    die = dice.roll(6, f"LnL 11.2 hero appearance from {parent}")
    ok = die == 1 if k.nationality == "ARVN" else die % 2 == 0
    kind = f"{k.nationality.lower()}-hero"
    if not ok or kind not in w.kinds:
        facts.append(Fact(f"{parent} rolled 1 on its damage check: hero die {die}, no hero", "LnL 11.2", "hero",
                          {"unit": parent, "die": die, "success": False}))
        return
    from rules.lock_n_load.events import new_unit

    n = 1 + sum(1 for r in s["units"].values() if w.kinds[r["kind"]].cls == "hero")
    uid = f"{side}-hero{n}"
    s["units"][uid] = new_unit(side, kind, at)
    s["units"][uid]["marker"] = marker
    free: list[str] = []
    if not U.stacking_ok(s, w, at, side):
        free = hero_hexes(s, w, uid, at)
        if not free:
            del s["units"][uid]
            facts.append(Fact(f"A hero would appear from {parent}, but no hex can hold him", "LnL 11.2", "hero",
                              {"unit": parent, "die": die, "success": False}))
            return
        s["units"][uid]["at"] = free[0] if len(free) == 1 else None
    where = (f"in {s['units'][uid]['at']}" if s["units"][uid]["at"] else
             f"next to {at}, in the hex his owner chooses of {', '.join(free)} (W6)")
    c_die = dice.roll(len(CARDS), f"LnL 11.2, 11.12 skill card drawn by {uid}")
    card = s["units"][uid]["card"] = CARDS[c_die - 1]
    held = "" if card in HERO_CARDS else " (a leaders' card, T2: no use to a hero)"
    facts.append(Fact(f"{parent} rolled 1 on its damage check: hero die {die}, a {w.kinds[kind].name} ({uid}) appears "
                      f"{where}; he draws the {card} card (die {c_die} of {len(CARDS)}){held}", "LnL 11.2, 11.12",
                      "hero", {"unit": parent, "hero": uid, "die": die, "success": True, "hex": s["units"][uid]["at"],
                               "card": card, "card_die": c_die}))
    if len(free) > 1:
        s["drops"].append({"kind": "hero", "unit": uid, "near": at})


def hero_hexes(s: State, w: World, uid: str, at: str) -> list[str]:
    """11.2: the hexes adjacent to `at` with no enemy unit where the hero fits (1.3)."""
    side = s["units"][uid]["side"]
    return [h for h in sorted(w.board.neighbours(at)) if not U.units_in(s, h, U.other(side))
            and U.stacking_ok(s, w, h, side, extra=[uid])]


def _flamethrower_fired(s: State, w: World, firers: list[str], frm: str, target: str) -> bool:
    """1.6.2: a flamethrower in range among the firers' SWs (DFT fire only: melee never calls this)."""
    dist = w.board.distance(frm, target)
    return any(w.sws[s["sws"][x]["kind"]].kind == "flamethrower" and w.sws[s["sws"][x]["kind"]].range >= dist
               for u in firers for x in s["units"][u]["sws"])


def retreat_hexes(s: State, w: World, uid: str, firer_hex: str) -> list[str]:
    """1.6.2: the adjacent hexes a unit shaken by flamethrower fire may retreat into: farther from
    the flamethrower's hex, no nearer any other enemy unit (A9: hex distance to each), free of
    enemies and within stacking (1.3)."""
    r = s["units"][uid]
    at, side = r["at"], r["side"]
    others = [h for h in U.side_hexes(s, U.other(side)) if h != firer_hex]
    out = []
    for h in w.board.neighbours(at):
        if U.units_in(s, h, U.other(side)) or w.board.distance(h, firer_hex) <= w.board.distance(at, firer_hex):
            continue
        if any(w.board.distance(h, e) < w.board.distance(at, e) for e in others):
            continue
        if U.stacking_ok(s, w, h, side, extra=[uid]):
            out.append(h)
    return sorted(out)


def _must_retreat(s: State, w: World, uid: str, firer_hex: str, facts: list[Fact]) -> None:
    """1.6.2 (A9: any target Shaken after the attack): retreat one hex, the owner choosing it (W4,
    queued in `drops` as a decision after the fire), or eliminated if there is none."""
    hexes = retreat_hexes(s, w, uid, firer_hex)
    if not hexes:
        eliminate(s, w, uid, facts, "shaken by a flamethrower with no hex to retreat into, 1.6.2")
        return
    facts.append(Fact(f"{U.kind(s, w, uid).name} {uid} is shaken by flamethrower fire and must retreat one hex "
                      f"({', '.join(hexes)})", "LnL 1.6.2", "must_retreat", {"unit": uid, "hexes": hexes}))
    s["drops"].append({"kind": "retreat", "unit": uid, "hexes": hexes})


def retreat(s: State, w: World, uid: str, to: str, facts: list[Fact]) -> None:
    """1.6.2: the retreat is a one-hex move marked Moved (its SWs go with it)."""
    r = s["units"][uid]
    frm = r["at"]
    r["at"] = to
    r["marker"] = "moved"
    facts.append(Fact(f"{U.kind(s, w, uid).name} {uid} retreats from {frm} to {to} (Moved)", "LnL 1.6.2", "retreat",
                      {"unit": uid, "from": frm, "hex": to}))


def _los_words(los: Los) -> str:
    if not los.obstacles:
        return "clear"
    return "; ".join(f"{o.where} {o.what} {o.effect}" for o in los.obstacles)


def apply_result(s: State, w: World, uid: str, res: str, facts: list[Fact]) -> None:
    """5.1: Shaken flips the unit; Casualty reduces a squad to a shaken half squad (13.3, 13.4) and
    eliminates anything smaller; Wounded marks an SMC (a second wound kills; Bull: a third, T2)."""
    r = s["units"][uid]
    k = U.kind(s, w, uid)
    if res == "none":
        return
    if res == "shaken":
        r["shaken"] = True
        return
    if res == "casualty":
        if k.cls == "squad" and k.reduces_to:
            r["kind"] = k.reduces_to
            r["shaken"] = True
            if len(r["sws"]) > 1:  # 1.6.1: a half squad carries one SW; its owner chooses which to drop (W5)
                s["drops"].append(uid)
            return
        eliminate(s, w, uid, facts, "casualty")
        return
    if res == "wounded":
        r["wounds"] += 1
        r["shaken"] = k.cls != "hero"  # 11.2, T4: heroes are never shaken
        limit = 2 if U.card(s, w, uid) == "Bull" else 1
        if r["wounds"] > limit:
            eliminate(s, w, uid, facts, "wounded again")
        return
    eliminate(s, w, uid, facts, "eliminated")


def drop_sw(s: State, sw: str, hex_id: str) -> None:
    s["sws"][sw]["holder"] = None
    s["sws"][sw]["at"] = hex_id


def eliminate(s: State, w: World, uid: str, facts: list[Fact], why: str) -> None:
    """The unit leaves the map; its SWs stay in the hex (1.6.1)."""
    r = s["units"][uid]
    at = r["at"]
    for x in r["sws"]:
        drop_sw(s, x, at)
    r["sws"] = []
    r["at"] = None
    r["dead"] = True
    s["eliminated"].append(uid)
    facts.append(Fact(f"{U.kind(s, w, uid).name} {uid} is eliminated in {at} ({why})", "LnL 5.1", "eliminated",
                      {"unit": uid, "hex": at}))
