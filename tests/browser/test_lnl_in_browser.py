"""In a real browser: the Lock 'n Load demo by two seats, each in its own browser context.

The US and the VC end their rally by clicking; the VC gives a standing order from the map page's
select; the US activates a hex, selects a squad and moves it hex by hex by clicking on the board
until the VC is asked to opportunity-fire (5.3) — the prompt, the mover's mark and the VC's
eligible units appear on the VC's page only; the VC fires by clicking and the fire's LOS, FP, DRM
and dice show under its fact; a line of sight is picked by two clicks. Then both seats finish the
game through the JSON API with the scripted strategy (tools/lnl_strategy.py) and the final page is
screenshotted to test-artifacts/lnl-demo-end.png.
"""

from __future__ import annotations

import json
import random
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from rules import get_game
from tests.browser.conftest import new_game_page, press_action, updated
from tools.lnl_strategy import choose

VIEW = {"width": 1600, "height": 1200}


def _acts(page: Any) -> list[dict[str, Any]]:
    return [a["action"] for a in json.loads(page.locator("#actions-data").text_content() or "[]")]


def _button(page: Any, action: dict[str, Any]) -> None:
    press_action(page, f"button[value='{json.dumps(action, sort_keys=True)}']")  # confirmed when the page asks


def _click_hex(page: Any, hex_id: str) -> None:
    page.locator(f'#board .terrain [data-hex="{hex_id}"]').click(force=True)
    page.wait_for_selector("#confirm:not([hidden])")
    with updated(page):
        page.click("#confirm-go")


def _my_turn(page: Any) -> bool:
    page.reload()
    return page.evaluate("document.body.dataset.myTurn") == "1"


def _api(base: str, token: str, path: str, body: dict[str, Any] | None = None) -> Any:
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                                 method="GET" if body is None else "POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _finish_by_api(base: str, gid: str, tokens: dict[str, str]) -> dict[str, Any]:
    """Both seats play the scripted strategy through the API until the game ends."""
    g = get_game("lock-n-load")
    rng = random.Random(11)
    for n in range(3000):
        info = _api(base, tokens["us"], f"/api/v1/games/{gid}")
        if info["status"] != "active":
            return dict(info)
        if info.get("pending"):
            time.sleep(0.02)
            continue
        seat = info["active_seats"][0]
        listing = _api(base, tokens[seat], f"/api/v1/games/{gid}/actions")
        if not listing["actions"]:
            time.sleep(0.02)
            continue
        state = _api(base, tokens[seat], f"/api/v1/games/{gid}/state")["state"]
        action = choose(g, state, seat, listing["actions"], rng)  # type: ignore[arg-type]
        out = _api(base, tokens[seat], f"/api/v1/games/{gid}/moves",
                   {"action": action, "expected_seq": listing["expected_seq"], "idempotency_key": f"b{n}"})
        for _ in range(500):
            if _api(base, tokens[seat], f"/api/v1/games/{gid}/moves/{out['seq']}")["status"] != "pending":
                break
            time.sleep(0.01)
    raise AssertionError("the game did not end")


def _us_next(acts: list[dict[str, Any]], toward: str, board: Any) -> dict[str, Any]:
    by: dict[str, list[dict[str, Any]]] = {}
    for a in acts:
        by.setdefault(a["type"], []).append(a)
    if by.get("step"):
        return min(by["step"], key=lambda a: (board.distance(a["hex"], toward), a["hex"]))
    if by.get("select"):
        return by["select"][0]
    if by.get("move"):
        return next((a for a in by["move"] if a["mode"] == "normal"), by["move"][0])
    if by.get("activate"):
        return min(by["activate"], key=lambda a: (board.distance(a["hex"], toward), a["hex"]))
    return (by.get("end_impulse") or by.get("stop") or by["pass"])[0]


