"""Random legal play of the Lock 'n Load demo (the VB fuzzer's pattern): from set-up, seeded dice,
random legal actions for whichever seat is active, until the game ends. Every step checks that
`apply` leaves its input alone, the new state is well formed and plain JSON; probes check that
listed actions apply, mutated unlisted ones are refused, and the seat not asked cannot act."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from ledger.canonical import canonical_bytes
from rules.lock_n_load.game import LockNLoad
from tests.support.fuzzing import assert_seat_cannot_act, assert_unlisted_refused, seeded_dice

MAX_ACTIONS = 6000
WEIGHTS = {"pass": 0.2, "end_impulse": 0.3, "clear": 0.2, "step": 4.0, "fire": 4.0, "opp_fire": 2.0,
           "hold_fire": 1.0, "move": 2.0, "melee": 3.0, "select": 2.0, "activate": 2.0, "spot": 0.3,
           "smoke": 0.2, "place_sniper": 0.05, "stop": 0.5, "order": 0.004,
           "sniper_order": 0.02}


@dataclass
class Stats:
    games: int = 0
    actions: int = 0
    results: dict[str, int] = field(default_factory=dict)
    kinds: dict[str, int] = field(default_factory=dict)
    facts: dict[str, int] = field(default_factory=dict)
    prompts: int = 0
    order_fires: int = 0


def choose(s: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, g: LockNLoad | None = None
           ) -> dict[str, Any]:
    """Weighted random; with the game at hand, steps toward the nearest enemy are favoured (so that
    melees happen)."""
    weights = []
    for a in legal:
        wt = WEIGHTS.get(a["type"], 1.0)
        if a["type"] == "step" and g is not None:
            mv = s["impulse"]["move"]
            side = s["units"][mv["units"][0]]["side"]
            foes = [r["at"] for r in s["units"].values() if r["side"] != side and r["at"]]
            if foes:
                b = g.world.board
                now = min(b.distance(mv["at"], f) for f in foes)
                then = min(b.distance(a["hex"], f) for f in foes)
                wt = 8.0 if then < now else 1.0
        weights.append(wt)
    return rng.choices(legal, weights)[0]


def probe(g: LockNLoad, s: dict[str, Any], seat: str, legal: list[dict[str, Any]], rng: random.Random,
          seed: int) -> None:
    for a in rng.sample(legal, min(4, len(legal))):
        g.apply(s, seat, a, seeded_dice(seed))
    hexes = g.world.board.hexes()
    for a in rng.sample(legal, min(3, len(legal))):
        variants = []
        for key in ("hex", "unit", "target", "mode"):
            if key in a:
                variants.append({**a, key: rng.choice(hexes + sorted(s["units"]) + ["run", "1Z9"])})
        variants.append({**a, "extra": 1})
        assert_unlisted_refused(g, s, seat, variants, legal, seed)
    other = "vc" if seat == "us" else "us"
    assert g.legal_actions(s, other) == []
    assert_seat_cannot_act(g, s, other, legal[0], seed)


def play_one(g: LockNLoad, seed: int, stats: Stats, probe_every: int = 0, validate: Any = None,
             orders: dict[str, str] | None = None) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    """`orders` {side: order}: that side gives the order to every hex that has none, whenever it may."""
    rng = random.Random(seed)
    dice = seeded_dice(seed)
    s = g.setup("demo", {}, dice)
    g.check_state(s)
    played: list[tuple[str, dict[str, Any]]] = []
    n = 0
    seen: set[str] = set()
    while g.outcome(s) is None:
        seats = g.active_seats(s)
        assert len(seats) == 1, f"seed {seed}: active {seats}"
        seat = seats[0]
        legal = g.legal_actions(s, seat)
        assert legal, f"seed {seed}: dead end in {s['phase']}"
        if validate is not None:
            for a in legal:
                key = json.dumps(a, sort_keys=True)
                if key not in seen:
                    validate(a)
                    seen.add(key)
        if probe_every and n % probe_every == 0:
            probe(g, s, seat, legal, rng, seed)
        a = choose(s, legal, rng, g)
        if orders and seat in orders:
            a = next((o for o in legal if o["type"] == "order" and o["order"] == orders[seat]
                      and o["hex"] not in s["orders"][seat]), a)
        before = canonical_bytes(s)
        out = g.apply(s, seat, a, dice)
        assert canonical_bytes(s) == before, "apply changed its input"
        canonical_bytes(out.state)
        g.check_state(out.state)
        for f in out.facts:
            canonical_bytes(f.to_json())
            stats.facts[f.kind] = stats.facts.get(f.kind, 0) + 1
        stats.kinds[a["type"]] = stats.kinds.get(a["type"], 0) + 1
        played.append((seat, a))
        s = out.state
        n += 1
        assert n <= MAX_ACTIONS, f"seed {seed}: no end after {MAX_ACTIONS} actions"
    o = g.outcome(s)
    assert o is not None and g.active_seats(s) == [] and g.legal_actions(s, "us") == []
    stats.games += 1
    stats.actions += n
    stats.prompts += s["stats"]["opp_fire_prompts"]
    stats.order_fires += s["stats"]["order_fires"]
    stats.results[o.result] = stats.results.get(o.result, 0) + 1
    return s, played
