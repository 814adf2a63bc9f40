"""Lock 'n Load's board on the pages: board 1 with its terrain (T3), hills, slivers
(10.1, 10.3), road and hex ids; counters with their values, morale side, SWs and markers; hex
markers (Smoke, Melee, face-down events, 1.7); click targets from the legal actions; the LOS line
traced by the rules' one LOS function (10.0); deterministic bytes; nothing hidden (an event's
paragraph, the other seat's standing orders, the sniper before placement, 11.4) on the other
seat's board."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from rules.core.dice import fixed_dice
from rules.lock_n_load.game import LockNLoad
from rules.lock_n_load.los import line_of_sight
from warlog.render import Scene, renderer_for
from warlog.render.lock_n_load.map import layout, world

SVG = "{http://www.w3.org/2000/svg}"
BOARD = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" class="hexmap".*?</svg>', re.S)
GAME = LockNLoad()


def _actions(html: str) -> list[dict[str, Any]]:
    m = re.search(r'<script type="application/json" id="actions-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1)) if m else []


def _svg(html: str) -> ET.Element:
    m = BOARD.search(html)
    assert m, "no board on the page"
    return ET.fromstring(m.group(0))


def _counters(root: ET.Element) -> dict[str, dict[str, Any]]:
    return {c.get("data-unit"): {"cls": (c.get("class") or "").split(), "hex": c.get("data-hex"),
                                 "text": " ".join(t.text or "" for t in c.iter(f"{SVG}text"))}
            for c in root.iter(f"{SVG}g") if "counter" in (c.get("class") or "").split() and c.get("data-unit")}


def _classed(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def _start() -> dict[str, Any]:
    return GAME.setup("demo", {}, fixed_dice([3, 4, 2, 5, 1, 6] * 20))


def _act(pg: Any, seat: str, action: dict[str, Any]) -> None:
    r = pg.act(seat, json.dumps(action))
    assert r.status_code == 303, r.get_data(as_text=True)[:300]


def test_board_1_every_hex_its_terrain_hills_slivers_road_and_rulebook_ids():
    r = renderer_for("lock-n-load")
    assert type(r).__name__ == "LnlRenderer" and r.planner(None) is None
    root = ET.fromstring(str(r.board(Scene(None))))
    assert root.get("data-game") == "lock-n-load"
    w = world()
    hexes = {p.get("data-hex"): p for p in root.iter(f"{SVG}polygon") if "hex" in (p.get("class") or "").split()}
    assert set(hexes) == set(w.hexes) and len(hexes) == 13 * 10
    # T3 example hexes carry their terrain (pattern or tint) and say it in their title
    assert hexes["1K8"].get("fill") == "url(#lnl-djungle)" and "Dense jungle" in hexes["1K8"].find(f"{SVG}title").text
    assert hexes["1F5"].get("fill") == "url(#lnl-brush)" and "Brush" in hexes["1F5"].find(f"{SVG}title").text
    assert "level 1" in hexes["1D5"].find(f"{SVG}title").text
    levels = {e.get("data-hex") or "" for e in _classed(root, "level")}
    assert len(_classed(root, "level")) == sum(1 for h in w.hexes.values() if h.get("level"))
    assert levels  # the hill is shaded
    ids = {t.text for t in _classed(root, "hexnum")}
    assert {"1F5", "1A1", "1M10", "1D5 L1"} <= ids
    assert {e.get("data-sliver") for e in _classed(root, "sliver")} == {s["id"] for s in w.slivers}
    assert len(_classed(root, "road")) == sum(1 for f in w.hexsides.values() if f.get("road"))


def test_the_demo_start_from_each_seat_shows_every_placed_unit_with_its_values(page_game):
    """1.5 / T1: FP-range-movement and morale on the counter; 1.6: the M-60 and RPD on the squads
    that carry them; 1.7: the event markers face down on both seats' boards."""
    pg = page_game("lock-n-load/demo")
    state = _start()
    placed = {u: r["at"] for u, r in state["units"].items() if r["at"]}
    for seat in ("us", "vc", "spectator"):
        root = _svg(pg.page(seat))
        counters = _counters(root)
        assert {u: c["hex"] for u, c in counters.items()} == placed, seat
        assert "2-6-4" in counters["us1"]["text"] and "6" in counters["us1"]["text"]  # US squad, morale 6
        assert "M-60" in counters["us1"]["text"] and "RPD" in counters["vc1"]["text"]
        assert "LM" in counters["harlan"]["text"]
        events = _classed(root, "event")
        assert sorted(e.get("data-event") for e in events) == ["E1", "E2"]
        assert all("face-down" in e.get("class", "").split() for e in events)
        assert len(_classed(root, "objective")) == 3


