"""ledger.dice step 7: no game goes on with a revealed seed. After a director's
reveal in a running game, or a ruling that reopens an ended one, the server commits a fresh
seed; the dice after it cannot be predicted from anything public, and `verify` checks a
ledger with several seed periods (and old single-period ledgers as before)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ledger.canonical import canonical_bytes
from ledger.dice import derive_die
from ledger.events import Event, NewEvent, seal
from tests.conftest import Player
from warlog.trust.verify import VerifyFailure, verify_bytes

LEGACY = Path(__file__).resolve().parents[1] / "verify" / "fixtures" / "legacy-mid-game-reveal.jsonl"


def _events(p: Player, who: str | None = None) -> list[dict[str, Any]]:
    headers = p.auth(who) if who else {}
    return p.client.get(f"/api/v1/games/{p.id}/events?after=-1&limit=10000", headers=headers).get_json()["events"]


def _rule(p: Player, ruling: dict[str, Any]) -> int:
    r = p.client.post(f"/api/v1/games/{p.id}/rulings", headers=p.auth("director"), json=ruling)
    assert r.status_code == 202, r.get_json()
    p.wait()
    return int(r.get_json()["seq"])


def _play_until(p: Player, done: Any, slow: bool = False) -> None:
    """Play until `done()`; `slow`: one roll a turn, then bank (first to 30 then takes 10 dice
    or more a seat, so 10 dice never end a fresh game: each seat would need five 6s)."""
    while not done():
        seat = p.info()["active_seats"][0]
        pot = p.client.get(f"/api/v1/games/{p.id}/state").get_json()["state"]["pot"]
        p.play(seat, {"type": "bank"} if pot >= (1 if slow else 5) else {"type": "roll"})


def _predicted_by(seed: bytes, events: list[dict[str, Any]], after: int) -> tuple[list[int], list[int]]:
    """The dice recorded after event `after`, and what the seed would have made them."""
    entropy = next(e for e in events if e["type"] == "game_started")["payload"]["entropy"]
    actual, predicted = [], []
    for e in events:
        if e["type"] == "resolved" and e["seq"] > after:
            for d in e["payload"]["dice"]:
                actual.append(d["value"])
                predicted.append(derive_die(seed, e["game_id"], e["payload"]["submission_seq"], d["index"], entropy,
                                            d["faces"]))
    return actual, predicted


@pytest.mark.slow
def test_hidden_information_a_reveal_mid_game_commits_a_fresh_seed_for_the_rest(new_game) -> None:
    p: Player = new_game("dice-duel", "long")
    p.play("north", {"type": "roll"})
    ruling = _rule(p, {"kind": "reveal_seed", "reason": "a dispute over roll 1"})
    public = _events(p)  # a game without hidden information: the reveal is public at once
    tail = [e["type"] for e in public if e["seq"] > ruling]
    assert tail == ["resolved", "seed_revealed", "seed_committed"]
    seed = bytes.fromhex(next(e for e in public if e["type"] == "seed_revealed")["payload"]["seed"])
    committed = next(e for e in public if e["type"] == "seed_committed")["payload"]
    assert committed["period"] == 1 and committed["commitment"] != public[0]["payload"]["seed_commitment"]

    director = p.client.get(f"/api/v1/games/{p.id}/export", headers=p.auth("director")).get_data()
    report = verify_bytes(director)
    assert (report.periods, report.periods_revealed, report.seed_revealed) == (2, 1, False), report.summary()

    _play_until(p, lambda: len(_predicted_by(seed, _events(p), ruling)[0]) >= 10, slow=True)
    actual, predicted = _predicted_by(seed, _events(p), ruling)
    assert actual != predicted  # 10 d6 or more: all equal by chance once in 60 million

    _play_until(p, lambda: p.info()["status"] == "ended")
    events = _events(p)
    assert [e["payload"].get("period", 0) for e in events if e["type"] == "seed_revealed"] == [0, 1]
    report = verify_bytes(p.client.get(f"/api/v1/games/{p.id}/export").get_data())
    assert report.seed_revealed and report.periods == 2 and report.dice_replayed == 0, report.summary()
    assert "2 seed periods" in report.summary()


@pytest.mark.slow
def test_hidden_information_a_reopened_game_rolls_with_a_seed_committed_before_the_ruling(new_game) -> None:
    p: Player = new_game("dice-duel", "long")
    first = p.play("north", {"type": "roll"})
    _rule(p, {"kind": "award", "winner": "south", "result": "south wins", "reason": "north missed a deadline"})
    assert p.info()["status"] == "ended"
    events = _events(p)
    seed = bytes.fromhex(next(e for e in events if e["type"] == "seed_revealed")["payload"]["seed"])
    ruling = _rule(p, {"kind": "void", "target": first["event_seq"], "re_resolve": True,
                       "reason": "the deadline had been extended"})
    assert p.info()["status"] == "active"
    events = _events(p)
    committed = next(e for e in events if e["type"] == "seed_committed")
    assert committed["seq"] == ruling - 1  # committed before the ruling: its own re-rolled die is fresh too
    _play_until(p, lambda: len(_predicted_by(seed, _events(p), ruling - 1)[0]) >= 10, slow=True)
    actual, predicted = _predicted_by(seed, _events(p), ruling - 1)
    assert actual != predicted  # 10 d6 or more
    _play_until(p, lambda: p.info()["status"] == "ended")
    report = verify_bytes(p.client.get(f"/api/v1/games/{p.id}/export").get_data())
    assert report.seed_revealed and report.periods == 2 and report.dice_replayed == 0, report.summary()


def test_hidden_information_an_old_single_period_ledger_still_verifies() -> None:
    """An export written before seed periods (by commit a3730b5): a director's reveal mid-game,
    play going on with that seed, an adjust ruling, idempotency keys in the payloads. It still
    verifies; verify notes the moves whose dice were predictable."""
    report = verify_bytes(LEGACY.read_bytes())
    assert report.seed_revealed and report.periods == 1 and report.dice_replayed == 0, report.summary()
    assert report.summary().startswith("OK legacy-reveal-15") and "fair" in report.summary()
    assert any("predictable" in n for n in report.notes)


def _resealed(events: list[Any], i: int, payload: dict[str, Any]) -> bytes:
    """The export with event i's payload replaced and every hash after it re-sealed."""
    out = events[:i]
    for e in [events[i].__class__(**{**events[i].__dict__, "payload": payload})] + events[i + 1:]:
        out.append(seal(e.game_id, e.seq, NewEvent(e.type, e.seat, e.payload), e.recorded_at,
                        out[-1].hash if out else "0" * 64))
    return b"".join(canonical_bytes(e.to_json()) + b"\n" for e in out)


