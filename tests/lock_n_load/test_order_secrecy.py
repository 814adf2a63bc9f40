"""Standing orders keep what they say secret, and nothing public depends on it (rules version 3,
rules/lock_n_load/orders.py): an order is a face-down marker. Where the markers lie is public (the
game's pauses depend on it); what an order says (hold, within N, at a hex, fire) is its owner's
alone until the game ends. The mover's view, the spectator's view and each judgement as the service
shows the mover (facts, rules list, phase, active seats) are a function of the public record only.
Version 2 (kept for its recorded games) hid the markers, but `impulse.move.fired_from`, the game's
pauses and the rules list told the mover where they lay."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from ledger.events import RESOLVED, SUBMITTED, Event
from rules.lock_n_load.game import LockNLoad, LockNLoadV2
from tests.lock_n_load.helpers import blank_state, tiny
from warlog.games.service import SPECTATOR, Viewer, redact_payload
from warlog.judging.judge import judge

PATH = ("9A2", "9A3", "9A4")  # the US mover's steps; the VC squads watch from 9A6 and 9B6
HIDDEN_CHOICES = (None, "hold", "within1", "at:9B3")  # none of them fires at a mover on PATH


def _die(index: int, faces: int) -> int:
    return 1 + (index * 7) % faces


def _start(game: LockNLoad, x6: str | None, y6: str | None) -> dict[str, Any]:
    w = game.world
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A1"), "vc1": ("vc", "vc-sq-143", "9A6"),
                        "vc2": ("vc", "vc-sq-143", "9B6")}, version=game.version, player="vc")
    for h, order in (("9A6", x6), ("9B6", y6)):
        if order is not None:
            s = game.apply(s, "vc", {"type": "order", "hex": h, "order": order}, _NoDice()).state
    s["player"] = "us"
    return s


class _NoDice:
    def roll(self, faces: int, purpose: str, secret: bool = False) -> int:
        raise AssertionError("no die here")


def _judged(game: LockNLoad, state: dict[str, Any], seat: str, action: dict[str, Any], seq: int
            ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The service's judgement of one move (warlog.judging.judge.judge), and its payload as the service
    shows it to the US seat and to a spectator (warlog.games.service.redact_payload)."""
    sub = Event("g", seq, SUBMITTED, seat, {"action": action}, "", "", "")
    j = judge(game, state, sub, _die, None, False)  # type: ignore[arg-type]
    assert j.kind == "resolved", j.payload
    ev = Event("g", seq + 1, RESOLVED, None, j.payload, "", "", "")
    return j.state, {"us": redact_payload(ev, game, Viewer("us")), "spectator": redact_payload(ev, game, SPECTATOR)}


def _mover_record(game: LockNLoad, x6: str | None, y6: str | None) -> tuple[str, list[str]]:
    """The mover's view before its move, then everything the mover and a spectator see at each step
    of the move: views, prompts' phases, active seats and the judgements as shown to the mover."""
    s = _start(game, x6, y6)
    before = json.dumps(game.view(s, "us"), sort_keys=True)
    seen = []
    seq = 10
    for a in ({"type": "activate", "hex": "9A1"}, {"type": "select", "unit": "us1"},
              {"type": "move", "mode": "normal"}) + tuple({"type": "step", "hex": h} for h in PATH):
        while game.active_seats(s) == ["vc"]:  # a prompt: the VC holds fire, publicly
            s, shown = _judged(game, s, "vc", {"type": "hold_fire"}, seq)
            seq += 2
            seen.append(json.dumps([shown, game.view(s, "us"), game.view(s, None)], sort_keys=True))
        s, shown = _judged(game, s, "us", a, seq)
        seq += 2
        seen.append(json.dumps([shown, game.view(s, "us"), game.view(s, None), game.phase(s), game.active_seats(s)],
                               sort_keys=True))
    return before, seen


def _games() -> list[tuple[LockNLoad, str | None, str | None]]:
    w = tiny(["oo"] * 6)
    return [(LockNLoad(w), x, y) for x, y in itertools.product(HIDDEN_CHOICES, repeat=2)]


