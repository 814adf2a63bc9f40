"""A standing answer is a face-down marker (rules/core/standing.py): two games that differ only in
what one seat's standing answer says look the same to the other seat — its view, the facts it
reads, who is asked — until the answer is used. Assault on Belgium and Vietnam Battles, rules
version 2 (ours: not in the rulebooks)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from rules import get_game
from rules.assault_on_belgium.standing import KINDS as AOB_KINDS
from rules.core.game import Fact, Game, IllegalAction
from rules.vietnam_battles.standing import KINDS as VB_KINDS
from tests.assault_on_belgium.aob_fuzz import _weight
from tests.support.fuzzing import seeded_dice
from tests.vietnam_battles.vb_fuzz import choose as vb_choose

CASES = {"assault-on-belgium": ("may-1940", AOB_KINDS), "vietnam-battles": ("boys67", VB_KINDS)}
MAX_STEPS = 1500


def _pick(g: Game, s: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, n: int) -> dict[str, Any]:
    plain = [a for a in legal if a["type"] != "standing"]
    if g.name == "assault-on-belgium":
        return rng.choices(plain, [_weight(g, s, a, rng, n) for a in plain])[0]  # type: ignore[arg-type]
    return vb_choose(s, plain, rng)


def _read_by(facts: list[Fact], seat: str) -> list[dict[str, Any]]:
    return [f.to_json() for f in facts if f.visible_to is None or seat in f.visible_to]


def _used(facts: list[Fact], seat: str, kind: str) -> bool:
    return any(f.kind == "standing_used" and f.data == {"kind": kind, "seat": seat} for f in facts)


def _twins(name: str, seed: int, kind: str, pair: tuple[str, str], when: list[Any]) -> tuple[int, bool]:
    """Play two games that differ only in the owner's answer to `kind`; check the other seat sees
    them alike until the answer is used. Returns (steps compared, whether it was used)."""
    scenario, _ = CASES[name]
    g = get_game(name)
    rng = random.Random(seed)
    a = g.setup(scenario, {}, seeded_dice(seed))
    b = g.setup(scenario, {}, seeded_dice(seed))
    owner: str | None = None
    for n in range(MAX_STEPS):
        if g.outcome(a) is not None:
            assert owner is not None, "no seat could record a standing answer"
            return n, False
        (seat,) = g.active_seats(a)
        assert g.active_seats(b) == [seat]
        if owner is None:
            ask = {"type": "standing", "kind": kind, "answer": pair[0], "when": when}
            if not g.is_legal(a, seat, ask):  # the VC's secret set-up takes none
                action, twin = _pick(g, a, g.legal_actions(a, seat), rng, n), None
            else:
                owner = seat
                action, twin = ask, {**ask, "answer": pair[1]}
        else:
            action, twin = _pick(g, a, g.legal_actions(a, seat), rng, n), None
        ra = g.apply(a, seat, action, seeded_dice(seed * 1000 + n))
        rb = g.apply(b, seat, twin or action, seeded_dice(seed * 1000 + n))
        if owner is not None and (_used(ra.facts, owner, kind) or _used(rb.facts, owner, kind)):
            return n, True  # used: from here the games may part
        a, b = ra.state, rb.state
        if owner is not None and g.outcome(a) is not None:  # the end reveals every standing answer
            other = next(r for r in g.roles(scenario) if r != owner)
            assert g.view(a, other)["standing"][owner][kind]["answer"] == pair[0]
            return n, False
        if owner is not None:
            other = next(r for r in g.roles(scenario) if r != owner)
            assert _read_by(ra.facts, other) == _read_by(rb.facts, other), f"step {n}: the facts differ for {other}"
            assert g.view(a, other) == g.view(b, other), f"step {n}: {other}'s views differ"
            assert g.view(a, None) == g.view(b, None), f"step {n}: the spectators' views differ"
            assert g.active_seats(a) == g.active_seats(b)
            assert g.view(a, owner) != g.view(b, owner)  # the owner does see its own answer
    return MAX_STEPS, False


def _case(name: str) -> Any:
    kinds = CASES[name][1]
    return st.tuples(st.integers(1, 10_000), st.sampled_from(sorted(k for k in kinds if len(kinds[k].answers) > 1)),
                     st.booleans())


def _run(name: str, seed: int, kind: str, conditional: bool) -> tuple[int, bool]:
    k = CASES[name][1][kind]
    pair = (k.answers[0], k.answers[1])
    field = sorted(k.fields)[0]
    when = [[field, ">=" if k.fields[field] is int else "!=", 1 if k.fields[field] is int else "9999"]] if conditional else []
    return _twins(name, seed, kind, pair, when)


@pytest.mark.parametrize("name", sorted(CASES))
@settings(max_examples=8, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.data())
def test_a_hidden_standing_answer_looks_the_same_to_the_other_seat_until_it_is_used(name: str, case: Any) -> None:
    seed, kind, conditional = case.draw(_case(name))
    steps, _ = _run(name, seed, kind, conditional)
    assert steps > 0


@pytest.mark.parametrize("name, kind", [("assault-on-belgium", "retreat"), ("assault-on-belgium", "bomber"),
                                        ("vietnam-battles", "support")])
def test_the_twins_reach_the_use_so_the_property_is_not_vacuous(name: str, kind: str) -> None:
    """The check above compares the twins up to the use: here, for decisions every game meets,
    the answer is used in some seeds (after steps compared, not at once)."""
    k = CASES[name][1][kind]
    runs = [_twins(name, seed, kind, (k.answers[0], k.answers[-1]), []) for seed in range(1, 6)]
    assert any(used and steps > 3 for steps, used in runs), runs


def test_a_malformed_standing_answer_is_refused_in_words() -> None:
    g = get_game("assault-on-belgium")
    s = g.setup("may-1940", {}, seeded_dice(1))
    for bad, words in ((("kind", "reaction"), "no decision called 'reaction'"),
                       (("answer", "flee"), "a standing answer to retreat is one of retreat, hit, ask"),
                       (("when", [["odds", ">=", 3]]), "a retreat decision has no field 'odds'"),
                       (("when", [["hits", ">=", "2"]]), "hits is compared with a number"),
                       (("when", [["hex", "<", "0917"]]), "hex is text: compare it with == or !=")):
        action = {"type": "standing", "kind": "retreat", "answer": "hit", "when": [], bad[0]: bad[1]}
        assert not g.is_legal(s, "belgium", action)
        with pytest.raises(IllegalAction, match=words):
            g.apply(s, "belgium", action, seeded_dice(1))


def test_version_1_takes_no_standing_answer() -> None:
    for name, (scenario, _) in CASES.items():
        old = get_game(name, "1")
        s = old.setup(scenario, {}, seeded_dice(1))
        (seat,) = old.active_seats(s)
        action = {"type": "standing", "kind": "retreat", "answer": "retreat", "when": []}
        assert not old.is_legal(s, seat, action)
        assert all(a["type"] != "standing" for a in old.legal_actions(s, seat))
        with pytest.raises(IllegalAction, match="unknown action type 'standing'"):
            old.apply(s, seat, action, seeded_dice(1))
