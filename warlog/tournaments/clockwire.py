"""Deadlines of a tournament's games (warlog.clock): each game gets the tournament's time control
when its round is paired, and every act of the clock that matters to the tournament becomes an
event of its stream, with the clock act's id (so that a handler called twice records it once):

* `expired` under `forfeit`: a `deadline_expired` event, then the forfeit (an `award` ruling in
  the game for the other player; its end becomes the result);
* `expired` under `notify_director`: a `deadline_expired` event and a notice to the director;
* `extended` (drawn from the player's bank): an `extension_granted` event (by policy).

No rule of a game reads the clock: a timeout is a tournament event, turned into a game result
only by a ruling.
"""

from __future__ import annotations

import logging
from typing import Any

from warlog.tournaments.service import Tournaments

log = logging.getLogger("warlog.tournaments.clock")


def time_control(doc: dict[str, Any]) -> Any:
    """The clock's TimeControl for a tournament's `time_control` (ClockError if it does not fit)."""
    from warlog.clock.clock import TimeControl

    return TimeControl.from_json(dict(doc))


def attach(clock: Any, tournaments: Tournaments) -> None:
    """Make `tournaments` set its games' clocks and hear the clock's expiries and extensions."""
    tournaments.clock = clock
    clock.tournament_name = lambda tid: tournaments.get(tid).name if tournaments.store.exists(tid) else None

    def on_act(act: Any) -> None:
        if not act.tournament_id or not tournaments.store.exists(act.tournament_id):
            return  # a game's own clock, or someone else's tournament id: not ours to record
        t = tournaments.get(act.tournament_id)
        found = t.game_round(act.game_id)
        if found is None:
            return
        player = found[1].seats.get(act.seat, "")
        if act.act == "extended":
            if any(e.get("clock_act") == act.id for e in t.extensions):
                return
            hours = max(1, int(act.detail.get("granted_seconds", 0)) // 3600)
            tournaments.extend(t.id, None, act.game_id, player, 0, "drawn from the player's bank of days",
                               by_policy=True, clock_act=act.id, hours=hours)
            return
        if any(x.get("clock_act") == act.id for x in t.timeouts):
            return
        policy = str(act.detail.get("policy", "notify_director"))
        tournaments.record_timeout(t.id, act.game_id, player, policy, clock_act=act.id)

    for kind in ("forfeit", "notify_director", "extended"):
        clock.register_expiry_handler(kind, on_act)


def attach_worker(store: Any, enqueue: Any) -> None:
    """In an RQ worker process: the same handlers on the worker's clock (it runs the sweep)."""
    from warlog.games.service import Warlog
    from warlog.notify.jobs import services
    from warlog.tournaments.store import TournamentStore

    s = services()
    tstore = TournamentStore(s.db)
    tstore.create_schema()
    tournaments = Tournaments(Warlog(store, enqueue), tstore, s.players, s.notifier.notify, base_url=s.clock.base_url)
    attach(s.clock, tournaments)
    from warlog.tournaments.leavewire import attach as attach_leave

    attach_leave(s.away, tournaments)  # the worker's leave sweep records a leave's end in the tournaments
