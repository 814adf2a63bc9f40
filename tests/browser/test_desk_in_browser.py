"""In a real browser: a tournament director at the desk, through the pages alone, sees the event a
dispute names (the replay's step, and its "#N"), sees a ruling the game refused shown as refused
with the dispute open again, forfeits the player they mean (the control says "X forfeits; Y
wins" and asks first), corrects a wrong result (the tournament page says so), and previews what a
void will undo before confirming it. The players (signed in by mailed links) move through the
API with their own tokens. Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.browser.test_tournament_in_browser import _sign_in, _submit, fake, server  # noqa: F401
from tests.notify.conftest import Smtp, smtp  # noqa: F401
from tests.players.conftest import FakeNow
from tests.tournaments.test_desk_truth import held


def _call(base: str, method: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body else None,
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def _moves(base: str, app: Flask, gid: str, seats: dict[str, str], tokens: dict[str, str], n: int) -> list[int]:
    """`n` moves by whoever is to act, through the API; each accepted move's resolution seq."""
    store, out = app.extensions["warlog"].store, []
    for i in range(n):
        token = tokens[seats[store.summary(gid).active_seats[0]]]
        acts = _call(base, "GET", f"/api/v1/games/{gid}/actions", token)
        sent = _call(base, "POST", f"/api/v1/games/{gid}/moves", token, {
            "action": acts["actions"][0], "expected_seq": acts["expected_seq"], "idempotency_key": f"k{i}-{gid}"})
        app.extensions["warlog_queue"].drain()
        judged = _call(base, "GET", f"/api/v1/games/{gid}/moves/{sent['seq']}", token)
        assert judged["status"] == "resolved", judged
        out.append(judged["event_seq"])
    return out


