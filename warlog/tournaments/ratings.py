"""Ratings across tournaments, re-derived from the ledger each time (OpenSkill's Plackett–Luce
model, the `openskill` library): every recorded result of every tournament, in the order the
results were recorded (tournaments by creation, then stream order). A two-seat game rates its
two players (a draw ties them); a duplicate round rates its entrants together, ranked by the
games' scores. Ratings are derived figures, never stored and never deciding anything.
"""

from __future__ import annotations

from typing import Any

from warlog.tournaments.model import Tournament


def rate(tournaments: list[Tournament]) -> list[dict[str, Any]]:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    table: dict[str, Any] = {}
    names: dict[str, str] = {}
    games: dict[str, int] = {}

    def r(pid: str) -> Any:
        if pid not in table:
            table[pid] = model.rating(name=pid)
        return table[pid]

    for t in tournaments:
        for pid, e in t.entrants.items():
            names[pid] = e.display_name
        results = sorted(t.results.values(), key=lambda res: res.seq)
        if t.kind == "duplicate":
            for number in sorted(t.rounds):
                scored = [(p.players()[0], t.results[p.game_id]) for p in t.rounds[number].pairings
                          if p.game_id in t.results]
                if len(scored) < 2:
                    continue
                order = sorted({tuple(res.score or [0, 0]) for _pid, res in scored}, reverse=True)
                ranks = [order.index(tuple(res.score or [0, 0])) + 1 for _pid, res in scored]
                new = model.rate([[r(pid)] for pid, _res in scored], ranks=ranks)
                for (pid, _res), team in zip(scored, new):
                    table[pid] = team[0]
                    games[pid] = games.get(pid, 0) + 1
            continue
        for res in results:
            a, b = list(res.points)
            ranks = [1, 1] if res.winner is None else ([1, 2] if res.winner == a else [2, 1])
            (ra,), (rb,) = model.rate([[r(a)], [r(b)]], ranks=ranks)
            table[a], table[b] = ra, rb
            games[a] = games.get(a, 0) + 1
            games[b] = games.get(b, 0) + 1
    rows = [{"player_id": pid, "name": names.get(pid, pid), "games": games.get(pid, 0),
             "mu": round(x.mu, 3), "sigma": round(x.sigma, 3), "ordinal": round(x.ordinal(), 3)}
            for pid, x in table.items()]
    rows.sort(key=lambda row: (-row["ordinal"], row["name"]))
    return rows


def ratings(service: Any) -> list[dict[str, Any]]:
    return rate([service.get(tid) for tid in service.store.all_ids()])


def seed_ratings(service: Any, players: list[str]) -> dict[str, int]:
    """Each player's rating as a seed: the OpenSkill ordinal in thousandths (an integer, as the
    stream keeps numbers), 0 for a player without a rated game (a new rating's ordinal)."""
    found = {row["player_id"]: row["ordinal"] for row in ratings(service)}
    return {pid: int(round(float(found.get(pid, 0)) * 1000)) for pid in players}
