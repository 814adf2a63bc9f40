"""Random legal play for Assault on Belgium (STYLE: Rally the Troops' fuzzer).

Each game starts from set-up (standard set-up where the OOB gives one), picks random legal
actions — German moves mildly biased toward Brussels and Antwerp so that battles happen —
and rolls dice from a seeded deterministic die function, until the game ends.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from ledger.canonical import canonical_bytes
from rules.assault_on_belgium.game import AssaultOnBelgium
from rules.assault_on_belgium.schema import ACTIONS as TYPES
from tests.support.fuzzing import assert_seat_cannot_act, assert_unlisted_refused, seeded_dice
from validators.actions import validate_action

MAX_ACTIONS = 3000


@dataclass
class Stats:
    games: int = 0
    actions: int = 0
    winners: dict[str, int] = field(default_factory=lambda: {"germany": 0, "belgium": 0})
    battles: int = 0
    pursuits: int = 0
    kinds: dict[str, int] = field(default_factory=dict)


def _weight(g: AssaultOnBelgium, s: dict[str, Any], a: dict[str, Any], rng: random.Random, n: int) -> float:
    t = a["type"]
    if t in ("standard_setup", "done_setup"):
        return 100.0
    if t in ("place", "unplace"):
        return 0.2
    if t == "move" and s["phase"] == "german_land_move":
        w = g.world
        sel = s["selected"]
        here = s["units"][sel]["hex"]
        goals = list(w.objectives.values())
        closer = min(w.distance(a["hex"], x) for x in goals) < min(w.distance(here, x) for x in goals)
        return (30.0 if a.get("tank_battle") else 20.0) if closer else 1.0
    if t == "end_movement":
        return 0.05 if n < 400 else 50.0
    if t == "end_unit_move" and s["phase"] == "german_land_move":
        return 0.3
    if t == "select" and s["phase"] == "german_land_move":
        return 1.0
    if t in ("end_reaction", "end_air"):
        return 2.0
    if t == "pursuit_toggle":
        return 0.5
    if t == "withdraw":
        return 0.3
    return 3.0


def probe(g: AssaultOnBelgium, s: dict[str, Any], seat: str, legal: list[dict[str, Any]], rng: random.Random,
          seed: int) -> None:
    """Every listed action applies; mutated actions not listed are refused with IllegalAction."""
    for a in legal:
        g.apply(s, seat, a, seeded_dice(seed))
    hexes = sorted(g.world.hexes)
    units = sorted(g.world.units)
    for a in rng.sample(legal, min(4, len(legal))):
        variants = []
        if "hex" in a:
            variants.append({**a, "hex": rng.choice(hexes)})
        if "unit" in a:
            variants.append({**a, "unit": rng.choice(units)})
        if "battle" in a:
            variants.append({**a, "battle": rng.randint(0, 9)})
        variants.append({**a, "type": rng.choice(sorted(TYPES))})
        assert_unlisted_refused(g, s, seat, variants, legal, seed)
    assert_seat_cannot_act(g, s, "belgium" if seat == "germany" else "germany", legal[0], seed)


def play_one(g: AssaultOnBelgium, seed: int, stats: Stats, options: dict[str, bool] | None = None,
             check_every: int = 1, probe_every: int = 0) -> dict[str, Any]:
    rng = random.Random(seed)
    dice = seeded_dice(seed)
    s = g.setup("may-1940", options or {}, dice)
    n = 0
    validated: set[str] = set()
    while g.outcome(s) is None:
        seats = g.active_seats(s)
        assert len(seats) == 1, f"seed {seed}: active seats {seats} in {s['phase']}"
        legal = g.legal_actions(s, seats[0])
        assert legal, f"seed {seed}: dead end in {s['phase']} {s.get('combat')}"
        for a in legal:
            key = json.dumps(a, sort_keys=True)
            if key not in validated:
                validate_action(g.name, a)
                validated.add(key)
        if probe_every and n % probe_every == 0:
            probe(g, s, seats[0], legal, rng, seed)
        a = rng.choices(legal, [_weight(g, s, x, rng, n) for x in legal])[0]
        before = canonical_bytes(s) if n % check_every == 0 else None
        out = g.apply(s, seats[0], a, dice)
        if before is not None:
            assert canonical_bytes(s) == before, "apply changed its input state"
            canonical_bytes(out.state)  # JSON, no floats
            g.check_state(out.state)
            for f in out.facts:
                canonical_bytes(f.to_json())
        stats.kinds[a["type"]] = stats.kinds.get(a["type"], 0) + 1
        s = out.state
        n += 1
        assert n <= MAX_ACTIONS, f"seed {seed}: no end after {MAX_ACTIONS} actions"
    o = g.outcome(s)
    assert o is not None and g.active_seats(s) == []
    stats.games += 1
    stats.actions += n
    stats.winners[o.winner or "none"] = stats.winners.get(o.winner or "none", 0) + 1
    stats.battles += len(s["battles"])
    stats.pursuits += sum(1 for b in s["battles"] if b["parent"] is not None)
    return s
