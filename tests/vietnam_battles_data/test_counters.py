"""counters.json against the rules digest: every unit the scenarios list (Part III, parsed from
the markdown tables) exists with the printed attack-defense-movement, in its scenario; printed
values are marked "rulebook", the rest "authored"; the scenario set-ups name real units and hexes."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tests.vietnam_battles_data.vb_data_helpers import digest_section, iron, load, snoopy

COUNTERS = load("counters.json")
UNITS = COUNTERS["units"]
UNIT_RE = re.compile(r"(\d+-\d+-\d+)\s*(?:\(([^)]*)\))?\s*(?:[×x]\s*(\d+))?")
# VB 25.0 calls the cavalry troop "5 Cav/3"; VB 26.0 "5/Cav" (the same counter, Part VIII).
ALIASES = {"5 Cav/3": "5/Cav"}


def printed_units(section: str) -> list[tuple[str, str, int]]:
    """(values, designation or 'Monitor'/'', count) for each unit row of the section's tables."""
    out = []
    for line in section.splitlines():
        if not line.startswith("|"):
            continue
        for cell in [c.strip() for c in line.strip().strip("|").split("|")]:
            m = UNIT_RE.fullmatch(cell.replace("*", "").split("*")[0].strip()) or \
                UNIT_RE.match(cell.replace("*", "").strip())
            if m and re.fullmatch(r"\d+-\d+-\d+.*", cell.replace("*", "").strip()):
                des = ALIASES.get(m.group(2) or "", m.group(2) or "")
                out.append((m.group(1), des, int(m.group(3) or 1)))
                break
    return out


def values(u: dict) -> str:
    return f"{u['attack']}-{u['defense']}-{u['ma']}"


def find(scen: str, vals: str, des: str) -> list[str]:
    return sorted(uid for uid, u in UNITS.items() if scen in u["scenarios"] and values(u) == vals
                  and (u["monitor"] if des in ("Monitor", "") else u["designation"] == des))


def check_section(scen: str, section: str, expected_rows: int) -> None:
    rows = printed_units(section)
    assert len(rows) == expected_rows, rows
    need: Counter[tuple[str, str]] = Counter()
    for vals, des, n in rows:
        need[(vals, des)] += n
    for (vals, des), n in need.items():
        ids = find(scen, vals, des)
        assert len(ids) >= n, (scen, vals, des, ids)
        for uid in ids:
            assert UNITS[uid]["source"]["front"] == "rulebook", uid


def test_boys67_units() -> None:
    sec = digest_section("## 25.0 The Boys of '67", "### Victory conditions (25.0)")
    check_section("boys67", sec, 10)


def test_snoopys_nose_units() -> None:
    sec = digest_section("#### Game Turn 1 reinforcements — as printed", "#### Game Turn 1 reinforcements — most plausible")
    check_section("snoopys_nose", sec, 26)
    later = digest_section("#### Game Turn 9 reinforcements", "### Victory conditions (26.0)")
    check_section("snoopys_nose", later, 4)
    eng = [u for u in UNITS.values() if u["engineer"] and "snoopys_nose" in u["scenarios"]]
    assert [values(u) for u in eng] == ["1-8-4"] and eng[0]["designation"] == "15"   # VB 26.0
    # VB 26.0 "1-4-11 x2", "0-2-12 x2": four monitors
    mons = Counter(values(u) for u in UNITS.values() if u["monitor"] and "snoopys_nose" in u["scenarios"])
    assert mons == Counter({"1-4-11": 2, "0-2-12": 2})


def test_iron_triangle_units() -> None:
    it = {uid: u for uid, u in UNITS.items() if "iron_triangle" in u["scenarios"]}
    setup = COUNTERS["scenarios"]["iron_triangle"]["setup"]
    b225 = next(s["units"] for s in setup if s.get("region") == "setup_2_25")
    b196 = next(s["units"] for s in setup if s.get("region") == "setup_196")
    # VB 27.0: "65/A, 1/2, 3/2, 2/2, 1/2, 1/5" (1/2 twice, A-27) and 7 units of the 196th
    assert Counter(UNITS[u]["designation"] for u in b225) == Counter(["65/A", "1/2", "3/2", "2/2", "1/2", "1/5"])
    assert len(b196) == 7 and len(set(b225) | set(b196)) == 13
    assert UNITS["arvn-5"]["nationality"] == "ARVN" and UNITS["arvn-5"]["source"]["nationality"] == "rulebook"
    assert any(u["monitor"] for u in it.values())
    vc = [u for u in it.values() if u["side"] == "vc"]
    assert len(vc) >= 6 and all(u["source"]["front"] == "authored" for u in vc)   # G9: not given
    others = COUNTERS["scenarios"]["iron_triangle"]["reinforcements"][0]["units"]
    legs = [u for u in others if not UNITS[u]["mech"] and not UNITS[u]["monitor"]]
    assert len(legs) >= 7   # "up to 7 US non-mechanized units" by slick (VB 27.0)


