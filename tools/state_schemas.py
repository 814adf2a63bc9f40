#!/usr/bin/env python3
"""Write each game's state JSON Schema, rules/<game>/data/state.schema.json, from the states the
game itself produces: every scenario's setup and seeded random-legal play (the golden ledgers'
players) to the end, several seeds each. Every record met at any depth (a unit, a battle, an
in-progress move, a decision of each `kind`) becomes a closed record: its keys, which ones are
always there, their JSON types; objects keyed by ids (units, hexes, counters) become maps of one
record. The written file is the one source: `Game.check_state` validates a sandbox against it
(rules.core.stateschema) and the API publishes it (/api/v1/games/schemas/<game>/state).

    python tools/state_schemas.py              # rewrite every game's schema
    python tools/state_schemas.py --check      # exit 1 if a committed schema differs

A key seen only as null, or an object or list seen only empty, is left unconstrained here (the
game's own checks and the engine probe at sandbox creation still judge it). Hand edits to a
written file are lost when it is regenerated: refine the inference instead.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from rules import all_games  # noqa: E402
from rules.core.dice import RecordingDice  # noqa: E402
from rules.core.game import Game  # noqa: E402
from rules.core.stateschema import schema_path  # noqa: E402

SEEDS = (1, 2, 3, 4, 5, 6)  # with the golden ledgers' players, which reach an end
UNIFORM_SEEDS = (11, 12, 13)  # uniform random choice: rasher play meets what careful play avoids (GBV enemies)
MAX_MOVES = 2500
RECORD_KEY = re.compile(r"^[a-z][a-z0-9_]*$")
MAX_RECORD_KEYS = 40
ENUM_KEYS = ("kind",)  # a discriminator: each kind is its own record


def _type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


class Acc:
    """What the samples met at one place of the state looked like."""

    def __init__(self) -> None:
        self.types: Counter[str] = Counter()
        self.strings: set[str] = set()
        self.objects = 0
        self.keys: dict[str, Acc] = {}
        self.key_count: Counter[str] = Counter()
        self.kinds: dict[str, Acc] = {}
        self.items: Acc | None = None

    def add(self, v: Any) -> None:
        t = _type(v)
        self.types[t] += 1
        if t == "string" and len(self.strings) < 64:
            self.strings.add(v)
        elif t == "array":
            for x in v:
                if self.items is None:
                    self.items = Acc()
                self.items.add(x)
        elif t == "object":
            kind = v.get("kind")
            if isinstance(kind, str) and RECORD_KEY.match(kind):
                self.kinds.setdefault(kind, Acc()).add_object(v)
            self.add_object(v)

    def add_object(self, v: dict[str, Any]) -> None:
        self.objects += 1
        for k, x in v.items():
            self.key_count[k] += 1
            self.keys.setdefault(k, Acc()).add(x)

    def merge(self, other: Acc) -> None:
        self.types.update(other.types)
        self.strings |= other.strings
        self.objects += other.objects
        self.key_count.update(other.key_count)
        for k, a in other.keys.items():
            self.keys.setdefault(k, Acc()).merge(a)
        for k, a in other.kinds.items():
            self.kinds.setdefault(k, Acc()).merge(a)
        if other.items is not None:
            if self.items is None:
                self.items = Acc()
            self.items.merge(other.items)


def _is_map(a: Acc) -> bool:
    return len(a.keys) > MAX_RECORD_KEYS or any(not RECORD_KEY.match(k) for k in a.keys)


def emit(a: Acc, name: str = "") -> dict[str, Any]:
    seen = [t for t in ("null", "boolean", "integer", "number", "string", "array", "object") if a.types[t]]
    if seen == ["null"] or not seen:
        return {"description": "seen only as null in sample play: not constrained by the schema"}
    if "number" in seen and "integer" in seen:
        seen.remove("integer")
    out: dict[str, Any] = {"type": seen[0] if len(seen) == 1 else seen}
    if "string" in seen and name in ENUM_KEYS and len(a.strings) < 64:
        out["enum"] = [*sorted(a.strings), *([None] if "null" in seen else [])]
    if "array" in seen and a.items is not None:
        out["items"] = emit(a.items, name)
    if "object" in seen and a.keys:
        if _is_map(a):
            values = Acc()
            for child in a.keys.values():
                values.merge(child)
            out["additionalProperties"] = emit(values)
        else:
            out.update(_record(a, a.objects))
            if a.kinds and sum(k.objects for k in a.kinds.values()) == a.objects and len(a.kinds) > 1:
                out["required"] = ["kind"]
                out["allOf"] = [{"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                                 "then": _record(k, k.objects)} for kind, k in sorted(a.kinds.items())]
    return out


def _record(a: Acc, n: int) -> dict[str, Any]:
    props = {k: emit(c, k) for k, c in sorted(a.keys.items())}
    return {"properties": props, "required": sorted(k for k in a.keys if a.key_count[k] == n),
            "additionalProperties": False}


def sample_states(g: Game, scenario: str, seed: int, uniform: bool = False) -> Iterator[dict[str, Any]]:
    from tools.make_golden import _uniform, chooser_for

    rng = random.Random(seed)

    def dice() -> RecordingDice:
        return RecordingDice(lambda i, f: rng.randint(1, f))

    s = g.setup(scenario, g.resolve_options({}), dice())
    yield s
    choose = _uniform if uniform else chooser_for(g.name)
    for n in range(MAX_MOVES):
        seats = g.active_seats(s)
        legal = g.legal_actions(s, seats[0]) if seats else []
        if not legal:
            return
        s = g.apply(s, seats[0], choose(g, s, legal, rng, n), dice()).state
        yield s


def extra_samples(g: Game, s: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Records random play seldom meets, made by the game's own code from a sampled state: GBV
    enemies appear only on a detection (12.0), which neither player risks often; Lock 'n Load's
    counters and support weapons of the published mix that its scenario does not field (a sandbox
    may bring any of them: rules/lock_n_load/positions.py)."""
    if g.name == "lock-n-load" and s["turn"] == 1 and s["phase"] == "rally" and not s["rally_done"]:
        from rules.lock_n_load.events import new_unit

        w = g.world  # type: ignore[attr-defined]
        t = copy.deepcopy(s)
        for kind, k in sorted(w.kinds.items()):
            if k.cls != "hero":
                t["units"][f"{kind}-1"] = new_unit(w.side_of(k.nationality), kind, None)
                if k.cls == "leader" and t["version"] not in ("1", "2", "3"):  # a card drawn at set-up (12.0)
                    t["units"][f"{kind}-1"]["card"] = w.skill_cards[0]
        for kind in sorted(w.sws):
            t["sws"][f"{kind}-x1"] = {"kind": kind, "side": "us", "holder": None, "at": None}
        yield t
    if g.name == "green-beret-vietnam" and s["phase"] == "movement" and s["enemy_pool"]:
        from rules.green_beret_vietnam.effects import place_enemy

        on = [c for c, r in sorted(s["gb"].items()) if r["status"] == "map"]
        if on:
            t = copy.deepcopy(s)
            t["gb"][on[0]]["detected"] = True
            place_enemy(t, t["enemy_pool"].pop(0), t["gb"][on[0]]["hex"])
            yield t


