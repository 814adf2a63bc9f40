"""UP FRONT's actions and facts in words (warlog.render.words): cards by their names and random
numbers ("Fire 3 (black 4)", never "[UF017, black 4]"), men by their personality cards ("man 8,
rifle", never "US08"), sides by their nations' names ("Germans", never "germans's")."""

from __future__ import annotations

import re
from typing import Any

from rules.up_front.data import world

WEAPONS = {"lmg": "LMG", "smg": "SMG", "mmg": "MMG", "rifle": "rifle", "leader": "leader"}
MODES = {"forward": "forward", "backward": "back", "sideways": "sideways"}
STANDING = {"concealment": "when a group of mine is fired at", "terrain": "when terrain is discarded onto a moving group",
            "mine_altitude": "when a Minefield hits a group changing altitude"}
ANSWERS = {"concealment": ("play Concealment", "decline"), "terrain": ("accept", "reject"),
           "mine_altitude": ("place the altitude card", "let the change fail")}
# rules version 4's answers in words (rules/up_front/standing.py), in the same translated words
WORDED = {"conceal": "play Concealment", "take": "decline", "accept": "accept", "reject": "reject",
          "place": "place the altitude card", "fail": "let the change fail"}
FIELDS = {"men": "men in the group", "strength": "the attack's strength", "level": "the level", "group": "the group"}


def card(cid: Any) -> str:
    """A card by its name and random number: "Fire 3 (black 4)"."""
    if cid is None:
        return "none"
    w = world()
    c = w.cards.get(str(cid))
    if c is None:
        return str(cid)
    if c["type"] == "terrain":
        what = w.terrain[c["terrain"]]["name"]
    elif "value" in c:
        what = f"{c['type'].title()} {c['value']}"
    else:
        what = c["type"].title()
    return f"{what} ({c['colour']} {c['rn']})"


def nation(seat: Any) -> str:
    n = world().nations.get(str(seat))
    return str(n["name"]) if n else str(seat).replace("_", " ").title()


def man(mid: Any) -> str:
    """A man by his personality card: "man 8 (rifle)"."""
    s = world().soldiers.get(str(mid))
    if s is None:
        return str(mid)
    if s.get("vehicle"):  # an AFV or infantry gun (rules version 4): "the armoured car"
        return f"the {s['weapon']}"
    return f"man {s['number']} ({WEAPONS.get(s['weapon'], s['weapon'])})"


def _condition(field: str, op: str, value: Any) -> str:
    words = {"<=": "at most", ">=": "at least", "<": "fewer than", ">": "more than", "==": "exactly", "!=": "not"}
    if field == "men":
        return f"the group has {words.get(op, op)} {value} men"
    return f"{FIELDS.get(field, field)} is {words.get(op, op)} {value}"


def standing(a: dict[str, Any]) -> str:
    kind = str(a.get("kind"))
    answer = str(a.get("answer"))
    when = STANDING.get(kind, f"in a {kind} window")
    if answer == "ask":
        return f"Standing answer {when}: always ask me"
    yes, no = ANSWERS.get(kind, ("play", "decline"))
    what = yes if answer == "play" else no if answer == "decline" else WORDED.get(answer, answer)
    conds = [c for c in a.get("when") or [] if isinstance(c, list) and len(c) == 3]
    if not conds:
        return f"Standing answer {when}: always {what}"
    return f"Standing answer {when}: {what} if " + " and ".join(_condition(*map(str, c[:2]), c[2]) for c in conds)


def standing_line(seat: str, kind: str, rec: dict[str, Any]) -> str:
    """One standing answer (CORE 11) as the card table lists it, in the words of its buttons:
    "Americans: Standing answer when terrain is discarded onto a moving group: always accept"; another
    seat's, from rules version 3, as its face-down marker: its window and conditions, not its words."""
    who = nation(seat)
    if rec.get("answer") != "hidden":
        return f"{who}: " + standing({"kind": kind, "answer": rec.get("answer"), "when": rec.get("when")})
    conds = [c for c in rec.get("when") or [] if isinstance(c, list) and len(c) == 3]
    return f"{who}: a face-down standing answer {STANDING.get(kind, f'in a {kind} window')}" + (
        " if " + " and ".join(_condition(*map(str, c[:2]), c[2]) for c in conds) if conds else "")


