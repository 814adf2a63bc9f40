"""Sandboxes that "stop and ask for more" dice: in a sandbox created with on_dice_exhausted "stop", a move
that needs a die more than were forced makes the game wait for dice (its answers and its page say
so); the director adds forced dice (POST /api/v1/games/{id}/dice, checked like creation's, recorded
as a dice_added event), and the waiting move is then judged with them. verify replays it all."""

from __future__ import annotations

from typing import Any

from tests.conftest import Player
from warlog.trust.verify import verify_bytes

START = {"phase": "play", "turn": "north", "scores": {"north": 0, "south": 0}, "pot": 0, "target": 30,
         "winner": None}


def _sandbox(client: Any, app: Any, mode: str = "stop", dice: list[int] | None = None) -> Player:
    r = client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "long", "sandbox": {
        "state": dict(START), "dice": [4] if dice is None else dice, "on_dice_exhausted": mode}})
    assert r.status_code == 201, r.get_json()
    p = Player(client, app, r.get_json())
    p.join_all()
    return p


def _add(client: Any, p: Player, dice: Any, seat: str = "director") -> Any:
    return client.post(f"/api/v1/games/{p.id}/dice", json={"dice": dice}, headers=p.auth(seat))


def test_a_move_that_runs_out_of_forced_dice_waits_then_is_judged_with_the_added_ones(client, app) -> None:
    p = _sandbox(client, app)
    assert p.play("north", {"type": "roll"})["dice"][0]["value"] == 4
    waiting_move = p.play("north", {"type": "roll"})
    assert waiting_move["status"] == "waiting_for_dice" and waiting_move["reasons"][0]["waiting_for_dice"] == 2

    # the answers say the game waits, and for which move; the action only to its seat and the director
    state = client.get(f"/api/v1/games/{p.id}/state", headers=p.auth("director")).get_json()
    wait = state["waiting_for_dice"]
    assert wait["submission_seq"] == waiting_move["seq"] and wait["seat"] == "north" and wait["needed"] == 2
    assert wait["action"] == {"type": "roll"}
    assert "action" not in client.get(f"/api/v1/games/{p.id}/state", headers=p.auth("south")).get_json()[
        "waiting_for_dice"]
    acts = p.actions("north")
    assert acts["actions"] == [] and "waits for the director" in acts["prompt"]
    assert p.info()["waiting_for_dice"]["needed"] == 2
    page = client.get(f"/games/{p.id}", headers=p.auth("director"))
    assert page.status_code == 200 and b'id="waiting-for-dice"' in page.data and b"needs die #2" in page.data

    added = _add(client, p, [6])
    assert added.status_code == 201, added.get_json()
    out = added.get_json()
    assert out["added"] == 1 and out["forced_dice"] == 2 and out["retry_seq"] is not None
    p.wait()
    retried = client.get(f"/api/v1/games/{p.id}/moves/{out['retry_seq']}", headers=p.auth("north")).get_json()
    assert retried["status"] == "resolved" and [d["value"] for d in retried["dice"]] == [6]
    assert retried["submitted"]["retry_of"] == waiting_move["seq"]
    first = client.get(f"/api/v1/games/{p.id}/moves/{waiting_move['seq']}", headers=p.auth("north")).get_json()
    assert first["status"] == "rejected" and first["retried_as"] == out["retry_seq"]
    now = client.get(f"/api/v1/games/{p.id}/state", headers=p.auth("director")).get_json()
    assert now["state"]["pot"] == 10 and "waiting_for_dice" not in now
    assert b'id="waiting-for-dice"' not in client.get(f"/games/{p.id}", headers=p.auth("director")).data

    # dice added with no move waiting are kept for the next one
    assert _add(client, p, [3]).get_json()["retry_seq"] is None
    assert p.play("north", {"type": "roll"})["dice"][0]["value"] == 3

    export = client.get(f"/api/v1/games/{p.id}/export", headers=p.auth("director")).get_data()
    assert b'"dice_added"' in export
    report = verify_bytes(export)
    assert report.sandbox and report.judgements == 4  # roll, the waiting roll, its retry, roll


def test_added_dice_are_checked_like_the_creations(client, app) -> None:
    p = _sandbox(client, app)
    bad = _add(client, p, [7])
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["path"] == "/dice/0"
    assert _add(client, p, []).status_code == 422
    assert _add(client, p, ["six"]).status_code == 422
    assert _add(client, p, [2], seat="north").status_code == 403
    assert client.post(f"/api/v1/games/{p.id}/dice", json={"dice": [2]}).status_code == 401


def test_only_a_sandbox_that_stops_takes_more_dice(client, app, new_game) -> None:
    derive = _sandbox(client, app, mode="derive")
    r = _add(client, derive, [2])
    assert r.status_code == 422 and "stop" in r.get_json()["error"]
    plain = new_game()
    assert _add(client, plain, [2]).status_code == 422


def test_a_stop_sandbox_with_no_forced_dice_waits_at_the_first_roll(client, app) -> None:
    p = _sandbox(client, app, dice=[])
    assert p.play("north", {"type": "roll"})["status"] == "waiting_for_dice"
    assert _add(client, p, [5]).status_code == 201
    p.wait()
    assert client.get(f"/api/v1/games/{p.id}/state").get_json()["state"]["pot"] == 5


def test_the_sandbox_answers_are_as_documented(client, app) -> None:
    """Every sandbox answer (create, the waiting move, /state, /actions, /dice, fork and its dry run,
    the 422s naming paths) fits the schema the live OpenAPI document gives it."""
    from tests.support.documented import Documented

    d = Documented(client)
    created = d.call("post", "/api/v1/games", json={"game": "dice-duel", "scenario": "long", "sandbox": {
        "state": dict(START), "dice": [4], "on_dice_exhausted": "stop"}}).get_json()
    assert [t["seat"] for t in created["seat_tokens"]] == list(created["seats"])
    p = Player(client, app, created)
    p.join_all()
    p.play("north", {"type": "roll"})
    waiting = p.play("north", {"type": "roll"})["seq"]
    for seat in ("north", "south", "director"):
        d.call("get", f"/api/v1/games/{p.id}/state", headers=p.auth(seat))
        d.call("get", f"/api/v1/games/{p.id}/actions", headers=p.auth(seat))
        d.call("get", f"/api/v1/games/{p.id}/moves/{waiting}", headers=p.auth(seat))
    d.call("get", f"/api/v1/games/{p.id}")
    assert d.call("post", f"/api/v1/games/{p.id}/dice", json={"dice": [9]}, headers=p.auth("director")).status_code == 422
    assert d.call("post", f"/api/v1/games/{p.id}/dice", json={"dice": [6]},
                  headers=p.auth("director")).status_code == 201
    p.wait()
    d.call("get", f"/api/v1/games/{p.id}/moves/{waiting}", headers=p.auth("north"))
    d.call("get", f"/api/v1/games/{p.id}/state", headers=p.auth("north"))
    fork = f"/api/v1/games/{p.id}/fork"
    assert d.call("post", fork, json={"step": 4, "dry_run": True}, headers=p.auth("director")).status_code == 200
    assert d.call("post", fork, json={"step": 4, "dice": [0]}, headers=p.auth("director")).status_code == 422
    forked = d.call("post", fork, json={"step": 4, "dice": [2], "on_dice_exhausted": "stop"},
                    headers=p.auth("director"))
    assert forked.status_code == 201 and forked.get_json()["seat_tokens"][0]["url"]
    assert d.call("get", "/api/v1/games/schemas/dice-duel/state").status_code in (200, 404)