def declared_phases(g: Game) -> list[str]:
    """The phases the game's own checks name (its schema or flow module's PHASES), if any."""
    import importlib

    pkg = type(g).__module__.rsplit(".", 1)[0]
    for mod in ("schema", "flow"):
        try:
            phases = getattr(importlib.import_module(f"{pkg}.{mod}"), "PHASES", None)
        except ImportError:
            continue
        if phases:
            return list(phases)
    return []


def schema_of(g: Game) -> dict[str, Any]:
    acc = Acc()
    many = len(g.scenarios()) > 4  # Up Front's sixteen: fewer games each, as many states in all
    for scenario in sorted(g.scenarios()):
        for seed in (*SEEDS[:2], *UNIFORM_SEEDS[:1]) if many else (*SEEDS, *UNIFORM_SEEDS):
            for s in sample_states(g, scenario, seed, uniform=seed in UNIFORM_SEEDS):
                acc.add(s)
                for extra in extra_samples(g, s):
                    acc.add(extra)
    body = emit(acc)
    phases = declared_phases(g)
    if phases and "phase" in body.get("properties", {}):
        body["properties"]["phase"] = {"type": "string", "enum": phases, "description": "the game's phases"}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"/api/v1/games/schemas/{g.name}/state", "title": f"{g.title}: a game state (rules v{g.version})",
            "description": "Written by tools/state_schemas.py from the game's own setup and play; see docs/sandbox.md.",
            **body}


