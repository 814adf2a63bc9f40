"""A player's pace record, derived from the ledger alone (pure: events in, plain dicts out).

For each seat of a game, every *turn* (from the event that put the seat among the active seats
to the seat's first submission after it) gives one response time: the seat's own time between
the two events' `recorded_at`, leaving out the stops the ledger records for that seat — its
leave (`leave_declared` from–to) and the game's agreed pauses (`pause_agreed` with `paused`
until `pause_ended`). Quiet hours are a player's setting, not a ledger record, so they count.

Under a time control (a tournament's, recorded in its stream) each turn also has a deadline,
re-derived as the clock computes it (warlog.clock.clock): per move, the move's time of the
seat's own time from the turn's start; on a chess clock, the bank left (`bank_days`, less the
own time of each turn, charged when the turn ends, plus `increment_hours`); either moved on by every extension the tournament
recorded for that player and game while the turn ran. A move in the hour before its deadline
counts as `last_hour`, one after it as `late`. `waiting_since`: when the seat's turn now running
began (a seat may act several times in one turn; only its first act is its response).

Figures are whole seconds (canonical JSON has no fractions): `median_seconds` is the middle
response time (the mean of the two middle ones, rounded down, for an even count);
`p90_seconds` is the nearest-rank 90th percentile (the ⌈0.9·n⌉-th smallest). The same
functions serve the pages, the director's desk and `warlog verify`, which re-derives the
record a tournament bundle carries.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from ledger.events import (
    GAME_ENDED,
    GAME_STARTED,
    LEAVE_DECLARED,
    PAUSE_AGREED,
    PAUSE_ENDED,
    RESOLVED,
    SUBMITTED,
    Event,
)
from warlog.clock.stops import Stop, run_until, running_seconds

LAST_HOUR = timedelta(hours=1)
DAY = 86400


def parse_time(text: str) -> datetime:
    """A ledger `recorded_at` (or a leave's bound) as an aware UTC datetime."""
    at = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def stamp(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Turn:
    seat: str
    started_at: datetime
    moved_at: datetime | None = None
    seconds: int | None = None  # the seat's own time to move
    due_at: datetime | None = None  # its deadline, under a time control
    open: bool = True  # the seat is still among the active seats (it may have moved already)


@dataclass
class SeatPace:
    """One seat's turns in one game, and the leave it recorded there."""

    game_id: str
    seat: str
    turns: list[Turn] = field(default_factory=list)
    leaves: dict[str, int] = field(default_factory=dict)  # leave id -> days
    extensions: int = 0
    extension_hours: int = 0
    timed: bool = False  # under a time control: its turns have deadlines


def median(values: Sequence[int]) -> int | None:
    if not values:
        return None
    s, n = sorted(values), len(values)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) // 2


def p90(values: Sequence[int]) -> int | None:
    if not values:
        return None
    s = sorted(values)
    return s[max(1, math.ceil(0.9 * len(s))) - 1]


def _seat_stops(events: Sequence[Event]) -> dict[str, list[Stop]]:
    """The stops the ledger records, per seat ("*": the game's pauses, every seat's)."""
    out: dict[str, list[Stop]] = {}
    paused_at: datetime | None = None
    for ev in events:
        if ev.type == LEAVE_DECLARED and ev.seat:
            try:
                out.setdefault(ev.seat, []).append((parse_time(ev.payload["from"]), parse_time(ev.payload["to"])))
            except (KeyError, TypeError, ValueError):
                continue  # verify refuses such an event; the pace record does not guess
        elif ev.type == PAUSE_AGREED and ev.payload.get("paused") is True and paused_at is None:
            paused_at = parse_time(ev.recorded_at)
        elif ev.type == PAUSE_ENDED and paused_at is not None:
            out.setdefault("*", []).append((paused_at, parse_time(ev.recorded_at)))
            paused_at = None
    if paused_at is not None:
        out.setdefault("*", []).append((paused_at, None))
    return out


def _leave_days(start: datetime, end: datetime) -> int:
    return max(0, math.ceil((end - start).total_seconds() / DAY))


def game_pace(events: Sequence[Event], control: dict[str, Any] | None = None,
              extensions: Iterable[tuple[str, datetime, int]] = ()) -> dict[str, SeatPace]:
    """Every seat's turns in one game's events (in seq order). `control`: the game's time control
    (a TimeControl's JSON), for the deadlines; `extensions`: (seat, when, hours) granted in it."""
    if not events:
        return {}
    roles = list(events[0].payload.get("roles") or [])
    ctl: dict[str, Any] = dict(control or {})
    mode = ctl.get("mode", "per_move") if ctl else None  # a TimeControl's default mode
    seats = {r: SeatPace(events[0].game_id, r, timed=mode in ("per_move", "bank")) for r in roles}
    stops = _seat_stops(events)
    granted: dict[str, list[tuple[datetime, int]]] = {}
    for seat, at, hours in extensions:
        granted.setdefault(seat, []).append((at, hours))
        if seat in seats:
            seats[seat].extensions += 1
            seats[seat].extension_hours += hours
    for ev in events:
        if ev.type == LEAVE_DECLARED and ev.seat in seats:
            try:
                days = _leave_days(parse_time(ev.payload["from"]), parse_time(ev.payload["to"]))
            except (KeyError, TypeError, ValueError):
                continue
            seats[ev.seat].leaves[str(ev.payload.get("leave", ev.seq))] = days
    bank: dict[str, int] = {}
    open_turns: dict[str, Turn] = {}
    active: set[str] = set()
    for ev in events:
        if ev.type not in (SUBMITTED, GAME_STARTED, RESOLVED, GAME_ENDED):
            continue
        now = parse_time(ev.recorded_at)
        if ev.type == SUBMITTED and ev.seat in open_turns:
            turn = open_turns.pop(ev.seat)
            turn.moved_at, turn.seconds = now, running_seconds(_own(stops, ev.seat), turn.started_at, now)
            _extend(turn, granted.get(ev.seat, []))
        after: set[str] | None = None
        if ev.type in (GAME_STARTED, RESOLVED) and isinstance(ev.payload.get("active_seats"), list):
            after = {str(s) for s in ev.payload["active_seats"]}
        elif ev.type == GAME_ENDED:
            after = set()
        if after is None:
            continue
        for seat in sorted(active - after):
            open_turns.pop(seat, None)  # if it had not moved: its turn ended without (a ruling, the end)
            if seat in seats and seats[seat].turns:
                ended = seats[seat].turns[-1]
                ended.open = False
                if mode == "bank":  # charged as the clock charges it when the turn ends
                    used = running_seconds(_own(stops, seat), ended.started_at, now)
                    bank[seat] = max(0, bank[seat] - used) + int(ctl.get("increment_hours", 0)) * 3600
        for seat in sorted(after - active):
            if seat not in seats:
                continue
            turn = Turn(seat, now)
            if mode == "bank":
                turn.due_at = run_until(_own(stops, seat), now, bank.setdefault(seat, int(ctl.get("bank_days", 0)) * DAY))
            elif mode == "per_move":
                budget = (int(ctl.get("days", 3)) * 24 + int(ctl.get("hours", 0))) * 3600
                turn.due_at = run_until(_own(stops, seat), now, budget)
            seats[seat].turns.append(turn)
            open_turns[seat] = turn
        active = after
    return seats


def _own(stops: dict[str, list[Stop]], seat: str) -> list[Stop]:
    """The seat's stops: its leave and the game's pauses."""
    return stops.get(seat, []) + stops.get("*", [])


def _extend(turn: Turn, granted: list[tuple[datetime, int]]) -> None:
    """Extensions recorded while the turn ran move its deadline on (as the clock's did)."""
    if turn.due_at is None or turn.moved_at is None:
        return
    for at, hours in granted:
        if turn.started_at <= at <= turn.moved_at:
            turn.due_at += timedelta(hours=hours)


def _figures(turns: list[Turn], leaves: dict[str, int], extensions: int, extension_hours: int,
             timed: bool) -> dict[str, Any]:
    times = [t.seconds for t in turns if t.seconds is not None]
    doc: dict[str, Any] = {
        "moves": len(times),
        "median_seconds": median(times),
        "p90_seconds": p90(times),
        "last_hour": None, "late": None,
        "extensions": extensions, "extension_hours": extension_hours,
        "leave": len(leaves), "leave_days": sum(leaves.values()),
    }
    if timed:
        moved = [(t.moved_at, t.due_at) for t in turns if t.moved_at is not None and t.due_at is not None]
        doc["last_hour"] = sum(1 for at, due in moved if due - LAST_HOUR <= at <= due)
        doc["late"] = sum(1 for at, due in moved if at > due)
    waiting = next((t for t in turns if t.open), None)
    doc["waiting_since"] = stamp(waiting.started_at) if waiting else None
    return doc


def seat_doc(pace: SeatPace) -> dict[str, Any]:
    return _figures(pace.turns, pace.leaves, pace.extensions, pace.extension_hours, pace.timed)


def overall(paces: Sequence[SeatPace]) -> dict[str, Any]:
    """One player's seats across games: every response time pooled, each leave counted once;
    `last_hour` and `late` over the games under a time control (None if there is none)."""
    timed = any(p.timed for p in paces)
    turns: list[Turn] = []
    leaves: dict[str, int] = {}
    extensions = hours = 0
    for p in paces:
        turns += [t for t in p.turns if t.moved_at is not None]
        leaves.update(p.leaves)
        extensions += p.extensions
        hours += p.extension_hours
    doc = _figures(turns, leaves, extensions, hours, timed)
    del doc["waiting_since"]
    return doc


def player_pace(games: Sequence[tuple[str, Sequence[Event]]], control: dict[str, Any] | None = None,
                extensions: dict[str, list[tuple[datetime, int]]] | None = None) -> dict[str, Any]:
    """One player's record over (seat, events) of their games: {"overall", "games": {id: figures}}."""
    paces = []
    for seat, events in games:
        if events:
            ext = [(seat, at, h) for at, h in (extensions or {}).get(events[0].game_id, [])]
            p = game_pace(events, control, ext).get(seat)
            if p is not None:
                paces.append(p)
    return record(paces)


def record(paces: Sequence[SeatPace]) -> dict[str, Any]:
    """A player's record from their seats' paces (one per game)."""
    doc = overall(paces)
    doc["games"] = len(paces)
    return {"overall": doc, "games": {p.game_id: {"seat": p.seat, **seat_doc(p)} for p in paces}}


def tournament_pace(tournament_events: Sequence[Event], events_of: Callable[[str], Sequence[Event]],
                    players: Collection[str] | None = None) -> dict[str, Any]:
    """Every entrant's pace record in a tournament, from its stream and its games' streams
    (`events_of(game_id)`, each read once): {player_id: {"overall", "games"}}, in id order.
    `players`: only these entrants' (only their games are read)."""
    from warlog.tournaments.model import apply

    t = None
    for ev in tournament_events:
        t = apply(t, ev)
    if t is None:
        return {}
    control = dict(t.time_control or {}) or None
    granted: dict[str, list[tuple[str, datetime, int]]] = {}
    for number in sorted(t.rounds):
        for pairing in t.rounds[number].pairings:
            seat_of = {pid: seat for seat, pid in pairing.seats.items()}
            for e in t.extensions:
                if e.get("game_id") == pairing.game_id and e.get("player_id") in seat_of:
                    hours = int(e.get("days", 0)) * 24 + int(e.get("hours", 0))
                    granted.setdefault(str(pairing.game_id), []).append(
                        (seat_of[e["player_id"]], parse_time(e["at"]), hours))
    paces: dict[str, list[SeatPace]] = {}
    for number in sorted(t.rounds):
        for pairing in t.rounds[number].pairings:
            if not pairing.game_id or (players is not None and not set(pairing.seats.values()) & set(players)):
                continue
            seats = game_pace(events_of(pairing.game_id), control, granted.get(pairing.game_id, []))
            for seat, pid in sorted(pairing.seats.items()):
                if seat in seats and (players is None or pid in players):
                    paces.setdefault(pid, []).append(seats[seat])
    return {pid: record(mine) for pid, mine in sorted(paces.items())}
