"""A float in an `adjust` ruling's patch (or anywhere the ledger stores a
client's JSON as given) is a 422 that says canonical JSON takes no floats, never a 500."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize("patch", [
    [{"op": "replace", "path": "/turn", "value": 0.5}],
    [{"op": "add", "path": "/x", "value": {"deep": [1, 2.0]}}],
])
def test_a_float_in_an_adjust_patch_is_a_422(new_game: Any, patch: list[dict[str, Any]]) -> None:
    game = new_game("dice-duel")
    r = game.client.post(f"/api/v1/games/{game.id}/rulings", headers=game.auth("director"),
                         json={"kind": "adjust", "patch": patch, "reason": "a typo in the turn track"})
    assert r.status_code == 422, (r.status_code, r.get_json())
    body = r.get_json()
    assert "float" in str(body), body
    assert "patch" in body.get("fields", {}), body
    assert game.info()["seq"] == 3 and game.info()["pending"] is False  # nothing recorded


def test_an_integer_patch_is_still_taken(new_game: Any) -> None:
    game = new_game("dice-duel")
    r = game.client.post(f"/api/v1/games/{game.id}/rulings", headers=game.auth("director"),
                         json={"kind": "adjust", "patch": [{"op": "replace", "path": "/turn", "value": 2}],
                               "reason": "r"})
    assert r.status_code == 202, r.get_json()


@pytest.mark.parametrize("extra", [{"options": {"x": 1.5}}, {"sandbox": {"state": {"turn": 0.5}, "dice": []}}])
def test_a_float_in_a_new_games_json_is_a_4xx(client: Any, extra: dict[str, Any]) -> None:
    r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short", **extra})
    assert r.status_code in (400, 422), (r.status_code, r.get_json())
