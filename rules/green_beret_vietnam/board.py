"""Read-only questions about a state: who is where, firepower, noise, carrying (GBV 8.0-9.4, 12.0, 13.0).

A GB counter's record in `state["gb"]`: status ("supply" off the map and buyable, "map"), hex,
moved (this turn, 10.1), left (an item lying in its hex, not held by a team: 10.11, 9.0),
detected (teams, 12.0), damage (a team's damage marker ids, 13.1), flipped (a weapon used for
suppression this Enemy Movement/Combat Phase, 15.0).
"""

from __future__ import annotations

from typing import Any

from rules.core.game import Fact, State
from rules.green_beret_vietnam.data import Counter, World

DIRS = ("N", "NE", "SE", "S", "SW", "NW")


def fact(text: str, rule: str | None, kind: str = "info", **data: Any) -> Fact:
    return Fact(text, f"GBV {rule}" if rule else None, kind, dict(data))


def on_map(s: State) -> list[str]:
    return [c for c, x in s["gb"].items() if x["status"] == "map"]


def at(s: State, h: str) -> list[str]:
    return [c for c, x in s["gb"].items() if x["status"] == "map" and x["hex"] == h]


def teams_at(s: State, w: World, h: str) -> list[str]:
    return [c for c in at(s, h) if w.counters[c].cls == "team"]


def leaders_at(s: State, w: World, h: str) -> list[str]:
    return [c for c in at(s, h) if w.counters[c].cls == "leader"]


def items_at(s: State, w: World, h: str) -> list[str]:
    return [c for c in at(s, h) if w.counters[c].cls == "item"]


def teams(s: State, w: World) -> list[str]:
    return [c for c in on_map(s) if w.counters[c].cls == "team"]


def team_hexes(s: State, w: World) -> list[str]:
    out: list[str] = []
    for c in teams(s, w):
        h = s["gb"][c]["hex"]
        if h not in out:
            out.append(h)
    return sorted(out)


def camps(s: State) -> list[str]:
    return [k for k, x in s["camps"].items() if x["status"] == "map"]


def camp_at(s: State, h: str) -> str | None:
    for k, x in s["camps"].items():
        if x["status"] == "map" and x["hex"] == h:
            return str(k)
    return None


def camp_hexes(s: State) -> list[str]:
    return sorted(s["camps"][k]["hex"] for k in camps(s))


def enemies_at(s: State, h: str) -> list[str]:
    return [e for e in s["enemy_order"] if s["enemies"][e]["hex"] == h]


def enemy_hexes(s: State) -> set[str]:
    return {x["hex"] for x in s["enemies"].values()}


def name(w: World, cid: str) -> str:
    if cid in w.counters:
        return w.counters[cid].name
    if cid in w.enemies:
        return f"{w.enemies[cid].name} ({cid})"
    return cid


def names(w: World, ids: list[str]) -> str:
    return ", ".join(name(w, c) for c in ids) if ids else "nothing"


def detected_targets(s: State, w: World) -> list[str]:
    """Hexes of detected GB teams outside base camps: what the enemy pursues (10.6, 12.10)."""
    out = {s["gb"][t]["hex"] for t in teams(s, w) if s["gb"][t]["detected"]}
    return sorted(h for h in out if camp_at(s, h) is None)


def team_value(s: State, w: World, tid: str, key: str) -> int:
    """A team's printed value modified by its damage marker (13.1)."""
    c = w.counters[tid]
    base = {"fp": c.fp, "ma": c.ma, "noise": c.noise}[key]
    return int(base + sum(getattr(w.damage[d], key) for d in s["gb"][tid]["damage"]))


def capacity_at(s: State, w: World, h: str) -> int:
    """What the counters standing in a hex can carry and use together (9.1-9.3)."""
    return sum(w.counters[c].capacity for c in at(s, h))


def effective_fp(w: World, c: Counter, vs_circled: bool) -> int:
    """13.3: an anti-tank weapon's FP doubles when its team is attacked by a circled-MA enemy."""
    return c.fp * 2 if (vs_circled and c.anti_tank) else c.fp


