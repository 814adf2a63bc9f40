"""An entrant's leave in the tournament's own stream (warlog.clock.leave).

When a player declares leave, and when it ends, every running tournament they are entered in
records it: `leave_declared` (the leave's times, the player's games of the tournament with their
rounds, the tournament's `round_deadlines` policy and the deadlines of those seats once it
applied) and `leave_ended`. The policy is the tournament's leave allowance, its `leave` setting
(stated in `tournament_created`, kept by `AwayBook.set_policy(policy, tournament_id)`): under `extend` the clocks of the player's games
stop for the leave, so their round deadlines move by it; under `keep` they run through it and
the deadlines stay (`AwayBook.stops_of`). The tournament's directors are told with the opponents
(`AwayBook.directors_of`). The bundle carries these events and `warlog verify` checks each against
the games' own `leave_declared` / `leave_ended` (warlog.tournaments.bundle).
"""

from __future__ import annotations

import logging
from typing import Any

from warlog.tournaments import events as T
from warlog.tournaments.service import Tournaments

log = logging.getLogger("warlog.tournaments.leave")


def attach(away: Any, tournaments: Tournaments) -> None:
    """Make `away` (warlog.clock.leave.AwayBook) tell the tournaments of its players' leave."""

    def directors(game_id: str, tid: str | None) -> list[str]:
        tid = tid or tournaments.store.game_tournament(game_id)
        if not tid or not tournaments.store.exists(tid):
            return []
        return tournaments.directors_for(tournaments.get(tid), game_id)

    def on_leave(what: str, leave: Any, games: list[tuple[str, str]]) -> None:
        for tid in _tournaments_of(tournaments, leave.player_id):
            record(tournaments, away, tid, what, leave, games)

    away.directors_of = directors
    away.listeners.append(on_leave)
    tournaments.set_leave_policy = away.set_policy  # a tournament's `leave` setting, stated when it is created


def _tournaments_of(tournaments: Tournaments, player_id: str) -> list[str]:
    """The running tournaments `player_id` is entered in (and not withdrawn from), with or
    without a game running now (a bye, or between rounds)."""
    found = []
    for tid in tournaments.store.running_ids():
        entrant = tournaments.get(tid).entrants.get(player_id)
        if entrant is not None and not entrant.withdrawn:
            found.append(tid)
    return found


def record(tournaments: Tournaments, away: Any, tid: str, what: str, leave: Any,
           games: list[tuple[str, str]]) -> None:
    """Append the tournament's `leave_declared` or `leave_ended` for `leave` (once)."""
    t = tournaments.get(tid)
    kind = T.LEAVE_DECLARED if what == "declared" else T.LEAVE_ENDED
    if any(x["leave"] == leave.id and x["type"] == kind for x in t.leaves):
        return
    if kind == T.LEAVE_ENDED and not any(x["leave"] == leave.id for x in t.leaves):
        return  # declared before the tournament recorded leave (or before the player entered): nothing to end
    mine = [{"game_id": g, "seat": s, "round": t.round_of[g]} for g, s in games if g in t.round_of]
    payload: dict[str, Any] = {"player_id": leave.player_id, "leave": leave.id, "games": mine}
    if kind == T.LEAVE_DECLARED:
        payload.update({"from": leave.starts_at, "to": leave.ends_at,
                        "round_deadlines": away.policy(tid).round_deadlines, "deadlines": _deadlines(away, mine)})
    tournaments._append(t, [(kind, None, payload)], retry=True)


def _deadlines(away: Any, games: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The open deadlines of the player's seats, as they stand once the leave applied."""
    out = []
    for g in games:
        d = away.clock.deadline(g["game_id"], g["seat"])
        if d is not None and d.status == "open":
            out.append({"game_id": g["game_id"], "seat": g["seat"], "due_at": d.due_at})
    return out
