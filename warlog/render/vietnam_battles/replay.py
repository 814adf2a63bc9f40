"""What changed at a Vietnam Battles replay step, read from the facts' `data` (only the facts
the viewer may read reach here: the pages drop those addressed to another seat):

* paths moved: each `move` step (`from` -> `hex`, or a monitor's `from` -> `to`), a `retreat`'s
  path from where the unit stood, a `displace`ment, an `advance` after combat, a landing by
  helicopter or river craft (`transport`) from where the unit boarded;
* hexes fought over: the defender's position in a `declare`d attack or bombardment, a `combat`
  or `bombardment` result, a B-52 strike, an ambush, a reveal, a base camp discovered or captured;
* units: every unit a fact names (the attackers, the defender, the unit hit);
* lost: each `eliminated` unit where it stood, and units gone from the map between the two
  states without a fact naming them.

Positions may be a hex, a split hex's land portion ("0826:north") or a monitor's hexside; the
board places each (`VbLayout.centre`)."""

from __future__ import annotations

from typing import Any

from warlog.render import Highlights

UNIT_KEYS = ("unit", "defender", "vc")
FOUGHT = ("combat", "bombardment", "b52", "ambush", "reveal", "capture")


def highlights(event: dict[str, Any] | None, before: Any, after: Any) -> Highlights:
    if event is None or event.get("type") != "resolved":
        return Highlights()
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    where = _positions(before)
    paths: list[tuple[str, ...]] = []
    hexes: list[str] = []
    units: list[str] = []
    lost: list[tuple[str, str]] = []

    def add(items: list[str], x: Any) -> None:
        if isinstance(x, str) and x not in items:
            items.append(x)

    def step(u: Any, frm: Any, to: Any) -> None:
        if isinstance(frm, str) and isinstance(to, str) and frm != to:
            if paths and paths[-1][-1] == frm:  # one unit's consecutive steps: one path
                paths[-1] = paths[-1] + (to,)
            else:
                paths.append((frm, to))
        if isinstance(u, str) and isinstance(to, str):
            where[u] = to

    for f in event.get("payload", {}).get("facts", []):
        data, kind = f.get("data") or {}, f.get("kind")
        if not isinstance(data, dict):
            continue
        for key in UNIT_KEYS:
            add(units, data.get(key))
        for u in data.get("units") or []:
            add(units, u)
        u = data.get("unit")
        if kind == "move" and ("from" in data):
            step(u, data.get("from"), data.get("to", data.get("hex")))
        elif kind == "retreat" and isinstance(data.get("path"), list):
            start = where.get(str(u))
            for h in ([start] if start else []) + [h for h in data["path"] if isinstance(h, str)]:
                step(u, where.get(str(u)), h)
        elif kind in ("displace", "advance") or (kind == "transport" and data.get("hex") and
                                                  where.get(str(u)) != data.get("hex")):
            step(u, data.get("from") or where.get(str(u)), data.get("hex"))
        if kind == "declare" and data.get("defender") in where:
            add(hexes, where[data["defender"]])
        elif kind in ("combat", "bombardment") and data.get("defender") in where:
            add(hexes, where[data["defender"]])
        elif kind in FOUGHT:
            add(hexes, data.get("hex"))
        if kind == "eliminated" and isinstance(u, str):
            at = data.get("hex") or where.get(u)
            if isinstance(at, str):
                lost.append((u, at))
    known = {x for x, _ in lost}
    now = (after.get("units") or {})
    for u, rec in sorted((before.get("units") or {}).items()):
        if u in known or not isinstance(rec, dict) or rec.get("status") != "map" or not rec.get("at"):
            continue
        if (now.get(u) or {}).get("status") == "dead":
            lost.append((u, str(rec["at"])))
    return Highlights(tuple(paths), tuple(hexes), tuple(units), tuple(dict.fromkeys(lost)))


def _positions(state: dict[str, Any]) -> dict[str, str]:
    out = {}
    for u, rec in (state.get("units") or {}).items():
        if isinstance(rec, dict) and rec.get("status") == "map" and isinstance(rec.get("at"), str):
            out[u] = rec["at"]
    return out
