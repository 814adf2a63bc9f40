"""A tournament published beyond its page, read by real parsers: the standings and crosstable as
CSV (the csv module), the event's deadlines and a player's private deadlines as iCal (the
icalendar library); the create form's entry terms (description, start, registration window,
entry cap, seeding by rating) on the page and enforced; the page's rough edges (tiebreak
headers, times without seconds, a duplicate's score); and a sign-in begun on a tournament page
that returns to it."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime, timedelta

from flask import Flask
from flask.testing import FlaskClient
from icalendar import Calendar

from tests.pages.conftest import ORIGIN, csrf_of
from tests.players.conftest import settle, sign_in

NAMES = ("Ann", "Bob", "Cid", "Dee")


def _form(client: FlaskClient, path: str, data: dict[str, str], page: str):  # type: ignore[no-untyped-def]
    return client.post(path, data={"csrf": csrf_of(client, page), **data}, headers=ORIGIN)


def _knockout(tapp: Flask) -> tuple[FlaskClient, str, dict[str, FlaskClient]]:
    director = tapp.test_client()
    sign_in(tapp, director, "td@example.org", "Director")
    closes = (datetime.now(UTC) + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    r = _form(director, "/tournaments", {
        "name": "Club Cup", "game": "assault-on-belgium:may-1940", "kind": "knockout", "seeding": "rating",
        "third_place": "1", "description": "Four players, one cup.\n\nMail the director with questions.",
        "rules": "Move within 36 hours.", "starts_at": "2027-01-10T18:00", "registration_closes": closes,
        "max_entrants": "4", "days": "1", "hours": "12", "remind_hours": "12"}, "/tournaments")
    assert r.status_code == 303, r.get_data(as_text=True)
    page = r.headers["Location"]
    players = {}
    for name in (*NAMES, "Eve"):
        c = tapp.test_client()
        sign_in(tapp, c, f"{name.lower()}@example.org", name)
        players[name] = c
    for name in NAMES:
        assert _form(players[name], f"{page}/register", {}, page).status_code == 303
    full = _form(players["Eve"], f"{page}/register", {}, "/tournaments")
    assert full.status_code == 409 and "full (4 entrants)" in full.get_data(as_text=True)
    return director, page, players


def test_entry_terms_bracket_csv_and_ical_feeds(tapp: Flask) -> None:
    director, page, players = _knockout(tapp)
    html = players["Eve"].get(page).get_data(as_text=True)
    assert "Four players, one cup." in html and "Mail the director" in html and "Move within 36 hours." in html
    assert "2027-01-10 18:00 UTC" in html and "At most 4 entrants (4 so far)" in html
    assert "single elimination" in html and "Seeded by rating" in html
    assert _form(director, f"{page}/desk/pair", {}, f"{page}/desk").status_code == 303
    settle(tapp)
    html = director.get(page).get_data(as_text=True)
    assert '<svg class="bracket"' in html and html.count('class="match"') == 2 + 1  # semi-finals, the final
    assert "Stage reached" in html

    # The standings and the crosstable as CSV, read back by the csv module.
    r = director.get(f"{page}/standings.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv" and "attachment" in r.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
    assert rows[0][:4] == ["Rank", "Player", "Player id", "Points"] and rows[0][-2:] == ["Stage reached", "Withdrawn"]
    assert sorted(row[1] for row in rows[1:]) == sorted(NAMES)
    rows = list(csv.reader(io.StringIO(director.get(f"{page}/crosstable.csv").get_data(as_text=True))))
    assert rows[0] == ["Place", "Player", "R1", "Points"] and len(rows) == 5
    assert all(re.fullmatch(r"\?\d[gb]", row[2]) for row in rows[1:]), rows  # every game running

    # The event's feed: its start, the close of registration, each open deadline of its games.
    r = players["Eve"].get(f"{page}/deadlines.ics")
    assert r.status_code == 200 and r.mimetype == "text/calendar"
    cal = Calendar.from_ical(r.get_data())
    events = cal.walk("VEVENT")
    summaries = [str(e.get("summary")) for e in events]
    assert "Club Cup starts" in summaries and "Club Cup: registration closes" in summaries
    start = next(e for e in events if str(e.get("summary")) == "Club Cup starts")
    assert start.decoded("dtstart") == datetime(2027, 1, 10, 18, 0, tzinfo=UTC)
    clock = tapp.extensions["warlog_clock"]
    tid = page.rsplit("/", 1)[1]
    open_deadlines = clock.deadlines(tid, status="open")
    assert len(open_deadlines) == 2  # one player to move in each semi-final
    moves = [e for e in events if "to move in game" in str(e.get("summary"))]
    assert sorted(e.decoded("dtstart") for e in moves) == sorted(
        datetime.strptime(d.due_at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC) for d in open_deadlines)
    assert all(str(e.get("url")).startswith("http") for e in moves), "links in the feed are absolute"

    # A player's private feed: made on the page, shown once; a wrong token is a 404; a new one
    # stops the old link.
    owners = tapp.extensions["warlog_players"]
    d = open_deadlines[0]
    mover = owners.owner(d.game_id, d.seat)
    name = owners.get(mover).display_name
    r = _form(players[name], f"{page}/calendar-link", {}, page)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    link = re.search(r'id="calendar-link" value="([^"]+)"', r.get_data(as_text=True)).group(1).replace("&amp;", "&")
    assert link.startswith("http") and f"/players/{mover}/deadlines.ics?token=" in link
    path = link[link.index("/players/"):]
    r = tapp.test_client().get(path)  # no session needed: the token is the key
    assert r.status_code == 200 and "no-store" in r.headers["Cache-Control"]
    mine = Calendar.from_ical(r.get_data()).walk("VEVENT")
    assert [str(e.get("summary")) for e in mine] == [f"Your move in game {d.game_id} (Club Cup)"]
    assert mine[0].decoded("dtstart") == datetime.strptime(d.due_at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert mine[0].walk("VALARM"), "the deadline's reminder comes with it"
    assert tapp.test_client().get(path[:-3] + "xyz").status_code == 404
    assert tapp.test_client().get(f"/players/{mover}/deadlines.ics").status_code == 404
    _form(players[name], f"{page}/calendar-link", {}, page)
    assert tapp.test_client().get(path).status_code == 404, "a new link stops the old one"

    # The desk shows times to the minute, never raw ISO stamps with seconds or microseconds.
    desk = director.get(f"{page}/desk").get_data(as_text=True)
    assert not re.search(r"\d\d:\d\d:\d\d(\.\d+)?", desk) and re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", desk)


def test_registration_window_is_enforced(tapp: Flask) -> None:
    director = tapp.test_client()
    sign_in(tapp, director, "td@example.org", "Director")
    opens = (datetime.now(UTC) + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    r = _form(director, "/tournaments", {"name": "Later", "game": "assault-on-belgium:may-1940", "kind": "swiss",
                                         "rounds": "1", "registration_opens": opens}, "/tournaments")
    page = r.headers["Location"]
    ann = tapp.test_client()
    sign_in(tapp, ann, "ann@example.org", "Ann")
    html = ann.get(page).get_data(as_text=True)
    assert "Registration opens" in html and 'action="' + page + '/register"' not in html
    r = _form(ann, f"{page}/register", {}, "/tournaments")
    assert r.status_code == 409 and "registration opens at" in r.get_data(as_text=True)
    bad = _form(director, "/tournaments", {"name": "Bad", "game": "assault-on-belgium:may-1940", "kind": "swiss",
                                           "starts_at": "next tuesday"}, "/tournaments")
    assert bad.status_code == 422 and "date and time" in bad.get_data(as_text=True)


def test_sign_in_from_a_tournament_page_returns_to_it(tapp: Flask) -> None:
    director = tapp.test_client()
    sign_in(tapp, director, "td@example.org", "Director")
    r = _form(director, "/tournaments", {"name": "Open", "game": "assault-on-belgium:may-1940", "kind": "swiss",
                                         "rounds": "1"}, "/tournaments")
    page = r.headers["Location"]
    path = page[page.index("/tournaments/"):] if page.startswith("http") else page
    guest = tapp.test_client()
    html = guest.get(path).get_data(as_text=True)
    signin = re.search(r'href="(/signin\?next=[^"]+)"', html)
    assert signin, "the tournament page's sign-in link names the page to return to"
    r = guest.post("/signin", data={"csrf": csrf_of(guest, signin.group(1).replace("&amp;", "&")),
                                    "email": "new@example.org", "display_name": "Newcomer", "next": path},
                   headers=ORIGIN)
    assert r.status_code == 200
    settle(tapp)
    body = tapp.extensions["warlog_notifier"].outbox(to="new@example.org")[0]["body"]
    link = re.search(r"https?://[^/\s]+(/signin/\S+)", body).group(1)
    assert "next=" in link
    form = guest.get(link).get_data(as_text=True)
    assert f'name="next" value="{path}"' in form
    r = guest.post(link.split("?")[0], data={"csrf": csrf_of(guest, link), "next": path}, headers=ORIGIN)
    assert r.status_code == 303 and r.headers["Location"].endswith(path)
    # another site is never a place to return to
    other = tapp.test_client()
    sign_in(tapp, other, "x@example.org", "Xavier")
    settle(tapp)
    r = guest.post("/signin", data={"csrf": csrf_of(guest, "/signin"), "email": "x@example.org",
                                    "next": "//evil.example/"}, headers=ORIGIN)
    settle(tapp)
    body = tapp.extensions["warlog_notifier"].outbox(to="x@example.org")[0]["body"]
    assert "evil" not in body


def test_tiebreak_headers_are_named_properly(tapp: Flask) -> None:
    from warlog.tournaments.standings import tiebreak_label

    assert [tiebreak_label(n) for n in ("buchholz", "sonneborn_berger", "head_to_head")] == [
        "Buchholz", "Sonneborn–Berger", "Head-to-head"]
    director = tapp.test_client()
    sign_in(tapp, director, "td@example.org", "Director")
    page = _form(director, "/tournaments", {"name": "S", "game": "assault-on-belgium:may-1940", "kind": "swiss",
                                            "rounds": "1"}, "/tournaments").headers["Location"]
    html = director.get(page).get_data(as_text=True)
    assert "<th>Buchholz</th>" in html and "<th>Sonneborn–Berger</th>" in html and ">buchholz<" not in html
