"""Vietnam Battles' actions and facts in words (warlog.render.words): a support fire marker by
its value alone ("+2", never "+2 (us-7)"), a retreat's path as hexes ("0615 → 0614"), and
another seat's hidden move as what may be known of it ("VC moved a hidden unit")."""

from __future__ import annotations

import re
from typing import Any

_MARKER_ID = re.compile(r" \((?:us|vc)-\d+\)")


def action_words(a: dict[str, Any]) -> str | None:
    from rules import get_game
    from rules.vietnam_battles import schema

    game: Any = get_game("vietnam-battles")
    if a.get("type") == "retreat" and isinstance(a.get("path"), list):
        a = {**a, "path": " → ".join(str(h) for h in a["path"])}
    return text_words(schema.describe(a, game.world))


_TWICE = re.compile(r"\b(\d+-\d+-\d+) \1\b")  # a unit whose name carries its values ("Monitor 1-4-11")


_ID = re.compile(r"\b(?:us|vc|arvn|it)-[a-z0-9]+(?:-[a-z0-9]+)*\b")
_PATH = re.compile(r"\[((?:'\d{4}(?::[a-z]+)?'(?:, )?)+)\]")


def text_words(text: str) -> str:
    """A rules text with the ids a refusal may carry in words: a unit by its name and values, a
    support fire marker by its value, a retreat's path as hexes."""
    text = _MARKER_ID.sub("", text)
    if "-" in text:
        text = _MARKER_REF.sub(lambda m: m[1] + _marker_words(m[2]), text)
        text = _ID.sub(_id_words, text)
    text = _PATH.sub(lambda m: " → ".join(h.strip("'") for h in m[1].split(", ")), text)
    return _TWICE.sub(r"\1", text)


_MARKER_REF = re.compile(r"\b(support fire |with )((?:us|vc)-\d+)\b")  # a marker's id, where an action names one


def _marker_words(mid: str) -> str:
    from rules import get_game
    from rules.vietnam_battles.schema import _marker

    game: Any = get_game("vietnam-battles")
    return _marker(game.world, mid).split(" (")[0]


def _id_words(m: re.Match[str]) -> str:
    from rules import get_game
    from rules.vietnam_battles.schema import _marker, _named

    game: Any = get_game("vietnam-battles")
    w = game.world
    uid = m.group(0)
    if uid in w.units:
        return _named(w, uid)
    marker = _marker(w, uid)
    return marker.split(" (")[0] if marker != uid else uid


def hidden_move(seat: str) -> str:
    return "VC moved a hidden unit" if seat == "vc" else f"{seat.upper()} made a move hidden from you"
