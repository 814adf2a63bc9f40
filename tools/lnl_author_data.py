#!/usr/bin/env python3
"""Write the Lock 'n Load: Forgotten Heroes Vietnam demo data (rules/lock_n_load/data/).

    python tools/lnl_author_data.py            # writes board1.json, counters.json, scenarios.json, ...
    python tools/lnl_author_data.py --check    # exits 1 if a file is not what this script writes

The demo rules give no map, no counter values beyond a few designations and no scenario (digest
"What an implementation needs"). What the text gives is written as printed and marked "rulebook":
the ten TEC example hexes (T3), 1F5 brush at ground level (1.4), the two jungle slivers of 10.1 and
10.3, the designations of 4.1/5.3/6.1/8.0/13.3/13.4, M-60 = 2 FP (8.0), the smoke numbers (7.0).
Everything else is ours, marked "authored"; docs/games/lock-n-load-data.md lists every choice.
Same bytes every run; needs only the repository (it imports rules.lock_n_load.geometry).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from rules.lock_n_load.geometry import Board, hexside  # noqa: E402

DATA = REPO / "rules" / "lock_n_load" / "data"
R, A = "rulebook", "authored"
BOARD = Board("1", 13, 10)

# =============================================================================================
# 1. Board 1: terrain and elevation of every hex (LnL 1.4, 10.2, 10.4, T3)
# =============================================================================================
# One letter per hex, columns A..M left to right, rows 1..10 top to bottom:
#   o open ground  p rice paddy  b brush  g grass  l light jungle  d dense jungle
#   w wooden building  h bamboo hut   (roads are listed separately: they run over the terrain)
TERRAIN_ROWS = (
    # ABCDEFGHIJKLM
    "ppoopppollood",  # 1
    "ppooppplllohd",  # 2
    "ooooggooloowo",  # 3
    "booogooooohoo",  # 4
    "bbooobboooool",  # 5
    "booooboooooll",  # 6
    "llooooooodddl",  # 7
    "dlooooooddddl",  # 8
    "ddloooodldddd",  # 9
    "ddloooodldddd",  # 10
)
CODES = {"o": "open", "p": "paddy", "b": "brush", "g": "grass", "l": "light_jungle", "d": "dense_jungle",
         "w": "wooden_building", "h": "bamboo_hut"}
# Hill hexes and their level (10.2); every other hex is at ground level 0. 1D5 is the TEC's hill.
HILLS = {"1C5": 1, "1D5": 1, "1C6": 1, "1D6": 2, "1E6": 1, "1D7": 1, "1E7": 1}
# The road: a chain of adjacent hexes (TEC "road": moving road hex to road hex ignores the terrain).
ROAD = ("1F10", "1G9", "1G8", "1H8", "1H7", "1H6", "1H5", "1I4", "1J4", "1K3", "1L3", "1M2")
# Values the rulebook fixes (T3 example column, 1.4 / 10.4 example, the hill 1D5).
PRINTED = {"1L3": "wooden_building", "1K4": "bamboo_hut", "1K8": "dense_jungle", "1I3": "light_jungle",
           "1G5": "brush", "1F3": "grass", "1F2": "paddy", "1I6": "open", "1H5": "open", "1F5": "brush",
           "1D5": "open"}
PRINTED_NOTES = {"1L3": "T3 wooden building example", "1K4": "T3 bamboo hut example",
                 "1K8": "T3 dense jungle example", "1I3": "T3 light jungle example", "1G5": "T3 brush example",
                 "1F3": "T3 grass example", "1F2": "T3 rice paddy example", "1I6": "T3 open ground example",
                 "1H5": "T3 road example", "1F5": "1.4/10.4: a ground-level brush hex", "1D5": "T3 hill example"}
# Slivers (10.1, 10.3): a fragment of a hex's terrain artwork lying across one hexside. `from` is the
# hex whose art it belongs to (an open hex); it degrades a LOS crossing or running along that hexside,
# except a LOS from or to either of its two hexes (10.1 "sliver exception").
SLIVERS = (
    {"id": "S1", "hexside": hexside("1C3", "1C4"), "from": "1C4", "terrain": "light_jungle", "source": R,
     "note": "10.3: jungle fragment from 1C4 into 1C3 (1C4->1C2 not degraded, 1B4->1D4 degraded)"},
    {"id": "S2", "hexside": hexside("1L4", "1M4"), "from": "1M4", "terrain": "light_jungle", "source": R,
     "note": "10.1: jungle fragment from 1M4 into 1L4 (1M4->1J3 not degraded, 1L5->1M3 degraded)"},
    {"id": "S3", "hexside": hexside("1H2", "1H3"), "from": "1H3", "terrain": "light_jungle", "source": A,
     "note": "ours: the tree line south of the 1H-1J light jungle reaches into 1H3"},
)

# T3, the Terrain Effects Chart, as data (all rulebook; "tm_by" = the national TMs of 13.1/13.2).
TEC: dict[str, dict[str, Any]] = {
    "wooden_building": {"kind": "blocking", "mp": 2, "tm": 3, "height": 1, "example": "1L3"},
    "bamboo_hut": {"kind": "blocking", "mp": 2, "tm": 1, "height": 1, "example": "1K4"},
    "dense_jungle": {"kind": "blocking", "mp": 2, "tm": 2, "tm_by": {"NVA": 3, "VC": 3}, "height": 2,
                     "example": "1K8", "stacking": {"squads2": 4, "sws": 2, "smcs": 2}, "jungle": True},
    "light_jungle": {"kind": "degrading", "mp": 2, "tm": 1, "tm_by": {"VC": 2}, "height": 1, "example": "1I3",
                     "jungle": True},
    "brush": {"kind": "degrading", "mp": 1, "tm": 0, "height": 0, "example": "1G5", "no_moving_bonus": True},
    "grass": {"kind": "blocking", "mp": 2, "tm": 0, "height": 1, "example": "1F3", "no_moving_bonus": True},
    "paddy": {"kind": "open", "mp": 2, "tm": 1, "height": 0, "example": "1F2"},
    "open": {"kind": "open", "mp": 1, "tm": 0, "height": 0, "example": "1I6"},
}
TEC_EXTRA = {"road": {"mp": 1, "tm": 0, "example": "1H5"},
             "hill": {"uphill_mp": 1, "tm_vs_lower": 1, "example": "1D5"},
             "smoke": {"kind": "blocking", "tm": 1, "firer_drm": -1}}


def board_doc() -> dict[str, Any]:
    rows = list(TERRAIN_ROWS)
    assert len(rows) == BOARD.rows and all(len(r) == BOARD.cols for r in rows), [len(r) for r in rows]
    hexes: dict[str, Any] = {}
    for row, line in enumerate(rows, start=1):
        for col, ch in enumerate(line):
            h = BOARD.hex_id(col, row)
            terrain = CODES[ch]
            if h in PRINTED:
                assert PRINTED[h] == terrain, f"{h} must be {PRINTED[h]} (rulebook), the grid says {terrain}"
            e: dict[str, Any] = {"terrain": terrain, "level": HILLS.get(h, 0),
                                 "source": R if h in PRINTED else A}
            if h in PRINTED_NOTES:
                e["note"] = PRINTED_NOTES[h]
            if h in ROAD:
                e["road"] = True
            hexes[h] = e
    assert hexes["1D5"]["level"] >= 1 and hexes["1F5"]["level"] == 0  # T3 hill 1D5; 1.4 "ground level"
    roads = []
    for a, b in zip(ROAD, ROAD[1:]):
        assert BOARD.adjacent(a, b), f"road {a}-{b} is not adjacent"
        roads.append(hexside(a, b))
    hexsides: dict[str, Any] = {s: {"road": True, "source": A} for s in roads}
    for sl in SLIVERS:
        a, b = sl["hexside"].split("/")
        assert BOARD.adjacent(a, b) and sl["from"] in (a, b)
        assert hexes[sl["from"]]["terrain"] == "open", "a sliver leaves an open hex (10.1)"
    return {"id": "lnl-board-1", "board": "1", "cols": BOARD.cols, "rows": BOARD.rows,
            "layout": "flat-top; columns A.. left to right, rows 1.. top to bottom; A, C, E, ... half a hex lower",
            "hexes": hexes, "hexsides": hexsides, "slivers": list(SLIVERS),
            "tec": TEC, "tec_extra": TEC_EXTRA}


# =============================================================================================
# 2. Counters (1.1, 1.6, 11.0, 13.x, T1, T7)
# =============================================================================================
# Multi-man counters: designation FP-Range-MF (digest C.0), morale [Good Order, Shaken].
def mmc(kid: str, name: str, nat: str, cls: str, desig: str, morale: tuple[int, int], *, reduces_to: str | None,
        am: bool = False, sr: bool = False, source: str = A, note: str = "") -> dict[str, Any]:
    fp, rng, mf = (int(x) for x in desig.split("-"))
    return {"id": kid, "name": name, "nationality": nat, "class": cls, "designation": desig, "fp": fp,
            "range": rng, "mf": mf, "morale": list(morale), "reduces_to": reduces_to, "assault_move": am,
            "self_rally": sr, "source": {"designation": source, "morale": A}, "note": note}


KINDS: list[dict[str, Any]] = [
    mmc("usmc-sq-364", "USMC squad", "USMC", "squad", "3-6-4", (6, 7), reduces_to="usmc-hs-254", am=True, source=R,
        note="13.3: reduces to 2-5-4; shaken morale higher than GO"),
    mmc("usmc-sq-264", "USMC squad", "USMC", "squad", "2-6-4", (5, 6), reduces_to="usmc-hs-154", am=True, source=R,
        note="13.3: reduces to 1-5-4; shaken morale higher than GO"),
    mmc("usmc-hs-254", "USMC half squad", "USMC", "half", "2-5-4", (6, 5), reduces_to=None, am=True, source=R),
    mmc("usmc-hs-154", "USMC half squad", "USMC", "half", "1-5-4", (5, 4), reduces_to=None, am=True, source=R),
    mmc("us-sq-264", "US Army squad", "US", "squad", "2-6-4", (6, 5), reduces_to="us-hs-154", source=R,
        note="5.3/8.0 '2-6-4' US squad; its half squad is ours"),
    mmc("us-hs-154", "US Army half squad", "US", "half", "1-5-4", (5, 4), reduces_to=None),
    mmc("nva-sq-254", "NVA squad", "NVA", "squad", "2-5-4", (6, 5), reduces_to="nva-hs-144", am=True, source=R,
        note="4.1/6.1; its half squad is ours"),
    mmc("nva-hs-144", "NVA half squad", "NVA", "half", "1-4-4", (5, 4), reduces_to=None, am=True),
    mmc("vc-sq-143", "VC squad", "VC", "squad", "1-4-3", (5, 4), reduces_to="vc-hs-033", source=R,
        note="5.3 '1-4-3'; reduction to the 0-3-3 is ours"),
    mmc("vc-hs-033", "VC half squad", "VC", "half", "0-3-3", (4, 3), reduces_to=None, source=R, note="4.1/8.2 '0-3-3'"),
    mmc("arvn-sq-244", "ARVN squad", "ARVN", "squad", "2-4-4", (5, 4), reduces_to="arvn-hs-134", source=R),
    mmc("arvn-sq-144", "ARVN squad", "ARVN", "squad", "1-4-4", (4, 3), reduces_to="arvn-hs-034", source=R),
    mmc("arvn-hs-134", "ARVN half squad", "ARVN", "half", "1-3-4", (4, 3), reduces_to=None, source=R),
    mmc("arvn-hs-034", "ARVN half squad", "ARVN", "half", "0-3-4", (4, 3), reduces_to=None, source=R),
]


def smc(kid: str, name: str, nat: str, cls: str, *, lm: int = 0, morale: tuple[int, int], mf: int,
        card: str | None = None, fp: int = 0, rng: int = 0, note: str = "") -> dict[str, Any]:
    return {"id": kid, "name": name, "nationality": nat, "class": cls, "lm": lm, "morale": list(morale), "mf": mf,
            "fp": fp, "range": rng, "card": card, "assault_move": False, "self_rally": cls == "sniper",
            "source": {"all": A}, "note": note}


SMCS: list[dict[str, Any]] = [
    smc("us-ldr-harlan", "Lt. Harlan", "US", "leader", lm=1, morale=(6, 5), mf=5, card="Bull"),
    smc("us-ldr-okafor", "Sgt. Okafor", "US", "leader", lm=1, morale=(5, 4), mf=5, card="Charismatic"),
    smc("us-ldr-pike", "Sgt. Pike", "US", "leader", lm=0, morale=(5, 4), mf=5),
    smc("us-medic-ruiz", "Doc Ruiz", "US", "medic", morale=(5, 4), mf=5),
    smc("us-chaplain-ames", "Fr. Ames", "US", "chaplain", lm=1, morale=(6, 5), mf=5),
    smc("us-advisor-cole", "Capt. Cole", "US", "advisor", morale=(6, 5), mf=5),
    smc("usmc-ldr-reyes", "Gy.Sgt. Reyes", "USMC", "leader", lm=1, morale=(6, 5), mf=5),
    smc("vc-ldr-lam", "Tran Van Lam", "VC", "leader", lm=1, morale=(5, 4), mf=5),
    smc("vc-ldr-hoa", "Le Thi Hoa", "VC", "leader", lm=0, morale=(5, 4), mf=5),
    smc("vc-sniper", "VC sniper", "VC", "sniper", morale=(5, 5), mf=0, fp=1, rng=8,
        note="11.4: no MF; fires at FP 1 range 8 (ours)"),
    smc("nva-ldr-vinh", "Capt. Vinh", "NVA", "leader", lm=2, morale=(6, 5), mf=5),
    smc("arvn-ldr-duc", "Lt. Duc", "ARVN", "leader", lm=1, morale=(5, 4), mf=5),
]

# Heroes (11.2; optional, the demo has no hero counters): one per nationality, all OURS, drawn when
# a hero appears. Rules version 2 only (rules/lock_n_load/data/heroes.json): version 1's counters
# file stays byte for byte. Each holds the Bull card, the one card a hero may draw (T2).
HEROES: list[dict[str, Any]] = [
    {**smc(f"{nat.lower()}-hero", f"{nat} hero", nat, "hero", morale=(6, 6), mf=5, card="Bull", fp=1, rng=4,
           note="11.2: ours; never shaken, wounded instead (T4)"), "assault_move": True}
    for nat in ("US", "USMC", "ARVN", "VC", "NVA")
]

SWS: list[dict[str, Any]] = [
    {"id": "m60", "name": "M-60", "kind": "lmg", "nationality": "US", "fp": 2, "range": 8, "oft": False,
     "source": {"fp": R, "range": A}, "note": "8.0: 3 x 3-6-4 + M-60 = 11 FP, so the M-60 has 2 FP"},
    {"id": "rpd", "name": "RPD", "kind": "lmg", "nationality": "VC", "fp": 2, "range": 6, "oft": False,
     "source": {"fp": A, "range": A}, "note": "1.6.1: a US SMC fires a captured RPD at 1 FP (2 halved)"},
    {"id": "m2-flame", "name": "M2 flamethrower", "kind": "flamethrower", "nationality": "US", "fp": 4, "range": 1,
     "oft": False, "source": {"fp": A, "range": A}, "note": "8.0: an SMC defends with half, '2'"},
    {"id": "law", "name": "LAW", "kind": "law", "nationality": "US", "fp": 0, "range": 2, "oft": True,
     "source": {"all": A}, "note": "to-hit table (OFT) not in the demo: listed, never issued"},
    {"id": "rpg", "name": "RPG", "kind": "rpg", "nationality": "VC", "fp": 0, "range": 3, "oft": True,
     "source": {"all": A}, "note": "to-hit table (OFT) not in the demo: listed, never issued"},
]

NATIONS = {
    "US": {"colour": "green", "smoke": 3, "side": "us"}, "USMC": {"colour": "green", "smoke": 3, "side": "us"},
    "ARVN": {"colour": "golden brown", "smoke": 1, "side": "us"},
    "VC": {"colour": "grey", "smoke": 1, "side": "vc"}, "NVA": {"colour": "butternut", "smoke": 2, "side": "vc"},
}


def counters_doc() -> dict[str, Any]:
    kinds = {k["id"]: k for k in KINDS + SMCS}
    for k in KINDS:
        assert k["reduces_to"] is None or k["reduces_to"] in kinds
    return {"kinds": kinds, "sws": {s["id"]: s for s in SWS}, "nations": NATIONS,
            "skill_cards": {"Bull": {"holders": ["leader", "hero"], "wounds": 2, "source": R},
                            "Charismatic": {"holders": ["leader"], "rally_adjacent": True, "source": R}}}


# =============================================================================================
# 3. The demo scenario (all ours: the demo text has none)
# =============================================================================================
def scenario_doc_v1() -> dict[str, Any]:
    """Rules version 1's demo (kept for the games recorded under it): the US won 5 of 100 under
    the scripted strategy of bench/lnl_balance.py."""
    us_area = [h for h in BOARD.hexes() if h[1] in "ABC"]
    vc_area = [h for h in BOARD.hexes() if h[1] in "IJKLM"]
    units = {
        "us": [
            {"id": "us1", "kind": "us-sq-264", "at": "1A5", "sws": ["us-m60"]},
            {"id": "us2", "kind": "us-sq-264", "at": "1A5"},
            {"id": "us3", "kind": "us-sq-264", "at": "1B5"},
            {"id": "us4", "kind": "us-sq-264", "at": "1C7"},
            {"id": "us5", "kind": "us-sq-264", "at": "1C3"},
            {"id": "harlan", "kind": "us-ldr-harlan", "at": "1A5"},
            {"id": "okafor", "kind": "us-ldr-okafor", "at": "1C7"},
            {"id": "ruiz", "kind": "us-medic-ruiz", "at": "1B5"},
        ],
        "vc": [
            {"id": "vc1", "kind": "vc-sq-143", "at": "1L3", "sws": ["vc-rpd"]},
            {"id": "vc2", "kind": "vc-sq-143", "at": "1K4"},
            {"id": "vc3", "kind": "vc-sq-143", "at": "1I3"},
            {"id": "vc4", "kind": "vc-sq-143", "at": "1J8"},
            {"id": "vc5", "kind": "vc-hs-033", "at": "1L2"},
            {"id": "vc6", "kind": "vc-hs-033", "at": "1I9"},
            {"id": "lam", "kind": "vc-ldr-lam", "at": "1L3"},
            {"id": "hoa", "kind": "vc-ldr-hoa", "at": "1J8"},
            {"id": "sniper", "kind": "vc-sniper", "at": None},
        ],
    }
    sws = {"us-m60": "m60", "vc-rpd": "rpd"}
    return {"demo": {
        "id": "demo", "title": "Hamlet 1K4 (demo, ours)", "board": "1", "turns": 7, "first_initiative": "us",
        "description": "A US Army platoon sweeps the hamlet of 1K4-1L3 held by a VC local force squad group. "
                       "Seven turns; the US must hold the hamlet at the end.",
        "sides": {"us": {"nationalities": ["US"], "setup_area": us_area},
                  "vc": {"nationalities": ["VC"], "setup_area": vc_area}},
        "units": units, "sws": sws,
        "objectives": ["1K4", "1L3", "1L2"],
        "victory": {"rule": "ours", "text": "At the end of the last turn the US wins if Good Order US MMCs occupy "
                                            "at least two of 1K4, 1L3, 1L2 with no Good Order VC MMC in the same hex "
                                            "(the rice cache of event E1 counts as one more hex); otherwise the VC win."},
        "event_markers": [
            {"id": "E1", "type": "occupation", "hex": "1K4", "side": "us", "effect": {"type": "cache"},
             "paragraph": "Rice cache. Under the floor of the hut the US finds the VC's rice: for victory it counts "
                          "as one objective hex held by the US for the rest of the game."},
            {"id": "E2", "type": "los", "hex": "1J9", "side": "us",
             "effect": {"type": "reinforcement", "unit": {"side": "vc", "kind": "vc-sq-143", "at": "1M10", "id": "vc7"}},
             "paragraph": "Reinforcements. The shots have drawn a VC squad from the next hamlet: the VC player "
                          "places a VC 1-4-3 squad in 1M10 in the next Rally Phase."},
        ],
        "source": A,
    }}


def scenario_doc() -> dict[str, Any]:
    """Rules version 2's demo, tuned for balance with bench/lnl_balance.py (both seats scripted,
    tools/lnl_strategy.py): version 1's 5 squads, 1 M-60, 2 leaders, 7 turns won 5 of 100, so
    the US gets a second section (2 squads, an M-60, Sgt. Pike), the VC lose the 1I3 squad and the
    1I9 half squad, the 1L2 half squad stands back in 1M2, and the game lasts 10 turns."""
    doc = scenario_doc_v1()
    sc = doc["demo"]
    sc["turns"] = 10
    sc["description"] = ("A US Army platoon of two sections sweeps the hamlet of 1K4-1L3 held by a VC local force "
                         "squad group. Ten turns; the US must hold the hamlet at the end.")
    sc["units"]["us"] += [{"id": "us6", "kind": "us-sq-264", "at": "1B3"},
                          {"id": "us7", "kind": "us-sq-264", "at": "1B3", "sws": ["us-m60b"]},
                          {"id": "pike", "kind": "us-ldr-pike", "at": "1B3"}]
    sc["sws"]["us-m60b"] = "m60"
    vc = [u for u in sc["units"]["vc"] if u["id"] not in ("vc3", "vc6")]
    for u in vc:
        if u["id"] == "vc5":
            u["at"] = "1M2"
    sc["units"]["vc"] = vc
    sc["balance"] = {"source": A, "note": "bench/lnl_balance.py --games 200: see docs/games/lock-n-load-data.md"}
    return doc


def dump(doc: Any) -> str:
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def heroes_doc() -> dict[str, Any]:
    return {"kinds": {k["id"]: k for k in HEROES}}


# Skill cards (12.0, T2): the demo's two cards, their holders and effects as printed (rulebook); how
# many of each the deck holds the rulebook does not say (ours: one of each, so a draw is a die over
# the deck). Rules version 4 only (rules/lock_n_load/data/skill_cards.json): the files of versions
# 1-3 stay byte for byte, and with them their data ids.
SKILL_CARDS: list[dict[str, Any]] = [
    {"id": "Bull", "holders": ["leader", "hero"], "count": 1,
     "effect": "survives a second wound; a third eliminates (T2)",
     "source": {"id": R, "holders": R, "effect": R, "count": A}},
    {"id": "Charismatic", "holders": ["leader"], "count": 1,
     "effect": "rallies units in adjacent hexes as well as his own (T2)",
     "source": {"id": R, "holders": R, "effect": R, "count": A}},
]


def skill_cards_doc() -> dict[str, Any]:
    return {"cards": SKILL_CARDS,
            "note": "12.0, T2: the demo's only skill cards (rulebook); one of each in the deck (ours). The optional "
                    "draw (11.12, 12.0): each leader with a positive LM and no scenario card draws one at random."}


FILES = {"board1.json": board_doc, "counters.json": counters_doc, "scenarios.json": scenario_doc,
         "scenarios_v1.json": scenario_doc_v1, "heroes.json": heroes_doc, "skill_cards.json": skill_cards_doc}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a file differs from what this writes")
    args = ap.parse_args(argv)
    DATA.mkdir(parents=True, exist_ok=True)
    bad = 0
    for name, make in FILES.items():
        text = dump(make())
        path = DATA / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"{path} differs from what {Path(__file__).name} writes", file=sys.stderr)
                bad += 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
