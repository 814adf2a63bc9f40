"""Standings, tiebreaks and the crosstable, from recorded results only (pure, integers only).

Points per result are the tournament's (`points`: win, draw, loss, bye; a draw is half a win by
default, so everything stays an integer). Tiebreaks by format:

* Swiss: Buchholz (the sum of the opponents' points) then Sonneborn–Berger (the sum, over the
  games, of the opponent's points times the points scored against them; with the default
  points it is twice the chess figure);
* pools: within each pool, head-to-head (points scored in the games among the tied entrants),
  then Sonneborn–Berger;
* knockout: the stage reached (warlog.tournaments.knockout.stages), ranked before the points;
* duplicate: match points (for every other entrant of a round, a win's points for a better
  result, a draw's for the same), then the sum of the games' own scores.

Entrants still tied share a rank; they are listed in starting order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from warlog.catalogs import N_
from warlog.tournaments.model import Result, Tournament
from warlog.tournaments.pairing import pool_rounds


@dataclass
class Line:
    player_id: str
    name: str
    points: int = 0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    tiebreaks: dict[str, int] = field(default_factory=dict)
    pool: int | None = None
    rank: int = 0
    withdrawn: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player_id": self.player_id, "name": self.name, "points": self.points,
                "played": self.played, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "byes": self.byes, "tiebreaks": dict(self.tiebreaks), "pool": self.pool,
                "withdrawn": self.withdrawn}


def _games(t: Tournament) -> list[tuple[dict[str, str], Result]]:
    last = pool_rounds(t) if t.kind == "pools" else None  # a playoff does not count in the pools
    out = []
    for number, p in t.games():
        if last is not None and number > last:
            continue
        res = t.results.get(p.game_id or "")
        if res is not None:
            out.append((p.seats, res))
    return out


def tiebreak_names(t: Tournament) -> list[str]:
    return {"swiss": ["buchholz", "sonneborn_berger"], "pools": ["head_to_head", "sonneborn_berger"],
            "duplicate": ["score"], "knockout": ["stage"]}[t.kind]


TIEBREAK_LABELS = {"buchholz": N_("Buchholz"), "sonneborn_berger": N_("Sonneborn–Berger"),
                   "head_to_head": N_("Head-to-head"), "score": N_("Score"), "stage": N_("Stage reached")}


def tiebreak_label(name: str) -> str:
    """A tiebreak's name as a table header shows it ("Buchholz", not "buchholz")."""
    return TIEBREAK_LABELS.get(name, name.replace("_", " ").capitalize())


def standings(t: Tournament) -> list[Line]:
    order = list(t.rounds[1].extra.get("order", [])) if 1 in t.rounds else []
    order += [p for p in t.entrants if p not in order]
    lines = {pid: Line(pid, t.name_of(pid), withdrawn=t.entrants[pid].withdrawn) for pid in order}
    if 1 in t.rounds and "pools" in t.rounds[1].extra:
        for i, pool in enumerate(t.rounds[1].extra["pools"]):
            for pid in pool:
                lines[pid].pool = i + 1
    for r in t.rounds.values():
        if t.kind == "pools" and r.number > pool_rounds(t):
            continue
        for pid in r.byes:
            lines[pid].points += t.points["bye"]
            lines[pid].byes += 1
    if t.kind == "duplicate":
        _duplicate(t, lines)
    else:
        _two_player(t, lines)
    return _rank(t, lines, order)


def _two_player(t: Tournament, lines: dict[str, Line]) -> None:
    meetings: list[tuple[str, str, int, int]] = []
    for seats, res in _games(t):
        a, b = list(seats.values())
        for me in (a, b):
            line = lines[me]
            line.points += res.points.get(me, 0)
            line.played += 1
            if res.winner is None:
                line.draws += 1
            elif res.winner == me:
                line.wins += 1
            else:
                line.losses += 1
        meetings.append((a, b, res.points.get(a, 0), res.points.get(b, 0)))
    total = {pid: line.points for pid, line in lines.items()}
    for line in lines.values():
        line.tiebreaks = {"buchholz": 0, "sonneborn_berger": 0, "head_to_head": 0}
    for a, b, pa, pb in meetings:
        lines[a].tiebreaks["buchholz"] += total[b]
        lines[b].tiebreaks["buchholz"] += total[a]
        lines[a].tiebreaks["sonneborn_berger"] += total[b] * pa
        lines[b].tiebreaks["sonneborn_berger"] += total[a] * pb
    if t.kind == "pools":  # head-to-head among entrants of the same pool on the same points
        for a, b, pa, pb in meetings:
            if lines[a].pool == lines[b].pool and total[a] == total[b]:
                lines[a].tiebreaks["head_to_head"] += pa
                lines[b].tiebreaks["head_to_head"] += pb
    if t.kind == "knockout":
        from warlog.tournaments.knockout import stages

        for pid, stage in stages(t).items():
            lines[pid].tiebreaks["stage"] = stage
    keep = tiebreak_names(t)
    for line in lines.values():
        line.tiebreaks = {k: v for k, v in line.tiebreaks.items() if k in keep}