def test_what_the_mover_sees_depends_only_on_what_it_saw_before_and_the_public_record() -> None:
    """Any two of the VC's secret choices (no order, hold, within1, at:9B3 in each hex, none of which
    fires here) that look the same to the US before its move look the same to it at every step of
    the move: views, spectator views, judgements (facts, rules list, phase, active seats)."""
    records = {(x, y): _mover_record(g, x, y) for g, x, y in _games()}
    same_before = 0
    for (a, (before_a, seen_a)), (b, (before_b, seen_b)) in itertools.combinations(records.items(), 2):
        if before_a == before_b:
            same_before += 1
            assert seen_a == seen_b, (a, b)
    assert same_before >= 9  # hold, within1 and at:9B3 are indistinguishable in each hex (3x3 pairs at least)


def test_version_2_let_the_mover_read_where_secret_orders_lay() -> None:
    """The leak this version closes: under version 2 the mover saw no marker, yet `fired_from` named
    the hex whose secret "hold" declined."""
    g = LockNLoadV2(tiny(["oo"] * 6))
    s = _start(g, "hold", None)
    assert g.view(s, "us")["orders"] == {"us": {}, "vc": {}}
    for a in ({"type": "activate", "hex": "9A1"}, {"type": "select", "unit": "us1"}, {"type": "move", "mode": "normal"},
              {"type": "step", "hex": "9A2"}):
        s = g.apply(s, "us", a, _NoDice()).state
    assert "9A6" in g.view(s, "us")["impulse"]["move"]["fired_from"]


def test_the_owner_reads_its_orders_the_mover_sees_a_face_down_marker_and_the_end_shows_all() -> None:
    g = LockNLoad(tiny(["oo"] * 6))
    s = _start(g, "hold", "within1")
    assert g.view(s, "vc")["orders"]["vc"] == {"9A6": "hold", "9B6": "within1"}
    for seat in ("us", None):
        assert g.view(s, seat)["orders"]["vc"] == {"9A6": "hidden", "9B6": "hidden"}
        assert "hold" not in json.dumps(g.view(s, seat)) and "within1" not in json.dumps(g.view(s, seat))
    over = dict(s, phase="over")
    assert g.view(over, "us")["orders"]["vc"] == {"9A6": "hold", "9B6": "within1"}  # the end reveals them


@pytest.mark.parametrize("order", ["hold", "within1", "within2", "at:9A3", "fire"])
def test_an_order_given_shows_the_mover_its_marker_never_its_words(order: str) -> None:
    g = LockNLoad(tiny(["oo"] * 6))
    s = blank_state(g.world, {"us1": ("us", "us-sq-264", "9A1"), "vc1": ("vc", "vc-sq-143", "9A6")},
                    version="3", player="vc")
    _, judged = _judged(g, s, "vc", {"type": "order", "hex": "9A6", "order": order}, 4)
    shown = judged["us"]
    assert judged["spectator"] == shown
    assert shown["facts"] == [{"text": "VC puts a face-down standing order in 9A6", "rule": "standing orders (ours)",
                               "kind": "order_marker", "data": {"hex": "9A6", "marker": True}}]
    assert shown["rules"] == ["standing orders (ours)"] and order not in json.dumps(shown)


def test_a_recorded_judgements_rules_list_cites_only_what_its_public_facts_cite() -> None:
    """Every judgement of the version 3 golden game: the rules list, which every seat reads, is the
    rules of the public facts (a private fact cites only what a public one of the same judgement does)."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "golden" / "lock-n-load--demo--v3.jsonl"
    payloads = [ev["payload"] for ev in map(json.loads, path.read_text(encoding="utf-8").splitlines())
                if ev["type"] == "resolved" and "facts" in ev["payload"]]
    for p in payloads:
        public = sorted({f["rule"] for f in p["facts"] if f.get("rule") and "visible_to" not in f})
        assert p["rules"] == public, p["facts"]
    kinds = [f["kind"] for p in payloads for f in p["facts"]]
    assert "order" in kinds and "order_marker" in kinds and "standing_order" in kinds
