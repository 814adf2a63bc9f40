"""The Combat Results Table (VB Part IV): every printed cell, the column algorithm, vectors C1-C18."""

from __future__ import annotations

import pytest

from rules.vietnam_battles import crt


def test_iv_2_column_algorithm_reproduces_every_printed_cell() -> None:
    for row, cells in crt.ROW_CELLS.items():
        for i, diffs in enumerate(cells):
            for d in diffs:
                assert crt.column(d, row) == i + 1, (row, d)


def test_iv_1_results_grid_shape() -> None:
    assert sorted(crt.RESULTS) == [1, 2, 3, 4, 5, 6] and all(len(r) == 12 for r in crt.RESULTS.values())
    assert [crt.RESULTS[d][7] for d in range(1, 7)] == ["D2", "Ex", "Ex", "Ex", "-", "A1"]  # A1 only at C8, die 6


VECTORS = [
    ("C1", "clear", 0, 6, "Ex Ex - A2 A3 (A)"),
    ("C2", "clear", 12, 12, "De De D3 D2 D2 Ex"),
    ("C3", "hill", 10, 9, "D2 D2 Ex Ex Ex -"),
    ("C4", "hill", 15, 9, "D2 D2 Ex Ex Ex -"),
    ("C5", "jungle", 1, 5, "Ex - A2 A3 (A) (A)"),
    ("C6", "village", -4, 2, "A3 (A) (A) (A) Ae Ae"),
    ("C7", "clear", -7, 1, "(A) (A) (A) Ae Ae Ae"),
    ("C8", "hill", -5, 1, "(A) (A) (A) Ae Ae Ae"),
    ("C9", "clear", -2, 4, "- A2 A3 (A) (A) (A)"),
    ("C10", "jungle", -1, 3, "A2 A3 (A) (A) (A) Ae"),
    ("C11", "jungle", 3, 6, "Ex Ex - A2 A3 (A)"),
    ("C12", "clear", 3, 8, "D2 Ex Ex Ex - A1"),
    ("C13", "village", 3, 7, "D2 Ex Ex - A2 (A)"),
    ("C14", "hill", 3, 5, "Ex - A2 A3 (A) (A)"),
    ("C15", "jungle", 8, 9, "D2 D2 Ex Ex Ex -"),
    ("C16", "clear", 1, 7, "D2 Ex Ex - A2 (A)"),
    ("C17", "clear", -1, 5, "Ex - A2 A3 (A) (A)"),
    ("C18", "jungle", -5, 1, "(A) (A) (A) Ae Ae Ae"),
]


@pytest.mark.parametrize("vid,row,d,col,results", VECTORS, ids=[v[0] for v in VECTORS])
def test_vi_2_crt_vectors(vid: str, row: str, d: int, col: int, results: str) -> None:
    assert crt.column(d, row) == col
    assert [crt.result(d, row, die) for die in range(1, 7)] == results.split()


def test_t11_crt_note_above_ten_reads_the_ten_column() -> None:
    assert [crt.column(14, r) for r in ("clear", "village", "jungle", "hill")] == [12, 11, 10, 9]


def test_iv_3_hill_can_never_give_de_or_d3() -> None:
    assert not {crt.result(d, "hill", die) for d in range(-10, 20) for die in range(1, 7)} & {"De", "D3"}


def test_t24_13_0_zero_strength_monitor_with_plus3_vs_defense5_reads_c4() -> None:
    assert crt.column(0 + 3 - 5, "clear") == 4
