"""UP FRONT's standing answers in words (rules version 4; rules/up_front/standing.py, CORE 11): each
offered answer says what it does, the judge applies a standing answer to a reaction window without
waiting (UF C.5 Concealment, CORE 5.3 terrain), and through the service the answers are the seat's
hashed secret moves, revealed at the end, where the export verifies."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ledger.export import export_lines
from ledger.factory import open_store
from rules.up_front import standing as uf_standing
from rules.up_front.game import UpFrontMountains, UpFrontMountainsV3
from tests.up_front.uf_helpers import GAME, act, give, playing
from warlog.games.service import Warlog
from warlog.judging.resolver import Resolver
from warlog.trust.verify import verify_lines


def _standing(kind: str, answer: str, when: list[Any] | None = None) -> dict[str, Any]:
    return {"type": "standing", "kind": kind, "answer": answer, "when": when or []}


def _attack(s: dict[str, Any], value: int = 3) -> Any:
    card = give(s, "americans", "fire", value=value)
    return act(s, "americans", {"type": "fire", "group": "A", "card": card, "target": "A"})


def test_each_offered_standing_answer_says_what_it_does_in_words() -> None:
    """Version 3 offered "standing: answer play" twice, told apart only by a condition it did not
    show; version 4 describes each offered answer by its words, and no two alike."""
    s = playing()
    offered = [a for a in GAME.legal_actions(s, s["turn"]) if a["type"] == "standing"]
    described = [GAME.describe_action(a) for a in offered]
    assert len(set(described)) == len(offered) == 9
    assert "standing answer to concealment: conceal (play my strongest Concealment card against the attack) always" \
        in described
    assert GAME.describe_action(_standing("concealment", "take", [["strength", "<=", 3]])) == \
        "standing answer to concealment: take (take the attack (no Concealment)) when strength <= 3"
    old = UpFrontMountainsV3()
    assert old.describe_action(_standing("concealment", "play")) == "standing: answer play"  # v3's words, kept


def test_uf_c5_a_standing_conceal_plays_the_strongest_card_without_waiting() -> None:
    s = playing()
    s["turn"] = "germans"
    s = act(s, "germans", _standing("concealment", "conceal", [["strength", ">=", 3]])).state
    s["turn"] = "americans"
    weak = give(s, "germans", "concealment", value=1)
    strong = give(s, "germans", "concealment", value=2)
    r = _attack(s, 3)
    assert GAME.active_seats(r.state) == ["americans"]  # not asked: the attacker goes on
    assert strong in r.state["deck"]["discard"] and weak in r.state["hands"]["germans"]
    assert [f.kind for f in r.facts].count("conceal") == 1


def test_uf_c5_a_false_condition_asks_and_take_declines() -> None:
    s = playing()
    s["turn"] = "germans"
    s = act(s, "germans", _standing("concealment", "conceal", [["strength", ">=", 50]])).state
    s["turn"] = "americans"
    give(s, "germans", "concealment", value=2)
    assert GAME.active_seats(_attack(s).state) == ["germans"]  # strength below 50: asked
    s["turn"] = "germans"
    s = act(s, "germans", _standing("concealment", "take")).state
    s["turn"] = "americans"
    r = _attack(s)
    assert GAME.active_seats(r.state) == ["americans"] and "conceal" not in [f.kind for f in r.facts]


@pytest.mark.parametrize("answer,rejected", [("accept", False), ("reject", True)])
def test_core_5_3_a_standing_answer_to_terrain_is_applied_without_waiting(answer: str, rejected: bool) -> None:
    s = playing()
    s = act(s, "americans", _standing("terrain", answer, [["cover", ">=", -99]])).state
    mv = give(s, "americans", "movement")
    spare = give(s, "americans", "movement")
    s = act(s, "americans", {"type": "move", "group": "B", "card": mv, "mode": "forward"}).state
    s["turn"], s["acted"] = "germans", []
    brush = give(s, "germans", "brush")
    r = act(s, "germans", {"type": "discard_onto", "card": brush, "target": "B"})
    assert GAME.active_seats(r.state) == ["germans"]  # the discarder goes on
    assert ("reject" in [f.kind for f in r.facts]) is rejected
    assert (spare in r.state["deck"]["discard"]) is rejected
    assert (r.state["groups"]["americans"]["B"]["terrain"] == brush) is not rejected


def test_a_malformed_or_old_worded_answer_is_refused_in_version_4() -> None:
    s = playing()
    seat = s["turn"]
    for bad in (_standing("concealment", "play"), _standing("terrain", "conceal"), _standing("shield", "take"),
                _standing("concealment", "take", [["colour", "==", "red"]])):
        assert not GAME.is_legal(s, seat, bad)
    assert GAME.is_legal(s, seat, _standing("concealment", "take", [["strength", "<=", 3], ["men", ">=", 2]]))
    assert set(uf_standing.KINDS) == {"concealment", "terrain", "mine_altitude"}


@pytest.mark.slow
def test_standing_answers_are_hashed_secret_moves_revealed_and_verified_at_the_end(tmp_path: Any) -> None:
    """Scenario X through the real service: each seat records standing answers first (its hidden
    moves: the other seat never reads them while the game runs), the judge settles windows with
    them without waiting, and once the game is over every seat reads them and the export verifies."""
    store = open_store(f"sqlite:///{tmp_path}/uf.sqlite3")
    svc, resolver = Warlog(store, lambda gid: None), Resolver(store)
    g = UpFrontMountains()
    svc.new_seed, svc.new_id = (lambda: (5).to_bytes(4, "big") * 8), (lambda: "uf-standing")
    created = svc.create_game(g.name, "X", {})
    gid, tokens = created["id"], created["seats"]
    for seat, token in tokens.items():
        svc.join(gid, token, seat)
    viewers = {seat: svc.viewer(gid, token) for seat, token in tokens.items()}
    answers = [_standing("concealment", "conceal", [["strength", ">=", 4]]), _standing("terrain", "accept")]
    todo = {seat: list(answers) for seat in tokens}
    rng, moves = random.Random(5), 0
    while svc.info(gid)["status"] == "active":
        (seat,) = svc.info(gid)["active_seats"]
        listing = svc.actions(gid, viewers[seat])
        mine = [a for a in todo[seat] if a in listing["actions"] or (
            a["type"] == "standing" and any(x["type"] == "standing" for x in listing["actions"]))]
        plain = [a for a in listing["actions"] if a["type"] != "standing"]
        action = mine[0] if mine else rng.choice(plain)
        if mine:
            todo[seat].remove(action)
        svc.submit_move(gid, tokens[seat], action, listing["expected_seq"], f"k{moves}")
        assert resolver.run(gid) == 1
        moves += 1
        assert moves < 4000
        if action["type"] == "standing" and svc.info(gid)["status"] == "active":  # the other seat reads no words
            other = next(x for x in tokens if x != seat)
            for ev in svc.events(gid, 0, viewers[other])["events"]:
                assert not (ev["type"] == "submitted" and ev["seat"] == seat and "action" in ev["payload"])
                public = [f for f in ev["payload"].get("facts", []) if f.get("visible_to") != [other]]
                assert all(f.get("visible_to") is None for f in public)  # none of the seat's own facts
                assert not any("answer" in (f.get("data") or {}) for f in public)  # no public fact names an answer
    assert not any(todo.values())
    events = list(export_lines(store, gid))
    report = verify_lines(events)
    assert report.ended and report.seed_revealed and report.judgements == moves, report.summary()
    after = svc.events(gid, 0, viewers["americans"])["events"]  # over: the book is open to every seat
    theirs = [ev["payload"].get("action") for ev in after if ev["type"] == "submitted" and ev["seat"] != "americans"]
    assert [a for a in theirs if a and a["type"] == "standing"] == answers
    settled = sum(f["kind"] == "standing" for ev in after for f in ev["payload"].get("facts", [])
                  if f.get("visible_to") is None)
    assert settled > 0
    store.close()
