"""Standing answers keep their words secret, and nothing public depends on them (CORE 11, rules
version 3, rules/up_front/react.py): a standing answer is a face-down marker. Which window kind it
settles and on what conditions is public (whether the seat is asked is public); play or decline is
the seat's alone. Version 2 (kept for its recorded games) hid the marker, but the windows it
settled, and the judgement's rules list ("CORE 11"), told the other seat of it."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from ledger.events import RESOLVED, SUBMITTED, Event
from rules.up_front.game import UpFrontMountains, UpFrontMountainsV2, UpFrontMountainsV3
from tests.up_front.uf_helpers import give, playing
from warlog.games.service import SPECTATOR, Viewer, redact_payload
from warlog.judging.judge import judge

# The defender's secret choices: none, and standing answers whose words differ (it holds no
# Concealment card, so "play" and "decline", in version 4 "conceal" and "take", end the same way).
WORDS = {"3": ("play", "decline"), "4": ("conceal", "take")}


def _choices(version: str) -> tuple[tuple[str, list[Any]] | None, ...]:
    play, decline = WORDS[version]
    return (None, (play, []), (decline, []), (play, [["men", "<=", 2]]), (decline, [["men", "<=", 2]]))


def _game(version: str) -> UpFrontMountains:
    return UpFrontMountains() if version == "4" else UpFrontMountainsV3()


def _playing(game: UpFrontMountains) -> dict[str, Any]:
    s = playing()
    if "half" not in game.state_keys:
        s.pop("half")  # a version 3 state
    return s


def _die(index: int, faces: int) -> int:
    return 1 + (index * 5) % faces


def _judged(game: UpFrontMountains, state: dict[str, Any], seat: str, action: dict[str, Any], seq: int
            ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The service's judgement of a move, as the service shows it to the attacker and a spectator."""
    sub = Event("g", seq, SUBMITTED, seat, {"action": action}, "", "", "")
    j = judge(game, state, sub, _die, None, False)  # type: ignore[arg-type]
    assert j.kind == "resolved", j.payload
    ev = Event("g", seq + 1, RESOLVED, None, j.payload, "", "", "")
    shown = {"americans": redact_payload(ev, game, Viewer("americans")),
             "spectator": redact_payload(ev, game, SPECTATOR)}
    return j.state, {k: {x: y for x, y in v.items() if x != "submission_seq"} for k, v in shown.items()}


def _record(game: UpFrontMountains, choice: tuple[str, list[Any]] | None) -> tuple[str, list[str]]:
    """The attacker's view before it fires, then what it and a spectator see of the attack: the
    judgements (facts, rules list, phase, active seats) and the views after each."""
    s = _playing(game)
    s["turn"] = "germans"
    if choice is not None:
        s, _ = _judged(game, s, "germans", {"type": "standing", "kind": "concealment", "answer": choice[0],
                                            "when": choice[1]}, 2)
    s["turn"] = "americans"
    card = give(s, "americans", "fire", value=3)
    before = json.dumps(game.view(s, "americans"), sort_keys=True)
    seen = []
    s, shown = _judged(game, s, "americans", {"type": "fire", "group": "A", "card": card, "target": "A"}, 10)
    seen.append(json.dumps([shown, game.view(s, "americans"), game.view(s, None), game.phase(s),
                            game.active_seats(s)], sort_keys=True))
    if game.active_seats(s) == ["germans"]:  # asked: it declines (it holds no Concealment card)
        s, shown = _judged(game, s, "germans", {"type": "decline"}, 12)
        seen.append(json.dumps([shown, game.view(s, "americans"), game.view(s, None)], sort_keys=True))
    return before, seen


@pytest.mark.parametrize("version", ["3", "4"])
def test_what_the_attacker_sees_depends_only_on_what_it_saw_before_and_the_public_record(version: str) -> None:
    """Any two of the defender's secret choices that look the same to the attacker before it fires
    look the same to it (and to a spectator) after: the "CORE 11" of the rules list included."""
    game = _game(version)
    records = {json.dumps(c): _record(game, c) for c in _choices(version)}
    same_before = 0
    for (a, (before_a, seen_a)), (b, (before_b, seen_b)) in itertools.combinations(records.items(), 2):
        if before_a == before_b:
            same_before += 1
            assert seen_a == seen_b, (a, b)
    assert same_before >= 2  # play and decline look the same, with or without the condition


