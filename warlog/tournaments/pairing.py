"""Pairing a tournament's next round, re-derivable by anyone (docs/tournaments.md).

Every choice that is not decided by the results is decided by provable dice: die number i of
the event at position `seq` of tournament `T` is `ledger.dice.derive_die(seed, T, seq, i, "",
faces)` — the games' scheme with the tournament's committed pairing seed. The starting order is
a Fisher–Yates shuffle of the entrants by those dice, and the first round's side (who plays the
first role at the top table) is one more die.

* Swiss: the FIDE Dutch system (C.04.3) of the `caissify-pairings` library (or its simpler
  `casual` engine, much faster on large fields), fed each entrant's score, side history
  ("white" = the scenario's first role), floats, byes and previous opponents, so that nobody
  meets the same opponent twice and sides alternate.
* Pools: entrants dealt into even pools in snake order of the starting order; each pool is a
  FIDE Berger round robin (same library), which balances sides; an odd pool gives a bye a round.
* Knockout: single elimination (warlog.tournaments.knockout), the bracket drawn at round 1.
* Duplicate: every entrant plays their own game of the solitaire scenario, all from one seed
  (`duplicate_seed`), so that the same choices meet the same dice.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import warnings
from dataclasses import dataclass, field
from typing import Any

from ledger.canonical import canonical_bytes
from ledger.dice import derive_die
from warlog.tournaments.model import Pairing, Tournament

AUTO_DUTCH_MAX = 48  # engine "auto" before feed 3: entrants up to which a round is paired by the Dutch system


class PairingError(ValueError):
    """The round cannot be paired now (not enough entrants, the previous round unfinished…)."""


class DiceMismatch(ValueError):
    """A recorded die does not fit the die the pairing asked for."""


class PairingDice:
    """The dice of the pairing event at `seq`: derived from the seed, or (before the seed is
    revealed) the recorded values replayed. Records every die it gives."""

    def __init__(self, seed: bytes | None, tournament_id: str, seq: int,
                 recorded: list[dict[str, Any]] | None = None) -> None:
        self.seed, self.tid, self.seq = seed, tournament_id, seq
        self.recorded = recorded
        self.rolled: list[dict[str, Any]] = []
        self.ratings: dict[str, int] | None = None  # round 1's seeding by rating (pair_next)

    def roll(self, faces: int, purpose: str) -> int:
        index = len(self.rolled)
        if self.seed is not None:
            value = derive_die(self.seed, self.tid, self.seq, index, "", faces)
        else:
            if self.recorded is None or index >= len(self.recorded):
                raise DiceMismatch(f"die {index} ({purpose}) is not in the record")
            value = int(self.recorded[index]["value"])
            if self.recorded[index].get("faces") != faces or not 1 <= value <= faces:
                raise DiceMismatch(f"die {index} ({purpose}) was recorded as a d{self.recorded[index].get('faces')}")
        self.rolled.append({"index": index, "faces": faces, "value": value, "purpose": purpose})
        return value

    def shuffle(self, items: list[str], purpose: str) -> list[str]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.roll(i + 1, f"{purpose}: place {i + 1}") - 1
            out[i], out[j] = out[j], out[i]
        return out


def duplicate_seed(seed: bytes, tournament_id: str, round_number: int) -> bytes:
    """The dice seed every game of a duplicate round shares (committed through the pairing seed)."""
    return hmac.new(seed, canonical_bytes({"duplicate": round_number, "tournament": tournament_id}),
                    hashlib.sha256).digest()


@dataclass
class Proposal:
    """A round's pairing before its games exist."""

    round: int
    pairings: list[Pairing]
    byes: list[str]
    dice: list[dict[str, Any]]
    extra: dict[str, Any] = field(default_factory=dict)


