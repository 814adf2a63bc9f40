"""The enemy as the system plays it: appearing (12.7), scatter (12.8), pursuit (10.6, 11.0, 12.4, 12.9).

Each function works on a private copy of the state and appends Facts that carry the dice and
the rule sections, so a replay can show "3 enemies appear (12.7); VC Platoon 2 scatters 2-4 to
1418 (12.8)". Where the rules leave a tie to the player, the function sets a decision and puts
its task back on the agenda; the player's answer resumes it.
"""

from __future__ import annotations

from typing import Any

from rules.core.chits import draw, put_back
from rules.core.dice import DiceSource
from rules.core.game import Fact, State
from rules.green_beret_vietnam.board import (
    DIRS,
    camp_hexes,
    detected_targets,
    fact,
    name,
    team_hexes,
    walk_wrapped,
)
from rules.green_beret_vietnam.data import World
from rules.green_beret_vietnam.effects import enemy_enters, place_enemy

Task = dict[str, Any]
ONE_HEX = "the one hex that closes on the target"


def spawn(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    """12.7: roll 1d6 for the number of enemy units; draw each at random from the pool and
    scatter it from the detected hex with a direction die and a distance die (12.8)."""
    h = task["hex"]
    n = dice.roll(6, "12.7 number of enemy units appearing")
    facts.append(fact(f"{n} enemy unit(s) appear near {w.title(h)} (rolled {n} on d6)", "12.7", "spawn",
                      hex=h, die=n, why=task.get("why")))
    for _ in range(n):
        if not s["enemy_pool"]:
            facts.append(fact("The enemy pool is empty: no more units can appear (GAP-18: as many as remain)",
                              "12.7", "spawn", hex=h))
            return
        before = s["enemy_pool"]
        # 3.6: a secret die, and no pool position in the fact: the draw's place in the sorted
        # pool would tell which two units are the face-down PP-track markers
        v1 = s.get("version") == "1"  # rules version 1: a public die, its pool position in the fact
        e, s["enemy_pool"] = draw(before, dice, "12.7 draw an enemy unit from the pool", secret=not v1)
        d = dice.roll(6, "12.8 scatter direction die")
        dist = dice.roll(6, "12.8 scatter distance die")
        place_scattered(s, w, e, h, d, dist, facts, pool_die(before, e) if v1 else None)


def pool_die(pool: list[str], chit: str) -> int | None:
    """The die that drew `chit` from `pool` (its 1-based position; no die for a pool of one)."""
    return pool.index(chit) + 1 if len(pool) > 1 else None


def place_scattered(s: State, w: World, e: str, h: str, d: int, dist: int, facts: list[Fact],
                    drawn_with: int | None = None) -> None:
    en = w.enemies[e]
    to = walk_wrapped(w, h, d - 1, dist)
    wrapped = _wraps(w, h, d - 1, dist)
    where = f"{name(w, e)} scatters {d}-{dist} ({DIRS[d - 1]}, {dist} hex{'es' if dist > 1 else ''}) from {h} to {to}"
    if wrapped:
        where += " (across the map edge, from the opposite edge)"
    data = {"enemy": e, "from": h, "to": to, "direction": d, "distance": dist, "wrapped": wrapped,
            "pool_die": drawn_with}
    hx = w.hexes[to]
    if hx.full_water:
        s["enemy_pool"] = put_back(s["enemy_pool"], [e])
        facts.append(fact(f"{where}: full water, back to the pool, not redrawn", "12.8", "scatter", returned=True,
                          **data))
        return
    if en.circled and hx.stream:
        s["enemy_pool"] = put_back(s["enemy_pool"], [e])
        facts.append(fact(f"{where}: a stream, and its MA is circled: back to the pool, not redrawn", "12.8",
                          "scatter", returned=True, **data))
        return
    place_enemy(s, e, to)
    facts.append(fact(f"{where} (FP {en.fp}, MA {en.ma}{' circled' if en.circled else ''})", "12.8", "scatter",
                      returned=False, **data))
    enemy_enters(s, w, e, to, True, facts)


def _wraps(w: World, h: str, direction: int, dist: int) -> bool:
    cur: str | None = h
    for _ in range(dist):
        assert cur is not None
        cur = w.grid.neighbour(cur, direction)
        if cur is None:
            return True
    return False


def next_to_a_team(s: State, w: World, h: str) -> bool:
    return any(w.distance(h, t) <= 1 for t in team_hexes(s, w))


def start_phase(s: State, w: World) -> None:
    for e in s["enemy_order"]:
        rec = s["enemies"][e]
        rec.update(mp=w.enemies[e].ma, moved=False, suppressed=False, target=None, next=None, path=[],
                   **{"from": rec["hex"]})


def enterable(w: World, e: str, h: str) -> bool:
    """11.0: no enemy enters full water; a circled-MA enemy enters a stream only at a bridge or road."""
    hx = w.hexes[h]
    if hx.full_water:
        return False
    if w.enemies[e].circled and hx.stream and not (hx.bridge or hx.road):
        return False
    return True


def nearest_camp_distance(s: State, w: World, h: str) -> int | None:
    cs = camp_hexes(s)
    return min(w.distance(h, c) for c in cs) if cs else None


def move(s: State, w: World, task: Task, dice: DiceSource, facts: list[Fact]) -> None:
    """10.6 / 12.4 / 12.9 pursuit of one enemy unit, one hex at a time (AMBIG-32, AMBIG-33, AMBIG-24)."""
    e = task["enemy"]
    if e not in s["enemies"]:
        return
    rec = s["enemies"][e]
    en = w.enemies[e]
    while True:
        here = rec["hex"]
        if next_to_a_team(s, w, here):
            return _stop(s, w, e, "next to a Green Beret team: it stays to attack (12.9, AMBIG-33)", facts)
        targets = detected_targets(s, w)
        if not targets:
            return _stop(s, w, e, "no detected team to pursue", facts)
        if rec["target"] not in targets:
            best = min(w.distance(here, t) for t in targets)
            tied = [t for t in targets if w.distance(here, t) == best]
            if len(tied) > 1:
                s["decision"] = {"kind": "target", "enemy": e, "options": tied}
                s["agenda"].insert(0, task)
                return
            rec["target"] = tied[0]
        target = rec["target"]
        d = w.distance(here, target)
        closer = [n for n in w.neighbours(here) if w.distance(n, target) == d - 1]
        ok = [n for n in closer if enterable(w, e, n)]
        if not ok:
            return _stop(s, w, e, f"the most direct hex(es) {', '.join(closer)} toward {target} are water "
                                  f"{'or streams ' if en.circled else ''}it cannot enter: it stops, no detour (11.0)",
                         facts)
        why = ONE_HEX
        if len(ok) > 1:
            choice, why = _tie_break(s, w, e, ok)
            if choice is None:
                s["decision"] = {"kind": "pursuit_hex", "enemy": e, "options": ok}
                s["agenda"].insert(0, task)
                return
        else:
            choice = ok[0]
        rec["next"] = None
        cost = w.hexes[choice].mp
        assert cost is not None
        if cost > rec["mp"]:
            if rec["moved"]:
                return _stop(s, w, e, f"{choice} costs {cost} MP and it has {rec['mp']} left (10.6)", facts)
            why += f"; minimum move: {choice} costs {cost} MP, more than its {rec['mp']}, so it spends all (AMBIG-24)"
            rec["mp"] = 0
        else:
            rec["mp"] -= cost
        rec["hex"] = choice
        rec["moved"] = True
        rec["path"].append({"hex": choice, "cost": cost, "mp_left": rec["mp"], "why": why})
        enemy_enters(s, w, e, choice, False, facts)
        if e not in s["enemies"]:
            return


def _tie_break(s: State, w: World, e: str, ok: list[str]) -> tuple[str | None, str]:
    """AMBIG-32a: equally direct hexes -> the lower MP cost (12.9*), then the one closer to the
    base camp (12.4 note), then the player's choice (or the choice the player already made)."""
    rec = s["enemies"][e]
    if rec["next"] in ok:
        return rec["next"], f"the player chose {rec['next']} between equally close hexes (12.4 note)"
    costs = {n: w.hexes[n].mp or 0 for n in ok}
    low = min(costs.values())
    cands = [n for n in ok if costs[n] == low]
    if len(cands) == 1:
        return cands[0], f"lower MP cost than {', '.join(n for n in ok if n != cands[0])} (12.9 footnote)"
    dists = {n: nearest_camp_distance(s, w, n) for n in cands}
    if all(v is not None for v in dists.values()):
        near = min(v for v in dists.values() if v is not None)
        best = [n for n in cands if dists[n] == near]
        if len(best) == 1:
            return best[0], "equal MP cost; closer to a base camp (12.4 note)"
    return None, ""


def _stop(s: State, w: World, e: str, why: str, facts: list[Fact]) -> None:
    rec = s["enemies"][e]
    path = rec["path"]
    en = w.enemies[e]
    if path:
        route = " → ".join([rec["from"]] + [p["hex"] for p in path])
        notes = "".join(f"; {p['hex']}: {p['why']}" for p in path if p["why"] != ONE_HEX)
        text = (f"{name(w, e)} pursues the detected team at {rec['target']}: {route} "
                f"({rec['mp']} of {en.ma} MP left){notes}; stops: {why}")
    elif en.ma == 0:
        text = f"{name(w, e)} has MA 0 and holds its hex {rec['hex']} (10.6)"
    else:
        text = f"{name(w, e)} does not move from {rec['hex']}: {why}"
    facts.append(fact(text, "12.9", "pursuit", enemy=e, path=path, target=rec["target"], hex=rec["hex"]))
    rec["path"] = []


def answer_target(s: State, w: World, hex_: str) -> None:
    d = s["decision"]
    s["enemies"][d["enemy"]]["target"] = hex_


def answer_hex(s: State, w: World, hex_: str) -> None:
    d = s["decision"]
    s["enemies"][d["enemy"]]["next"] = hex_
