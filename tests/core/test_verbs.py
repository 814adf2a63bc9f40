"""Each verb declared once (rules/core/verbs.py): the rules' shape check, the API's marshmallow
schemas, the targeted legality check and `apply`'s dispatch all come from a game's one table."""

from __future__ import annotations

import pytest

from rules.core.game import IllegalAction
from rules.core.shapes import check_shape
from rules.core.verbs import FieldKind, Verb, VerbTable
from rules.lock_n_load import flow, schema
from rules.lock_n_load.game import LockNLoad
from tests.lock_n_load.helpers import blank_state, tiny
from tests.support.fuzzing import seeded_dice
from validators.actions import ActionShapeError, schemas_from_verbs, validate_action
from validators.lock_n_load import SCHEMAS

HEX = FieldKind("hex", str)


def test_a_verb_declared_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="the verb 'place_sniper' is declared twice"):
        VerbTable(Verb("place_sniper", "LnL 11.4", {"hex": HEX}), Verb("place_sniper", "LnL 11.4", {"hex": HEX}))


def test_a_field_kind_without_a_marshmallow_field_is_refused() -> None:
    with pytest.raises(ValueError, match="no marshmallow field for the kind.s. hex of 'smoke'"):
        schemas_from_verbs([Verb("smoke", "LnL 7.0", {"hex": HEX})], {}, str)


def test_lock_n_load_shapes_rules_and_schemas_come_from_its_verb_table() -> None:
    names = flow.VERBS.names()
    assert len(names) == len(set(names)) == 32  # rules v4 added sniper_order (LnL 11.4) and standing (its standing answers)
    assert schema.ACTIONS == flow.VERBS.shapes() and sorted(SCHEMAS) == sorted(names)
    for verb in flow.VERBS:
        assert verb.generate is not None and verb.handle is not None, verb.name
        assert list(SCHEMAS[verb.name]().fields) == ["type", *verb.fields], verb.name
        assert schema.RULES[verb.name] == verb.rule
    assert schema.RULES["place_sniper"] == "LnL 11.4" and schema.RULES["order"] == "standing orders"


def test_every_verb_open_in_some_situation_is_in_the_table() -> None:
    opened = set(flow._RALLY + flow._BETWEEN_IMPULSES + flow._MOVING + flow._IMPULSE + flow._OPP_FIRE
                 + flow._RETREAT_FIRE + flow._DECISIONS + ("order", "standing"))  # standing: at every stop, v4
    assert opened == set(flow.VERBS.names())


@pytest.mark.parametrize("action, messages", [
    ({"type": "smoke", "hex": "Z9"}, {"hex": ["a hex like 1F5 (board, column, row)"]}),
    ({"type": "move", "mode": "run"}, {"mode": ["Must be one of: normal, assault, double, crawl."]}),
    ({"type": "order", "hex": "1F5", "order": "later"}, {"order": ["ask, hold, fire, within1-3 or at:<hex>"]}),
    ({"type": "melee_targets", "units": []}, {"units": ["Length must be between 1 and 12."]}),
    ({"type": "pass", "hex": "1F5"}, {"hex": ["Unknown field."]}),
    ({"type": "place_sniper", "unit": "sn"}, {"hex": ["Missing data for required field."]}),
])
def test_the_generated_schemas_say_what_the_written_ones_said(action: dict, messages: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(ActionShapeError) as err:
        validate_action("lock-n-load", action)
    assert err.value.messages == messages


def test_the_rules_shape_check_reads_the_same_table() -> None:
    with pytest.raises(IllegalAction, match="place_sniper needs a hex"):
        check_shape({"type": "place_sniper", "unit": "sn"}, schema.ACTIONS)


def _sniper_game() -> tuple[LockNLoad, dict, object]:  # type: ignore[type-arg]
    w = tiny(["o", "o", "l", "o", "o", "o"])
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "us2": ("us", "us-sq-264", "9A1"),
                        "vc1": ("vc", "vc-sq-143", "9A6"), "sn": ("vc", "vc-sniper", None)})
    return LockNLoad(w), s, seeded_dice(5)


