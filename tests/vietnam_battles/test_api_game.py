"""The Boys of '67 through the HTTP API, both seats, to the end: each seat reads its own
`GET .../actions` and `GET .../state`; the other side's support fire hand never shows; every
combat fact shows its differential, column, die and result with its rule; the export verifies."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.conftest import Player
from tests.vietnam_battles.test_ledger_fuzz import install
from tests.vietnam_battles.vb_fuzz import choose
from warlog.trust.verify import verify_bytes


@pytest.mark.slow
def test_a_boys_of_67_game_through_the_api(client: Any, app: Any) -> None:
    g = install()
    svc = app.extensions["warlog"]
    svc.new_seed, svc.new_id = (lambda: bytes([7]) * 32), (lambda: "vb-api-001")
    r = client.post("/api/v1/games", json={"game": g.name, "scenario": "boys67"})
    assert r.status_code == 201, r.get_json()
    p = Player(client, app, r.get_json())
    p.join_all()
    rng = random.Random(3)
    moves = 0
    combats = 0
    while p.info()["status"] == "active":
        (seat,) = p.info()["active_seats"]
        other = "vc" if seat == "us" else "us"
        assert p.actions(other)["actions"] == []
        listing = p.actions(seat)
        state = client.get(f"/api/v1/games/{p.id}/state", headers=p.auth(seat)).get_json()["state"]
        assert set(state["hands"][other]) <= {"hidden"}  # H6
        action = choose(state, listing["actions"], rng)
        res = p.play(seat, action)
        assert res["status"] == "resolved", (action, res)
        for f in res["facts"]:
            if f["kind"] == "combat":
                combats += 1
                assert f["rule"] == "VB 7.3" and {"differential", "column", "die", "result"} <= set(f["data"])
            if f["kind"] == "support_hand":
                assert f["visible_to"] == [seat]
        moves += 1
        assert moves < 2000
    info = p.info()
    assert info["status"] == "ended" and info["outcome"]["result"]
    report = verify_bytes(client.get(f"/api/v1/games/{p.id}/export").get_data())
    assert report.seed_revealed and report.ended and report.dice_derived > 0
    assert combats > 0


def test_the_catalogue_lists_vietnam_battles_and_its_scenarios(client: Any) -> None:
    games = {g["game"]: g for g in client.get("/api/v1/catalogue").get_json()["games"]}
    vb = games["vietnam-battles"]
    assert [s["id"] for s in vb["scenarios"]] == ["boys67", "snoopys_nose", "iron_triangle"] and vb["scenarios"][0]["roles"] == ["us", "vc"]
