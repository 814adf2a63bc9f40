"""Record the FIDE Dutch system's pairings of random Swiss tournaments as test data.

The expected pairings come from bbpPairings, the FIDE-endorsed Dutch engine (Apache-2.0), which
a contributor builds from its source on their own machine (`make` in its checkout); nothing of it
is kept in this repository, only the pairings it made. Its random-tournament generator plays
each tournament round by round, pairing every round itself, with draws, forfeits and players who
retire; this script turns each into a JSON vector that `tests/tournaments/test_fide_dutch.py`
replays through Warlog's pairing, round by round:

    python tools/fide_dutch_vectors.py --bbp ~/bbpPairings/bbpPairings.exe \\
        --out tests/fixtures/pairings/fide-dutch.json --count 120 --min 8 --max 48
    python tools/fide_dutch_vectors.py --bbp ~/bbpPairings/bbpPairings.exe --seed 7 \\
        --out tests/fixtures/pairings/fide-dutch-large.json --sizes 64,64,97,128,128,193,255,256,256
    python tools/fide_dutch_vectors.py --bbp ~/bbpPairings/bbpPairings.exe --seed 3 --accelerated \\
        --out tests/fixtures/pairings/fide-dutch-accelerated.json --sizes 12,21,40,64,101

A vector: `players` (pairing numbers 1..n, the initial ranking), `initial_colour` (the top
player's side in round 1), and per round `games` ([white, black, the two players' results: 1, 0, = for a
played game, + a forfeit win, - a forfeit loss; "10", "==", "+-", "--" …]), `pab` (the pairing-allocated bye) and `absent` (not paired:
retired or a zero-point bye).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

ROUND_COLUMNS = 91  # TRF: each round's 10 columns start here (0-based)
CELL = re.compile(r"\s*(\d{1,4}) ([wb-]) (\S)")  # opponent (0000: none), side, result


def parse_trf(text: str) -> dict[str, Any]:
    players: dict[int, list[tuple[int, str, str]]] = {}
    for line in text.replace("\r", "\n").splitlines():
        if not line.startswith("001"):
            continue
        number = int(line[4:8])
        cells = []
        for start in range(ROUND_COLUMNS, len(line), 10):
            cell = line[start:start + 10]
            if len(cell.strip()) == 0:
                break
            found = CELL.match(cell)
            if found is None:
                raise RuntimeError(f"player {number}: cannot read round cell {cell!r}")
            cells.append((int(found[1]), found[2], found[3]))
        players[number] = cells
    rounds = max(len(c) for c in players.values())
    out: list[dict[str, Any]] = []
    first = players[1][0][1] if players[1][0][1] in "wb" else "w"
    for r in range(rounds):
        games, pab, absent = [], [], []
        for number, cells in sorted(players.items()):
            opp, colour, result = cells[r] if r < len(cells) else (0, "-", "-")
            if opp == 0:
                (pab if result == "U" else absent).append(number)
            elif colour == "w":
                games.append([number, opp, result + players[opp][r][2]])
        out.append({"games": games, "pab": pab, "absent": absent})
    return {"players": len(players), "initial_colour": "white" if first == "w" else "black", "rounds": out}


def generate(bbp: str, players: int, rounds: int, seed: int, rng: random.Random) -> dict[str, Any]:
    config = "\n".join([f"PlayersNumber={players}", f"RoundsNumber={rounds}",
                        f"DrawPercentage={rng.choice([0, 15, 30, 45])}",
                        f"ForfeitRate={rng.choice([12, 25, 60, 1000000])}",
                        f"RetiredRate={rng.choice([6, 12, 1000000])}", "HalfPointByeRate=1000000", ""])
    with tempfile.TemporaryDirectory() as tmp:
        cfg, trf = Path(tmp, "config.txt"), Path(tmp, "t.trf")
        cfg.write_text(config)
        done = subprocess.run([bbp, "--dutch", "-g", str(cfg), "-o", str(trf), "-s", str(seed)],
                              capture_output=True, text=True)
        if done.returncode != 0 or not trf.exists():
            raise RuntimeError(f"bbpPairings failed ({done.returncode}): {done.stderr.strip()}")
        vector = parse_trf(trf.read_text())
    vector["seed"] = seed
    return vector


def baku(players: int, rounds: int, number: int) -> float:
    """Group A's virtual points before round `number` (C.04.5.1), written out here from the rule
    on its own (Warlog's is warlog.tournaments.pairing.baku_points)."""
    accelerated_rounds = (rounds + 1) // 2
    if number > accelerated_rounds:
        return 0.0
    return 1.0 if number <= (accelerated_rounds + 1) // 2 else 0.5


def write_trf(players: int, rounds: int, cells: dict[int, list[tuple[int, str, str]]], initial: str) -> str:
    """A TRF(x) of the rounds played so far, with Baku's virtual points as XXA lines."""
    value = {"1": 1.0, "=": 0.5, "0": 0.0, "U": 1.0, "+": 1.0, "-": 0.0}
    group_a = 2 * -(-players // 4)
    lines = ["012 Accelerated", f"XXR {rounds}", f"XXC {initial}1"]
    for number in range(1, players + 1):
        line = [" "] * (91 + 10 * len(cells[number]))
        fields = [(0, "001"), (4, f"{number:>4}"), (14, f"Test{number:04d}".ljust(33)), (48, f"{2600 - number:>4}"),
                  (80, f"{sum(value[c[2]] for c in cells[number]):>4.1f}"), (85, f"{number:>4}")]
        fields += [(91 + 10 * r, f"{opp:04d} {side} {res}" if opp == 0 else f"{opp:>4} {side} {res}")
                   for r, (opp, side, res) in enumerate(cells[number])]
        for at, text in fields:
            line[at:at + len(text)] = text
        lines.append("".join(line).rstrip())
    for number in range(1, group_a + 1):
        lines.append(f"XXA {number:>4}" + "".join(f" {baku(players, rounds, r):4.1f}" for r in range(1, rounds + 1)))
    return "\r".join(lines) + "\r"


def generate_accelerated(bbp: str, players: int, rounds: int, rng: random.Random) -> dict[str, Any]:
    """A Swiss with Baku acceleration played round by round, bbpPairings pairing each round from
    a TRF(x) of the rounds before it; results drawn at random (draws, some forfeits)."""
    initial = rng.choice(["white", "black"])
    draws = rng.choice([0.0, 0.2, 0.4])
    cells: dict[int, list[tuple[int, str, str]]] = {n: [] for n in range(1, players + 1)}
    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        trf, pairs = Path(tmp, "in.trf"), Path(tmp, "out.txt")
        for _ in range(rounds):
            trf.write_text(write_trf(players, rounds, cells, initial))
            done = subprocess.run([bbp, "--dutch", str(trf), "-p", str(pairs)], capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"bbpPairings failed ({done.returncode}): {done.stderr.strip()}")
            games, pab = [], []
            for row in pairs.read_text().split("\n")[1:]:
                if not row.strip():
                    continue
                white, black = map(int, row.split())
                if black == 0:
                    pab.append(white)
                    cells[white].append((0, "-", "U"))
                    continue
                x = rng.random()
                result = ("+-" if x < 0.03 else "-+" if x < 0.06 else "==" if x < 0.06 + draws
                          else rng.choice(["10", "01"]))
                cells[white].append((black, "w", result[0]))
                cells[black].append((white, "b", result[1]))
                games.append([white, black, result])
            out.append({"games": games, "pab": pab, "absent": []})
    return {"players": players, "initial_colour": initial, "rounds": out, "accelerated": True}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bbp", required=True, help="the bbpPairings executable")
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--min", type=int, default=8)
    ap.add_argument("--max", type=int, default=48)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sizes", help="comma-separated field sizes, one tournament each (instead of --count/--min/--max)")
    ap.add_argument("--accelerated", action="store_true", help="Baku acceleration (C.04.5.1); needs --sizes")
    args = ap.parse_args()
    if args.accelerated:
        rng = random.Random(args.seed)
        vectors = [generate_accelerated(args.bbp, int(n), rng.randint(5, 9), rng) for n in args.sizes.split(",")]
        Path(args.out).write_text(json.dumps(vectors, separators=(",", ":")) + "\n")
        print(f"{len(vectors)} accelerated tournaments -> {args.out}")
        return
    rng = random.Random(args.seed)
    sizes = [int(x) for x in args.sizes.split(",")] if args.sizes else []
    count = len(sizes) or args.count
    vectors = []
    while len(vectors) < count:
        n = sizes[len(vectors)] if sizes else rng.randint(args.min, args.max)
        rounds = rng.randint(3, min(9, n - 1 if n % 2 == 0 else n))
        try:
            vectors.append(generate(args.bbp, n, rounds, rng.randrange(1, 10**9), rng))
        except RuntimeError as err:  # no valid pairing for some round: try another tournament
            print(f"skipped a {n}-player tournament: {err}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(vectors, separators=(",", ":")) + "\n")
    print(f"{len(vectors)} tournaments, {sum(len(v['rounds']) for v in vectors)} rounds -> {args.out}")


if __name__ == "__main__":
    main()
