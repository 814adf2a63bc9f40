"""In a real browser, an ordinary (non-tournament) game's rulings from its pages: a seat
raises a dispute from the replay page, the holder of the director link answers it from the play
page with a ruling (void and re-resolve), dismisses another, awards the game from the ruling
form; every act is in the game's ledger and the export still verifies."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import updated
from warlog.trust.verify import verify_bytes

VIEW = {"width": 1600, "height": 1200}


def _api(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path) as r:
        return json.loads(r.read())


def _events(base: str, gid: str) -> list[dict[str, Any]]:
    return list(_api(base, f"/api/v1/games/{gid}/events")["events"])


@pytest.mark.browser
def test_dispute_raised_from_the_replay_and_ruled_from_the_game_page(browser: Any, live_server: Any,
                                                                     artifacts: Path) -> None:
    base, app = live_server
    errors: list[str] = []

    def page() -> Any:
        p = browser.new_context(viewport=VIEW).new_page()
        p.on("pageerror", lambda e: errors.append(f"{p.url}: {e}"))
        p.set_default_timeout(20_000)
        return p

    creator = page()
    creator.goto(base + "/")
    creator.select_option("#game-choice", "assault-on-belgium/may-1940")
    creator.click("text=Create the game")
    links = {s: creator.locator(f'input[data-invite="{s}"]').input_value() for s in ("germany", "belgium", "director")}
    gid = links["germany"].split("/")[4]
    bel, ger, director = page(), page(), page()
    bel.goto(links["belgium"])
    ger.goto(links["germany"])
    director.goto(links["director"])
    bel.goto(f"{base}/games/{gid}")
    with updated(bel):
        bel.locator("#act-form button:has-text('Use the standard set-up')").first.click()
    resolved = [e for e in _events(base, gid) if e["type"] == "resolved"]
    assert resolved, "the set-up move was not judged"
    target = resolved[-1]["seq"]

    # A spectator sees no rulings card; a seat sees the dispute form, the director the desk.
    spectator = page()
    spectator.goto(f"{base}/games/{gid}")
    assert spectator.locator("#rulings").count() == 0
    assert ger.goto(f"{base}/games/{gid}") and ger.locator("#dispute-form").count() == 1
    assert ger.locator("#rule-form").count() == 0

    # Belgium disputes the resolution from its replay step; Germany disputes something else.
    bel.goto(f"{base}/games/{gid}/replay/{target}")
    assert bel.locator("#dispute-form input[name=seq]").input_value() == str(target)
    bel.fill("#dispute-form textarea[name=text]", "VI Corps was placed off its set-up hex")
    bel.click("#dispute-form button[type=submit]")
    bel.wait_for_url(f"**/games/{gid}/replay/{target}*")
    assert "VI Corps was placed off its set-up hex" in bel.inner_text("#rulings")
    ger.goto(f"{base}/games/{gid}")
    ger.fill("#dispute-form input[name=seq]", "0")
    ger.fill("#dispute-form textarea[name=text]", "the scenario was not the one agreed")
    ger.click("#dispute-form button[type=submit]")
    raised = [e for e in _events(base, gid) if e["type"] == "dispute_raised"]
    assert [(e["seat"], e["payload"]["seq"]) for e in raised] == [("belgium", target), ("germany", 0)]

    # The director answers from the game page: rule (void and re-resolve) on Belgium's ...
    director.goto(f"{base}/games/{gid}")
    first = director.locator(f"#dispute-{raised[0]['seq']} form")
    first.locator("select[name=decision]").select_option("rule")
    first.locator("select[name=kind]").select_option("void")
    first.locator("input[name=target]").fill(str(target))
    first.locator("input[name=re_resolve]").check()
    first.locator("textarea[name=text]").fill("checked: voided and re-resolved under the rules")
    first.locator("button[type=submit]").click()
    director.wait_for_selector("#ruled-note")
    app.extensions["warlog_queue"].drain()
    # ... and dismisses Germany's.
    director.goto(f"{base}/games/{gid}")
    second = director.locator(f"#dispute-{raised[1]['seq']} form")
    second.locator("textarea[name=text]").fill("the scenario is the one both seats accepted")
    second.locator("button[type=submit]").click()
    director.wait_for_selector("#ruled-note")
    answered = {e["payload"]["dispute"]: e["payload"] for e in _events(base, gid) if e["type"] == "dispute_answered"}
    assert answered[raised[0]["seq"]]["decision"] == "rule" and answered[raised[1]["seq"]]["decision"] == "dismiss"
    ruling_seq = answered[raised[0]["seq"]]["ruling_seq"]
    judged = next(e for e in _events(base, gid) if e["type"] in ("resolved", "rejected")
                  and e["payload"].get("submission_seq") == ruling_seq)
    assert judged["type"] == "resolved", judged["payload"]
    assert "Ruled" in director.inner_text(f"#dispute-{raised[0]['seq']}")
    assert "Dismissed" in director.inner_text(f"#dispute-{raised[1]['seq']}")

    # A ruling without a dispute: the director awards the game to Germany.
    director.click("#rulings summary")
    form = director.locator("#rule-form")
    form.locator("select[name=kind]").select_option("award")
    form.locator("select[name=winner]").select_option("germany")
    form.locator("input[name=result]").fill("Germany wins (awarded)")
    form.locator("textarea[name=text]").fill("Belgium resigned by mail")
    form.locator("button[type=submit]").click()
    director.wait_for_selector("#ruled-note")
    app.extensions["warlog_queue"].drain()
    assert _api(base, f"/api/v1/games/{gid}")["status"] == "ended"
    director.goto(f"{base}/games/{gid}")
    director.screenshot(path=str(artifacts / "game-rulings.png"), full_page=True)
    bel.goto(f"{base}/games/{gid}/replay/{target}")
    assert "ruled" in bel.inner_text("#rulings") and "dismissed" in bel.inner_text("#rulings")

    # The record of the game carries the disputes and still verifies.
    with urllib.request.urlopen(f"{base}/api/v1/games/{gid}/export") as r:
        report = verify_bytes(r.read())
    assert report.ended and report.seed_revealed
    assert not errors, errors
