"""AoB 19: the tables transcribed cell by cell against the digest's CSV blocks, and the
table-lookup vectors of AoB 22 (TV-LCT1..5, TV-ACRT1, TV-AA2)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.assault_on_belgium.tables import (
    AA,
    ACRT,
    LCT,
    TERRAIN,
    aa_result,
    air_result,
    land_result,
    parse_land_result,
)

# The digest's tables and the seed's own text of them, quoted into the repository
# (tools/rulebook_fixtures.py) so the tests pass on a clone with nothing beside it.
DIGEST = Path(__file__).resolve().parents[1] / "fixtures" / "rulebooks" / "assault-on-belgium.tables.md"


def csv_blocks() -> dict[str, list[list[str]]]:
    text = DIGEST.read_text(encoding="utf-8")
    blocks = re.findall(r"```csv\n(.*?)```", text, re.S)
    out = {}
    for block in blocks:
        rows = [line.split(",") for line in block.strip().splitlines()]
        out[rows[0][1]] = rows  # keyed by the first column label: le-6, le-7, str1
    return out


@pytest.fixture(scope="module")
def blocks() -> dict[str, list[list[str]]]:
    if not DIGEST.exists():
        pytest.fail(f"the rulebook excerpt {DIGEST} is missing")
    return csv_blocks()


def _col(label: str) -> int:
    return int(label.replace("le", "").replace("ge", "").replace("str", ""))


def test_lct_every_cell_matches_digest(blocks):
    rows = blocks["le-6"]
    header = rows[0][1:]
    assert [_col(h) for h in header] == list(LCT.columns)
    for row in rows[1:]:
        die = int(row[0])
        for label, cell in zip(header, row[1:]):
            assert LCT.lookup(_col(label), die) == cell, (die, label)
    assert sorted(LCT.rows) == [1, 2, 3, 4, 5, 6]


def test_acrt_every_cell_matches_digest(blocks):
    rows = blocks["le-7"]
    header = rows[0][1:]
    assert [_col(h) for h in header] == list(ACRT.columns)
    for row in rows[1:]:
        for label, cell in zip(header, row[1:]):
            assert ACRT.lookup(_col(label), int(row[0])) == cell
    assert sorted(ACRT.rows) == list(range(2, 13))


def test_aa_every_cell_matches_digest(blocks):
    rows = blocks["str1"]
    header = rows[0][1:]
    for row in rows[1:]:
        for label, cell in zip(header, row[1:]):
            assert AA.lookup(_col(label), int(row[0])) == cell
    assert sorted(AA.rows) == [1, 2, 3, 4, 5, 6]


def seed_tables() -> str:
    text = DIGEST.read_text(encoding="utf-8")
    return re.search(r"```seed\n(.*?)\n```", text, re.S).group(1)


def test_air_and_aa_rows_as_the_seed_prints_them():
    """The seed wins: every ACRT row (2D6 2..12) and AA row (die 1..6) reads, cell for cell, as
    the seed prints it; the LCT's rows 1..5 too (its row 6 is split by the seed's extraction:
    TV-LCT5 reconstructs it)."""
    seed = seed_tables()
    acrt = seed[seed.index("空戦結果表"):seed.index("対空表")]
    for roll in range(2, 13):
        assert f" {roll} " + " ".join(ACRT.rows[roll]) + " " in acrt + " ", roll
    aa = seed[seed.index("対空表"):] + " "
    for die in range(1, 7):
        assert f" {die} " + " ".join(AA.rows[die]) + " " in aa, die
    lct = seed[:seed.index("空戦結果表")]
    for die in range(1, 6):
        assert f" {die} " + " ".join(LCT.rows[die]) + " " in lct, die


def test_tv_lct1_differential_minus9_die1():
    assert LCT.lookup(-9, 1) == "R4-0"


def test_tv_lct2_differential_plus10_die6():
    assert LCT.lookup(10, 6) == "0-4R"


def test_tv_lct3_differential_0_die3():
    r = land_result(0, 3)
    assert (r.cell, r.attacker_retreat, r.attacker_hits, r.defender_hits, r.defender_retreat) == ("R1-0", True, 1, 0, False)


def test_tv_lct4_differential_minus5_die5():
    assert LCT.lookup(-5, 5) == "R2-1"


def test_tv_lct5_row6_reconstruction():
    assert [LCT.lookup(d, 6) for d in (-6, -5, -4)] == ["R1-0", "R1-0", "1-0"]


def test_tv_acrt1():
    assert air_result(-8, 2) == "A"
    assert air_result(7, 9) == "D"
    assert {air_result(d, 12) for d in range(-10, 11)} == {"-"}


def test_tv_aa2():
    assert AA.lookup(5, 6) == "4D" and AA.lookup(1, 5) == "-" and AA.lookup(2, 6) == "2"
    r = aa_result(5, 6)
    assert (r.loss, r.removed) == (4, True)
    assert aa_result(1, 5).loss == 0
    assert (aa_result(2, 6).loss, aa_result(2, 6).removed) == (2, False)
    assert aa_result(9, 6) == aa_result(5, 6)  # STR above 5 reads STR 5 (our reading, AoB 23.9)


def test_lct_r_position_aob_24_1():
    r = parse_land_result("0-3R")
    assert (r.attacker_retreat, r.attacker_hits, r.defender_hits, r.defender_retreat) == (False, 0, 3, True)
    r = parse_land_result("R2-1")
    assert (r.attacker_retreat, r.attacker_hits, r.defender_hits, r.defender_retreat) == (True, 2, 1, False)


def test_every_lct_cell_inflicts_a_hit():
    """So every land round makes progress and battles end (AoB 11.9)."""
    for _die, cells in LCT.rows.items():
        for cell in cells:
            r = parse_land_result(cell)
            assert r.attacker_hits + r.defender_hits >= 1


def test_terrain_chart_aob_19_1():
    assert TERRAIN["sea"].enterable is False
    assert (TERRAIN["forest"].move_cost, TERRAIN["forest"].tank_modifier, TERRAIN["forest"].other_defender_modifier,
            TERRAIN["forest"].bombing_modifier) == (2, -1, 1, -1)
    assert (TERRAIN["rough"].move_cost, TERRAIN["rough"].defender_modifier, TERRAIN["rough"].bombing_modifier) == (2, 1, -1)
    assert (TERRAIN["small_city"].move_cost, TERRAIN["small_city"].defender_modifier) == (None, 1)
    hc = TERRAIN["hex_city"]
    assert (hc.move_cost, hc.tank_modifier, hc.other_defender_modifier, hc.ignores_retreat) == (1, -2, 2, True)
    f = TERRAIN["fortress"]
    assert (f.move_cost, f.tank_modifier, f.other_defender_modifier, f.ignores_retreat, f.bombing_halved) == (
        None, -2, 2, True, True)
    assert TERRAIN["clear"].move_cost == 1
