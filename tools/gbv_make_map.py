"""Author the Green Beret: Vietnam map (rules/green_beret_vietnam/data/map.json).

The printed map is not in the seed (GAP-1, GAP-2): this script draws an authored 26 x 36 map
in the rulebook's CCRR numbering, flat-topped hexes with the even columns shifted down, so that
every hex the Mission Placement Table names exists and lies on terrain where its mission makes
sense (villages for the potentates and locals, airfields for Seize Airfield, bridges for
Demolish Infrastructure, roads for De-mine / Interdict / Ambush / Sabotage / Capture Equipment,
mountains for the signal missions...). Re-run it to regenerate the file; it is deterministic:

    .venv/bin/python tools/gbv_make_map.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.core.hexgrid import HexGrid  # noqa: E402

GRID = HexGrid(1, 1, 26, 36, "even")
OUT = Path(__file__).resolve().parents[1] / "rules" / "green_beret_vietnam" / "data" / "map.json"

# Primary terrain of each mission hex (the test tests/green_beret_vietnam/test_data.py checks these make sense).
MISSION_TERRAIN = {
    # villages: potentates, locals, double agent, agents
    "2636": "village", "1221": "village", "1031": "village", "1711": "village", "1829": "village",
    "0636": "village", "0413": "village", "1307": "village", "1011": "village", "2429": "village",
    "0421": "village", "0528": "village", "1435": "village", "0217": "village",
    # airfields
    "0133": "airfield", "2134": "airfield", "2513": "airfield",
    # high ground for signals
    "2626": "mountain", "2405": "mountain", "0921": "mountain", "2620": "mountain", "0928": "mountain",
    "0431": "mountain",
    # observation posts / pre-positioned sites in the highlands
    "2214": "jungle_mountain", "2024": "jungle_mountain", "0329": "jungle_mountain",
    "0620": "jungle_mountain", "2321": "jungle_mountain", "0123": "jungle_mountain",
    # enemy camps, caches, prisons in the jungle
    "1723": "jungle", "0633": "jungle", "1614": "jungle", "1719": "jungle", "1228": "jungle", "0714": "jungle",
    "1324": "jungle", "2434": "jungle", "0235": "jungle", "2623": "jungle", "2031": "jungle",
    "2022": "jungle", "0535": "jungle", "1721": "jungle", "2425": "jungle", "1416": "jungle", "0424": "jungle",
    "2509": "jungle", "0230": "jungle", "0934": "jungle", "2130": "jungle", "0936": "jungle", "2236": "jungle",
    "1526": "jungle", "2016": "grassland", "0226": "mountain",
    # clearings: landing zones, drops, training, re-supply
    "1905": "grassland", "1333": "grassland", "2227": "grassland", "0711": "grassland", "2120": "grassland",
    "1936": "grassland", "1734": "grassland", "1018": "grassland", "2008": "grassland", "1807": "grassland",
    "2631": "grassland", "1023": "grassland",
    # on the roads (the road feature is added by the road network below)
    "2332": "grassland", "0310": "grassland", "0725": "grassland",  # Capture Equipment
    "1605": "grassland", "2503": "coast", "1529": "jungle",  # De-mine
    "1826": "jungle", "0617": "jungle", "2211": "jungle",  # Interdict
    "1419": "jungle", "0730": "jungle", "2516": "jungle",  # Set-up Ambush
    "1116": "jungle", "1026": "jungle", "2418": "jungle",  # Sabotage
    # bridges: stream hexes with a road (Demolish Infrastructure)
    "1236": "stream", "2223": "stream", "1007": "stream",
}
ROAD_MISSIONS = {"2332", "0310", "0725", "1605", "2503", "1529", "1826", "0617", "2211", "1419", "0730", "2516",
                 "1116", "1026", "2418", "1236", "2223", "1007"}

# Road network: polylines through waypoints (each leg a straight hex line).
ROADS = [
    ["0104", "0305", "0310", "0413", "0617", "0725", "0730", "0133"],  # western road
    ["0305", "0706", "1007", "1307", "1605", "1905", "2204", "2503"],  # coast road
    ["1007", "1011", "1116", "1221", "1026", "1031", "1236"],  # central highway (west branch)
    ["1116", "1419", "1529", "1826", "2332", "2134"],  # central highway (east branch)
    ["2503", "2211", "2513", "2516", "2418", "2223", "2332"],  # eastern road
    ["1829", "1826"], ["1711", "1605"], ["2134", "2636"], ["0636", "0730"], ["1435", "1529"],
    ["0421", "0617"], ["2429", "2332"], ["0528", "0725"], ["0217", "0310"],
]

# Streams: polylines of stream hexes flowing to the sea or the lake.
STREAMS = [
    ["0832", "0827", "0823", "0818", "0913", "0909", "1007", "1104"],  # Song Tay to the bay
    ["1236", "1134", "1331", "1427", "1424", "1523", "1622", "1821", "1919", "2018"],  # Song Trung to the lake
    ["2126", "2223", "2221", "2219", "2119"],  # Suoi Dong to the lake
    ["2219", "2316", "2410", "2506", "2603"],  # Suoi Bac from the lake to the sea
    ["0507", "0304"],  # a short creek to the sea
]
DESTROYED_BRIDGES = ["2410"]  # a blown bridge on the Suoi Bac (12.1 row "(destroyed) bridge")
LAKE = ["2017", "2018", "2117", "2118", "2217", "2119"]
BAY = [f"{c:02d}{r:02d}" for c in range(9, 16) for r in (3, 4)] + ["1205", "1105"]
EXTRA_VILLAGES = ["0706", "2204", "0104", "1518", "0812"]
EXTRA_AIRFIELDS = ["1803"]


def pseudo(c: int, r: int, k: int) -> int:
    return (c * 73856093 ^ r * 19349663 ^ k * 83492791) % 1000


def base_terrain(c: int, r: int) -> str:
    if r <= 2:
        return "full_water"
    n = pseudo(c, r, 1)
    if r <= 7:  # coastal plain
        return "rice_paddy" if n < 450 else ("grassland" if n < 750 else "jungle")
    if c <= 7 and r >= 14:  # western highlands
        return "jungle_mountain" if n < 550 else ("mountain" if n < 750 else "jungle")
    if r >= 32 and c >= 14:  # southern hills
        return "jungle_mountain" if n < 400 else "jungle"
    if 10 <= c <= 18 and 12 <= r <= 20:  # the central plateau
        return "grassland" if n < 500 else ("jungle" if n < 850 else "rice_paddy")
    if c >= 20 and 8 <= r <= 26:  # eastern ridges
        return "jungle_mountain" if n < 300 else ("mountain" if n < 400 else "jungle")
    return "jungle" if n < 760 else ("grassland" if n < 880 else "rice_paddy")


def polyline(points: list[str]) -> list[str]:
    out: list[str] = []
    for a, b in zip(points, points[1:]):
        for h in GRID.line(a, b):
            assert h is not None
            if not out or out[-1] != h:
                out.append(h)
    return out


def build() -> dict[str, object]:
    terrain: dict[str, str] = {}
    features: dict[str, set[str]] = {}
    for lab in GRID.labels():
        c, r = GRID.parse(lab)
        terrain[lab] = base_terrain(c, r)
        features[lab] = set()
    for lab in BAY + LAKE:
        terrain[lab] = "full_water"
    for line in STREAMS:
        for lab in polyline(line):
            if terrain[lab] != "full_water":
                terrain[lab] = "stream"
    for line in ROADS:
        for lab in polyline(line):
            if terrain[lab] != "full_water":
                features[lab].add("road")
    for lab in EXTRA_VILLAGES:
        terrain[lab] = "village"
    for lab in EXTRA_AIRFIELDS:
        terrain[lab] = "airfield"
    for lab, t in MISSION_TERRAIN.items():
        terrain[lab] = t
    for lab in ROAD_MISSIONS:
        features[lab].add("road")
    # coast: land hexes next to the sea (not the lake)
    sea = {h for h, t in terrain.items() if t == "full_water" and h not in LAKE}
    for lab in GRID.labels():
        if terrain[lab] in ("full_water", "stream", "village", "airfield"):
            continue
        if any(n in sea for n in GRID.neighbours(lab)):
            terrain[lab] = "coast"
    for lab in GRID.labels():
        if terrain[lab] == "stream" and "road" in features[lab]:
            features[lab].add("bridge")
    for lab in DESTROYED_BRIDGES:
        assert terrain[lab] == "stream" and "road" not in features[lab], lab
        features[lab].add("destroyed_bridge")
    hexes = {}
    for lab in sorted(terrain):
        entry: dict[str, object] = {"terrain": terrain[lab]}
        if features[lab]:
            entry["features"] = sorted(features[lab])
        hexes[lab] = entry
    names = {
        "1307": "Ban Hai", "1711": "Lang Vei", "1829": "Plei Me", "0636": "Dak To", "0413": "Ba Lang",
        "2636": "Plei Djereng", "1221": "Kon Hring", "1031": "Dak Pek", "1011": "Ban Dong", "2429": "Plei Ring",
        "0421": "Dak Seang", "0528": "Kham Duc", "1435": "Buon Ea", "0217": "Tra Bong", "0706": "An Hoa",
        "2204": "Tam Ky", "0104": "Sa Huynh", "1518": "Kon Tum", "0812": "Plei Kan",
        "0133": "Ben Het airstrip", "2134": "Duc Co airstrip", "2513": "Cheo Reo airstrip", "1803": "Quang Ngai field",
    }
    return {
        "id": "gbv-authored-map-1",
        "note": "AUTHORED map (the printed map is not in the seed): see docs/games/green-beret-vietnam-data.md",
        "grid": {"first_col": 1, "first_row": 1, "cols": 26, "rows": 36, "shifted": "even", "digits": 2},
        "names": names,
        "hexes": hexes,
    }


def main() -> None:
    doc = build()
    OUT.write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    counts: dict[str, int] = {}
    for h in doc["hexes"].values():  # type: ignore[union-attr]
        counts[h["terrain"]] = counts.get(h["terrain"], 0) + 1
    print(OUT, counts)


if __name__ == "__main__":
    main()