@pytest.mark.slow
def test_hidden_things_never_reach_the_other_seats_board(app, page_game):
    """1.7: an event's paragraph is secret until it activates; 11.4: the sniper is off the board
    until placed; what a standing order (ours) says is the giving seat's alone."""
    pg = page_game("lock-n-load/demo")
    paragraphs = [e["paragraph"] for e in world().scenarios["demo"]["event_markers"]]
    for seat in ("us", "vc", "spectator"):
        board = BOARD.search(pg.page(seat)).group(0)
        assert "sniper" not in _counters(ET.fromstring(board))
        assert not any(p[:30] in board for p in paragraphs)
    _act(pg, "us", {"type": "end_rally"})
    _act(pg, "vc", {"type": "end_rally"})
    _act(pg, "us", {"type": "pass"})
    order = next(a["action"] for a in _actions(pg.page("vc"))
                 if a["type"] == "order" and a["action"]["hex"] == "1L3" and a["action"]["order"] == "within2")
    _act(pg, "vc", order)
    mine = _svg(pg.page("vc"))
    chips = _classed(mine, "standing-order")
    assert len(chips) == 1 and "within2" in ET.tostring(chips[0], encoding="unicode")
    for seat in ("us", "spectator"):  # rules v3: the marker lies face down where all can see it
        html = pg.page(seat)
        chips = _classed(_svg(html), "standing-order")
        assert len(chips) == 1 and "SO ?" in ET.tostring(chips[0], encoding="unicode")
        assert "within2" not in BOARD.search(html).group(0)
        assert "sniper" not in _counters(_svg(html))


def test_click_targets_a_unit_then_the_hexes_of_its_path(page_game):
    """The page picks actions by the unit and hex `action_targets` gives: activate a hex (4.0),
    select a unit, then each movement point's hex (5.0) is a dashed target on the board."""
    pg = page_game("lock-n-load/demo")
    _act(pg, "us", {"type": "end_rally"})
    _act(pg, "vc", {"type": "end_rally"})
    html = pg.page("us")
    acts = _actions(html)
    activate = [a for a in acts if a["type"] == "activate"]
    assert activate and all(a["hex"] == a["action"]["hex"] and a["unit"] is None for a in activate)
    assert all(a["hex"] is None and a["unit"] is None for a in acts if a["type"] == "order")
    targets = {p.get("data-target") for p in _classed(_svg(html), "target-hex")}
    assert targets == {a["hex"] for a in activate}
    _act(pg, "us", {"type": "activate", "hex": "1C3"})
    html = pg.page("us")
    select = next(a for a in _actions(html) if a["type"] == "select")
    assert select["unit"] == "us5" and select["hex"] is None
    assert "target" in _counters(_svg(html))["us5"]["cls"]
    _act(pg, "us", select["action"])
    _act(pg, "us", {"type": "move", "mode": "normal"})
    html = pg.page("us")
    steps = {a["hex"] for a in _actions(html) if a["type"] == "step"}
    assert "1D3" in steps
    assert {p.get("data-target") for p in _classed(_svg(html), "target-hex")} == steps
    _act(pg, "us", {"type": "step", "hex": "1D3"})
    root = _svg(pg.page("us"))
    assert _counters(root)["us5"]["hex"] == "1D3"
    assert "Moved" in _counters(root)["us5"]["text"] and "selected" in _counters(root)["us5"]["cls"]
    assert len(_classed(root, "move-path")) == 1  # 1C3 -> 1D3 drawn


