"""Pairing and standings, pure: Swiss with an odd field (one bye a round, never twice to
one entrant, no repeat pairing), re-derivation from the dice, round-robin pools (even pools,
everyone meets everyone in the pool once), tiebreaks and the crosstable."""

from __future__ import annotations

import pytest

from tests.tournaments.memory import SEED, Stream
from warlog.tournaments.model import fold
from warlog.tournaments.pairing import DiceMismatch, PairingDice, PairingError, deal_pools, pair_next
from warlog.tournaments.standings import crosstable, standings

ROLES = ["germany", "belgium"]


def _play_round(s: Stream, payload: dict, rule: str = "first") -> None:
    for q in payload["pairings"]:
        seats = list(q["seats"].values())
        winner = {"first": seats[0], "second": seats[1], "draw": None}[rule]
        s.result(q["game_id"], winner)


@pytest.mark.parametrize("engine", ["dutch", "casual"])
def test_swiss_odd_field_byes_once_and_no_repeats(engine: str) -> None:
    s = Stream("swiss", ROLES, rounds=5, engine=engine)
    s.register(*[f"p{i}" for i in range(7)])
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for number in range(1, 6):
        payload = s.pair()
        assert len(payload["pairings"]) == 3 and len(payload["byes"]) == 1
        byes += payload["byes"]
        for q in payload["pairings"]:
            pair = frozenset(q["seats"].values())
            assert pair not in met, f"round {number} repeats {sorted(pair)}"
            met.add(pair)
        _play_round(s, payload, ["first", "second", "draw"][number % 3])
    assert len(set(byes)) == 5, "nobody gets a second bye (C.04.1 d)"
    with pytest.raises(PairingError):
        pair_next(s.t, PairingDice(SEED, s.id, len(s.events)))


def test_swiss_pairing_replays_from_recorded_dice_and_refuses_other_dice() -> None:
    s = Stream("swiss", ROLES, rounds=3)
    s.register(*[f"p{i}" for i in range(6)])
    payload = s.pair()
    before = fold(s.events[:-1])
    replay = pair_next(before, PairingDice(None, s.id, len(s.events) - 1, payload["dice"]))
    assert replay.dice == payload["dice"] and replay.extra["order"] == payload["order"]
    other = [{**d, "value": 1 if d["value"] != 1 else 2} if d["faces"] > 1 else d for d in payload["dice"]]
    assert pair_next(before, PairingDice(None, s.id, len(s.events) - 1, other)).extra["order"] != payload["order"]
    with pytest.raises(DiceMismatch):
        pair_next(before, PairingDice(None, s.id, len(s.events) - 1, []))


def test_a_round_waits_for_every_result() -> None:
    s = Stream("swiss", ROLES, rounds=3)
    s.register("a", "b", "c", "d")
    s.pair()
    with pytest.raises(PairingError, match="without a result"):
        pair_next(s.t, PairingDice(SEED, s.id, len(s.events)))


def test_pools_are_even_and_each_pool_meets_once() -> None:
    assert sorted(len(p) for p in deal_pools([str(i) for i in range(10)], 3)) == [3, 3, 4]
    assert deal_pools(list("abcdef"), 2) == [["a", "d", "e"], ["b", "c", "f"]]  # snake order
    s = Stream("pools", ROLES, pools=2)
    s.register(*[f"p{i}" for i in range(8)])
    met: dict[frozenset[str], int] = {}
    sides: dict[str, list[str]] = {}
    for _ in range(3):
        payload = s.pair()
        for q in payload["pairings"]:
            met[frozenset(q["seats"].values())] = met.get(frozenset(q["seats"].values()), 0) + 1
            for role, pid in q["seats"].items():
                sides.setdefault(pid, []).append(role)
        _play_round(s, payload)
    pools = s.t.rounds[1].extra["pools"]
    expected = {frozenset((a, b)) for pool in pools for a in pool for b in pool if a < b}
    assert set(met) == expected and set(met.values()) == {1}
    assert all(abs(v.count("germany") - v.count("belgium")) <= 1 for v in sides.values())  # Berger balances
    with pytest.raises(PairingError, match="rounds are paired"):
        pair_next(s.t, PairingDice(SEED, s.id, len(s.events)))
    lines = standings(s.t)
    assert {line.pool for line in lines} == {1, 2} and [ln.rank for ln in lines if ln.pool == 1][0] == 1
    assert all("head_to_head" in line.tiebreaks for line in lines)


def test_buchholz_and_sonneborn_berger() -> None:
    s = Stream("swiss", ROLES, rounds=2)
    s.register("a", "b", "c", "d")
    r1 = s.pair()
    _play_round(s, r1, "first")
    r2 = s.pair()
    _play_round(s, r2, "draw")
    t = s.t
    lines = {line.player_id: line for line in standings(t)}
    for pid, line in lines.items():
        opponents = [q for _n, p in t.games() for q in p.players() if pid in p.players() and q != pid]
        assert line.tiebreaks["buchholz"] == sum(lines[o].points for o in opponents)
    table = crosstable(t)
    assert [row["player_id"] for row in table["rows"]] == [line.player_id for line in standings(t)]
    assert all(len(row["cells"]) == 2 and all(c[0] in "WDL" for c in row["cells"]) for row in table["rows"])
    r1 = {row["player_id"]: row["cells"][0] for row in table["rows"]}
    assert sorted(c[0] for c in r1.values()) == ["L", "L", "W", "W"]  # round 1: the first role won both


