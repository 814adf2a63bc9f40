"""The shipped data: map, counter mix and tables (GAP-1..GAP-10 authored; rulebook values kept)."""

from __future__ import annotations

import pytest

from rules.green_beret_vietnam.data import TERRAINS, load_world, read_data

W = load_world()

# What terrain makes sense for each mission (7.0 table hexes; AUTHORED map, GAP-2).
SENSIBLE: dict[str, tuple[set[str], str | None]] = {
    "Assassinate Potentate": ({"village"}, None),
    "Befriend Locals": ({"village"}, None),
    "Bribe Potentate": ({"village"}, None),
    "Broadcast Signal": ({"mountain"}, None),
    "Capture Equipment": ({"grassland", "coast", "airfield"}, "road"),
    "Create Diversion": ({"jungle", "grassland"}, None),
    "De-mine": ({"grassland", "coast", "jungle"}, "road"),
    "Demolish Infrastructure": ({"stream"}, "bridge"),
    "Destroy Supplies": ({"jungle"}, None),
    "Detect Enemy Location": ({"jungle_mountain", "mountain"}, None),
    "Drop-off Agent": ({"grassland", "village"}, None),
    "Establish Landing Zone": ({"grassland"}, None),
    "Gather Intel": ({"jungle"}, None),
    "Harass": ({"jungle"}, None),
    "Interdict": ({"jungle", "grassland"}, "road"),
    "Jam Enemy Signal": ({"mountain"}, None),
    "Kill Double-Agent": ({"village"}, None),
    "Pre-Position Site": ({"jungle_mountain"}, None),
    "Raid (Burn Camp)": ({"jungle", "village"}, None),
    "Raid (Hit and Run)": ({"jungle"}, None),
    "Recruit Locals": ({"village"}, None),
    "Rescue Prisoner of War": ({"jungle"}, None),
    "Re-supply": ({"grassland"}, None),
    "Sabotage": ({"jungle", "stream"}, "road"),
    "Scout Location": ({"jungle", "grassland", "mountain"}, None),
    "Seize Airfield": ({"airfield"}, None),
    "Set-up Ambush": ({"jungle"}, "road"),
    "Subvert Agent": ({"village"}, None),
    "Test Enemy Defenses": ({"jungle"}, None),
    "Train the New Guys": ({"grassland"}, None),
}


def test_grid_is_at_least_26_by_36_in_ccrr_numbering() -> None:
    assert W.grid.cols >= 26 and W.grid.rows >= 36
    assert len(W.hexes) == W.grid.cols * W.grid.rows
    assert "0101" in W.hexes and "2636" in W.hexes and W.grid.parse("1418") == (14, 18)


def test_every_mission_table_hex_exists_on_sensible_terrain() -> None:
    assert len(W.missions) == 30
    hexes = set()
    for m in W.missions.values():
        terrains, feature = SENSIBLE[m.name]
        for h in m.placement:
            hexes.add(h)
            hx = W.hexes[h]
            assert hx.terrain in terrains, (m.name, h, hx.terrain)
            assert not hx.full_water
            if feature:
                assert feature in hx.features, (m.name, h, hx.features)
    assert len(hexes) == 85  # 90 entries, 85 distinct hexes (digest 7.0 observations)


def test_every_terrain_and_feature_is_on_the_map() -> None:
    seen = {h.terrain for h in W.hexes.values()}
    assert seen == set(TERRAINS)
    feats = {f for h in W.hexes.values() for f in h.features}
    assert feats == {"road", "bridge", "destroyed_bridge"}


def test_streams_flow_in_chains_to_water() -> None:
    for h, hx in W.hexes.items():
        if hx.stream:
            assert any(W.hexes[n].water for n in W.neighbours(h)), h


def test_bridges_are_roads_over_streams() -> None:
    for h, hx in W.hexes.items():
        if hx.stream and hx.road:
            assert hx.bridge, h
        if hx.bridge:
            assert hx.stream and hx.road, h


def test_coast_is_land_next_to_the_sea() -> None:
    coast = [h for h, x in W.hexes.items() if x.terrain == "coast"]
    assert coast
    for h in coast:
        assert any(W.hexes[n].full_water for n in W.neighbours(h))


def test_terrain_chart_keeps_every_value_the_text_states() -> None:
    t = read_data("tables.json")
    chart, feats = t["terrain"], t["features"]
    assert chart["jungle"]["mp"] == 2 and chart["mountain"]["mp"] == 2 and chart["stream"]["mp"] == 2  # 10.1, 11.1
    assert chart["jungle"]["combat"] == -20 and chart["grassland"]["combat"] == 0  # 13.0 example, 13.5
    noise = {k: v["noise"] for k, v in chart.items()} | {k: v["noise"] for k, v in feats.items()}
    assert noise == {"road": 3, "village": 2, "bridge": 2, "jungle": 1, "jungle_mountain": 1, "rice_paddy": 1,
                     "mountain": 0, "grassland": 0, "airfield": 0, "coast": 0, "full_water": 0, "stream": -1,
                     "destroyed_bridge": -1}  # 12.1, transcribed exactly
    assert t["water_mp"] == 1 and t["start_pp"] == 100 and t["coast_bonus"] == {"pp": 10, "within": 4}
    assert all(v["combat"] <= 0 for v in chart.values())  # "usually negative" (13.0 step 3)


