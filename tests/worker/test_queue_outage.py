"""DESIGN: nothing lost on a crash. When the queue is down as a move arrives, the move is
still recorded (202) and a sweep enqueues it once the queue is back."""

from __future__ import annotations

from typing import Any

from warlog.judging.queue import sweep


def test_a_move_submitted_while_the_queue_is_down_is_kept_and_swept_later(app, new_game) -> None:
    game = new_game("dice-duel")
    svc, queue = app.extensions["warlog"], app.extensions["warlog_queue"]
    real = svc.enqueue

    def down(game_id: str) -> Any:
        raise ConnectionError("Redis is down")

    svc.enqueue = down
    try:
        seat = game.info()["active_seats"][0]
        listing = game.actions(seat)
        r = game.client.post(f"/api/v1/games/{game.id}/moves", headers=game.auth(seat), json={
            "action": listing["actions"][0], "expected_seq": listing["expected_seq"], "idempotency_key": "outage"})
        assert r.status_code == 202 and r.get_json()["status"] == "pending"
        seq = r.get_json()["seq"]
        queue.drain()
        assert game.info()["pending"] is True  # recorded, not judged: nothing ran it
    finally:
        svc.enqueue = real
    assert sweep(svc.store, real) == [game.id]
    game.wait()
    assert game.client.get(f"/api/v1/games/{game.id}/moves/{seq}").get_json()["status"] == "resolved"
