"""AFVs and infantry guns: our vehicle and ordnance core (VEH, OURS) with the appendix's rules on
top (UFM 6.4, 7, 8, 10.3d-e, 10.5-10.6), rules version 4 (docs/games/up-front.md).

* **VEH 1** A vehicle (an AFV or an infantry gun, `vehicles.json`) is a personality card alone in
  its group (a one-man group): no man transfers into or out of it. It counts as one man for the
  casualty victory condition (UF C.6): destroyed = killed.
* **VEH 2** Small arms (a `fire`) do not harm an AFV: its group is attacked by ordnance or in close
  combat (CORE 8, the AFV as the one man). An infantry gun's group is attacked like infantry (its
  crew). A vehicle fires its small arms (`fp`) with a Fire card like a man.
* **VEH 3** Ordnance fire (`ordnance`): a Fire card is played; a card is drawn for the To Hit: the
  shot hits when its random number + the Fire card's value reaches the gun's To Hit number at the
  RR (penalties raise the number: B.6-1, read as penalties; flanking lowers it by 1).
* **VEH 4** A hit on an infantry or gun group: strength = HE effect number + the hit card's margin
  (random number + card − To Hit number) + the target's cover, Wire and entrenchment, resolved by
  CORE 6.3; no altitude modifier (UFM 6.2/6.3 are for Fire Strength; B.2.6 step 4). No Concealment.
* **VEH 5** A hit on an AFV: AP effect number + margin − armour (front; flank when the firer flanks
  or fires from level 2+, UFM 7.2): ≥ 2 destroyed, ≥ 0 immobilised, else no effect.
* **VEH 6** Bog check: an AFV draws a card whenever it ends a move on a terrain card other than Open
  Ground, and in Mud or Heavy snow for every Movement card it places (UFM 10.3e): a red 0 or 1
  bogs it (immobilised for the rest of the game: no unbogging on a mountain road, OURS).

The appendix: AFVs move at level 0 only and never change altitude (UFM 7.1; they take no altitude
card at set-up, INFERRED); infantry guns start at the altitude an altitude card gives them at set-up
and never move (UFM 8); a target higher than the gun is missed on a red To Hit card and gets no hit
card's margin (UFM 6.4, B.6-4's reading); an immobilised or bogged assault gun fires ordnance only
with a black Fire card, To Hit −2 read as a penalty (UFM 7.3, B.6-1); Mud and Heavy snow take 1 from
HE (uncircled) effect numbers (UFM 10.3d); Light and Heavy To Hit −1/−2 (UFM 10.5, 10.6, penalties).
"""

from __future__ import annotations

from typing import Any

from rules.core import deck as decks
from rules.core.dice import DiceSource
from rules.core.game import Fact, IllegalAction
from rules.up_front import fire
from rules.up_front.data import World
from rules.up_front.geometry import gully_may_fire, level_of
from rules.up_front.table import Group, State, group, other, present, terrain_key

MUDDY = ("mud", "heavy_snow")


def vehicle_of(s: State, w: World, g: Group) -> dict[str, Any] | None:
    """The group's vehicle (VEH 1: it is alone in its group), or None for men."""
    for m in g["men"]:
        if m in w.vehicles:
            return w.vehicles[m]
    return None


def kind(s: State, w: World, g: Group) -> str | None:
    v = vehicle_of(s, w, g)
    return None if v is None else str(v["kind"])


def immobilised(s: State, g: Group) -> bool:
    return any(s["men"][m].get("immobilised") for m in g["men"])


def check_moves(s: State, w: World, g: Group, what: str) -> None:
    """An infantry gun never moves (UFM 8); an immobilised or bogged AFV neither (VEH 5-6)."""
    k = kind(s, w, g)
    if k == "gun":
        raise IllegalAction(f"an infantry gun never moves once set up ({what})", "UFM 8")
    if k == "afv" and immobilised(s, g):
        raise IllegalAction(f"the AFV is immobilised or bogged ({what})", "VEH 5")


def check_altitude_change(s: State, w: World, g: Group) -> None:
    """AFVs stay at level 0 (UFM 7.1); guns never move (UFM 8)."""
    k = kind(s, w, g)
    if k == "afv":
        raise IllegalAction("an AFV moves at altitude level 0 only and never changes level", "UFM 7.1")
    if k == "gun":
        raise IllegalAction("an infantry gun never moves once set up, nor changes altitude", "UFM 8")


def check_transfer(s: State, w: World, src: Group, dst: Group) -> None:
    if kind(s, w, src) or kind(s, w, dst):
        raise IllegalAction("a vehicle or gun is alone in its group: no man transfers into or out of it", "VEH 1")


def may_take_altitude(s: State, w: World, seat: str, letter: str) -> bool:
    """An AFV's group takes no altitude card at set-up: it is at level 0 (UFM 7.1, INFERRED)."""
    return kind(s, w, s["groups"][seat][letter]) != "afv"


