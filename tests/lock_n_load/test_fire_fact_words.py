"""A fire's facts show every modifier they apply (LnL 5.0, 5.3, T5). The DFT's attacker modifiers
include 「目標が移動が襲撃移動マーカー付きの非車両ユニット(匍匐除く)。 dr に+1」 and the defender's
die takes the target's terrain modifier (tests/lock_n_load/fixtures/tables_ja.txt): from rules version 3
the damage check's fact names the moving +1 and the TM, so its attack follows from the fire's
"die + FP = total" fact (before, "die 3 + FP 2 (5.2, T10) = 5" was followed by "attack 6")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.core.dice import fixed_dice
from rules.lock_n_load.fire import resolve
from tests.lock_n_load.helpers import blank_state, texts, tiny

TABLES = (Path(__file__).parent / "fixtures" / "tables_ja.txt").read_text(encoding="utf-8")


def _opportunity_fire(version: str) -> list[str]:
    w = tiny(["o"] * 8)
    s = blank_state(w, {"vc1": ("vc", "vc-sq-143", "9A1"), "usm": ("us", "us-sq-264", "9A3"),
                        "uss": ("us", "us-sq-264", "9A3")}, version=version)
    facts: list = []
    resolve(s, w, ["vc1"], "9A3", fixed_dice([3, 5, 1, 1]), facts, opportunity=True, movers=["usm"])
    return texts(facts)


def test_the_dft_gives_plus_1_against_a_moving_target():
    assert "目標が移動が襲撃移動マーカー付きの非車両ユニット(匍匐除く)。\tdr に+1" in TABLES
    assert "目標地形あたり\t+/- 地形修正" in TABLES


def test_every_modifier_of_an_opportunity_fire_at_a_mover_appears_in_its_facts():
    t = _opportunity_fire("3")
    total = re.search(r"die (\d+) \+ FP (-?\d+) \(5\.2, T10\) = (\d+)", t[0])
    assert total and int(total[1]) + int(total[2]) == int(total[3])
    base = int(total[3])
    mover = next(x for x in t if "usm:" in x)
    m = re.search(r"attack (\d+) \+ moving \+1 \(5\.3, T5\) = (\d+) vs defence (\d+) \(die (\d+) \+ TM ([+-]\d+)\)", mover)
    assert m, mover
    assert int(m[1]) == base and int(m[2]) == base + 1 and int(m[3]) == int(m[4]) + int(m[5])
    still = next(x for x in t if "uss:" in x)
    assert f"attack {base} vs defence" in still and "moving" not in still


@pytest.mark.parametrize("version", ["1", "2"])
def test_versions_1_and_2_keep_their_recorded_words(version):
    t = _opportunity_fire(version)
    mover = next(x for x in t if "usm:" in x)
    assert re.search(r"usm: attack \d+ vs defence \d+", mover) and "moving" not in mover


def test_a_damage_checks_fact_shows_the_moving_plus_1_too():
    w = tiny(["o"] * 8)
    s = blank_state(w, {"vc1": ("vc", "vc-sq-143", "9A1"), "usm": ("us", "us-sq-264", "9A3")}, version="3")
    facts: list = []
    resolve(s, w, ["vc1"], "9A3", fixed_dice([6, 1, 1, 1, 1, 1]), facts, opportunity=True, movers=["usm"])
    hit = next(x for x in texts(facts) if "usm:" in x)
    assert "attack 7 + moving +1 (5.3, T5) = 8 vs defence 1 (die 1 + TM +0); damage check 1 + 7" in hit, hit