@pytest.mark.browser
def test_the_desk_tells_the_truth_in_a_browser(browser: Any, server: Any, smtp: Smtp,  # noqa: F811
                                               fake: FakeNow, artifacts: Path) -> None:  # noqa: F811
    base, app = server
    director = _sign_in(browser, base, smtp, "td@example.org", "Director")
    director.goto(base + "/tournaments")
    director.fill("input[name=name]", "Desk Swiss")
    director.select_option("select[name=game]", "assault-on-belgium:may-1940")
    director.select_option("select[name=kind]", "swiss")
    director.fill("input[name=rounds]", "1")
    _submit(director, "text=Create (you direct it)")
    tid = director.url.rsplit("/", 1)[1]
    pages, tokens = {}, {}
    players = app.extensions["warlog_players"]
    for name in ("Ann", "Bob", "Cid", "Dee"):
        p = _sign_in(browser, base, smtp, f"{name.lower()}@example.org", name)
        p.goto(f"{base}/tournaments/{tid}")
        _submit(p, "button:text('Register')")
        pages[name] = p
        pid = players.by_email(f"{name.lower()}@example.org").id
        tokens[pid] = players.issue_token(pid)
    desk = f"{base}/tournaments/{tid}/desk"
    director.goto(desk)
    _submit(director, "button:text('Pair round 1')")
    svc = app.extensions["warlog_tournaments"]
    t = svc.get(tid)
    first, second = t.rounds[1].pairings
    name = {pid: t.name_of(pid) for pid in t.entrants}
    resolutions = _moves(base, app, first.game_id or "", first.seats, tokens, 4)

    # 1. A dispute on the second move's submission: the desk names that step and its "#N".
    events = app.extensions["warlog"].store.read(first.game_id or "")
    step = events[resolutions[1]].payload["submission_seq"]
    disputer = pages[name[first.seats["belgium"]]]
    disputer.goto(f"{base}/games/{first.game_id}/replay/{step}")
    disputer.fill(".dispute-form textarea[name=text]", "that move broke the rules")
    _submit(disputer, ".dispute-form button")
    director.goto(desk)
    link = director.locator("a.disputed-step")
    assert link.inner_text() == f"step {step}" and link.get_attribute("href") == f"/games/{first.game_id}/replay/{step}"
    assert director.locator(".disputed-row").inner_text() == f"#{resolutions[1]}"
    dispute = director.locator("div.dispute")
    assert dispute.locator("select[name=target]").input_value() == str(resolutions[1])
    director.screenshot(path=str(artifacts / "desk-dispute.png"), full_page=True)

    # 2. A ruling the game refuses (an adjustment of a path the state does not have).
    dispute.locator("select[name=decision]").select_option("rule")
    dispute.locator("select[name=kind]").select_option("adjust")
    dispute.locator("input[name=patch]").fill('[{"op": "replace", "path": "/no/such/thing", "value": 1}]')
    dispute.locator("textarea[name=text]").fill("fix the state")
    _submit(director, "div.dispute form.answer button")
    assert "Confirm" in director.inner_text("h1")
    _submit(director, "button:text('Confirm')")
    app.extensions["warlog_queue"].drain()
    director.goto(desk)
    refused = director.locator(".refused-ruling")
    # the game keeps secrets (Assault on Belgium's standing answers): its reason waits for the end
    assert "Refused by the game" in refused.inner_text() and "reason is hidden until the game ends" in refused.inner_text()
    assert "refused" in director.locator("table.desk-rulings tbody tr").first.inner_text()
    assert director.locator("div.dispute form.answer").count() == 1  # open again, to be answered anew
    director.screenshot(path=str(artifacts / "desk-refused-ruling.png"), full_page=True)

    # 3. A void, previewed before it is confirmed: what it undoes, from which seats, up to which step.
    row = director.locator(f"tr#game-{first.game_id}")
    row.locator("details.rule summary").click()
    row.locator("details.rule select[name=kind]").select_option("void")
    row.locator("details.rule select[name=target]").select_option(str(resolutions[0]))
    row.locator("details.rule input[name=re_resolve]").check()
    row.locator("details.rule textarea[name=text]").fill("misclick")
    _submit(director, f"tr#game-{first.game_id} details.rule button")
    preview = director.inner_text("#void-preview")
    assert "4 move(s)" in preview and f"up to step {resolutions[-1]}" in preview
    seats = [events[r].payload["seat"] for r in resolutions]
    assert all(f"{s.capitalize()}: {seats.count(s)}" in preview for s in set(seats)), preview
    director.screenshot(path=str(artifacts / "desk-void-preview.png"), full_page=True)
    before = app.extensions["warlog"].store.last_seq(first.game_id or "")
    director.click("text=Back to the desk")
    assert app.extensions["warlog"].store.last_seq(first.game_id or "") == before  # nothing recorded

    # 4. Forfeit the player meant: "X forfeits; Y wins", asked first.
    loser, winner = second.seats["belgium"], second.seats["germany"]
    director.goto(desk)
    row = director.locator(f"tr#game-{second.game_id}")
    row.locator("form.award select[name=verdict]").select_option(
        label=f"{name[loser]} forfeits; {name[winner]} wins")
    row.locator("form.award input[name=reason]").fill("resigned by mail")
    _submit(director, f"tr#game-{second.game_id} form.award button")
    assert f"{name[loser]} forfeits; {name[winner]} wins" in director.inner_text("section.confirm")
    with held(app):
        _submit(director, "button:text('Confirm')")
        assert "Pending" in director.locator(f"tr#game-{second.game_id}").inner_text()  # at once, before judging
    app.extensions["warlog_queue"].drain()
    director.goto(f"{base}/tournaments/{tid}")
    t = svc.get(tid)
    assert t.results[second.game_id or ""].winner == winner and t.results[second.game_id or ""].how == "forfeit"

    # 5. That was wrong: correct the result; the tournament page shows the correction.
    director.goto(desk)
    row = director.locator(f"tr#result-{second.game_id}")
    row.locator("select[name=verdict]").select_option(label=f"{name[loser]} wins")
    row.locator("input[name=reason]").fill("the resignation was the other player's")
    _submit(director, f"tr#result-{second.game_id} form.correct button")
    _submit(director, "button:text('Confirm')")
    app.extensions["warlog_queue"].drain()
    director.goto(f"{base}/tournaments/{tid}")
    corrections = director.inner_text("section.corrections")
    assert f"now {name[loser]} wins" in corrections and "the resignation was the other player's" in corrections
    assert svc.get(tid).results[second.game_id or ""].winner == loser
    director.screenshot(path=str(artifacts / "desk-corrected.png"), full_page=True)
