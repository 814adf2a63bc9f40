"""The HTTP API through the Flask client: shapes clients rely on, errors as clear JSON."""

from __future__ import annotations

import re
import uuid

from tests.conftest import Player


def test_create_answers_the_documented_shape(client) -> None:
    r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
    assert r.status_code == 201
    body = r.get_json()
    assert set(body) >= {"id", "seats", "director_token", "seed_commitment"}
    assert set(body["seats"]) == {"north", "south"}
    assert re.fullmatch(r"[0-9a-f]{64}", body["seed_commitment"])
    assert len(set(body["seats"].values()) | {body["director_token"]}) == 3


def test_game_waits_until_every_seat_joined(new_game) -> None:
    p: Player = new_game(join=False)
    assert p.info()["status"] == "waiting"
    r = p.client.post(f"/api/v1/games/{p.id}/join", json={}, headers=p.auth("north"))
    assert r.status_code == 200
    assert p.info()["status"] == "waiting"
    assert p.actions("north")["actions"] == []
    p.client.post(f"/api/v1/games/{p.id}/join", json={"entropy": "x"}, headers=p.auth("south"))
    info = p.info()
    assert info["status"] == "active" and info["active_seats"] == ["north"]


def test_play_to_the_end_and_export_verifies(new_game, tmp_path) -> None:
    from warlog.trust.verify import verify_lines

    p: Player = new_game()
    for _ in range(400):
        info = p.info()
        if info["status"] == "ended":
            break
        seat = info["active_seats"][0]
        listing = p.actions(seat)
        assert listing["actions"], "an active seat always has a legal action"
        pot = p.client.get(f"/api/v1/games/{p.id}/state").get_json()["state"]["pot"]
        res = p.play(seat, {"type": "bank"} if pot >= 6 else {"type": "roll"})
        assert res["status"] == "resolved", res
    assert p.info()["status"] == "ended"
    r = p.client.get(f"/api/v1/games/{p.id}/export")
    assert r.status_code == 200
    lines = r.get_data(as_text=True).splitlines(keepends=True)
    report = verify_lines(lines)
    assert report.seed_revealed and not report.sandbox
    assert report.dice_derived > 0


def test_move_errors_are_clear_json(new_game) -> None:
    p: Player = new_game()
    url = f"/api/v1/games/{p.id}/moves"
    good = {"action": {"type": "roll"}, "expected_seq": p.info()["seq"], "idempotency_key": "k1"}
    assert p.client.post(url, json=good).status_code == 401
    assert p.client.post(url, json=good, headers={"Authorization": "Bearer nope"}).status_code == 403
    bad_shape = p.client.post(url, json={**good, "action": {"type": "roll", "extra": 1}}, headers=p.auth("north"))
    assert bad_shape.status_code == 422 and "fields" in bad_shape.get_json()
    unknown_key = p.client.post(url, json={**good, "surprise": True}, headers=p.auth("north"))
    assert unknown_key.status_code == 422
    not_json = p.client.post(url, data="{oops", headers={**p.auth("north"), "Content-Type": "application/json"})
    assert not_json.status_code == 400 and "error" in not_json.get_json()
    stale = p.client.post(url, json={**good, "expected_seq": 0}, headers=p.auth("north"))
    assert stale.status_code == 409 and stale.get_json()["current_seq"] == p.info()["seq"]
    assert p.client.get("/api/v1/games/nope").status_code == 404


def test_same_idempotency_key_is_one_move(new_game) -> None:
    p: Player = new_game()
    body = {"action": {"type": "roll"}, "expected_seq": p.info()["seq"], "idempotency_key": "same"}
    first = p.client.post(f"/api/v1/games/{p.id}/moves", json=body, headers=p.auth("north"))
    again = p.client.post(f"/api/v1/games/{p.id}/moves", json=body, headers=p.auth("north"))
    assert first.status_code == 202 and again.status_code == 202
    assert first.get_json()["seq"] == again.get_json()["seq"]
    assert again.get_json()["duplicate"] is True


