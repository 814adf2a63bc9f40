"""The shipped board, counters and demo scenario against the rulebook excerpts (tests/lock_n_load/fixtures/).

The excerpts are verbatim copies of the Japanese seed (the seed wins); values the rulebook gives
must be in the data exactly, the rest is ours (docs/games/lock-n-load-data.md).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from rules.lock_n_load.data import load_world

FIX = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[2]
JA = {"木造建物": "wooden_building", "竹小屋": "bamboo_hut", "密ジャングル": "dense_jungle", "疎ジャングル": "light_jungle",
      "藪": "brush", "草原": "grass", "水田": "paddy", "平地": "open"}
KIND = {"遮断": "blocking", "妨害": "degrading", "開放": "open"}
HEIGHT = {"レベル1": 1, "レベル2": 2, "ゼロ": 0}


def tec_rows() -> list[list[str]]:
    lines = (FIX / "tec_ja.txt").read_text(encoding="utf-8").splitlines()
    return [ln.split("\t") for ln in lines if "\t" in ln and not ln.startswith("地形\t")]


def test_tv35_t3_every_tec_row_matches_the_chart_and_its_example_hex() -> None:
    w = load_world()
    seen = set()
    for cells in tec_rows():
        name = cells[0]
        if name in JA:
            t = JA[name]
            seen.add(t)
            row = w.tec[t]
            assert row["kind"] == KIND[cells[1]], name
            assert row["mp"] == int(cells[2]), name
            assert row["tm"] == int(re.match(r"\+?(\d+)", cells[3]).group(1)), name  # type: ignore[union-attr]
            assert row["height"] == HEIGHT[cells[5]], name
            example = cells[6].strip()
            assert w.terrain(example) == t and w.level(example) == 0, f"{example} must be {t}"
        elif name == "道路":
            assert w.hexes[cells[6].strip()].get("road") and w.terrain("1H5") == "open"
        elif name == "丘":
            assert w.level(cells[6].strip()) >= 1  # T3: 1D5 is a hill
    assert seen == set(JA.values())


def test_t3_national_target_modifiers_13_1_13_2() -> None:
    w = load_world()
    cells = {c[0]: c for c in tec_rows()}
    assert "NVA と VC は+3" in cells["密ジャングル"][3] and w.tec["dense_jungle"]["tm_by"] == {"NVA": 3, "VC": 3}
    assert "VC は+2" in cells["疎ジャングル"][3] and w.tec["light_jungle"]["tm_by"] == {"VC": 2}


def test_tv1_1_4_1f5_is_a_ground_level_brush_hex() -> None:
    text = (FIX / "los_examples_ja.txt").read_text(encoding="utf-8")
    assert "1F5 は地上レベルの藪ヘックス" in text
    w = load_world()
    assert w.terrain("1F5") == "brush" and w.level("1F5") == 0


def test_board_1_every_hex_has_terrain_and_level_and_the_slivers_of_10_1_10_3() -> None:
    w = load_world()
    assert sorted(w.hexes) == sorted(w.board.hexes())
    for h, e in w.hexes.items():
        assert e["terrain"] in w.tec and e["level"] in (0, 1, 2), h
        assert e["source"] in ("rulebook", "authored")
    text = (FIX / "los_examples_ja.txt").read_text(encoding="utf-8")
    by_side = {s["hexside"]: s for s in w.slivers}
    for a, b in (("1M4", "1L4"), ("1C4", "1C3")):
        assert f"{a} から {b}" in text
        s = by_side["/".join(sorted((a, b)))]
        assert s["from"] == a and w.terrain(a) == "open" and s["terrain"] == "light_jungle"
    for side in w.hexsides:
        a, b = side.split("/")
        assert w.board.adjacent(a, b)


def test_counters_13_3_13_4_reductions_and_8_0_m60_firepower() -> None:
    w = load_world()
    red = {k.designation + " " + k.nationality: w.kinds[k.reduces_to].designation
           for k in w.kinds.values() if k.reduces_to}
    assert red["3-6-4 USMC"] == "2-5-4" and red["2-6-4 USMC"] == "1-5-4"
    assert red["2-4-4 ARVN"] == "1-3-4" and red["1-4-4 ARVN"] == "0-3-4"
    marine = w.kinds["usmc-sq-364"]
    assert marine.morale[1] > marine.morale[0]  # 13.3: full Marine squads are steadier shaken
    assert 3 * marine.fp + w.sws["m60"].fp == 11  # TV13: three 3-6-4 and an M-60 melee with 11
    assert [w.kinds[k].fp for k in ("nva-sq-254", "vc-sq-143", "vc-hs-033")] == [2, 1, 0]
    assert {n: w.nations[n]["smoke"] for n in ("US", "NVA", "VC", "ARVN")} == {"US": 3, "NVA": 2, "VC": 1, "ARVN": 1}
    smoke = (FIX / "tables_ja.txt").read_text(encoding="utf-8")
    assert "合衆国軍:3" in smoke and "北ベトナム軍:2" in smoke and "南ベトナム解放戦線:1" in smoke


def test_demo_scenario_units_exist_set_up_in_their_areas_within_stacking_1_3() -> None:
    w = load_world()
    sc = w.scenarios["demo"]
    for side, units in sc["units"].items():
        area = set(sc["sides"][side]["setup_area"])
        stacks: dict[str, list[str]] = {}
        for u in units:
            k = w.kinds[u["kind"]]
            assert w.side_of(k.nationality) == side
            if u["at"] is None:
                assert k.cls == "sniper"  # 11.4: off the map until placed
                continue
            assert u["at"] in area, u
            stacks.setdefault(u["at"], []).append(u["kind"])
        for h, kinds in stacks.items():
            assert sum(w.kinds[k].squad_equivalent2 for k in kinds) <= 6, h
            assert sum(1 for k in kinds if w.kinds[k].is_smc) <= 2, h
    for m in sc["event_markers"]:
        assert w.board.is_hex(m["hex"]) and m["type"] in ("occupation", "los") and m["paragraph"]


def test_data_files_are_what_the_tool_writes() -> None:
    r = subprocess.run([sys.executable, str(REPO / "tools" / "lnl_author_data.py"), "--check"], capture_output=True)
    assert r.returncode == 0, r.stderr.decode()