def pair_next(t: Tournament, dice: PairingDice, ratings: dict[str, int] | None = None) -> Proposal:
    """The next round of `t` (PairingError if it cannot be paired now). `ratings` (player id ->
    rating in thousandths) seed round 1 when the event is seeded by rating (`format.seeding`):
    the round records them, and a verifier passes the recorded ones."""
    number = t.current_round + 1
    if t.ended is not None:
        raise PairingError("the tournament has ended")
    if number > rounds_planned(t):
        raise PairingError(f"all {rounds_planned(t)} rounds are paired")
    if number > 1 and not t.round_complete(number - 1):
        raise PairingError(f"round {number - 1} has games without a result")
    active = t.active_entrants()
    need = 1 if t.kind == "duplicate" else 2
    if len(active) < need:
        raise PairingError(f"a round needs at least {need} entrants; there are {len(active)}")
    if number == 1 and t.format.get("seeding") == "rating" and ratings is None:
        raise PairingError("round 1 is seeded by rating: the players' ratings are needed")
    dice.ratings = ratings
    if t.kind == "swiss":
        return _swiss(t, number, dice)
    if t.kind == "pools":
        return _pools(t, number, dice)
    if t.kind == "knockout":
        return _knockout(t, number, dice)
    return _duplicate(t, number, dice)


