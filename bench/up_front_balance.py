"""Balance of the authored UP FRONT-structured core with "In the Mountains" (prints figures;
not a test, nothing asserts).

    python bench/up_front_balance.py                   # 20 games of every playable scenario
    python bench/up_front_balance.py --games 50 --scenarios A,C
    python bench/up_front_balance.py --rules 1 --strategy naive   # the first figures (untuned data)
    python bench/up_front_balance.py --games 100 --scenarios K,N,S   # rules v4's new scenarios
    python bench/up_front_balance.py --games 100 --scenarios E,H,T,U   # rules v4's AFVs and guns

Both seats follow the same scripted strategy, one action at a time, the best-scored legal one:
"sensible" (the default) fires when the attack's expected victory points (CORE 6.3 against the
random numbers 0-6) are worth a card, completes moves into cover, advances to the objective range
and stays there in cover, fires ordnance by its expected effect (VEH 3-5), climbs only when the enemy holds the heights and the group is not
moving, rallies pinned men, entrenches, plays Concealment against strong attacks or on small
groups, accepts terrain that gives cover and discards dead cards (Fire 1, unneeded Rally, Wire,
coverless terrain). "naive" is the first strategy (fires at strength 3+, always climbs, always
conceals); `--strategy sensible-vs-naive` pits them (first seat's strategy first).
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

from rules.core import reactions  # noqa: E402
from rules.core.dice import RecordingDice  # noqa: E402
from rules.core.game import IllegalAction  # noqa: E402
from rules.core.plaincopy import clone  # noqa: E402
from rules.up_front import fire, turn, vehicles  # noqa: E402
from rules.up_front.data import world  # noqa: E402
from rules.up_front.game import UpFrontMountains, UpFrontMountainsV1, UpFrontMountainsV2, UpFrontMountainsV3  # noqa: E402
from rules.up_front.geometry import level_of  # noqa: E402
from rules.up_front.table import in_cover, other, present, terrain_key  # noqa: E402

G = UpFrontMountains()
W = world()  # the card, terrain and table data the strategy reads (the same in every rules version)


def dice(seed: int) -> RecordingDice:
    rng = random.Random(seed)
    return RecordingDice(lambda index, faces: rng.randint(1, faces))


def _p(lo: int, hi: int) -> float:
    """The chance that a card's random number (0-6, about evenly spread) lies in lo..hi."""
    return max(0, min(hi, 6) - max(lo, 0) + 1) / 7