def test_out_of_turn_move_is_refused_with_409(new_game) -> None:
    """The seat not asked is refused at the API (nothing recorded), not later."""
    p: Player = new_game()
    r = p.client.post(f"/api/v1/games/{p.id}/moves", headers=p.auth("south"), json={
        "action": {"type": "roll"}, "expected_seq": p.info()["seq"], "idempotency_key": "early"})
    assert r.status_code == 409
    assert "not south's turn" in r.get_json()["error"]


def test_a_move_that_becomes_out_of_turn_before_it_is_judged_is_rejected_with_reason(new_game) -> None:
    """North queues a second move behind a bank that passes the turn: the rules refuse it."""
    p: Player = new_game()
    svc = p.app.extensions["warlog"]
    real, svc.enqueue = svc.enqueue, lambda game_id: None  # hold the worker back
    try:
        seq = p.info()["seq"]
        for i, action in enumerate(({"type": "bank"}, {"type": "roll"})):
            r = p.client.post(f"/api/v1/games/{p.id}/moves", headers=p.auth("north"), json={
                "action": action, "expected_seq": seq + i, "idempotency_key": f"n{i}"})
            assert r.status_code == 202, r.get_json()
    finally:
        svc.enqueue = real
    real(p.id)
    p.wait()
    res = p.client.get(f"/api/v1/games/{p.id}/moves/{seq + 2}", headers=p.auth("north")).get_json()
    assert res["status"] == "rejected"
    assert "not north's turn" in res["reasons"][0]["message"]


def test_openapi_document_lists_every_route(client) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    for path in ("/api/v1/games", "/api/v1/games/{game_id}/moves", "/api/v1/games/{game_id}/actions",
                 "/api/v1/games/{game_id}/rulings", "/api/v1/games/{game_id}/export"):
        assert path in doc["paths"]
    assert "Move" in doc["components"]["schemas"]


def test_sandbox_game_is_marked_and_uses_forced_dice(new_game) -> None:
    state = {"phase": "play", "turn": "south", "scores": {"north": 0, "south": 8}, "pot": 0, "target": 10,
             "winner": None}
    p: Player = new_game(sandbox={"state": state, "dice": [6]})
    assert p.info()["sandbox"] is True
    res = p.play("south", {"type": "roll"})
    assert res["sandbox"] is True
    assert res["dice"][0]["value"] == 6 and p.info()["status"] == "ended"


def test_sandbox_state_is_checked_on_the_way_in(client) -> None:
    r = client.post("/api/v1/games", json={"game": "dice-duel", "sandbox": {"state": {"nonsense": 1}}})
    assert r.status_code == 422 and "not a position" in r.get_json()["error"] and r.get_json()["errors"]


def test_spectator_cannot_export_before_the_end_but_director_can(new_game) -> None:
    p: Player = new_game()
    assert p.client.get(f"/api/v1/games/{p.id}/export").status_code == 403
    r = p.client.get(f"/api/v1/games/{p.id}/export", headers=p.auth("director"))
    assert r.status_code == 200 and r.get_data(as_text=True).count("\n") == p.info()["seq"] + 1


def test_director_void_and_re_resolve(new_game) -> None:
    p: Player = new_game()
    res = p.play("north", {"type": "roll"})
    target = res["event_seq"]
    r = p.client.post(f"/api/v1/games/{p.id}/rulings", headers=p.auth("director"), json={
        "kind": "void", "target": target, "re_resolve": True, "reason": "appeal upheld: dice server fault",
        "idempotency_key": uuid.uuid4().hex})
    assert r.status_code == 202, r.get_json()
    p.wait()
    ruling = p.client.get(f"/api/v1/games/{p.id}/moves/{r.get_json()['seq']}").get_json()
    assert ruling["status"] == "resolved"
    assert "voids resolution" in ruling["facts"][0]["text"]
    players = p.client.post(f"/api/v1/games/{p.id}/rulings", headers=p.auth("north"),
                            json={"kind": "reveal_seed", "reason": "x"})
    assert players.status_code == 403
