"""The game's data: action deck, soldier cards, nations, terrain, tables and scenarios.

Read once from `rules/up_front/data/*.json` (schema: docs/games/up-front-data.md) and checked,
so that an owner of the printed game can drop in a transcription of the real cards and values
in place of ours: a malformed file fails loudly here, naming the file and the card.

Rules versions: version 1 is the files as they are; a later version applies its tuning file
(`v2.json`: OURS values changed for balance, entry by entry) on top, so that a game recorded
under version 1 is judged by version 1's values forever.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

CARD_TYPES = ("fire", "movement", "rally", "concealment", "terrain", "wire")
COLOURS = ("black", "red")
TERRAIN_TYPES = ("bare", "forested", "jungle")  # appendix 9.1-9.3
CONDITIONS = ("dry", "frozen", "mud", "heavy_snow", "light", "heavy")  # appendix 10.1-10.6
ALTITUDE_SETUPS = ("free", "must_b", "may_draw")
VEHICLE_KINDS = ("afv", "gun")  # UFM 7 (AFVs), 8 (infantry guns)
CURRENT = "4"  # the data version of the current rules version
# data version -> tuning files, in order, over the base files
TUNINGS = {"2": ("v2.json",), "3": ("v2.json", "v3.json"), "4": ("v2.json", "v3.json", "v4.json")}


class DataError(ValueError):
    """A data file does not fit its schema."""


@dataclass(frozen=True)
class World:
    cards: dict[str, dict[str, Any]]
    terrain: dict[str, dict[str, Any]]
    wire: dict[str, int]
    nations: dict[str, dict[str, Any]]
    soldiers: dict[str, dict[str, Any]]
    tables: dict[str, Any]
    scenarios: dict[str, dict[str, Any]]
    not_playable: dict[str, str]
    # rules version 4 on: the AFVs and infantry guns (vehicles.json, OURS; UFM 7, 8), also in `soldiers`
    # as personality cards (a vehicle is a one-man group), and the ordnance table (VEH 3-5)
    vehicles: dict[str, dict[str, Any]] = field(default_factory=dict)
    ordnance: dict[str, Any] = field(default_factory=dict)

    def card(self, cid: str) -> dict[str, Any]:
        return self.cards[cid]

    def card_name(self, cid: str) -> str:
        c = self.cards.get(cid)
        if c is None:
            return cid
        if c["type"] == "terrain":
            what = self.terrain[c["terrain"]]["name"]
        elif "value" in c:
            what = f"{c['type'].title()} {c['value']}"
        else:
            what = c["type"].title()
        return f"{what} [{cid}, {c['colour']} {c['rn']}]"


def _read(name: str) -> Any:
    text = resources.files("rules.up_front").joinpath("data", name).read_text(encoding="utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise DataError(f"{name}: not JSON: {err}") from None


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise DataError(f"{where}: {what}")


def _check_cards(doc: Any, terrain: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for c in doc["cards"]:
        where = f"cards.json {c.get('id')}"
        _need(isinstance(c.get("id"), str) and c["id"] not in out, where, "a unique string id")
        _need(c.get("type") in CARD_TYPES, where, f"type one of {CARD_TYPES}")
        _need(isinstance(c.get("rn"), int) and 0 <= c["rn"] <= 6, where, "random number rn 0..6")
        _need(c.get("colour") in COLOURS, where, "colour black or red")
        rpn = c.get("rpn")
        _need(isinstance(rpn, list) and len(rpn) == 10 and all(isinstance(p, int) and 1 <= p <= k
                                                               for k, p in enumerate(rpn, 1)),
              where, "rpn: 10 random positions, the k-th in 1..k")
        if c["type"] == "terrain":
            _need(c.get("terrain") in terrain, where, "terrain: a key of terrain.json")
        if c["type"] in ("fire", "rally", "concealment"):
            _need(isinstance(c.get("value"), int) and c["value"] >= 0, where, "an integer value")
        out[c["id"]] = c
    return out


def _check_scenarios(doc: Any, soldiers: dict[str, Any], nations: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for s in doc["scenarios"]:
        where = f"scenarios.json {s.get('id')}"
        _need(len(s["roles"]) == 2 and all(r in nations for r in s["roles"]), where, "two roles, each a nation")
        _need(s["first"] in s["roles"] and s["attacker"] in (None, *s["roles"]), where, "first/attacker a role")
        _need(s["altitude_setup"]["kind"] in ALTITUDE_SETUPS, where, f"altitude_setup.kind in {ALTITUDE_SETUPS}")
        _need(s["terrain_types"] is None or set(s["terrain_types"]) <= set(TERRAIN_TYPES), where, "terrain types")
        seen: set[str] = set()
        half = s.get("second_half")
        if half is not None:  # UFM 11.e K: the second half's fresh force of the second-line side
            _need(half["second_line"] in s["roles"] and half["first"] in s["roles"] and half["passes"] >= 1, where,
                  "second_half: second_line and first are roles, passes >= 1")
            for men in half["forces"][half["second_line"]].values():
                for m in men:
                    _need(m in soldiers and soldiers[m]["nation"] == half["second_line"] and m not in seen, where,
                          f"second half: soldier {m} must exist, be of the second-line nation and serve once")
                    seen.add(m)
        for role in s["roles"]:
            groups = s["forces"][role]
            _need(2 <= len(groups) <= 4 and sorted(groups) == list("ABCD"[: len(groups)]), where,
                  f"{role}: 2-4 groups lettered from A (Part C.3)")
            for men in groups.values():
                for m in men:
                    _need(m in soldiers and soldiers[m]["nation"] == role and m not in seen, where,
                          f"{role}: soldier {m} must exist, be of that nation and serve once")
                    seen.add(m)
        for role, r in s.get("reinforcements", {}).items():
            _need(role in s["roles"] and r["group"] not in s["forces"][role] and r["from_pass"] >= 1, where,
                  f"{role}: a reinforcement group has a new letter and a deck pass")
            for m in r["men"]:
                _need(m in soldiers and soldiers[m]["nation"] == role and m not in seen, where,
                      f"{role}: reinforcement {m} must exist, be of that nation and serve once")
                seen.add(m)
        out[s["id"]] = s
    return out


def _check_vehicles(doc: Any, nations: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """vehicles.json (rules version 4 on, OURS): each AFV or infantry gun with its small arms `fp`,
    To Hit numbers and HE/AP effect numbers by Relative Range 0..5, an AFV's armour front/flank."""
    out: dict[str, dict[str, Any]] = {}
    for v in doc["vehicles"]:
        where = f"vehicles.json {v.get('id')}"
        _need(isinstance(v.get("id"), str) and v["id"] not in out, where, "a unique string id")
        _need(v.get("nation") in nations and v.get("kind") in VEHICLE_KINDS, where, f"a nation and kind {VEHICLE_KINDS}")
        for key in ("fp", "to_hit", "he", "ap"):
            _need(isinstance(v.get(key), list) and len(v[key]) == 6 and all(isinstance(x, int) for x in v[key]),
                  where, f"{key}: six integers, by Relative Range 0..5")
        if v["kind"] == "afv":
            arm = v.get("armour") or {}
            _need(isinstance(arm.get("front"), int) and isinstance(arm.get("flank"), int), where,
                  "an AFV has armour front and flank")
        out[v["id"]] = v
    return out