def test_version_2_told_the_attacker_of_a_secret_standing_answer() -> None:
    """The leak this version closes: under version 2 nothing showed the marker, yet the window was
    not asked (the judgement's rules list recorded "CORE 11" too; the service no longer shows it)."""
    game = UpFrontMountainsV2()
    (before_none, seen_none), (before_decline, seen_decline) = _record(game, None), _record(game, ("decline", []))
    assert before_none == before_decline and seen_none != seen_decline


def test_the_service_shows_a_rules_list_citing_only_the_facts_the_viewer_reads() -> None:
    """A game recorded under version 2 keeps its private "CORE 11" fact in the ledger; the service
    shows the other seat and a spectator a rules list without it (warlog.games.service.redact_payload),
    and the owner its own."""
    game = UpFrontMountainsV2()
    s = playing()
    s["turn"] = "germans"
    sub = Event("g", 2, SUBMITTED, "germans", {"action": {"type": "standing", "kind": "concealment",
                                                          "answer": "play", "when": []}}, "", "", "")
    j = judge(game, s, sub, _die, None, False)  # type: ignore[arg-type]
    assert j.payload["rules"] == ["CORE 11"] and [f.get("visible_to") for f in j.payload["facts"]] == [["germans"]]
    ev = Event("g", 3, RESOLVED, None, j.payload, "", "", "")
    for viewer in (Viewer("americans"), SPECTATOR):
        assert redact_payload(ev, game, viewer)["rules"] == [] and redact_payload(ev, game, viewer)["facts"] == []
    assert redact_payload(ev, game, Viewer("germans"))["rules"] == ["CORE 11"]


MARKER = {  # the public fact of recording a standing answer "when men <= 2", by rules version
    "3": ("germans puts a face-down standing answer for concealment windows when men <= 2", "CORE 11"),
    "4": ("GERMANS puts a face-down standing answer to concealment (when men <= 2)", "standing answers (ours)"),
}


@pytest.mark.parametrize("version", ["3", "4"])
def test_recording_an_answer_shows_its_marker_never_its_words(version: str) -> None:
    game = _game(version)
    s = _playing(game)
    s["turn"] = "germans"
    for answer in WORDS[version]:
        _, shown = _judged(game, s, "germans", {"type": "standing", "kind": "concealment", "answer": answer,
                                                "when": [["men", "<=", 2]]}, 2)
        assert shown["americans"] == shown["spectator"]
        text, rule = MARKER[version]
        assert shown["americans"]["facts"] == [{
            "text": text, "rule": rule,
            "kind": "standing_marker", "data": {"kind": "concealment", "when": [["men", "<=", 2]], "marker": True}}]
        assert f'"{answer}"' not in json.dumps(shown["americans"]) and f" {answer} " not in json.dumps(shown["americans"])
    play = WORDS[version][0]
    after = game.apply(s, "germans", {"type": "standing", "kind": "concealment", "answer": play, "when": []},
                       _NoDice()).state
    assert game.view(after, "germans")["standing"]["germans"]["concealment"]["answer"] == play  # its owner reads it
    assert game.view(after, "americans")["standing"]["germans"]["concealment"]["answer"] == "hidden"


class _NoDice:
    def roll(self, faces: int, purpose: str, secret: bool = False) -> int:
        raise AssertionError("no die here")


def _resolutions(pattern: str) -> list[dict[str, Any]]:
    from pathlib import Path

    golden = Path(__file__).resolve().parents[1] / "golden"
    out = []
    for path in sorted(golden.glob(pattern)):
        for line in path.read_text(encoding="utf-8").splitlines():
            ev = json.loads(line)
            if ev["type"] == "resolved" and "facts" in ev["payload"]:
                out.append(ev["payload"])
    return out


def test_a_recorded_judgements_rules_list_cites_only_what_its_public_facts_cite() -> None:
    """Every judgement of the version 3 golden games: the rules list, which every seat reads, is the
    rules of the public facts (a private fact cites only what a public one of the same judgement does)."""
    payloads = _resolutions("up-front--*--v3.jsonl")
    assert len(payloads) > 1000
    for p in payloads:
        public = sorted({f["rule"] for f in p["facts"] if f.get("rule") and "visible_to" not in f})
        assert p["rules"] == public, p["facts"]
    assert any(f["kind"] == "standing_marker" for p in payloads for f in p["facts"])