def expected_fire(s: dict[str, Any], seat: str, a: dict[str, Any]) -> float:
    """Expected victory points of a Fire action (CORE 6.3: KIA at margin >= 6, pin at >= 3, a
    pinned man pinned again routs; one man checked per 5 strength), before any Concealment."""
    foe = other(s, seat)
    fs, _ = fire.strength(s, W, seat, a["group"], foe, a["target"], a["card"])
    t = s["groups"][foe][a["target"]]
    men = present(s, t)
    if not men:
        return 0.0
    pinned = sum(1 for m in men if s["men"][m]["status"] == "pinned") / len(men)
    checks = min(len(men), max(1, fs // 5))
    kia, pin = _p(0, fs - 6), _p(fs - 5, fs - 3)
    return checks * (2 * kia + pin * (pinned * 1 + (1 - pinned) * 0.6))


def expected_ordnance(s: dict[str, Any], seat: str, a: dict[str, Any]) -> float:
    """Expected victory points of an ordnance shot (VEH 3-5), roughly: the chance to hit (random
    numbers 0-6 plus the card against the To Hit number) times the effect of an average hit."""
    vehicles.check_ordnance(s, W, seat, a)
    foe = other(s, seat)
    number, _ = vehicles.to_hit(s, W, seat, a["group"], a["target"])
    need = number - int(W.cards[a["card"]]["value"])
    p_hit = _p(need, 6)
    t = s["groups"][foe][a["target"]]
    g = s["groups"][seat][a["group"]]
    v = vehicles.vehicle_of(s, W, g)
    tv = vehicles.vehicle_of(s, W, t)
    rr = fire.range_between(s, W, seat, a["group"], foe, a["target"])
    assert v is not None
    if tv is not None and tv["kind"] == "afv":
        side = "flank" if level_of(W, g) >= 2 or g.get("flank") else "front"
        net = int(v["ap"][rr]) + 1 - int(tv["armour"][side])
        return p_hit * (2.0 if net >= 2 else 0.8 if net >= 0 else 0.3)
    men = present(s, t)
    fs = int(v["he"][rr]) + 1 + int(W.terrain[terrain_key(W, t)]["cover"])
    checks = min(len(men), max(1, fs // 5))
    return p_hit * checks * (2 * _p(0, fs - 6) + 0.6 * _p(fs - 5, fs - 3))


def score(s: dict[str, Any], seat: str, a: dict[str, Any], naive: bool) -> float:
    """Higher is better; end_turn is 0.1. `naive`: the first strategy (fires at strength 3+, always
    climbs towards the enemy's level); else the second (fires by expected effect, keeps good
    cards, discards dead ones, stays in cover at the objective range)."""
    t = a["type"]
    if t in ("conceal", "mine_altitude"):
        if naive or t == "mine_altitude":
            return 10
        ctx = s["reaction"]["context"]
        return 10 if ctx["strength"] >= 5 or ctx["men"] <= 2 else -0.5  # save Concealment for strong attacks
    if t == "accept":
        return 5 if W.terrain[W.cards[s["reaction"]["resume"]["card"]]["terrain"]]["cover"] < 0 else -1
    if t == "reject":
        return 2
    if t == "decline":
        return 0
    if t == "fire":
        if naive:
            fs, _ = fire.strength(s, W, seat, a["group"], other(s, seat), a["target"], a["card"])
            return fs - 2
        e = expected_fire(s, seat, a)
        return 2 + 8 * e if e >= 0.25 else -1
    if t == "ordnance":
        return 2 + 8 * expected_ordnance(s, seat, a)
    g = s["groups"][seat].get(a.get("group", ""), {})
    want = s["objective"]["range"] if s["objective"]["seat"] in (None, seat) else 1
    if t == "complete":
        cover = 0 if a["as_open"] else -W.terrain[W.cards[a["card"]]["terrain"]]["cover"]
        return 3 + cover
    if t == "altitude":
        return 6
    if t == "move":
        if naive:
            return {"forward": 2.5 if g["range"] < want else -1, "backward": -2, "sideways": 0.5}[a["mode"]]
        settled = in_cover(W, g) and g["range"] >= want
        return {"forward": 2.5 if g["range"] < want and not settled else -1, "backward": -2,
                "sideways": -1}[a["mode"]]
    if t == "alt_step":
        high = max(level_of(W, x) for x in s["groups"][other(s, seat)].values())
        if naive:
            return 2 if level_of(W, g) < high else -1
        return 2 if level_of(W, g) < high and not g["moves"] and g["range"] >= want - 1 else -1
    if t == "rally":
        return 4 if any(s["men"][m]["status"] == "pinned" for m in present(s, g)) or naive else -1
    if t == "entrench":
        return 1.5 if not g["moves"] and present(s, g) else -1
    if t == "remove":
        return 4
    if t == "discard_onto":
        return 3
    if t == "infiltrate":
        return 1
    if t == "discard":
        if s["acted"]:
            return -1
        if naive:
            return 0.2 - len(a["cards"]) * 0.1
        return sum(dead(s, seat, c) for c in a["cards"]) - 0.05 * len(a["cards"])
    if t == "ready":
        return 0
    if t == "place":
        return 1 + (0.5 if a["side"] == seat else -3)
    return -5  # standing, transfer, draw_altitude


def dead(s: dict[str, Any], seat: str, card: str) -> float:
    """How little a card in hand is worth keeping (0.2: a card to discard; -1: keep it)."""
    c = W.cards[card]
    if c["type"] == "fire":
        return 0.2 if int(c["value"]) <= 1 else -1
    if c["type"] == "rally":
        pinned = any(rec["status"] == "pinned" and rec["seat"] == seat for rec in s["men"].values())
        return -1 if pinned else 0.2
    if c["type"] == "terrain":
        cover = W.terrain[c["terrain"]]["cover"]
        return -1 if cover < 0 and W.terrain[c["terrain"]].get("altitude") is None else 0.2
    if c["type"] == "wire":
        return 0.2
    return -1


def play(scenario: str, seed: int, game: Any = None, naive: tuple[bool, bool] = (False, False),
         condition: str = "dry") -> tuple[dict[str, Any], int]:
    """One game; `naive` per seat (first, second) picks the first strategy for that seat."""
    g = game or G
    s = g.setup(scenario, {"terrain_type": terrain_for(scenario), "condition": condition, "mountain_troops": True},
                dice(seed))
    rng = random.Random(seed)
    n = 0
    while not g.outcome(s) and n < 5000:
        (seat,) = g.active_seats(s)
        nv = naive[list(s["roles"]).index(seat)]
        s = g.apply(s, seat, choose(g, s, seat, nv, rng), dice(seed * 100_003 + n)).state
        n += 1
    return s, n


def terrain_for(scenario: str) -> str:
    """Bare mountains, except in the Pacific (N, S: rules version 4), played in Jungle-covered mountains."""
    return "jungle" if W.scenarios[scenario]["theatre"] == "pacific" else "bare"


def choose(g: Any, s: dict[str, Any], seat: str, naive: bool, rng: random.Random) -> dict[str, Any]:
    """The best-scored legal action. In a turn the candidates are scored first and tried for
    legality best-first (a trial apply each), which is what picking the best of
    `legal_actions` gives, without trying every candidate."""
    def value(a: dict[str, Any]) -> float:
        if a["type"] == "end_turn":
            return 0.1
        try:
            return score(s, seat, a, naive)
        except (IllegalAction, KeyError, TypeError):  # a candidate that is not legal: tried last
            return -99
    if reactions.current(s) or s["phase"] != "play":
        return max(g.legal_actions(s, seat), key=lambda a: (value(a), rng.random()))
    cands = g._candidates(s, seat)
    ranked = sorted(((value(a), rng.random(), i) for i, a in enumerate(cands)), reverse=True)
    return next(cands[i] for _, _, i in ranked if g._passes(s, seat, cands[i]))


PLAN_WHEN = [["mine", "==", 0]]  # the conditional turn's condition: none of my groups changed in his turn


def plan_turn(g: Any, s: dict[str, Any], seat: str, rng: random.Random, turns: int = 3) -> dict[str, Any]:
    """The conditional turns (CORE 11.2, rules/up_front/plan.py) the player leaves before ending its
    turn: the turns it would play next with the cards it keeps (none drawn), on the table as it
    leaves it (a trial play: every drawn card shows random number 0, a window it opens declined),
    each played if none of its groups changed in the other side's turn before it."""
    from rules.up_front.game import _TrialDice

    s2 = clone(s)
    out: list[list[dict[str, Any]]] = []
    while len(out) < turns:
        s2["acted"], s2["discarded"] = [], 0
        one: list[dict[str, Any]] = []
        while len(one) < 6:
            a = choose(g, s2, seat, False, rng)
            if a["type"] in ("end_turn", "standing"):
                break
            one.append(a)
            s2 = g._apply(s2, seat, a, _TrialDice(), trial=True).state
            while reactions.current(s2):
                foe = reactions.current(s2)["seat"]
                opts = g.legal_actions(s2, foe)
                s2 = g._apply(s2, foe, next((o for o in opts if o["type"] in ("decline", "accept")), opts[-1]),
                              _TrialDice(), trial=True).state
        if not one:
            break
        out.append(one)
    return {"type": "plan", "turns": out, "when": PLAN_WHEN}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--scenarios", default=",".join(sorted(W.scenarios)))
    ap.add_argument("--rules", choices=("1", "2", "3", "4"), default=G.version, help="rules version (1: untuned data)")
    ap.add_argument("--strategy", choices=("sensible", "naive", "sensible-vs-naive", "naive-vs-sensible"),
                    default="sensible", help="both seats' strategy, or first seat's vs second's")
    ap.add_argument("--condition", default="dry")
    args = ap.parse_args()
    game = {"1": UpFrontMountainsV1(), "2": UpFrontMountainsV2(), "3": UpFrontMountainsV3()}.get(args.rules, G)
    first, _, second = args.strategy.partition("-vs-")
    naive = (first == "naive", (second or first) == "naive")
    print(f"rules v{game.version}, strategy {args.strategy}, Bare mountains (N, S: Jungle-covered), {args.condition}, "
          f"{args.games} games each",
          flush=True)
    print(f"{'scen':4} {'seats':22} {'wins':>9} {'draws':>5} {'all lose':>8} {'VP':>11} {'actions':>7} {'s/game':>6}")
    for sc in args.scenarios.split(","):
        a, b = W.scenarios[sc]["roles"]
        wins: Counter[str | None] = Counter()
        vps = {a: 0, b: 0}
        acts = 0
        t0 = time.perf_counter()
        for seed in range(args.games):
            s, n = play(sc, seed, game, naive, args.condition)
            o = game.outcome(s)
            acts += n
            wins[o.winner if o else "unfinished"] += 1
            if o and o.result == "all lose":
                wins["all lose"] += 1
            for seat in (a, b):
                vps[seat] += turn.score(s, game.world(), seat)[0]
        g = args.games
        print(f"{sc:4} {a + '/' + b:22} {wins[a]:>4}/{wins[b]:<4} {wins[None]:>5} {wins['all lose']:>8} "
              f"{vps[a] / g:>5.1f}/{vps[b] / g:<5.1f} {acts / g:>7.0f} {(time.perf_counter() - t0) / g:>6.1f}",
              flush=True)


if __name__ == "__main__":
    main()
