"""Judgement-keyed dice (ledger.dice step 8; a duplicate tournament's fairness): in a game created with
`keying="judgement"` a submission's dice are keyed by its judgement number, so refused moves
shift nothing; a refused move that rolled dice before the rules refused it is judged on its own
`refusal` key, so it never shows the dice the next accepted move meets; verify and the dice
audit re-derive both. An ordinary game keeps ledger-position keys (step 3)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask import Flask

from ledger.dice import derive_die
from ledger.export import parse_export
from rules import register
from rules.core.dice import DiceSource
from rules.core.game import Applied, IllegalAction
from tests.conftest import Player
from tests.support.dice_duel import BankSchema, DiceDuel, RollSchema
from validators.actions import StrictSchema, action_type, register_actions
from warlog.trust.audit import build
from warlog.trust.verify import verify_events


class PeekSchema(StrictSchema):
    type = action_type("peek")


class PeekDuel(DiceDuel):
    """Dice Duel with a `peek`: it rolls a d6 and then the rules refuse it (a move that fails
    after rolling, as some real rules do)."""

    name = "peek-duel"
    title = "Peek Duel (test game)"

    def apply(self, state: dict[str, Any], seat: str, action: dict[str, Any], dice: DiceSource) -> Applied:
        if action["type"] == "peek":
            dice.roll(6, "peek")
            raise IllegalAction("a peek is never allowed", "PD 1")
        return super().apply(copy.deepcopy(state), seat, action, dice)


_installed: list[PeekDuel] = []


def _install() -> None:
    if not _installed:
        _installed.append(register(PeekDuel()))
        register_actions("peek-duel", {"roll": RollSchema, "bank": BankSchema, "peek": PeekSchema})


def _game(app: Flask, client: Any, keying: str | None) -> Player:
    _install()
    created = app.extensions["warlog"].create_game("peek-duel", "long", {}, keying=keying)
    p = Player(client, app, created)
    p.join_all()
    return p


def _keys(app: Flask, gid: str) -> tuple[bytes, str]:
    store = app.extensions["warlog"].store
    seed = store.secret(gid)
    entropy = next(e for e in store.read(gid) if e.type == "game_started").payload["entropy"]
    return seed, entropy


def _dice(app: Flask, p: Player, move: dict[str, Any]) -> list[int]:
    """The dice the judgement of `move` recorded (a refusal's too), from the ledger."""
    ev = app.extensions["warlog"].store.read(p.id, after=move["event_seq"] - 1, upto=move["event_seq"])[0]
    return [int(d["value"]) for d in ev.payload.get("dice", [])]


def _end_and_verify(app: Flask, client: Any, p: Player) -> None:
    r = client.post(f"/api/v1/games/{p.id}/rulings", headers=p.auth("director"),
                    json={"kind": "award", "winner": "south", "result": "south wins", "reason": "test over"})
    assert r.status_code == 202, r.get_json()
    p.wait()
    lines = client.get(f"/api/v1/games/{p.id}/export", headers=p.auth("director")).get_data(as_text=True)
    events = parse_export(lines.splitlines(keepends=True))
    report = verify_events(events)
    assert report.seed_revealed and report.dice_derived >= 2
    audit = build(events, lambda sub: "")
    assert audit.dice and all(d.rederived for d in audit.dice)


@pytest.mark.slow
def test_a_refusal_that_rolled_is_judged_on_its_own_key_and_shifts_nothing(app: Flask, client: Any) -> None:
    p = _game(app, client, "judgement")
    seed, entropy = _keys(app, p.id)
    peek = p.play("north", {"type": "peek"})
    assert peek["status"] == "rejected"
    assert _dice(app, p, peek) == [derive_die(seed, p.id, {"judgement": 1, "refusal": 1}, 0, entropy, 6)]
    again = p.play("north", {"type": "peek"})
    assert _dice(app, p, again) == [derive_die(seed, p.id, {"judgement": 1, "refusal": 2}, 0, entropy, 6)]
    roll = p.play("north", {"type": "roll"})
    assert roll["status"] == "resolved"
    # The accepted move meets judgement 1's dice, whatever came before it in the ledger.
    assert roll["dice"][0]["value"] == derive_die(seed, p.id, {"judgement": 1}, 0, entropy, 6)
    seat = p.info()["active_seats"][0]
    after = p.play(seat, {"type": "peek"})
    assert _dice(app, p, after) == [derive_die(seed, p.id, {"judgement": 2, "refusal": 1}, 0, entropy, 6)]
    _end_and_verify(app, client, p)


def test_an_ordinary_game_keeps_ledger_position_keys(app: Flask, client: Any) -> None:
    p = _game(app, client, None)
    seed, entropy = _keys(app, p.id)
    peek = p.play("north", {"type": "peek"})
    assert _dice(app, p, peek) == [derive_die(seed, p.id, peek["seq"], 0, entropy, 6)]
    roll = p.play("north", {"type": "roll"})
    assert roll["dice"][0]["value"] == derive_die(seed, p.id, roll["seq"], 0, entropy, 6)
    _end_and_verify(app, client, p)