def test_shaken_wounded_fired_smoke_melee_and_revealed_event_are_drawn():
    """1.5 the Shaken side shows the shaken morale; markers Fired / Moved / OC; wounds (11.1);
    Smoke (13.x), Melee (8.0); an activated event shows its paragraph (1.7)."""
    s = _start()
    s["units"]["vc2"].update(shaken=True, marker="fired")
    s["units"]["harlan"].update(wounds=1, marker="oc")
    s["smoke"] = {"1D3": 1}
    s["melee"] = {"1K4": {}}
    s["events"]["E1"].update(revealed=True, paragraph="Rice cache.")
    v = GAME.view(s, "us")
    root = ET.fromstring(str(renderer_for("lock-n-load").board(Scene(v, extra={"seat": "us"}))))
    c = _counters(root)
    shaken_morale = world().kinds["vc-sq-143"].morale[1]
    assert "SHAKEN" in c["vc2"]["text"] and "Fired" in c["vc2"]["text"] and str(shaken_morale) in c["vc2"]["text"]
    assert "OC" in c["harlan"]["text"] and "W" in c["harlan"]["text"].split()
    assert "SHAKEN" not in c["vc1"]["text"]
    assert len(_classed(root, "smoke")) == 1
    assert any("Melee" in ET.tostring(e, encoding="unicode") for e in _classed(root, "chip"))
    events = {e.get("data-event"): e for e in _classed(root, "event")}
    assert "face-down" not in events["E1"].get("class").split() and "face-down" in events["E2"].get("class").split()
    assert "Rice cache." in ET.tostring(events["E1"], encoding="unicode")


def test_the_los_line_is_the_rules_own_verdict():
    """10.3's worked example: 1B4 -> 1D4 runs along the 1C3/1C4 hexside and the sliver degrades
    it, 1C4 -> 1C2 is not degraded; the drawn line says what los.line_of_sight says."""
    w, r = world(), renderer_for("lock-n-load")
    s = _start()
    for a, b in (("1B4", "1D4"), ("1C4", "1C2"), ("1A5", "1L3"), ("1F5", "1H5")):
        los = line_of_sight(w, a, b)
        root = ET.fromstring(str(r.board(Scene(s, extra={"los": (a, b)}))))
        g = _classed(root, "los")
        assert len(g) == 1 and g[0].get("data-from") == a and g[0].get("data-to") == b
        assert g[0].get("data-blocked") == ("true" if los.blocked else "false")
        title = g[0].find(f"{SVG}title").text
        assert ("blocked" in title) == los.blocked
        if not los.blocked:
            assert f"DRM {los.drm:+d}" in title
    assert "DRM -1" in _classed(ET.fromstring(str(r.board(Scene(s, extra={"los": ("1B4", "1D4")})))),
                                "los")[0].find(f"{SVG}title").text
    assert "DRM +0" in _classed(ET.fromstring(str(r.board(Scene(s, extra={"los": ("1C4", "1C2")})))),
                                "los")[0].find(f"{SVG}title").text


def test_the_board_is_deterministic_and_the_legend_explains_it(page_game):
    r = renderer_for("lock-n-load")
    s = _start()
    scene = Scene(GAME.view(s, "us"), target_hexes=frozenset({"1A5", "1C3"}), extra={"seat": "us"})
    assert str(r.board(scene)) == str(r.board(Scene(GAME.view(_start(), "us"), target_hexes=frozenset({"1C3", "1A5"}),
                                                    extra={"seat": "us"})))
    pg = page_game("lock-n-load/demo")
    assert BOARD.search(pg.page("us")).group(0) == BOARD.search(pg.page("us")).group(0)
    legend = str(r.legend())
    for word in ("Dense jungle", "Brush", "Hill, level 1", "Sliver", "Event marker", "Shaken side", "Line of sight",
                 "support weapon", "Smoke 1", "Melee", "standing order"):
        assert word in legend
    assert layout().width > 0


