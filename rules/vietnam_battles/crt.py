"""The Combat Results Table (VB Part IV), transcribed once as data, and its column algorithm.

Reading A-1 (left-aligned rows): every terrain class shifts the Clear column left by 0/1/2/3;
differentials above +10 read the +10 cell, below a row's first printed value the leftmost
column C1. `ROW_CELLS` is the table as printed (each row's differential cells from C1), and
`column()` is checked against it cell by cell in tests/vietnam_battles/test_crt.py.
"""

from __future__ import annotations

# Row name -> column shift (IV.3 step 2).
SHIFT = {"clear": 0, "village": 1, "jungle": 2, "hill": 3}
ROW_TITLE = {"clear": "Clear, Bridge, (Tunnel), (vs. River Flotilla)", "village": "Village, River, Plantation",
             "jungle": "Jungle, Swamp", "hill": "Hill, Town, CP"}

# As printed: each row's differential cells, from C1 rightwards (IV.1).
ROW_CELLS: dict[str, tuple[tuple[int, ...], ...]] = {
    "hill": ((-2,), (-1,), (0,), (1,), (2, 3), (4, 5), (6, 7), (8, 9), (10,)),
    "jungle": ((-3,), (-2,), (-1,), (0,), (1,), (2, 3), (4, 5), (6, 7), (8, 9), (10,)),
    "village": ((-5,), (-4, -3), (-2,), (-1,), (0,), (1,), (2, 3), (4, 5), (6, 7), (8, 9), (10,)),
    "clear": ((-7,), (-6, -5), (-4, -3), (-2,), (-1,), (0,), (1,), (2, 3), (4, 5), (6, 7), (8, 9), (10,)),
}

# Die roll -> results in C1..C12 (IV.1).
RESULTS: dict[int, tuple[str, ...]] = {
    1: ("(A)", "A3", "A2", "-", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"),
    2: ("(A)", "(A)", "A3", "A2", "-", "Ex", "Ex", "Ex", "D2", "D2", "D3", "De"),
    3: ("(A)", "(A)", "(A)", "A3", "A2", "-", "Ex", "Ex", "Ex", "D2", "D2", "D3"),
    4: ("Ae", "(A)", "(A)", "(A)", "A3", "A2", "-", "Ex", "Ex", "Ex", "D2", "D2"),
    5: ("Ae", "Ae", "(A)", "(A)", "(A)", "A3", "A2", "-", "Ex", "Ex", "Ex", "D2"),
    6: ("Ae", "Ae", "Ae", "(A)", "(A)", "(A)", "(A)", "A1", "-", "Ex", "Ex", "Ex"),
}

RESULT_TEXT = {
    "De": "the defending unit is eliminated", "D3": "the defender retreats 3 hexes (or holds: a step loss)",
    "D2": "the defender retreats 2 hexes (or holds: a step loss)",
    "Ex": "one attacking unit and the defender each lose a step",
    "A1": "all attackers retreat 1 hex (or one loses a step)", "A2": "all attackers retreat 2 hexes (or one loses a step)",
    "A3": "all attackers retreat 3 hexes (or one loses a step)", "(A)": "one attacking unit loses a step",
    "Ae": "all attacking units are eliminated", "-": "no effect",
}


def clear_column(d: int) -> int:
    """IV.3 step 3: the Clear row's column (1..12) for differential d, capped at +10 and clamped at -7."""
    if d <= -7:
        return 1
    if d >= 10:
        return 12
    for i, cell in enumerate(ROW_CELLS["clear"]):
        if d in cell:
            return i + 1
    raise AssertionError(d)


def column(d: int, row: str) -> int:
    """IV.3 step 4: column = max(1, clearCol(d) - shift)."""
    return max(1, clear_column(d) - SHIFT[row])


def result(d: int, row: str, die: int) -> str:
    return RESULTS[die][column(d, row) - 1]


def column_label(c: int) -> str:
    return f"C{c}"
