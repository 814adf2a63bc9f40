"""Deadlines for play by e-mail: days per move, or a chess clock in days, kept in the database
and fired by a periodic sweep (so they survive restarts and crashes; nothing depends on a
Redis key or a timer in memory).

The clock is outside the rules: no rule of a game reads it. It only records acts, each with
its time, in `clock_acts` — a deadline set, a reminder sent, an automatic extension drawn from
the bank, an expiry under a policy, a deadline cleared by a move, a chess clock charged — and
tells whoever registered for them (`register_expiry_handler`): a tournament turns an expiry
into a forfeit or a director's task, and a timeout becomes a game result only by a ruling.

Policies on expiry: `notify_director` (record it; the handler tells the director), `forfeit`
(record it; the handler forfeits), `extend` (draw `extension_days` from the seat's bank and
carry on; when the bank is spent, apply the fallback `then`, one of the other two).
Deadlines are set and compared in the database's time, not the process's: a worker whose own
clock is more than `SKEW_TOLERANCE` off the database's fires nothing and says why (`skew`).
Tests inject the time source (`now`), so they move time without sleeping.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from psycopg import errors as pg_errors

from ledger.store import EventStore
from warlog.catalogs import N_, Words, words
from warlog.clock.schema import DDL
from warlog.clock.stops import StopsOf, due_after, used_between
from warlog.games.replay import seat_name
from warlog.notify.naming import game_named, game_titled, tagged
from warlog.ops.sqldb import Clock, SqlDb, Tx, iso, parse_iso, sortable_id, utc_now

log = logging.getLogger("warlog.clock")

MODES = ("per_move", "bank")
POLICIES = ("notify_director", "forfeit", "extend")
FALLBACKS = ("notify_director", "forfeit")
HANDLER_KINDS = ("notify_director", "forfeit", "extended")
DAY = 86400
_DEADLINE = ("game_id, seat, tournament_id, due_at, remind_at, reminded_at, policy, then_policy, status, "
             "started_at, closed_at")
_ACT = "id, game_id, seat, tournament_id, act, at, detail"


UNIQUE_VIOLATIONS = (sqlite3.IntegrityError, pg_errors.UniqueViolation)


class ClockError(ValueError):
    """A time control or deadline that cannot be set as asked."""


@dataclass(frozen=True)
class TimeControl:
    """`per_move`: `days` and `hours` for each move (a 36-hour move: days 1, hours 12, or days 0,
    hours 36), automatic extensions (policy `extend`) drawn from a reserve of `bank_days`.
    `bank`: a chess clock, `bank_days` per seat for the whole game, `increment_hours` added back
    after each move. A reminder `remind_hours` before the deadline, or halfway through a turn
    shorter than twice that (a one-day move with the default 24 hours is reminded 12 hours
    before), so every deadline that allows one has a reminder; 0: none."""

    mode: str = "per_move"
    days: int = 3
    bank_days: int = 0
    increment_hours: int = 0
    extension_days: int = 1
    remind_hours: int = 24
    policy: str = "notify_director"
    then: str = "notify_director"
    hours: int = 0

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ClockError(f"a time control's mode is one of {', '.join(MODES)}, not {self.mode!r}")
        if self.policy not in POLICIES or self.then not in FALLBACKS:
            raise ClockError(f"policy is one of {', '.join(POLICIES)} and then one of {', '.join(FALLBACKS)}")
        numbers = (self.days, self.bank_days, self.increment_hours, self.extension_days, self.remind_hours,
                   self.hours)
        if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 3650 for n in numbers):
            raise ClockError("days, hours, bank_days, increment_hours, extension_days and remind_hours are whole "
                             "numbers from 0 to 3650")
        if self.mode == "per_move" and self.days * 24 + self.hours < 1:
            raise ClockError("a move's time (days and hours) must be at least 1 hour")
        if self.mode == "bank" and self.bank_days < 1:
            raise ClockError("a chess clock needs a bank of at least 1 day")

    @property
    def move_time(self) -> timedelta:
        """The time for one move (per_move)."""
        return timedelta(days=self.days, hours=self.hours)

    def remind_before(self, turn: timedelta) -> timedelta | None:
        """How long before the deadline of a turn of length `turn` its reminder goes: `remind_hours`,
        or half the turn when that is shorter; None when reminders are off or the turn is too short
        to remind (under two minutes)."""
        if not self.remind_hours or turn < timedelta(minutes=2):
            return None
        return min(timedelta(hours=self.remind_hours), turn / 2)

    def to_json(self) -> dict[str, Any]:
        doc = asdict(self)
        if not self.hours:
            del doc["hours"]  # as time controls were recorded before hours existed
        return doc

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> TimeControl:
        try:
            return cls(**doc)
        except TypeError as err:
            raise ClockError(f"not a time control: {err}") from None


@dataclass(frozen=True)
class Deadline:
    game_id: str
    seat: str
    tournament_id: str | None
    due_at: str
    remind_at: str | None
    reminded_at: str | None
    policy: str
    then_policy: str
    status: str  # open | expired | cleared
    started_at: str
    closed_at: str | None

    def to_json(self, now: datetime) -> dict[str, Any]:
        return {"game_id": self.game_id, "seat": self.seat, "tournament_id": self.tournament_id,
                "due_at": self.due_at, "status": self.status, "policy": self.policy, "then": self.then_policy,
                "overdue": self.status == "expired" or (self.status == "open" and parse_iso(self.due_at) <= now)}


@dataclass(frozen=True)
class ClockAct:
    """One act of the clock, at its time. `act`: deadline_set, reminder_sent, extended, expired
    (detail.policy: notify_director | forfeit), cleared, bank_charged."""

    id: str
    game_id: str
    seat: str
    tournament_id: str | None
    act: str
    at: str
    detail: dict[str, Any]

    @property
    def handler_kind(self) -> str | None:
        if self.act == "extended":
            return "extended"
        if self.act == "expired":
            return str(self.detail["policy"])
        return None


Notify = Callable[[list[dict[str, Any]]], Any]  # Notifier.notify_many
BATCH = 200  # deadlines with an extension policy handled per transaction by the sweep
SKEW_TOLERANCE = timedelta(seconds=30)  # how far a process's clock may be off the database's before its sweep fires nothing


class GameClock:
    """`owners([(game_id, seat)]) -> {(game_id, seat): player id}` (PlayerStore.owners_of) and
    `notify` (Notifier.notify_many) tell players of reminders, extensions and expiries; both
    optional."""

    def __init__(self, db: SqlDb, store: EventStore, *, now: Clock | None = None,
                 owners: Callable[[list[tuple[str, str]]], dict[tuple[str, str], str]] | None = None,
                 notify: Notify | None = None,
                 base_url: Callable[[], str] = lambda: "",
                 host_now: Clock = utc_now, skew_tolerance: timedelta = SKEW_TOLERANCE) -> None:
        self.db, self.store = db, store
        # the time deadlines are set and compared with: the database's, unless a test injects one
        self.now: Clock = now if now is not None else db.now
        # this process's own clock, checked against the database's before a sweep fires anything
        self.host_now, self.skew_tolerance = host_now, skew_tolerance
        self.owners, self.notify = owners, notify
        self.base_url = base_url  # the site's address for links, read when a notice is made
        # a tournament's name for the subject of its games' notices (set by warlog.tournaments)
        self.tournament_name: Callable[[str], str | None] = lambda tid: None
        self._handlers: dict[str, list[Callable[[ClockAct], None]]] = {}
        # (game_id, seat, a, b) -> the stops of the seat's clock meeting [a, b) (warlog.clock.leave)
        self.stops: StopsOf | None = None

    def create_schema(self) -> None:
        self.db.create_schema(DDL)

    def register_expiry_handler(self, kind: str, fn: Callable[[ClockAct], None]) -> None:
        """Call `fn(act)` for each `kind` act: `forfeit` / `notify_director` (an expiry under that
        policy) or `extended`. At least once: a handler that raises is called again at the next
        sweep, so it must be idempotent (the act's id is stable)."""
        if kind not in HANDLER_KINDS:
            raise ClockError(f"expiry handlers are for {', '.join(HANDLER_KINDS)}, not {kind!r}")
        self._handlers.setdefault(kind, []).append(fn)

    # -- setting ---------------------------------------------------------------------------
    def set_time_control(self, game_id: str, control: TimeControl, tournament_id: str | None = None) -> None:
        """Put a game under `control`: each seat's deadline starts when its turn does (now, for
        the seats active already; the sweep sets them for a game that starts later)."""
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM clock_controls WHERE game_id = ?", (game_id,))
            tx.execute("INSERT INTO clock_controls (game_id, control, tournament_id, set_at) VALUES (?, ?, ?, ?)",
                       (game_id, json.dumps(control.to_json(), sort_keys=True), tournament_id, iso(self.now())))
        summary = self.store.summary(game_id)
        if summary is not None and summary.status == "active":
            for seat in summary.active_seats:
                self._start(game_id, seat, control, tournament_id)

    def time_control(self, game_id: str) -> tuple[TimeControl, str | None] | None:
        row = self.db.one("SELECT control, tournament_id FROM clock_controls WHERE game_id = ?", (game_id,))
        return (TimeControl.from_json(json.loads(row[0])), row[1]) if row else None

    def set_deadline(self, game_id: str, seat: str, due_at: datetime, policy: str,
                     tournament_id: str | None = None, *, then: str = "notify_director",
                     remind_before: timedelta | None = timedelta(hours=24)) -> Deadline:
        """Set (or replace) the seat's deadline directly: due at `due_at`, `policy` on expiry
        (`extend` draws from the seat's bank, see `set_bank`, then applies `then`)."""
        if policy not in POLICIES or then not in FALLBACKS:
            raise ClockError(f"policy is one of {', '.join(POLICIES)} and then one of {', '.join(FALLBACKS)}")
        now = self.now()
        remind = due_at - remind_before if remind_before is not None else None
        with self.db.transaction() as tx:
            self._put(tx, game_id, seat, tournament_id, due_at, remind if remind and remind > now else None,
                      policy, then, now)
        found = self.deadline(game_id, seat)
        assert found is not None
        return found

    def set_bank(self, game_id: str, seat: str, seconds: int) -> None:
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM clock_banks WHERE game_id = ? AND seat = ?", (game_id, seat))
            tx.execute("INSERT INTO clock_banks (game_id, seat, seconds) VALUES (?, ?, ?)",
                       (game_id, seat, max(0, int(seconds))))

    def bank(self, game_id: str, seat: str) -> int | None:
        row = self.db.one("SELECT seconds FROM clock_banks WHERE game_id = ? AND seat = ?", (game_id, seat))
        return int(row[0]) if row else None

    def _put(self, tx: Tx, game_id: str, seat: str, tournament_id: str | None, due: datetime,
             remind: datetime | None, policy: str, then: str, now: datetime) -> None:
        tx.execute("DELETE FROM clock_deadlines WHERE game_id = ? AND seat = ?", (game_id, seat))
        tx.execute(f"INSERT INTO clock_deadlines ({_DEADLINE}) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, 'open', ?, NULL)",
                   (game_id, seat, tournament_id, iso(due), iso(remind) if remind else None, policy, then, iso(now)))
        self._act(tx, game_id, seat, tournament_id, "deadline_set", now,
                  {"due_at": iso(due), "policy": policy, "then": then})

    def _start(self, game_id: str, seat: str, control: TimeControl, tournament_id: str | None) -> None:
        """The seat's turn has started: its deadline under `control` (kept if one is open)."""
        try:
            self._start_once(game_id, seat, control, tournament_id)
        except UNIQUE_VIOLATIONS:
            log.info("game %s seat %s: another process started this deadline first", game_id, seat)

    def _start_once(self, game_id: str, seat: str, control: TimeControl, tournament_id: str | None) -> None:
        now = self.now()
        with self.db.transaction() as tx:
            row = tx.one("SELECT status FROM clock_deadlines WHERE game_id = ? AND seat = ?", (game_id, seat))
            if row is not None and row[0] == "open":
                return
            bank = tx.one("SELECT seconds FROM clock_banks WHERE game_id = ? AND seat = ?", (game_id, seat))
            if bank is None:
                seconds = control.bank_days * DAY
                tx.execute("INSERT INTO clock_banks (game_id, seat, seconds) VALUES (?, ?, ?)",
                           (game_id, seat, seconds))
            else:
                seconds = int(bank[0])
            turn = timedelta(seconds=seconds) if control.mode == "bank" else control.move_time
            # the seat's own time: leave, pauses and quiet days are skipped (warlog.clock.stops)
            due = due_after(self.stops, game_id, seat, now, int(turn.total_seconds()))
            before = control.remind_before(turn)
            remind = due - before if before is not None else None
            policy = control.policy if control.mode == "per_move" else (
                control.then if control.policy == "extend" else control.policy)
            self._put(tx, game_id, seat, tournament_id, due, remind if remind and remind > now else None,
                      policy, control.then, now)

    def clear(self, game_id: str, seat: str) -> None:
        """The seat has moved (or the game ended): its open deadline is cleared; a chess clock
        is charged the time the turn took, less the increment."""
        if self.db.one("SELECT 1 FROM clock_deadlines WHERE game_id = ? AND seat = ? AND status = 'open'",
                       (game_id, seat)) is None:
            return  # the common case (no clock on this game): a read, no write transaction
        now = self.now()
        ctl = self.time_control(game_id)
        with self.db.transaction() as tx:
            row = tx.one("SELECT started_at, tournament_id FROM clock_deadlines WHERE game_id = ? AND seat = ? "
                         "AND status = 'open'", (game_id, seat))
            if row is None:
                return
            tx.execute("UPDATE clock_deadlines SET status = 'cleared', closed_at = ? WHERE game_id = ? AND seat = ? "
                       "AND status = 'open'", (iso(now), game_id, seat))
            self._act(tx, game_id, seat, row[1], "cleared", now, {})
            if ctl is not None and ctl[0].mode == "bank":
                used = used_between(self.stops, game_id, seat, parse_iso(row[0]), now)  # never leave or a pause
                bank = tx.one("SELECT seconds FROM clock_banks WHERE game_id = ? AND seat = ?", (game_id, seat))
                left = max(0, (int(bank[0]) if bank else 0) - used) + ctl[0].increment_hours * 3600
                tx.execute("UPDATE clock_banks SET seconds = ? WHERE game_id = ? AND seat = ?", (left, game_id, seat))
                self._act(tx, game_id, seat, row[1], "bank_charged", now, {"used_seconds": used, "bank_seconds": left})

    # -- the resolver's hook -----------------------------------------------------------------
    def on_judged(self, judged: Any) -> None:
        """After a judgement (warlog.judging.resolver.Judged): clear the deadlines of the seats whose turn
        ended, start those of the seats whose turn began (games under a time control)."""
        ended = judged.outcome is not None
        for seat in judged.before:
            if ended or seat not in judged.after:
                self.clear(judged.game_id, seat)
        if ended:
            for seat in judged.after:
                self.clear(judged.game_id, seat)
            return
        ctl = self.time_control(judged.game_id)
        if ctl is None:
            return
        for seat in judged.after:
            if seat not in judged.before:
                self._start(judged.game_id, seat, ctl[0], ctl[1])

    # -- the sweep ---------------------------------------------------------------------------
    def sweep(self) -> dict[str, int]:
        """Retry handlers that failed, catch up with games that started or moved unseen, send
        due reminders, fire due expiries. Safe to run in several workers at once: each deadline
        is claimed by a conditional UPDATE (one statement for all the due reminders, one for all
        the due expiries that need no bank); the players are told, and the handlers called,
        after the claim commits."""
        skew = self.skew()
        if skew is not None:
            log.warning("clock sweep fired nothing: this process's clock is %+.0f s off the database's "
                        "(tolerance %.0f s); fix its time (NTP) and the next sweep catches up",
                        skew, self.skew_tolerance.total_seconds())
            return {"handled": 0, "started": 0, "reminded": 0, "extended": 0, "expired": 0, "skew_seconds": round(skew)}
        counts = {"handled": self._retry_handlers(),  # first: a handler that failed gets a sweep's rest
                  "started": self._catch_up(), "reminded": 0, "extended": 0, "expired": 0}
        now = self.now()
        done: list[tuple[Deadline, ClockAct]] = []
        with self.db.transaction() as tx:
            claimed = self._claimed(tx, "SET reminded_at = ? WHERE status = 'open' AND reminded_at IS NULL AND "
                                        "remind_at IS NOT NULL AND remind_at <= ? AND due_at > ?", now, 3)
            done += self._acts(tx, [(d, "reminder_sent", {"due_at": d.due_at}) for d in claimed], now)
        with self.db.transaction() as tx:
            claimed = self._claimed(tx, "SET status = 'expired', closed_at = ? WHERE status = 'open' AND "
                                        "due_at <= ? AND policy <> 'extend'", now, 2)
            done += self._acts(tx, [(d, "expired", {"policy": d.policy, "due_at": d.due_at}) for d in claimed], now)
        extend = self.db.rows("SELECT game_id, seat FROM clock_deadlines WHERE status = 'open' AND due_at <= ? "
                              "AND policy = 'extend' ORDER BY due_at, game_id, seat", (iso(now),))
        controls: dict[str, TimeControl | None] = {}
        for start in range(0, len(extend), BATCH):
            with self.db.transaction() as tx:
                for game_id, seat in extend[start:start + BATCH]:
                    found = self._expire(tx, game_id, seat, now, controls)
                    if found is not None:
                        done.append(found)
        self._tell([self._notice(d, act, *self._named(d)) for d, act in done])
        for _, act in done:
            counts[{"reminder_sent": "reminded"}.get(act.act, act.act)] += 1
            self._run_handlers(act)
        return counts

    def skew(self) -> float | None:
        """Seconds by which this process's clock is off the database's, when more than the
        tolerance (else None). A worker on a host whose clock jumped must not forfeit a game early
        (an expiry cannot be taken back) nor send reminders late: its sweep fires nothing."""
        offset = (self.host_now() - self.db.now()).total_seconds()
        return offset if abs(offset) > self.skew_tolerance.total_seconds() else None

    def _claimed(self, tx: Tx, update: str, now: datetime, nows: int) -> list[Deadline]:
        """UPDATE the deadlines `update` selects and return them (claimed: a concurrent sweeper's
        UPDATE waits, then finds them no longer matching), in due order."""
        rows = tx.rows(f"UPDATE clock_deadlines {update} RETURNING {_DEADLINE}", (iso(now),) * nows)
        return sorted((Deadline(*r) for r in rows), key=lambda d: (d.due_at, d.game_id, d.seat))

    def _acts(self, tx: Tx, items: list[tuple[Deadline, str, dict[str, Any]]],
              now: datetime) -> list[tuple[Deadline, ClockAct]]:
        """Record many acts in one statement."""
        out = []
        for d, act, detail in items:
            rec = ClockAct(sortable_id("k"), d.game_id, d.seat, d.tournament_id, act, iso(now), detail)
            out.append((d, rec))
        if out:
            tx.executemany(f"INSERT INTO clock_acts ({_ACT}, handled) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           [(a.id, a.game_id, a.seat, a.tournament_id, a.act, a.at, json.dumps(a.detail, sort_keys=True),
                             0 if a.handler_kind and self._handlers.get(a.handler_kind) else 1) for _, a in out])
        return out

    def _catch_up(self) -> int:
        """Games under a time control whose active seats have no deadline (a game that started,
        a turn the hook missed); deadlines of ended games cleared."""
        games = self.db.rows("SELECT c.game_id, c.control, c.tournament_id, g.status, g.active_seats "
                             "FROM clock_controls c JOIN games g ON g.game_id = c.game_id WHERE g.status <> 'waiting'")
        if not games:
            return 0
        rows = self.db.rows("SELECT d.game_id, d.seat, d.status FROM clock_deadlines d JOIN clock_controls c "
                            "ON c.game_id = d.game_id")
        state: dict[str, dict[str, str]] = {}
        for g, seat, st in rows:
            state.setdefault(g, {})[seat] = st
        started = 0
        for game_id, control, tournament_id, status, active_json in games:
            active = set(json.loads(active_json)) if status == "active" else set()
            seats = state.get(game_id, {})
            for seat, st in sorted(seats.items()):
                if st == "open" and seat not in active:
                    self.clear(game_id, seat)
            for seat in sorted(active):
                if seats.get(seat) in (None, "cleared"):
                    self._start(game_id, seat, TimeControl.from_json(json.loads(control)), tournament_id)
                    started += 1
        return started

    def _expire(self, tx: Tx, game_id: str, seat: str, now: datetime,
                controls: dict[str, TimeControl | None]) -> tuple[Deadline, ClockAct] | None:
        d = self._deadline(tx, game_id, seat)
        if d is None or d.status != "open" or parse_iso(d.due_at) > now:
            return None  # another sweeper got there, or a move came in
        policy = d.policy
        if policy == "extend":
            if game_id not in controls:
                found = self.time_control(game_id)
                controls[game_id] = found[0] if found else None
            drawn = self._draw(tx, d, now, controls[game_id])
            if drawn is None:
                return None  # claimed by another sweeper
            granted, due = drawn
            if granted:
                return d, self._act(tx, game_id, seat, d.tournament_id, "extended", now,
                                    {"granted_seconds": granted, "due_at": iso(due),
                                     "bank_seconds": self._bank(tx, game_id, seat)})
            policy = d.then_policy
        if tx.execute("UPDATE clock_deadlines SET status = 'expired', closed_at = ? WHERE game_id = ? "
                      "AND seat = ? AND status = 'open' AND due_at = ?", (iso(now), game_id, seat, d.due_at)) != 1:
            return None  # claimed by another sweeper
        return d, self._act(tx, game_id, seat, d.tournament_id, "expired", now, {"policy": policy, "due_at": d.due_at})

    def _named(self, d: Deadline) -> tuple[Words, Words, Words]:
        """The deadline's game by its titles (a subject's words), by its titles and id (a text's), and
        its seat by the game's name for it."""
        summary = self.store.summary(d.game_id)
        return (game_titled(self.store, d.game_id), game_named(self.store, d.game_id),
                words(seat_name(d.seat, summary.game if summary else None)))

    @staticmethod
    def _notice(d: Deadline, act: ClockAct, title: Words, named: Words, seat: Words
                ) -> tuple[Deadline, str, Words, Words]:
        """What the seat's player is told of an act: (deadline, kind, subject, text), said in the
        player's language when it is recorded (warlog.catalogs.Words). The subject names the game
        by its titles, its id at the end (warlog.notify.naming)."""
        g = d.game_id
        if act.act == "reminder_sent":
            return d, "deadline_soon", tagged(words("Deadline soon: %(game)s", game=title), g), words(
                "Your move (%(seat)s) in the %(game)s is due by %(due)s (UTC).", seat=seat, game=named, due=d.due_at)
        if act.act == "extended":
            return d, "deadline_passed", tagged(words("Deadline extended: %(game)s", game=title), g), words(
                "Your time (%(seat)s) in the %(game)s ran out; %(hours)s hours were drawn from your bank. "
                "New deadline: %(due)s (UTC).", seat=seat, game=named, hours=act.detail["granted_seconds"] // 3600,
                due=act.detail["due_at"])
        text = (N_("Your time (%(seat)s) in the %(game)s ran out at %(due)s (UTC): the game is forfeited.")
                if act.detail["policy"] == "forfeit" else
                N_("Your time (%(seat)s) in the %(game)s ran out at %(due)s (UTC): the director has been told."))
        return d, "deadline_passed", tagged(words("Time is up: %(game)s", game=title), g), words(
            text, seat=seat, game=named, due=d.due_at)

    def _draw(self, tx: Tx, d: Deadline, now: datetime,
              ctl: TimeControl | None) -> tuple[int, datetime] | None:
        """Draw one extension from the seat's bank: (seconds granted, new due time); (0, …) when
        the bank is empty; None when another sweeper claimed this expiry first."""
        step = (ctl.extension_days if ctl else 1) * DAY
        bank = self._bank(tx, d.game_id, d.seat)
        granted = min(step, bank)
        if granted <= 0:
            return 0, parse_iso(d.due_at)
        due = max(parse_iso(d.due_at), now) + timedelta(seconds=granted)
        before = (ctl or TimeControl()).remind_before(due - now)
        remind = due - before if before is not None else None
        if tx.execute("UPDATE clock_deadlines SET due_at = ?, remind_at = ?, reminded_at = NULL WHERE game_id = ? "
                      "AND seat = ? AND status = 'open' AND due_at = ?",
                      (iso(due), iso(remind) if remind and remind > now else None, d.game_id, d.seat,
                       d.due_at)) != 1:
            return None
        tx.execute("UPDATE clock_banks SET seconds = seconds - ? WHERE game_id = ? AND seat = ?",
                   (granted, d.game_id, d.seat))
        return granted, due

    @staticmethod
    def _bank(tx: Tx, game_id: str, seat: str) -> int:
        row = tx.one("SELECT seconds FROM clock_banks WHERE game_id = ? AND seat = ?", (game_id, seat))
        return int(row[0]) if row else 0

    # -- acts and handlers ---------------------------------------------------------------------
    def _act(self, tx: Tx, game_id: str, seat: str, tournament_id: str | None, act: str, at: datetime,
             detail: dict[str, Any]) -> ClockAct:
        rec = ClockAct(sortable_id("k"), game_id, seat, tournament_id, act, iso(at), detail)
        handled = 0 if rec.handler_kind and self._handlers.get(rec.handler_kind) else 1
        tx.execute(f"INSERT INTO clock_acts ({_ACT}, handled) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (rec.id, game_id, seat, tournament_id, act, rec.at, json.dumps(detail, sort_keys=True), handled))
        return rec

    def _run_handlers(self, act: ClockAct) -> bool:
        kind = act.handler_kind
        fns = self._handlers.get(kind, []) if kind else []
        if not fns:
            return True
        try:
            for fn in fns:
                fn(act)
        except Exception:
            log.exception("clock act %s (%s): a handler failed; the next sweep calls it again", act.id, kind)
            return False
        self.db.execute("UPDATE clock_acts SET handled = 1 WHERE id = ?", (act.id,))
        return True

    def _retry_handlers(self) -> int:
        rows = self.db.rows(f"SELECT {_ACT} FROM clock_acts WHERE handled = 0 ORDER BY id")
        return sum(self._run_handlers(self._act_row(r)) for r in rows)

    @staticmethod
    def _act_row(row: tuple[Any, ...]) -> ClockAct:
        return ClockAct(*row[:6], json.loads(row[6]))

    def acts(self, game_id: str | None = None, tournament_id: str | None = None) -> list[ClockAct]:
        """Every act, oldest first, of a game and/or a tournament."""
        rows = self.db.rows(f"SELECT {_ACT} FROM clock_acts WHERE (CAST(? AS TEXT) IS NULL OR game_id = ?) "
                            "AND (CAST(? AS TEXT) IS NULL OR tournament_id = ?) ORDER BY id",
                            (game_id, game_id, tournament_id, tournament_id))
        return [self._act_row(r) for r in rows]

    # -- reading -------------------------------------------------------------------------------
    def _deadline(self, tx: Tx, game_id: str, seat: str) -> Deadline | None:
        row = tx.one(f"SELECT {_DEADLINE} FROM clock_deadlines WHERE game_id = ? AND seat = ?", (game_id, seat))
        return Deadline(*row) if row else None

    def deadline(self, game_id: str, seat: str) -> Deadline | None:
        row = self.db.one(f"SELECT {_DEADLINE} FROM clock_deadlines WHERE game_id = ? AND seat = ?", (game_id, seat))
        return Deadline(*row) if row else None

    def deadline_json(self, game_id: str, seat: str) -> dict[str, Any] | None:
        """For "my games": the seat's open or expired deadline, None when it has none."""
        d = self.deadline(game_id, seat)
        return d.to_json(self.now()) if d is not None and d.status != "cleared" else None

    def deadlines(self, tournament_id: str | None = None, status: str | None = "open") -> list[Deadline]:
        rows = self.db.rows(f"SELECT {_DEADLINE} FROM clock_deadlines WHERE (CAST(? AS TEXT) IS NULL OR "
                            "tournament_id = ?) AND (CAST(? AS TEXT) IS NULL OR status = ?) ORDER BY due_at, game_id, "
                            "seat", (tournament_id, tournament_id, status, status))
        return [Deadline(*r) for r in rows]

    def overdue(self, tournament_id: str | None = None) -> list[Deadline]:
        """Expired deadlines, and open ones past due that the sweep has not reached yet."""
        now = self.now()
        return [d for d in self.deadlines(tournament_id, status=None)
                if d.status == "expired" or (d.status == "open" and parse_iso(d.due_at) <= now)]

    def _tell(self, notices: list[tuple[Deadline, str, Words, Words]]) -> None:
        """Record the players' notices in one go (never raises: the acts are already recorded)."""
        if self.owners is None or self.notify is None or not notices:
            return
        try:
            base = self.base_url().rstrip("/")
            owners = self.owners(sorted({(d.game_id, d.seat) for d, *_ in notices}))
            names = {tid: self.tournament_name(tid) for tid in {d.tournament_id for d, *_ in notices} if tid}
            batch = [{"player_id": owners[(d.game_id, d.seat)], "kind": kind,
                      "subject": names.get(d.tournament_id or "", "") + ": " + subject
                      if names.get(d.tournament_id or "") else subject,
                      "text": text,
                      "game_id": d.game_id, "tournament_id": d.tournament_id,
                      "link": f"{base}/games/{d.game_id}" if base else None}
                     for d, kind, subject, text in notices if (d.game_id, d.seat) in owners]
            self.notify(batch)
        except Exception:
            log.exception("could not record %d clock notice(s)", len(notices))
