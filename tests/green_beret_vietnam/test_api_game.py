"""A whole Green Beret: Vietnam campaign through the HTTP API, as a client plays it: create,
join, read `GET .../actions` and `GET .../state`, post moves, until the victory level; then the
export verifies and every enemy decision in the resolved events cites its rule and its dice."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.conftest import Player
from tests.green_beret_vietnam.gbv_fuzz import choose
from tests.green_beret_vietnam.test_ledger_fuzz import install
from warlog.trust.verify import verify_bytes

ENEMY_KINDS = {"spawn", "scatter", "pursuit", "combat", "noise", "damage", "suppression"}


@pytest.mark.slow
def test_a_campaign_through_the_api_to_its_victory_level(client: Any, app: Any) -> None:
    g = install()
    svc = app.extensions["warlog"]
    seen: set[str] = set()
    for i in range(1, 6):
        svc.new_seed, svc.new_id = (lambda: bytes([40 + i]) * 32), (lambda: f"gbv-api-{i:03d}")
        r = client.post("/api/v1/games", json={"game": g.name, "scenario": "campaign",
                                                "options": {"assassination": True}})
        assert r.status_code == 201, r.get_json()
        p = Player(client, app, r.get_json())
        p.join_all()
        rng = random.Random(i)
        moves = 0
        while p.info()["status"] == "active":
            listing = p.actions("player")
            state = client.get(f"/api/v1/games/{p.id}/state", headers=p.auth("player")).get_json()["state"]
            assert state["pp_markers"] == ["hidden", "hidden"]  # 3.6: face down while the game runs
            action = choose(g, state, listing["actions"], rng, moves, careful=True, patience=5)
            res = p.play("player", action)
            assert res["status"] == "resolved", (action, res)
            for f in res["facts"]:
                seen.add(f["kind"])
                if f["kind"] in ENEMY_KINDS:
                    assert f["rule"] and f["rule"].startswith("GBV "), f
                if f["kind"] in ("spawn", "scatter", "noise", "combat"):
                    assert f["data"], f
            moves += 1
            assert moves < 1500
        info = p.info()
        assert info["status"] == "ended" and info["outcome"]["result"]
        export = client.get(f"/api/v1/games/{p.id}/export").get_data()
        report = verify_bytes(export)
        assert report.seed_revealed and report.ended and report.dice_derived > 0
        if {"noise", "scatter", "pursuit", "combat", "mission", "victory"} <= seen:
            break
    assert {"noise", "mission", "victory"} <= seen, seen



def test_the_catalogue_lists_the_solitaire_game_and_its_options(client: Any) -> None:
    games = {g["game"]: g for g in client.get("/api/v1/catalogue").get_json()["games"]}
    gbv = games["green-beret-vietnam"]
    assert gbv["solitaire"] is True and gbv["scenarios"][0]["roles"] == ["player"]
    assert {o["name"] for o in gbv["options"]} == {"assassination", "leaders_count", "antitank_on_attack"}
