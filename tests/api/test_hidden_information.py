"""Hidden information through the API (DESIGN: a seat never sees another seat's secrets while
the game runs). Played with the two-seat test game whose seats each roll a secret d6 at set-up
(tests/pages/secret_game.py): 36 possible set-ups, few enough to try them all — which is the
attack these tests make, as a curious opponent or spectator would."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from ledger.canonical import canonical_bytes, state_hash
from ledger.events import Event, NewEvent, seal
from tests.pages.secret_game import install as install_secret
from warlog.trust.verify import VerifyFailure, verify_bytes


@pytest.fixture
def secret(new_game: Any) -> Any:
    install_secret()
    return new_game("secret-test", "only")


def _candidate_states() -> list[dict[str, Any]]:
    return [{"secrets": {"north": f"zq-north-{n}", "south": f"zq-south-{s}"}, "turn": "north", "passed": [],
             "over": False} for n, s in itertools.product(range(1, 7), repeat=2)]


def _guesses(doc: dict[str, Any], payload_extra: dict[str, Any]) -> list[dict[str, Any]]:
    """The candidate set-ups whose game_started event would hash to the hash the viewer sees."""
    hits = []
    for cand in _candidate_states():
        payload = {**doc["payload"], "state": cand, "state_hash": state_hash(cand), **payload_extra}
        body = Event(doc["game_id"], doc["seq"], doc["type"], doc["seat"], payload, doc["recorded_at"],
                     doc["prev_hash"], doc["hash"])
        if body.computed_hash() == doc["hash"]:
            hits.append(cand)
    return hits


def _started(client: Any, game: Any, headers: dict[str, str]) -> dict[str, Any]:
    events = client.get(f"/api/v1/games/{game.id}/events?after=-1", headers=headers).get_json()["events"]
    return next(e for e in events if e["type"] == "game_started")


def test_design_hidden_set_up_cannot_be_found_by_hashing_every_candidate(client, secret):
    """The event hash is public (the chain must be checkable) but a blind derived from the
    secret seed makes trying the 36 possible set-ups useless (ledger.dice step 5)."""
    for headers in ({}, secret.auth("south")):
        doc = _started(client, secret, headers)
        assert "state_hash" not in doc["payload"] and "blind" not in doc["payload"] and "state" not in doc["payload"]
        assert _guesses(doc, {}) == []
    # the attack itself works: with the blind, which only the full ledger holds, it finds the set-up
    full = _started(client, secret, secret.auth("director"))
    assert len(full["payload"]["blind"]) == 64
    hits = _guesses({**full, "payload": {k: v for k, v in full["payload"].items()
                                          if k not in ("state", "state_hash")}}, {"blind": full["payload"]["blind"]})
    assert hits == [full["payload"]["state"]]


def test_design_another_seats_move_and_private_facts_stay_hidden_on_the_moves_endpoint(client, secret):
    result = secret.play("north", {"type": "peek"})
    seq = result["seq"]
    assert result["status"] == "resolved" and any("north's secret is" in f["text"] for f in result["facts"])
    for headers in ({}, secret.auth("south")):
        seen = client.get(f"/api/v1/games/{secret.id}/moves/{seq}", headers=headers).get_json()
        assert seen["status"] == "resolved"
        assert "action" not in seen["submitted"] and "blind" not in seen["submitted"]
        assert "state_hash" not in seen
        assert not any("secret" in f["text"] for f in seen["facts"])
        assert "zq-north" not in json.dumps(seen)
    director = client.get(f"/api/v1/games/{secret.id}/moves/{seq}", headers=secret.auth("director")).get_json()
    assert director["submitted"]["action"] == {"type": "peek"} and "state_hash" in director


def test_design_another_seats_refused_move_keeps_its_reasons_hidden(client, secret):
    """North queues a peek behind its own pass, so the rules refuse it (not north's turn by
    then); the reason is north's to read, not south's. (A seat not asked is refused at the
    API with 409, so the refusal is made here by the rules.)"""
    svc = secret.app.extensions["warlog"]
    real, svc.enqueue = svc.enqueue, lambda game_id: None  # hold the worker back
    try:
        first = secret.info()["seq"]
        for i, action in enumerate(({"type": "pass"}, {"type": "peek"})):
            r = client.post(f"/api/v1/games/{secret.id}/moves", headers=secret.auth("north"), json={
                "action": action, "expected_seq": first + i, "idempotency_key": f"north-{i}"})
            assert r.status_code == 202, r.get_json()
    finally:
        svc.enqueue = real
    real(secret.id)
    secret.wait()
    seq = first + 2
    own = client.get(f"/api/v1/games/{secret.id}/moves/{seq}", headers=secret.auth("north")).get_json()
    assert own["status"] == "rejected" and "not north's turn" in own["reasons"][0]["message"]
    other = client.get(f"/api/v1/games/{secret.id}/moves/{seq}", headers=secret.auth("south")).get_json()
    assert other["status"] == "rejected" and "north's turn" not in json.dumps(other)
    assert "hidden until the game ends" in other["reasons"][0]["message"]


def _export(client: Any, game: Any) -> bytes:
    r = client.get(f"/api/v1/games/{game.id}/export", headers=game.auth("director"))
    assert r.status_code == 200
    return r.get_data()


def test_design_every_blind_rederives_once_the_seed_is_revealed(client, secret):
    secret.play("north", {"type": "peek"})
    secret.play("north", {"type": "pass"})
    secret.play("south", {"type": "pass"})
    assert secret.info()["status"] == "ended"
    data = _export(client, secret)
    report = verify_bytes(data)
    assert report.seed_revealed and report.ended
    events = [Event.from_json(json.loads(line)) for line in data.splitlines()]
    blinded = [e for e in events if "blind" in e.payload]
    assert {e.type for e in blinded} >= {"game_started", "submitted", "resolved"}

    # a forged blind, chain re-sealed so only the blind is wrong: verify names that event
    i = events.index(blinded[1])
    forged = events[:i]
    for e in [Event(**{**events[i].__dict__, "payload": {**events[i].payload, "blind": "0" * 64}})] + events[i + 1:]:
        forged.append(seal(e.game_id, e.seq, NewEvent(e.type, e.seat, e.payload), e.recorded_at, forged[-1].hash))
    with pytest.raises(VerifyFailure) as err:
        verify_bytes(b"".join(canonical_bytes(e.to_json()) + b"\n" for e in forged))
    assert err.value.seq == events[i].seq and "blind" in str(err.value)


def test_design_a_game_without_hidden_information_carries_no_blind(client, new_game):
    game = new_game("dice-duel")
    events = client.get(f"/api/v1/games/{game.id}/events?after=-1", headers=game.auth("director")).get_json()
    assert not any("blind" in e["payload"] for e in events["events"])