def pool_rounds(t: Tournament) -> int:
    """The round-robin rounds of a pools tournament (the playoff's come after them)."""
    pools = t.rounds[1].extra["pools"] if 1 in t.rounds else None
    if pools is None:
        n = max(2, -(-len(t.active_entrants()) // max(1, int(t.format.get("pools", 1)))))
    else:
        n = max(len(p) for p in pools)
    return n - 1 if n % 2 == 0 else n


def playoff_size(t: Tournament) -> int:
    """Entrants in the single-elimination playoff: `playoff` per pool (0: none)."""
    per = int(t.format.get("playoff", 0))
    pools = t.rounds[1].extra["pools"] if 1 in t.rounds else [[]] * max(1, int(t.format.get("pools", 1)))
    return per * len(pools) if per else 0


def rounds_planned(t: Tournament) -> int:
    if t.kind == "knockout":
        from warlog.tournaments.knockout import knockout_rounds_planned

        return knockout_rounds_planned(t)
    if t.kind == "pools":
        size = playoff_size(t)
        return pool_rounds(t) + (max(1, (size - 1).bit_length()) if size >= 2 else 0)
    return t.total_rounds


def _order(t: Tournament, number: int, dice: PairingDice) -> tuple[list[str], dict[str, Any]]:
    """Starting order (the round-1 shuffle, late entrants after it in registration order). Seeded
    by rating, round 1 orders the shuffle by rating, best first (the shuffle breaks ties), and
    records the ratings it used (`seed_ratings`)."""
    if number == 1:
        order = dice.shuffle(t.active_entrants(), "starting order")
        if t.format.get("seeding") == "rating":
            ratings = {pid: int((dice.ratings or {}).get(pid, 0)) for pid in order}
            order.sort(key=lambda pid: -ratings[pid])
            return order, {"order": order, "seed_ratings": ratings}
        return order, {"order": order}
    order = list(t.rounds[1].extra["order"])
    order += [p for p in t.entrants if p not in order]
    return order, {}


# -- Swiss -------------------------------------------------------------------------------

def _swiss(t: Tournament, number: int, dice: PairingDice) -> Proposal:
    order, extra = _order(t, number, dice)
    if number == 1:
        extra["first_side"] = "white" if dice.roll(2, "side of the top table's first player") == 1 else "black"
    first_side = t.rounds[1].extra["first_side"] if number > 1 else extra["first_side"]
    active = set(t.active_entrants())
    sn = {pid: i + 1 for i, pid in enumerate(order)}
    by_sn = {i: pid for pid, i in sn.items()}
    fide = swiss_feed(t) >= 2
    history = swiss_history(t, number, fide=fide)
    players = []
    vp = baku_points(t, number, order)
    for pid in order:
        if pid not in active:
            continue
        h = history[pid]
        players.append({"id": sn[pid], "name": pid, "score": h["points"] / t.points["win"] + vp.get(pid, 0),
                        "rating": 0,
                        "starting_number": sn[pid], "color_hist": h["colors"], "float_history": h["floats"],
                        "bye_count": h["byes"], **({"forfeit_win_count": h["forfeit_wins"]} if fide else {}),
                        # feed 3: the pairing number stays the initial one when others withdraw (E.5's parity)
                        **({"pairing_number": sn[pid]} if swiss_feed(t) >= 3 else {})})
    previous = {(sn[a], sn[b]) for a, b in history["__pairs__"] if a in sn and b in sn}
    engine = t.format.get("engine", "dutch")
    if engine == "auto":  # feed 3: always the Dutch system; before it, the casual engine beyond 48 entrants
        engine = "dutch" if swiss_feed(t) >= 3 or len(players) <= AUTO_DUTCH_MAX else "casual"
    pairings, byes = _run_engine(t, engine, players, previous, number, first_side, by_sn, fide, bool(vp))
    if engine != "dutch" and not _complete(pairings, byes, active, history["__pairs__"]):
        # The casual engine is greedy: when it leaves someone out or repeats a pairing, the
        # Dutch system (a maximum-weight matching over the whole field) pairs the round instead.
        engine = "dutch"
        pairings, byes = _run_engine(t, engine, players, previous, number, first_side, by_sn, fide, bool(vp))
    if not _complete(pairings, byes, active, history["__pairs__"]):
        raise PairingError("the pairing engine could not pair every entrant without a repeat")
    extra["engine"] = engine
    return Proposal(number, pairings, byes, dice.rolled, extra)


def _run_engine(t: Tournament, engine: str, players: list[dict[str, Any]], previous: set[tuple[int, int]],
                number: int, first_side: str, by_sn: dict[int, str],
                fide: bool = False, accelerated: bool = False) -> tuple[list[Pairing], list[str]]:
    from caissify_pairings import MissingFloatHistoryWarning, generate_pairings

    with warnings.catch_warnings():
        warnings.simplefilter("error", MissingFloatHistoryWarning)
        options = {"players": [dict(p) for p in players], "previous_pairings": previous, "round_number": number,
                   "total_rounds": t.total_rounds, "bye_value": t.points["bye"] / t.points["win"],
                   "initial_color": first_side}
        if fide and engine == "dutch":
            # accelerated: the scores carry the virtual points already (baku_points); the flag
            # makes the engine pair round 1 by its scores too, as every later round
            dutch = _fide_dutch_engine()(**options, accelerated=accelerated)
            if swiss_feed(t) >= 3:  # bbpPairings' incremental matching computer (warlog.tournaments.dutch_matching)
                from warlog.tournaments.dutch_matching import FastPairingUnavailable, fast_pairing

                try:
                    fast_pairing(dutch)
                except FastPairingUnavailable as err:  # another library release: the same pairing, slowly
                    logging.getLogger(__name__).warning("Dutch pairing without the fast matcher: %s", err)
            rows = dutch.generate_pairings()
        else:
            rows = generate_pairings(system=engine, **options)
    pairings: list[Pairing] = []
    byes: list[str] = []
    for row in sorted(rows, key=lambda r: r["table"]):
        if row.get("bye") or row.get("black_id") is None:
            byes.append(by_sn[row["white_id"]])
            continue
        seats = {t.roles[0]: by_sn[row["white_id"]], t.roles[1]: by_sn[row["black_id"]]}
        pairings.append(Pairing(len(pairings) + 1, seats))
    return pairings, byes


def _complete(pairings: list[Pairing], byes: list[str], active: set[str], met: set[tuple[str, str]]) -> bool:
    placed = [pid for p in pairings for pid in p.players()] + byes
    return (sorted(placed) == sorted(active) and len(byes) <= 1
            and not any(tuple(p.players()) in met for p in pairings))


def swiss_feed(t: Tournament) -> int:
    """How the Swiss engine is fed (recorded at creation as `format.feed`; a tournament recorded
    before it is fed as it was paired): 1, the first way; 2, FIDE's (C.04.3): sides counted over
    played games only, a forfeit an unplayed game (rematch allowed, no side, the winner no
    pairing-allocated bye), and the colour rules E.4–E.5 ranking by score, then pairing number;
    3, feed 2 with each matching solved by bbpPairings' matching computer
    (warlog.tournaments.dutch_matching: about a second at 256 entrants where networkx took
    minutes), each entrant's pairing number kept from the starting order when others withdraw
    (the engine renumbered the active ones, which flips E.5's parity), "auto" pairing every
    field by the Dutch system, and Baku acceleration (`format.accelerated`, C.04.5.1)."""
    return int(t.format.get("feed", 1))


def baku_points(t: Tournament, number: int, order: list[str] | None = None) -> dict[str, float]:
    """The virtual points of Baku acceleration (C.04.5.1) in round `number`, in wins, by entrant
    (nobody listed: none). Group A is the first half of round 1's starting order rounded up to
    an even number (late entrants are in group B); before each of the first half of the rounds
    (rounded up), group A's players get 1 virtual point in the first half of those rounds
    (rounded up) and ½ in the rest. For pairing only: standings never see them."""
    if not t.format.get("accelerated") or swiss_feed(t) < 3:
        return {}
    accelerated = -(-t.total_rounds // 2)
    if number > accelerated:
        return {}
    if order is None:
        order = list(t.rounds[1].extra["order"])
    order = order[:len(t.rounds[1].extra["order"])] if 1 in t.rounds else order  # late entrants: group B
    group_a = 2 * -(-len(order) // 4)
    vp = 1.0 if number <= -(-accelerated // 2) else 0.5
    return {pid: vp for pid in order[:group_a]}


def swiss_history(t: Tournament, before: int, fide: bool = False) -> dict[str, Any]:
    """Each entrant's points, sides ("white" = first role), floats, byes and forfeit wins over rounds
    < `before`; under "__pairs__" every pair that has met. `fide` (feed 2): a round without a
    played game adds no side (C.04.3 A.6: the colour history counts played games), and unless
    `format.forfeits` is "played", a forfeited game is not played (C.04.1: no side, no meeting
    recorded, a downfloat for whoever scored more than a loss, as bbpPairings reads A.4).
    Feed 1 reads every paired table as played and a round without a game as side "none"."""
    out: dict[str, Any] = {pid: {"points": 0, "colors": [], "floats": [], "byes": 0, "forfeit_wins": 0}
                           for pid in t.entrants}
    unplayed_forfeits = fide and t.format.get("forfeits", "unplayed") == "unplayed"
    pairs: set[tuple[str, str]] = set()
    for number in range(1, before):
        r = t.rounds[number]
        vp = baku_points(t, number)  # C.04.5.1: a float is read on the scores the round was paired on
        start = {pid: out[pid]["points"] + vp.get(pid, 0) * t.points["win"] for pid in t.entrants}
        seen = set()
        for p in r.pairings:
            a, b = p.seats[t.roles[0]], p.seats[t.roles[1]]
            res = t.results.get(p.game_id or "")
            if res is not None:
                out[a]["points"] += res.points.get(a, 0)
                out[b]["points"] += res.points.get(b, 0)
            seen.update((a, b))
            if unplayed_forfeits and res is not None and res.how == "forfeit":
                for pid in (a, b):  # not played: a downfloat for whoever scored more than a loss (A.4)
                    out[pid]["floats"].append("down" if res.points.get(pid, 0) > t.points["loss"] else "none")
                if res.winner:
                    out[res.winner]["forfeit_wins"] += 1
                continue
            pairs.add((a, b))
            pairs.add((b, a))
            fa = "down" if start[a] > start[b] else "up" if start[a] < start[b] else "none"
            out[a]["colors"].append("white")
            out[b]["colors"].append("black")
            out[a]["floats"].append(fa)
            out[b]["floats"].append({"down": "up", "up": "down", "none": "none"}[fa])
        for pid in r.byes:
            out[pid]["points"] += t.points["bye"]
            out[pid]["byes"] += 1
            if not fide:
                out[pid]["colors"].append("none")
            out[pid]["floats"].append("down")
            seen.add(pid)
        for pid in t.entrants:
            if pid not in seen:
                if not fide:
                    out[pid]["colors"].append("none")
                out[pid]["floats"].append("none")
    out["__pairs__"] = pairs
    return out


def _fide_dutch_engine() -> Any:
    """caissify-pairings' Dutch engine with FIDE's meaning of "higher ranked" in the colour rules
    (C.04.3 A.2: by score, then pairing number; the library ranks by pairing number alone)."""
    from caissify_pairings.engines.dutch import ColorPref, DutchEngine

    class FideDutch(DutchEngine):  # type: ignore[misc]
        @classmethod
        def _apply_baku_virtual_scores(cls, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [dict(p) for p in players]  # Warlog adds C.04.5.1's points itself (baku_points)

        def _assign_colors(self, p1: Any, p2: Any) -> tuple[Any, Any]:
            higher, lower = sorted((p1, p2), key=lambda p: (-p.score, p.pairing_number))
            white, black = super()._assign_colors(higher, lower)
            if not _decided_by_rank(higher, lower):
                return white, black
            # E.4: the higher ranked player's preference; E.5: by its pairing number's parity
            pref = higher.color_preference
            if pref == ColorPref.WHITE:
                return higher, lower
            if pref == ColorPref.BLACK:
                return lower, higher
            first = (higher.pairing_number % 2 == 1) == (self.initial_color == "white")
            return (higher, lower) if first else (lower, higher)

    return FideDutch


def _decided_by_rank(p1: Any, p2: Any) -> bool:
    """Whether colour rules E.1–E.3 leave the choice to E.4/E.5 (the rank) for this pair."""
    from caissify_pairings.engines.dutch import ColorPref

    pref1, pref2 = p1.color_preference, p2.color_preference
    if pref1 != ColorPref.NONE and pref2 != ColorPref.NONE and pref1 != pref2:
        return False  # E.1
    str1, str2 = p1.preference_strength, p2.preference_strength
    if str1 != str2 and (p1 if str1 > str2 else p2).color_preference != ColorPref.NONE:
        return False  # E.2
    if str1 == str2 and str1 > 0 and pref1 == pref2 and p1.color_diff != p2.color_diff:
        return False  # E.2, the wider colour difference
    h1, h2 = p1.color_hist, p2.color_hist
    return all(h1[-k] == h2[-k] for k in range(1, min(len(h1), len(h2)) + 1))  # E.3 found no difference


# -- Pools -------------------------------------------------------------------------------

def deal_pools(order: list[str], count: int) -> list[list[str]]:
    """Snake order: 1..P, P..1, … so that pools are even in size and in seeding."""
    count = max(1, min(count, len(order) // 2 or 1))
    pools: list[list[str]] = [[] for _ in range(count)]
    for i, pid in enumerate(order):
        lap, pos = divmod(i, count)
        pools[pos if lap % 2 == 0 else count - 1 - pos].append(pid)
    return pools


def _pools(t: Tournament, number: int, dice: PairingDice) -> Proposal:
    from caissify_pairings.engines.round_robin import berger_round

    if number > 1 and number > pool_rounds(t):
        return _playoff(t, number, dice)
    extra: dict[str, Any] = {}
    if number == 1:
        order, extra = _order(t, number, dice)
        pools = deal_pools(order, int(t.format.get("pools", 1)))
        extra["pools"] = pools
    else:
        pools = t.rounds[1].extra["pools"]
    active = set(t.active_entrants())
    pairings, byes = [], []
    for index, pool in enumerate(pools):
        n = len(pool) + len(pool) % 2
        if number > n - 1:
            continue  # a smaller pool has finished
        for white, black in berger_round(n, number):
            a = pool[white - 1] if white <= len(pool) else None
            b = pool[black - 1] if black <= len(pool) else None
            a = a if a in active else None
            b = b if b in active else None
            if a and b:
                pairings.append(Pairing(len(pairings) + 1, {t.roles[0]: a, t.roles[1]: b}, pool=index + 1))
            elif a or b:
                byes.append(a or b or "")
    return Proposal(number, pairings, byes, dice.rolled, extra)


# -- Playoff ------------------------------------------------------------------------------

def _playoff(t: Tournament, number: int, dice: PairingDice) -> Proposal:
    """Single elimination after the pools. Seeds: the pools' qualifiers by pool place, then
    points and tiebreaks (pool 1's winner first); the bracket pairs 1–N, 2–(N−1), …, a top seed
    without an opponent advancing on a bye. Later rounds pair the winners in bracket order. A
    drawn playoff game sends the better seed through. The first role goes to whoever has played
    it less often in the event; when equal, to the better seed on a die roll of 1–3."""
    from warlog.tournaments.standings import standings

    if number == pool_rounds(t) + 1:
        per = int(t.format.get("playoff", 0))
        lines = standings(t)
        qualified = [line for line in lines if line.rank and _pool_place(lines, line) <= per and not line.withdrawn]
        qualified.sort(key=lambda line: (_pool_place(lines, line), -line.points,
                                         *(-v for v in line.tiebreaks.values()), line.pool or 0))
        seeds = [line.player_id for line in qualified]
        size = 1 << max(1, (len(seeds) - 1).bit_length())
        slots: list[str | None] = [seeds[i] if i < len(seeds) else None for i in range(size)]
        bracket = [[slots[i], slots[size - 1 - i]] for i in range(size // 2)]
        extra: dict[str, Any] = {"playoff": {"seeds": seeds}}
    else:
        seeds = t.rounds[pool_rounds(t) + 1].extra["playoff"]["seeds"]
        winners = playoff_advance(t, number - 1)
        if len(winners) < 2:
            raise PairingError("the playoff is over")
        bracket = [[winners[i], winners[i + 1] if i + 1 < len(winners) else None]
                   for i in range(0, len(winners), 2)]
        extra = {"playoff": {"seeds": seeds}}
    sides = _sides_played(t)
    pairings, byes = [], []
    for a, b in bracket:
        if a is None or b is None:
            if a or b:
                byes.append(a or b or "")
            continue
        first, second = sorted((a, b), key=seeds.index)
        ca, cb = sides.get(first, 0), sides.get(second, 0)
        if ca > cb or (ca == cb and dice.roll(6, f"playoff side: table {len(pairings) + 1}") > 3):
            first, second = second, first
        pairings.append(Pairing(len(pairings) + 1, {t.roles[0]: first, t.roles[1]: second}))
    extra["playoff"]["bracket"] = bracket
    return Proposal(number, pairings, byes, dice.rolled, extra)


def _pool_place(lines: list[Any], line: Any) -> int:
    return sum(1 for other in lines if other.pool == line.pool and (other.rank < line.rank)) + 1


def _sides_played(t: Tournament) -> dict[str, int]:
    """How many times each entrant has played the first role."""
    out: dict[str, int] = {}
    for _n, p in t.games():
        first = p.seats.get(t.roles[0])
        if first:
            out[first] = out.get(first, 0) + 1
    return out


def playoff_advance(t: Tournament, number: int) -> list[str]:
    """Who goes through from playoff round `number`, in bracket order (the winner of each game;
    the better seed on a draw; a bye goes through)."""
    r = t.rounds[number]
    seeds = r.extra["playoff"]["seeds"]
    out = []
    for a, b in r.extra["playoff"]["bracket"]:
        if a is None or b is None:
            if a or b:
                out.append(a or b)
            continue
        game = next(p for p in r.pairings if set(p.players()) == {a, b})
        res = t.results.get(game.game_id or "")
        out.append(res.winner if res is not None and res.winner else min((a, b), key=seeds.index))
    return out


# -- Knockout ------------------------------------------------------------------------------

def _knockout(t: Tournament, number: int, dice: PairingDice) -> Proposal:
    """A knockout round (warlog.tournaments.knockout): round 1 from the seeds, later rounds from
    the winners; sides as in the playoff (`_playoff`)."""
    from warlog.tournaments.knockout import first_matches, next_matches

    extra: dict[str, Any] = {}
    third: list[str] | None = None
    if number == 1:
        order, extra = _order(t, number, dice)
        matches = first_matches(order)
        seeds = order
        extra["knockout"] = {"seeds": order, "matches": matches}
    else:
        seeds = list(t.rounds[1].extra["knockout"]["seeds"])
        matches, third = next_matches(t, number)
        extra["knockout"] = {"matches": matches}
        if third is not None:
            extra["knockout"]["third_place"] = third
    sides = _sides_played(t)
    rank = {pid: i for i, pid in enumerate(seeds)}
    pairings: list[Pairing] = []
    byes: list[str] = []
    tables: list[list[str | None]] = [*matches, *([list[str | None](third)] if third else [])]
    for a, b in tables:
        if a is None or b is None:
            if number == 1 and (a or b):
                byes.append(a or b or "")
            continue
        first, second = sorted((a, b), key=lambda pid: rank.get(pid, len(seeds)))
        ca, cb = sides.get(first, 0), sides.get(second, 0)
        if ca > cb or (ca == cb and dice.roll(6, f"knockout side: table {len(pairings) + 1}") > 3):
            first, second = second, first
        pairings.append(Pairing(len(pairings) + 1, {t.roles[0]: first, t.roles[1]: second}))
    # a round of walkovers only (the opponents withdrew) has no game: it is complete as paired
    return Proposal(number, pairings, byes, dice.rolled, extra)


# -- Duplicate ----------------------------------------------------------------------------

def _duplicate(t: Tournament, number: int, dice: PairingDice) -> Proposal:
    role = t.roles[0]
    pairings = [Pairing(i + 1, {role: pid}) for i, pid in enumerate(t.active_entrants())]
    extra: dict[str, Any] = {}
    if dice.seed is not None:
        extra["game_seed_commitment"] = hashlib.sha256(duplicate_seed(dice.seed, t.id, number)).hexdigest()
    return Proposal(number, pairings, [], dice.rolled, extra)
