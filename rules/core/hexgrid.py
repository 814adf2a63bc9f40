"""Hex geometry for flat-topped hex maps numbered by column and row (`0917` = column 09, row 17).

Offset labels exist only at the edges (parsing and display); every algorithm works in
axial/cube coordinates with integer arithmetic (Red Blob Games, "Hexagonal Grids").
Directions are numbered clockwise from the north hexside: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

Axial = tuple[int, int]

# Flat-top axial direction vectors, clockwise from north.
DIRECTIONS: tuple[Axial, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTION_NAMES = ("N", "NE", "SE", "S", "SW", "NW")


@dataclass(frozen=True)
class HexGrid:
    """A rectangle of hexes.

    `shifted` says which printed columns sit half a hex lower: "even" (columns 02, 04, ...
    are shoved down, the usual wargame layout) or "odd".
    """

    first_col: int
    first_row: int
    cols: int
    rows: int
    shifted: str = "even"
    digits: int = 2

    def __post_init__(self) -> None:
        if self.shifted not in ("even", "odd"):
            raise ValueError("shifted must be 'even' or 'odd'")
        # the geometry of a label never changes, so each is worked out once per grid
        object.__setattr__(self, "_axial", {})
        object.__setattr__(self, "_nbrs", {})

    # -- labels ------------------------------------------------------------------------
    def label(self, col: int, row: int) -> str:
        return f"{col:0{self.digits}d}{row:0{self.digits}d}"

    def parse(self, label: str) -> tuple[int, int]:
        """`"0917"` -> (9, 17). Raises ValueError for a malformed or off-map label."""
        if not isinstance(label, str) or len(label) != 2 * self.digits or not label.isdigit():
            raise ValueError(f"{label!r} is not a hex number of {2 * self.digits} digits")
        col, row = int(label[: self.digits]), int(label[self.digits :])
        if not self.contains_offset(col, row):
            raise ValueError(f"hex {label} is off the map")
        return col, row

    def contains_offset(self, col: int, row: int) -> bool:
        return (
            self.first_col <= col < self.first_col + self.cols
            and self.first_row <= row < self.first_row + self.rows
        )

    def is_hex(self, label: str) -> bool:
        try:
            self.parse(label)
        except ValueError:
            return False
        return True

    def labels(self) -> Iterator[str]:
        for col in range(self.first_col, self.first_col + self.cols):
            for row in range(self.first_row, self.first_row + self.rows):
                yield self.label(col, row)

    # -- offset <-> axial ------------------------------------------------------------
    def _row_offset(self, col: int) -> int:
        """Red Blob's even-q / odd-q conversion term for printed column `col`."""
        if self.shifted == "even":
            return (col + (col & 1)) // 2
        return (col - (col & 1)) // 2

    def to_axial(self, label: str) -> Axial:
        cache: dict[str, Axial] = self.__dict__["_axial"]
        try:
            return cache[label]
        except (KeyError, TypeError):  # not seen yet, or not even a string (parse says so)
            pass
        col, row = self.parse(label)
        got = cache[label] = (col, row - self._row_offset(col))
        return got

    def from_axial(self, q: int, r: int) -> str | None:
        col = q
        row = r + self._row_offset(col)
        if not self.contains_offset(col, row):
            return None
        return self.label(col, row)

    # -- neighbours, distance -------------------------------------------------------
    def neighbour(self, label: str, direction: int) -> str | None:
        """The hex across hexside `direction` (0 = N, clockwise), or None off the map."""
        q, r = self.to_axial(label)
        dq, dr = DIRECTIONS[direction % 6]
        return self.from_axial(q + dq, r + dr)

    def neighbours(self, label: str) -> list[str]:
        """On-map neighbours, clockwise from north."""
        cache: dict[str, tuple[str, ...]] = self.__dict__["_nbrs"]
        got = cache.get(label) if isinstance(label, str) else None
        if got is None:
            got = tuple(n for n in (self.neighbour(label, d) for d in range(6)) if n is not None)
            cache[label] = got
        return list(got)

    def direction_to(self, a: str, b: str) -> int | None:
        """The direction from `a` to an adjacent hex `b`, or None if not adjacent."""
        for d in range(6):
            if self.neighbour(a, d) == b:
                return d
        return None

    def distance(self, a: str, b: str) -> int:
        return axial_distance(self.to_axial(a), self.to_axial(b))

    def ring(self, center: str, radius: int) -> list[str]:
        """Hexes exactly `radius` away, clockwise starting north of center; off-map ones dropped."""
        if radius == 0:
            return [center]
        q, r = self.to_axial(center)
        dq, dr = DIRECTIONS[0]
        q, r = q + dq * radius, r + dr * radius
        out: list[str] = []
        for side in range(6):
            # Walk clockwise: from the north corner go south-east first.
            dq, dr = DIRECTIONS[(side + 2) % 6]
            for _ in range(radius):
                lab = self.from_axial(q, r)
                if lab is not None:
                    out.append(lab)
                q, r = q + dq, r + dr
        return out

    def within(self, center: str, radius: int) -> list[str]:
        out: list[str] = []
        for k in range(radius + 1):
            out.extend(self.ring(center, k))
        return out

    def line(self, a: str, b: str) -> list[str | None]:
        """Hexes on the straight line from a to b inclusive (None where it leaves the map).

        Cube interpolation in exact rational arithmetic with the usual small nudge toward
        one side, so a line along a hexside resolves the same way every time.
        """
        qa, ra = self.to_axial(a)
        qb, rb = self.to_axial(b)
        n = axial_distance((qa, ra), (qb, rb))
        if n == 0:
            return [a]
        out: list[str | None] = []
        # Work in units of 1/(n * 1_000_000) to keep everything integral; nudge = +1e-6 style.
        scale = 1_000_000
        ax, az = qa * scale * n + 1, ra * scale * n + 2
        bx, bz = qb * scale * n + 1, rb * scale * n + 2
        ay, by = -ax - az, -bx - bz
        for i in range(n + 1):
            x = ax * (n - i) + bx * i
            y = ay * (n - i) + by * i
            z = az * (n - i) + bz * i
            denom = n * n * scale
            q, r = _cube_round(x, y, z, denom)
            out.append(self.from_axial(q, r))
        return out


def axial_distance(a: Axial, b: Axial) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _round_div(num: int, den: int) -> int:
    """num/den rounded to nearest (den > 0); exact ties cannot occur thanks to the nudge."""
    return (2 * num + den) // (2 * den)


def _cube_round(x: int, y: int, z: int, den: int) -> Axial:
    rx, ry, rz = _round_div(x, den), _round_div(y, den), _round_div(z, den)
    dx, dy, dz = abs(rx * den - x), abs(ry * den - y), abs(rz * den - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, rz


def hexside(a: str, b: str) -> str:
    """A stable id for the hexside between two adjacent hexes: the two labels sorted, joined by '/'."""
    return "/".join(sorted((a, b)))
