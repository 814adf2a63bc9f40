"""In a real browser, a director runs an event through the pages alone: the create form (a
36-hour move, a 12-hour reminder, automatic pairing, the withdrawal policy), registration
confirmed by mail, round 1 paired from the desk, an announcement, an extension in hours, a lost
invitation re-issued (the new seat link signs the player in), a substitute replacing a player,
a re-pairing and a withdrawal (each confirmed first), an adjudication that completes the round
and pairs round 2 by itself. Every mail arrives in a real SMTP server (aiosmtpd, started here),
and every link in them is absolute on the public URL and opens its page. Screenshots go to
test-artifacts/."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_tournament_in_browser import _body, _mail, _sign_in, _submit, fake, server  # noqa: F401
from tests.notify.conftest import Smtp, smtp  # noqa: F401
from tests.players.conftest import FakeNow

LINKS = re.compile(r"(?:https?://|/tournaments/|/games/)\S+")


def _check_links(base: str, smtp: Smtp) -> int:  # noqa: F811
    """Every link in every mail so far is absolute on the public URL and opens (a page that is
    a signed-in player's, or the director's, answers 403 to nobody and 404 never)."""
    count = 0
    for m in smtp.messages:
        for link in LINKS.findall(_body(m)):
            assert link.startswith(base + "/"), f"not absolute on {base}: {link} in '{m['Subject']}'"
            if "/signin/" in link or "/seat/" in link:
                continue  # a sign-in link works once; the seat link is opened by the player below
            try:
                with urllib.request.urlopen(link) as r:
                    assert r.status == 200, link
            except urllib.error.HTTPError as err:  # the desk is the director's: 403 to anyone else
                assert err.code == 403 and link.split("#")[0].endswith("/desk"), (link, err.code)
            count += 1
    return count


def _confirm(page: Any) -> None:
    assert "Confirm" in page.inner_text("h1")
    _submit(page, "button:text('Confirm')")


@pytest.mark.browser
def test_a_director_runs_the_event_from_the_pages(browser: Any, server: Any, smtp: Smtp,  # noqa: F811
                                                  fake: FakeNow, artifacts: Path) -> None:  # noqa: F811
    base, app = server
    director = _sign_in(browser, base, smtp, "td@example.org", "Director")
    director.goto(base + "/tournaments")
    director.fill("input[name=name]", "Page Swiss")
    director.select_option("select[name=game]", "assault-on-belgium:may-1940")
    assert "A: Meeting of Patrols (mountain)" in director.inner_text("select[name=game]")  # not a bare "A"
    director.select_option("select[name=kind]", "swiss")
    director.fill("input[name=rounds]", "2")
    director.fill("input[name=days]", "1")
    director.fill("input[name=hours]", "12")
    director.fill("input[name=remind_hours]", "12")
    director.check("input[name=auto_pair]")
    director.select_option("select[name=withdrawal]", "forfeit")
    director.screenshot(path=str(artifacts / "director-create-form.png"), full_page=True)
    _submit(director, "text=Create (you direct it)")
    tid = director.url.rsplit("/", 1)[1]
    pages, ids = {}, {}
    players = app.extensions["warlog_players"]
    for name in ("Ann", "Bob", "Cid", "Dee"):
        p = _sign_in(browser, base, smtp, f"{name.lower()}@example.org", name)
        p.goto(f"{base}/tournaments/{tid}")
        _submit(p, "button:text('Register')")
        _mail(smtp, f"{name.lower()}@example.org", "Page Swiss: you are registered")
        pages[name], ids[name] = p, players.by_email(f"{name.lower()}@example.org").id
    sub = _sign_in(browser, base, smtp, "sub@example.org", "Sub")
    sub_id = players.by_email("sub@example.org").id
    name_of = {v: k for k, v in ids.items()}

    desk = f"{base}/tournaments/{tid}/desk"
    director.goto(desk)
    _submit(director, "button:text('Pair round 1')")
    svc = app.extensions["warlog_tournaments"]
    first, second = svc.get(tid).rounds[1].pairings
    for name in ids:
        _mail(smtp, f"{name.lower()}@example.org", "Page Swiss: round 1")

    # an announcement, kept on the tournament page
    director.fill("#announce textarea[name=text]", "Play your first move this week, please.")
    _submit(director, "#announce button")
    assert "Announcement sent to 4 entrant(s)" in director.inner_text("#desk-done")
    for name in ids:
        _mail(smtp, f"{name.lower()}@example.org", "Page Swiss: an announcement")
    pages["Ann"].goto(f"{base}/tournaments/{tid}")
    assert "Play your first move this week" in pages["Ann"].inner_text("#announcements")

    # an extension in hours, told to the game's players
    row = director.locator(f"tr#game-{first.game_id}")
    mover = list(first.seats.values())[0]
    row.locator("form.extend select[name=player_id]").select_option(mover)
    row.locator("form.extend input[name=amount]").fill("36")
    row.locator("form.extend select[name=unit]").select_option("hours")
    row.locator("form.extend input[name=reason]").fill("a long weekend")
    _submit(director, f"tr#game-{first.game_id} form.extend button")
    assert "by 36 hours" in director.inner_text("#desk-done")
    for pid in first.players():
        assert "a long weekend" in _body(_mail(smtp, f"{name_of[pid].lower()}@example.org", "deadline extended"))

    # a lost invitation re-issued: the new seat link signs the player in and opens the game
    holder = second.seats["belgium"]
    director.select_option("#reissue-form select[name=seat]", f"{second.game_id}:{holder}")
    director.fill("#reissue-form input[name=reason]", "lost the pairing mail")
    _submit(director, "#reissue-form button")
    _confirm(director)
    text = _body(_mail(smtp, f"{name_of[holder].lower()}@example.org", "a new link to your seat"))
    seat_link = re.search(r"https?://\S+/seat/\S+", text)
    assert seat_link, text
    stranger = browser.new_context().new_page()
    stranger.goto(seat_link.group(0))
    _submit(stranger, "button:text('Sign in as')")
    assert stranger.url.endswith(f"/games/{second.game_id}")

    # a substitute takes the other seat of that game
    leaver = second.seats["germany"]
    director.goto(desk)
    director.select_option("#replace-form select[name=seat]", f"{second.game_id}:{leaver}")
    director.fill("#replace-form input[name=substitute]", sub_id)
    director.fill("#replace-form input[name=reason]", "no answer for three weeks")
    _submit(director, "#replace-form button")
    assert "Sub takes" in director.inner_text(".confirm")
    _confirm(director)
    _mail(smtp, "sub@example.org", "you take a seat")
    sub.goto(f"{base}/tournaments/{tid}")
    assert "Sub replaces" in sub.inner_text(".seat-changes")

    # a re-pairing of round 1: the two tables swap their Belgian players
    t = svc.get(tid)
    first, second = t.rounds[1].pairings
    director.goto(desk)
    director.click("#repair-round summary")
    swap = {1: {"belgium": second.seats["belgium"], "germany": first.seats["germany"]},
            2: {"belgium": first.seats["belgium"], "germany": second.seats["germany"]}}
    for n, seats in swap.items():
        for role, pid in seats.items():
            director.select_option(f"select[name=table-{n}-{role}]", pid)
    director.fill("#repair-form input[name=reason]", "the pairing sheet was wrong")
    director.screenshot(path=str(artifacts / "director-repair-form.png"), full_page=True)
    _submit(director, "#repair-form button")
    assert "Cancelled" in director.inner_text(".confirm")
    director.screenshot(path=str(artifacts / "director-repair-confirm.png"), full_page=True)
    _confirm(director)
    for pid in swap[1].values():
        _mail(smtp, f"{(name_of.get(pid) or 'sub').lower()}@example.org", "round 1 re-paired")

    # a withdrawal: the running game is forfeited (the event's policy), the opponent told
    t = svc.get(tid)
    table = t.rounds[1].pairings[0]
    quitter, opponent = table.seats["belgium"], table.seats["germany"]
    director.goto(desk)
    director.select_option("#withdraw-form select[name=player_id]", quitter)
    director.fill("#withdraw-form input[name=reason]", "moved abroad")
    _submit(director, "#withdraw-form button")
    assert "forfeited at once" in director.inner_text(".confirm")
    _confirm(director)
    app.extensions["warlog_queue"].drain()
    _mail(smtp, f"{(name_of.get(opponent) or 'sub').lower()}@example.org", "your opponent withdrew")

    # the other game adjudicated from the desk: round 1 is complete, round 2 is paired by itself
    other = svc.get(tid).rounds[1].pairings[1]
    director.goto(desk)
    row = director.locator(f"tr#game-{other.game_id}")
    row.locator("form.award select[name=verdict]").select_option(index=0)
    row.locator("form.award input[name=reason]").fill("agreed by both")
    _submit(director, f"tr#game-{other.game_id} form.award button")
    _confirm(director)
    app.extensions["warlog_queue"].drain()
    director.goto(desk)
    assert svc.sync(tid).current_round == 2
    assert "Round 2 was paired automatically" in _body(_mail(smtp, "td@example.org", "round 1 is complete"))
    director.goto(desk)
    director.screenshot(path=str(artifacts / "director-desk-round2.png"), full_page=True)
    assert _check_links(base, smtp) > 10