def test_11_4_place_sniper_is_one_verb_at_a_prompt_and_between_impulses() -> None:
    """One handler: at an opportunity-fire prompt the prompt goes on (its hexes counted again);
    at the start of its side's impulse the game goes on from there. The same fact either way."""
    g, s, d = _sniper_game()
    for a in ({"type": "activate", "hex": "9A1"}, {"type": "select", "unit": "us1"}, {"type": "move", "mode": "normal"},
              {"type": "step", "hex": "9A2"}):
        s = g.apply(s, "us", a, d).state  # type: ignore[arg-type]
    assert s["decision"]["kind"] == "opp_fire"
    at_prompt = g.apply(s, "vc", {"type": "place_sniper", "unit": "sn", "hex": "9A3"}, d)  # type: ignore[arg-type]
    assert at_prompt.state["decision"]["kind"] == "opp_fire" and g.active_seats(at_prompt.state) == ["vc"]
    assert at_prompt.state["decision"]["hexes"] == ["9A3", "9A6"]  # counted again: the sniper's hex joins

    g, s, d = _sniper_game()
    s["player"] = "vc"
    assert {"type": "place_sniper", "unit": "sn", "hex": "9A3"} in g.legal_actions(s, "vc")
    between = g.apply(s, "vc", {"type": "place_sniper", "unit": "sn", "hex": "9A3"}, d)  # type: ignore[arg-type]
    assert between.state["decision"] is None and between.state["impulse"] is None
    assert not [a for a in g.legal_actions(between.state, "vc") if a["type"] == "place_sniper"]
    assert [f.to_json() for f in at_prompt.facts] == [f.to_json() for f in between.facts] == [
        {"text": "The sniper is placed in 9A3", "rule": "LnL 11.4", "kind": "sniper", "data": {"hex": "9A3"}}]


def test_green_beret_shapes_and_schemas_come_from_its_verb_table() -> None:
    from rules.green_beret_vietnam import flow as gbv_flow
    from rules.green_beret_vietnam import schema as gbv_schema
    from validators.green_beret_vietnam import SCHEMAS as GBV_SCHEMAS

    names = gbv_flow.VERBS.names()
    assert len(names) == len(set(names)) == 35
    assert gbv_schema.ACTIONS == gbv_flow.VERBS.shapes() and sorted(GBV_SCHEMAS) == sorted(names)
    for verb in gbv_flow.VERBS:
        assert verb.generate is not None and verb.handle is not None, verb.name
        assert list(GBV_SCHEMAS[verb.name]().fields) == ["type", *verb.fields, *verb.flags], verb.name
    opened = {t for answers in gbv_flow._ANSWERS.values() for t in answers}
    assert {v.name for v in gbv_flow.VERBS if v.flags} == {"place_camp", "buy_camp"}
    assert "buy" in opened  # 16.0: the same verb (one handler) answers the spending decision


def test_gbv_3_1_the_pbr_flag_is_true_or_left_out() -> None:
    from rules.green_beret_vietnam import schema as gbv_schema

    with pytest.raises(IllegalAction, match="pbr is either true or left out") as err:
        gbv_schema.check_action_shape({"type": "place_camp", "hex": "0101", "pbr": False})
    assert err.value.rule == "GBV 3.1"
    with pytest.raises(IllegalAction, match="step takes no field.s. pbr"):
        gbv_schema.check_action_shape({"type": "step", "hex": "0101", "pbr": True})
    with pytest.raises(ActionShapeError):
        validate_action("green-beret-vietnam", {"type": "place_camp", "hex": "0101", "pbr": False})
    assert validate_action("green-beret-vietnam", {"type": "buy_camp", "hex": "0101", "pbr": True})


def _tables() -> dict[str, VerbTable]:  # type: ignore[type-arg]
    from rules.assault_on_belgium import verbs as aob
    from rules.green_beret_vietnam import flow as gbv
    from rules.up_front import verbs as uf
    from rules.vietnam_battles import verbs as vb

    return {"assault-on-belgium": aob.VERBS, "green-beret-vietnam": gbv.VERBS, "lock-n-load": flow.VERBS,
            "up-front": uf.VERBS, "vietnam-battles": vb.VERBS}


@pytest.mark.parametrize("game", sorted(_tables()))
def test_every_games_schemas_are_generated_from_its_verb_table(game: str) -> None:
    """validators/<package>.py lists no verb of its own: one schema per verb of the rules' table,
    its fields in the table's order, then its flags."""
    from validators.actions import schemas_for

    table = _tables()[game]
    schemas = schemas_for(game)
    assert sorted(schemas) == sorted(table.names())
    for verb in table:
        assert list(schemas[verb.name]().fields) == ["type", *verb.fields, *verb.flags], (game, verb.name)


def test_a_boolean_field_takes_true_and_false_but_a_number_field_no_boolean() -> None:
    table = {"alt_step": {"one_card": bool}, "draw_altitude": {"count": int}}
    assert check_shape({"type": "alt_step", "one_card": False}, table)
    with pytest.raises(IllegalAction, match="draw_altitude needs a count"):
        check_shape({"type": "draw_altitude", "count": True}, table)
