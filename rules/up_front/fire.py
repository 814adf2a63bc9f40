"""Fire: the Fire Strength of an attack and its resolution with cards drawn from the deck.

Strength (CORE 6, in the public core's terms, UF C.5): the firepower of the firing group's
unpinned men at the Relative Range, plus the Fire card's value (halved, rounded down, if the
group is moving: UF C.5), the firer's terrain (a Hill +1 outside the mountains: UF C.2) and
Wire on it, the flanking bonus, the target's cover and Wire and entrenchment; then the
appendix's altitude modifiers (UFM 6.2, 6.3) and environment (UFM 10.5, 10.6); then any
Concealment the defender plays. Minefield attacks take no altitude modifier (UFM 6.7).

Resolution (CORE 6.3, tables.json "fire"): 1 man checked per `men_per_strength` of strength
(at least one, at most the group); each check draws a card from the remaining deck (UF C.1:
random number and random positions): its random position row picks the man, and the margin
strength − random number gives KIA (≥ 6) or a pin (≥ 3); a pinned man pinned again routs.
"""

from __future__ import annotations

from typing import Any

from rules.core import deck as decks
from rules.core.dice import DiceSource
from rules.core.game import Fact, IllegalAction
from rules.up_front.data import World
from rules.up_front.geometry import altitude_modifier, gully_may_fire, level_of, relative_range
from rules.up_front.table import State, group, present, terrain_key, unpinned

Part = tuple[str, int, str | None]


def range_between(s: State, w: World, seat: str, letter: str, target_seat: str, target: str) -> int:
    a, b = group(s, seat, letter), group(s, target_seat, target)
    return relative_range(a["range"], b["range"], letter, target, level_of(w, a), level_of(w, b))


