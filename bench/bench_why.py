"""For bench/bench.py: when a figure misses its goal, by how much (a ratio) and why (a profile).

Each profile re-runs a small, representative share of that figure's work in this process under
cProfile and prints the top 8 functions by cumulative time. Where the figure's own data is gone
by the time the table is printed (the audit page, state at a step), the figure captures its
profile on the spot into PROFILES; the rest are produced lazily, only for rows that miss.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = str(Path(__file__).resolve().parents[1]) + "/"

PROFILES: dict[str, str] = {}  # figure key -> profile text captured while its data existed


def profile_text(fn: Callable[[], Any], top: int = 8) -> str:
    """Run `fn` under cProfile; the top `top` functions by cumulative time, as pstats prints them."""
    prof = cProfile.Profile()
    prof.enable()
    try:
        fn()
    finally:
        prof.disable()
    return _text(prof, top)


def profile_of(fn: Callable[[cProfile.Profile], Any], top: int = 20) -> str:
    """Like `profile_text`, for work that enables and disables the profile it is given around its
    measured share alone."""
    prof = cProfile.Profile()
    fn(prof)
    return _text(prof, top)


def _text(prof: cProfile.Profile, top: int) -> str:
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    lines = [ln for ln in out.getvalue().splitlines() if ln.strip()]
    keep = [ln for ln in lines if "function calls" in ln or "ncalls" in ln or ln.startswith(" ") and "/" in ln
            or ln.strip()[:1].isdigit()]
    short = [re.sub(r"\S*/(site-packages|lib/python3\.\d+)/", "", ln.replace(ROOT, "")) for ln in keep]
    return "\n".join("      " + ln.strip()[:150] for ln in short)


def capture(key: str, fn: Callable[[], Any]) -> None:
    """Profile `fn` now and keep the text for `key`'s row, should it miss."""
    try:
        PROFILES[key] = profile_text(fn)
    except Exception as exc:  # a profile is commentary; its failure must not end the run
        PROFILES[key] = f"      (profile failed: {exc!r})"


def miss_text(now: float, goal: float, higher_is_better: bool) -> str | None:
    """None when `now` meets `goal`; else how far it is, as a ratio of now to goal and a factor."""
    if higher_is_better:
        if now >= goal:
            return None
        return f"{now:,.4g} vs >= {goal:,.4g}: {now / goal:.3f}x of the goal ({goal / now:.1f}x short)" if now else \
            f"0 vs >= {goal:,.4g}"
    if now <= goal:
        return None
    return f"{now:,.4g} vs <= {goal:,.4g}: {now / goal:.2f}x the goal ({now / goal:.1f}x too slow)"


def met_text(now: float, goal: float, higher_is_better: bool) -> str:
    """How far a met goal is met: now beside the goal, and the margin as a factor."""
    if higher_is_better:
        return f"{now:,.4g} vs >= {goal:,.4g}: {now / goal:.2f}x the goal"
    return f"{now:,.4g} vs <= {goal:,.4g}: {goal / now:.1f}x under it" if now else f"0 vs <= {goal:,.4g}"


def report_misses(rows: list[tuple[str, float | None, float, bool, str, Callable[[], str] | None]]) -> None:
    """rows: (name, now, goal, higher is better, what the profile shows, lazy profiler or None to use
    PROFILES[name]). Prints each miss with its ratio and profile."""
    misses = [(r, miss_text(r[1], r[2], r[3])) for r in rows if r[1] is not None]
    misses = [(r, m) for r, m in misses if m is not None]
    met = [r for r in rows if r[1] is not None and miss_text(r[1], r[2], r[3]) is None]
    print(f"\nGoals met: {len(met)}")
    for name, now, goal, higher, _what, _lazy in met:
        assert now is not None
        print(f"  MET {name}: {met_text(now, goal, higher)}")
    print(f"Goals missed: {len(misses)} (each: by how much, and a cProfile of that figure's work, top 8 by "
          "cumulative time)")
    for (name, _now, _goal, _hib, what, lazy), text in misses:
        print(f"\n  MISS {name}: {text}")
        print(f"    profile: {what}")
        if lazy is not None:
            try:
                body = lazy()
            except Exception as exc:
                body = f"      (profile failed: {exc!r})"
        else:
            body = PROFILES.get(name, "      (no profile captured)")
        print(body, flush=True)
