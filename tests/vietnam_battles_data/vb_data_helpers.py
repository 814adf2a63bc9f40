"""Shared loaders for the Vietnam Battles data tests: the shipped JSON files, the parts of the
rules digest and of the seed that the tests compare against (quoted into tests/fixtures/rulebooks/
by tools/rulebook_fixtures.py, so a clone with nothing beside it passes) and small geometry
helpers over the maps (water spaces for monitors, river-free land moves)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import deque
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from rules.core.hexgrid import HexGrid, hexside

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "rules" / "vietnam_battles" / "data"
FIXTURES = REPO / "tests" / "fixtures" / "rulebooks"
# the digest's scenario sections, its CRT as printed, and every line of it naming a hex or hexside
DIGEST = FIXTURES / "vietnam-battles.digest-excerpt.md"
# the Japanese seed the digest translates (it wins where they disagree): scenarios 25.0-26.0 and its CRT
SEED = FIXTURES / "vietnam-battles.seed-excerpt.txt"

# The hexes the digest names on the Iron Triangle map (VB 24.0 Ben Suc 1210, VB 27.0 4223/4323);
# every other hex number it names is on the Snoopy's Nose map (Part VIII G1).
IRON_HEXES = {"1210", "4223", "4323"}
NOT_HEXES = {"1200"}   # "the 1200 hex column" (VB 27.0), checked as a column


@cache
def load(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def snoopy() -> dict[str, Any]:
    return load("snoopys-nose-map.json")


def iron() -> dict[str, Any]:
    return load("iron-triangle-map.json")


def grid(doc: dict[str, Any]) -> HexGrid:
    g = doc["grid"]
    return HexGrid(g["first_col"], g["first_row"], g["cols"], g["rows"], g["shifted"], g["digits"])


@cache
def digest() -> str:
    return DIGEST.read_text(encoding="utf-8")


def digest_section(start: str, end: str) -> str:
    text = digest()
    i = text.index(start)
    return text[i: text.index(end, i + len(start))]


def named_hexes() -> set[str]:
    """Every 4-digit hex number in the digest (years and the '1200 column' left out)."""
    nums = set(re.findall(r"(?<![\w.,])(\d{4})(?!\w)", digest()))
    return {n for n in nums if not (1900 <= int(n) <= 2099 and n.startswith(("19", "20")) and int(n) > 1960)} - NOT_HEXES


def named_pairs() -> set[str]:
    """Every 'dddd/dddd' in the digest (hexsides, and the '0734/0833' shorthand for 'either hex')."""
    return set(re.findall(r"(?<!\d)(\d{4}/\d{4})(?!\d)", digest()))


def side(doc: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    return doc["hexsides"].get(hexside(a, b), {})


def is_river(doc: dict[str, Any], a: str, b: str) -> bool:
    return bool(side(doc, a, b).get("river"))


def water_hex(doc: dict[str, Any], h: str) -> bool:
    return doc["hexes"][h]["mekong"] is not None


def water_spaces(doc: dict[str, Any], start: str) -> set[str]:
    """Mekong hexes and navigable river hexsides a monitor can reach from `start` (VB 12.0; the
    engine's reading, G6: hexside -> hexside through a shared corner, hexside <-> its two hexes
    when they are water, hex -> neighbouring water hexes and its own river hexsides)."""
    g = grid(doc)

    def navigable(key: str) -> bool:
        s = doc["hexsides"].get(key, {})
        return bool(s.get("river")) and not s.get("no_monitor")

    seen = {start}
    q = deque([start])
    while q:
        at = q.popleft()
        out: set[str] = set()
        if "/" in at:
            a, b = at.split("/")
            for c in set(g.neighbours(a)) & set(g.neighbours(b)):
                for k in (hexside(a, c), hexside(b, c)):
                    if navigable(k):
                        out.add(k)
            out |= {h for h in (a, b) if water_hex(doc, h)}
        else:
            for n in g.neighbours(at):
                if water_hex(doc, n):
                    out.add(n)
                if navigable(hexside(at, n)):
                    out.add(hexside(at, n))
        for o in out - seen:
            seen.add(o)
            q.append(o)
    return seen


def load_tool(name: str) -> ModuleType:
    path = REPO / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod   # dataclasses look their module up here
    spec.loader.exec_module(mod)
    return mod
