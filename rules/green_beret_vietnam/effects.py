"""Changes to a (private copy of the) state that many rules share: losses, the pools, triggers.

Every function records what it did as a Fact with its rule section.
"""

from __future__ import annotations

from rules.core.chits import put_back
from rules.core.game import Fact, State
from rules.green_beret_vietnam.board import (
    camp_at,
    detected_targets,
    fact,
    items_at,
    leaders_at,
    name,
    names,
    teams,
    teams_at,
)
from rules.green_beret_vietnam.data import World


def to_supply(s: State, cid: str) -> None:
    """Off the map: back among the counters that can be bought again (4.0, 13.0 step 8, 13.1)."""
    rec = s["gb"][cid]
    rec.update(status="supply", hex=None, moved=False, left=False, detected=False, flipped=False)
    if rec["damage"]:
        s["damage_pool"] = put_back(s["damage_pool"], rec["damage"])
        rec["damage"] = []


def eliminate_items(s: State, w: World, ids: list[str], why: str, rule: str, facts: list[Fact]) -> None:
    if not ids:
        return
    for c in ids:
        to_supply(s, c)
    facts.append(fact(f"{names(w, ids)} eliminated: {why} (may be bought again)", rule, "loss", counters=ids))


def eliminate_team(s: State, w: World, tid: str, why: str, rule: str, facts: list[Fact]) -> None:
    markers = list(s["gb"][tid]["damage"])
    to_supply(s, tid)
    s["tally"]["teams_lost"].append(tid)
    extra = f"; damage markers {names(w, markers)} back to the pool" if markers else ""
    facts.append(fact(f"{name(w, tid)} eliminated: {why}{extra}", rule, "elimination", counter=tid, markers=markers))


def eliminate_leader(s: State, w: World, lid: str, why: str, rule: str, facts: list[Fact]) -> None:
    to_supply(s, lid)
    s["tally"]["leaders_lost"].append(lid)
    facts.append(fact(f"{name(w, lid)} eliminated: {why}", rule, "elimination", counter=lid))


def destroy_camp(s: State, w: World, camp: str, why: str, rule: str, facts: list[Fact]) -> None:
    h = s["camps"][camp]["hex"]
    s["camps"][camp].update(status="destroyed", hex=None)
    facts.append(fact(f"Base camp at {w.title(h)} eliminated for good: {why}", rule, "camp", camp=camp, hex=h))


def place_enemy(s: State, e: str, h: str) -> None:
    s["enemies"][e] = {"hex": h, "from": h, "mp": 0, "moved": False, "suppressed": False, "target": None,
                       "next": None, "path": []}
    s["enemy_order"].append(e)


def remove_enemy(s: State, e: str) -> None:
    """Back into the enemy pool (13.0 step 6, 12.9)."""
    del s["enemies"][e]
    s["enemy_order"].remove(e)
    s["enemy_pool"] = put_back(s["enemy_pool"], [e])


def enemy_enters(s: State, w: World, e: str, h: str, placed: bool, facts: list[Fact]) -> None:
    """What an enemy entering (or placed in) a hex does there (10.4, 10.9, 12.4, 12.8, 12.10, 13.1).

    No GB team in the hex: the base camp is eliminated for good, and every GB counter there
    (left items, lone plus counters, lone leaders) is eliminated. A GB team in the hex (placement
    only; a moving enemy stops next to teams): the left items there are eliminated and every team
    there is detected at once (12.8), without drawing more enemies (AMBIG-31c).
    """
    who = name(w, e)
    tms = teams_at(s, w, h)
    if not tms:
        camp = camp_at(s, h)
        if camp is not None:
            destroy_camp(s, w, camp, f"{who} entered it with no GB team there", "12.10", facts)
        for ld in leaders_at(s, w, h):
            eliminate_leader(s, w, ld, f"alone when {who} entered its hex", "13.1", facts)
        eliminate_items(s, w, items_at(s, w, h), f"not stacked with a GB team when {who} entered {h}",
                        "10.9", facts)
        return
    left = [c for c in items_at(s, w, h) if s["gb"][c]["left"]]
    eliminate_items(s, w, left, f"left in {h} when {who} was placed there", "12.4", facts)
    newly = [t for t in tms if not s["gb"][t]["detected"]]
    for t in tms:
        s["gb"][t]["detected"] = True
    if newly and placed:
        facts.append(fact(f"{who} placed on {names(w, newly)} in {h}: detected at once; it will attack "
                          "them in the Enemy Movement/Combat Phase", "12.8", "detection", hex=h, teams=newly))


def enemies_go_home(s: State, w: World, facts: list[Fact]) -> None:
    """T1 (4.0, 12.4, 12.5, 12.9, 12.10): with no detected GB team outside a base camp, every
    enemy on the map goes back to the pool."""
    if not s["enemies"] or detected_targets(s, w):
        return
    ids = list(s["enemy_order"])
    for e in ids:
        remove_enemy(s, e)
    facts.append(fact(f"No detected Green Beret team is left outside a base camp: all {len(ids)} enemy unit(s) "
                      "return to the pool", "12.4", "enemy", enemies=ids))


def clear_detection_in_camps(s: State, w: World) -> None:
    for t in teams(s, w):
        if camp_at(s, s["gb"][t]["hex"]) is not None:
            s["gb"][t]["detected"] = False

