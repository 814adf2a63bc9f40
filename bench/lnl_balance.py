#!/usr/bin/env python3
"""Balance and prompts of the Lock 'n Load demo scenario under a scripted strategy.

    python bench/lnl_balance.py [--games 40] [--orders]

Both seats play a simple greedy script (rally everything; fire at the first target the rules allow;
the US advances toward the nearest objective it does not hold, the VC stays put; opportunity fire
always; spot when nothing can be fired at). With --orders the non-moving seat gives every hex the
standing order "fire" instead of answering prompts. Prints win rates, actions and opportunity-fire
prompts per game. Seeded: the same figures every run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.core.dice import RecordingDice  # noqa: E402
from rules.lock_n_load.game import LockNLoad  # noqa: E402


def policy(g: LockNLoad, s: dict[str, Any], seat: str, legal: list[dict[str, Any]], rng: random.Random,
           orders: bool) -> dict[str, Any]:
    by: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by.setdefault(a["type"], []).append(a)
    if orders:
        for a in by.get("order", []):
            if a["order"] == "fire" and a["hex"] not in s["orders"][seat]:
                return a
    if "melee_targets" in by:
        return by["melee_targets"][-1]  # all the enemy units
    for t in ("drop_sw", "opp_fire", "rally", "medic", "pickup", "fire", "melee"):
        if t in by:
            return by[t][0]
    if "hold_fire" in by:
        return by["hold_fire"][0]
    if "end_rally" in by:
        return by["end_rally"][0]
    imp = s["impulse"]
    w = g.world
    objectives = s["objectives"]
    if imp is None:
        if seat == "us" and "spot" in by and rng.random() < 0.4:
            return rng.choice(by["spot"])
        acts = by.get("activate", [])
        if not acts:
            return by["pass"][0]
        if seat == "vc":
            return rng.choice(acts)
        return min(acts, key=lambda a: (min(w.board.distance(a["hex"], o) for o in objectives), rng.random()))
    if imp["move"] is not None:
        steps = by.get("step", [])
        at = imp["move"]["at"]
        if at in objectives or not steps:
            return by["stop"][0]
        return min(steps, key=lambda a: (min(w.board.distance(a["hex"], o) for o in objectives), a["hex"]))
    if "select" in by and not imp["group"]:
        return by["select"][0]
    if imp["group"]:
        if "select" in by:
            return by["select"][0]
        if seat == "us":
            at = s["units"][imp["group"][0]]["at"]
            moves = {a["mode"]: a for a in by.get("move", [])}
            if at not in objectives and moves:
                return moves.get("double") or moves.get("normal") or next(iter(moves.values()))
        return by["end_impulse"][0]
    return by["end_impulse"][0]


def play(g: LockNLoad, seed: int, orders: bool) -> tuple[str, int, int, int]:
    rng = random.Random(seed)
    drng = random.Random(seed * 7919 + 17)
    dice = RecordingDice(lambda i, f: drng.randint(1, f))
    s = g.setup("demo", {}, dice)
    n = 0
    while g.outcome(s) is None:
        (seat,) = g.active_seats(s)
        a = policy(g, s, seat, g.legal_actions(s, seat), rng, orders)
        s = g.apply(s, seat, a, dice).state
        n += 1
    o = g.outcome(s)
    assert o is not None
    return str(o.winner), n, s["stats"]["opp_fire_prompts"], s["stats"]["order_fires"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--orders", action="store_true")
    args = ap.parse_args()
    g = LockNLoad()
    t0 = time.perf_counter()
    wins = {"us": 0, "vc": 0}
    acts = prompts = fires = 0
    for seed in range(args.games):
        winner, n, p, f = play(g, seed, args.orders)
        wins[winner] += 1
        acts, prompts, fires = acts + n, prompts + p, fires + f
    dt = time.perf_counter() - t0
    k = args.games
    print(f"demo 'Hamlet 1K4', scripted play, {k} games{' with standing orders' if args.orders else ''}:")
    print(f"  US wins {wins['us']} ({100 * wins['us'] // k}%), VC wins {wins['vc']} ({100 * wins['vc'] // k}%)")
    print(f"  per game: {acts / k:.0f} actions, {prompts / k:.1f} opportunity-fire prompts, "
          f"{fires / k:.1f} fires by standing order; {dt / k:.2f} s per game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
