"""Set-up and procurement: base camps (3.1, 6.3, 12.10, 12.11), teams and leaders (3.2, 3.3),
weapons and equipment (3.5, 6.0-6.2). Everything bought is placed at a base camp; only counters
not on the map can be bought (4.0); nothing is ever refunded (6.2)."""

from __future__ import annotations

import functools

from rules.core.game import Action, Fact, IllegalAction, State
from rules.green_beret_vietnam.board import at, camps, fact, name
from rules.green_beret_vietnam.data import Counter, World


def first_in_supply(s: State, w: World, kind: str) -> str | None:
    for c, x in s["gb"].items():
        if w.counters[c].kind == kind and x["status"] == "supply":
            return str(c)
    return None


def pbr_at(s: State, w: World, h: str) -> bool:
    return any(w.counters[c].kind == "pbr" for c in at(s, h))


def buy_candidates(s: State, w: World) -> list[Action]:
    """BUY: one per counter kind available off the map and affordable, per base camp."""
    out: list[Action] = []
    cs = camps(s)
    seen: set[str] = set()
    counters = w.counters
    in_supply = {counters[c].kind for c, x in s["gb"].items() if x["status"] == "supply"}  # first_in_supply's answers, at once
    for c in counters.values():
        if c.kind in seen:
            continue
        seen.add(c.kind)
        if c.kind not in in_supply or c.cost > s["pp"]:
            continue
        out += _buy_at_camps(s, w, c.kind, cs)
    return out


def buy_candidates_of(s: State, w: World, kind: object) -> list[Action]:
    """The actions of `buy_candidates(s, w)` buying `kind`, in its order (the only ones an action
    naming `kind` may equal), without going through every other kind."""
    c = _first_of_kind(w).get(kind) if isinstance(kind, str) else None
    if c is None or first_in_supply(s, w, c.kind) is None or c.cost > s["pp"]:
        return []
    return _buy_at_camps(s, w, c.kind, camps(s))


def _buy_at_camps(s: State, w: World, kind: str, cs: list[str]) -> list[Action]:
    out: list[Action] = []
    for k in cs:
        rec = s["camps"][k]
        if kind == "pbr" and (not rec["pbr"] or pbr_at(s, w, rec["hex"])):
            continue  # 3.1: a PBR sits in full water with its own camp, one PBR per camp
        out.append({"type": "buy", "kind": kind, "camp": k})
    return out


@functools.cache
def _first_of_kind(w: World) -> dict[str, Counter]:
    """Each counter kind's first counter in catalogue order (its cost is the kind's), per counter data."""
    out: dict[str, Counter] = {}
    for c in w.counters.values():
        out.setdefault(c.kind, c)
    return out


def buy(s: State, w: World, a: Action, facts: list[Fact]) -> None:
    if a not in buy_candidates_of(s, w, a.get("kind")):
        raise IllegalAction(_buy_why(s, w, a), "GBV 6.0")
    cid = first_in_supply(s, w, a["kind"])
    assert cid is not None
    c = w.counters[cid]
    h = s["camps"][a["camp"]]["hex"]
    s["pp"] -= c.cost
    s["gb"][cid].update(status="map", hex=h, moved=False, left=False, detected=False, flipped=False, damage=[])
    facts.append(fact(f"Bought {c.name} for {c.cost} PP (now {s['pp']}), placed at the base camp in {h}",
                      "6.2" if c.cls == "item" else ("3.2" if c.cls == "team" else "3.3"), "buy", counter=cid,
                      cost=c.cost, hex=h))


def _buy_why(s: State, w: World, a: Action) -> str:
    kinds = {c.kind: c for c in w.counters.values()}
    c = kinds.get(a.get("kind", ""))
    if c is None:
        return f"no counter kind {a.get('kind')!r}"
    if a.get("camp") not in camps(s):
        return "purchases are placed at one of your base camps (3.5)"
    if first_in_supply(s, w, c.kind) is None:
        return f"every {c.name} counter is on the map: only counters not on the map can be bought (4.0)"
    if c.cost > s["pp"]:
        return f"{c.name} costs {c.cost} PP and you have {s['pp']} (6.0)"
    return "a PBR is placed in full water with a base camp of its own, one PBR per camp (3.1)"


