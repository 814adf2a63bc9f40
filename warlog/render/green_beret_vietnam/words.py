"""Green Beret: Vietnam's actions and facts in words (warlog.render.words): base camps by number
("base camp 2", never "camp-2"), enemy counters by their names and numbers ("VC Squad 1", never
"VC Squad (vc-squad-1)"), and what is bought by its counter's name."""

from __future__ import annotations

import re
from typing import Any

_ENEMY = re.compile(r"(?P<name>[A-Z][\w.' -]*?) \((?P<kind>[a-z][a-z0-9]*(?:-[a-z0-9]+)*?)-(?P<n>\d+)\)")
_CAMP = re.compile(r"\bcamp-(?P<n>\d+)\b")


def action_words(a: dict[str, Any]) -> str | None:
    from rules import get_game
    from rules.green_beret_vietnam.game import describe

    world: Any = get_game("green-beret-vietnam").world
    if a.get("type") == "buy":
        names = [c.name for c in world.counters.values() if c.kind == a.get("kind")]
        what = re.sub(r" \d+$", "", names[0]) if names else str(a.get("kind")).replace("-", " ")
        return f"Buy {what} at {text_words(str(a.get('camp')))}"
    text = describe(a, world)
    return text_words(text[:1].upper() + text[1:])


_MARKERS = re.compile(r"(damage markers )([a-z]+(?:-[a-z]+)*-\d+(?:, [a-z]+(?:-[a-z]+)*-\d+)*)")


def text_words(text: str) -> str:
    text = _ENEMY.sub(lambda m: f"{m['name']} {m['n']}", text)
    if "damage markers " in text:
        text = _MARKERS.sub(lambda m: m[1] + ", ".join(_marker_name(d) for d in m[2].split(", ")), text)
    return _CAMP.sub(lambda m: f"base camp {m['n']}", text)


def _marker_name(mid: str) -> str:
    """A damage marker by its name ("Shaken"), never its id ("shaken-1")."""
    from rules import get_game

    damage = getattr(getattr(get_game("green-beret-vietnam"), "world", None), "damage", {})
    return damage[mid].name if mid in damage else mid
