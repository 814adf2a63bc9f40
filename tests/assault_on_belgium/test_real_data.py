"""The engine over the package's own map and OOB (missing data fails, never skips)."""

from __future__ import annotations

from aob_helpers import act, position

from rules.assault_on_belgium.data import load_world
from rules.assault_on_belgium.flow import next_phase
from rules.assault_on_belgium.game import AssaultOnBelgium
from rules.core.dice import fixed_dice


def test_standard_setup_places_every_unit_of_both_sides_aob_2():
    g = AssaultOnBelgium(load_world())
    s = g.setup("may-1940", {}, fixed_dice([]))
    for seat in ("belgium", "germany"):
        s = act(g, s, seat, {"type": "standard_setup"}).state
        assert {"type": "done_setup"} in g.legal_actions(s, seat)
        s = act(g, s, seat, {"type": "done_setup"}).state
    assert s["phase"] == "german_land_move"
    assert all(u["status"] == "active" for u in s["units"].values())
    g.check_state(s)


def test_germany_wins_on_the_real_map_holding_brussels_and_antwerp_aob_3():
    w = load_world()
    brussels, antwerp = w.objectives["brussels"], w.objectives["antwerp"]
    tanks = [u for u, x in w.units.items() if x.side == "germany" and x.is_tank]
    near_b = next(n for n in w.neighbours(brussels) if n != antwerp and not w.hexes[n].is_sea)
    near_a = next(n for n in w.neighbours(antwerp) if n not in (brussels, near_b) and not w.hexes[n].is_sea)
    far = next(h for h, x in w.hexes.items() if x.country == "BE" and w.distance(h, brussels) > 5
               and w.distance(h, antwerp) > 5)
    belgian = next(u for u, x in w.units.items() if x.side == "belgium" and x.is_land)
    g, s = position(w, {tanks[0]: near_b, tanks[1]: near_a, belgian: far})
    for tank, goal in ((tanks[0], brussels), (tanks[1], antwerp)):
        s = act(g, s, "germany", {"type": "select", "unit": tank}).state
        s = act(g, s, "germany", {"type": "move", "hex": goal}).state
    assert next_phase(s, "german_land_move") == "over"
    s = act(g, s, "germany", {"type": "end_movement"}).state
    assert g.outcome(s).winner == "germany"
