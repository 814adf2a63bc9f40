"""UP FRONT in the mountains, a whole game in a real browser: two seats, each in its own Chromium context, play a
mountain scenario (A, Bare mountains, Frozen) to its end on the card table. The pages are used by
clicking — a card of the hand, then its group, then the confirmation — for at least one altitude
change (UFM 5.1.e–h), one fire up or down the mountain (UFM 6.2, 6.3), one entrenchment under the
scenario's condition (Frozen: 5 or 6, UFM 10.2) and one Concealment played by the other seat in
the mover's turn (UF C.5); the rest of the game is driven through the API by a scripted strategy
that seeks those actions. Every time a seat's page is shown it is searched for the cards of the
other seat's hand (none may appear); at the end `warlog verify` re-derives every card drawn.
The final card table is saved to test-artifacts/."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path
from typing import Any

import pytest

from rules.up_front.data import world
from rules.up_front.geometry import level_of
from tests.browser.conftest import updated
from warlog.trust.verify import verify_bytes

VIEW = {"width": 1400, "height": 1100}
W = world()
PRIORITY = {"altitude": 10, "conceal": 9, "mine_altitude": 9, "alt_step": 8, "entrench": 6, "fire": 5,
            "accept": 4, "complete": 4, "place": 3, "rally": 3, "remove": 3, "move": 1, "decline": 1,
            "ready": 1, "discard": 0.5, "end_turn": 0.2}


class Api:
    """The seats' and the director's API calls, on the live server's app."""

    def __init__(self, app: Any, created: dict[str, Any]) -> None:
        self.client, self.app, self.created, self.id = app.test_client(), app, created, created["id"]

    def auth(self, seat: str) -> dict[str, str]:
        token = self.created["director_token"] if seat == "director" else self.created["seats"][seat]
        return {"Authorization": f"Bearer {token}"}

    def get(self, path: str, seat: str = "director") -> Any:
        r = self.client.get(f"/api/v1/games/{self.id}{path}", headers=self.auth(seat))
        assert r.status_code == 200, r.get_data(as_text=True)
        return r.get_json() if r.is_json else r.get_data()

    def drain(self) -> None:
        queue = self.app.extensions["warlog_queue"]
        if hasattr(queue, "drain"):
            queue.drain()

    def play(self, seat: str, action: dict[str, Any]) -> dict[str, Any]:
        expected = self.get("/actions", seat)["expected_seq"]
        r = self.client.post(f"/api/v1/games/{self.id}/moves", headers=self.auth(seat), json={
            "action": action, "expected_seq": expected, "idempotency_key": uuid.uuid4().hex})
        assert r.status_code == 202, r.get_json()
        self.drain()
        seq = r.get_json()["seq"]
        for _ in range(600):
            move = self.get(f"/moves/{seq}", seat)
            if move["status"] != "pending":
                return dict(move)
        raise AssertionError(f"move {seq} was not judged")


def _pick(rng: random.Random, acts: list[dict[str, Any]], tried: set[str]) -> dict[str, Any]:
    """The "done when" policy of tests/up_front/test_uf_done.py: seek altitude changes, reactions,
    entrenchment and fire among the legal actions."""
    def value(a: dict[str, Any]) -> float:
        v = PRIORITY.get(a["type"], -1)
        if a["type"] == "altitude" and a["altitude"] is None:
            v = 7
        if a["type"] == "entrench" and a["group"] in tried:
            v = 0.1
        if a["type"] == "move" and a["mode"] != "forward":
            v = 0
        return v + rng.random() / 10
    return max(acts, key=value)


def _wanted(full: dict[str, Any], seat: str, a: dict[str, Any]) -> str | None:
    """Which of the clicks the test must make this action is, if any."""
    kind = a["type"]
    if kind == "altitude":
        return "altitude change"
    if kind == "entrench":
        return "entrenchment"
    if kind == "conceal" and full["reaction"] and full["turn"] != seat:
        return "reaction"
    if kind == "fire":
        foe = [r for r in full["roles"] if r != seat][0]
        mine, theirs = level_of(W, full["groups"][seat][a["group"]]), level_of(W, full["groups"][foe][a["target"]])
        if mine != theirs:
            return "fire up" if theirs > mine else "fire down"
    return None


def _no_foreign_cards(page: Any, full: dict[str, Any], seat: str) -> None:
    html = page.inner_html("svg.cardtable")
    foe = [r for r in full["roles"] if r != seat][0]
    shown = [c for c in full["hands"][foe] if f'data-unit="{c}"' in html or f">{c}<" in html]
    assert not shown, f"{seat}'s page shows cards of {foe}'s hand: {shown}"
    assert all(f'data-unit="{c}"' in html for c in full["hands"][seat]), f"{seat}'s page misses its own hand"