def camp_candidates(s: State, w: World) -> list[Action]:
    """12.10: one more base camp per Mission Placement Phase, under the 3.1 restrictions; with
    `pbr: true` a PBR bought with it, the camp in full water (3.1 exception)."""
    free = [k for k in w.camp_ids if s["camps"][k]["status"] == "supply"]
    if not free or s["camp_bought"] or s["pp"] < w.camp_cost:
        return []
    taken = {s["camps"][k]["hex"] for k in camps(s)}
    out: list[Action] = [{"type": "buy_camp", "hex": h} for h in w.camp_hexes if h not in taken]
    pbr = first_in_supply(s, w, "pbr")
    if pbr is not None and s["pp"] >= w.camp_cost + w.counters[pbr].cost:
        out += [{"type": "buy_camp", "hex": h, "pbr": True} for h in w.pbr_hexes if h not in taken]
    return out


def camp_candidates_at(s: State, w: World, h: object) -> list[Action]:
    """The actions of `camp_candidates(s, w)` on hex `h`, in its order, without listing every hex
    (the only ones an action naming `h` may equal)."""
    if h not in w.camp_hexes and h not in w.pbr_hexes:  # by equality: `h` a hex id from here on
        return []
    free = [k for k in w.camp_ids if s["camps"][k]["status"] == "supply"]
    if not free or s["camp_bought"] or s["pp"] < w.camp_cost or h in {s["camps"][k]["hex"] for k in camps(s)}:
        return []
    out: list[Action] = [{"type": "buy_camp", "hex": h}] if h in w.camp_hexes else []
    pbr = first_in_supply(s, w, "pbr")
    if pbr is not None and s["pp"] >= w.camp_cost + w.counters[pbr].cost and h in w.pbr_hexes:
        out.append({"type": "buy_camp", "hex": h, "pbr": True})
    return out


def place_camp(s: State, w: World, h: str, pbr: bool, facts: list[Fact], bought: bool) -> str:
    camp = next(k for k in w.camp_ids if s["camps"][k]["status"] == "supply")
    s["camps"][camp].update(status="map", hex=h, pbr=pbr)
    cost = w.camp_cost if bought else 0
    s["pp"] -= cost
    what = "Base camp" + (" with a PBR" if pbr else "")
    facts.append(fact(f"{what} placed in {w.title(h)}" + (f" for {cost} PP" if cost else " (free)"),
                      "3.1", "camp", camp=camp, hex=h, cost=cost))
    if pbr:
        cid = first_in_supply(s, w, "pbr")
        assert cid is not None
        s["pp"] -= w.counters[cid].cost
        s["gb"][cid].update(status="map", hex=h, moved=False, left=False, detected=False, flipped=False, damage=[])
        facts.append(fact(f"Bought {name(w, cid)} for {w.counters[cid].cost} PP, placed with the camp in full water "
                          f"(PP now {s['pp']})", "3.1", "buy", counter=cid, hex=h))
    if h in w.coastal:
        s["pp"] += w.coast_bonus_pp
        facts.append(fact(f"The camp is within {w.coast_bonus_within} hexes of the coast: +{w.coast_bonus_pp} PP "
                          f"(now {s['pp']})", "6.3", "pp", hex=h, bonus=w.coast_bonus_pp))
    return camp


