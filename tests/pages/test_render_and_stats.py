"""The board renderers (registry, determinism, escaping, well-formed SVG) and the exact
chi-square p-value of the dice fairness test."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from rules import get_game
from rules.core.dice import fixed_dice
from warlog.render import Highlights, Scene, TextRenderer, renderer_for
from warlog.trust.stats import chi2_sf, face_test, gammainc_upper

SVG = "{http://www.w3.org/2000/svg}"


def _aob_after_setup():
    g = get_game("assault-on-belgium")
    s = g.setup("may-1940", {}, fixed_dice([]))
    for seat in ("belgium", "germany"):
        s = g.apply(s, seat, {"type": "standard_setup"}, fixed_dice([])).state
        s = g.apply(s, seat, {"type": "done_setup"}, fixed_dice([])).state
    return g, s


def test_the_registry_has_the_hex_map_for_belgium_and_text_for_the_rest():
    assert type(renderer_for("assault-on-belgium")).__name__ == "AobRenderer"
    assert isinstance(renderer_for("dice-duel"), TextRenderer)
    text = renderer_for("dice-duel").board(Scene({"note": "<b>&"}))
    assert "&lt;b&gt;&amp;" in text


def test_the_map_is_well_formed_deterministic_svg_with_every_hex_and_counter():
    g, s = _aob_after_setup()
    s = g.apply(s, "germany", {"type": "select", "unit": "de-pz-3"}, fixed_dice([])).state
    s = g.apply(s, "germany", {"type": "move", "hex": "1706"}, fixed_dice([])).state
    s = g.apply(s, "germany", {"type": "move", "hex": "1606", "tank_battle": True}, fixed_dice([])).state
    s["units"]["be-inf-3"]["hits"] = 2
    r = renderer_for("assault-on-belgium")
    scene = Scene(s, Highlights(paths=(("1805", "1706", "1606"),), hexes=("1606",), lost=(("be-inf-8", "1606"),)))
    svg = str(r.board(scene))
    assert svg == str(r.board(scene))  # same scene, same bytes
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    hexes = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "hex"]
    assert len(hexes) == 294
    counters = {c.get("data-unit") for c in root.iter(f"{SVG}g") if "counter" in (c.get("class") or "")}
    assert set(get_game("assault-on-belgium").world.units) <= counters
    assert "I Corps (4th &amp; 7th Infantry Divisions)" in svg  # names are escaped
    assert 'class="marker tank-battle"' in svg and 'class="hl-path"' in svg and 'class="hl-hex"' in svg
    units = get_game("assault-on-belgium").world.units
    iii, pz, ju = units["be-inf-3"], units["de-pz-4"], units["de-bmb-1"]
    assert f">{max(0, iii.attack - 2)}-{max(0, iii.defense - 2)}-{iii.movement}<" in svg  # two hits: current factors
    assert f">{pz.attack}-{pz.defense}-{pz.movement}<" in svg  # a Panzer division: attack-defense-movement
    assert f">{ju.air}-{ju.bombing}-{ju.range}<" in svg  # the Ju 87: air-tactical-range


def test_the_legend_explains_terrain_rivers_counters_and_markers():
    legend = str(renderer_for("assault-on-belgium").legend())
    for word in ("Clear", "Forest", "Rough", "Hex city", "Sea", "River", "Fortress", "Objective",
                 "attack-defense-movement", "air-tactical-range", "Battle vector", "Tank battle marker"):
        assert word in legend, word


@pytest.mark.parametrize("x,dof,p", [(3.841458820694124, 1, 0.05), (11.070497693516351, 5, 0.05),
                                     (15.086272469388987, 5, 0.01), (1.1454762260617692, 5, 0.95),
                                     (0.0, 5, 1.0)])
def test_the_chi_square_p_value_matches_the_tables(x, dof, p):
    assert chi2_sf(x, dof) == pytest.approx(p, rel=1e-9, abs=1e-12)


def test_two_degrees_of_freedom_is_an_exponential():
    for x in (0.1, 1.0, 4.0, 30.0, 200.0):
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
    assert gammainc_upper(1.0, 3.0) == pytest.approx(math.exp(-3.0), rel=1e-12)


def test_a_fair_and_a_loaded_die():
    fair = face_test([1, 2, 3, 4, 5, 6] * 10, 6)
    assert fair.statistic == 0 and fair.p_value == 1.0 and fair.reliable
    loaded = face_test([6] * 60, 6)
    assert loaded.statistic == pytest.approx(300.0) and loaded.p_value < 1e-60
    with pytest.raises(ValueError):
        face_test([7], 6)
