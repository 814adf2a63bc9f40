"""In a real browser: a seat of Assault on Belgium sets a secret standing answer (ours, rules
version 2) on its play page, on a 390 px phone and by keyboard; the page lists it in words; the
other seat's page shows nothing of it; and when the decision comes the game applies it at once,
without waiting for the seat."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import new_game_page

PHONE = {"width": 390, "height": 844}
STAY = "Air missions: fly no missions: the aircraft stay at base, always"
# Germany's 5. Panzer-Division drives on Bastogne (a battle), then Germany ends its movement and
# its air missions: the next decision is Belgium's air phase (AoB 21)
GERMAN_MOVES = [{"type": "standard_setup"}, {"type": "done_setup"}, {"type": "select", "unit": "de-pz-5"},
                {"type": "move", "hex": "1809"}, {"type": "move", "hex": "1710"}, {"type": "move", "hex": "1610"},
                {"type": "end_movement"}, {"type": "end_air"}]


def _api(base: str, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                                 method="GET" if body is None else "POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _move(base: str, gid: str, token: str, action: dict[str, Any], n: int) -> dict[str, Any]:
    listing = _api(base, token, f"/api/v1/games/{gid}/actions")
    out = _api(base, token, f"/api/v1/games/{gid}/moves",
               {"action": action, "expected_seq": listing["expected_seq"], "idempotency_key": f"s{n}"})
    for _ in range(600):
        move = _api(base, token, f"/api/v1/games/{gid}/moves/{out['seq']}")
        if move["status"] != "pending":
            assert move["status"] == "resolved", move
            return dict(move)
        time.sleep(0.02)
    raise AssertionError(f"move {out['seq']} was never judged")


@pytest.mark.browser
def test_a_standing_answer_set_on_a_phone_is_applied_without_waiting(browser: Any, live_server: Any,
                                                                     artifacts: Path) -> None:
    base, _ = live_server
    creator, errors = new_game_page(browser, base, "assault-on-belgium/may-1940")
    links = {s: creator.locator(f'input[data-invite="{s}"]').input_value() for s in ("germany", "belgium")}
    tokens = {s: link.rsplit("/", 1)[1] for s, link in links.items()}
    gid = links["germany"].split("/")[4]
    bel = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    ger = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    for p in (bel, ger):
        p.on("pageerror", lambda e: errors.append(str(e)))
        p.set_default_timeout(20_000)
    bel.goto(links["belgium"])
    ger.goto(links["germany"])
    card = bel.locator("#standing-answers")
    assert "None: the game asks you at every decision." in card.inner_text()

    bel.locator("#set-standing").scroll_into_view_if_needed()
    bel.locator("#controls").screenshot(path=str(artifacts / "standing-form-phone.png"))
    # by keyboard: the answer's list, then the button
    bel.focus("#standing-choice")
    bel.select_option("#standing-choice", label="Air missions: fly no missions: the aircraft stay at base")
    bel.keyboard.press("Tab")  # past the optional conditions' summary, to the button
    focused = bel.evaluate("document.activeElement.tagName + ' ' + (document.activeElement.id || '')")
    if focused != "BUTTON set-standing":
        bel.keyboard.press("Tab")
    assert bel.evaluate("document.activeElement.id") == "set-standing"
    with bel.expect_navigation():
        bel.keyboard.press("Enter")
    bel.wait_for_selector("#standing-now")
    assert bel.locator("#standing-now li").all_inner_texts() == [STAY + " AoB 8, 21"]
    # it fits the phone: the card and its form end inside the 390 px
    box = bel.locator("#standing-answers").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, box
    bel.screenshot(path=str(artifacts / "standing-answer-phone.png"), full_page=True)

    # the other seat's page knows nothing of it
    ger.reload()
    assert STAY not in ger.content() and ger.locator("#standing-now").count() == 0

    _move(base, gid, tokens["belgium"], {"type": "standard_setup"}, 0)
    _move(base, gid, tokens["belgium"], {"type": "done_setup"}, 1)
    for n, action in enumerate(GERMAN_MOVES):
        last = _move(base, gid, tokens["germany"], action, 10 + n)
    facts = [f["text"] for f in last["facts"]]
    assert "BELGIUM's standing answer settles the air decision" in facts, facts
    state = _api(base, tokens["belgium"], f"/api/v1/games/{gid}/state")["state"]
    assert state["phase"] == "combat"  # the battles are fought: Belgium's air phase never waited
    bel.goto(f"{base}/games/{gid}")
    assert "Combat" in bel.locator(".status-card .phase").inner_text()
    assert bel.locator("#standing-now li").all_inner_texts() == [STAY + " AoB 8, 21"]  # it stands still
    # the form is offered to the seat to act (which one is, in combat, is the battle's dice's doing)
    active = _api(base, tokens["germany"], f"/api/v1/games/{gid}")["active_seats"]
    assert bel.locator("#standing-form").count() == (1 if "belgium" in active else 0), active
    ger.reload()  # Belgium's answer stays unseen on Germany's page
    assert ger.locator("#standing-form").count() == (1 if "germany" in active else 0), active
    assert STAY not in ger.content() and ger.locator("#standing-now").count() == 0
    assert not errors, errors