def test_snoopys_nose_vc_order_of_battle() -> None:
    vc = [u for u in UNITS.values() if u["side"] == "vc" and "snoopys_nose" in u["scenarios"]]
    assert len(vc) >= 6
    # VB 26.0: the 2d6 roll (2-12) of attack strength placed openly leaves units to hide
    assert sum(u["attack"] for u in vc) > 12


@pytest.mark.parametrize("uid", sorted(UNITS))
def test_unit_record(uid: str) -> None:
    u = UNITS[uid]
    assert u["side"] in ("us", "vc") and u["nationality"] in ("US", "ARVN", "VC")
    assert (u["side"] == "vc") == (u["nationality"] == "VC")
    assert u["size"] in ("I", "II", "III", "X")
    assert u["steps"] == (2 if u["reduced"] else 1)
    if u["reduced"]:
        r = u["reduced"]
        assert r["attack"] <= u["attack"] and r["defense"] <= u["defense"] and r["ma"] == u["ma"]
    if u["monitor"]:
        assert u["steps"] == 2 and not u["mech"]   # VB 12.0
    assert u["scenarios"] and set(u["scenarios"]) <= {"boys67", "snoopys_nose", "iron_triangle"}
    assert set(u["source"].values()) <= {"rulebook", "authored"}


def test_scenario_setups_name_real_units_and_places() -> None:
    sn, it = snoopy(), iron()
    b67 = COUNTERS["scenarios"]["boys67"]
    at = {s["unit"]: s["at"] for s in b67["setup"]}
    # VB 25.0 as printed
    assert at == {"vc-514-1": "0717", "vc-514-2": "0816", "us-4-47-c": "0616", "us-4-47-b": "0615",
                  "us-3-47-c": "0711", "us-5-cav": "0618", "us-3-47-b": "0917", "us-3-47-a": "1215",
                  "us-mon-1": "0717/0718", "us-mon-3": "0712/0811"}
    for uid, where in at.items():
        assert "boys67" in UNITS[uid]["scenarios"]
        assert (where in sn["hexsides"]) if "/" in where else (where in sn["hexes"]), where
    assert values(UNITS["us-mon-1"]) == "1-4-11" and values(UNITS["us-mon-3"]) == "0-2-12"
    for scen in ("snoopys_nose", "iron_triangle"):
        doc = COUNTERS["scenarios"][scen]
        ids = [s["unit"] for s in doc["setup"] if "unit" in s] + [u for s in doc["setup"] for u in s.get("units", [])]
        ids += [u for r in doc["reinforcements"] for u in r["units"]] + doc["vc_setup"]["units"]
        assert len(ids) == len(set(ids)), scen
        assert set(ids) == {uid for uid, u in UNITS.items() if scen in u["scenarios"]}, scen
    m = it
    for s in COUNTERS["scenarios"]["iron_triangle"]["setup"]:
        if "region" in s:
            assert s["region"] in m["regions"]
        else:
            assert s["at"] == "4223/4323" and s["at"] in m["hexsides"]
    assert COUNTERS["chits"]["base_camp"]["count"] == 5 and COUNTERS["chits"]["supply_cache"]["count"] == 3
    assert COUNTERS["chits"]["b52"]["count"] == 1


def test_support_fire_markers_match_the_pools() -> None:
    assert COUNTERS["chits"]["support_fire"]["values"] == load("tables.json")["pools"]
    assert COUNTERS["chits"]["slick"]["count"] == load("tables.json")["slicks"]
    assert COUNTERS["chits"]["tango"]["count"] == load("tables.json")["tangos"]


def test_units_against_the_seed() -> None:
    """The Japanese seed wins where it and the digest disagree: every unit line of its scenarios
    (25.0 Boys of '67 lines 669-685, 26.0 Snoopy's Nose from 1-8-4 on) has its counters."""
    from tests.vietnam_battles_data.vb_data_helpers import SEED

    text = SEED.read_text(encoding="utf-8")
    heads = [text.index(f"\n{h}") for h in ("25.0 THE BOYS OF '67 (", "26.0 SNOOPY'S NOSE\n", "27.0 THE IRON TRIANGLE\n")]
    boys, snoopy_ = text[heads[0]:heads[1]], text[heads[1]:heads[2]]   # the scenarios, not the contents
    line = re.compile(r"^(\d+-\d+-\d+)\s*(?:\(([^)]*)\))?\s*(?:×(\d+)\s*個)?", re.M)
    for scen, sec, n_lines in (("boys67", boys, 10), ("snoopys_nose", snoopy_, 30)):
        found = line.findall(sec)
        assert len(found) == n_lines, (scen, found)
        need: Counter[tuple[str, str]] = Counter()
        for vals, des, times in found:
            need[(vals, ALIASES.get(des, des) if des != "Monitor" else "")] += int(times or 1)
        for (vals, des), n in need.items():
            assert len(find(scen, vals, des)) >= n, (scen, vals, des)
    assert "1-8-4 (15)" in snoopy_ and values(UNITS["us-15-eng"]) == "1-8-4"
