"""tables.json against the rules digest: the CRT equals Part IV as printed (parsed from the
markdown table), the terrain effects chart's CRT rows are the printed row titles, the turn track
has the printed turn 13 = 10/5 and the scenario lengths, and every value says where it comes from."""

from __future__ import annotations

import re

import pytest

from tests.vietnam_battles_data.vb_data_helpers import digest_section, load

TABLES = load("tables.json")
ROW_KEYS = {"Hill, Town, CP": "hill", "Jungle, Swamp": "jungle", "Village, River, Plantation": "village",
            "Clear, Bridge, (Tunnel), (vs. River Flotilla)": "clear"}


def parse_part_iv() -> tuple[dict[str, list[list[int]]], dict[str, list[str]], dict[str, str]]:
    """The markdown table of IV.1: terrain rows (differential cells), die rows, and the legend."""
    sec = digest_section("## IV.1 The table as printed", "## IV.2")
    rows: dict[str, list[list[int]]] = {}
    dice: dict[str, list[str]] = {}
    legend: dict[str, str] = {}
    for line in sec.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        head = cells[0].strip("*")
        if head in ROW_KEYS:
            rows[ROW_KEYS[head]] = [[int(x) for x in c.replace("+", "").split(",")] for c in cells[1:] if c != "·"]
        elif re.fullmatch(r"\d", head):
            dice[head] = cells[1:]
        elif len(cells) == 2 and head not in ("Code", "---"):
            legend[head] = cells[1]
    return rows, dice, legend


def test_crt_rows_equal_part_iv() -> None:
    rows, dice, legend = parse_part_iv()
    assert set(rows) == {"hill", "jungle", "village", "clear"} and len(dice) == 6
    assert TABLES["crt"]["rows"] == rows
    assert TABLES["crt"]["results"] == dice
    assert all(len(v) == 12 for v in dice.values())
    assert set(TABLES["crt"]["legend"]) == set(legend)
    assert TABLES["crt"]["row_titles"] == {v: k for k, v in ROW_KEYS.items()}
    assert TABLES["crt"]["source"] == "rulebook"


def test_crt_shift_reproduces_every_printed_cell() -> None:
    """IV.3: column = clearCol(d) - shift, as the digest proves for reading (a)."""
    crt = TABLES["crt"]
    clear = crt["rows"]["clear"]

    def clear_col(d: int) -> int:
        d = max(-7, min(10, d))
        return next(i + 1 for i, cell in enumerate(clear) if d in cell)

    for row, cells in crt["rows"].items():
        for i, cell in enumerate(cells):
            for d in cell:
                assert max(1, clear_col(d) - crt["shift"][row]) == i + 1, (row, d)


def test_terrain_effects_rows_are_the_printed_rows() -> None:
    te = TABLES["terrain_effects"]
    expect = {"hill": "hill", "town": "hill", "cp": "hill", "jungle": "jungle", "swamp": "jungle",
              "village": "village", "plantation": "village", "clear": "clear"}
    for t, row in expect.items():
        assert te[t]["crt_row"] == row and te[t]["row"] == row and te[t]["source"]["crt_row"] == "rulebook", t
    assert te["clear"]["mp"] == 1 and te["clear"]["source"]["mp"] == "rulebook"   # VB 2.3.2
    assert te["all_water"]["prohibited"] and not any(te[t]["prohibited"] for t in expect)
    for t, d in te.items():
        assert isinstance(d["mp"], int) and d["mp"] >= (0 if d["prohibited"] else 1), t
        assert set(d["source"].values()) <= {"rulebook", "authored"}, t
    hs = TABLES["hexside_effects"]
    assert hs["river"]["crt_row"] == "village" and hs["bridge"]["crt_row"] == "clear"
    assert TABLES["river_mp"] == hs["river"]["mp"] >= 1


def test_turn_track() -> None:
    gtrt, src = TABLES["gtrt"], TABLES["gtrt_source"]
    summary = digest_section("## Scenario summary", "## 25.0")
    assert "Game turns 1–4" in summary and summary.count("Game turns 1–13") == 2
    assert TABLES["turns"] == {"boys67": 4, "snoopys_nose": 13, "iron_triangle": 13}
    for scen, n in TABLES["turns"].items():
        assert len(gtrt[scen]) == n == len(src[scen]), scen
        assert all(len(t) == 2 and t[0] >= 0 and t[1] >= 0 for t in gtrt[scen])
    # VB 24.0: "the support fire allotment of game turn 13, 10/5 (US 10, VC 5)"
    assert "10/5" in digest_section("## 24.0", "# PART III")
    assert gtrt["iron_triangle"][12] == [10, 5] and src["iron_triangle"][12] == "rulebook"
    assert src["iron_triangle"][:12] == ["authored"] * 12
    assert set(src["boys67"]) == set(src["snoopys_nose"]) == {"authored"}


def test_pools_and_chits() -> None:
    pools = TABLES["pools"]
    assert set(pools) == {"us", "vc"} and all(v >= 1 for p in pools.values() for v in p)
    # the VC allotment must be able to fall by 5 base camps (VB 14.0, 26.0)
    assert max(t[1] for t in TABLES["gtrt"]["snoopys_nose"]) >= 5
    assert TABLES["slicks"] >= 7 and TABLES["tangos"] >= 3   # Part VIII G10
    assert TABLES["pools_source"] == TABLES["chits_source"] == "authored"


@pytest.mark.parametrize("scen", ["boys67", "snoopys_nose", "iron_triangle"])
def test_pool_covers_the_allotment(scen: str) -> None:
    """VB 14.1 lapses when the allotment reaches the pool; the authored pools are bigger."""
    for us, vc in TABLES["gtrt"][scen]:
        assert us <= len(TABLES["pools"]["us"]) and vc <= len(TABLES["pools"]["vc"])


def test_crt_equals_the_seed() -> None:
    """The seed's own tab-separated CRT (it wins over the digest): rows and die results."""
    from tests.vietnam_battles_data.vb_data_helpers import SEED

    text = SEED.read_text(encoding="utf-8")
    block = text[text.rindex("戦闘結果表"):]
    rows = {"丘、町、CP": "hill", "ジャングル、湿地": "jungle", "村、川、農園": "village",
            "平地、橋、(トンネル)、(対河川艦隊)": "clear"}
    seen = set()
    for line in block.splitlines():
        cells = [c for c in line.split("\t") if c.strip()]
        if not cells:
            continue
        if cells[0] in rows:
            key = rows[cells[0]]
            assert TABLES["crt"]["rows"][key] == [[int(x) for x in c.replace("+", "").split(",")] for c in cells[1:]], key
            seen.add(key)
        elif re.fullmatch(r"[1-6]", cells[0]) and len(cells) == 13:
            assert TABLES["crt"]["results"][cells[0]] == cells[1:], cells[0]
            seen.add(cells[0])
    assert seen == set(rows.values()) | {"1", "2", "3", "4", "5", "6"}