def can_fire_ordnance(s: State, w: World, g: Group) -> bool:
    v = vehicle_of(s, w, g)
    return v is not None and all(s["men"][m]["status"] == "ok" for m in g["men"])


def to_hit(s: State, w: World, seat: str, letter: str, target: str) -> tuple[int, list[fire.Part]]:
    """The To Hit number of an ordnance shot and its parts (VEH 3; UFM 7.3, 10.5, 10.6)."""
    g = group(s, seat, letter)
    v = vehicle_of(s, w, g)
    assert v is not None
    rr = fire.range_between(s, w, seat, letter, other(s, seat), target)
    tab = w.ordnance
    parts: list[fire.Part] = [(f"RR {rr}", int(v["to_hit"][rr]), "VEH 3")]
    if v["assault_gun"] and immobilised(s, g):
        parts.append(("immobilised assault gun", int(tab["to_hit_penalty"]["immobilised_assault_gun"]), "UFM 7.3"))
    if s["condition"] in ("light", "heavy"):
        parts.append((f"{s['condition']} conditions", int(tab["to_hit_penalty"][s["condition"]]),
                      "UFM 10.5" if s["condition"] == "light" else "UFM 10.6"))
    if g.get("flank"):
        parts.append(("flanking fire", -int(tab["to_hit_flank_bonus"]), "VEH 3"))
    return sum(p[1] for p in parts), parts


def check_ordnance(s: State, w: World, seat: str, a: dict[str, Any]) -> Group:
    """Everything that may refuse an ordnance shot, reading the state only: the firing group."""
    from rules.up_front.turn import _card, _own_group  # turn.py imports this module
    g = _own_group(s, w, seat, a["group"])
    c = _card(s, w, seat, a["card"], "fire", "VEH 3")
    v = vehicle_of(s, w, g)
    if v is None:
        raise IllegalAction("only an AFV or an infantry gun fires ordnance", "VEH 3")
    if not can_fire_ordnance(s, w, g):
        raise IllegalAction(f"the {v['name']} is pinned or out of action", "VEH 3")
    if v["assault_gun"] and immobilised(s, g) and c["colour"] != "black":
        raise IllegalAction("an immobilised or bogged assault gun fires ordnance only with a black Fire card",
                            "UFM 7.3")
    foe = other(s, seat)
    t = group(s, foe, a["target"])
    if not present(s, t):
        raise IllegalAction(f"enemy group {a['target']} has nobody left to fire at", "VEH 3")
    rr = fire.range_between(s, w, seat, a["group"], foe, a["target"])
    if terrain_key(w, g) == "gully" and not gully_may_fire(level_of(w, g), level_of(w, t), rr):
        raise IllegalAction("a group in a Gully fires only at groups higher than the gully or at RR 5", "UFM 6.6")
    return g