DOCS = REPO / "docs" / "sandbox.md"
BEGIN, END = "<!-- state formats: tools/state_schemas.py --docs -->", "<!-- end of state formats -->"


def outline(node: dict[str, Any], path: str = "", depth: int = 0) -> list[str]:
    """The records of a state schema as Markdown lines: each JSON Pointer, its type, its keys."""
    t = node.get("type", "any")
    t = " or ".join(t) if isinstance(t, list) else t
    lines: list[str] = []
    if "properties" in node:
        req = set(node.get("required", []))
        keys = ", ".join(f"`{k}`" + ("" if k in req else "?") for k in node["properties"])
        lines.append(f"{'  ' * depth}- `{path or '/'}` ({t}): {keys}")
        for k, child in node["properties"].items():
            lines += outline(child, f"{path}/{k}", depth + 1)
        for branch in node.get("allOf", []):
            kind = branch["if"]["properties"]["kind"]["const"]
            lines += outline(branch["then"], f"{path} (kind {kind})", depth + 1)
    elif isinstance(node.get("additionalProperties"), dict):
        lines.append(f"{'  ' * depth}- `{path}` ({t}): a map by id")
        lines += outline(node["additionalProperties"], f"{path}/<id>", depth + 1)
    elif isinstance(node.get("items"), dict) and ("properties" in node["items"] or "allOf" in node["items"]):
        lines += outline(node["items"], f"{path}/<n>", depth)
    elif "enum" in node:
        lines.append(f"{'  ' * depth}- `{path}` ({t}): one of {', '.join(f'`{v}`' for v in node['enum'])}")
    return lines


def write_docs() -> None:
    parts = []
    for g in all_games():
        if not type(g).__module__.startswith("rules."):
            continue
        schema = json.loads(schema_path(g).read_text(encoding="utf-8"))
        parts.append(f"### {g.title} (`{g.name}`, rules v{g.version})\n\nScenarios: "
                     + ", ".join(f"`{s}`" for s in g.scenarios())
                     + f"; forced dice: {'; '.join(f'{what} (1..{f})' for what, f in g.forcible_dice().items()) or 'none'}.\n\n"
                     + "\n".join(outline(schema)) + "\n")
    text = DOCS.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    DOCS.write_text(head + BEGIN + "\n\n" + "\n".join(parts) + "\n" + END + rest.split(END, 1)[1], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--game", action="append")
    ap.add_argument("--docs", action="store_true", help="only rewrite docs/sandbox.md's state formats")
    args = ap.parse_args(argv)
    if args.docs:
        write_docs()
        return 0
    bad = 0
    for g in all_games():
        if not type(g).__module__.startswith("rules.") or (args.game and g.name not in args.game):
            continue
        text = json.dumps(schema_of(g), indent=1, sort_keys=True) + "\n"
        path = schema_path(g)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"differs: {path.relative_to(REPO)}")
                bad = 1
            continue
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(REPO)} ({len(text):,} bytes)")
    return bad


if __name__ == "__main__":
    raise SystemExit(main())