def action_words(a: dict[str, Any]) -> str | None:
    t = a.get("type")
    g = a.get("group")
    c = card(a.get("card")) if "card" in a else ""
    mode = MODES.get(str(a.get("mode")), str(a.get("mode", "")))
    texts: dict[str, Any] = {
        "place": lambda: f"Place {c} on the {nation(a.get('side'))}' group {g}",
        "draw_altitude": lambda: f"Draw until {a.get('count')} altitude cards are drawn",
        "ready": lambda: "Ready",
        "move": lambda: f"Move group {g} {mode} with {c}",
        "alt_step": lambda: f"Group {g} starts an altitude change ({mode}) with {c}"
                            + (", one black card (mountain troops)" if a.get("one_card") else ""),
        "complete": lambda: f"Group {g} ends its move in {c}" + (" played as Open Ground" if a.get("as_open") else ""),
        "altitude": lambda: f"Group {g} ends its move on the altitude card {card(a.get('altitude'))} with {c}"
                            + (" played as Open Ground" if a.get("as_open") else ""),
        "remove": lambda: f"Group {g} clears the Wire or Minefield with {c}",
        "fire": lambda: f"Group {g} fires at enemy group {a.get('target')} with {c}",
        "ordnance": lambda: f"Group {g} fires its ordnance at enemy group {a.get('target')} with {c}",
        "rally": lambda: f"Rally group {g} with {c}",
        "entrench": lambda: f"Group {g} tries to entrench",
        "transfer": lambda: f"Move {man(a.get('man'))} from group {g} to group {a.get('to')} with {c}",
        "shift": lambda: f"Group {g} moves over to position {a.get('to')} with {c}",
        "infiltrate": lambda: f"Group {g} infiltrates enemy group {a.get('target')} with {c}",
        "discard": lambda: "Discard " + ", ".join(card(x) for x in a.get("cards") or []),
        "discard_onto": lambda: f"Discard {c} onto enemy group {a.get('target')}",
        "end_turn": lambda: "End the turn",
        "standing": lambda: standing(a),
        "reinforce": lambda: "Reinforcements enter" + "".join(
            f", {label} {card(a[k])}" for k, label in (("terrain", "terrain"), ("altitude", "altitude card"),
                                                        ("card", "with"), ("conceal", "concealed by"))
            if a.get(k) is not None),
        "conceal": lambda: f"Play {c}",
        "decline": lambda: "Decline",
        "accept": lambda: "Accept the terrain",
        "reject": lambda: f"Reject it with {c}",
        "mine_altitude": lambda: f"Place the altitude card {card(a.get('card'))}" if a.get("card") is not None
        else "Place no altitude card (the change fails)",
    }
    make = texts.get(str(t))
    return str(make()) if make is not None else None


_CARD = re.compile(r" \[UF\d+, (?P<rn>(?:black|red) -?\d+)\]")
_MAN = re.compile(r"\b(?:US|GE|PA)(?:[VG]\d{2}|\d{2})\b")


_SEAT = re.compile(r"^(?P<seat>[A-Z_]+) ")


def standing_fact(fact: dict[str, Any]) -> str | None:
    """Rules version 4's standing-answer facts (rules/core/standing.py writes "AMERICANS records a
    standing answer to terrain: accept always") in the words of the answers' buttons: "Americans:
    Standing answer when terrain is discarded onto a moving group: always accept"; None for any
    other fact."""
    kind, data = fact.get("kind"), fact.get("data") or {}
    seat = _SEAT.match(str(fact.get("text", "")))
    if kind not in ("standing", "standing_marker") or seat is None or data.get("kind") not in STANDING:
        return None
    who = nation(seat["seat"].lower())
    if kind == "standing":
        return f"{who}: " + standing({"kind": data["kind"], "answer": data.get("answer"), "when": data.get("when")})
    windows = STANDING[str(data["kind"])]
    if not data.get("marker"):
        return f"{who} takes back its standing answer {windows}: it will be asked"
    verb = "changes its" if " changes its " in str(fact.get("text")) else "puts a"
    conds = [c for c in data.get("when") or [] if isinstance(c, list) and len(c) == 3]
    return f"{who} {verb} face-down standing answer {windows}" + (
        " if " + " and ".join(_condition(*map(str, c[:2]), c[2]) for c in conds) if conds else "")


def text_words(text: str) -> str:
    """A recorded text with the ids put in words: "americans draws Movement [UF051, red 6]" →
    "Americans draws Movement (red 6)"; "germans's turn" → "Germans' turn"."""
    text = _CARD.sub(lambda m: f" ({m['rn']})", text)
    text = re.sub(r" when (men|strength|level|group) (<=|>=|<|>|==|!=) (\S+)$",
                  lambda m: " when " + _condition(m[1], m[2], m[3]), text)
    text = _MAN.sub(lambda m: man(m.group(0)), text)
    for seat in sorted(world().nations, key=len, reverse=True):
        name = nation(seat)
        text = re.sub(rf"\b{re.escape(seat)}'s\b", name + ("'" if name.endswith("s") else "'s"), text)
        text = re.sub(rf"\b{re.escape(seat)}\b", name, text)
    return text
