"""Lock 'n Load's and UP FRONT's own invariants for a sandbox position
(Game.check_position), each error naming its JSON path and rule section: LnL stacking (1.3), this
scenario's units only (1.7), markers on what exists (1.6, 10.1); UP FRONT's every card in exactly
one place (4.1) and hand sizes within the nationality's limit (C.4). Every state of the golden
ledgers keeps them (play never reaches a position they refuse)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from ledger.export import parse_export
from ledger.fold import step
from rules import game_of, get_game
from warlog.rulings.sandbox import example_state

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _create(client: Any, game: str, state: Any, scenario: str) -> Any:
    return client.post("/api/v1/games", json={"game": game, "scenario": scenario, "sandbox": {"state": state}})


def _errors(r: Any) -> list[dict[str, Any]]:
    assert r.status_code == 422, r.get_json()
    return list(r.get_json()["errors"])


def _lnl() -> dict[str, Any]:
    return example_state(get_game("lock-n-load"), "demo")


def test_lnl_over_stacking_names_the_unit_and_rule_1_3(client) -> None:
    state = _lnl()
    us = sorted(u for u, r in state["units"].items() if r["side"] == "us" and r["kind"] == "us-sq-264")
    for u in us[:4]:
        state["units"][u]["at"] = "1B3"
    errors = _errors(_create(client, "lock-n-load", state, "demo"))
    assert errors[0]["rule"] == "LnL 1.3" and errors[0]["path"].startswith("/units/") and "1B3" in errors[0]["message"]


def test_lnl_a_unit_of_another_scenario_is_named(client) -> None:
    state = _lnl()
    state["units"]["nva9"] = copy.deepcopy(state["units"]["vc1"])
    errors = _errors(_create(client, "lock-n-load", state, "demo"))
    assert {"path": "/units/nva9", "rule": "LnL 1.7 (scenario)"}.items() <= errors[0].items()


def test_lnl_split_half_squads_and_the_event_reinforcement_are_of_the_scenario() -> None:
    g, state = get_game("lock-n-load"), _lnl()
    state["units"]["us1-2"] = copy.deepcopy(state["units"]["us1"]) | {"kind": "us-hs-154", "sws": []}
    state["units"]["us1-2"]["at"] = "1A1"
    state["units"]["vc7"] = copy.deepcopy(state["units"]["vc1"]) | {"sws": []}
    state["units"]["vc7"]["at"] = "1K9"
    assert g.check_position(state) == []
    state["units"]["us-hero1"] = copy.deepcopy(state["units"]["us1-2"])
    assert [e["path"] for e in g.check_position(state)] == ["/units/us-hero1"]  # heroes: only with the option
    state["options"]["heroes"] = True
    assert g.check_position(state) == []


def test_lnl_markers_on_what_exists(client) -> None:
    state = _lnl()
    state["sws"]["us-m60"]["holder"] = "ghost"  # the game's state check refuses it too: the path is named
    errors = _errors(_create(client, "lock-n-load", state, "demo"))
    assert {"path": "/sws/us-m60/holder", "rule": "LnL 1.6"}.items() <= errors[0].items()
    assert "ghost" in errors[0]["message"]
    state = _lnl()
    state["spotted"] = ["9Z99"]
    errors = _errors(_create(client, "lock-n-load", state, "demo"))
    assert {"path": "/spotted/0", "rule": "LnL 10.1"}.items() <= errors[0].items()


def _uf() -> dict[str, Any]:
    return example_state(get_game("up-front"), "A")


def test_uf_a_card_in_two_places_names_both(client) -> None:
    state = _uf()
    card = state["hands"]["americans"][0]
    state["hands"]["germans"].append(card)
    errors = _errors(_create(client, "up-front", state, "A"))
    assert errors[0]["path"] == "/hands/germans/5" and errors[0]["rule"] == "UF 4.1"
    assert "/hands/americans/0" in errors[0]["message"]


def test_uf_a_lost_card_is_named(client) -> None:
    state = _uf()
    lost = state["deck"]["draw"].pop(3)
    errors = _errors(_create(client, "up-front", state, "A"))
    assert errors[0]["path"] == "/deck" and lost in errors[0]["message"] and errors[0]["rule"] == "UF 4.1"


def test_uf_hand_size_within_the_nationality_limit_in_play() -> None:
    g, state = get_game("up-front"), _uf()
    state["phase"] = "play"
    state["hands"]["germans"].append(state["deck"]["draw"].pop())
    errors = g.check_position(state)
    assert errors == [{"path": "/hands/germans", "rule": "UF C.4",
                       "message": "germans holds 6 cards; the germans hand size is 5"}]
    state["drew_until"] = ["germans"]  # drawing until a kind of card is found: play reaches it
    assert g.check_position(state) == []


@pytest.mark.parametrize("prefix", ["lock-n-load--", "up-front--"])
@pytest.mark.slow
def test_every_golden_state_keeps_the_invariants(prefix: str) -> None:
    files = sorted(GOLDEN.glob(f"{prefix}*.jsonl"))
    assert files
    checked = 0
    for f in files:
        events = parse_export(f.read_text(encoding="utf-8").splitlines())
        game, state = game_of(events[0].payload), None
        for ev in events:
            state = step(state, ev)
            if state is not None and ev.type in ("game_started", "resolved"):
                assert game.check_position(state) == [], (f.name, ev.seq)
                checked += 1
    assert checked > 100