@pytest.mark.browser
def test_two_seats_play_the_lnl_demo_by_clicking_then_to_its_end(browser: Any, live_server: Any,
                                                                 artifacts: Path) -> None:
    base = live_server[0]
    lobby, errors = new_game_page(browser, base, "lock-n-load/demo", VIEW)
    links = {s: lobby.locator(f'input[data-invite="{s}"]').input_value() for s in ("us", "vc")}
    tokens = {s: link.rstrip("/").split("/")[-1] for s, link in links.items()}
    gid = links["us"].split("/")[4]
    us = lobby
    vc = browser.new_context(viewport=VIEW).new_page()
    vc.on("pageerror", lambda e: errors.append(str(e)))
    vc.set_default_timeout(20_000)
    vc.goto(links["vc"])
    us.goto(links["us"])
    board = get_game("lock-n-load").world.board  # type: ignore[attr-defined]

    # Rally Phase (3.0): each seat ends its own by clicking; the other has no buttons meanwhile.
    assert _my_turn(us) and not _my_turn(vc) and vc.locator("#act-form").count() == 0
    _button(us, {"type": "end_rally"})
    assert _my_turn(vc)
    _button(vc, {"type": "end_rally"})

    # US passes its first impulse; the VC gives a standing order from the map page, then passes.
    assert _my_turn(us)
    _button(us, {"type": "pass"})
    assert _my_turn(vc)
    order = {"hex": "1L3", "order": "within1", "type": "order"}
    vc.select_option("#order-choice", json.dumps(order, sort_keys=True))
    with vc.expect_navigation():
        vc.click("#give-order")  # a plain form post: the page comes back with the order on the map
    assert "SO within1" in (vc.text_content("#board .standing-order") or "")
    us.reload()
    # rules v3: the US sees a face-down marker in 1L3, never what it says
    assert us.locator("#board .standing-order").count() == 1
    assert "SO ?" in (us.text_content("#board .standing-order") or "") and "within1" not in us.content()
    _button(vc, {"type": "pass"})

    # The US moves by clicking: activate a hex, select its squad, Move, then hex by hex.
    prompted = False
    for _ in range(60):
        if _my_turn(vc):
            acts = _acts(vc)
            if any(a["type"] == "opp_fire" for a in acts):
                prompted = True
                break
            _button(vc, next(a for a in acts if a["type"] in ("end_impulse", "hold_fire", "pass")))
            continue
        assert _my_turn(us)
        a = _us_next(_acts(us), "1K4", board)
        if a["type"] in ("activate", "step"):
            _click_hex(us, a["hex"])
        elif a["type"] == "select":
            with updated(us):
                us.locator(f'#board .units .counter[data-unit="{a["unit"]}"]').click(force=True)
        else:
            _button(us, a)
    assert prompted, "no opportunity-fire prompt came"

    # The prompt is the VC's alone: its page marks the mover and the units that may fire.
    assert vc.locator("#board .oppfire .opp-mover").count() == 1
    assert vc.locator("#board .opp-firer").count() >= 1 and vc.locator("#board .counter.can-fire").count() >= 1
    assert not _my_turn(us)
    assert us.locator("#board .opp-firer").count() == 0 and us.locator("#act-form").count() == 0
    assert us.locator("#board .opp-mover").count() == 1
    assert order["hex"] not in [a["hex"] for a in _acts(vc) if a["type"] == "opp_fire"]  # its order decides
    vc.screenshot(path=str(artifacts / "lnl-demo-opp-fire-prompt.png"))
    fire = next(a for a in _acts(vc) if a["type"] == "opp_fire")
    _button(vc, fire)
    assert vc.locator(".fact-los").count() >= 1
    text = vc.text_content(".fact-los") or ""
    assert "LOS" in text and "attacker's die" in text and "defender's die" in text

    # A line of sight by two clicks on the board: the report names the hexes it crosses.
    us.click("#los-tool")
    us.locator('#board .terrain [data-hex="1B4"]').click(force=True)
    with us.expect_navigation():
        us.locator('#board .terrain [data-hex="1D4"]').click(force=True)
    assert "1B4 → 1D4" in us.text_content("#los-report") and "degrades" in us.text_content("#los-report")
    assert us.locator("#board .los-line").count() == 1

    # The rest of the game through the API, both seats scripted; the final page shows the result.
    info = _finish_by_api(base, gid, tokens)
    assert info["status"] == "ended" and info["outcome"]["winner"] in ("us", "vc")
    us.goto(f"{base}/games/{gid}")
    assert f"{info['outcome']['winner'].upper()} win" in (us.text_content(".status-card") or "")
    us.screenshot(path=str(artifacts / "lnl-demo-end.png"), full_page=True)
    assert not errors, errors