def _duplicate(t: Tournament, lines: dict[str, Line]) -> None:
    win, draw = t.points["win"], t.points["draw"]
    for line in lines.values():
        line.tiebreaks = {"score": 0}
    for r in t.rounds.values():
        scored = [(p.players()[0], t.results[p.game_id]) for p in r.pairings if p.game_id in t.results]
        for pid, res in scored:
            lines[pid].played += 1
            lines[pid].tiebreaks["score"] += (res.score or [0, 0])[1]
            for other, theirs in scored:
                if other == pid:
                    continue
                mine, them = tuple(res.score or [0, 0]), tuple(theirs.score or [0, 0])
                lines[pid].points += win if mine > them else draw if mine == them else 0


def _rank(t: Tournament, lines: dict[str, Line], order: list[str]) -> list[Line]:
    names = tiebreak_names(t)

    def key(line: Line) -> tuple[int, ...]:
        if t.kind == "knockout":  # how far one went decides, then the points
            return (0, -line.tiebreaks.get("stage", 0), -line.points)
        return (line.pool or 0, -line.points, *(-line.tiebreaks.get(n, 0) for n in names))

    start = {pid: i for i, pid in enumerate(order)}
    ranked = sorted(lines.values(), key=lambda line: (key(line), start[line.player_id]))
    prev: tuple[int, ...] | None = None
    rank = 0
    for i, line in enumerate(ranked):
        k = key(line)
        if prev is None or k[0] != prev[0]:
            rank, i0 = 1, i
        elif k != prev:
            rank = i - i0 + 1
        line.rank, prev = rank, k
    return ranked


def standings_doc(t: Tournament) -> list[dict[str, Any]]:
    return [line.to_json() for line in standings(t)]


def crosstable(t: Tournament, lines: list[Line] | None = None) -> dict[str, Any]:
    """The Swiss-style crosstable: one row per entrant in standings order, one cell per round —
    "W5g" (won against the entrant ranked 5th, playing the scenario's first role, g/b its
    initial), "D", "L", "+" for a bye, "." for no game, "?" for a game without a result. Size
    entrants × rounds, so it stays small for a large field."""
    lines = lines if lines is not None else standings(t)
    place = {line.player_id: i + 1 for i, line in enumerate(lines)}
    rounds = sorted(t.rounds)
    if t.kind == "pools":  # the pools' crosstable: the playoff is its bracket, not pool rows
        rounds = [n for n in rounds if n <= pool_rounds(t)]
    cells: dict[str, dict[int, str]] = {line.player_id: {} for line in lines}
    for number in rounds:
        r = t.rounds[number]
        for pid in r.byes:
            cells[pid][number] = "+"
        for p in r.pairings:
            res = t.results.get(p.game_id or "")
            for role, me in p.seats.items():
                if me not in cells:
                    continue
                other = next((q for q in p.players() if q != me), None)
                mark = "?" if res is None else ("D" if res.winner is None else "W" if res.winner == me else "L")
                if other is None:  # a solitaire game: its score
                    cells[me][number] = "?" if res is None else " ".join(str(x) for x in (res.score or []))
                else:
                    cells[me][number] = f"{mark}{place[other]}{role[:1]}"
    return {"rounds": rounds, "roles": list(t.roles),
            "rows": [{"player_id": line.player_id, "name": line.name, "place": i + 1, "rank": line.rank,
                      "points": line.points, "cells": [cells[line.player_id].get(n, ".") for n in rounds]}
                     for i, line in enumerate(lines)]}
