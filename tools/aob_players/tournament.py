"""Playing games and the balance tournament."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.assault_on_belgium.data import World, load_world
from rules.assault_on_belgium.game import AssaultOnBelgium
from tools.aob_players.base import BELGIUM, GERMANY, State, hash_dice, land, objectives
from tools.aob_players.baselines import NaiveBelgian, NaiveGerman, RandomPlayer, SetupOnlyBelgian
from tools.aob_players.belgian import (
    _BELGIAN_SETUPS,
    CompetentBelgian,
    CordonBelgian,
    DefaultSetupBelgian,
    GroundedBelgian,
    GroundedGerman,
)
from tools.aob_players.estimate import _AIR_OUTCOMES
from tools.aob_players.german import CompetentGerman
from tools.aob_players.planning import _SPLITS
from tools.aob_players.players import _EST, _GEO, Player

# =============================================================================================
# Playing games and the tournament
# =============================================================================================

def clear_caches() -> None:
    """Forget every memoised plan and estimate (they only save time: results do not change)."""
    for cache in (_GEO, _EST, _SPLITS, _BELGIAN_SETUPS, _AIR_OUTCOMES):
        cache.clear()


@dataclass
class Record:
    winner: str
    battles: int
    actions: int
    pursuits: int
    seconds: float
    taken: tuple[bool, bool] = (False, False)  # Brussels, Antwerp conquered


def play_game(g: AssaultOnBelgium, german: Player, belgian: Player, seed: int,
              options: dict[str, Any] | None = None, max_actions: int = 20000,
              trace: Callable[[str], None] | None = None) -> tuple[Record, State]:
    options = dict(options or {})
    dice = hash_dice(seed)
    t0 = time.perf_counter()
    s = g.setup("may-1940", options, dice)
    german.new_game(g, seed, options)
    belgian.new_game(g, seed, options)
    n = 0
    while g.outcome(s) is None:
        seat = g.active_seats(s)[0]
        legal = g.legal_actions(s, seat)
        player = german if seat == GERMANY else belgian
        a = player.choose(s, legal)
        if a not in legal:
            raise AssertionError(f"{type(player).__name__} chose an unlisted action {a} in {s['phase']}")
        applied = g.apply(s, seat, a, dice)
        s = applied.state
        if trace is not None and a["type"] not in ("select", "place"):
            if a["type"] != "move" or s["phase"] != "german_land_move":
                trace(f"  {seat}: {g.describe_action(a)}")
            for f in applied.facts:
                if f.kind not in ("setup", "choose") and not (f.kind == "move" and a["type"] == "move"
                                                              and s["phase"] == "belgian_reaction"):
                    trace(f"    {f.text}")
        n += 1
        if n > max_actions:
            raise AssertionError(f"seed {seed}: no end after {max_actions} actions")
    o = g.outcome(s)
    assert o is not None and o.winner is not None
    w = g.world
    br, an = (bool(land(s, w, GERMANY, o)) and not land(s, w, BELGIUM, o) for o in objectives(w))
    return Record(o.winner, len(s["battles"]), n, sum(1 for b in s["battles"] if b["parent"] is not None),
                  time.perf_counter() - t0, (br, an)), s


@dataclass
class Summary:
    label: str
    games: int
    german_wins: int
    battles: float
    actions: float
    pursuits: float
    seconds: float
    brussels: float = 0.0
    antwerp: float = 0.0

    @property
    def rate(self) -> float:
        return self.german_wins / self.games if self.games else 0.0

    def line(self) -> str:
        return (f"{self.label:<44} {self.rate:6.1%} ({self.german_wins}/{self.games})  Brussels {self.brussels:4.0%} "
                f"Antwerp {self.antwerp:4.0%}  battles {self.battles:5.2f}  actions {self.actions:6.1f}  "
                f"pursuits {self.pursuits:4.2f}  {self.seconds:5.1f}s")


PAIRINGS: dict[str, tuple[Callable[[], Player], Callable[[], Player]]] = {
    "competent German vs competent Belgian": (CompetentGerman, CompetentBelgian),
    "competent German vs default set-up Belgian": (CompetentGerman, DefaultSetupBelgian),
    "naive German vs naive Belgian (API test bot)": (NaiveGerman, NaiveBelgian),
    "naive German vs competent Belgian": (NaiveGerman, CompetentBelgian),
    "competent German vs naive Belgian": (CompetentGerman, NaiveBelgian),
    "random German vs random Belgian": (lambda: RandomPlayer(GERMANY), lambda: RandomPlayer(BELGIUM)),
    "competent German vs competent set-up, naive play": (CompetentGerman, SetupOnlyBelgian),
    "grounded German vs competent Belgian": (GroundedGerman, CompetentBelgian),
    "competent German vs grounded Belgian": (CompetentGerman, GroundedBelgian),
    "competent German vs cordon Belgian": (CompetentGerman, CordonBelgian),
}


def run_pairing(label: str, n: int, options: dict[str, Any] | None = None, world: World | None = None,
                first_seed: int = 0) -> Summary:
    g = AssaultOnBelgium(world or load_world())
    make_g, make_b = PAIRINGS[label]
    german, belgian = make_g(), make_b()
    wins = battles = actions = pursuits = br = an = 0
    t0 = time.perf_counter()
    for seed in range(first_seed, first_seed + n):
        rec, _ = play_game(g, german, belgian, seed, options)
        wins += rec.winner == GERMANY
        battles += rec.battles
        actions += rec.actions
        pursuits += rec.pursuits
        br += rec.taken[0]
        an += rec.taken[1]
    return Summary(label, n, wins, battles / n, actions / n, pursuits / n, time.perf_counter() - t0, br / n, an / n)


def tournament(n: int, options: dict[str, Any] | None = None, pairings: list[str] | None = None,
               world: World | None = None, out: Callable[[str], None] = print) -> list[Summary]:
    """Play n seeded games (seeds 0..n-1) for each pairing and print the German win rate, the
    mean number of battles and of actions per game."""
    out(f"Assault on Belgium tournament: {n} games per pairing, options {dict(options or {})}")
    res = []
    for label in pairings or list(PAIRINGS):
        sm = run_pairing(label, n, options, world)
        out(sm.line())
        res.append(sm)
    return res