def test_the_game_page_draws_the_los_between_two_hexes_named_in_its_address(page_game):
    """`/games/<id>?los=1B4,1D4` (10.3's example: degraded by the 1C4 sliver); a malformed or
    unknown pair draws nothing and is no error."""
    pg = page_game("lock-n-load/demo")
    g = _classed(_svg(pg.page("us", "?los=1B4,1D4")), "los")
    assert len(g) == 1 and "DRM -1" in g[0].find(f"{SVG}title").text
    for bad in ("?los=1B4", "?los=1B4,ZZ9", "?los=,", "?los=" + "x" * 40 + ",1B4"):
        assert not _classed(_svg(pg.page("us", bad)), "los")


def _active(pg: Any) -> str | None:
    for seat in ("us", "vc"):
        if 'data-my-turn="1"' in pg.page(seat):
            return seat
    return None


def _us_pick(acts: list[dict[str, Any]], b: Any) -> dict[str, Any]:
    by: dict[str, list[dict[str, Any]]] = {}
    for a in acts:
        by.setdefault(a["type"], []).append(a)
    if by.get("step"):
        return min(by["step"], key=lambda a: (b.distance(a["hex"], "1K4"), a["hex"]))
    for t in ("select", "move"):
        if by.get(t):
            return by[t][0]
    if by.get("activate"):
        return min(by["activate"], key=lambda a: (b.distance(a["hex"], "1K4"), a["hex"]))
    return (by.get("end_impulse") or by.get("stop") or by["pass"])[0]


def _to_opp_fire_prompt(pg: Any) -> None:
    """US moves a stack toward the hamlet, one movement point at a time, until the VC is asked to
    opportunity-fire (5.3, W1)."""
    _act(pg, "us", {"type": "end_rally"})
    _act(pg, "vc", {"type": "end_rally"})
    b = world().board
    for _ in range(80):
        seat = _active(pg)
        acts = _actions(pg.page(seat)) if seat else []
        if seat == "vc" and any(a["type"] == "opp_fire" for a in acts):
            return
        assert seat is not None
        if seat == "vc":
            pick = next(a for a in acts if a["type"] in ("pass", "end_impulse", "hold_fire"))
        else:
            pick = _us_pick(acts, b)
        _act(pg, seat, pick["action"])
    raise AssertionError("no opportunity-fire prompt")


@pytest.mark.slow
def test_the_opp_fire_prompt_marks_the_mover_and_my_eligible_units_for_the_asked_seat_only(page_game):
    """5.3 (W1): the seat asked sees where the mover stands, each hex that may fire (ringed, "MAY
    FIRE") and its eligible units outlined; the mover sees where it stands and no firers."""
    pg = page_game("lock-n-load/demo")
    _to_opp_fire_prompt(pg)
    vc = _svg(pg.page("vc"))
    layer = _classed(vc, "oppfire")
    assert len(layer) == 1
    at = layer[0].get("data-at")
    firer_hexes = {a["hex"] for a in _actions(pg.page("vc")) if a["type"] == "opp_fire"}
    assert {p.get("data-hex") for p in _classed(vc, "opp-firer")} == firer_hexes
    can_fire = {u for u, c in _counters(vc).items() if "can-fire" in c["cls"]}
    assert can_fire and {_counters(vc)[u]["hex"] for u in can_fire} == firer_hexes
    assert all(c["hex"] != at for u, c in _counters(vc).items() if u in can_fire)
    us = _svg(pg.page("us"))
    assert [p.get("data-hex") for p in _classed(us, "opp-mover")] == [at]
    assert not _classed(us, "opp-firer") and not any("can-fire" in c["cls"] for c in _counters(us).values())
    # The fire's result names its LOS, obstacles with their rules, FP, DRM and both dice (5.0, 10.0).
    _act(pg, "vc", {"type": "opp_fire", "hex": sorted(firer_hexes)[0]})
    html = pg.page("vc")
    assert 'class="fact-los small"' in html and "attacker&#39;s die" in html and "defender&#39;s die" in html


