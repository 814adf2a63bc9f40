"""Support fire markers: allotment, random draw, commitment (VB 3.0, 8.0-8.6, 14.0-14.2).

Each side's markers are ids ("us-1", ...) whose values come from the pool data. At the start of
a game turn each side draws its GTRT allotment at random (VB 14.1) — the whole pool when the
allotment reaches its size. Committed markers are spent for the game turn (VB 8.3); at the end of
the game turn every marker returns to the pool (VB 8.6, reading A-2: no carry-over).
"""

from __future__ import annotations

from typing import Any

from rules.core.chits import draw_many
from rules.core.dice import DiceSource
from rules.core.game import Fact
from rules.vietnam_battles.data import World

State = dict[str, Any]


def marker_ids(w: World, side: str) -> list[str]:
    return [f"{side}-{i + 1}" for i in range(len(w.pools.get(side, [])))]


def value(w: World, marker: str) -> int:
    side, n = marker.rsplit("-", 1)
    return w.pools[side][int(n) - 1]


def allotment(s: State, w: World, side: str) -> int:
    """VB 3.0/8.0: the GTRT number for this turn (first number US, second VC); turns past the track
    use its last entry (VB 24.0: 10/5 after turn 13); the VC number falls by one per captured camp
    or cache from the next turn on (VB 14.0, 16.0)."""
    track = w.gtrt.get(s["scenario"]) or []
    if not track:
        return 0
    row = track[min(s["turn"], len(track)) - 1]
    n = row[0] if side == "us" else row[1]
    if side == "vc":
        n -= sum(1 for t in s.get("captures", []) if t < s["turn"])
    return max(0, int(n))


def draw_hands(s: State, w: World, dice: DiceSource, facts: list[Fact]) -> None:
    for side in ("us", "vc"):
        pool = marker_ids(w, side)
        n = allotment(s, w, side)
        if n >= len(pool):
            hand = pool  # VB 14.1 lapses: the whole pool
        else:
            # H6: secret dice, or a draw's place in the pool would tell the opponent the hand
            hand, _ = draw_many(pool, n, dice, f"VB 14.1 {side.upper()} support fire draw", secret=True)
        s["hands"][side] = sorted(hand, key=_key)
        s["spent"][side] = []
        vals = ", ".join(f"+{value(w, m)}" for m in s["hands"][side]) or "none"
        facts.append(Fact(f"{side.upper()} receives {len(hand)} support fire marker(s)", "VB 8.0", "support_draw",
                          {"side": side, "count": len(hand)}))
        facts.append(Fact(f"{side.upper()} support fire in hand: {vals}", "VB 14.1", "support_hand",
                          {"side": side, "markers": s["hands"][side]}, visible_to=(side,)))


def _key(m: str) -> tuple[str, int]:
    a, b = m.rsplit("-", 1)
    return a, int(b)


def return_all(s: State) -> None:
    """VB 8.6 (A-2): every marker back to the pool at the end of the game turn."""
    for side in ("us", "vc"):
        s["hands"][side] = []
        s["spent"][side] = []