def _click(page: Any, a: dict[str, Any]) -> None:
    """Play action `a` on the page: its card, then its group, then the confirmation (or the choice
    whose label is the action's own, when several actions share that card and group)."""
    listed = json.loads(page.locator("#actions-data").text_content())
    entry = next(e for e in listed if e["action"] == a)
    if entry["unit"]:
        page.locator(f'svg.cardtable .counter[data-unit="{entry["unit"]}"]').click(force=True)
    if entry["hex"]:
        page.locator(f'svg.cardtable .terrain [data-hex="{entry["hex"]}"]').click(force=True)
    page.wait_for_selector("#confirm:not([hidden]) button")
    with updated(page):
        if page.locator("#confirm-go").count():
            page.click("#confirm-go")
        else:
            page.locator("#confirm button", has_text=entry["label"]).first.click()


@pytest.mark.browser
def test_two_seats_play_a_mountain_scenario_to_its_end_on_the_card_table(browser: Any, live_server: Any,
                                                                         artifacts: Path) -> None:
    base, app = live_server
    svc = app.extensions["warlog"]
    svc.new_seed, svc.new_id = (lambda: bytes([12]) * 32), (lambda: "uf-browser-001")
    r = app.test_client().post("/api/v1/games", json={"game": "up-front", "scenario": "A", "options": {
        "terrain_type": "bare", "condition": "frozen"}})
    assert r.status_code == 201, r.get_json()
    api = Api(app, r.get_json())
    pages: dict[str, Any] = {}
    errors: list[str] = []
    for seat, token in api.created["seats"].items():  # each seat opens its invitation in its own browser
        page = browser.new_context(viewport=VIEW).new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(20_000)
        page.goto(f"{base}/games/{api.id}/seat/{token}")
        pages[seat] = page

    rng = random.Random(12)
    tried: set[str] = set()
    clicked: dict[str, dict[str, Any]] = {}
    shown = 0
    for step in range(2500):
        info = api.get("")
        if info["status"] == "ended":
            break
        (seat,) = info["active_seats"]
        full = api.get("/state")["state"]
        a = _pick(rng, api.get("/actions", seat)["actions"], tried)
        if a["type"] == "entrench":
            tried.add(a["group"])
        want = _wanted(full, seat, a)
        if want and want not in clicked and not ({"fire up", "fire down"} & set(clicked) and want.startswith("fire")):
            page = pages[seat]
            page.goto(f"{base}/games/{api.id}")
            _no_foreign_cards(page, full, seat)
            shown += 1
            _click(page, a)
            assert "Done:" in page.inner_text("#play-root"), page.inner_text("#play-root")[:400]
            move = api.get(f"/moves/{page.url.split('last=')[1]}", seat)  # the page shows the judged move
            assert move["status"] == "resolved" and move["submitted"]["action"] == a, move
            clicked[want] = move
            continue
        if step % 40 == 0:  # both pages, now and then, in any phase of the game
            for s, page in pages.items():
                page.goto(f"{base}/games/{api.id}")
                _no_foreign_cards(page, full, s)
                shown += 1
        move = api.play(seat, a)
        assert move["status"] == "resolved", move
    assert api.get("")["status"] == "ended"

    assert "altitude change" in clicked and "entrenchment" in clicked and "reaction" in clicked, sorted(clicked)
    fire = clicked.get("fire up") or clicked.get("fire down")
    assert fire, sorted(clicked)
    rules = [r for f in fire["facts"] for r in (f.get("data") or {}).get("rules", [])]
    assert "UFM 6.2" in rules or "UFM 6.3" in rules, fire["facts"]
    assert any(f["kind"] == "entrench" and "[5, 6]" in f["text"] for f in clicked["entrenchment"]["facts"])
    assert any(f["kind"] == "altitude" and f["rule"] in ("UFM 5.1.e", "UFM 5.1.h")
               for f in clicked["altitude change"]["facts"])
    assert shown >= 6

    outcome = api.get("")["outcome"]
    for page in pages.values():  # the game is over: every page shows the result and its reason
        page.goto(f"{base}/games/{api.id}")
        assert outcome["reason"].split(":")[0] in page.inner_text(".outcome"), (outcome, page.inner_text(".outcome"))
    pages["americans"].screenshot(path=str(artifacts / "up-front-mountain-game-ended.png"), full_page=True)
    report = verify_bytes(api.get("/export"))
    assert report.seed_revealed and report.ended and report.dice_derived > 100
    assert not errors, errors