def _tune(docs: dict[str, Any], version: str) -> None:
    """Apply a version's tuning files: `{"soldiers": {id: {key: value}}, "scenarios": {id: {…}},
    "nations": {id: {…}}, "tables": {section: {key: value}}}`, each entry updated key by key."""
    for name in TUNINGS.get(version, ()):
        tuning = _read(name)
        by_id = {"soldiers": {x["id"]: x for x in docs["soldiers.json"]["soldiers"]},
                 "scenarios": {x["id"]: x for x in docs["scenarios.json"]["scenarios"]},
                 "nations": docs["nations.json"]["nations"], "tables": docs["tables.json"]}
        for part, entries in tuning.items():
            if part.startswith("_"):
                continue
            _need(part in by_id, name, f"tunes only {sorted(by_id)}, not {part!r}")
            for key, changes in entries.items():
                _need(key in by_id[part] and isinstance(changes, dict), name, f"{part}: no entry {key!r} to tune")
                by_id[part][key].update({k: v for k, v in changes.items() if not k.startswith("_")})


def world(version: str = CURRENT) -> World:
    """The data of a rules version (the current one by default), read and checked once."""
    return _world(version)


@lru_cache(maxsize=4)
def _world(version: str) -> World:
    _need(version == "1" or version in TUNINGS, "data", f"no data version {version!r}")
    docs = {name: _read(name) for name in ("terrain.json", "cards.json", "nations.json", "soldiers.json",
                                           "tables.json", "scenarios.json")}
    _tune(docs, version)
    terrain_doc = docs["terrain.json"]
    terrain = terrain_doc["terrain"]
    cards = _check_cards(docs["cards.json"], terrain)
    nations = docs["nations.json"]["nations"]
    for n, spec in nations.items():
        _need(spec["discard_when"] in ("always", "no_action") and spec["hand"] > 0, f"nations.json {n}", "hand/discard")
    sold_doc = docs["soldiers.json"]
    soldiers = {s["id"]: s for s in sold_doc["soldiers"]}
    for sid, s in soldiers.items():
        _need(len(s["fp"]) == 6 and s["nation"] in nations, f"soldiers.json {sid}", "fp by RR 0..5 and a nation")
    vehicles: dict[str, dict[str, Any]] = {}
    ordnance: dict[str, Any] = {}
    if version not in ("1", "2", "3"):  # rules version 4 on: AFVs and guns as personality cards (UFM 7, 8)
        veh_doc = _read("vehicles.json")
        vehicles = _check_vehicles(veh_doc, nations)
        ordnance = veh_doc["ordnance"]
        for vid, v in vehicles.items():
            _need(vid not in soldiers, f"vehicles.json {vid}", "an id no soldier has")
            soldiers[vid] = {"id": vid, "nation": v["nation"], "number": v["number"], "weapon": v["name"],
                             "fp": list(v["fp"]), "elite": False, "partisan": False, "vehicle": v["kind"]}
    tables = docs["tables.json"]
    sc_doc = docs["scenarios.json"]
    # a scenario built in a later rules version (`since`) is not in an earlier one's data
    sc_doc["scenarios"] = [s for s in sc_doc["scenarios"] if int(s.get("since", "1")) <= int(version)]
    scenarios = _check_scenarios(sc_doc, soldiers, nations)
    not_playable = {k: v for k, v in sc_doc["not_playable"].items() if k not in scenarios}
    return World(cards, terrain, terrain_doc["wire"], nations, soldiers, tables, scenarios, not_playable, vehicles,
                 ordnance)
