"""Green Beret: Vietnam's board on the pages: the map (every hex, its terrain, streams, roads,
bridges, villages and airfields), camps, the mission marker, teams and enemy units as counters
with their values and state, the legend; click targets from the legal actions; replay
highlights read from the facts; deterministic bytes; no hidden information."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from tests.green_beret_vietnam import gbv_helpers as gh
from tests.pages.conftest import drain
from warlog.games.service import Viewer
from warlog.render import Highlights, Scene, renderer_for
from warlog.render.green_beret_vietnam.replay import highlights

SVG = "{http://www.w3.org/2000/svg}"
GAME = "green-beret-vietnam/campaign"


def _actions(html: str) -> list[dict[str, Any]]:
    m = re.search(r'<script type="application/json" id="actions-data">(.*?)</script>', html, re.S)
    assert m, "no actions on the page"
    return json.loads(m.group(1))


def _svg(html: str) -> ET.Element:
    m = re.search(r'<svg xmlns="http://www.w3.org/2000/svg" class="hexmap".*?</svg>', html, re.S)
    assert m, "no map on the page"
    return ET.fromstring(m.group(0))


def _act(pg: Any, action: dict[str, Any]) -> None:
    r = pg.act("player", json.dumps(action))
    assert r.status_code == 303


def _mid_game() -> tuple[Any, dict[str, Any]]:
    """A turn-3 movement phase: a camp, two teams (one detected and wounded, one moving), a
    leader, items (one left lying), enemies (a suppressed VC platoon, a PT-76) and a mission."""
    g = gh.real()
    w = g.world
    s = gh.state(g, "movement")
    gh.camp(s, "1222")
    for cid in ("a-team-1", "commander-1", "m60-1"):
        gh.put(s, cid, "1222")
    gh.put(s, "b-team-1", "1415", detected=True, damage=["wounded-1"])
    gh.put(s, "demo-1", "1415", left=True)
    s["damage_pool"].remove("wounded-1")
    gh.enemy(s, "vc-platoon-1", "1516")
    gh.enemy(s, "pt-76-1", "1416")
    s["enemies"]["vc-platoon-1"]["suppressed"] = True
    gh.mission(s, w, "Harass")
    s["moving"] = {"hex": "1222", "start": "1222", "members": ["a-team-1"], "minus": 0, "spent": 0, "steps": 0,
                   "min_move": False, "water": "none", "path": [], "ma": 0, "started": ["a-team-1"], "pending": []}
    g.check_state(s)
    return g, s


def test_the_registry_draws_green_beret_on_its_own_map():
    assert type(renderer_for("green-beret-vietnam")).__name__ == "GbvRenderer"
    svg = str(renderer_for("green-beret-vietnam").board(Scene(None)))
    root = ET.fromstring(svg)
    assert root.get("data-game") == "green-beret-vietnam" and 'class="units"' not in svg
    assert len([p for p in root.iter(f"{SVG}polygon") if "hex" in (p.get("class") or "").split()]) == 26 * 36


def test_the_map_shows_terrain_features_places_counters_and_state_deterministically():
    g, s = _mid_game()
    w = g.world
    r = renderer_for("green-beret-vietnam")
    scene = Scene(g.view(s, "player"), Highlights(paths=(("1222", "1322", "1321"),), hexes=("1416",),
                                                  lost=(("vc-squad-2", "1517"),)),
                  target_hexes=frozenset({"1221", "1322"}), target_units=frozenset({"pt-76-1"}))
    svg = str(r.board(scene))
    assert svg == str(r.board(scene))  # same scene, same bytes
    root = ET.fromstring(svg)
    hexes = {p.get("data-hex"): p.get("class") for p in root.iter(f"{SVG}polygon") if p.get("data-hex")}
    assert len(hexes) == 936 and set(hexes) == set(w.hexes)
    for lab, h in w.hexes.items():
        assert f"t-{h.terrain}" in hexes[lab].split()
    assert len([x for x in root.iter(f"{SVG}line") if x.get("class") == "stream"]) > 50
    assert len([x for x in root.iter(f"{SVG}line") if x.get("class") == "road"]) > 100
    bridges = [x for x in root.iter(f"{SVG}g") if "bridge" in (x.get("class") or "")]
    assert len(bridges) == sum(1 for h in w.hexes.values() if h.bridge or "destroyed_bridge" in h.features)
    assert ">Kon Tum<" in svg and ">Cheo Reo airstrip<" in svg and ">1518<" in svg
    counters = {c.get("data-unit"): c.get("class").split() for c in root.iter(f"{SVG}g")
                if "counter" in (c.get("class") or "").split() and c.get("data-unit")}
    assert {"a-team-1", "commander-1", "m60-1", "b-team-1", "demo-1", "vc-platoon-1", "pt-76-1", "camp-1",
            "vc-squad-2"} <= set(counters)
    assert "undetected" in counters["a-team-1"] and "selected" in counters["a-team-1"]  # the group under way
    assert "detected" in counters["b-team-1"] and "left" in counters["demo-1"]
    assert "suppressed" in counters["vc-platoon-1"] and "target" in counters["pt-76-1"]
    assert "eliminated" in counters["vc-squad-2"]  # lost at this step
    a, b = w.counters["a-team-1"], w.counters["b-team-1"]
    wounded = w.damage["wounded-1"]
    assert f">{a.fp}-{a.ma}<" in svg and f">{b.fp + wounded.fp}-{b.ma + wounded.ma}<" in svg  # current values
    assert ">30-6<" in svg and ">10-4<" in svg  # PT-76 (circled MA) and the VC platoon
    mission = next(m for m in w.missions.values() if m.name == "Harass")
    assert f'data-mission="{mission.id}"' in svg and "needs Mortar + Booby Trap" in svg
    assert 'class="hl-path"' in svg and 'class="hl-hex"' in svg
    assert svg.count('class="target-hex"') == 2
    assert "TURN 3" in svg and f">{s['pp']}<" in svg and ">?<" in svg  # the PP markers face down
    for marker in s["pp_markers"]:
        assert marker not in svg


def test_the_legend_explains_terrain_features_counters_and_markers():
    legend = str(renderer_for("green-beret-vietnam").legend())
    for word in ("Grassland", "Rice paddy", "Coast", "Village", "Airfield", "Jungle", "Mountain", "Jungle mountain",
                 "Stream", "Full water", "Road", "Bridge", "Destroyed bridge", "Base camp", "Mission marker",
                 "Green Beret team", "Detected team", "Damaged team", "Leader", "VC unit", "NVA unit",
                 "circled MA", "Suppressed", "PP-track marker", "Replay: path moved", "Replay: hex fought over"):
        assert word in legend, word
    assert "data-unit" not in legend and "vc-" not in legend  # samples, not pieces of this game


def test_replay_highlights_come_from_the_facts_data():
    g, s = _mid_game()
    after = json.loads(json.dumps(s))
    after["moving"].update(path=["1322", "1321"], steps=2)
    del after["enemies"]["vc-platoon-1"]
    after["gb"]["m60-1"].update(status="supply", hex=None)  # lost to a die roll: no fact names it
    facts = [
        {"kind": "pursuit", "data": {"enemy": "pt-76-1", "hex": "1516",
                                     "path": [{"hex": "1515"}, {"hex": "1516"}], "target": "1415"}},
        {"kind": "combat", "data": {"enemy": "pt-76-1", "gb_hex": "1415", "enemy_hex": "1516"}},
        {"kind": "combat", "data": {"enemy": "pt-76-1"}},
        {"kind": "elimination", "data": {"counter": "b-team-1"}},
        {"kind": "loss", "data": {"counters": ["demo-1"]}},
        {"kind": "move", "data": {"members": ["commander-1"], "path": ["1222", "1221"]}},
    ]
    hl = highlights({"type": "resolved", "payload": {"facts": facts}}, s, after, g.world)
    assert hl.paths == (("1416", "1515", "1516"), ("1222", "1221"), ("1222", "1322", "1321"))
    assert hl.hexes == ("1415", "1516")
    assert {"pt-76-1", "b-team-1", "commander-1"} <= set(hl.units)
    assert hl.lost == (("pt-76-1", "1516"), ("b-team-1", "1415"), ("demo-1", "1415"), ("m60-1", "1222"))
    assert not highlights({"type": "submitted", "payload": {}}, s, after, g.world)


@pytest.mark.slow
def test_a_game_played_on_the_page_shows_its_map_targets_and_replay(app, page_game):
    pg = page_game(GAME)
    html = pg.page("player")
    root = _svg(html)
    assert root.get("data-game") == "green-beret-vietnam" and "Map key" in html and "Jungle mountain" in html
    acts = _actions(html)
    camps = [a for a in acts if a["type"] == "place_camp"]
    assert camps and all(a["hex"] and a["unit"] is None for a in camps)
    targets = {p.get("data-target") for p in root.iter(f"{SVG}polygon") if p.get("class") == "target-hex"}
    assert targets == {a["hex"] for a in camps}
    assert "Place the base camp in" in html
    _act(pg, camps[0]["action"])
    # buy nothing more: to the movement phase, then start moving the first team that may
    while "done" in {a["type"] for a in _actions(pg.page("player"))}:
        _act(pg, {"type": "done"})
    html = pg.page("player")
    begin = [a for a in _actions(html) if a["type"] == "begin_move"]
    assert begin and all(a["unit"] and a["hex"] is None for a in begin)
    root = _svg(html)
    counters = {c.get("data-unit"): c.get("class").split() for c in root.iter(f"{SVG}g") if c.get("data-unit")}
    assert {a["unit"] for a in begin} <= {u for u, cls in counters.items() if "target" in cls}
    team = next(a for a in begin if a["unit"].endswith("team-1"))
    _act(pg, team["action"])
    steps = [a for a in _actions(pg.page("player")) if a["type"] == "step"]
    assert steps and "Move to" in pg.page("player")
    _act(pg, steps[0]["action"])
    html = pg.page("player")
    assert 'class="moving"' in html and "MP left" in html
    last = pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["seq"]
    replay = pg.page("spectator", f"/replay/{last}")
    assert 'class="hl-path"' in replay and "Map key" in replay
    hidden = app.extensions["warlog"].state(pg.id, None, Viewer(None, director=True))["state"]["pp_markers"]
    for step in range(last + 1):
        for seat in ("spectator", "player"):
            page = pg.page(seat, f"/replay/{step}")
            assert not any(m in page for m in hidden), (seat, step)
    for page in (pg.page("player"), pg.page("spectator"), pg.page("spectator", "/audit")):
        assert not any(m in page for m in hidden)
    assert pg.page("spectator").count(">?<") >= 2  # the two PP-track markers, face down
    board = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" class="hexmap".*?</svg>', re.S)
    assert board.search(pg.page("spectator")).group(0) == board.search(pg.page("spectator")).group(0)  # same bytes
    drain(app)
