"""UP FRONT's conditional turns (rules version 4; rules/up_front/plan.py, CORE 11.2): a seat leaves
its next turns from the cards it holds (UF C.4: those it will draw are not known), played without
asking when the other side's turn ended as its conditions foresaw (CORE 4: the turn's own
actions, then its end), dropped or stopped otherwise; the plan is the seat's secret, its marker
public."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.game import IllegalAction
from rules.up_front.game import UpFrontMountainsV3
from tests.up_front.uf_helpers import GAME, act, give, playing
from validators.up_front import SCHEMAS


def _plan(*turns: list[dict[str, Any]], when: list[Any] | None = None) -> dict[str, Any]:
    return {"type": "plan", "turns": list(turns), "when": when or []}


def _discard(card: str) -> dict[str, Any]:
    return {"type": "discard", "cards": [card]}


def _quiet_turn(s: dict[str, Any], seat: str) -> Any:
    """`seat` discards one card (nothing on the table changes) and ends its turn."""
    s = act(s, seat, _discard(give(s, seat, "fire", value=1))).state
    return act(s, seat, {"type": "end_turn"})


def test_core_11_2_a_conditional_turn_is_played_when_the_other_turn_ends_as_foreseen() -> None:
    s = playing()
    fire = give(s, "americans", "fire", value=3)
    s = act(s, "americans", _plan([{"type": "fire", "group": "A", "card": fire, "target": "A"}],
                                  when=[["mine", "==", 0], ["his", "==", 0]])).state
    s = act(s, "americans", _discard(give(s, "americans", "fire", value=1))).state
    s = act(s, "americans", {"type": "end_turn"}).state
    r = _quiet_turn(s, "germans")
    kinds = [f.kind for f in r.facts]
    assert "plan_used" in kinds and "attack" in kinds  # played without asking the Americans
    assert GAME.active_seats(r.state) == ["germans"] and r.state["reaction"]["kind"] == "concealment"  # UF C.5
    r = act(r.state, "germans", {"type": "decline"})  # the window closes, the planned turn ends (CORE 4)
    assert r.state["turn"] == "germans" and r.state["turn_no"] == 4
    assert "turn" not in r.state.get("standing", {}).get("americans", {})  # a plan serves its turns once


def test_core_11_2_a_false_condition_drops_the_plan_and_asks() -> None:
    s = playing()
    held = give(s, "americans", "rally")
    s = act(s, "americans", _plan([_discard(held)], when=[["mine", "==", 0]])).state
    s = act(s, "americans", _discard(give(s, "americans", "fire", value=1))).state
    s = act(s, "americans", {"type": "end_turn"}).state
    s = act(s, "germans", _discard(give(s, "germans", "fire", value=1))).state
    man = s["groups"]["americans"]["A"]["men"][0]
    s["men"][man]["status"] = "pinned"  # as a German fire would: one of my groups changed
    r = act(s, "germans", {"type": "end_turn"})
    used = next(f for f in r.facts if f.kind == "plan_used")
    assert used.data["played"] is False and used.data["mine"] == 1 and used.visible_to is None
    assert GAME.active_seats(r.state) == ["americans"] and r.state["turn"] == "americans"
    assert held in r.state["hands"]["americans"]


def test_uf_c4_a_plan_plays_only_cards_held_now() -> None:
    s = playing()
    unheld = give(s, "germans", "fire", value=2)
    bad = _plan([{"type": "fire", "group": "A", "card": unheld, "target": "A"}])
    assert not GAME.is_legal(s, "americans", bad)
    with pytest.raises(IllegalAction, match="cards you hold"):
        act(s, "americans", bad)
    card = give(s, "americans", "rally")
    for wrong in (_plan([_discard(card)], [_discard(card)]), _plan([{"type": "end_turn"}]),
                  _plan([{"type": "discard", "cards": [card], "extra": 1}]), _plan([_discard(card)], when=[["men", "==", 1]]),
                  _plan([_discard(card)], [], [])):
        assert not GAME.is_legal(s, "americans", wrong), wrong


def test_core_11_2_an_action_no_longer_legal_stops_the_plan_and_asks_for_the_rest() -> None:
    s = playing()
    fire = give(s, "americans", "fire", value=3)
    s = act(s, "americans", _plan([{"type": "fire", "group": "A", "card": fire, "target": "A"}])).state
    s = act(s, "americans", _discard(give(s, "americans", "fire", value=1))).state
    s = act(s, "americans", {"type": "end_turn"}).state
    s["hands"]["americans"].remove(fire)  # spent meanwhile (as a card played in the other's turn)
    s["deck"]["discard"].append(fire)
    r = _quiet_turn(s, "germans")
    stop = [f for f in r.facts if f.kind in ("plan_stopped", "plan_stop")]
    assert [f.visible_to for f in stop] == [None, ("americans",)]  # which action stopped it: the seat's own
    assert GAME.active_seats(r.state) == ["americans"] and not r.state["acted"]


def test_core_11_2_up_to_three_turns_are_played_one_after_another() -> None:
    s = playing()
    first, second = give(s, "americans", "rally"), give(s, "americans", "rally")
    s = act(s, "americans", _plan([_discard(first)], [_discard(second)])).state
    s = act(s, "americans", _discard(give(s, "americans", "fire", value=1))).state
    s = act(s, "americans", {"type": "end_turn"}).state
    s = _quiet_turn(s, "germans").state  # the Americans' turn 3 is played: germans' turn 4
    assert s["turn"] == "germans" and first in s["deck"]["discard"] and second in s["hands"]["americans"]
    s = _quiet_turn(s, "germans").state  # turn 5 played too: germans' turn 6
    assert s["turn"] == "germans" and s["turn_no"] == 6 and second in s["deck"]["discard"]
    assert "americans" not in s.get("standing", {})


def test_core_11_2_the_plan_is_secret_its_marker_public() -> None:
    s = playing()
    card = give(s, "americans", "rally")
    r = act(s, "americans", _plan([_discard(card)], when=[["mine", "==", 0]]))
    private = [f for f in r.facts if f.visible_to is not None]
    public = [f for f in r.facts if f.visible_to is None]
    assert [f.visible_to for f in private] == [("americans",)] and card in private[0].text
    assert len(public) == 1 and card not in public[0].text and "when mine == 0" in public[0].text
    seen = GAME.view(r.state, "germans")["standing"]["americans"]["turn"]
    assert seen == {"answer": "hidden", "when": [["mine", "==", 0]]}
    mine = GAME.view(r.state, "americans")["standing"]["americans"]["turn"]
    assert mine["answer"] == "play"
    assert "americans" not in act(r.state, "americans", _plan()).state.get("standing", {})  # taken back


def test_core_11_2_version_3_has_no_conditional_turns_and_the_api_shape() -> None:
    s = playing()
    card = give(s, "americans", "rally")
    assert GAME.is_legal(s, "americans", _plan([_discard(card)]))
    assert not UpFrontMountainsV3().is_legal(s, "americans", _plan([_discard(card)]))
    schema = SCHEMAS["plan"]()
    assert schema.validate(_plan([_discard(card)], when=[["mine", "==", 0]])) == {}
    assert schema.validate({"type": "plan", "turns": [[]] * 4, "when": []})
    assert "plan" not in {a["type"] for a in GAME.legal_actions(s, "americans")}  # left by the API, not listed


def test_core_11_2_conditional_turns_are_hashed_secret_moves_revealed_and_verified_at_the_end(tmp_path: Any) -> None:
    """Scenario A through the real service: before ending each turn a seat leaves a conditional
    turn (a discard of a card it keeps, when none of its groups changed); the other seat never
    reads it while the game runs, only its marker; the judge plays it without asking; once the
    game is over every seat reads the plans and the export verifies."""
    import random

    from ledger.export import export_lines
    from ledger.factory import open_store
    from rules.up_front.game import UpFrontMountains
    from warlog.games.service import Warlog
    from warlog.judging.resolver import Resolver
    from warlog.trust.verify import verify_lines

    store = open_store(f"sqlite:///{tmp_path}/uf.sqlite3")
    svc, resolver = Warlog(store, lambda gid: None), Resolver(store)
    svc.new_seed, svc.new_id = (lambda: (7).to_bytes(4, "big") * 8), (lambda: "uf-plan")
    created = svc.create_game(UpFrontMountains().name, "A", {})
    gid, tokens = created["id"], created["seats"]
    for seat, token in tokens.items():
        svc.join(gid, token, seat)
    viewers = {seat: svc.viewer(gid, token) for seat, token in tokens.items()}
    rng, moves, left, played = random.Random(7), 0, [], 0
    planned_this_turn: set[tuple[str, int]] = set()
    while svc.info(gid)["status"] == "active":
        (seat,) = svc.info(gid)["active_seats"]
        listing = svc.actions(gid, viewers[seat])
        plain = [a for a in listing["actions"] if a["type"] not in ("standing", "end_turn")]
        state = svc.state(gid, None, viewers[seat])["state"]
        ends = any(a["type"] == "end_turn" for a in listing["actions"])
        action = rng.choice(plain) if plain and (not ends or rng.random() < 0.5) else {"type": "end_turn"}
        key = (seat, state["turn_no"])
        if action["type"] == "end_turn" and state["hands"][seat] and key not in planned_this_turn \
                and state["phase"] == "play" and not state["reaction"]:
            action = _plan([_discard(state["hands"][seat][0])], when=[["mine", "==", 0]])
            planned_this_turn.add(key)
            left.append(action)
        if not plain and not ends:
            action = listing["actions"][0]
        svc.submit_move(gid, tokens[seat], action, listing["expected_seq"], f"k{moves}")
        assert resolver.run(gid) == 1
        moves += 1
        assert moves < 3000
        if action["type"] == "plan" and svc.info(gid)["status"] == "active":
            other = next(x for x in tokens if x != seat)
            for ev in svc.events(gid, 0, viewers[other])["events"]:
                assert not (ev["type"] == "submitted" and ev["seat"] == seat and "action" in ev["payload"])
                facts = ev["payload"].get("facts", [])
                assert all(f.get("visible_to") in (None, [other]) for f in facts)
                public = [f for f in facts if f.get("visible_to") is None]
                assert not any("turns" in (f.get("data") or {}) for f in public)  # no public fact names a plan
        played += sum(f["kind"] == "plan_used" and f["data"]["played"]
                      for ev in svc.events(gid, 0, viewers[seat])["events"][-1:]
                      for f in ev["payload"].get("facts", []))
    assert left and played > 0
    events = list(export_lines(store, gid))
    report = verify_lines(events)
    assert report.ended and report.seed_revealed and report.judgements == moves, report.summary()
    after = svc.events(gid, 0, viewers["americans"])["events"]  # over: the book is open to every seat
    theirs = [ev["payload"].get("action") for ev in after if ev["type"] == "submitted" and ev["seat"] != "americans"]
    assert [a for a in theirs if a and a["type"] == "plan"]
    store.close()


def test_core_11_2_a_state_holding_a_plan_fits_the_published_state_schema() -> None:
    """The sandbox and the judge check a position against the game's state schema: a plan left,
    foreseen at the turn's end and running must fit it."""
    from rules.core.stateschema import schema_errors

    s = playing()
    fire = give(s, "americans", "fire", value=3)
    s = act(s, "americans", _plan([{"type": "fire", "group": "A", "card": fire, "target": "A"}],
                                  when=[["mine", "==", 0]])).state
    assert schema_errors(GAME, s) == []
    s = act(s, "americans", _discard(give(s, "americans", "fire", value=1))).state
    s = act(s, "americans", {"type": "end_turn"}).state
    assert s["standing"]["americans"]["turn"]["table"] is not None and schema_errors(GAME, s) == []
    r = _quiet_turn(s, "germans")
    assert schema_errors(GAME, r.state) == []
