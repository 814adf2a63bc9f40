"""Messages in an ordinary game (seat tokens, the game's director token): the director reads the
seats' messages only once a dispute is raised in the game's own ledger; the export holds each
message's digest, never its text, and verifies; verify refuses a message event that carries
anything but the digest."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ledger.canonical import canonical_bytes
from ledger.events import Event, NewEvent, seal
from tests.verify.test_verify import finished_export
from warlog.rulings import disputes
from warlog.trust.verify import VerifyFailure, verify_bytes


def _messages(p: Any, who: str) -> Any:
    return p.client.get(f"/api/v1/games/{p.id}/messages", headers=p.auth(who))


def test_a_game_director_reads_the_seats_messages_once_a_dispute_is_raised(new_game: Any) -> None:
    p = new_game()
    r = p.client.post(f"/api/v1/games/{p.id}/messages", headers=p.auth("north"), json={"text": "good luck"})
    assert r.status_code == 201, r.get_json()
    assert [m["text"] for m in _messages(p, "south").get_json()["messages"]] == ["good luck"]
    assert _messages(p, "director").get_json()["messages"] == []
    assert p.client.get(f"/api/v1/games/{p.id}/messages").status_code == 401
    disputes.raise_dispute(p.app.extensions["warlog"], p.id, p.created["seats"]["south"], 0, "a look, please")
    assert [m["text"] for m in _messages(p, "director").get_json()["messages"]] == ["good luck"]
    r = p.client.post(f"/api/v1/games/{p.id}/messages", headers=p.auth("director"), json={"text": "hello"})
    assert r.status_code == 403  # the director rules; seats write


def test_the_export_holds_digests_and_verifies(new_game: Any) -> None:
    p = new_game()
    p.client.post(f"/api/v1/games/{p.id}/messages", headers=p.auth("north"), json={"text": "well played"})
    export = finished_export(lambda: p)
    assert b"well played" not in export
    types = [json.loads(line)["type"] for line in export.splitlines()]
    assert "message_sent" in types
    assert verify_bytes(export).judgements > 0


@pytest.mark.parametrize("payload", [
    {"message": "m1", "to": ["south"], "digest": "0" * 64, "text": "hello"},  # the text itself
    {"message": "m1", "to": ["north"], "digest": "0" * 64},  # to oneself
    {"message": "m1", "to": ["south"], "digest": "xyz"},  # not a digest
])
def test_verify_refuses_a_message_event_that_holds_more_than_its_digest(new_game: Any,
                                                                       payload: dict[str, Any]) -> None:
    export = finished_export(new_game)
    events = [Event.from_json(json.loads(line)) for line in export.splitlines()]
    bad = seal(events[0].game_id, len(events), NewEvent("message_sent", "north", payload),
               events[-1].recorded_at, events[-1].hash)
    with pytest.raises(VerifyFailure) as err:
        verify_bytes(export + canonical_bytes(bad.to_json()) + b"\n")
    assert err.value.seq == len(events)
