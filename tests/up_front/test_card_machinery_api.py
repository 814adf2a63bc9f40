"""The card machinery of rules/core (deck, secret hands, reaction windows) through the real
API, worker, ledger, pages and `warlog verify`, with the two-seat test game of
tests/up_front/card_duel.py. The attacks are the ones a curious opponent or spectator would
make: read every answer, every event, every replay page for a card of my hand, and try the
candidate hands against the public event hashes."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ledger.canonical import canonical_bytes, state_hash
from ledger.events import Event, NewEvent, seal
from rules.core import deck as decks
from tests.up_front.card_duel import CARDS, install
from warlog.trust.verify import VerifyFailure, verify_bytes


@pytest.fixture
def duel(new_game: Any) -> Any:
    install()
    return new_game("card-duel-test", "only")


def _full_state(client: Any, game: Any) -> dict[str, Any]:
    return client.get(f"/api/v1/games/{game.id}/state", headers=game.auth("director")).get_json()["state"]


def _choose(rng: random.Random, actions: list[dict[str, Any]], attack: bool = True) -> dict[str, Any]:
    """Random legal play; attacks only when `attack` (the test holds them back for the first
    pass so that every game lives through a reshuffle)."""
    plays = [a for a in actions if a["type"] != "standing"]
    attacks = [a for a in plays if a["type"] == "attack"]
    if attacks and attack and rng.random() < 0.25:
        return rng.choice(attacks)
    quiet = [a for a in plays if a["type"] in ("discard", "random", "shield", "decline")]
    return rng.choice(quiet or plays)


def _south_sees(client: Any, game: Any, south_pages: Any, spectator_pages: Any) -> list[str]:
    """Everything south and a spectator can read about the game right now."""
    docs = []
    for headers in (game.auth("south"), {}):
        docs.append(client.get(f"/api/v1/games/{game.id}/state", headers=headers).get_data(as_text=True))
        events = client.get(f"/api/v1/games/{game.id}/events?after=-1", headers=headers).get_json()
        docs.append(json.dumps(events))
        for ev in events["events"]:
            if ev["type"] == "submitted":
                docs.append(client.get(f"/api/v1/games/{game.id}/moves/{ev['seq']}", headers=headers)
                            .get_data(as_text=True))
    docs.append(client.get(f"/api/v1/games/{game.id}/actions", headers=game.auth("south")).get_data(as_text=True))
    seq = game.info()["seq"]
    for pages in (south_pages, spectator_pages):
        docs.append(pages.get(f"/games/{game.id}/replay/{seq}").get_data(as_text=True))
        docs.append(pages.get(f"/games/{game.id}").get_data(as_text=True))
    return docs


@pytest.mark.slow
def test_hands_stay_secret_and_the_whole_deck_rederives_under_verify(app, client, duel):
    """An opponent's API answers, events and public replay never contain a card of
    my hand; the deck's order is re-derived by `warlog verify` after the game."""
    south_pages, spectator_pages = app.test_client(), app.test_client()
    south_pages.get(f"/games/{duel.id}/seat/{duel.created['seats']['south']}")
    rng = random.Random(12)
    checked = 0
    for _ in range(400):
        info = duel.info()
        if info["status"] == "ended":
            break
        full = _full_state(client, duel)
        north_hand = full["hands"]["north"]
        assert len(north_hand) <= 4  # fewer while a reaction or an attack awaits the refill
        # in the first pass every card is drawn once, so any mention of a card now in north's
        # hand anywhere south or a spectator can read would be a leak
        if full["deck"]["pass"] == 1 and checked < 12:
            seen = "\n".join(_south_sees(client, duel, south_pages, spectator_pages))
            assert not [c for c in north_hand if c in seen], "a card of north's hand is visible to south"
            checked += 1
        seat = info["active_seats"][0]
        acts = duel.actions(seat)["actions"]
        result = duel.play(seat, _choose(rng, acts, attack=full["deck"]["pass"] >= 2))
        assert result["status"] == "resolved", result
    assert duel.info()["status"] == "ended"
    assert checked >= 5
    full = _full_state(client, duel)
    assert full["deck"]["pass"] >= 2 and full["deck"]["reshuffles"], "the game should have lived through a reshuffle"
    assert decks.all_cards(full["deck"], full["hands"]["north"] + full["hands"]["south"]) == sorted(CARDS)

    data = client.get(f"/api/v1/games/{duel.id}/export", headers=duel.auth("director")).get_data()
    report = verify_bytes(data)
    assert report.seed_revealed and report.ended and report.dice_derived > 24
    events = [Event.from_json(json.loads(line)) for line in data.splitlines()]
    draws = [d for e in events for d in e.payload.get("dice") or [] if "drawn into" in d["purpose"]]
    assert draws and all(d["secret"] for d in draws)

    # one secret draw die changed, the chain re-sealed: verify refuses that event
    i = next(k for k, e in enumerate(events) if e.type == "resolved" and any(
        d.get("secret") and d["faces"] > 2 for d in e.payload.get("dice") or []))
    dice = [dict(d) for d in events[i].payload["dice"]]
    j = next(k for k, d in enumerate(dice) if d.get("secret") and d["faces"] > 2)
    dice[j]["value"] = dice[j]["value"] % dice[j]["faces"] + 1
    forged = events[:i]
    for e in [Event(**{**events[i].__dict__, "payload": {**events[i].payload, "dice": dice}})] + events[i + 1:]:
        forged.append(seal(e.game_id, e.seq, NewEvent(e.type, e.seat, e.payload), e.recorded_at, forged[-1].hash))
    with pytest.raises(VerifyFailure) as err:
        verify_bytes(b"".join(canonical_bytes(e.to_json()) + b"\n" for e in forged))
    assert err.value.seq == events[i].seq