def buy_camp(s: State, w: World, a: Action, facts: list[Fact]) -> None:
    if a not in camp_candidates_at(s, w, a.get("hex")):
        if s["camp_bought"]:
            raise IllegalAction("only one base camp may be bought per Mission Placement Phase (12.10)", "GBV 12.10")
        raise IllegalAction("a base camp goes on a hex that is not, and is not next to, a village, an airfield or "
                            "full water (3.1), with a camp counter available and the PP to pay", "GBV 3.1")
    s["camp_bought"] = True
    place_camp(s, w, a["hex"], bool(a.get("pbr")), facts, bought=True)


def setup_candidates(s: State, w: World) -> list[Action]:
    out: list[Action] = [{"type": "place_camp", "hex": h} for h in w.camp_hexes]
    pbr = first_in_supply(s, w, "pbr")
    if pbr is not None and s["pp"] >= w.counters[pbr].cost:
        out += [{"type": "place_camp", "hex": h, "pbr": True} for h in w.pbr_hexes]
    return out


def setup_candidates_at(s: State, w: World, h: object) -> list[Action]:
    """The actions of `setup_candidates(s, w)` on hex `h`, in its order (as camp_candidates_at)."""
    out: list[Action] = [{"type": "place_camp", "hex": h}] if h in w.camp_hexes else []
    pbr = first_in_supply(s, w, "pbr") if h in w.pbr_hexes else None
    if pbr is not None and s["pp"] >= w.counters[pbr].cost:
        out.append({"type": "place_camp", "hex": h, "pbr": True})
    return out


def place_start(s: State, w: World, a: Action, facts: list[Fact]) -> None:
    """3.1-3.3: the free base camp, then the free teams and leaders in it."""
    if a not in setup_candidates_at(s, w, a.get("hex")):
        raise IllegalAction("the base camp cannot go on, or next to, a village, an airfield or full water "
                            "(3.1; with a PBR it goes in full water)", "GBV 3.1")
    h = a["hex"]
    place_camp(s, w, h, bool(a.get("pbr")), facts, bought=False)
    free = [c for c, x in w.counters.items() if x.free]
    for c in free:
        s["gb"][c].update(status="map", hex=h)
    facts.append(fact(f"Free at the start: {', '.join(name(w, c) for c in free)}, placed at the base camp",
                      "3.3", "setup", counters=free, hex=h))


def relocate_candidates(s: State, w: World) -> list[Action]:
    """12.11: any camp not bound to a PBR (AMBIG-4b), while there is PP to pay a d10."""
    if s["pp"] < 1:
        return []
    return [{"type": "relocate", "camp": k} for k in camps(s) if not s["camps"][k]["pbr"]]


def relocate(s: State, w: World, a: Action, roll: int, facts: list[Fact]) -> bool:
    """Pay the d10 (AMBIG-38a: a roll above the PP on hand means no relocation and no payment)."""
    k = a["camp"]
    if roll > s["pp"]:
        facts.append(fact(f"Relocation of the camp in {s['camps'][k]['hex']}: rolled {roll} on d10, more than the "
                          f"{s['pp']} PP on hand: not relocated, nothing paid", "12.11", "camp", camp=k, die=roll))
        return False
    s["pp"] -= roll
    facts.append(fact(f"Relocation of the camp in {s['camps'][k]['hex']}: rolled {roll} on d10, paid {roll} PP "
                      f"(now {s['pp']}); choose its new hex", "12.11", "camp", camp=k, die=roll))
    s["decision"] = {"kind": "relocate_to", "camp": k}
    return True


def relocate_hexes(s: State, w: World, camp: str) -> list[str]:
    taken = {s["camps"][k]["hex"] for k in camps(s)}
    return [h for h in w.camp_hexes if h not in taken]


def relocate_to(s: State, w: World, h: str, facts: list[Fact]) -> None:
    k = s["decision"]["camp"]
    old = s["camps"][k]["hex"]
    s["camps"][k]["hex"] = h
    facts.append(fact(f"Base camp moved from {old} to {w.title(h)}; the counters in {old} stay there; no coast "
                      "bonus for a relocation", "12.11", "camp", camp=k, old=old, hex=h))

