"""Balance of the authored UP FRONT-structured core with "In the Mountains" (prints figures;
not a test, nothing asserts).

    python bench/up_front_balance.py                   # 20 games of every playable scenario
    python bench/up_front_balance.py --games 50 --scenarios A,C

Both seats follow the same scripted strategy ("sensible"): fire the strongest Fire card at the
weakest-covered enemy group when the attack is strong enough, complete moves into cover, advance
towards the objective range, climb when the enemy holds the heights, rally pinned men, entrench
in cover, always play Concealment, accept terrain that gives cover, discard what it cannot use.
Dice come from a seeded generator (the server's are derived from the committed seed).
Prints, per scenario: wins of each seat, draws, mean victory points, mean length in actions.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.core.dice import RecordingDice  # noqa: E402
from rules.up_front import fire, turn  # noqa: E402
from rules.up_front.data import world  # noqa: E402
from rules.up_front.game import UpFrontMountains  # noqa: E402
from rules.up_front.geometry import level_of  # noqa: E402
from rules.up_front.table import other, present  # noqa: E402

G = UpFrontMountains()
W = world()


def dice(seed: int) -> RecordingDice:
    rng = random.Random(seed)
    return RecordingDice(lambda index, faces: rng.randint(1, faces))


def score(s: dict[str, Any], seat: str, a: dict[str, Any]) -> float:
    """Higher is better; end_turn is 0."""
    t = a["type"]
    if t in ("conceal", "mine_altitude"):
        return 10
    if t == "accept":
        return 5 if W.terrain[W.cards[s["reaction"]["resume"]["card"]]["terrain"]]["cover"] < 0 else -1
    if t == "reject":
        return 2
    if t == "decline":
        return 0
    if t == "fire":
        fs, _ = fire.strength(s, W, seat, a["group"], other(s, seat), a["target"], a["card"])
        return fs - 2
    if t == "complete":
        cover = 0 if a["as_open"] else -W.terrain[W.cards[a["card"]]["terrain"]]["cover"]
        return 3 + cover
    if t == "altitude":
        return 6
    if t == "move":
        g = s["groups"][seat][a["group"]]
        want = s["objective"]["range"] if s["objective"]["seat"] in (None, seat) else 1
        return {"forward": 2.5 if g["range"] < want else -1, "backward": -2, "sideways": 0.5}[a["mode"]]
    if t == "alt_step":
        g = s["groups"][seat][a["group"]]
        high = max(level_of(W, x) for x in s["groups"][other(s, seat)].values())
        return 2 if level_of(W, g) < high else -1
    if t == "rally":
        return 4
    if t == "entrench":
        g = s["groups"][seat][a["group"]]
        return 1.5 if not g["moves"] and present(s, g) else -1
    if t == "remove":
        return 4
    if t == "discard_onto":
        return 3
    if t == "infiltrate":
        return 1
    if t == "discard":
        return 0.2 - len(a["cards"]) * 0.1 if not s["acted"] else -1
    if t == "ready":
        return 0
    if t == "place":
        return 1 + (0.5 if a["side"] == seat else -3)
    return -5  # standing, transfer, draw_altitude


def play(scenario: str, seed: int) -> tuple[dict[str, Any], int]:
    s = G.setup(scenario, {"terrain_type": "bare", "condition": "dry", "mountain_troops": True}, dice(seed))
    rng = random.Random(seed)
    n = 0
    while not G.outcome(s) and n < 5000:
        (seat,) = G.active_seats(s)
        acts = G.legal_actions(s, seat)
        best = max(acts, key=lambda a: (score(s, seat, a) if a["type"] != "end_turn" else 0.1, rng.random()))
        s = G.apply(s, seat, best, dice(seed * 100_003 + n)).state
        n += 1
    return s, n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--scenarios", default=",".join(sorted(W.scenarios)))
    args = ap.parse_args()
    print(f"{'scen':4} {'seats':22} {'wins':>9} {'draws':>5} {'all lose':>8} {'VP':>11} {'actions':>7} {'s/game':>6}")
    for sc in args.scenarios.split(","):
        a, b = W.scenarios[sc]["roles"]
        wins: Counter[str] = Counter()
        vps = {a: 0, b: 0}
        acts = 0
        t0 = time.perf_counter()
        for seed in range(args.games):
            s, n = play(sc, seed)
            o = G.outcome(s)
            acts += n
            wins[o.winner if o else "unfinished"] += 1
            if o and o.result == "all lose":
                wins["all lose"] += 1
            for seat in (a, b):
                vps[seat] += turn.score(s, W, seat)[0]
        g = args.games
        print(f"{sc:4} {a + '/' + b:22} {wins[a]:>4}/{wins[b]:<4} {wins[None]:>5} {wins['all lose']:>8} "
              f"{vps[a] / g:>5.1f}/{vps[b] / g:<5.1f} {acts / g:>7.0f} {(time.perf_counter() - t0) / g:>6.1f}")


if __name__ == "__main__":
    main()
