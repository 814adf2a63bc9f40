"""Sandboxes end to end, in a real browser: from step 121 of a finished Snoopy's Nose game
(the golden ledger: three VC units hidden, five secret base camps), a judge forks a sandbox on the
replay page, edits the position on the setup page (a refused edit shows its path; an accepted one
is kept), creates it with a forced die that stops when used up, and the disputed US bombardment is
played in the sandbox: its ruling uses the forced 6. The US seat never sees a hidden unit or a
secret camp — not on its pages, not in /events, not in the sandbox's first event."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ledger.export import parse_export, summary_from_events
from tests.conftest import Player

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "vietnam-battles--snoopys_nose--v1.jsonl"
STEP = 121  # the state just before the US's bombardment of vc-263-1 (submission 122)
VIEW = {"width": 1400, "height": 1000}


def _secrets(state: dict[str, Any]) -> list[str]:
    sec = state["secret"]
    return [json.dumps({k: v})[1:-1] for k, v in [*sec["hidden"].items(), *sec["camps"].items()]]


@pytest.mark.browser
def test_fork_edit_and_rule_a_vb_dispute_without_showing_hidden_units(browser: Any, live_server: Any,
                                                                       artifacts: Path) -> None:
    base, app = live_server
    with GOLDEN.open("rb") as fh:
        events = parse_export(fh)
    svc = app.extensions["warlog"]
    svc.store.import_events(events, None, summary_from_events(events))
    gid = events[0].game_id
    full = svc.history(gid).state_at(STEP)
    secrets = _secrets(full)
    assert len(secrets) == 8 and svc.info(gid)["status"] == "ended"

    # the judge (anyone: the game has ended) forks on the replay page
    judge = browser.new_context(viewport=VIEW).new_page()
    errors: list[str] = []
    judge.on("pageerror", lambda e: errors.append(str(e)))
    judge.set_default_timeout(20_000)
    judge.goto(f"{base}/games/{gid}/replay/{STEP}")
    judge.click("#fork-here")
    assert judge.url.endswith(f"/games/{gid}/fork/{STEP}")
    # a refused edit: the phase "lunch" is named by its path, and nothing is kept
    judge.fill("#set-path", "/phase")
    judge.fill("#set-value", '"lunch"')
    judge.click("#fork-set button")
    assert "Not applied" in judge.inner_text("#fork-message")
    assert "/phase" in judge.inner_text("#fork-errors")
    # the judge's claim: vc-263-1 was already reduced when it was bombarded
    judge.fill("#set-path", "/units/vc-263-1/reduced")
    judge.fill("#set-value", "true")
    judge.click("#fork-set button")
    assert "Applied" in judge.inner_text("#fork-message")
    assert "/units/vc-263-1/reduced" in judge.inner_text("#fork-edits")
    judge.fill("#fork-dice", "6")
    judge.select_option("#fork-mode", "stop")
    judge.screenshot(path=str(artifacts / "sandbox-fork-setup.png"), full_page=False)
    judge.click("#fork-create-button")
    assert "stop and ask for more" in judge.inner_text("#forked-from")
    links = {s: judge.locator(f'input[data-invite="{s}"]').input_value() for s in ("us", "vc", "director")}
    sid = re.search(r"/games/([^/]+)/seat/", links["us"]).group(1)
    tokens = {s: link.rsplit("/", 1)[1] for s, link in links.items()}

    # both seats take their links in their own browsers: the sandbox starts at the edited position
    us = browser.new_context(viewport=VIEW).new_page()
    us.on("pageerror", lambda e: errors.append(str(e)))
    vc = browser.new_context(viewport=VIEW).new_page()
    vc.goto(links["vc"])
    us.goto(links["us"])
    p = Player(app.test_client(), app, {"id": sid, "seats": {"us": tokens["us"], "vc": tokens["vc"]},
                                        "director_token": tokens["director"]})
    start = p.client.get(f"/api/v1/games/{sid}/state", headers=p.auth("director")).get_json()["state"]
    assert start["units"]["vc-263-1"]["reduced"] is True and start["secret"] == full["secret"]

    # the disputed bombardment, with the forced 6: the sandbox's ruling
    ruling = p.play("us", {"type": "bombard", "unit": "vc-263-1", "marker": "us-5"})
    assert ruling["status"] == "resolved" and ruling["sandbox"] is True
    assert ruling["dice"][0]["value"] == 6 and ruling["facts"], ruling

    # what the US seat can read: its pages, its events (the first one included), its state
    us.goto(f"{base}/games/{sid}")
    for hidden in full["secret"]["hidden"]:
        assert us.locator(f'.units .counter[data-unit="{hidden}"]').count() == 0, f"{hidden} is drawn for the US"
    us.screenshot(path=str(artifacts / "sandbox-fork-us-seat.png"), full_page=False)
    seen = [us.content()]
    us.goto(f"{base}/games/{sid}/replay")
    seen.append(us.content())
    api = p.client.get(f"/api/v1/games/{sid}/events?after=-1", headers=p.auth("us"))
    first = api.get_json()["events"][0]
    assert first["payload"]["sandbox"]["state"]["secret"]["hidden"] == {}
    seen += [api.get_data(as_text=True),
             p.client.get(f"/api/v1/games/{sid}/state", headers=p.auth("us")).get_data(as_text=True)]
    leaks = [s for s in secrets for text in seen if s in text or s.replace('": "', '":"') in text]
    assert not leaks, f"the US seat sees hidden positions: {leaks}"
    assert not errors, errors
