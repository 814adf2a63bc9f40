"""Static data of the demo: board 1, the counters, the demo scenario (rules/lock_n_load/data/).

Authored by tools/lnl_author_data.py (never hand-edited); what is the rulebook's and what is ours:
docs/games/lock-n-load-data.md. Tests build small worlds with `world_from_docs`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules.lock_n_load.geometry import Board

DATA = Path(__file__).parent / "data"
FILES = ("board1.json", "counters.json", "scenarios.json")


@dataclass(frozen=True)
class Kind:
    """A counter type (T1): an MMC (squad, half squad) or an SMC (leader, medic, sniper, ...)."""

    id: str
    name: str
    nationality: str  # US | USMC | ARVN | VC | NVA (13.0)
    cls: str  # squad | half | wt | leader | medic | sniper | chaplain | advisor | hero
    fp: int
    range: int
    mf: int
    morale: tuple[int, int]  # (Good Order side, Shaken side) (1.5)
    reduces_to: str | None = None
    assault_move: bool = False  # red square (6.1)
    self_rally: bool = False  # SR (3.0)
    lm: int = 0  # leadership modifier (11.1); a chaplain's rally rating (11.5)
    card: str | None = None  # skill card assigned by the scenario (12.0)
    designation: str = ""

    @property
    def is_mmc(self) -> bool:
        return self.cls in ("squad", "half", "wt")

    @property
    def is_smc(self) -> bool:
        return not self.is_mmc

    @property
    def squad_equivalent2(self) -> int:
        """Stacking in half squad-equivalents (1.3): squad or WT 2, half squad 1, SMC 0."""
        return {"squad": 2, "wt": 2, "half": 1}.get(self.cls, 0)


@dataclass(frozen=True)
class SwDef:
    """A support weapon counter (1.6.1, T7)."""

    id: str
    name: str
    kind: str  # lmg | flamethrower | law | rpg
    nationality: str
    fp: int
    range: int
    oft: bool = False  # fires on the Ordnance Fire Table (not in the demo)


@dataclass
class World:
    board: Board
    hexes: dict[str, dict[str, Any]]
    hexsides: dict[str, dict[str, Any]]
    slivers: list[dict[str, Any]]
    tec: dict[str, dict[str, Any]]
    kinds: dict[str, Kind]
    sws: dict[str, SwDef]
    nations: dict[str, dict[str, Any]]
    scenarios: dict[str, dict[str, Any]] = field(default_factory=dict)
    data_id: str = "fixture"
    skill_cards: tuple[str, ...] = ("Bull", "Charismatic")  # 12.0, T2: the deck, a card per copy (counts ours)
    cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)  # derived values (LOS)

    def terrain(self, hex_id: str) -> str:
        return str(self.hexes[hex_id]["terrain"])

    def level(self, hex_id: str) -> int:
        return int(self.hexes[hex_id].get("level", 0))

    def kind_of(self, terrain: str) -> str:
        """blocking | degrading | open (T3 'type')."""
        return str(self.tec[terrain]["kind"])

    def height(self, terrain: str) -> int:
        return int(self.tec[terrain]["height"])

    def side_of(self, nationality: str) -> str:
        return str(self.nations[nationality]["side"])


def _kind(doc: dict[str, Any]) -> Kind:
    return Kind(id=doc["id"], name=doc["name"], nationality=doc["nationality"], cls=doc["class"],
                fp=int(doc.get("fp", 0)), range=int(doc.get("range", 0)), mf=int(doc.get("mf", 0)),
                morale=(int(doc["morale"][0]), int(doc["morale"][1])), reduces_to=doc.get("reduces_to"),
                assault_move=bool(doc.get("assault_move")), self_rally=bool(doc.get("self_rally")),
                lm=int(doc.get("lm", 0)), card=doc.get("card"), designation=doc.get("designation", ""))


def world_from_docs(board: dict[str, Any], counters: dict[str, Any], scenarios: dict[str, Any] | None = None,
                    data_id: str = "fixture") -> World:
    return World(
        board=Board(str(board["board"]), int(board["cols"]), int(board["rows"])),
        hexes=dict(board["hexes"]), hexsides=dict(board.get("hexsides", {})), slivers=list(board.get("slivers", [])),
        tec=dict(board["tec"]),
        kinds={k: _kind(v) for k, v in counters["kinds"].items()},
        sws={k: SwDef(v["id"], v["name"], v["kind"], v["nationality"], int(v["fp"]), int(v["range"]), bool(v["oft"]))
             for k, v in counters["sws"].items()},
        nations=dict(counters["nations"]), scenarios=dict(scenarios or {}), data_id=data_id)


def load_json(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


SCENARIOS = {"1": "scenarios_v1.json", "2": "scenarios.json", "3": "scenarios.json",
             "4": "scenarios.json"}  # rules version -> its scenarios


@lru_cache(maxsize=8)
def load_world(version: str = "4") -> World:
    """The data of a rules version: the same board and counters, the version's scenarios (version 2
    on: the hero counters; version 4 on: the skill-card deck). The data id hashes the files, so a
    game set up under one version's data is refused by another."""
    files = ((FILES[0], FILES[1], SCENARIOS[version]) + (("heroes.json",) if version != "1" else ())
             + (("skill_cards.json",) if int(version) >= 4 else ()))
    h = hashlib.sha256()
    for n in files:
        h.update((DATA / n).read_bytes())
    counters = load_json(files[1])
    if version != "1":  # 11.2 hero counters (optional rule), version 2 on
        counters["kinds"] = {**counters["kinds"], **load_json("heroes.json")["kinds"]}
    w = world_from_docs(load_json(files[0]), counters, load_json(files[2]), data_id=h.hexdigest()[:16])
    if "skill_cards.json" in files:
        w.skill_cards = tuple(c["id"] for c in load_json("skill_cards.json")["cards"] for _ in range(int(c["count"])))
    return w
