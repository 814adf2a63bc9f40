"""Time away from the board: leave, pauses and quiet days. Each stops a seat's clock
(warlog.clock.stops): a deadline moves by the stopped time that falls before it, a chess clock
is never charged for it.

* Leave: a player declares a block (from–to, whole UTC days) once, for all their games. The
  allowance (`LeavePolicy`) is the server's, and a tournament may set its own for its games:
  days per year, minimum block, notice, how many players of one game may be away at once.
  A director may grant extra days, with a reason. Declared, granted and ended leave is recorded
  in the player's record (`away_leaves`, `away_grants`) and as events beside the play in each
  game of the player (`leave_declared`, `leave_ended`, `leave_granted`); opponents are told.
* Pauses: a seat asks, every other seat agrees, and the game's clocks stop until either resumes
  (`pause_asked`, `pause_agreed`, `pause_ended`; warlog.clock.pauses).
* Quiet days: a player's weekly hours off (UTC) during which their clock does not run, in games
  whose policy allows them (up to `quiet_hours_per_week`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from ledger.events import (
    DIRECTOR,
    LEAVE_DECLARED,
    LEAVE_ENDED,
    LEAVE_GRANTED,
    NewEvent,
)
from ledger.store import Conflict, EventStore
from warlog.catalogs import Words, words
from warlog.clock.away_schema import DDL
from warlog.clock.clock import GameClock
from warlog.clock.pauses import AwayConflict, Pauses
from warlog.clock.stops import DAYS, PAUSED, Stop, due_after, running_seconds, weekly_seconds, weekly_windows
from warlog.notify.naming import game_titled, tagged
from warlog.ops.sqldb import iso, parse_iso, sortable_id
from warlog.players.store import PlayerError, PlayerStore

log = logging.getLogger("warlog.clock.leave")
ROUND_POLICIES = ("extend", "keep")


class AwayRefused(PlayerError):
    """Leave, a pause or quiet days refused under the rules of the allowance (HTTP 422)."""

    status = 422


@dataclass(frozen=True)
class LeavePolicy:
    """A server's or a tournament's allowance. `round_deadlines`: whether a tournament's round
    deadlines are extended by its players' leave (`extend`) or not (`keep`)."""

    days_per_year: int = 42
    min_block_days: int = 7
    notice_days: int = 1
    max_away_per_game: int = 1
    quiet_hours_per_week: int = 48
    round_deadlines: str = "extend"

    def __post_init__(self) -> None:
        numbers = (self.days_per_year, self.min_block_days, self.notice_days, self.max_away_per_game,
                   self.quiet_hours_per_week)
        if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 366 for n in numbers):
            raise AwayRefused("days_per_year, min_block_days, notice_days, max_away_per_game and "
                              "quiet_hours_per_week are whole numbers from 0 to 366")
        if self.quiet_hours_per_week > 72:
            raise AwayRefused("quiet hours are at most 72 a week (a clock must run most of the week)")
        if self.round_deadlines not in ROUND_POLICIES:
            raise AwayRefused(f"round_deadlines is one of {', '.join(ROUND_POLICIES)}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Leave:
    id: str
    player_id: str
    starts_at: str
    ends_at: str
    days: int
    declared_at: str
    ended_told: int

    def to_json(self) -> dict[str, Any]:
        last = (parse_iso(self.ends_at) - timedelta(seconds=1)).date().isoformat()
        return {"id": self.id, "from": self.starts_at, "to": self.ends_at, "last_day": last, "days": self.days,
                "declared_at": self.declared_at, "ended": bool(self.ended_told)}


_LEAVE = "id, player_id, starts_at, ends_at, days, declared_at, ended_told"
Append = Callable[[str, NewEvent], int]  # (game_id, event) -> seq: Warlog._append_beside
Tell = Callable[[list[dict[str, Any]]], Any]  # Notifier.notify_many


def store_appender(store: EventStore) -> Append:
    """Append an event beside the play at the end of a game's stream, whatever came before it."""

    def append(game_id: str, event: NewEvent) -> int:
        while True:
            last = store.last_seq(game_id)
            try:
                return store.append(game_id, last, [event])[-1].seq
            except Conflict:
                continue

    return append


class AwayBook(Pauses):
    """Leave, pauses and quiet days on the clock's database; `install()` makes the clock skip them."""

    def __init__(self, clock: GameClock, players: PlayerStore, append: Append, notify: Tell | None = None,
                 base_url: Callable[[], str] = lambda: "") -> None:
        self.clock, self.db, self.players = clock, clock.db, players
        self.append, self.notify, self.base_url = append, notify, base_url
        # (game_id, tournament_id) -> player ids of the directors to tell (a tournament registers it)
        self.directors_of: Callable[[str, str | None], list[str]] | None = None
        # fn("declared" | "ended", leave, [(game_id, seat)]): a tournament records the leave in its
        # stream and, under its policy's round_deadlines `extend`, moves its round deadlines
        self.listeners: list[Callable[[str, Leave, list[tuple[str, str]]], None]] = []

    def create_schema(self) -> None:
        self.db.create_schema(DDL)

    def install(self) -> None:
        self.clock.stops = self.stops_of

    def now(self) -> datetime:
        return self.clock.now()

    # -- policies --------------------------------------------------------------------------------
    def set_policy(self, policy: LeavePolicy, tournament_id: str | None = None) -> None:
        scope = tournament_id or "server"
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM away_policies WHERE scope = ?", (scope,))
            tx.execute("INSERT INTO away_policies (scope, policy, set_at) VALUES (?, ?, ?)",
                       (scope, json.dumps(policy.to_json(), sort_keys=True), iso(self.now())))

    def policy(self, tournament_id: str | None = None) -> LeavePolicy:
        """The tournament's allowance if it set one, else the server's (else the defaults)."""
        for scope in ([tournament_id] if tournament_id else []) + ["server"]:
            row = self.db.one("SELECT policy FROM away_policies WHERE scope = ?", (scope,))
            if row:
                return LeavePolicy(**json.loads(row[0]))
        return LeavePolicy()

    def _game_policy(self, game_id: str) -> tuple[LeavePolicy, str | None]:
        ctl = self.clock.time_control(game_id)
        tournament = ctl[1] if ctl else None
        return self.policy(tournament), tournament

    # -- the stops of a seat's clock ---------------------------------------------------------------
    def stops_of(self, game_id: str, seat: str, a: datetime, b: datetime) -> list[Stop]:
        """Leave of the seat's player, the game's pauses, the player's quiet hours (if the game's
        policy allows them), meeting [a, b)."""
        out: list[Stop] = []
        for paused, ended in self.db.rows("SELECT paused_at, ended_at FROM away_pauses WHERE game_id = ? "
                                          "AND paused_at IS NOT NULL AND paused_at < ? AND (ended_at IS NULL "
                                          "OR ended_at > ?)", (game_id, iso(b), iso(a))):
            out.append((parse_iso(paused), parse_iso(ended) if ended else None))
        player = self.players.owner(game_id, seat)
        if player is None:
            return out
        leave = self.db.rows("SELECT starts_at, ends_at FROM away_leaves WHERE player_id = ? AND "
                             "starts_at < ? AND ends_at > ?", (player, iso(b), iso(a)))
        spec = self.quiet(player)
        if leave and not self._keeps_deadlines(game_id):  # a tournament that keeps its round deadlines runs
            out += [(parse_iso(start), parse_iso(end)) for start, end in leave]  # its games' clocks through leave
        if spec:
            policy, _ = self._game_policy(game_id)
            if weekly_seconds(spec) <= policy.quiet_hours_per_week * 3600:
                out += weekly_windows(spec, a, b)
        return out

    def _retime(self, games: list[str], change: Callable[[], None], why: str,
                seats: dict[str, set[str]] | None = None) -> None:
        """Run `change` (which adds or ends a stop) and move the open deadlines of `games`
        (of `seats[game]` only, if given) so that each keeps the running time it had left."""
        now = self.now()
        before: dict[tuple[str, str], int] = {}
        for game_id in games:
            for d in self._open(game_id):
                if seats is not None and d.seat not in seats.get(game_id, set()):
                    continue
                due = parse_iso(d.due_at)
                if due != PAUSED:
                    before[(game_id, d.seat)] = running_seconds(self.stops_of(game_id, d.seat, now, due), now, due) \
                        if due > now else 0
        change()
        for (game_id, seat), left in sorted(before.items()):
            if left > 0:
                self._move(game_id, seat, due_after(self.stops_of, game_id, seat, now, left), why)

    def _open(self, game_id: str) -> list[Any]:
        return [d for d in self.clock.deadlines(status="open") if d.game_id == game_id]

    def _move(self, game_id: str, seat: str, due: datetime, why: str) -> None:
        """Set an open deadline's due time, and its reminder the time control's hours before it
        (again, if one was sent before the move)."""
        d = self.clock.deadline(game_id, seat)
        if d is None or d.status != "open" or d.due_at == iso(due):
            return
        now = self.now()
        ctl = self.clock.time_control(game_id)
        lead = timedelta(hours=ctl[0].remind_hours) if ctl and ctl[0].remind_hours else (
            parse_iso(d.due_at) - parse_iso(d.remind_at) if d.remind_at else None)
        remind = due - lead if lead is not None and due != PAUSED and due - lead > now else None
        with self.db.transaction() as tx:
            if tx.execute("UPDATE clock_deadlines SET due_at = ?, remind_at = ?, reminded_at = NULL WHERE game_id = ? "
                          "AND seat = ? AND status = 'open' AND due_at = ?",
                          (iso(due), iso(remind) if remind else None, game_id, seat, d.due_at)) == 1:
                self.clock._act(tx, game_id, seat, d.tournament_id, "retimed", now,
                                {"due_at": iso(due), "was": d.due_at, "why": why})

    # -- leave -------------------------------------------------------------------------------------
    def leaves(self, player_id: str) -> list[Leave]:
        return [Leave(*r) for r in self.db.rows(f"SELECT {_LEAVE} FROM away_leaves WHERE player_id = ? "
                                                "ORDER BY starts_at", (player_id,))]

    def grants(self, player_id: str) -> list[dict[str, Any]]:
        return [{"year": r[0], "days": r[1], "reason": r[2], "granted_by": r[3], "game_id": r[4], "at": r[5]}
                for r in self.db.rows("SELECT year, days, reason, granted_by, game_id, at FROM away_grants "
                                      "WHERE player_id = ? ORDER BY at", (player_id,))]

    def allowance(self, player_id: str, year: int, policy: LeavePolicy | None = None) -> dict[str, int]:
        """Days of leave a player has in `year`: the policy's, granted, taken (declared blocks
        starting that year), left."""
        policy = policy or self.policy()
        granted = sum(g["days"] for g in self.grants(player_id) if g["year"] == year)
        taken = self._taken(player_id, year)
        total = policy.days_per_year + granted
        return {"year": year, "days_per_year": policy.days_per_year, "granted": granted, "taken": taken,
                "left": max(0, total - taken)}

    def _taken(self, player_id: str, year: int) -> int:
        return sum(lv.days for lv in self.leaves(player_id) if lv.starts_at.startswith(f"{year:04d}-"))

    def _games(self, player_id: str) -> list[tuple[str, str]]:
        """The player's seats in games that have not ended."""
        out = []
        for game_id, seat in self.players.seats_of(player_id):
            summary = self.clock.store.summary(game_id)
            if summary is not None and summary.status != "ended":
                out.append((game_id, seat))
        return out

    def declare(self, player_id: str, first: date, last: date) -> Leave:
        """Leave from the start of `first` to the end of `last` (UTC), for all the player's games.
        AwayRefused (422) when the server's allowance, or that of a tournament one of the games
        is in, does not allow it."""
        if last < first:
            raise AwayRefused("the leave ends before it starts: 'to' is the last day away, on or after 'from'")
        start = datetime(first.year, first.month, first.day, tzinfo=UTC)
        end = datetime(last.year, last.month, last.day, tzinfo=UTC) + timedelta(days=1)
        days = (last - first).days + 1
        now = self.now()
        games = self._games(player_id)
        scopes: dict[str | None, LeavePolicy] = {None: self.policy()}
        for game_id, _ in games:
            policy, tournament = self._game_policy(game_id)
            scopes.setdefault(tournament, policy)
        mine = self.leaves(player_id)
        if any(parse_iso(lv.starts_at) < end and parse_iso(lv.ends_at) > start for lv in mine):
            raise AwayRefused("this leave overlaps leave you have declared already")
        for tournament, policy in scopes.items():
            where = f"tournament {tournament}'s" if tournament else "this server's"
            if policy.days_per_year == 0:
                raise AwayRefused(f"{where} rules allow no leave")
            if days < policy.min_block_days:
                raise AwayRefused(f"{where} rules take leave in blocks of at least {policy.min_block_days} days; "
                                  f"this one is {days}")
            if start < now + timedelta(days=policy.notice_days) and (policy.notice_days or first < now.date()):
                raise AwayRefused(f"{where} rules want leave declared at least {policy.notice_days} day(s) before "
                                  f"it starts (the earliest start now is "
                                  f"{(now + timedelta(days=policy.notice_days)).date().isoformat()} or the day after)")
            left = self.allowance(player_id, first.year, policy)["left"]
            if days > left:
                raise AwayRefused(f"{where} rules allow {policy.days_per_year} days of leave a year (plus any "
                                  f"granted); {left} are left in {first.year}, and this leave is {days}")
        for game_id, seat in games:
            policy, _ = self._game_policy(game_id)
            others = [p for s, p in self.players.owners(game_id).items() if s != seat]
            away = sum(1 for p in others if any(parse_iso(lv.starts_at) < end and parse_iso(lv.ends_at) > start
                                                for lv in self.leaves(p)))
            if away + 1 > policy.max_away_per_game:
                raise AwayRefused(f"game {game_id} allows {policy.max_away_per_game} player(s) on leave at once, and "
                                  f"{away} already will be then")
        start = max(start, now.replace(microsecond=0))  # no notice asked: leave starts today, never before now
        leave = Leave(sortable_id("v"), player_id, iso(start), iso(end), days, iso(now), 0)

        # The days the strictest allowance gives this year, whatever is taken: read as one figure
        # (left + taken from two reads let a declaration committed between them count twice).
        granted = sum(g["days"] for g in self.grants(player_id) if g["year"] == first.year)
        least_left = min(p.days_per_year for p in scopes.values()) + granted

        def insert() -> None:
            """Checked again under the player's lock: two declarations at once cannot both pass."""
            with self.db.transaction() as tx:
                if self.db.dialect == "postgresql":
                    tx.execute("SELECT id FROM players WHERE id = ? FOR UPDATE", (player_id,))
                if tx.one("SELECT 1 FROM away_leaves WHERE player_id = ? AND starts_at < ? AND ends_at > ?",
                          (player_id, leave.ends_at, leave.starts_at)):
                    raise AwayRefused("this leave overlaps leave you have declared already")
                taken = tx.one("SELECT COALESCE(SUM(days), 0) FROM away_leaves WHERE player_id = ? AND starts_at "
                               "LIKE ?", (player_id, f"{first.year:04d}-%"))
                if int(taken[0] if taken else 0) + days > least_left:
                    raise AwayRefused("another declaration of yours took these days meanwhile; look again")
                tx.execute(f"INSERT INTO away_leaves ({_LEAVE}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (leave.id, player_id, leave.starts_at, leave.ends_at, days, leave.declared_at, 0))

        self._retime([g for g, _ in games], insert, "leave", {g: {s} for g, s in games})
        name = self._name(player_id)
        for game_id, seat in games:
            self.append(game_id, NewEvent(LEAVE_DECLARED, seat, {"from": leave.starts_at, "to": leave.ends_at,
                                                                 "leave": leave.id}))
        self._announce("declared", leave, games)
        kept = [(g, s) for g, s in games if self._keeps_deadlines(g)]
        said = words("%(name)s will be on leave from %(start)s to %(end)s (UTC). ", name=name,
                     start=leave.starts_at, end=leave.ends_at)
        self._tell([gs for gs in games if gs not in kept], player_id, words("%(name)s will be on leave", name=name),
                   said + words("Their clock stops for that time; deadlines that fall in or after it move by as "
                                "much."))
        self._tell(kept, player_id, words("%(name)s will be on leave", name=name),
                   said + words("The tournament keeps its round deadlines: their clock in this game runs as before."))
        return leave

    def _keeps_deadlines(self, game_id: str) -> bool:
        """Whether the game's tournament keeps its round deadlines through leave (`keep`)."""
        policy, tournament = self._game_policy(game_id)
        return bool(tournament) and policy.round_deadlines == "keep"

    def grant(self, game_id: str, seat: str, days: int, reason: str, by: str) -> dict[str, Any]:
        """A director grants the seat's player `days` of extra leave this year, with a reason,
        recorded in the player's record and in the game (`leave_granted`)."""
        player = self.players.owner(game_id, seat)
        if player is None:
            raise AwayConflict(f"seat {seat} of game {game_id} belongs to no player account")
        if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= 366:
            raise AwayRefused("grant from 1 to 366 days")
        reason = " ".join(str(reason or "").split())[:500]
        if not reason:
            raise AwayRefused("a grant of extra leave needs a reason (it is recorded)")
        now = self.now()
        self.db.execute("INSERT INTO away_grants (id, player_id, year, days, reason, granted_by, game_id, at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (sortable_id("w"), player, now.year, days, reason, by, game_id, iso(now)))
        seq = self.append(game_id, NewEvent(LEAVE_GRANTED, DIRECTOR, {"seat": seat, "days": days,
                                                                      "year": now.year, "reason": reason}))
        return {"seq": seq, "allowance": self.allowance(player, now.year)}

    def sweep(self) -> int:
        """Leave that has ended: recorded in each game (`leave_ended`), opponents told. Once
        each (claimed by a conditional UPDATE)."""
        if self.clock.skew() is not None:
            return 0  # a process whose clock is off tells nothing (the deadline sweep says why)
        now = iso(self.now())
        ended = 0
        for row in self.db.rows(f"SELECT {_LEAVE} FROM away_leaves WHERE ended_told = 0 AND ends_at <= ? "
                                "ORDER BY ends_at", (now,)):
            leave = Leave(*row)
            if self.db.execute("UPDATE away_leaves SET ended_told = 1 WHERE id = ? AND ended_told = 0",
                               (leave.id,)) != 1:
                continue
            games = self._games(leave.player_id)
            for game_id, seat in games:
                self.append(game_id, NewEvent(LEAVE_ENDED, seat, {"leave": leave.id}))
            self._announce("ended", leave, games)
            name = self._name(leave.player_id)
            self._tell(games, leave.player_id, words("%(name)s is back from leave", name=name),
                       words("%(name)s's leave ended at %(end)s (UTC): their clock runs again.", name=name,
                             end=leave.ends_at))
            ended += 1
        return ended

    # -- quiet days --------------------------------------------------------------------------------
    def quiet(self, player_id: str) -> list[dict[str, str]]:
        row = self.db.one("SELECT spec FROM away_quiet WHERE player_id = ?", (player_id,))
        spec: list[dict[str, str]] = json.loads(row[0]) if row else []
        return spec

    def set_quiet(self, player_id: str, spec: list[dict[str, str]]) -> list[dict[str, str]]:
        """Set the player's weekly quiet hours (UTC); [] clears them. AwayRefused if they are more
        than the server's allowance (a game whose own policy allows fewer runs its clock through them)."""
        windows = [{"day": w["day"], "from": w["from"], "to": w["to"]} for w in spec]
        for w in windows:
            if w["day"] not in DAYS or not _hhmm(w["from"]) or not _hhmm(w["to"], end=True) or w["to"] <= w["from"]:
                raise AwayRefused("a quiet window is {day: mon…sun, from: HH:MM, to: HH:MM (up to 24:00)}, "
                                  "from before to")
        limit = self.policy().quiet_hours_per_week
        if weekly_seconds(windows) > limit * 3600:
            raise AwayRefused(f"this server allows at most {limit} quiet hours a week; these are "
                              f"{weekly_seconds(windows) / 3600:g}")
        games = self._games(player_id)

        def save() -> None:
            with self.db.transaction() as tx:
                tx.execute("DELETE FROM away_quiet WHERE player_id = ?", (player_id,))
                if windows:
                    tx.execute("INSERT INTO away_quiet (player_id, spec, set_at) VALUES (?, ?, ?)",
                               (player_id, json.dumps(windows), iso(self.now())))

        self._retime([g for g, _ in games], save, "quiet hours", {g: {s} for g, s in games})
        return windows

    # -- telling -----------------------------------------------------------------------------------
    def _name(self, player_id: str) -> str:
        player = self.players.get(player_id)
        return player.display_name if player else player_id

    def _tell(self, games: list[tuple[str, str]], player_id: str, subject: Words, text: Words) -> None:
        """Tell the opponents (and the directors a tournament names) in each game; never raises."""
        notices = []
        base = self.base_url().rstrip("/")
        for game_id, _ in games:
            ctl = self.clock.time_control(game_id)
            tournament = ctl[1] if ctl else None
            told = {p for p in self.players.owners(game_id).values() if p != player_id}
            if self.directors_of is not None:
                told |= set(self.directors_of(game_id, tournament))
            named = tagged(subject + words(" (%(game)s)", game=game_titled(self.clock.store, game_id)), game_id)
            for p in sorted(told):
                notices.append({"player_id": p, "kind": "leave", "subject": named,
                                "text": text, "game_id": game_id, "tournament_id": tournament,
                                "link": f"{base}/games/{game_id}" if base else None})
        self._send(notices)

    def _announce(self, what: str, leave: Leave, games: list[tuple[str, str]]) -> None:
        for fn in self.listeners:
            try:
                fn(what, leave, games)
            except Exception:
                log.exception("a leave listener failed on %s leave %s", what, leave.id)

    def _send(self, notices: list[dict[str, Any]]) -> None:
        if self.notify is None or not notices:
            return
        try:
            self.notify(notices)
        except Exception:
            log.exception("could not record %d leave notice(s)", len(notices))


def _hhmm(text: Any, end: bool = False) -> bool:
    if not isinstance(text, str) or len(text) != 5 or text[2] != ":" or not (text[:2] + text[3:]).isdigit():
        return False
    h, m = int(text[:2]), int(text[3:])
    return (h < 24 and m < 60) or (end and h == 24 and m == 0)
