"""A tournament published beyond its page: CSV of the standings and of the crosstable, and iCal
feeds (RFC 5545, the `icalendar` library) of an event's deadlines and of a player's.

* The event's feed (public): its start, the close of registration, and every open deadline of
  its games by round — what the page's "Deadline" column shows.
* A player's feed (/players/<id>/deadlines.ics?token=…): every open deadline of a seat they hold,
  in any game. Its token is a private capability (it tells which games are theirs and when they
  must move): random, one per player, shown once; `calendar_tokens` keeps its SHA-256, and a new
  one stops the old link.
"""

from __future__ import annotations

import csv
import io
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from warlog.ops.sqldb import Ddl, SqlDb, parse_iso, sha256_hex
from warlog.tournaments.model import Tournament
from warlog.tournaments.standings import Line, tiebreak_label, tiebreak_names

_TABLES = """
CREATE TABLE IF NOT EXISTS calendar_tokens (
    player_id TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    created_at TEXT NOT NULL
)
"""
DDL = Ddl("calendar_tokens", _TABLES, _TABLES)
PRODID = "-//Warlog//tournament deadlines//EN"


# -- CSV ---------------------------------------------------------------------------------------

def _cell(value: Any) -> str:
    """A cell a spreadsheet shows as text: a name that starts like a formula gets a quote."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _csv(rows: list[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([v if isinstance(v, int) else _cell(v) for v in row])
    return out.getvalue()


def standings_csv(t: Tournament, lines: list[Line]) -> str:
    """One row per entrant in standings order: rank, (pool), name, id, points, played, W, D, L,
    byes, each tiebreak, withdrawn."""
    names = tiebreak_names(t)
    pools = t.kind == "pools"
    head = ["Rank", *(["Pool"] if pools else []), "Player", "Player id", "Points", "Played", "Wins", "Draws",
            "Losses", "Byes", *(tiebreak_label(n) for n in names), "Withdrawn"]
    rows: list[list[Any]] = [head]
    for line in lines:
        rows.append([line.rank, *([line.pool or ""] if pools else []), line.name, line.player_id, line.points,
                     line.played, line.wins, line.draws, line.losses, line.byes,
                     *(line.tiebreaks.get(n, 0) for n in names), "yes" if line.withdrawn else "no"])
    return _csv(rows)


def crosstable_csv(table: dict[str, Any]) -> str:
    """The crosstable (warlog.tournaments.standings.crosstable): place, name, a cell per round, points."""
    rows: list[list[Any]] = [["Place", "Player", *(f"R{n}" for n in table["rounds"]), "Points"]]
    for row in table["rows"]:
        rows.append([row["place"], row["name"], *row["cells"], row["points"]])
    return _csv(rows)


# -- iCal --------------------------------------------------------------------------------------

def _calendar(name: str) -> Any:
    from icalendar import Calendar

    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name)
    return cal


def _event(uid: str, summary: str, at: datetime, url: str, description: str = "",
           alarm: timedelta | None = None) -> Any:
    from icalendar import Alarm, Event

    ev = Event()
    ev.add("uid", uid)
    ev.add("dtstamp", datetime.now(UTC).replace(microsecond=0))
    ev.add("dtstart", at)
    ev.add("dtend", at + timedelta(minutes=15))
    ev.add("summary", summary)
    if description:
        ev.add("description", description)
    if url:
        ev.add("url", url)
    if alarm is not None:
        a = Alarm()
        a.add("action", "DISPLAY")
        a.add("description", summary)
        a.add("trigger", -alarm)
        ev.add_component(a)
    return ev


def _stamp(text: str) -> datetime:
    """An entry time as the stream keeps it ("2027-01-10T18:00Z")."""
    at = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def event_calendar(t: Tournament, deadlines: list[Any], url: Callable[[str], str]) -> bytes:
    """The event's feed: its start, the close of registration, every open deadline of its games."""
    cal = _calendar(f"{t.name}: deadlines")
    page = url(f"/tournaments/{t.id}")
    if t.entry.get("starts_at"):
        cal.add_component(_event(f"{t.id}-start@warlog", f"{t.name} starts", _stamp(t.entry["starts_at"]), page))
    if t.entry.get("registration_closes"):
        cal.add_component(_event(f"{t.id}-registration@warlog", f"{t.name}: registration closes",
                                 _stamp(t.entry["registration_closes"]), page, alarm=timedelta(hours=24)))
    for d in deadlines:
        if d.status != "open":
            continue
        found = t.game_round(d.game_id)
        if found is None:
            continue
        number, p = found
        who = t.name_of(p.seats.get(d.seat, ""))
        cal.add_component(_event(f"{d.game_id}-{d.seat}-{d.started_at}@warlog",
                                 f"{t.name}, round {number}: {who} ({d.seat}) to move in game {d.game_id}",
                                 parse_iso(d.due_at), url(f"/games/{d.game_id}"),
                                 f"Round {number} of {t.name}. The deadline's policy: {d.policy}."))
    return bytes(cal.to_ical())


def player_calendar(name: str, rows: list[tuple[Any, str]], url: Callable[[str], str]) -> bytes:
    """A player's feed: each open deadline of their seats (`rows`: the deadline and the
    tournament's name or ""), with a reminder at the deadline's own reminder time."""
    cal = _calendar(f"{name}: my Warlog deadlines")
    for d, tournament in rows:
        remind = None
        if d.remind_at:
            remind = max(timedelta(0), parse_iso(d.due_at) - parse_iso(d.remind_at))
        where = f" ({tournament})" if tournament else ""
        cal.add_component(_event(f"{d.game_id}-{d.seat}-{d.started_at}@warlog",
                                 f"Your move in game {d.game_id}{where}", parse_iso(d.due_at),
                                 url(f"/games/{d.game_id}"), f"You play {d.seat}. The deadline's policy: {d.policy}.",
                                 alarm=remind))
    return bytes(cal.to_ical())


class CalendarTokens:
    """Each player's private calendar token: random, shown once when made (a new one replaces
    it, and the old link stops working); only its SHA-256 is kept, as every token is."""

    def __init__(self, db: SqlDb) -> None:
        self.db = db

    def create_schema(self) -> None:
        self.db.create_schema(DDL)

    def issue(self, player_id: str) -> str:
        token = secrets.token_urlsafe(24)
        with self.db.transaction() as tx:
            tx.execute("DELETE FROM calendar_tokens WHERE player_id = ?", (player_id,))
            tx.execute("INSERT INTO calendar_tokens (player_id, token, created_at) VALUES (?, ?, ?)",
                       (player_id, sha256_hex(token), datetime.now(UTC).isoformat()))
        return token

    def has(self, player_id: str) -> bool:
        return self.db.one("SELECT 1 FROM calendar_tokens WHERE player_id = ?", (player_id,)) is not None

    def check(self, player_id: str, token: str) -> bool:
        row = self.db.one("SELECT token FROM calendar_tokens WHERE player_id = ?", (player_id,))
        return row is not None and bool(token) and secrets.compare_digest(str(row[0]), sha256_hex(token))