def test_multi_terrain_hex_pays_only_the_highest() -> None:
    """10.7: a bridge hex (stream 2, road 1, bridge 1) costs 2, not 4."""
    bridge = next(h for h in W.hexes.values() if h.bridge)
    assert bridge.mp == 2
    assert bridge.noise == 3  # AMBIG-25: the highest noise (road +3)
    assert bridge.combat == -10  # AMBIG-25: the penalty most favourable to the defender


def test_counters_keep_the_rulebook_values() -> None:
    by_kind = {c.kind: c for c in W.counters.values()}
    truck, h34, h36 = by_kind["truck"], by_kind["h-34"], by_kind["h-36"]
    assert (truck.ma, truck.noise, truck.capacity, truck.plus) == (6, 5, 5, True)
    assert (h34.ma, h34.noise, h34.capacity) == (25, 10, 10)
    assert h36.ma == 25
    assert by_kind["m2"].ma == -3 and by_kind["lmg"].fp == 3 and by_kind["ac-47"].fp == 15
    assert by_kind["officer"].fp == 1
    assert (by_kind["a-team"].cost, by_kind["b-team"].cost, by_kind["commander"].cost, by_kind["officer"].cost) == (
        20, 15, 8, 4)
    assert by_kind["a-team"].ma == 4 and by_kind["b-team"].fp == 2
    assert by_kind["a-team"].capacity == 6 and by_kind["commander"].capacity == 1
    assert by_kind["commander"].noise == 1 and by_kind["officer"].noise == 1
    assert not by_kind["jeep"].black and not by_kind["animals"].black and by_kind["commander"].black
    assert {c.kind for c in W.counters.values() if c.anti_tank} == {"b40", "m18", "m67", "m72"}
    assert all(by_kind[k].blue for k in ("raft", "scuba", "pbr")) and by_kind["pbr"].water_only
    assert sum(1 for c in W.counters.values() if c.kind == "pbr") == 2
    assert len(W.camp_ids) == 2
    free = sorted(c.kind for c in W.counters.values() if c.free)
    assert free == ["a-team", "b-team", "commander", "officer"]  # 3.2, 3.3, AMBIG-5


def test_every_item_a_mission_needs_exists() -> None:
    kinds = {c.kind for c in W.counters.values()}
    for m in W.missions.values():
        for group in m.requires:
            assert set(group) <= kinds
    gather = next(m for m in W.missions.values() if m.name == "Gather Intel")
    assert gather.requires == (("night-vision",),)  # the Night Scope erratum (6.1)


def test_damage_markers_and_enemies() -> None:
    assert len(W.damage) == 16
    kills = sorted(d.kills for d in W.damage.values() if d.kills)
    assert set(kills) == {"commander", "officer"}
    assert any(d.ma < 0 for d in W.damage.values())  # 13.1 designer's note
    assert any(e.circled for e in W.enemies.values()) and any(e.ma == 0 for e in W.enemies.values())
    assert any(e.fp == 10 for e in W.enemies.values())  # 13.5


def test_camp_hexes_keep_away_from_villages_airfields_and_water() -> None:
    for h in W.camp_hexes:
        for x in (h,) + W.neighbours(h):
            assert W.hexes[x].terrain not in ("village", "airfield", "full_water")
    assert set(W.pbr_hexes) == {h for h, x in W.hexes.items() if x.full_water}
    assert any(h in W.coastal for h in W.camp_hexes) and any(h not in W.coastal for h in W.camp_hexes)


@pytest.mark.parametrize("net,level", [(-3, "Court-martial"), (0, "Court-martial"), (2, "Demotion"),
                                       (4, "Reassignment"), (6, "Insufficient record"), (8, "Sufficient record"),
                                       (10, "Commendation"), (14, "Promotion"), (20, "Decorated"),
                                       (27, "Decorated and promoted"), (29, "National hero"),
                                       (30, "Medal of Honor")])
def test_victory_levels(net: int, level: str) -> None:
    assert W.level(net).name == level


def test_docs_list_every_reading_and_every_counter() -> None:
    """docs/games: every AMBIG-1..50 and GAP-1..23 has its numbered reading; every counter kind, enemy
    kind and damage marker of the data appears in the provenance document."""
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "games"
    rules = (docs / "green-beret-vietnam.md").read_text(encoding="utf-8")
    amb = rules.split("Ambiguities (digest Part F)")[1].split("Gaps (digest Part E)")[0]
    gaps = rules.split("Gaps (digest Part E)")[1].split("## 10.")[0]
    for n in range(1, 51):
        assert f"\n{n}. " in amb, f"AMBIG-{n} has no reading in the docs"
    for n in range(1, 24):
        assert f"\n{n}. " in gaps, f"GAP-{n} has no reading in the docs"
    data = (docs / "green-beret-vietnam-data.md").read_text(encoding="utf-8")
    doc = read_data("counters.json")
    for x in doc["items"] + doc["enemies"]:
        assert f"(`{x['kind']}`)" in data, x["kind"]
    for x in doc["damage"] + doc["teams"] + doc["leaders"]:
        assert f"| {x['name']} |" in data, x["name"]
    for m in W.missions.values():
        assert f"| {m.name} |" in data
