"""Result tables transcribed once, as data, and read the same way everywhere.

A `ColumnTable` is the common wargame layout: columns keyed by an integer (a differential,
a strength), the end columns open-ended ("<" and ">"), rows keyed by a die result.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ColumnTable:
    name: str
    columns: tuple[int, ...]  # ascending; the first and last may stand for "or less"/"or more"
    rows: dict[int, tuple[str, ...]]  # die result -> one cell per column
    open_low: bool = True
    open_high: bool = True

    def __post_init__(self) -> None:
        for die, cells in self.rows.items():
            if len(cells) != len(self.columns):
                raise ValueError(f"{self.name}: row {die} has {len(cells)} cells for {len(self.columns)} columns")
        if list(self.columns) != sorted(self.columns):
            raise ValueError(f"{self.name}: columns must ascend")

    def column_for(self, value: int) -> int:
        """The column a value reads on: clamped to the open-ended end columns."""
        lo, hi = self.columns[0], self.columns[-1]
        if value < lo:
            if not self.open_low:
                raise ValueError(f"{self.name}: {value} is below the table")
            return lo
        if value > hi:
            if not self.open_high:
                raise ValueError(f"{self.name}: {value} is above the table")
            return hi
        if value not in self.columns:
            raise ValueError(f"{self.name}: no column {value}")
        return value

    def lookup(self, value: int, die: int) -> str:
        col = self.column_for(value)
        if die not in self.rows:
            raise ValueError(f"{self.name}: no row for die {die}")
        return self.rows[die][self.columns.index(col)]

    def column_label(self, value: int) -> str:
        col = self.column_for(value)
        if col == self.columns[0] and self.open_low:
            return f"≤{col:+d}"
        if col == self.columns[-1] and self.open_high:
            return f"≥{col:+d}"
        return f"{col:+d}"


def parse_csv_table(name: str, text: str, columns: tuple[int, ...], **kw: bool) -> ColumnTable:
    """Build a table from the digests' CSV blocks (first line a header, first cell the die)."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    rows: dict[int, tuple[str, ...]] = {}
    for line in lines[1:]:
        cells = [c.strip() for c in line.split(",")]
        rows[int(cells[0])] = tuple(cells[1:])
    return ColumnTable(name, columns, rows, **kw)
