"""Swiss tournaments paired by the FIDE-endorsed Dutch engine (bbpPairings), recorded by
`tools/fide_dutch_vectors.py` in tests/fixtures/pairings/, replayed through Warlog's pairing.

A vector's round N is rebuilt as the `Tournament` Warlog would hold before pairing it: every
player an entrant from the start in pairing-number order (the round-1 starting order), the
recorded rounds 1..N-1 with their games, results (played, or forfeit: "+-", "-+", "--") and
pairing-allocated byes, and the players the engine left out of round N (retired, or a zero-point
bye) withdrawn for it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from warlog.tournaments.model import DEFAULT_POINTS, Entrant, Pairing, Result, Round, Tournament
from warlog.tournaments.pairing import PairingDice, pair_next

VECTORS = Path(__file__).resolve().parents[1] / "fixtures" / "pairings" / "fide-dutch.json"
LARGE = VECTORS.with_name("fide-dutch-large.json")  # 64–256 players
ROLES = ["white", "black"]
POINTS = {"1": 2, "0": 0, "=": 1, "+": 2, "-": 0}  # Warlog's default points: a win 2, a draw 1


ACCELERATED = VECTORS.with_name("fide-dutch-accelerated.json")  # Baku acceleration (C.04.5.1)


def load(path: Path = VECTORS) -> list[dict[str, Any]]:
    vectors: list[dict[str, Any]] = json.loads(path.read_text())
    return vectors


def pid(number: int) -> str:
    return f"p{number:03d}"


def before_round(vector: dict[str, Any], number: int, feed: int = 3) -> Tournament:
    fmt = {"kind": "swiss", "rounds": len(vector["rounds"]), "engine": "dutch", "feed": feed,
           **({"accelerated": True} if vector.get("accelerated") else {})}
    t = Tournament("t" + "0" * 16, "FIDE Dutch vector", "game", "scenario", {}, list(ROLES), fmt,
                   dict(DEFAULT_POINTS), "director", "", "")
    for n in range(1, vector["players"] + 1):
        t.entrants[pid(n)] = Entrant(pid(n), pid(n), n)
    if number == 1:  # round 1 is paired from the entrants: by rating, in pairing-number order
        fmt["seeding"] = "rating"
    for r in range(1, number):
        played = vector["rounds"][r - 1]
        pairings = []
        for i, (white, black, result) in enumerate(played["games"]):
            game_id = f"g{r}-{i + 1}"
            pairings.append(Pairing(i + 1, {"white": pid(white), "black": pid(black)}, game_id))
            pw, pb = POINTS[result[0]], POINTS[result[1]]
            winner = pid(white) if pw > pb else pid(black) if pb > pw else None
            t.results[game_id] = Result(r, game_id, {pid(white): pw, pid(black): pb}, winner,
                                        "forfeit" if result[0] in "+-" else "played", 0)
            t.round_of[game_id] = r
        extra = ({"order": [pid(n) for n in range(1, vector["players"] + 1)], "first_side": vector["initial_colour"]}
                 if r == 1 else {})
        t.rounds[r] = Round(r, 0, pairings, [pid(n) for n in played["pab"]], [], extra)
    for n in vector["rounds"][number - 1]["absent"]:
        t.entrants[pid(n)].withdrawn = True
    return t


def expected(vector: dict[str, Any], number: int) -> tuple[list[tuple[str, str]], list[str]]:
    """The recorded round `number`: its (white, black) tables, sorted, and its bye."""
    played = vector["rounds"][number - 1]
    return sorted((pid(w), pid(b)) for w, b, _ in played["games"]), [pid(n) for n in played["pab"]]


def first_round_dice(vector: dict[str, Any]) -> list[dict[str, Any]]:
    """Round 1's dice as if recorded: the starting order's shuffle (any: the ratings decide the
    order) and the top table's side die giving the vector's initial colour."""
    shuffle = [{"index": i, "faces": faces, "value": 1}
               for i, faces in enumerate(range(vector["players"], 1, -1))]
    side = 1 if vector["initial_colour"] == "white" else 2
    return [*shuffle, {"index": len(shuffle), "faces": 2, "value": side}]


def paired(vector: dict[str, Any], number: int, feed: int = 3) -> tuple[list[tuple[str, str]], list[str]]:
    """Warlog's pairing of round `number` from the rounds before it (round 1: from the entrants,
    seeded by rating in pairing-number order)."""
    t = before_round(vector, number, feed)
    if number == 1:
        ratings = {pid(n): 10_000 - n for n in range(1, vector["players"] + 1)}
        dice = PairingDice(None, t.id, 1, first_round_dice(vector))
        proposal = pair_next(t, dice, ratings)
    else:
        proposal = pair_next(t, PairingDice(b"\0" * 32, t.id, 1))
    return sorted((p.seats["white"], p.seats["black"]) for p in proposal.pairings), proposal.byes
