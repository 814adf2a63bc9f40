"""Terrain effects on movement and combat (AoB 13, AoB 19.1).

Readings (docs/games/assault-on-belgium.md): a hex's `terrain` is its base terrain; a
small city or a fortress is a feature on top of it ("per the other terrain in the hex").
A fortress's combat effects replace, not add to, the identical effects of a hex city.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.assault_on_belgium.data import Hex, Unit, World
from rules.assault_on_belgium.tables import RIVER_ATTACK_MODIFIER, RIVER_MOVE_COST, TERRAIN, TerrainEffect


def effects(h: Hex) -> list[TerrainEffect]:
    """The chart rows that apply to a hex, base terrain first."""
    out = [TERRAIN[h.terrain]]
    if h.is_small_city:
        out.append(TERRAIN["small_city"])
    if h.fortress:
        if h.is_hex_city:
            out = [e for e in out if e.name != "hex city"]  # the fortress replaces them
        out.append(TERRAIN["fortress"])
    return out


def terrain_label(h: Hex) -> str:
    return " + ".join(e.name for e in effects(h))


def hex_cost(h: Hex) -> int | None:
    """MP to enter (AoB 5.2, 13.2); None = prohibited (sea, AoB 5.7)."""
    base = TERRAIN[h.terrain]
    if not base.enterable:
        return None
    return base.move_cost


def move_cost(w: World, frm: str, to: str) -> int | None:
    """Terrain of the entered hex plus 1 for crossing a river hexside (AoB 19.1)."""
    c = hex_cost(w.hexes[to])
    if c is None:
        return None
    return c + (RIVER_MOVE_COST if w.river(frm, to) else 0)


def cost_text(w: World, frm: str, to: str) -> str:
    h = w.hexes[to]
    text = f"entering {to} ({TERRAIN[h.terrain].name})"
    if w.river(frm, to):
        text += f" across the {w.river(frm, to)}"
    return text


def ignores_retreat(h: Hex) -> bool:
    """AoB 13.3: in a hex city or fortress the defender ignores R."""
    return any(e.ignores_retreat for e in effects(h))


@dataclass(frozen=True)
class Modified:
    value: int
    text: str  # "7 −2 hex city = 5"


def _fmt(base: int, mods: list[tuple[int, str]], value: int) -> str:
    if not mods:
        return str(base)
    parts = " ".join(f"{'+' if m > 0 else '−'}{abs(m)} {why}" for m, why in mods)
    return f"{base} {parts} = {value}"


def attack_strength(w: World, unit: Unit, hits: int, battle_hex: str, origin: str) -> Modified:
    """AoB 11.5 printed − hits; armor penalties (AoB 13.3); river on the vector (AoB 19.1). Floor 0."""
    base = max(0, unit.attack - hits)
    mods: list[tuple[int, str]] = []
    h = w.hexes[battle_hex]
    if unit.is_tank:
        for e in effects(h):
            if e.tank_modifier:
                mods.append((e.tank_modifier, e.name))
    if w.river(origin, battle_hex):
        mods.append((RIVER_ATTACK_MODIFIER, f"river ({w.river(origin, battle_hex)})"))
    value = max(0, base + sum(m for m, _ in mods))
    return Modified(value, _fmt(base, mods, value))


def defense_strength(w: World, unit: Unit, hits: int, battle_hex: str) -> Modified:
    """AoB 11.5 printed − hits, then the battle hex's defender modifiers (AoB 13.3, 19.1). Floor 0."""
    base = max(0, unit.defense - hits)
    mods: list[tuple[int, str]] = []
    for e in effects(w.hexes[battle_hex]):
        if unit.is_tank and e.tank_modifier:
            mods.append((e.tank_modifier, e.name))
        if not unit.is_tank and e.other_defender_modifier:
            mods.append((e.other_defender_modifier, e.name))
        if e.defender_modifier:
            mods.append((e.defender_modifier, e.name))
    value = max(0, base + sum(m for m, _ in mods))
    return Modified(value, _fmt(base, mods, value))


def bomber_support(w: World, bomber: Unit, aa_loss: int, battle_hex: str, cap: int) -> Modified:
    """AoB 8.3, 8.4, 16.2, 24.15: tactical − AA loss − terrain (−1), halved (down) in a fortress,
    floor 0, then capped at the supported unit's modified strength (TV-C2, TV-C3)."""
    base = bomber.bombing
    value = base
    steps = []
    if aa_loss:
        value -= aa_loss
        steps.append(f"−{aa_loss} AA")
    for e in effects(w.hexes[battle_hex]):
        if e.bombing_modifier:
            value += e.bombing_modifier
            steps.append(f"−{-e.bombing_modifier} {e.name}")
    value = max(0, value)
    for e in effects(w.hexes[battle_hex]):
        if e.bombing_halved:
            value = value // 2
            steps.append("halved (fortress, rounded down)")
    if value > cap:
        value = cap
        steps.append(f"capped at {cap}")
    text = f"{base}" + (" " + ", ".join(steps) + f" = {value}" if steps else "")
    return Modified(value, text)