def strength(s: State, w: World, seat: str, letter: str, target_seat: str, target: str,
             card: str) -> tuple[int, list[Part]]:
    """The attack's Fire Strength before Concealment, and its parts (label, value, rule)."""
    g, t = group(s, seat, letter), group(s, target_seat, target)
    if not unpinned(s, g):
        raise IllegalAction(f"group {letter} has no unpinned man to fire", "CORE 6")
    if not present(s, t):
        raise IllegalAction(f"enemy group {target} has nobody left to fire at", "CORE 6")
    if any(m in w.vehicles and w.vehicles[m]["kind"] == "afv" for m in t["men"]):  # rules version 4
        raise IllegalAction("small arms do not harm an AFV: fire ordnance at it, or close with it", "VEH 2")
    rr = range_between(s, w, seat, letter, target_seat, target)
    lf, lt = level_of(w, g), level_of(w, t)
    if terrain_key(w, g) == "gully" and not gully_may_fire(lf, lt, rr):
        raise IllegalAction("a group in a Gully fires only at groups higher than the gully or at RR 5", "UFM 6.6")
    tab = w.tables["fire"]
    parts: list[Part] = [(f"firepower at RR {rr}", sum(w.soldiers[m]["fp"][rr] for m in unpinned(s, g)), "CORE 6")]
    value = int(w.cards[card]["value"])
    if g["moves"] and tab["moving_halves_card"]:
        parts.append((f"Fire card {value}, halved: the group is moving", value // 2, "UF C.5"))
    else:
        parts.append((f"Fire card {value}", value, "CORE 6"))
    tf = w.terrain[terrain_key(w, g)]
    if tf["fire_from"]:
        parts.append((f"firing from {tf['name']}", int(tf["fire_from"]), "CORE 3"))
    if g.get("wire"):
        parts.append(("firing from Wire", int(w.wire["fire_from"]), "CORE 3"))
    if g.get("flank"):
        parts.append(("flanking fire", int(tab["flank_bonus"]), "CORE 5"))
    tt = w.terrain[terrain_key(w, t)]
    if tt["cover"]:
        parts.append((f"target in {tt['name']}", int(tt["cover"]), "CORE 3"))
    if t.get("wire"):
        parts.append(("target in Wire", int(w.wire["cover"]), "CORE 3"))
    if t.get("entrenched"):
        parts.append(("target entrenched", int(tab["entrenched"]), "CORE 7"))
    mod, rule = altitude_modifier(lf, lt, terrain_key(w, t) == "pillbox")
    if mod:
        parts.append((f"altitude: level {lf} fires at level {lt}", mod, rule))
    jungle = w.tables.get("jungle")
    if s["terrain_type"] == "jungle" and jungle and rr >= int(jungle["from_range"]):
        parts.append((f"the jungle hides the target at RR {rr}", int(jungle["modifier"]), "JUNGLE 1"))
    if s["terrain_type"] == "jungle" and jungle and terrain_key(w, t) == "open" and not t.get("wire"):
        parts.append(("target on Open Ground in the jungle's undergrowth", int(jungle["open_cover"]), "JUNGLE 2"))
    env = w.tables["environment"].get(s["condition"])
    if isinstance(env, int):
        parts.append((f"{s['condition']} conditions", env, "UFM 10.5" if s["condition"] == "light" else "UFM 10.6"))
    return max(0, sum(p[1] for p in parts)), parts


def resolve(s: State, w: World, target_seat: str, target: str, fs: int, dice: DiceSource,
            facts: list[Fact], what: str) -> None:
    """Apply an attack of strength `fs` to a group (CORE 6.3); changes `s`."""
    t = group(s, target_seat, target)
    tab = w.tables["fire"]
    men = present(s, t)
    if fs <= 0 or not men:
        facts.append(Fact(f"{what}: strength {fs}, no effect", "CORE 6.3", "fire", {"strength": fs}))
        return
    checks = min(len(men), max(1, fs // int(tab["men_per_strength"])))
    for _ in range(checks):
        men = present(s, t)
        if not men:
            break
        drawn = decks.draw_for_random(s["deck"], dice, "a card drawn for a fire result")
        note_reshuffle(s, drawn, facts)
        c = w.cards[drawn.card]
        man = men[c["rpn"][len(men) - 1] - 1]
        margin = fs - int(c["rn"])
        result = next((r["result"] for r in tab["results"] if margin >= r["min"]), "miss")
        status = s["men"][man]["status"]
        if result == "kia":
            s["men"][man]["status"] = "kia"
        elif result == "pin":
            result = "routed" if status == "pinned" else "pinned"
            s["men"][man]["status"] = result
        facts.append(Fact(f"{what}: strength {fs}; {w.card_name(drawn.card)} picks {man} "
                          f"(position {men.index(man) + 1} of {len(men)}): {result}", "CORE 6.3", "fire",
                          {"card": drawn.card, "man": man, "result": result, "strength": fs, "group": target,
                           "seat": target_seat}))
        maybe_remove_first(s, w, drawn.card, facts)


def maybe_remove_first(s: State, w: World, card: str, facts: list[Fact]) -> None:
    """Scenario C: the first Stream discarded unused or drawn for a random number is removed (UFM 11.e)."""
    kind = s.get("remove_first")
    c = w.cards[card]
    if kind and c["type"] == "terrain" and c["terrain"] == kind and card in s["deck"]["discard"]:
        decks.remove(s["deck"], card)
        s["remove_first"] = None
        facts.append(Fact(f"The first {w.terrain[kind]['name']} is removed from the game ({w.card_name(card)})",
                          "UFM 11.e", "remove", {"card": card}))


def note_reshuffle(s: State, drawn: decks.Drawn, facts: list[Fact]) -> None:
    if drawn.reshuffled:
        facts.append(Fact(f"The draw pile ran out: reshuffle; deck pass {s['deck']['pass']} begins", "CORE 9",
                          "reshuffle", {"pass": s["deck"]["pass"]}))


def describe(parts: list[Part]) -> str:
    return ", ".join(f"{label} {value:+d}" for label, value, _ in parts)


def attack_context(s: State, w: World, target_seat: str, target: str, fs: int) -> dict[str, Any]:
    """The public context of a Concealment window (rules.core.reactions)."""
    return {"target": target, "men": len(present(s, group(s, target_seat, target))), "strength": fs}
