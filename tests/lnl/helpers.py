"""Small hand-made worlds for the Lock 'n Load tests (the shipped TEC and counters, a tiny board)."""

from __future__ import annotations

from typing import Any

from rules.lock_n_load.data import World, load_json, world_from_docs

CODES = {"o": "open", "p": "paddy", "b": "brush", "g": "grass", "l": "light_jungle", "d": "dense_jungle",
         "w": "wooden_building", "h": "bamboo_hut"}


def tiny(rows: list[str], levels: dict[str, int] | None = None, slivers: list[dict[str, Any]] | None = None,
         board: str = "9") -> World:
    """A board `board` whose terrain rows are given one letter per hex (columns A.., rows 1..)."""
    real = load_json("board1.json")
    hexes = {}
    for r, line in enumerate(rows, start=1):
        for c, ch in enumerate(line):
            h = f"{board}{chr(ord('A') + c)}{r}"
            hexes[h] = {"terrain": CODES[ch], "level": (levels or {}).get(h, 0)}
    doc = {"board": board, "cols": len(rows[0]), "rows": len(rows), "hexes": hexes, "hexsides": {},
           "slivers": slivers or [], "tec": real["tec"]}
    return world_from_docs(doc, load_json("counters.json"))
