"""Vietnam Battles' board on the pages: both maps (every hex with its terrain, the Mekong's
all-water, bank and split hexes with their land portions, rivers, roads, bridges, places, the
Iron Triangle and the red edges), units as counters with their values and state, monitors on
their hexside, the status band and the legend; click targets from the legal actions; replay
highlights read from the facts; deterministic bytes; no hidden VC unit or camp on the US seat's
or a spectator's page."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from rules.vietnam_battles.data import data_present
from tests.pages.conftest import drain
from warlog.games.service import Viewer
from warlog.render import Highlights, Scene, renderer_for
from warlog.render.vietnam_battles.geometry import layout, world
from warlog.render.vietnam_battles.replay import highlights

pytestmark = pytest.mark.skipif(not data_present(), reason="the shipped Vietnam Battles data is not there")

SVG = "{http://www.w3.org/2000/svg}"
BOARD = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" class="hexmap".*?</svg>', re.S)


def _actions(html: str) -> list[dict[str, Any]]:
    m = re.search(r'<script type="application/json" id="actions-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1)) if m else []


def _svg(html: str) -> ET.Element:
    m = BOARD.search(html)
    assert m, "no map on the page"
    return ET.fromstring(m.group(0))


def _counters(root: ET.Element) -> dict[str, dict[str, Any]]:
    return {c.get("data-unit"): {"cls": (c.get("class") or "").split(), "hex": c.get("data-hex")}
            for c in root.iter(f"{SVG}g") if "counter" in (c.get("class") or "").split() and c.get("data-unit")}


def _act(pg: Any, seat: str, action: dict[str, Any]) -> None:
    r = pg.act(seat, json.dumps(action))
    assert r.status_code == 303, r.get_data(as_text=True)[:300]


def test_the_registry_draws_vietnam_battles_on_its_own_maps():
    r = renderer_for("vietnam-battles")
    assert type(r).__name__ == "VbRenderer" and r.planner(None) is None
    root = ET.fromstring(str(r.board(Scene(None))))
    assert root.get("data-game") == "vietnam-battles"
    hexes = [p for p in root.iter(f"{SVG}polygon") if "hex" in (p.get("class") or "").split()]
    w, lay = world("snoopy"), layout("snoopy")
    assert {p.get("data-hex") for p in hexes} == set(w.hexes) | set(lay.portions)
    assert len(lay.portions) == 2 * sum(1 for h in w.hexes.values() if h.get("mekong") == "split") == 50


def test_boys67_map_shows_terrain_rivers_roads_places_counters_and_state():
    from rules import get_game
    from rules.core.dice import fixed_dice

    g = get_game("vietnam-battles")
    s = g.setup("boys67", {}, fixed_dice([3] * 20))
    s["units"]["us-4-47-b"]["reduced"] = True
    s["bridges_down"] = ["0726/0825"]
    r = renderer_for("vietnam-battles")
    scene = Scene(g.view(s, "us"), Highlights(paths=(("0616", "0716"),), hexes=("0717",),
                                              lost=(("us-3-47-a", "1215"),)),
                  target_hexes=frozenset({"0716", "0826:north", "0717/0718"}), target_units=frozenset({"us-4-47-c"}))
    svg = str(r.board(scene))
    assert svg == str(r.board(scene))  # same scene, same bytes
    root = ET.fromstring(svg)
    w = world("snoopy")
    cls = {p.get("data-hex"): (p.get("class") or "").split() for p in root.iter(f"{SVG}polygon") if p.get("data-hex")}
    for lab, hx in w.hexes.items():
        assert ("t-mekong-split" if hx.get("mekong") == "split" else f"t-{hx['terrain']}") in cls[lab]
    assert "portion" in cls["0826:north"] and "portion" in cls["0826:south"]
    assert {"t-jungle", "t-clear", "t-swamp", "t-all_water", "t-village", "t-town", "t-cp"} <= {
        c for v in cls.values() for c in v}
    rivers = [x for x in root.iter(f"{SVG}line") if x.get("class") == "river"]
    assert len(rivers) == sum(1 for sd in w.hexsides.values() if sd.get("river"))
    assert {x.get("data-river") for x in rivers} == {"Rach Ba Rai", "Rach Tra Tan"}
    assert ">Rach Ba Rai<" in svg and ">Cai Lay<" in svg and ">C.P.<" in svg and ">Cam Son<" in svg
    assert len([x for x in root.iter(f"{SVG}line") if x.get("class") == "road"]) > 30
    bridges = {b.get("data-hexside"): b.get("class") for b in root.iter(f"{SVG}g") if b.get("data-hexside")}
    assert bridges == {"0726/0825": "bridge down", "1307/1407": "bridge intact"}
    counters = _counters(root)
    assert set(s["units"]) <= set(counters)
    assert counters["us-mon-1"]["hex"] == "0717/0718" and counters["vc-514-1"]["hex"] == "0717"
    assert "vc" in counters["vc-514-1"]["cls"] and "us" in counters["us-4-47-c"]["cls"]
    assert "reduced" in counters["us-4-47-b"]["cls"] and ">1-2-5<" in svg  # the reduced side face up
    assert "mechanized" in counters["us-5-cav"]["cls"] and "monitor" in counters["us-mon-3"]["cls"]
    assert "target" in counters["us-4-47-c"]["cls"] and "eliminated" in counters["us-3-47-a"]["cls"]
    assert ">3-5-6<" in svg and ">1-4-11<" in svg and ">0-2-12<" in svg
    assert svg.count('class="chit landing slick"') == 2 and svg.count('class="chit landing tango"') == 1
    assert 'class="hl-path"' in svg and 'class="hl-hex"' in svg
    assert svg.count('class="target-hex"') == 2  # 0716 and the portion; the hexside a clickable shape
    assert 'data-hex="0717/0718" class="target-side"' in svg or 'class="target-side" data-hex="0717/0718"' in svg
    assert "TURN 1 OF 4" in svg and "Support fire" in svg and "Slicks 2/7" in svg


def test_iron_triangle_map_outline_red_edges_tunnels():
    from rules import get_game
    from rules.core.dice import fixed_dice

    g = get_game("vietnam-battles")
    s = g.setup("iron_triangle", {}, fixed_dice([3] * 20))
    svg = str(renderer_for("vietnam-battles").board(Scene(g.view(s, None))))
    root = ET.fromstring(svg)
    w = world("iron")
    assert len([p for p in root.iter(f"{SVG}polygon") if "hex" in (p.get("class") or "").split()]) == 48 * 34
    assert 'class="iron-triangle"' in svg and 'class="red-edge"' in svg and 'class="tunnel"' in svg
    assert ">Saigon River<" in svg and ">Thi Tinh<" in svg and ">Ben Suc<" in svg and ">Cu Chi<" in svg
    assert _counters(root)["us-mon-1"]["hex"] == "4223/4323"
    assert len([x for x in root.iter(f"{SVG}line") if x.get("class") == "river"]) == \
        sum(1 for sd in w.hexsides.values() if sd.get("river"))
    assert "VC condition" not in svg  # the secret victory condition stays with the VC


def test_fortifications_and_minefields_are_drawn_where_a_map_has_them():
    """The shipped maps have none (Part VIII); a transcription may add them (VB 7.5, 5.1.2)."""
    import copy

    from warlog.render.vietnam_battles.map import _regions

    w = copy.copy(world("snoopy"))
    w.hexes = {**w.hexes, "1207": {**w.hexes["1207"], "features": ["fortification"]}}
    w.hexsides = {**w.hexsides, "1207/1208": {"minefield": True}}
    out = _regions(w, layout("snoopy"))
    assert out.count('class="fortification"') == 1 and out.count('class="minefield"') == 1
    assert 'class="fortification"' not in _regions(world("snoopy"), layout("snoopy"))


def test_the_legend_explains_terrain_mekong_features_counters_and_markers():
    legend = str(renderer_for("vietnam-battles").legend())
    for word in ("Clear (rice paddy)", "Jungle", "Swamp", "Village", "Town", "Plantation", "C.P.",
                 "All-water Mekong hex", "Mekong bank hex", "Split Mekong hex", "River on a hexside", "Thi Tinh",
                 "Road", "Trail", "Bridge", "Demolished bridge", "Iron Triangle", "Fortification", "Minefield", "Red map edge", "Cu Chi tunnels",
                 "US unit", "ARVN unit", "VC unit", "Reduced", "Mechanized", "Monitor", "Hidden VC unit",
                 "Landing Zone", "Base camp", "Replay: path moved", "Replay: hex fought over"):
        assert word in legend, word
    assert "data-unit" not in legend


def test_action_targets_name_units_and_positions():
    r = renderer_for("vietnam-battles")
    assert r.action_targets({"type": "select", "unit": "us-4-47-c"}) == ("us-4-47-c", None)
    assert r.action_targets({"type": "enter", "hex": "0826:north"}) == (None, "0826:north")
    assert r.action_targets({"type": "sail", "to": "0717/0718"}) == (None, "0717/0718")
    assert r.action_targets({"type": "declare", "defender": "vc-514-1", "unit": "us-4-47-c"}) == \
        ("us-4-47-c", "vc-514-1")
    assert r.action_targets({"type": "retreat", "unit": "vc-514-1", "path": ["0818", "0819"]}) == \
        ("vc-514-1", "0819")
    assert r.action_targets({"type": "end_phase"}) == (None, None)
    assert r.name_of("unit", "vc-514-1") == "514/1 3-5-6" and r.name_of("hex", "0826:south") == "0826 (south portion)"


def test_replay_highlights_come_from_the_facts_data():
    before = {"units": {"us-4-47-c": {"status": "map", "at": "0616"}, "vc-514-1": {"status": "map", "at": "0717"},
                        "vc-514-2": {"status": "map", "at": "0816"}, "us-mon-1": {"status": "map", "at": "0717/0718"}}}
    after = json.loads(json.dumps(before))
    after["units"]["vc-514-2"] = {"status": "dead", "at": None}
    facts = [
        {"kind": "move", "data": {"unit": "us-4-47-c", "from": "0616", "hex": "0716"}},
        {"kind": "move", "data": {"unit": "us-mon-1", "from": "0717/0718", "to": "0718/0818"}},
        {"kind": "declare", "data": {"defender": "vc-514-1", "units": ["us-4-47-c"]}},
        {"kind": "combat", "data": {"defender": "vc-514-1", "units": ["us-4-47-c"], "result": "DR1"}},
        {"kind": "retreat", "data": {"unit": "vc-514-1", "path": ["0718", "0719"]}},
    ]
    hl = highlights({"type": "resolved", "payload": {"facts": facts}}, before, after)
    assert hl.paths == (("0616", "0716"), ("0717/0718", "0718/0818"), ("0717", "0718", "0719"))
    assert hl.hexes == ("0717",) and {"us-4-47-c", "vc-514-1"} <= set(hl.units)
    assert hl.lost == (("vc-514-2", "0816"),)
    assert not highlights({"type": "submitted", "payload": {}}, before, after)


@pytest.mark.parametrize("scenario", ["boys67", "snoopys_nose", "iron_triangle"])
@pytest.mark.slow
def test_each_scenario_page_and_replay_show_the_board(page_game, scenario):
    pg = page_game(f"vietnam-battles/{scenario}")
    seat = "us" if scenario == "boys67" else "vc"
    html = pg.page(seat)
    root = _svg(html)
    assert root.get("data-game") == "vietnam-battles" and "Map key" in html and "Split Mekong hex" in html
    n = 48 * 34 if scenario == "iron_triangle" else 24 * 34 + 50
    assert len([p for p in root.iter(f"{SVG}polygon") if "hex" in (p.get("class") or "").split()]) == n
    acts = _actions(html)
    assert acts
    units = {a["unit"] for a in acts if a["unit"]}
    hexes = {a["hex"] for a in acts if a["hex"]}
    counters = _counters(root)
    assert units <= {u for u, c in counters.items() if "target" in c["cls"]}
    drawn = {p.get("data-target") for p in root.iter(f"{SVG}polygon") if p.get("class") == "target-hex"}
    assert {h for h in hexes if "/" not in h} <= drawn
    if scenario == "boys67":
        assert {"us-4-47-c", "vc-514-1", "us-mon-1"} <= set(counters) and "TURN 1 OF 4" in html
    replay = pg.page("spectator", "/replay/1")
    assert BOARD.search(replay) and "Map key" in replay
    assert BOARD.search(pg.page("spectator")).group(0) == BOARD.search(pg.page("spectator")).group(0)
    drain(pg.app)


def test_boys67_click_a_unit_then_the_hexes_of_its_path(page_game):
    pg = page_game("vietnam-battles/boys67")
    select = next(a for a in _actions(pg.page("us")) if a["type"] == "select" and a["unit"] == "us-4-47-c")
    _act(pg, "us", select["action"])
    html = pg.page("us")
    enter = [a for a in _actions(html) if a["type"] == "enter"]
    assert enter and all(a["hex"] and a["unit"] is None for a in enter) and "Enter" in html
    root = _svg(html)
    assert "selected" in _counters(root)["us-4-47-c"]["cls"] and "moving 4/47 C" in html
    drawn = {p.get("data-target") for p in root.iter(f"{SVG}polygon") if p.get("class") == "target-hex"}
    assert {a["hex"] for a in enter} <= drawn
    _act(pg, "us", enter[0]["action"])
    last = pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["seq"]
    replay = pg.page("spectator", f"/replay/{last}")
    assert 'class="hl-path"' in replay


@pytest.mark.slow
def test_a_hidden_vc_unit_never_reaches_the_us_seat_or_a_spectator(app, page_game):
    """Snoopy's Nose: the VC hides 514/1 and its five camps; the US seat's and a spectator's
    boards (play, and the replay at every step) never draw them; the VC's own board does."""
    pg = page_game("vietnam-battles/snoopys_nose")
    camps: list[str] = []
    hidden_at, hiding = None, False
    while pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["active_seats"] == ["vc"]:
        acts = [a["action"] for a in _actions(pg.page("vc"))]
        types = {a["type"] for a in acts}
        if "camp" in types:
            a = [x for x in acts if x["type"] == "camp"][7 * len(camps) + 3]
            camps.append(a["hex"])
        elif "at" in types:
            spots = [x for x in acts if x["type"] == "at"]
            a = spots[len(spots) // 2]
            if hiding:
                hidden_at, hiding = a["hex"], False
        elif hidden_at is None and {"type": "hide", "unit": "vc-514-1"} in acts:
            a, hiding = {"type": "hide", "unit": "vc-514-1"}, True
        else:
            a = next(x for x in acts if x["type"] == "place" and x["unit"] != "vc-514-1")
        _act(pg, "vc", a)
    assert hidden_at is not None and len(camps) == 5
    full = app.extensions["warlog"].state(pg.id, None, Viewer(None, director=True))["state"]
    assert full["secret"]["hidden"]["vc-514-1"] == hidden_at and sorted(full["secret"]["camps"].values()) == camps
    mine = BOARD.search(pg.page("vc")).group(0)
    counters = _counters(ET.fromstring(mine))
    assert "hidden-unit" in counters["vc-514-1"]["cls"] and counters["vc-514-1"]["hex"] == hidden_at
    assert mine.count('class="chit camp secret"') == 5
    last = pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["seq"]
    for seat in ("us", "spectator"):
        now = _counters(_svg(pg.page(seat)))
        assert "vc-514-1" not in now and hidden_at not in {c["hex"] for c in now.values()}
        pages = [pg.page(seat)] + [pg.page(seat, f"/replay/{step}") for step in range(last + 1)]
        for page in pages:
            board = BOARD.search(page).group(0)
            counters = _counters(ET.fromstring(board))  # before its set-up it waits off the map, in the tray
            assert counters.get("vc-514-1", {}).get("hex") is None
            assert hidden_at not in {c["hex"] for c in counters.values()}
            assert "hidden-unit" not in board and "data-camp" not in board
            assert f"in {hidden_at}" not in page
    assert "1 VC unit hidden" in pg.page("us")
