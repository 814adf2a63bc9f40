"""Melee (LnL 8.0-8.2, 13.1 Ambush, T6): strength, odds, kill numbers, simultaneous rounds."""

from __future__ import annotations

from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Fact
from rules.lock_n_load import units as U
from rules.lock_n_load.data import World
from rules.lock_n_load.fire import eliminate

State = dict[str, Any]
# T6: odds columns (attacker, defender) and kill numbers.
COLUMNS: tuple[tuple[int, int, int], ...] = ((1, 3, 11), (1, 2, 10), (1, 1, 8), (3, 2, 7), (2, 1, 6), (3, 1, 5),
                                              (4, 1, 4), (5, 1, 3))


def odds(att: int, dfn: int) -> tuple[str, int]:
    """T6 (A28): the highest column the ratio reaches (rounded down in the defender's favour);
    below 1-3 reads 1-3, above 5-1 reads 5-1. Returns ("3-1", kill number)."""
    best = COLUMNS[0]
    for a, d, kill in COLUMNS:
        if att * d >= dfn * a:
            best = (a, d, kill)
    return f"{best[0]}-{best[1]}", best[2]


def strength(s: State, w: World, uid: str, *, defending: bool) -> int:
    """8.0: unmodified inherent FP plus LMGs/flamethrowers within the SW limits (T7); a 0-FP MMC counts 1
    (8.2, A53); a WT defends with 1 and does not attack; a leader/advisor with an LMG or flamethrower
    defends with half its FP (8.0); heroes their printed FP."""
    k = U.kind(s, w, uid)
    r = s["units"][uid]
    weapons = sorted((w.sws[s["sws"][x]["kind"]].fp for x in r["sws"]
                      if w.sws[s["sws"][x]["kind"]].kind in ("lmg", "flamethrower")), reverse=True)
    if k.cls == "wt":
        return 1 if defending else 0
    if k.cls == "squad":
        best = max(k.fp + sum(weapons[:1]), sum(weapons[:2]))
        return max(best, 1)
    if k.cls == "half":
        return max(k.fp, weapons[0] if weapons else 0, 1)
    if k.cls in ("leader", "advisor") and weapons:
        return max(1, (weapons[0] + 1) // 2) if defending else max(1, (weapons[0] + 1) // 2)
    return k.fp


def zero_fp(s: State, w: World, uid: str) -> bool:
    k = U.kind(s, w, uid)
    return k.is_mmc and k.fp == 0 and not s["units"][uid]["sws"]


def side_roll(s: State, w: World, hex_id: str, att: list[str], dfn: list[str], dice: DiceSource,
              facts: list[Fact], *, ambush: bool) -> tuple[bool, int, str, int]:
    """One side's attack of a round: (kills?, roll, odds, kill number) (8.0, 8.2, 13.1, T6)."""
    a = sum(strength(s, w, u, defending=False) for u in att) * (3 if ambush else 1)
    d = sum(strength(s, w, u, defending=True) for u in dfn)
    col, kill = odds(a, d)
    if any(U.kind(s, w, u).cls == "hero" for u in att):  # 11.2: one column in the heroes' favour, however many
        i = min(len(COLUMNS) - 1, [f"{x}-{y}" for x, y, _ in COLUMNS].index(col) + 1)
        col, kill = f"{COLUMNS[i][0]}-{COLUMNS[i][1]}", COLUMNS[i][2]
    side = s["units"][att[0]]["side"]
    _, lm = U.best_leader(s, w, hex_id, side)
    drm = lm - sum(1 for u in att if zero_fp(s, w, u)) + sum(1 for u in dfn if zero_fp(s, w, u))
    d1 = dice.roll(6, f"LnL 8.0 melee in {hex_id}, {side}")
    d2 = dice.roll(6, f"LnL 8.0 melee in {hex_id}, {side}")
    total = d1 + d2 + drm
    ok = total >= kill
    facts.append(Fact(f"Melee in {hex_id}: {side.upper()} {a} FP{' (Ambush x3)' if ambush else ''} vs {d}: {col}, "
                      f"kill number {kill}; rolled {d1}+{d2}{drm:+d} = {total}: "
                      f"{'targets eliminated' if ok else 'no effect'}",
                      "LnL 8.0, T6" + (", 13.1" if ambush else ""), "melee",
                      {"hex": hex_id, "side": side, "odds": col, "kill": kill, "dice": [d1, d2], "drm": drm,
                       "attackers": att, "targets": dfn, "success": ok}))
    return ok, total, col, kill


def combatants(s: State, w: World, hex_id: str, side: str) -> list[str]:
    """8.0, 8.1: the side's melee-eligible units in the hex that may take part this turn."""
    return [u for u in U.units_in(s, hex_id, side) if U.melee_eligible(s, w, u) and not s["units"][u]["late"]]


def target_choices(s: State, w: World, att: list[str], dfn: list[str]) -> list[list[str]]:
    """8.0: every set of at least one enemy the side may attack; below 1-3 only a single unit."""
    a = sum(strength(s, w, u, defending=False) for u in att)
    out = []
    for mask in range(1, 1 << len(dfn)):
        pick = [u for i, u in enumerate(dfn) if mask >> i & 1]
        d = sum(strength(s, w, u, defending=True) for u in pick)
        if len(pick) == 1 or a * 3 >= d:
            out.append(pick)
    return out


def fight(s: State, w: World, hex_id: str, attacker: str, dice: DiceSource, facts: list[Fact], *,
          ambush: bool = False, a_targets: list[str] | None = None, d_targets: list[str] | None = None) -> None:
    """One melee round in hex_id started by `attacker` (8.0): each side attacks the enemies it chose
    (W3; by default all of them, below 1-3 only the weakest one), losses removed after both rolls
    unless the VC Ambush makes it one-sided first (13.1, A36)."""
    defender = U.other(attacker)
    att = combatants(s, w, hex_id, attacker)
    dfn = combatants(s, w, hex_id, defender)
    s["melee"][hex_id] = {"fought": s["turn"]}
    if not att or not dfn:
        settle(s, w, hex_id, facts)
        return
    a_targets = a_targets or _targets(s, w, att, dfn)
    ok_a, *_ = side_roll(s, w, hex_id, att, a_targets, dice, facts, ambush=ambush)
    if ambush and ok_a:
        for u in a_targets:
            eliminate(s, w, u, facts, "melee (Ambush)")
        dfn = [u for u in dfn if u not in a_targets]
    ok_d = False
    if dfn:
        d_targets = d_targets or _targets(s, w, dfn, att)
        ok_d, *_ = side_roll(s, w, hex_id, dfn, d_targets, dice, facts, ambush=False)
    if ok_a and not ambush:
        for u in a_targets:
            eliminate(s, w, u, facts, "melee")
    if ok_d:
        for u in d_targets or []:
            eliminate(s, w, u, facts, "melee")
    settle(s, w, hex_id, facts)


def _targets(s: State, w: World, att: list[str], dfn: list[str]) -> list[str]:
    a = sum(strength(s, w, u, defending=False) for u in att)
    d = sum(strength(s, w, u, defending=True) for u in dfn)
    if a * 3 < d and len(dfn) > 1:  # 8.0: below 1-3 only against one unit
        return [min(dfn, key=lambda u: (strength(s, w, u, defending=True), u))]
    return list(dfn)


def settle(s: State, w: World, hex_id: str, facts: list[Fact]) -> None:
    """8.0: a side with no melee-eligible unit left loses its other units in the hex; while both sides
    remain the hex is locked."""
    sides = {side: U.units_in(s, hex_id, side) for side in U.SIDES}
    for side, us in sides.items():
        if us and not any(U.melee_eligible(s, w, u) for u in us) and sides[U.other(side)] and any(
                U.melee_eligible(s, w, u) for u in sides[U.other(side)]):
            for u in us:
                eliminate(s, w, u, facts, "cannot melee, no protector left (8.0)")
    both = all(U.units_in(s, hex_id, side) for side in U.SIDES)
    for u in U.units_in(s, hex_id):
        s["units"][u]["melee_locked"] = both
    if not both and hex_id in s["melee"]:
        s["melee"][hex_id]["over"] = True
