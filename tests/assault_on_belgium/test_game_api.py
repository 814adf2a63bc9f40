"""The Game interface: registry, options, shapes, seats, check_state, view, describe, determinism."""

from __future__ import annotations

import copy
import json

import pytest
from aob_fuzz import Stats, play_one, seeded_dice
from aob_helpers import act, new_game, play, position, world
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import get_game
from rules.assault_on_belgium.game import describe
from rules.core.dice import fixed_dice
from rules.core.game import IllegalAction, InvalidState
from validators.actions import ActionShapeError, validate_action

G, B = "germany", "belgium"


def test_registered_with_name_title_version_roles():
    g = get_game("assault-on-belgium")
    assert (g.name, g.title, g.version) == ("assault-on-belgium", "Assault on Belgium", "2")
    assert g.roles("may-1940") == ("germany", "belgium")
    assert set(g.options()) == {"no_entry_nl_france", "reaction_before_german_air"}
    assert g.options()["no_entry_nl_france"].default is False
    assert g.options()["reaction_before_german_air"].default is True


def test_setup_records_map_oob_and_options():
    g, s = new_game(world(), no_entry_nl_france=True)
    assert (s["map_id"], s["oob_id"]) == ("test-map", "test-oob")
    assert s["options"] == {"no_entry_nl_france": True, "reaction_before_german_air": True}
    g.check_state(s)
    with pytest.raises(IllegalAction):
        g.setup("may-1940", {"nonsense": True}, fixed_dice([]))
    with pytest.raises(IllegalAction):
        g.setup("june-1944", {}, fixed_dice([]))


def test_apply_refuses_malformed_and_unlisted_actions():
    g, s = new_game(world())
    for bad in ({"type": "fly"}, {"type": "warp"}, {"type": "select", "unit": "b_inf1", "x": 1}, "move",
                {"type": "move", "hex": "0505", "tank_battle": False}, {"type": "resolve_battle", "battle": "1"}):
        with pytest.raises(IllegalAction):
            g.apply(s, B, bad, fixed_dice([]))
    with pytest.raises(IllegalAction) as err:
        g.apply(s, B, {"type": "end_movement"}, fixed_dice([]))
    assert "not an action of the set-up" in err.value.message
    with pytest.raises(IllegalAction) as err:
        g.apply(s, B, {"type": "select", "unit": "g_pz1"}, fixed_dice([]))
    assert "not a Belgian unit" in err.value.message


def test_apply_never_mutates_its_input():
    g, s = position(world(), {"g_pz1": "0605", "b_inf1": "0505"})
    frozen = copy.deepcopy(s)
    act(g, s, G, {"type": "select", "unit": "g_pz1"})
    assert s == frozen


def test_view_is_the_whole_state_as_a_copy():
    g, s = new_game(world())
    for seat in (G, B, None):
        v = g.view(s, seat)
        assert v == s and v is not s


def test_check_state_refuses_bad_documents():
    g, s = new_game(world())
    g.check_state(s)
    cases = []
    bad = copy.deepcopy(s); bad["phase"] = "lunch"; cases.append(bad)
    bad = copy.deepcopy(s); bad["units"]["b_inf1"]["hits"] = 9; cases.append(bad)
    bad = copy.deepcopy(s); bad["units"]["zz"] = bad["units"]["b_inf1"]; cases.append(bad)
    bad = copy.deepcopy(s); bad["units"]["b_inf1"].update(status="active", hex="9999"); cases.append(bad)
    bad = copy.deepcopy(s); bad["map_id"] = "other"; cases.append(bad)
    bad = copy.deepcopy(s); bad["battles"] = [{"n": 1, "hex": "0505", "origin": "0909"}]; cases.append(bad)
    bad = copy.deepcopy(s); del bad["combat"]; cases.append(bad)
    bad = copy.deepcopy(s); bad["phase"] = "combat"; cases.append(bad)  # combat without a combat object
    bad = copy.deepcopy(s); bad["phase"] = "combat"
    bad["combat"] = {"step": "fire", "battle": None, "queue": [], "fighting": {}, "bomber": {}, "pending_hits": 0,
                     "retreat_due": {}, "pursuit": None}
    cases.append(bad)  # a state never rests at an engine step
    bad = copy.deepcopy(bad); bad["combat"]["step"] = "choose_battle"; cases.append(bad)  # nothing pending
    for doc in cases:
        with pytest.raises(InvalidState):
            g.check_state(doc)


def test_describe_and_prompt_and_phase():
    w = world()
    assert describe({"type": "move", "hex": "1415", "tank_battle": True}, w) == "move to 1415 (tank battle)"
    assert describe({"type": "fly", "unit": "g_bmb", "hex": "0505"}, w) == "fly Ju 87 to 0505"
    g, s = new_game(w)
    assert g.describe_action({"type": "select", "unit": "g_pz2"}) == "select 7. Panzer"
    assert "Set up in Belgium" in g.prompt(s, B)
    assert g.prompt(s, G).startswith("Waiting for Belgium")
    assert g.phase(s) == "Belgium sets up"


def test_every_legal_action_passes_the_schema_and_applies():
    g, s = position(world(), {"g_pz1": "0605", "g_ftr": "0805", "b_inf1": "0505", "b_ftr": "0303"})
    s, _ = play(g, s, [(G, {"type": "select", "unit": "g_pz1"}, [])])
    for a in g.legal_actions(s, G):
        validate_action("assault-on-belgium", a)
        g.apply(s, G, a, fixed_dice([]))
    with pytest.raises(ActionShapeError):
        validate_action("assault-on-belgium", {"type": "move", "hex": "15"})


def _run(seed: int) -> bytes:
    g, _ = new_game(world())
    s = play_one(g, seed, Stats())
    return json.dumps(s, sort_keys=True).encode()


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_determinism_same_actions_and_dice_same_bytes(seed):
    assert _run(seed) == _run(seed)


def test_replay_of_recorded_actions_and_dice_is_byte_identical():
    g, s0 = new_game(world())
    dice = seeded_dice(3)
    import random
    rng = random.Random(3)
    s, log = s0, []
    while g.outcome(s) is None and len(log) < 3000:
        seat = g.active_seats(s)[0]
        a = rng.choice(g.legal_actions(s, seat))
        before = len(dice.rolls)
        s = g.apply(s, seat, a, dice).state
        log.append((seat, a, [r.value for r in dice.rolls[before:]]))
    r = s0
    for seat, a, vals in log:
        r = g.apply(r, seat, a, fixed_dice(vals)).state
    assert json.dumps(r, sort_keys=True) == json.dumps(s, sort_keys=True)


def test_validator_schemas_match_the_rules_vocabulary():
    from rules.assault_on_belgium.schema import ACTIONS
    from validators.assault_on_belgium import SCHEMAS

    assert set(SCHEMAS) == set(ACTIONS)
    for bad in ({"type": "move", "hex": "0505", "tank_battle": False}, {"type": "resolve_battle", "battle": "2"},
                {"type": "withdraw", "unit": "b_inf1"}, {"type": "end_air", "unit": "x"}):
        with pytest.raises(ActionShapeError):
            validate_action("assault-on-belgium", bad)
