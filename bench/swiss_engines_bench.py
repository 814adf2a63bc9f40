"""The FIDE Dutch system at 256 players: which engine could pair a round within 2 s?
Prints figures; nothing asserts.

    python bench/swiss_engines_bench.py                 # 256 players, 3 rounds
    python bench/swiss_engines_bench.py --players 64 --rounds 7

For each engine, a simulated Swiss (seeded results: 40% first seat wins, 40% second, 20% draws)
is paired round after round and the time of each round printed:

* caissify-pairings `casual` (what Warlog uses beyond 48 entrants) and `dutch` (up to 48; at 256
  only with --caissify-dutch: minutes a round). Its Dutch engine re-runs networkx's pure-Python
  maximum-weight matching (Edmonds' blossom, cubic in the field) over the whole field once per
  bracket step: profiled at 64 players, 38 matchings a round and 94% of the time in networkx.
* py4swiss (MIT), whose Dutch engine uses bbpPairings' C++ matching; its edge weights are
  still computed in Python, O(n^2) per bracket.

What Warlog pairs with now (feed 3: caissify's engine on py4swiss' matching computer) is timed
by bench/dutch_speed.py.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournament_bench import pure_pairing  # noqa: E402  (beside this script)


def py4swiss_rounds(players: int, rounds: int) -> list[float]:
    from py4swiss.engines import DutchEngine
    from py4swiss.trf import ParsedTrf
    from py4swiss.trf.codes import PlayerCode
    from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
    from py4swiss.trf.sections import PlayerSection, XSection

    rng = random.Random(1)
    results: dict[int, list[RoundResult]] = {i: [] for i in range(1, players + 1)}
    points = {i: 0 for i in range(1, players + 1)}
    tenths = {ResultToken.WIN: 10, ResultToken.DRAW: 5, ResultToken.LOSS: 0}
    times = []
    for _ in range(rounds):
        trf = ParsedTrf(x_section=XSection(number_of_rounds=rounds), player_sections=[
            PlayerSection(code=PlayerCode.PLAYER, starting_number=i, name=f"P{i}", fide_rating=2000 - i,
                          points_times_ten=points[i], rank=i, results=list(results[i]))
            for i in range(1, players + 1)])
        t0 = time.perf_counter()
        pairings = DutchEngine.generate_pairings(trf)
        times.append(time.perf_counter() - t0)
        for p in pairings:
            if p.black == 0:
                results[p.white].append(RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED,
                                                    result=ResultToken.PAIRING_ALLOCATED_BYE))
                points[p.white] += 10
                continue
            x = rng.random()
            rw, rb = ((ResultToken.WIN, ResultToken.LOSS) if x < 0.4 else (ResultToken.LOSS, ResultToken.WIN)
                      if x < 0.8 else (ResultToken.DRAW, ResultToken.DRAW))
            results[p.white].append(RoundResult(id=p.black, color=ColorToken.WHITE, result=rw))
            results[p.black].append(RoundResult(id=p.white, color=ColorToken.BLACK, result=rb))
            points[p.white] += tenths[rw]
            points[p.black] += tenths[rb]
    return times


def show(label: str, times: list[float]) -> None:
    print(f"{label}: per round " + ", ".join(f"{t:.2f}" for t in times)
          + f" s (max {max(times):.2f}, mean {statistics.mean(times):.2f})", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--caissify-dutch", action="store_true", help="also caissify's Dutch at this size (slow)")
    args = ap.parse_args()
    show(f"caissify-pairings casual, {args.players} players", pure_pairing(args.players, args.rounds, "casual"))
    if args.caissify_dutch or args.players <= 64:
        show(f"caissify-pairings dutch, {args.players} players", pure_pairing(args.players, args.rounds, "dutch"))
    try:
        show(f"py4swiss dutch, {args.players} players", py4swiss_rounds(args.players, args.rounds))
    except ImportError:
        print("py4swiss is not installed: .venv/bin/pip install -e .")


if __name__ == "__main__":
    main()
