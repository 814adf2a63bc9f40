"""The game's tables as data, transcribed once from the digest's CSV blocks (AoB 19).

* LCT — Land Combat Table (AoB 19.2): differential column x 1d6 -> "R?a-d?R".
* ACRT — Air Combat Results Table (AoB 19.3): air differential x 2d6 -> E / D / A / -.
* AA — Anti-Aircraft Table (AoB 19.4): city STR x 1d6 -> bombing points lost.
* TERRAIN — the Terrain Effects Chart (AoB 19.1), as data read by terrain.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.tables import ColumnTable, parse_csv_table

LCT_CSV = """
die,le-6,-5,-4,-3,-2,-1,0,+1,+2,+3,+4,+5,+6,+7,ge+8
1,R4-0,R3-0,R3-0,R2-0,R2-0,R2-0,2-1,2-1,2-1,2-2,1-1,1-2,1-2,1-2,0-1R
2,R3-0,3-0,R2-0,2-0,2-1,2-2,2-2,2-2,2-2,1-1,1-2,1-2,0-1R,0-1R,0-2
3,3-0,R2-0,2-0,2-1,2-2,2-2,R1-0,R1-0,R1-1,1-2,1-2,0-1R,0-2,0-2,0-3
4,R2-0,2-0,2-1,2-1,R1-0,R1-0,1-0,1-1,0-1,0-1,0-1R,0-2,0-2,0-3,0-3R
5,2-0,R2-1,R1-0,R1-0,R1-0,1-0,1-1,0-1,0-1,0-1,0-2,0-2,0-2,0-3R,0-3R
6,R1-0,R1-0,1-0,1-0,1-1,1-1,0-1,0-1R,0-2R,0-2R,0-2R,0-3R,0-3R,0-3R,0-4R
"""

ACRT_CSV = """
roll2d6,le-7,-6,-5,-4,-3,-2,-1,0,+1,+2,+3,+4,+5,+6,ge+7
2,A,A,A,D,D,D,D,E,E,E,E,E,E,E,E
3,A,A,A,A,D,D,D,D,D,E,E,E,E,E,E
4,-,A,A,A,A,A,A,D,D,D,D,D,E,E,E
5,-,-,A,A,A,A,A,A,A,D,D,D,D,E,E
6,-,-,-,-,-,A,A,A,A,A,D,D,D,D,D
7,-,-,-,-,-,-,A,A,A,A,A,D,D,D,D
8,-,-,-,-,-,-,-,-,A,A,A,A,D,D,D
9,-,-,-,-,-,-,-,-,-,-,A,A,A,A,D
10,-,-,-,-,-,-,-,-,-,-,-,-,A,A,A
11,-,-,-,-,-,-,-,-,-,-,-,-,-,A,A
12,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-
"""

AA_CSV = """
die,str1,str2,str3,str4,str5
1,-,-,-,-,-
2,-,-,-,-,1
3,-,-,-,1,1
4,-,-,1,1,2
5,-,1,2,3,3A
6,1,2,3,4A,4D
"""

# AoB 19.2: "<" is <= -6 and ">" is >= +8.
LCT: ColumnTable = parse_csv_table("Land Combat Table", LCT_CSV, tuple(range(-6, 9)))
# AoB 19.3: "<" is <= -7 and ">" is >= +7.
ACRT: ColumnTable = parse_csv_table("Air Combat Results Table", ACRT_CSV, tuple(range(-7, 8)))
# AoB 19.4: STR 1..5. A city stronger than 5 reads the STR 5 column (our reading of AoB 23.9).
AA: ColumnTable = parse_csv_table("AA Table", AA_CSV, (1, 2, 3, 4, 5), open_low=False)


@dataclass(frozen=True)
class LandResult:
    """One LCT cell: hits on each fighting unit and who must retreat (AoB 11.4, 11.6, 24.1)."""

    cell: str
    attacker_hits: int
    defender_hits: int
    attacker_retreat: bool  # a leading R
    defender_retreat: bool  # a trailing R


def parse_land_result(cell: str) -> LandResult:
    body = cell
    att_r = body.startswith("R")
    if att_r:
        body = body[1:]
    def_r = body.endswith("R")
    if def_r:
        body = body[:-1]
    a, d = body.split("-")
    return LandResult(cell, int(a), int(d), att_r, def_r)


def land_result(differential: int, die: int) -> LandResult:
    """AoB 11.3: the attacker's 1d6 on the LCT at the (clamped) differential."""
    return parse_land_result(LCT.lookup(differential, die))


def air_result(differential: int, roll_2d6: int) -> str:
    """AoB 10.6: 2d6 on the ACRT at the (clamped) air differential; E, D, A or '-'."""
    return ACRT.lookup(differential, roll_2d6)


@dataclass(frozen=True)
class AAResult:
    cell: str
    loss: int  # bombing points lost (AoB 16.2)
    removed: bool  # an A or D suffix: the bomber is also out of the game (AoB 19.4, 10.7; INFERRED)


def aa_result(strength: int, die: int) -> AAResult:
    col = min(max(strength, 1), 5)
    cell = AA.lookup(col, die)
    if cell == "-":
        return AAResult(cell, 0, False)
    removed = cell[-1] in "AD"
    return AAResult(cell, int(cell[:-1] if removed else cell), removed)


@dataclass(frozen=True)
class TerrainEffect:
    """A row of the Terrain Effects Chart (AoB 19.1). None = per the other terrain in the hex."""

    name: str
    move_cost: int | None  # None: "per the other terrain"; sea is handled as prohibited
    enterable: bool = True
    tank_modifier: int = 0  # "-n armor": tanks' attack and defense (AoB 13.3)
    other_defender_modifier: int = 0  # "+n other defenders": non-tank defenders' defense
    defender_modifier: int = 0  # "+n defender": every defender, tanks included (AoB 19.1 note)
    ignores_retreat: bool = False  # "defender ignores retreat"
    bombing_modifier: int = 0  # "bombing value -1"
    bombing_halved: bool = False  # "bombing value halved"


TERRAIN: dict[str, TerrainEffect] = {
    "sea": TerrainEffect("sea", None, enterable=False),
    "forest": TerrainEffect("forest", 2, tank_modifier=-1, other_defender_modifier=1, bombing_modifier=-1),
    "rough": TerrainEffect("rough", 2, defender_modifier=1, bombing_modifier=-1),
    "small_city": TerrainEffect("small city", None, defender_modifier=1),
    "hex_city": TerrainEffect("hex city", 1, tank_modifier=-2, other_defender_modifier=2, ignores_retreat=True),
    "fortress": TerrainEffect(
        "fortress", None, tank_modifier=-2, other_defender_modifier=2, ignores_retreat=True, bombing_halved=True
    ),
    "clear": TerrainEffect("clear", 1),
}

RIVER_MOVE_COST = 1  # AoB 19.1: river +1 MP
RIVER_ATTACK_MODIFIER = -1  # AoB 19.1: river -1 attacker
TANK_BATTLE_COST = 1  # AoB 15.4