def test_the_opening_hands_cannot_be_found_by_hashing_candidates(client, duel):
    """The game_started event holds both hands. Even knowing everything else in it, trying each
    card in place of one of north's cards against the public hash finds nothing; only the full
    ledger's blind (derived from the secret seed) makes the hash checkable (ledger.dice step 5)."""
    full = next(e for e in client.get(f"/api/v1/games/{duel.id}/events?after=-1", headers=duel.auth("director"))
                .get_json()["events"] if e["type"] == "game_started")
    public = next(e for e in client.get(f"/api/v1/games/{duel.id}/events?after=-1", headers=duel.auth("south"))
                  .get_json()["events"] if e["type"] == "game_started")
    assert public["hash"] == full["hash"] and "state" not in public["payload"] and "blind" not in public["payload"]
    true_state = full["payload"]["state"]
    hand = true_state["hands"]["north"]

    def hits(blind: str | None) -> list[str]:
        found = []
        for cand in CARDS:
            state = json.loads(json.dumps(true_state))
            state["hands"]["north"][0] = cand
            payload = {**full["payload"], "state": state}
            payload.pop("blind")
            if blind is not None:
                payload["blind"] = blind
            payload["state_hash"] = state_hash(state)
            ev = Event(full["game_id"], full["seq"], full["type"], full["seat"], payload, full["recorded_at"],
                       full["prev_hash"], full["hash"])
            if ev.computed_hash() == full["hash"]:
                found.append(cand)
        return found

    assert hits(None) == []
    assert hits(full["payload"]["blind"]) == [hand[0]]


def _north_attack_ready(duel: Any) -> dict[str, Any] | None:
    """Turns pass until north holds an attack card; then its attack action. North discards (its
    hand refills from the pile) rather than drawing a random number, which leaves its hand as it
    is: a hand of four shields would never change, and the game would end at its time limit."""
    for _ in range(40):
        acts = duel.actions("north")["actions"]
        attack = next((a for a in acts if a["type"] == "attack"), None)
        if attack:
            return attack
        duel.play("north", next(a for a in acts if a["type"] == "discard"))
        duel.play("south", next(a for a in duel.actions("south")["actions"] if a["type"] == "random"))
    return None


def test_a_reaction_window_makes_the_other_seat_active_and_a_standing_answer_spares_the_ask(client, duel):
    """The attacked seat is asked in the attacker's turn (reaction window); with a secret standing
    answer "decline when strength >= 2" it is not asked for such an attack, and north never
    learns the answer itself."""
    r = client.post(f"/api/v1/games/{duel.id}/moves", headers=duel.auth("south"), json={
        "action": {"type": "standing", "kind": "shield", "answer": "decline", "when": [["strength", ">=", 2]]},
        "expected_seq": duel.info()["seq"], "idempotency_key": "early"})
    assert r.status_code == 409  # not south's turn: standing answers are set in one's own turn
    attack = _north_attack_ready(duel)
    assert attack is not None
    res = duel.play("north", attack)
    assert duel.info()["active_seats"] == ["south"]
    assert "shield or decline" in duel.actions("south")["prompt"]
    assert any(a["type"] == "decline" for a in duel.actions("south")["actions"])
    duel.play("south", {"type": "decline"})
    assert duel.info()["active_seats"] == ["south"]  # north's turn is over: south's own turn
    assert "attack, discard" in duel.actions("south")["prompt"]
    # south records a standing answer, in its own turn
    res = duel.play("south", {"type": "standing", "kind": "shield", "answer": "decline", "when": [["strength", ">=", 1]]})
    assert res["status"] == "resolved"
    seen_by_north = client.get(f"/api/v1/games/{duel.id}/moves/{res['seq']}", headers=duel.auth("north")).get_json()
    assert "action" not in seen_by_north["submitted"] and seen_by_north["facts"] == []
    north_state = client.get(f"/api/v1/games/{duel.id}/state", headers=duel.auth("north")).get_json()["state"]
    assert north_state["standing"] == {"north": {}}
    duel.play("south", {"type": "random"})
    before = _full_state(client, duel)["damage"]["south"]
    attack = _north_attack_ready(duel)
    res = duel.play("north", attack)
    assert duel.info()["active_seats"] == ["south"]
    assert "attack, discard" in duel.actions("south")["prompt"]  # not asked: the turn passed straight on
    assert any("south takes" in f["text"] for f in res["facts"])
    assert _full_state(client, duel)["damage"]["south"] == before + int(attack["card"][-2:]) % 3 + 1