def test_pools_then_a_single_elimination_playoff() -> None:
    from warlog.tournaments.pairing import playoff_advance, rounds_planned
    from warlog.tournaments.standings import standings as table

    s = Stream("pools", ROLES, pools=2, playoff=2)
    s.register(*[f"p{i}" for i in range(8)])
    for _ in range(3):
        _play_round(s, s.pair(), "first")
    assert rounds_planned(s.t) == 5  # 3 pool rounds, semi-finals, final
    pool_points = {line.player_id: line.points for line in table(s.t)}
    semi = s.pair()
    assert semi["playoff"]["bracket"] and len(semi["pairings"]) == 2
    seeds = semi["playoff"]["seeds"]
    pools = s.t.rounds[1].extra["pools"]
    winners = {line.player_id for line in table(s.t) if line.rank == 1}
    assert len(winners) == 2 and set(seeds[:2]) == winners  # the pool winners are the top seeds
    assert [sorted(p) for p in semi["playoff"]["bracket"]] == [sorted([seeds[0], seeds[3]]),
                                                               sorted([seeds[1], seeds[2]])]
    assert len(seeds) == 4 and all(sum(1 for x in seeds if x in pool) == 2 for pool in pools)
    _play_round(s, semi, "draw")  # a drawn playoff game sends the better seed through
    through = playoff_advance(s.t, 4)
    assert through == [seeds[0], seeds[1]]
    final = s.pair()
    assert sorted(final["pairings"][0]["seats"].values()) == sorted(through)
    _play_round(s, final, "second")
    assert {line.player_id: line.points for line in table(s.t)} == pool_points  # the playoff is apart
    with pytest.raises(PairingError):
        pair_next(s.t, PairingDice(SEED, s.id, len(s.events)))


def test_ratings_are_rederived_identically_and_follow_results() -> None:
    from warlog.tournaments.ratings import rate

    s = Stream("swiss", ROLES, rounds=3)
    s.register("a", "b", "c", "d")
    for _ in range(3):
        payload = s.pair()
        for q in payload["pairings"]:
            seats = sorted(q["seats"].values())
            s.result(q["game_id"], seats[0])  # the alphabetically first always wins
    first, again = rate([s.t]), rate([fold(s.events)])
    assert first == again
    assert [row["player_id"] for row in first][0] == "a" and first[-1]["player_id"] == "d"
    assert all(row["games"] == 3 for row in first)


def test_auto_engine_is_dutch_for_small_fields_and_casual_for_large() -> None:
    from warlog.tournaments.pairing import AUTO_DUTCH_MAX

    small = Stream("swiss", ROLES, rounds=2, engine="auto")
    small.register(*[f"p{i}" for i in range(6)])
    assert small.pair()["engine"] == "dutch"
    large = Stream("swiss", ROLES, rounds=2, engine="auto")
    large.register(*[f"p{i:03d}" for i in range(AUTO_DUTCH_MAX + 2)])
    assert large.pair()["engine"] == "casual"


def test_auto_engine_is_dutch_at_every_size_from_feed_3_and_casual_only_when_asked() -> None:
    """Feed 3 (new tournaments) pairs a large field by the Dutch system; `casual` (not FIDE) is a
    director's explicit choice."""
    entrants = [f"p{i:03d}" for i in range(101)]
    auto = Stream("swiss", ROLES, rounds=3, engine="auto", feed=3)
    auto.register(*entrants)
    for number in (1, 2):
        payload = auto.pair()
        assert payload["engine"] == "dutch" and len(payload["byes"]) == 1
        _play_round(auto, payload, "first" if number == 1 else "draw")
    casual = Stream("swiss", ROLES, rounds=3, engine="casual", feed=3)
    casual.register(*entrants)
    assert casual.pair()["engine"] == "casual"


def test_baku_virtual_points_follow_c_04_5_1() -> None:
    """Group A is the first half of the starting order rounded up to an even number; over the
    first half of the rounds (rounded up) it gets 1 virtual point in the first half of those
    (rounded up) and ½ in the rest — 9 rounds: 1 in rounds 1–3, ½ in rounds 4–5, none after."""
    from warlog.tournaments.pairing import baku_points

    s = Stream("swiss", ROLES, rounds=9, engine="auto", feed=3, accelerated=True)
    s.register(*[f"p{i:02d}" for i in range(10)])
    payload = s.pair()
    order = payload["order"]
    t = s.t
    assert [max(baku_points(t, n).values(), default=0) for n in range(1, 10)] == [1, 1, 1, .5, .5, 0, 0, 0, 0]
    assert sorted(baku_points(t, 1)) == sorted(order[:6]), "10 entrants: a half of 5, rounded up to 6"
    tables = [set(q["seats"].values()) for q in payload["pairings"]]
    assert sum(1 for pair in tables if pair <= set(order[:6])) == 3, "round 1 pairs group A within itself"
    s.register("late")
    assert "late" not in baku_points(s.t, 2), "a late entrant is in group B"
    plain = Stream("swiss", ROLES, rounds=9, engine="auto", feed=3)
    plain.register(*[f"p{i:02d}" for i in range(10)])
    plain.pair()
    assert baku_points(plain.t, 1) == {}