def test_hidden_information_verify_checks_each_period_against_its_own_commitment(new_game) -> None:
    """A forged second seed, a die of the second period and a misnumbered commitment are each
    caught at their event, even with the chain re-sealed."""
    p: Player = new_game("dice-duel", "short")
    p.play("north", {"type": "roll"})
    _rule(p, {"kind": "reveal_seed", "reason": "a dispute"})
    _play_until(p, lambda: p.info()["status"] == "ended")
    events = [Event.from_json(json.loads(line)) for line in
              p.client.get(f"/api/v1/games/{p.id}/export").get_data().splitlines()]
    assert verify_bytes(_resealed(events, 1, events[1].payload)).periods == 2
    second = next(i for i, e in enumerate(events) if e.type == "seed_revealed" and e.payload.get("period") == 1)
    for i, payload, why in [
        (second, {**events[second].payload, "seed": "00" * 32}, "does not match the commitment of period 1"),
        (next(i for i, e in enumerate(events) if e.type == "seed_committed"),
         {**next(e for e in events if e.type == "seed_committed").payload, "period": 3}, "numbered as period 1"),
        (second, {**events[second].payload, "period": "one"}, "does not match"),
    ]:
        with pytest.raises(VerifyFailure) as err:
            verify_bytes(_resealed(events, i, payload))
        assert err.value.seq == events[i].seq and why in str(err.value), str(err.value)
    committed_at = next(e.seq for e in events if e.type == "seed_committed")
    k = next(i for i, e in enumerate(events) if e.type == "resolved" and e.seq > committed_at and e.payload["dice"])
    forged = json.loads(json.dumps(events[k].payload))
    forged["dice"][0]["value"] = 1 if forged["dice"][0]["value"] != 1 else 2
    with pytest.raises(VerifyFailure) as err:
        verify_bytes(_resealed(events, k, forged))
    assert err.value.seq == events[k].seq
