#!/usr/bin/env python3
"""Write the Vietnam Battles counter sheet and tables (rules/vietnam_battles/data/).

    python tools/vb_author_data.py            # writes counters.json and tables.json
    python tools/vb_author_data.py --check    # exits 1 if a file is not what this script writes

The counter sheet and the map's charts are not in the rulebook text (digest Part VIII G4, G7-G12).
What the text gives (the unit values of VB 25.0/26.0, the combat results table of Part IV, the
turn-13 support fire 10/5 of VB 24.0, 5 base camps, 3 supply caches, one B-52, turn lengths) is
written here as printed and marked "rulebook"; everything else is ours and marked "authored"
(docs/games/vietnam-battles-data.md explains each choice). Stdlib only, same bytes every run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "rules" / "vietnam_battles" / "data"

R, A = "rulebook", "authored"

# =============================================================================================
# 1. Units
# =============================================================================================
# (id, designation as printed, size, side, nationality, front "a-d-m", reduced "a-d-m" | None
#  (one step), flags, scenarios, source of the front values, note)
# flags: m = mechanized, r = monitor (river flotilla), e = engineer, s = special forces.
UnitRow = tuple[str, str, str, str, str, str, str | None, str, tuple[str, ...], str, str]

B67, SN, IT = "boys67", "snoopys_nose", "iron_triangle"

UNITS: list[UnitRow] = [
    # --- VC, The Boys of '67 and Snoopy's Nose (VB 25.0 gives 514/1 and 514/2) ----------------
    ("vc-514-1", "514/1", "I", "VC", "VC", "3-5-6", "1-3-6", "", (B67, SN), R, "VB 25.0 set-up 0717"),
    ("vc-514-2", "514/2", "I", "VC", "VC", "3-5-6", "1-3-6", "", (B67, SN), R, "VB 25.0 set-up 0816"),
    # Snoopy's Nose VC order of battle: not given (VB 26.0, G9). Ours: the 514th Local Force and
    # 263rd Main Force battalions of Dinh Tuong (the MRF's opponents of 1967), a local company,
    # and a sapper company. Total attack 33, so the 2d6 roll of VB 26.0 leaves most units hidden.
    ("vc-514-3", "514/3", "I", "VC", "VC", "3-5-6", "1-3-6", "", (SN,), A, ""),
    ("vc-263-1", "263/1", "I", "VC", "VC", "4-5-6", "2-3-6", "", (SN,), A, "263rd Main Force Bn"),
    ("vc-263-2", "263/2", "I", "VC", "VC", "4-5-6", "2-3-6", "", (SN,), A, "263rd Main Force Bn"),
    ("vc-263-3", "263/3", "I", "VC", "VC", "4-5-6", "2-3-6", "", (SN,), A, "263rd Main Force Bn"),
    ("vc-261-1", "261/1", "I", "VC", "VC", "3-4-6", "1-2-6", "", (SN,), A, "261st Main Force Bn"),
    ("vc-261-2", "261/2", "I", "VC", "VC", "3-4-6", "1-2-6", "", (SN,), A, "261st Main Force Bn"),
    ("vc-c212", "C.212", "I", "VC", "VC", "2-3-6", "1-2-6", "", (SN,), A, "Cai Lay local force company"),
    ("vc-c213", "C.213", "I", "VC", "VC", "2-3-6", "1-2-6", "", (SN,), A, "Cai Be local force company"),
    ("vc-c207", "C.207 Sapper", "I", "VC", "VC", "2-2-7", None, "s", (SN,), A, "sappers: special forces (VB 20.0)"),
    # --- US / ARVN, The Boys of '67 (VB 25.0) and Snoopy's Nose (VB 26.0) ---------------------
    ("us-rngr", "Rngr", "II", "US", "ARVN", "2-2-6", "1-1-6", "", (SN,), R, "ARVN Rangers (nationality ours)"),
    ("us-50", "50", "I", "US", "US", "1-1-6", None, "s", (SN,), R, "E/50th Infantry (LRP): one step, special forces (ours)"),
    ("us-2-47-a", "2/47 A", "I", "US", "US", "2-4-5", "1-2-5", "", (SN,), R, ""),
    ("us-2-47-b", "2/47 B", "I", "US", "US", "2-4-5", "1-2-5", "", (SN,), R, ""),
    ("us-2-47-c", "2/47 C", "I", "US", "US", "2-4-5", "1-2-5", "", (SN,), R, ""),
    ("us-seals", "Seals", "I", "US", "US", "1-3-6", None, "s", (SN,), R, "Navy SEALs: one step, special forces (ours)"),
    ("arvn-5", "5", "II", "US", "ARVN", "2-4-5", "1-2-5", "", (SN, IT), R,
     "VB 26.0 '2-4-5 (5)'; VB 27.0 ARVN '5' on the tango at 4223/4323 (one counter, ours)"),
    ("us-3-60-a", "3/60 A", "I", "US", "US", "2-4-5", "1-2-5", "", (SN,), R, ""),
    ("us-3-60-b", "3/60 B", "I", "US", "US", "2-4-5", "1-2-5", "", (SN,), R, ""),
    ("us-3-60-c", "3/60 C", "I", "US", "US", "2-4-5", "1-2-5", "", (SN,), R, ""),
    ("us-4-47-a", "4/47 A", "I", "US", "US", "2-4-5", "1-2-5", "", (SN,), R, ""),
    ("us-4-47-b", "4/47 B", "I", "US", "US", "3-4-5", "1-2-5", "", (B67, SN), R, "VB 25.0 set-up 0615"),
    ("us-4-47-c", "4/47 C", "I", "US", "US", "3-4-5", "1-2-5", "", (B67, SN), R, "VB 25.0 set-up 0616 ('The Boys of '67')"),
    ("us-3-47-a", "3/47 A", "I", "US", "US", "2-4-5", "1-2-5", "", (B67, SN), R, "VB 25.0 set-up 1215 (LZ)"),
    ("us-3-47-b", "3/47 B", "I", "US", "US", "2-4-5", "1-2-5", "", (B67, SN), R, "VB 25.0 set-up 0917 (LZ)"),
    ("us-3-47-c", "3/47 C", "I", "US", "US", "2-4-5", "1-2-5", "", (B67, SN), R, "VB 25.0 set-up 0711 (landing beach)"),
    ("us-dt", "D.T.", "I", "US", "US", "2-2-5", "1-1-5", "", (SN,), R, "Dong Tam base security (ours)"),
    ("us-mon-1", "Monitor", "II", "US", "US", "1-4-11", "0-2-11", "r", (B67, SN, IT), R,
     "VB 25.0 hexside 0717/0718; VB 26.0 '1-4-11 x2'; the Iron Triangle's monitor (ours: one)"),
    ("us-mon-2", "Monitor", "II", "US", "US", "1-4-11", "0-2-11", "r", (SN,), R, "VB 26.0 '1-4-11 x2'"),
    ("us-mon-3", "Monitor", "II", "US", "US", "0-2-12", "0-1-12", "r", (B67, SN), R,
     "VB 25.0 hexside 0712/0811; VB 13.0 'the 0-2-12 monitor'"),
    ("us-mon-4", "Monitor", "II", "US", "US", "0-2-12", "0-1-12", "r", (SN,), R, "VB 26.0 '0-2-12 x2'"),
    ("us-5-60-a", "5/60 A", "I", "US", "US", "3-5-8", "1-3-8", "m", (SN,), R, "mechanized (ours, G11: MA 8)"),
    ("us-5-60-b", "5/60 B", "I", "US", "US", "3-5-8", "1-3-8", "m", (SN,), R, "mechanized (ours)"),
    ("us-5-60-c", "5/60 C", "I", "US", "US", "3-5-8", "1-3-8", "m", (SN,), R, "mechanized (ours)"),
    ("us-1-60-a", "1/60 A", "I", "US", "US", "3-5-8", "1-3-8", "m", (SN,), R, "mechanized (ours)"),
    ("us-1-60-b", "1/60 B", "I", "US", "US", "3-5-8", "1-3-8", "m", (SN,), R, "mechanized (ours)"),
    ("us-1-60-c", "1/60 C", "I", "US", "US", "3-5-8", "1-3-8", "m", (SN,), R, "mechanized (ours)"),
    ("us-5-cav", "5/Cav", "I", "US", "US", "1-2-6", "0-1-6", "m", (B67, SN), R,
     "VB 25.0 '5 Cav/3' set-up 0618 = VB 26.0 '5/Cav'; armoured cavalry, mechanized (ours)"),
    ("arvn-7", "7", "II", "US", "ARVN", "1-1-5", "0-1-5", "", (SN,), R, "ARVN 7th Division element (nationality ours)"),
    ("us-3-39-a", "3/39 A", "I", "US", "US", "2-4-5", "1-2-5", "", (SN,), R, ""),
    ("us-2", "2", "X", "US", "US", "6-12-5", "3-6-5", "", (SN,), R, "2nd Brigade, 9th Division (ours)"),
    ("arvn-3", "3", "II", "US", "ARVN", "2-4-5", "1-2-5", "", (SN,), R, "ARVN/VNMC battalion (nationality ours)"),
    ("us-15-eng", "15", "II", "US", "US", "1-8-4", "0-4-4", "e", (SN,), R, "VB 26.0 engineer at 1606 (15th Engineer Bn)"),
    # --- US, The Iron Triangle (VB 27.0: no strengths printed; all values ours) ----------------
    # Designer's note (VB 27.0): some US reverse sides equal the front; ours: every US infantry
    # battalion of this scenario.
    ("it-65-a", "65/A", "I", "US", "US", "1-6-5", "0-3-5", "e", (IT,), A, "2/25: A Co, 65th Engineer Bn (G12)"),
    ("it-1-2-i", "1/2", "II", "US", "US", "3-4-5", "3-4-5", "", (IT,), A, "2/25 (printed twice, A-27): first"),
    ("it-3-2", "3/2", "II", "US", "US", "3-4-5", "3-4-5", "", (IT,), A, "2/25"),
    ("it-2-2", "2/2", "II", "US", "US", "3-4-5", "3-4-5", "", (IT,), A, "2/25"),
    ("it-1-2-ii", "1/2", "II", "US", "US", "3-4-5", "3-4-5", "", (IT,), A, "2/25 (printed twice, A-27): second"),
    ("it-1-5", "1/5", "II", "US", "US", "4-4-8", "2-2-8", "m", (IT,), A, "2/25: 1st Bn (Mech), 5th Infantry"),
    ("it-196-2-1", "2/1", "II", "US", "US", "3-4-5", "3-4-5", "", (IT,), A, "196th Brigade"),
    ("it-196-3-21", "3/21", "II", "US", "US", "3-4-5", "3-4-5", "", (IT,), A, "196th Brigade"),
    ("it-196-4-31", "4/31", "II", "US", "US", "3-4-5", "3-4-5", "", (IT,), A, "196th Brigade"),
    ("it-196-4-23", "4/23", "II", "US", "US", "4-4-8", "2-2-8", "m", (IT,), A, "196th Brigade (attached mech)"),
    ("it-196-2-22", "2/22", "II", "US", "US", "4-4-8", "2-2-8", "m", (IT,), A, "196th Brigade (attached mech)"),
    ("it-196-f-17", "F/17 Cav", "I", "US", "US", "2-3-8", "1-2-8", "m", (IT,), A, "196th Brigade armoured cavalry"),
    ("it-196-175", "175", "I", "US", "US", "1-5-5", "0-3-5", "e", (IT,), A, "196th Brigade engineer company"),
    ("it-1-26", "1/26", "II", "US", "US", "3-4-5", "3-4-5", "", (IT,), A, "1st Infantry Division (the Ben Suc air assault)"),
    ("it-1-28", "1/28", "II", "US", "US", "3-4-5", "3-4-5", "", (IT,), A, "1st Infantry Division"),
    ("it-2-28", "2/28", "II", "US", "US", "3-4-5", "3-4-5", "", (IT,), A, "1st Infantry Division"),
    ("it-2-16", "2/16", "II", "US", "US", "3-4-5", "3-4-5", "", (IT,), A, "1st Infantry Division"),
    ("it-1-18", "1/18", "II", "US", "US", "3-4-5", "3-4-5", "", (IT,), A, "1st Infantry Division"),
    ("it-1-503", "1/503", "II", "US", "US", "3-4-6", "3-4-6", "", (IT,), A, "173rd Airborne Brigade"),
    ("it-2-503", "2/503", "II", "US", "US", "3-4-6", "3-4-6", "", (IT,), A, "173rd Airborne Brigade"),
    ("it-4-503", "4/503", "II", "US", "US", "3-4-6", "3-4-6", "", (IT,), A, "173rd Airborne Brigade"),
    ("it-1-11", "1/11", "II", "US", "US", "5-5-10", "2-3-10", "m", (IT,), A, "11th Armored Cavalry"),
    ("it-3-11", "3/11", "II", "US", "US", "5-5-10", "2-3-10", "m", (IT,), A, "11th Armored Cavalry"),
    ("it-1-eng", "1 Eng", "II", "US", "US", "1-6-5", "0-3-5", "e", (IT,), A, "1st Engineer Bn (tunnel rats)"),
    # --- VC, The Iron Triangle (not given, G9): Military Region 4 units of the Triangle (ours) ----
    ("vc-phu-loi-1", "Phu Loi/1", "I", "VC", "VC", "3-4-6", "1-2-6", "", (IT,), A, "Phu Loi Bn"),
    ("vc-phu-loi-2", "Phu Loi/2", "I", "VC", "VC", "3-4-6", "1-2-6", "", (IT,), A, "Phu Loi Bn"),
    ("vc-272-1", "272/1", "II", "VC", "VC", "4-5-6", "2-3-6", "", (IT,), A, "272nd Regiment"),
    ("vc-272-2", "272/2", "II", "VC", "VC", "4-5-6", "2-3-6", "", (IT,), A, "272nd Regiment"),
    ("vc-7-cu-chi", "7 Cu Chi", "II", "VC", "VC", "2-3-6", "1-2-6", "", (IT,), A, "Cu Chi local force Bn"),
    ("vc-8-phu-hoa", "8 Phu Hoa", "II", "VC", "VC", "2-3-6", "1-2-6", "", (IT,), A, "Phu Hoa local force Bn"),
    ("vc-c61", "C.61", "I", "VC", "VC", "1-2-6", "0-1-6", "", (IT,), A, "local company"),
    ("vc-c62", "C.62", "I", "VC", "VC", "1-2-6", "0-1-6", "", (IT,), A, "local company"),
    ("vc-mr4", "MR4 HQ", "X", "VC", "VC", "0-2-5", None, "", (IT,), A, "Military Region 4 headquarters"),
    ("vc-d1-sapper", "D.1 Sapper", "I", "VC", "VC", "2-2-7", None, "s", (IT,), A, "sappers: special forces (VB 20.0)"),
]


# Nationality the text states: VB 27.0 "ARVN '5'", VB 26.0 "US 1-8-4 (15)", VB 25.0 background
# "the 3rd and 4th Battalions of the 47th Infantry of the US 9th Division". All others are ours.
NATIONALITY_PRINTED = {"arvn-5", "us-15-eng", "us-3-47-a", "us-3-47-b", "us-3-47-c", "us-4-47-a", "us-4-47-b",
                       "us-4-47-c"}


def _adm(s: str) -> dict[str, int]:
    a, d, m = (int(x) for x in s.split("-"))
    return {"attack": a, "defense": d, "ma": m}


def unit_doc(row: UnitRow) -> tuple[str, dict[str, Any]]:
    uid, des, size, side, nat, front, red, flags, scen, src, note = row
    d: dict[str, Any] = {
        "name": des if flags != "r" else f"Monitor {front}",
        "designation": des,
        "size": size,
        "side": side.lower(),
        "nationality": nat,
        **_adm(front),
        "reduced": _adm(red) if red else None,
        "steps": 2 if red else 1,
        "mech": "m" in flags,
        "monitor": "r" in flags,
        "engineer": "e" in flags,
        "special_forces": "s" in flags,
        "scenarios": list(scen),
        "note": note,
        "source": {
            "front": src,
            "reduced": A,
            "steps": R if "r" in flags else A,        # VB 12.0: monitors have two steps
            "size": A,
            "nationality": R if uid in NATIONALITY_PRINTED or nat == "VC" else A,
            "mech": A,
            "special_forces": A,
            "engineer": R if uid == "us-15-eng" else A,
            "monitor": R if "r" in flags else A,
        },
    }
    return uid, d


# =============================================================================================
# 2. Chits and scenarios
# =============================================================================================
CHITS = {
    "slick": {"count": 7, "source": A, "note": "front: transport; back: Landing Zone (VB 10.0). 7 = the 'up to 7' of VB 27.0 and Snoopy's Nose group C (G10)"},
    "tango": {"count": 3, "source": A, "note": "front: transport; back: Landing Beach (VB 11.0). 3 = Snoopy's Nose group B (G10)"},
    "base_camp": {"count": 5, "source": R, "note": "VB 16.0, 26.0: recorded secretly in jungle hexes"},
    "supply_cache": {"count": 3, "source": R, "note": "VB 16.1, 27.0: placed openly in the Iron Triangle"},
    "b52": {"count": 1, "source": R, "note": "VB 23.0"},
    "support_fire": {"source": A, "note": "marker values '+N' (VB 2.3.2, 8.0); the mix is ours (G8); "
                                          "the same lists as tables.json pools"},
}

SN_T1_GROUPS = [  # digest Part III "most plausible grouping", entries as printed
    ("A", ["us-rngr", "us-50", "us-2-47-a", "us-2-47-b", "us-2-47-c", "us-seals", "arvn-5"], {"kind": "edge", "edge": "east"}),
    ("B", ["us-3-60-a", "us-3-60-b", "us-3-60-c"], {"kind": "tango", "from": ["0734", "0833"]}),
    ("C", ["us-4-47-b", "us-4-47-c", "us-3-47-a", "us-3-47-b", "us-3-47-c", "us-4-47-a", "us-dt"], {"kind": "slick"}),
    ("D", ["us-mon-1", "us-mon-2", "us-mon-3", "us-mon-4"], {"kind": "hex", "hexes": ["0734", "0833"]}),
    ("E", ["us-5-60-a", "us-5-60-b", "us-5-60-c", "us-1-60-a", "us-1-60-b", "us-1-60-c", "us-5-cav"],
     {"kind": "edge", "edge": "east_north_of_mekong"}),
]

IT_2_25 = ["it-65-a", "it-1-2-i", "it-3-2", "it-2-2", "it-1-2-ii", "it-1-5"]
IT_196 = ["it-196-2-1", "it-196-3-21", "it-196-4-31", "it-196-4-23", "it-196-2-22", "it-196-f-17", "it-196-175"]


def scenarios(units: dict[str, dict[str, Any]]) -> dict[str, Any]:
    sn_vc = sorted(u for u, d in units.items() if d["side"] == "vc" and SN in d["scenarios"])
    it_vc = sorted(u for u, d in units.items() if d["side"] == "vc" and IT in d["scenarios"])
    it_other = sorted(u for u, d in units.items() if d["side"] == "us" and IT in d["scenarios"]
                      and u not in IT_2_25 + IT_196 + ["arvn-5", "us-mon-1"])
    return {
        B67: {
            "section": "VB 25.0", "turns": 4, "first_player": "US", "map": "snoopys-nose-map.json", "source": R,
            "setup": [
                {"unit": "vc-514-1", "at": "0717"}, {"unit": "vc-514-2", "at": "0816"},
                {"unit": "us-4-47-c", "at": "0616"}, {"unit": "us-4-47-b", "at": "0615"},
                {"unit": "us-3-47-c", "at": "0711", "chit": "tango", "landed": True},
                {"unit": "us-5-cav", "at": "0618"},
                {"unit": "us-3-47-b", "at": "0917", "chit": "slick", "landed": True},
                {"unit": "us-3-47-a", "at": "1215", "chit": "slick", "landed": True},
                {"unit": "us-mon-1", "at": "0717/0718"}, {"unit": "us-mon-3", "at": "0712/0811"},
            ],
            "reinforcements": [],
        },
        SN: {
            "section": "VB 26.0", "turns": 13, "first_player": "US", "map": "snoopys-nose-map.json",
            "source": R, "vc_order_of_battle_source": A,
            "vc_setup": {"units": sn_vc, "base_camps": 5, "hidden": "2d6 open attack strength (VB 26.0)",
                         "forbidden_region": "vc_setup_forbidden", "hidden_and_camps_region": "jungle"},
            "setup": [{"unit": "us-15-eng", "at": "1606"}],
            "reinforcements": [
                *({"turn": 1, "group": g, "units": us, "entry": entry, "grouping": "digest Part III (A-14)"}
                  for g, us, entry in SN_T1_GROUPS),
                {"turn": 9, "units": ["arvn-7"], "entry": {"kind": "slick"}},
                {"turn": 11, "units": ["us-3-39-a", "us-2", "arvn-3"], "entry": {"kind": "slick"}},
            ],
        },
        IT: {
            "section": "VB 27.0", "turns": 13, "first_player": "US", "map": "iron-triangle-map.json",
            "source": R, "order_of_battle_source": A,
            "vc_setup": {"units": it_vc, "supply_caches": 3, "region": "vc_setup"},
            "setup": [
                {"units": IT_2_25, "region": "setup_2_25", "note": "2nd Brigade, 25th Division"},
                {"units": IT_196, "region": "setup_196", "note": "196th Brigade"},
                {"unit": "us-mon-1", "at": "4223/4323"},
                {"unit": "arvn-5", "at": "4223/4323", "chit": "tango", "landed": False,
                 "note": "on a tango chit; lands in the US turn-1 Movement Phase (A-27)"},
            ],
            "reinforcements": [
                {"turn": 1, "units": it_other, "entry": {"kind": "slick_or_edge", "slick_max": 7,
                                                          "slick_terrain": "clear", "edge": "east"}},
            ],
        },
    }


# =============================================================================================
# 3. Tables
# =============================================================================================
CRT = {
    "source": R,
    "section": "Part IV (CRT)",
    "note": "as printed: each terrain row's differential cells from column C1, left-aligned (IV.2); "
            "differential above +10 uses the row's +10 cell; below a row's first cell C1 (A-1)",
    "row_titles": {"hill": "Hill, Town, CP", "jungle": "Jungle, Swamp", "village": "Village, River, Plantation",
                   "clear": "Clear, Bridge, (Tunnel), (vs. River Flotilla)"},
    "rows": {
        "hill": [[-2], [-1], [0], [1], [2, 3], [4, 5], [6, 7], [8, 9], [10]],
        "jungle": [[-3], [-2], [-1], [0], [1], [2, 3], [4, 5], [6, 7], [8, 9], [10]],
        "village": [[-5], [-4, -3], [-2], [-1], [0], [1], [2, 3], [4, 5], [6, 7], [8, 9], [10]],
        "clear": [[-7], [-6, -5], [-4, -3], [-2], [-1], [0], [1], [2, 3], [4, 5], [6, 7], [8, 9], [10]],
    },
    "shift": {"clear": 0, "village": 1, "jungle": 2, "hill": 3},
    "results": {
        "1": ["(A)", "A3", "A2", "-", "Ex", "Ex", "D2", "D2", "D2", "D3", "De", "De"],
        "2": ["(A)", "(A)", "A3", "A2", "-", "Ex", "Ex", "Ex", "D2", "D2", "D3", "De"],
        "3": ["(A)", "(A)", "(A)", "A3", "A2", "-", "Ex", "Ex", "Ex", "D2", "D2", "D3"],
        "4": ["Ae", "(A)", "(A)", "(A)", "A3", "A2", "-", "Ex", "Ex", "Ex", "D2", "D2"],
        "5": ["Ae", "Ae", "(A)", "(A)", "(A)", "A3", "A2", "-", "Ex", "Ex", "Ex", "D2"],
        "6": ["Ae", "Ae", "Ae", "(A)", "(A)", "(A)", "(A)", "A1", "-", "Ex", "Ex", "Ex"],
    },
    "legend": {
        "De": "Eliminate the defending unit.",
        "D3": "The defending unit retreats 3 hexes (or takes a step loss; 7.8).",
        "D2": "The defending unit retreats 2 hexes (or takes a step loss; 7.8).",
        "Ex": "One attacking unit and the defending unit take a step loss; a unit already reduced is eliminated.",
        "A1": "All attacking units retreat 1 hex (or one unit takes a step loss; 7.8).",
        "A2": "All attacking units retreat 2 hexes (or one unit takes a step loss; 7.8).",
        "A3": "All attacking units retreat 3 hexes (or one unit takes a step loss; 7.8).",
        "(A)": "One attacking unit takes a step loss; a unit already reduced is eliminated.",
        "Ae": "Eliminate all attacking units.",
        "-": "No effect.",
    },
    "printed_note": "If the differential is greater than +10, resolve on the +10 column.",
    "algorithm": {
        "differential": "sum(attack) + sum(attacker support fire) - (sum(defense) + sum(defender support fire)); "
                        "bombardment: sum(bombarding markers) - sum(counter-battery markers) - target defense",
        "row": "the single most favourable terrain for the defender (7.4): the hex's terrain row; the Village row "
               "for a river only if every attacker attacks across an unbridged river hexside; monitors and "
               "bridges the Clear row; tunnels add nothing (A-21); the Mekong adds nothing (19.0)",
        "column": "max(1, clearColumn(d) - shift[row])",
    },
}

# Terrain Effects Chart. The CRT row of each terrain is printed (Part IV row titles); the MP costs
# are on the printed map, not in the text (G4), so they are ours.
TERRAIN = {
    "clear": {"mp": 1, "crt_row": "clear", "prohibited": False, "source": {"mp": R, "crt_row": R},
              "note": "VB 2.3.2, 5.2: a clear hex costs 1 MP; paddy is clear"},
    "jungle": {"mp": 2, "crt_row": "jungle", "prohibited": False, "source": {"mp": A, "crt_row": R},
               "note": "no helicopter pick-up or landing (VB 10.0)"},
    "swamp": {"mp": 2, "crt_row": "jungle", "prohibited": False, "source": {"mp": A, "crt_row": R},
              "note": "the Plain of Reeds"},
    "village": {"mp": 1, "crt_row": "village", "prohibited": False, "source": {"mp": A, "crt_row": R},
                "note": "no B-52 target (VB 23.0); no VC set-up on Snoopy's Nose (VB 26.0)"},
    "plantation": {"mp": 1, "crt_row": "village", "prohibited": False, "source": {"mp": A, "crt_row": R},
                   "note": "rubber"},
    "town": {"mp": 1, "crt_row": "hill", "prohibited": False, "source": {"mp": A, "crt_row": R},
             "note": "no B-52 target (VB 23.0)"},
    "cp": {"mp": 1, "crt_row": "hill", "prohibited": False, "source": {"mp": A, "crt_row": R},
           "note": "the C.P. (checkpoint), hex 1606 of Snoopy's Nose"},
    "hill": {"mp": 2, "crt_row": "hill", "prohibited": False, "source": {"mp": A, "crt_row": R},
             "note": "a CRT row; neither authored map has hills (the ground is flat)"},
    "all_water": {"mp": 0, "crt_row": "clear", "prohibited": True, "source": {"mp": R, "crt_row": R},
                  "note": "all-water Mekong: land units may not enter (VB 5.1, 19.0) except by tango (mp 0 = not "
                          "enterable); monitors pay 1 MP per water space (VB 12.0) and are attacked on the Clear row"},
}
for _t in TERRAIN.values():
    _t["row"] = _t["crt_row"]   # the engine's data.py reads "row"

HEXSIDES = {
    "river": {"mp": 1, "crt_row": "village", "source": {"mp": A, "crt_row": R},
              "note": "added to the hex cost (VB 5.2); the Village row only when every attacker attacks across "
                      "an unbridged river hexside (VB 7.4)"},
    "bridge": {"mp": 0, "crt_row": "clear", "source": {"mp": A, "crt_row": R},
               "note": "a bridged river hexside costs nothing extra; 'Bridge' is in the Clear row (no river benefit)"},
    "road": {"mp_halves": 1, "source": R, "note": "VB 5.2.1: 1/2 MP into a connected road hex, whatever the terrain"},
    "trail": {"mp": 1, "source": R, "note": "VB 5.2.2: 1 MP into a connected trail hex, whatever the terrain"},
    "mekong_split_crossing": {"mp": "all", "source": R, "note": "VB 19.0: all the MA, leg units only unless bridged"},
    "monitor_space": {"mp": 1, "source": R, "note": "VB 12.0: each Mekong hex or river hexside entered"},
}

# Game Turn Record Track: [US, VC] support fire markers per turn (US is the first player in all
# three scenarios, so the printed "first/second" is US/VC). Only Iron Triangle turn 13 = 10/5 is
# printed (VB 24.0); the rest is ours.
GTRT = {
    B67: [[4, 3], [6, 3], [8, 2], [8, 2]],
    SN: [[8, 5]] * 13,
    IT: [[8, 5], [8, 5], [8, 5], [9, 5], [9, 5], [9, 5], [9, 5], [10, 5], [10, 5], [10, 5], [10, 5], [10, 5], [10, 5]],
}
GTRT_SOURCE = {
    B67: [A] * 4,
    SN: [A] * 13,
    IT: [A] * 12 + [R],
}
POOLS = {
    "us": [1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 5, 5],
    "vc": [1, 1, 1, 1, 1, 2, 2, 2, 2, 3],
}


def tables() -> dict[str, Any]:
    return {
        "id": "vb-tables-warlog-1",
        "provenance": "CRT as printed (Part IV); everything marked 'authored' is ours (docs/games/vietnam-battles-data.md)",
        "crt": CRT,
        "terrain_effects": TERRAIN,
        "hexside_effects": HEXSIDES,
        "river_mp": 1,
        "gtrt": GTRT,
        "gtrt_source": GTRT_SOURCE,
        "gtrt_note": "[US, VC] markers per game turn; turns after 13 (VB 24.0) use turn 13's 10/5; the VC number "
                     "drops by 1 per captured base camp or supply cache from the next turn (VB 14.0)",
        "turns": {B67: 4, SN: 13, IT: 13},
        "turns_source": R,
        "pools": POOLS,
        "pools_source": A,
        "slicks": CHITS["slick"]["count"],
        "tangos": CHITS["tango"]["count"],
        "chits_source": A,
    }


def counters() -> dict[str, Any]:
    units = dict(unit_doc(r) for r in UNITS)
    return {
        "id": "vb-counters-warlog-1",
        "provenance": "Unit values printed in VB 25.0/26.0 are 'rulebook'; reduced sides, sizes, flags, the VC orders "
                      "of battle and the whole Iron Triangle order of battle are ours ('authored'). An owner of the "
                      "printed counter sheet may replace this file with a transcription in the same schema.",
        "units": units,
        "chits": {**CHITS, "support_fire": {**CHITS["support_fire"], "values": POOLS}},
        "scenarios": scenarios(units),
    }


def render(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


OUTPUTS = {"counters.json": counters, "tables.json": tables}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    bad = 0
    for name, fn in OUTPUTS.items():
        text = render(fn())
        path = DATA / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"{path} is not what tools/vb_author_data.py writes", file=sys.stderr)
                bad = 1
        else:
            path.write_text(text, encoding="utf-8")
    return bad


if __name__ == "__main__":
    sys.exit(main())
