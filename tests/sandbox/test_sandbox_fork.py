"""Fork a sandbox from any step (the director, or anyone once the game
has ended), its hidden information kept as it was; edit the position with a JSON Patch, checked
like any sandbox; and a sandbox's events are redacted per seat exactly like any game's — the
attacks below are the opponent's (the US seat) and a spectator's, reading every answer open to
them for the VC's hidden units and secret camps, or GBV's face-down PP markers."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.api.test_ruling_secrets import _play_setup
from tests.conftest import Player


def _fork(p: Player, who: str | None, **body: Any) -> Any:
    headers = p.auth(who) if who else {}
    return p.client.post(f"/api/v1/games/{p.id}/fork", headers=headers, json=body)


def _secrets(state: dict[str, Any]) -> list[str]:
    """Every hidden unit's and secret camp's position, as JSON text would carry it."""
    sec = state["secret"]
    pairs = list(sec["hidden"].items()) + list(sec["camps"].items())
    return [json.dumps({k: v})[1:-1] for k, v in pairs]


@pytest.mark.slow
def test_vb_fork_keeps_hidden_units_and_never_shows_them_to_the_us_seat(client, app, new_game) -> None:
    p = new_game("vietnam-battles", "snoopys_nose")
    _play_setup(p, "snoopys_nose")
    step = p.info()["seq"]
    full = client.get(f"/api/v1/games/{p.id}/state?at={step}", headers=p.auth("director")).get_json()["state"]
    assert full["secret"]["hidden"], "the VC set-up hid no unit"
    r = _fork(p, "director", step=step, dice=[6, 5, 4])
    assert r.status_code == 201, r.get_json()
    fork = Player(client, app, r.get_json())
    assert r.get_json()["forked_from"] == {"game": p.id, "step": step}
    fork.join_all()
    # the director's sandbox starts from that exact state, secrets and all
    start = client.get(f"/api/v1/games/{fork.id}/state", headers=fork.auth("director")).get_json()["state"]
    assert start == full
    secrets = _secrets(full)
    for who in ("us", None):
        headers = fork.auth(who) if who else {}
        events = client.get(f"/api/v1/games/{fork.id}/events?after=-1", headers=headers)
        text = events.get_data(as_text=True)
        first = events.get_json()["events"][0]
        assert first["type"] == "game_created" and first["payload"]["sandbox"]["state"]["secret"]["hidden"] == {}
        assert not [s for s in secrets if s in text], f"{who or 'spectator'} sees hidden positions in /events"
        state_text = client.get(f"/api/v1/games/{fork.id}/state", headers=headers).get_data(as_text=True)
        assert not [s for s in secrets if s in state_text]
    # the VC seat sees its own hidden units
    vc = client.get(f"/api/v1/games/{fork.id}/events?after=-1", headers=fork.auth("vc")).get_json()["events"][0]
    assert vc["payload"]["sandbox"]["state"]["secret"]["hidden"] == full["secret"]["hidden"]


def test_gbv_sandbox_face_down_pp_markers_are_not_in_the_first_event(client, app, new_game) -> None:
    p = new_game("green-beret-vietnam")
    step = p.info()["seq"]
    full = client.get(f"/api/v1/games/{p.id}/state", headers=p.auth("director")).get_json()["state"]
    r = _fork(p, "director", step=step)
    assert r.status_code == 201, r.get_json()
    fork = Player(client, app, r.get_json())
    fork.join_all()
    for headers in (fork.auth("player"), {}):
        events = client.get(f"/api/v1/games/{fork.id}/events?after=-1", headers=headers).get_json()["events"]
        assert events[0]["payload"]["sandbox"]["state"]["pp_markers"] == ["hidden", "hidden"]
        assert full["pp_markers"] != ["hidden", "hidden"]


def test_only_the_director_forks_a_running_game(client, app, new_game) -> None:
    p = new_game()
    for who, status in ((None, 401), ("north", 403)):  # no credentials: 401; a seat's: 403
        r = _fork(p, who, step=p.info()["seq"])
        assert r.status_code == status and "director" in r.get_json()["error"]


def _finished_duel(p: Player) -> None:
    while p.info()["status"] == "active":
        seat = p.info()["active_seats"][0]
        p.play(seat, {"type": "roll"})


def test_anyone_may_fork_an_ended_game_at_any_step(client, app, new_game) -> None:
    p = new_game("dice-duel", "long")
    _finished_duel(p)
    assert p.info()["status"] == "ended"
    events = client.get(f"/api/v1/games/{p.id}/events?after=-1").get_json()["events"]
    steps = [e["seq"] for e in events if e["type"] in ("game_started", "resolved")]
    assert len(steps) >= 2
    r = _fork(p, None, step=steps[1], dice=[6, 6])
    assert r.status_code == 201, r.get_json()
    fork = Player(client, app, r.get_json())
    fork.join_all()
    at = client.get(f"/api/v1/games/{p.id}/state?at={steps[1]}").get_json()["state"]
    assert client.get(f"/api/v1/games/{fork.id}/state").get_json()["state"] == at
    seat = fork.info()["active_seats"][0]
    res = fork.play(seat, {"type": "roll"})
    assert res["dice"][0]["value"] == 6 and res["sandbox"] is True


def test_fork_before_the_start_or_past_the_end_is_refused(client, app, new_game) -> None:
    p = new_game(join=False)
    r = _fork(p, "director", step=0)
    assert r.status_code == 422 and r.get_json()["errors"][0]["path"] == "/step"
    r = _fork(p, "director", step=99)
    assert r.status_code == 404


def test_a_json_patch_edits_the_forked_position_and_is_checked(client, app, new_game) -> None:
    p = new_game()
    step = p.info()["seq"]
    patch = [{"op": "replace", "path": "/pot", "value": 7}, {"op": "replace", "path": "/turn", "value": "south"}]
    check = _fork(p, "director", step=step, patch=patch, dry_run=True)
    assert check.status_code == 200 and check.get_json()["ok"] and check.get_json()["state"]["pot"] == 7
    r = _fork(p, "director", step=step, patch=patch)
    assert r.status_code == 201
    fork = Player(client, app, r.get_json())
    fork.join_all()
    assert fork.info()["active_seats"] == ["south"]
    # a patch that cannot apply names its operation's path
    bad = _fork(p, "director", step=step, patch=[{"op": "replace", "path": "/nowhere/x", "value": 1}])
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["path"] == "/nowhere/x"
    # a patch that breaks the position is refused like any sandbox
    r = _fork(p, "director", step=step, patch=[{"op": "replace", "path": "/turn", "value": "east"}])
    assert r.status_code == 422 and r.get_json()["errors"]


def test_a_patch_on_a_vb_fork_is_checked_deeply_with_paths(client, app, new_game) -> None:
    p = new_game("vietnam-battles", "boys67")
    step = p.info()["seq"]
    state = client.get(f"/api/v1/games/{p.id}/state", headers=p.auth("director")).get_json()["state"]
    unit = sorted(state["units"])[0]
    r = _fork(p, "director", step=step, dry_run=True,
              patch=[{"op": "remove", "path": f"/units/{unit}/moved"},
                     {"op": "replace", "path": "/turn", "value": "two"}])
    doc = r.get_json()
    assert r.status_code == 200 and not doc["ok"]
    assert {"path": f"/units/{unit}/moved", "message": "missing", "rule": None} in doc["errors"]
    assert any(e["path"] == "/turn" for e in doc["errors"])