def test_the_los_report_lists_what_the_line_crosses_degrades_and_blocks(page_game):
    """10.3's example 1B4 -> 1D4: degraded by the 1C4 jungle sliver, with its rule section; the LOS
    tool (two clicks on the board) is on the page."""
    pg = page_game("lock-n-load/demo")
    html = pg.page("us", "?los=1B4,1D4")
    assert 'id="los-tool"' in html
    m = re.search(r'<section class="card los-card" id="los-report".*?</section>', html, re.S)
    assert m and "degraded by 1 hex (DRM -1, T5)" in m.group(0) and "crosses 1B4" in m.group(0)
    assert "degrades" in m.group(0) and "LnL 10." in m.group(0)
    blocked = pg.page("us", "?los=1K3,1L3")  # into the wooden building: seen into, never through
    assert 'id="los-report"' in blocked
    assert 'id="los-report"' not in pg.page("us", "?los=1B4,ZZ9")


def test_standing_orders_are_given_from_a_select_grouped_by_hex(page_game):
    """Standing orders (ours): one select, an option group per hex naming its units and its order
    now; the form gives the chosen order like any move."""
    pg = page_game("lock-n-load/demo")
    _act(pg, "us", {"type": "end_rally"})
    _act(pg, "vc", {"type": "end_rally"})
    _act(pg, "us", {"type": "pass"})
    html = pg.page("vc")
    form = re.search(r'<form [^>]*id="orders-form".*?</form>', html, re.S)
    assert form and 'label="1L3: Tran Van Lam, VC 1st squad (now: ask me)"' in form.group(0)
    assert "Standing order for 1L3: fire at enemies moving within 2 hexes</option>" in form.group(0)
    value = json.dumps({"hex": "1L3", "order": "within2", "type": "order"}, sort_keys=True)
    assert value.replace('"', "&#34;") in form.group(0)
    assert 'data-type="order"' not in html  # no longer a wall of buttons, one per order
    _act(pg, "vc", json.loads(value))
    mine = pg.page("vc")
    assert 'label="1L3: Tran Van Lam, VC 1st squad (now: fire at enemies moving within 2 hexes)"' in mine
    # the orders now standing, listed in words as the other games list their standing answers
    assert re.search(r'id="orders-now"><li data-hex="1L3">1L3: fire at enemies moving within 2 hexes</li></ul>', mine)
    other = pg.page("us")
    assert 'id="orders-form"' not in other and 'id="orders-now"' not in other and "within 2 hexes" not in other


def test_a_sniper_order_is_drawn_where_it_places_him_for_its_owner_only():
    """11.4, A42 (rules v4): the owner's board shows his sniper's standing order at the hex it names;
    the other seat's view holds the face-down marker with no hex, so its board draws nothing of it."""
    s = _start()
    s["orders"]["vc"]["sniper:sniper"] = "1K8:within2"
    boards = {}
    for seat in ("vc", "us"):
        v = GAME.view(s, seat)
        boards[seat] = ET.fromstring(str(renderer_for("lock-n-load").board(Scene(v, extra={"seat": seat}))))
    chips = _classed(boards["vc"], "sniper-order")
    assert len(chips) == 1 and "SN within2" in ET.tostring(chips[0], encoding="unicode")
    assert not _classed(boards["us"], "sniper-order")
    assert "1K8:within2" not in ET.tostring(boards["us"], encoding="unicode")
    order = {"type": "sniper_order", "unit": "sniper", "hex": "1K8", "order": "fire"}
    assert renderer_for("lock-n-load").action_targets(order) == (None, None)  # given from its list, not a click