def usable_items(s: State, w: World, h: str, vs_circled: bool = False) -> list[str]:
    """The items whose FP counts for the GB side in hex h (13.0 step 2, AMBIG-39d).

    At a base camp every item in the hex (9.4). Elsewhere the items held by the teams there
    (not left, 10.11; not flipped for suppression, 15.0), within the hex's carrying limits
    (9.0): plus-type vehicles count as present; the rest, best first, up to the capacity.
    """
    ids = [c for c in items_at(s, w, h) if not s["gb"][c]["flipped"]]
    if not teams_at(s, w, h):
        return []
    if camp_at(s, h) is not None:
        return ids
    held = [c for c in ids if not s["gb"][c]["left"]]
    vehicles = [c for c in held if w.counters[c].plus and not w.counters[c].black]
    rest = [c for c in held if c not in vehicles]
    rest.sort(key=lambda c: (-effective_fp(w, w.counters[c], vs_circled), c))
    room = capacity_at(s, w, h)
    return vehicles + rest[:room]


def gb_fp(s: State, w: World, h: str, vs_circled: bool = False) -> tuple[int, dict[str, int]]:
    """Total FP of the GB stack in hex h and its parts (13.0 step 2, 13.2: only teams in one hex combine)."""
    parts: dict[str, int] = {}
    for t in teams_at(s, w, h):
        parts[t] = max(0, team_value(s, w, t, "fp"))
    for ld in leaders_at(s, w, h):
        parts[ld] = w.counters[ld].fp
    for it in usable_items(s, w, h, vs_circled):
        parts[it] = effective_fp(w, w.counters[it], vs_circled)
    return sum(parts.values()), parts


def noise_total(s: State, w: World, h: str, quiet: bool) -> tuple[int, dict[str, int]]:
    """12.0-12.2: every counter in the final hex, +1 per leader, the terrain's noise
    (quiet movement: min(terrain, 0), AMBIG-29), damage markers' noise."""
    parts: dict[str, int] = {}
    for c in at(s, h):
        cc = w.counters[c]
        parts[c] = team_value(s, w, c, "noise") if cc.cls == "team" else cc.noise
    terrain = w.hexes[h].noise
    parts["terrain"] = min(terrain, 0) if quiet else terrain
    return sum(parts.values()), parts


def requirement_met(s: State, w: World, mission_id: str, h: str) -> tuple[bool, list[str]]:
    """6.1 with AMBIG-13/15: every group satisfied by an item present in the hex (usable by the
    teams there: a group needs one item and a team carries 6, so presence suffices)."""
    m = w.missions[mission_id]
    kinds = {w.counters[c].kind for c in items_at(s, w, h)}
    label = {c.kind: c.name.rsplit(" ", 1)[0] if c.name[-1].isdigit() else c.name for c in w.counters.values()}
    missing = [" or ".join(label[k] for k in g) for g in m.requires if not any(k in kinds for k in g)]
    return not missing, missing


def net_score(s: State) -> int:
    """5.0 with AMBIG-9: accomplished - abandoned - teams eliminated (- leaders eliminated)."""
    t = s["tally"]
    net = len(t["accomplished"]) - len(t["abandoned"]) - len(t["teams_lost"])
    if s["options"].get("leaders_count", True):
        net -= len(t["leaders_lost"])
    return int(net)


def walk_wrapped(w: World, h: str, direction: int, distance: int) -> str:
    """12.8 (AMBIG-34a): go straight across hexside `direction` (0 = N, clockwise) `distance`
    hexes; beyond a map edge the line comes back in from the opposite edge. Flat-top columns,
    even columns shifted down; the column count is even, so wrapping keeps the column parity."""
    g = w.grid
    col, row = g.parse(h)
    dq, dr = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))[direction % 6]
    for _ in range(distance):
        q = col
        r = row - (col + (col & 1)) // 2 if g.shifted == "even" else row - (col - (col & 1)) // 2
        q, r = q + dq, r + dr
        col = q
        row = r + ((col + (col & 1)) // 2 if g.shifted == "even" else (col - (col & 1)) // 2)
        col = (col - g.first_col) % g.cols + g.first_col
        row = (row - g.first_row) % g.rows + g.first_row
    return g.label(col, row)
