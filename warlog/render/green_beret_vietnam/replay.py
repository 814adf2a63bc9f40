"""What changed at a Green Beret: Vietnam replay step, read from the facts' `data`: the paths
moved (a group's `move` path, each enemy's `pursuit` path, the hexes a group under way has
stepped through), the hexes fought over (`combat`: the Green Berets' and the enemy's hex), the
units involved, and the counters lost (eliminated teams, leaders and items, also those the
facts only count; enemy units beaten in combat), each where it last stood."""

from __future__ import annotations

from typing import Any

from rules.green_beret_vietnam.data import World
from warlog.render import Highlights

UNIT_KEYS = ("enemy", "team", "counter", "item")


def highlights(event: dict[str, Any] | None, before: Any, after: Any, w: World) -> Highlights:
    if event is None or event.get("type") != "resolved":
        return Highlights()
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    paths: list[tuple[str, ...]] = []
    hexes: list[str] = []
    units: list[str] = []
    lost: list[tuple[str, str]] = []
    where = _positions(before)  # where each counter last stood, followed through the facts

    def add(items: list[str], x: Any) -> None:
        if isinstance(x, str) and x not in items:
            items.append(x)

    for f in event.get("payload", {}).get("facts", []):
        data, kind = f.get("data") or {}, f.get("kind")
        for key in UNIT_KEYS:
            add(units, data.get(key))
        for m in data.get("members") or []:
            add(units, m)
        if kind == "move" and _hex_list(data.get("path")):
            paths.append(tuple(data["path"]))
        elif kind == "pursuit" and isinstance(data.get("path"), list) and data["path"]:
            steps = [p.get("hex") for p in data["path"] if isinstance(p, dict)]
            start = where.get(str(data.get("enemy")))
            path = ([start] if start else []) + [h for h in steps if isinstance(h, str)]
            if len(path) > 1:
                paths.append(tuple(path))
            if isinstance(data.get("hex"), str):
                where[str(data["enemy"])] = data["hex"]
        elif kind == "scatter" and isinstance(data.get("to"), str) and not data.get("returned"):
            where[str(data.get("enemy"))] = data["to"]
        if kind == "combat":
            for key in ("gb_hex", "enemy_hex"):
                add(hexes, data.get(key))
            if set(data) == {"enemy"} and data["enemy"] in where:  # "… loses: removed" (13.0)
                lost.append((data["enemy"], where[data["enemy"]]))
        if kind == "elimination" and where.get(str(data.get("counter"))):
            lost.append((data["counter"], where[data["counter"]]))
        if kind == "loss":
            lost += [(c, where[c]) for c in data.get("counters") or [] if isinstance(c, str) and where.get(c)]
    known = {u for u, _ in lost}
    for cid, rec in sorted((before.get("gb") or {}).items()):  # counters lost without a fact naming them
        now = (after.get("gb") or {}).get(cid) or {}
        if cid not in known and isinstance(rec, dict) and rec.get("status") == "map" and \
                now.get("status") == "supply":
            lost.append((cid, str(rec.get("hex"))))
    mv, was = after.get("moving"), before.get("moving")
    if isinstance(mv, dict) and mv.get("path") and (not isinstance(was, dict) or was.get("path") != mv["path"]):
        paths.append(tuple([mv["start"]] + list(mv["path"])))
    return Highlights(tuple(paths), tuple(hexes), tuple(units), tuple(dict.fromkeys(lost)))


def _hex_list(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(h, str) for h in x) and len(x) > 1


def _positions(state: dict[str, Any]) -> dict[str, str]:
    out = {}
    for cid, rec in (state.get("gb") or {}).items():
        if isinstance(rec, dict) and rec.get("status") == "map" and isinstance(rec.get("hex"), str):
            out[cid] = rec["hex"]
    for eid, rec in (state.get("enemies") or {}).items():
        if isinstance(rec, dict) and isinstance(rec.get("hex"), str):
            out[eid] = rec["hex"]
    return out
