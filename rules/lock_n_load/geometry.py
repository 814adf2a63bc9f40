"""Hex geometry of the Lock 'n Load boards, in integer cube coordinates (Red Blob Games).

Hex ids are the rulebook's: board number, column letter, row number ("1F5", LnL 1.4). Columns
A, B, C, ... stand side by side as flat-topped hexes; the columns A, C, E, ... (the odd letters)
sit half a hex lower than B, D, F, ... — the layout under which the rulebook's examples of 10.1
and 10.3 read as printed (1B4 -> 1D4 runs along the 1C3/1C4 hexside; 1L5 -> 1M3 along 1L4/1M4).

`line_pair` is the one straight-line routine: the cube line between two hex centres sampled at
every hex step, computed twice with a small nudge one way and the other (Red Blob's "nudge" made
exact: everything is an integer multiple of 1/(n*SCALE)). Where the two agree the line passes
through that hex; where they differ it runs along the hexside (or through the corner) between
the two. A constant nudge translates both end points alike, so a -> b and b -> a sample the same
points: the hexes met are the same in both directions (reciprocity, LnL 10.0).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

Cube = tuple[int, int, int]

# Cube directions, clockwise from north (flat-top hexes): N, NE, SE, S, SW, NW.
DIRECTIONS: tuple[Cube, ...] = ((0, -1, 1), (1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1))
# The nudge (q, r, s), summing to zero and parallel to no hex line or hexside direction, so that
# every tie (a sample point on a hexside or corner) is broken, one way with +, the other with -.
NUDGE: Cube = (1, 2, -3)
SCALE = 1_000_000


@dataclass(frozen=True)
class Board:
    """A rectangle of hexes: `board` number, columns "A".. (`cols` of them), rows 1..`rows`."""

    board: str
    cols: int
    rows: int

    # -- ids --------------------------------------------------------------------------
    def hex_id(self, col: int, row: int) -> str:
        return f"{self.board}{chr(ord('A') + col)}{row}"

    def parse(self, hex_id: str) -> tuple[int, int]:
        """"1F5" -> (5, 5): 0-based column, 1-based row. ValueError if malformed or off board."""
        b = self.board
        if not isinstance(hex_id, str) or not hex_id.startswith(b) or len(hex_id) < len(b) + 2:
            raise ValueError(f"{hex_id!r} is not a hex of board {b} (like {b}F5)")
        letter, digits = hex_id[len(b)], hex_id[len(b) + 1:]
        if not ("A" <= letter <= "Z") or not digits.isdigit() or digits.startswith("0"):
            raise ValueError(f"{hex_id!r} is not a hex id like {b}F5")
        col, row = ord(letter) - ord("A"), int(digits)
        if not (0 <= col < self.cols and 1 <= row <= self.rows):
            raise ValueError(f"hex {hex_id} is off board {b}")
        return col, row

    def is_hex(self, hex_id: object) -> bool:
        try:
            self.parse(hex_id)  # type: ignore[arg-type]
        except ValueError:
            return False
        return True

    def hexes(self) -> list[str]:
        return list(self._hexes())

    @cache  # noqa: B019  (one board per loaded world)
    def _hexes(self) -> tuple[str, ...]:
        return tuple(self.hex_id(c, r) for c in range(self.cols) for r in range(1, self.rows + 1))

    # -- cube coordinates -----------------------------------------------------------
    @lru_cache(maxsize=4096)  # noqa: B019  (bounded; one board per loaded world)
    def cube(self, hex_id: str) -> Cube:
        """Columns with an even 0-based index (A, C, ...) are shoved half a hex down."""
        col, row = self.parse(hex_id)
        q = col
        r = row - (col + (col & 1)) // 2
        return q, r, -q - r

    def from_cube(self, c: Cube) -> str | None:
        q, r = c[0], c[1]
        col, row = q, r + (q + (q & 1)) // 2
        if not (0 <= col < self.cols and 1 <= row <= self.rows):
            return None
        return self.hex_id(col, row)

    def centre2(self, hex_id: str) -> tuple[int, int]:
        """The hex centre in half-units: x = 3*col, y = 2*row + 1 for the lower (A, C, ...) columns."""
        col, row = self.parse(hex_id)
        return 3 * col, 2 * row + (1 if col % 2 == 0 else 0)

    def neighbour(self, hex_id: str, direction: int) -> str | None:
        q, r, s = self.cube(hex_id)
        dq, dr, ds = DIRECTIONS[direction % 6]
        return self.from_cube((q + dq, r + dr, s + ds))

    def neighbours(self, hex_id: str) -> list[str]:
        return list(self._neighbours(hex_id))

    @lru_cache(maxsize=4096)  # noqa: B019  (bounded; one board per loaded world)
    def _neighbours(self, hex_id: str) -> tuple[str, ...]:
        return tuple(n for d in range(6) if (n := self.neighbour(hex_id, d)) is not None)

    def adjacent(self, a: str, b: str) -> bool:
        return self.distance(a, b) == 1

    @lru_cache(maxsize=65536)  # noqa: B019  (bounded; one board per loaded world)
    def distance(self, a: str, b: str) -> int:
        return cube_distance(self.cube(a), self.cube(b))

    def line_pair(self, a: str, b: str) -> list[tuple[str | None, str | None]]:
        """For each of the n+1 steps from a to b: (hex with the + nudge, hex with the - nudge)."""
        ca, cb = self.cube(a), self.cube(b)
        return [(self.from_cube(p), self.from_cube(m)) for p, m in cube_line_pair(ca, cb)]


def cube_distance(a: Cube, b: Cube) -> int:
    return (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])) // 2


def cube_line_pair(a: Cube, b: Cube) -> list[tuple[Cube, Cube]]:
    """The hexes on the line a-b at each step, nudged + and - (exact integer arithmetic)."""
    n = cube_distance(a, b)
    if n == 0:
        return [(a, a)]
    den = n * SCALE
    out: list[tuple[Cube, Cube]] = []
    for i in range(n + 1):
        # point = a + (b - a) * i / n, scaled by den; the nudge is one unit of 1/den.
        base = tuple(a[k] * den + (b[k] - a[k]) * i * SCALE for k in range(3))
        plus = _cube_round(tuple(base[k] + NUDGE[k] for k in range(3)), den)  # type: ignore[arg-type]
        minus = _cube_round(tuple(base[k] - NUDGE[k] for k in range(3)), den)  # type: ignore[arg-type]
        out.append((plus, minus))
    return out


def _round_div(num: int, den: int) -> int:
    return (2 * num + den) // (2 * den)


def _cube_round(x: tuple[int, int, int], den: int) -> Cube:
    rq, rr, rs = (_round_div(v, den) for v in x)
    dq, dr, ds = abs(rq * den - x[0]), abs(rr * den - x[1]), abs(rs * den - x[2])
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return rq, rr, rs


def hexside(a: str, b: str) -> str:
    """A stable id for the hexside between two adjacent hexes: the two ids sorted, joined by '/'."""
    return "/".join(sorted((a, b)))
