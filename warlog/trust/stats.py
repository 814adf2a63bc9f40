"""Dice fairness statistics for the audit page: Pearson's chi-square test of a die's faces.

The p-value is the chi-square survival function, which is the regularized upper incomplete
gamma function Q(k/2, x/2). It is computed here (series for small x, Lentz's continued
fraction otherwise; Numerical Recipes §6.2) rather than pulling in scipy for one function.
These numbers are informative only: nothing in a game's outcome depends on a float.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

_EPS = 1e-15
_TINY = 1e-300
_MAX_ITER = 10_000


def gammainc_upper(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), for a > 0 and x >= 0."""
    if a <= 0 or x < 0:
        raise ValueError("Q(a, x) needs a > 0 and x >= 0")
    if x == 0:
        return 1.0
    if x < a + 1:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def _prefactor(a: float, x: float) -> float:
    return math.exp(-x + a * math.log(x) - math.lgamma(a))


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its power series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(_MAX_ITER):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * _prefactor(a, x)


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction, modified Lentz (converges fast for x >= a + 1)."""
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return min(1.0, _prefactor(a, x) * h)


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X ~ chi-square with `dof` degrees of freedom."""
    if dof < 1:
        raise ValueError("a chi-square distribution has at least one degree of freedom")
    return gammainc_upper(dof / 2, x / 2)


@dataclass(frozen=True)
class FaceTest:
    """Pearson's test that a die with `faces` faces is fair, from the count of each face."""

    faces: int
    counts: tuple[int, ...]  # counts[i] = how often face i + 1 came up

    @property
    def n(self) -> int:
        return sum(self.counts)

    @property
    def expected(self) -> float:
        return self.n / self.faces

    @property
    def statistic(self) -> float:
        e = self.expected
        return sum((c - e) ** 2 / e for c in self.counts) if e else 0.0

    @property
    def dof(self) -> int:
        return self.faces - 1

    @property
    def p_value(self) -> float | None:
        return chi2_sf(self.statistic, self.dof) if self.n else None

    @property
    def reliable(self) -> bool:
        """The usual rule of thumb: every expected count at least 5."""
        return self.expected >= 5


def face_test(values: list[int], faces: int) -> FaceTest:
    counts = [0] * faces
    for v in values:
        if not 1 <= v <= faces:
            raise ValueError(f"a d{faces} cannot show {v}")
        counts[v - 1] += 1
    return FaceTest(faces, tuple(counts))
