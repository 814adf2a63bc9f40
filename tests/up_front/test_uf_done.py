"""A whole UP FRONT mountain game through the API: two seats play a mountain scenario to its end, each
seeing only its own hand, with altitude changes, fire up and down the mountain, entrenchment
under the scenario's conditions (Frozen: 5 or 6) and reactions played in the other seat's turn;
afterwards every card drawn is re-derived by `warlog verify`. The seats follow a policy that
seeks those actions among the legal ones (the seed is fixed so the game is reproducible)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from warlog.trust.verify import verify_bytes

PRIORITY = {"altitude": 10, "conceal": 9, "mine_altitude": 9, "alt_step": 8, "entrench": 6, "fire": 5,
            "accept": 4, "complete": 4, "place": 3, "rally": 3, "remove": 3, "move": 1, "decline": 1,
            "ready": 1, "discard": 0.5, "end_turn": 0.2}


def _pick(rng: random.Random, acts: list[dict[str, Any]], tried: set[tuple[str, str]]) -> dict[str, Any]:
    def value(a: dict[str, Any]) -> float:
        v = PRIORITY.get(a["type"], -1)
        if a["type"] == "altitude" and a["altitude"] is None:
            v = 7
        if a["type"] == "entrench" and ("entrench", a["group"]) in tried:
            v = 0.1
        if a["type"] == "move" and a["mode"] != "forward":
            v = 0
        return v + rng.random() / 10
    return max(acts, key=value)


@pytest.mark.slow
def test_a_mountain_scenario_played_to_its_end_by_two_seats_through_the_api(app, client, new_game):
    svc = app.extensions["warlog"]
    svc.new_seed, svc.new_id = (lambda: bytes([12]) * 32), (lambda: "uf-done-001")
    game = new_game("up-front", "A", options={"terrain_type": "bare", "condition": "frozen"})
    rng = random.Random(12)
    seen: Counter[str] = Counter()
    tried: set[tuple[str, str]] = set()
    for _ in range(2000):
        info = game.info()
        if info["status"] == "ended":
            break
        (seat,) = info["active_seats"]
        other = [r for r in info["roles"] if r != seat][0]
        mine = client.get(f"/api/v1/games/{game.id}/state", headers=game.auth(seat)).get_json()["state"]
        assert isinstance(mine["hands"][seat], list) and mine["hands"][other] == {"count": mine["hands"][other]["count"]}
        acts = game.actions(seat)["actions"]
        a = _pick(rng, acts, tried)
        if a["type"] == "entrench":
            tried.add(("entrench", a["group"]))
        if mine["reaction"]:
            seen[f"reaction {a['type']}"] += 1
            assert mine["turn"] == other  # answered in the other seat's turn
        res = game.play(seat, a)
        assert res["status"] == "resolved", res
        for f in res["facts"]:
            rules = (f.get("data") or {}).get("rules", [])
            seen.update({"fire up": "UFM 6.2" in rules, "fire down": "UFM 6.3" in rules})
            if f["kind"] == "altitude" and "level" in (f.get("data") or {}) and f["rule"] in ("UFM 5.1.e", "UFM 5.1.h"):
                seen["altitude change"] += 1
            if f["kind"] == "entrench":
                seen["entrench ok" if f["data"]["success"] else "entrench failed"] += 1
                assert "[5, 6]" in f["text"]  # Frozen (UFM 10.2)
    assert game.info()["status"] == "ended", seen
    for what in ("altitude change", "fire up", "fire down", "entrench failed"):
        assert seen[what] > 0, (what, seen)
    assert seen["reaction conceal"] + seen["reaction decline"] > 0, seen
    data = client.get(f"/api/v1/games/{game.id}/export", headers=game.auth("director")).get_data()
    report = verify_bytes(data)
    assert report.seed_revealed and report.ended
    events = [json.loads(line) for line in data.splitlines()]
    secret = [d for e in events for d in e["payload"].get("dice") or [] if d.get("secret")]
    assert len(secret) > 100 and report.dice_derived >= len(secret)
