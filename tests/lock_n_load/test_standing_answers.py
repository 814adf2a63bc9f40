"""Standing answers in Lock 'n Load (rules version 4; rules/lock_n_load/standing.py): a side's
impulse (LnL 4.0, 4.1) and Rally Phase step (LnL 3.0) settled without waiting, and a side whose
only action is to pass not asked because it could also change its standing orders."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ledger.export import export_lines
from ledger.factory import open_store
from rules import get_game
from rules.core.dice import RecordingDice
from rules.core.game import IllegalAction
from rules.lock_n_load import standing as lnl_standing
from rules.lock_n_load.game import LockNLoad, LockNLoadV3
from tests.lock_n_load.helpers import blank_state
from tools.lnl_strategy import choose
from warlog.games.service import Warlog
from warlog.judging.resolver import Resolver
from warlog.trust.verify import verify_lines

PASS_UNSEEN = {"type": "standing", "kind": "impulse", "answer": "pass", "when": [["targets", "==", 0]]}


def _dice() -> RecordingDice:
    return RecordingDice(lambda index, faces: 3)


def _apart(version: str = "4", **over: Any) -> tuple[LockNLoad, dict[str, Any]]:
    """A US squad in 1A1 and a VC squad in 1M10, 15 hexes away: neither has a target."""
    g = LockNLoad() if version == "4" else LockNLoadV3()
    s = blank_state(g.world, {"us1": ("us", "us-sq-264", "1A1"), "vc1": ("vc", "vc-sq-143", "1M10")},
                    version=version, **over)
    return g, s


def _answering(s: dict[str, Any], a: dict[str, Any]) -> dict[str, Any]:
    s["standing"] = {"vc": {a["kind"]: {"answer": a["answer"], "when": a["when"]}}}
    return s


def test_lnl_4_1_a_standing_pass_settles_the_impulse_without_waiting() -> None:
    g, s = _apart()
    assert lnl_standing.context(s, g.world, "vc")["targets"] == 0
    out = g.apply(_answering(s, PASS_UNSEEN), "us", {"type": "pass"}, _dice())
    kinds = [f.kind for f in out.facts]
    assert kinds.count("pass") == 2 and "standing_used" in kinds  # the VC passed unasked
    assert g.active_seats(out.state) == ["us"] and out.state["passes"] == 2
    used = next(f for f in out.facts if f.kind == "standing_used")
    assert used.visible_to is None  # that the game did not wait is public


def test_lnl_4_1_a_false_condition_asks_the_seat() -> None:
    g, s = _apart()
    s = g.apply(_answering(s, {**PASS_UNSEEN, "when": [["targets", ">=", 1]]}), "us", {"type": "pass"}, _dice()).state
    assert g.active_seats(s) == ["vc"] and s["passes"] == 1  # no target: the condition is false, VC asked


def test_lnl_3_0_a_standing_end_settles_the_rally_step() -> None:
    g = LockNLoad()
    s = blank_state(g.world, {"us1": ("us", "us-sq-264", "1A1"), "vc1": ("vc", "vc-sq-143", "1M10"),
                              "lam": ("vc", "vc-ldr-lam", "1M10")}, version="4", phase="rally", rally_side="vc",
                    rally_done=["us"])
    s["units"]["vc1"]["shaken"] = True
    assert any(a["type"] == "rally" for a in g.legal_actions(s, "vc"))
    s = g.apply(s, "vc", {"type": "standing", "kind": "rally", "answer": "end", "when": [["rallies", "==", 0]]},
                _dice()).state
    assert g.active_seats(s) == ["vc"]  # a unit can rally: it is asked
    out = g.apply(s, "vc", {"type": "rally", "unit": "vc1"}, _dice())
    assert "standing_used" in [f.kind for f in out.facts]  # nothing left to rally: the step ends unasked
    assert out.state["phase"] == "operations"


def test_a_malformed_standing_answer_is_refused_and_version_3_has_none() -> None:
    g, s = _apart()
    for bad in ({**PASS_UNSEEN, "answer": "fire"}, {**PASS_UNSEEN, "kind": "melee"},
                {**PASS_UNSEEN, "when": [["colour", "==", 1]]}, {**PASS_UNSEEN, "when": [["targets", "==", "none"]]}):
        assert not g.is_legal(s, "us", bad)
        with pytest.raises(IllegalAction):
            g.apply(s, "us", bad, _dice())
    g3, s3 = _apart("3")
    assert not g3.is_legal(s3, "us", PASS_UNSEEN)
    assert "standing" not in s3


def test_lnl_4_1_a_side_whose_only_action_is_to_pass_is_not_asked_for_its_orders() -> None:
    """Version 3 stopped for it (it could change its standing orders); version 4 passes for it."""
    for version, asked in (("3", True), ("4", False)):
        g, s = _apart(version)
        s["units"]["vc1"].update(shaken=True, marker="moved")  # the VC can only pass, or give its squad an order
        out = g.apply(s, "us", {"type": "activate", "hex": "1A1"}, _dice()).state
        out = g.apply(out, "us", {"type": "end_impulse"}, _dice()).state
        assert (g.active_seats(out) == ["vc"]) is asked, version


def test_the_view_shows_another_sides_answer_face_down() -> None:
    g, s = _apart()
    s = g.apply(s, "us", {"type": "pass"}, _dice()).state
    s = g.apply(s, "vc", PASS_UNSEEN, _dice()).state
    assert g.view(s, "vc")["standing"]["vc"]["impulse"]["answer"] == "pass"
    assert g.view(s, "us")["standing"]["vc"]["impulse"] == {"answer": "hidden", "when": [["targets", "==", 0]]}


@pytest.mark.slow
def test_a_standing_answer_is_a_hashed_secret_move_revealed_and_verified_at_the_end(tmp_path: Any) -> None:
    """Through the real service: the VC's standing answers are its hidden moves (the US never reads
    them while the game runs), the judge applies them without waiting, and at the end the export
    shows them and verifies (chain, dice, every judgement and state hash)."""
    store = open_store(f"sqlite:///{tmp_path}/lnl.sqlite3")
    svc, resolver = Warlog(store, lambda gid: None), Resolver(store)
    g = get_game("lock-n-load")
    assert isinstance(g, LockNLoad)
    svc.new_seed, svc.new_id = (lambda: (7).to_bytes(4, "big") * 8), (lambda: "lnl-standing")
    created = svc.create_game(g.name, "demo", {})
    gid, tokens = created["id"], created["seats"]
    for seat, token in tokens.items():
        svc.join(gid, token, seat)
    viewers = {seat: svc.viewer(gid, token) for seat, token in tokens.items()}
    todo = [PASS_UNSEEN, {"type": "standing", "kind": "rally", "answer": "end", "when": [["rallies", "==", 0]]}]
    rng, moves, used = random.Random(7), 0, 0
    while svc.info(gid)["status"] == "active":
        (seat,) = svc.info(gid)["active_seats"]
        listing = svc.actions(gid, viewers[seat])
        state = svc.history(gid).state_at(listing["expected_seq"])
        action = todo.pop(0) if seat == "vc" and todo else choose(g, state, seat, listing["actions"], rng, True)
        svc.submit_move(gid, tokens[seat], action, listing["expected_seq"], f"k{moves}")
        assert resolver.run(gid) == 1
        moves += 1
        if moves % 40 == 0 or action["type"] == "standing":
            for ev in svc.events(gid, 0, viewers["us"])["events"]:
                p = ev["payload"]
                assert not (ev["type"] == "submitted" and ev["seat"] == "vc" and "action" in p)
                assert all(f["kind"] != "standing" for f in p.get("facts", [])), p  # the words are the VC's
                used += sum(f["kind"] == "standing_used" for f in p.get("facts", [])) if moves % 40 == 0 else 0
        assert moves < 3000
    assert used > 0  # the US saw the game go on without asking the VC
    after = svc.events(gid, 0, viewers["us"])["events"]  # the game is over: the book is open
    revealed = [ev["payload"]["action"] for ev in after if ev["type"] == "submitted" and ev["seat"] == "vc"
                and ev["payload"].get("action", {}).get("type") == "standing"]
    assert len(revealed) == 2 and revealed[0] == PASS_UNSEEN
    report = verify_lines(list(export_lines(store, gid)))
    assert report.ended and report.seed_revealed and report.judgements == moves, report.summary()
    store.close()
