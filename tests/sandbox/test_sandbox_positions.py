"""A sandbox's start position is checked deeply on the way in — every
nested record against the game's published state schema, then the game's own invariants — and
refused with a 422 naming each error's path and rule, never accepted and then a 500; forced dice
are checked when the sandbox is created, and its creator chooses what happens when they run out."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest

from rules import all_games, get_game
from rules.green_beret_vietnam.effects import place_enemy
from tests.conftest import Player
from warlog.rulings.sandbox import example_state


def _create(client: Any, game: str, state: Any, scenario: str | None = None, **extra: Any) -> Any:
    return client.post("/api/v1/games", json={"game": game, "scenario": scenario,
                                              "sandbox": {"state": state, **extra}})


def _errors(r: Any) -> list[dict[str, Any]]:
    assert r.status_code == 422, r.get_json()
    return list(r.get_json()["errors"])


@pytest.mark.parametrize("name", [g.name for g in all_games() if type(g).__module__.startswith("rules.")])
@pytest.mark.slow
def test_every_game_publishes_a_state_schema_its_examples_fit(client, name: str) -> None:
    r = client.get(f"/api/v1/games/schemas/{name}/state")
    assert r.status_code == 200
    doc = r.get_json()
    assert doc["examples"] and len(doc["examples"]) == len(get_game(name).scenarios())
    for example in doc["examples"]:
        jsonschema.validate(example, {k: v for k, v in doc.items() if k != "examples"})
        created = _create(client, name, example, scenario=example["scenario"])
        assert created.status_code == 201, created.get_json()


def test_unknown_game_schema_is_a_clear_422(client) -> None:
    r = client.get("/api/v1/games/schemas/no-such-game/state")
    assert r.status_code == 422 and "no-such-game" in r.get_json()["error"]


def test_malformed_nested_record_is_a_422_naming_its_paths_not_a_201_then_500(client) -> None:
    """The defect: a half-written in-progress combat record was accepted, then /actions answered 500."""
    state = example_state(get_game("assault-on-belgium"), "may-1940")
    state["phase"], state["combat"] = "combat", {"battle": 1}
    errors = _errors(_create(client, "assault-on-belgium", state))
    paths = {e["path"] for e in errors}
    assert "/combat/fighting" in paths and all(e["message"] == "missing" for e in errors if e["path"] in paths)


def test_a_missing_key_is_reported_by_its_path_alone(client) -> None:
    state = example_state(get_game("green-beret-vietnam"), "campaign")
    counter = sorted(state["gb"])[3]
    del state["gb"][counter]["hex"]
    errors = _errors(_create(client, "green-beret-vietnam", state))
    assert errors == [{"path": f"/gb/{counter}/hex", "message": "missing", "rule": None}]
    del state["pp"]
    assert {"path": "/pp", "message": "missing", "rule": None} in _errors(_create(client, "green-beret-vietnam", state))


def test_a_wrong_type_names_its_path(client) -> None:
    state = example_state(get_game("vietnam-battles"), "boys67")
    unit = sorted(state["units"])[0]
    state["units"][unit]["reduced"] = "yes"
    errors = _errors(_create(client, "vietnam-battles", state, scenario="boys67"))
    assert errors[0]["path"] == f"/units/{unit}/reduced" and "boolean" in errors[0]["message"]


def test_aob_stacking_five_german_units_in_a_non_battle_hex_is_refused_aob_4_1(client) -> None:
    g = get_game("assault-on-belgium")
    w = g.world  # type: ignore[attr-defined]
    state = example_state(g, "may-1940")
    hex_ = next(h for h, x in sorted(w.hexes.items()) if not x.is_sea)
    german = [u for u, d in w.units.items() if d.is_land and d.side == "germany"][:5]
    for u in german:
        state["units"][u].update(status="active", hex=hex_)
    errors = _errors(_create(client, "assault-on-belgium", state))
    assert any(e["rule"] == "AoB 4.1" and e["path"] == f"/units/{german[3]}" for e in errors), errors


def test_vb_units_of_another_scenario_are_refused_vb_26_0(client) -> None:
    g = get_game("vietnam-battles")
    state = example_state(g, "boys67")
    other = example_state(g, "snoopys_nose")["units"]
    stranger = next(u for u in sorted(other) if u not in state["units"])
    state["units"][stranger] = other[stranger]
    errors = _errors(_create(client, "vietnam-battles", state, scenario="boys67"))
    assert {"path": f"/units/{stranger}", "message": f"{stranger} is not a unit of the scenario boys67",
            "rule": "VB 26.0"} in errors


def test_gbv_enemy_with_no_team_detected_is_refused_gbv_12_0(client) -> None:
    g = get_game("green-beret-vietnam")
    w = g.world  # type: ignore[attr-defined]
    state = example_state(g, "campaign")
    state["phase"] = "movement"
    hex_ = next(h for h, x in sorted(w.hexes.items()) if not x.full_water)
    place_enemy(state, state["enemy_pool"].pop(0), hex_)
    errors = _errors(_create(client, "green-beret-vietnam", state))
    assert [e["path"] for e in errors if e["rule"] == "GBV 12.0"] == ["/enemies"], errors


def test_a_state_of_another_scenario_is_refused(client) -> None:
    state = example_state(get_game("vietnam-battles"), "snoopys_nose")
    errors = _errors(_create(client, "vietnam-battles", state, scenario="boys67"))
    assert errors[0]["path"] == "/scenario"


# -- forced dice (step 2) --------------------------------------------------------------------
def test_forced_dice_outside_the_games_dice_are_refused_at_creation(client) -> None:
    state = example_state(get_game("assault-on-belgium"), "may-1940")
    errors = _errors(_create(client, "assault-on-belgium", state, dice=[3, 7, 6]))
    assert errors == [{"path": "/dice/1", "message": "7 fits no roll of Assault on Belgium (a d6: 1..6)", "rule": None}]
    ok = _create(client, "green-beret-vietnam", example_state(get_game("green-beret-vietnam"), "campaign"),
                 dice=[10, 1])
    assert ok.status_code == 201, ok.get_json()


def test_up_front_has_no_dice_to_force(client) -> None:
    state = example_state(get_game("up-front"), "A")
    errors = _errors(_create(client, "up-front", state, scenario="A", dice=[1]))
    assert errors[0]["path"] == "/dice" and "no dice" in errors[0]["message"]


def test_the_answer_says_what_happens_when_forced_dice_run_out(client) -> None:
    state = {"phase": "play", "turn": "north", "scores": {"north": 0, "south": 0}, "pot": 0, "target": 30,
             "winner": None}
    for mode in ("stop", "derive"):
        r = _create(client, "dice-duel", state, scenario="long", dice=[4], on_dice_exhausted=mode)
        assert r.status_code == 201 and r.get_json()["on_dice_exhausted"] == mode and r.get_json()["forced_dice"] == 1
    r = _create(client, "dice-duel", state, scenario="long", dice=[4], on_dice_exhausted="sometimes")
    assert r.status_code == 422 and "on_dice_exhausted" in r.get_json()["fields"]["sandbox"]


@pytest.mark.parametrize("mode", ["stop", "derive"])
def test_when_forced_dice_run_out_the_game_stops_or_derives_as_chosen(client, app, mode: str) -> None:
    state = {"phase": "play", "turn": "north", "scores": {"north": 0, "south": 0}, "pot": 0, "target": 30,
             "winner": None}
    r = _create(client, "dice-duel", copy.deepcopy(state), scenario="long", dice=[4], on_dice_exhausted=mode)
    p = Player(client, app, r.get_json())
    p.join_all()
    first = p.play("north", {"type": "roll"})
    assert first["status"] == "resolved" and first["dice"][0]["value"] == 4
    second = p.play("north", {"type": "roll"})
    if mode == "stop":  # stop and ask for more (tests/sandbox/test_sandbox_ask_for_dice.py)
        assert second["status"] == "waiting_for_dice" and second["rules"] == ["sandbox dice"]
        assert "ran out" in second["reasons"][0]["message"] and "director" in second["reasons"][0]["message"]
        state_now = client.get(f"/api/v1/games/{p.id}/state").get_json()["state"]
        assert state_now["pot"] == 4  # nothing was rolled
    else:
        assert second["status"] == "resolved" and len(second["dice"]) == 1
    export = client.get(f"/api/v1/games/{p.id}/export", headers=p.auth("director")).get_data()
    from warlog.trust.verify import verify_bytes

    assert verify_bytes(export).sandbox


def test_a_missing_gbv_counter_is_named(client) -> None:
    """The defect: "must list every counter" without saying which."""
    state = example_state(get_game("green-beret-vietnam"), "campaign")
    gone = sorted(state["gb"])[5]
    del state["gb"][gone]
    errors = _errors(_create(client, "green-beret-vietnam", state))
    assert f"missing: {gone};" in errors[0]["message"]