def ordnance(s: State, w: World, seat: str, a: dict[str, Any], dice: DiceSource, facts: list[Fact]) -> None:
    """An ordnance shot: To Hit, then the effect (VEH 3-5; UFM 6.4, 7.2, 10.3d)."""
    from rules.up_front.turn import play_card  # turn.py imports this module
    g = check_ordnance(s, w, seat, a)
    v = vehicle_of(s, w, g)
    assert v is not None
    foe = other(s, seat)
    t = group(s, foe, a["target"])
    value = int(w.cards[a["card"]]["value"])
    number, parts = to_hit(s, w, seat, a["group"], a["target"])
    play_card(s, seat, a["card"])
    s["acted"].append(a["group"])
    flanking = bool(g.get("flank"))
    g["flank"] = False
    drawn = decks.draw_for_random(s["deck"], dice, "a card drawn for an ordnance To Hit")
    fire.note_reshuffle(s, drawn, facts)
    c = w.cards[drawn.card]
    rr = fire.range_between(s, w, seat, a["group"], foe, a["target"])
    lf, lt = level_of(w, g), level_of(w, t)
    higher = lt > lf
    total = int(c["rn"]) + value
    head = (f"{seat} group {a['group']} fires its {v['name']} at {foe} group {a['target']}: To Hit number "
            f"{fire.describe(parts)} = {number}; drawn {w.card_name(drawn.card)}: {c['rn']} + Fire card {value} "
            f"= {total}")
    data = {"group": a["group"], "seat": seat, "target": a["target"], "card": drawn.card, "to_hit": number}
    if higher and c["colour"] == "red":
        facts.append(Fact(head + f": a red card against a target higher than the gun (level {lt} over {lf}) misses",
                          "UFM 6.4", "ordnance", {**data, "result": "miss"}))
        fire.maybe_remove_first(s, w, drawn.card, facts)
        return
    if total < number:
        facts.append(Fact(head + ": miss", "VEH 3", "ordnance", {**data, "result": "miss"}))
        fire.maybe_remove_first(s, w, drawn.card, facts)
        return
    margin = 0 if higher else total - number  # UFM 6.4: a higher group gets no hit card's modification
    margin_part = (("no hit card margin: the target is higher (UFM 6.4)", 0, "UFM 6.4") if higher
                   else ("hit card margin", margin, "VEH 4"))
    fire.maybe_remove_first(s, w, drawn.card, facts)
    tv = vehicle_of(s, w, t)
    if tv is not None and tv["kind"] == "afv":
        side = "flank" if (lf >= 2 or flanking) else "front"
        hit: list[fire.Part] = [(f"AP at RR {rr}", int(v["ap"][rr]), "VEH 5"), margin_part,
                                (f"{tv['name']} {side} armour", -int(tv["armour"][side]),
                                 "UFM 7.2" if side == "flank" and lf >= 2 else "VEH 5")]
        net = sum(p[1] for p in hit)
        result = next((r["result"] for r in w.ordnance["afv_results"] if net >= r["min"]), "no effect")
        man = t["men"][0]
        if result == "destroyed":
            s["men"][man]["status"] = "kia"
        elif result == "immobilised":
            s["men"][man]["immobilised"] = True
        facts.append(Fact(head + f": hit; {fire.describe(hit)} = {net}: the {tv['name']} is {result}",
                          "VEH 5", "ordnance", {**data, "result": result, "man": man,
                                                "rules": sorted({p[2] for p in parts + hit if p[2]})}))
        return
    hit = [(f"HE at RR {rr}", int(v["he"][rr]), "VEH 4"), margin_part]
    if s["condition"] in MUDDY:
        hit.append((f"{s['condition']}: uncircled effect number", int(w.ordnance["uncircled_mud"]), "UFM 10.3"))
    tt = w.terrain[terrain_key(w, t)]
    if tt["cover"]:
        hit.append((f"target in {tt['name']}", int(tt["cover"]), "CORE 3"))
    if t.get("wire"):
        hit.append(("target in Wire", int(w.wire["cover"]), "CORE 3"))
    if t.get("entrenched"):
        hit.append(("target entrenched", int(w.tables["fire"]["entrenched"]), "CORE 7"))
    fs = max(0, sum(p[1] for p in hit))
    facts.append(Fact(head + f": hit; {fire.describe(hit)} = strength {fs}", "VEH 4", "ordnance",
                      {**data, "result": "hit", "strength": fs, "rules": sorted({p[2] for p in parts + hit if p[2]})}))
    fire.resolve(s, w, foe, a["target"], fs, dice, facts, f"{seat} group {a['group']} {v['name']}")


def bog_check(s: State, w: World, seat: str, letter: str, dice: DiceSource, facts: list[Fact], why: str) -> bool:
    """VEH 6 (UFM 10.3e in Mud and Heavy snow): a card drawn; a red 0 or 1 bogs the AFV. True if bogged."""
    g = group(s, seat, letter)
    man = g["men"][0]
    drawn = decks.draw_for_random(s["deck"], dice, "a card drawn for a bog check")
    fire.note_reshuffle(s, drawn, facts)
    c = w.cards[drawn.card]
    bog = w.ordnance["bog"]
    bogged = c["colour"] == bog["colour"] and int(c["rn"]) <= int(bog["max_rn"])
    if bogged:
        s["men"][man]["immobilised"] = True
    facts.append(Fact(f"{seat} group {letter} makes a bog check ({why}): {w.card_name(drawn.card)} — "
                      f"{'BOGGED' if bogged else 'not bogged'}", "UFM 10.3" if why.startswith("Movement") else "VEH 6",
                      "bog", {"group": letter, "seat": seat, "card": drawn.card, "bogged": bogged}))
    fire.maybe_remove_first(s, w, drawn.card, facts)
    return bogged


def after_move(s: State, w: World, seat: str, a: dict[str, Any], dice: DiceSource, facts: list[Fact]) -> None:
    """The bog checks that follow an AFV's own move or completion (VEH 6; UFM 10.3e). A bog during a
    move ends it where it stands: its Movement cards are discarded."""
    g = s["groups"][seat].get(a.get("group", ""))
    if g is None or kind(s, w, g) != "afv":
        return
    if a["type"] == "move" and s["condition"] in MUDDY:
        if bog_check(s, w, seat, a["group"], dice, facts, "Movement card in " + s["condition"]):
            decks.discard(s["deck"], [m["card"] for m in g["moves"]])
            g["moves"] = []
    elif a["type"] == "complete" and terrain_key(w, g) != "open":
        bog_check(s, w, seat, a["group"], dice, facts, "terrain card " + w.terrain[terrain_key(w, g)]["name"])
