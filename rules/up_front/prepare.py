"""Set-up and Prepare for Play: forces, hands, the scenario's altitude placements (UFM 4, 11).

The set-up deals each seat its nation's hand from the provable deck (UF C.4). Prepare for Play
then asks each seat in turn (the first player first) to place starting terrain on its own
groups (CORE 2) and altitude cards as the scenario allows (UFM 4.a, 11.e), and to say `ready`.
"""

from __future__ import annotations

from typing import Any

from rules.core import deck as decks
from rules.core.dice import DiceSource
from rules.core.game import Fact, IllegalAction
from rules.core.hands import draw_into, take
from rules.up_front import fire, vehicles
from rules.up_front.data import World
from rules.up_front.table import State, altitude_card, group, ordinary_terrain, other


def new_group(men: list[str]) -> dict[str, Any]:
    return {"range": 0, "terrain": None, "as_open": False, "altitude": None, "moves": [], "alt_stage": 0,
            "alt_turn": None, "entrenched": False, "wire": None, "minefield": None, "flank": False, "men": list(men)}


def terrain_types(w: World, scenario: str) -> list[str]:
    """The mountain terrain types a scenario may be played in: its own list (M: Bare only, N:
    Jungle-covered only, UFM 11.e), else Bare anywhere, Forested in the European theatre only and
    Jungle-covered in the Pacific only (UFM 9.1-9.3)."""
    sc = w.scenarios[scenario]
    extra = {"europe": ["forested"], "pacific": ["jungle"]}.get(sc["theatre"], [])
    return list(sc["terrain_types"] or ["bare", *extra])


def setup_state(w: World, scenario: str, options: dict[str, Any], dice: DiceSource,
                pillbox_first: bool = True) -> State:
    """The scenario set up, hands dealt. `pillbox_first`: the real Pillbox of C and O is taken out
    of the deck before the hands are dealt (rules version 2); version 1 took it after, from the
    draw pile (and, when both Pillboxes had been dealt, failed: now it takes one from the hand and
    deals a replacement)."""
    sc = w.scenarios[scenario]
    notes: list[str] = []
    terrain_type = options.get("terrain_type", "bare")
    allowed = terrain_types(w, scenario)
    if terrain_type not in allowed:  # refused at creation (game.check_options); kept for recorded games
        notes.append(f"Scenario {scenario} allows only {', '.join(allowed)} terrain: {allowed[0]} is used (UFM 9.b, 11.e)")
        terrain_type = allowed[0]
    nf = []
    if sc["minefield_nf"]:
        nf.append("minefield")
    if terrain_type == "bare":
        nf.append("woods")  # UFM 9.1
    if sc["real_pillbox"]:
        nf.append("pillbox")  # a real pillbox, placed by the scenario only (UFM 3.4, 11.c; CORE 2)
    roles = list(sc["roles"])
    s: State = {
        "scenario": scenario, "roles": roles, "first": sc["first"], "attacker": sc["attacker"],
        "terrain_type": terrain_type, "condition": options.get("condition", "dry"),
        "mountain_troops": list(sc["mountain_troops"]) if options.get("mountain_troops", True) else [],
        "level4": not sc["real_pillbox"], "nf": nf, "remove_first": sc["remove_first"],
        "objective": dict(sc["objective"]), "passes": sc["passes"], "nation": {r: r for r in roles},
        "phase": "prepare", "turn": sc["first"], "turn_no": 0, "acted": [], "discarded": 0, "ready": [],
        "drew_until": [], "deck": decks.new_deck(sorted(w.cards)), "hands": {r: [] for r in roles},
        "reaction": None, "standing": {}, "over": None, "notes": notes,
        "groups": {r: {letter: new_group(men) for letter, men in sorted(sc["forces"][r].items())} for r in roles},
        "men": {m: {"seat": r, "group": letter, "status": "ok"}
                for r in roles for letter, men in sc["forces"][r].items() for m in men},
        "reserves": {r: (dict(sc["reinforcements"][r]) if r in sc.get("reinforcements", {}) else None)
                     for r in roles},
    }
    for r, res in s["reserves"].items():
        for m in (res or {}).get("men", []):
            s["men"][m] = {"seat": r, "group": None, "status": "reserve"}
    setup = sc["altitude_setup"]

    def real_pillbox() -> None:
        seat = setup["seat"]
        pills = [c for c in sorted(w.cards) if w.cards[c]["type"] == "terrain" and w.cards[c]["terrain"] == "pillbox"]
        free = [c for c in pills if c in s["deck"]["draw"]]
        if free:
            pill = free[0]
            s["deck"]["draw"].remove(pill)
        else:  # version 1 only: both were dealt; the first seat's goes, a replacement is dealt
            holder = next(r for r in roles if pills[0] in s["hands"][r])
            pill = pills[0]
            s["hands"][holder].remove(pill)
            draw_into(s["hands"], holder, s["deck"], dice, 1, w.card_name, "UF C.4")
        s["groups"][seat]["B"]["terrain"] = pill
        notes.append(f"{seat} group B holds the real Pillbox ({w.card_name(pill)}) (UFM 11.e {scenario})")

    if setup["kind"] == "must_b" and pillbox_first:
        real_pillbox()
    for r in [sc["first"], other(s, sc["first"])]:
        draw_into(s["hands"], r, s["deck"], dice, int(w.nations[r]["hand"]), w.card_name, "UF C.4")
    if setup["kind"] == "must_b":
        seat = setup["seat"]
        if not pillbox_first:
            real_pillbox()
        if not any(altitude_card(s, w, c) for c in s["hands"][seat]):
            draw_until(s, w, seat, 1, dice)
    return s


def draw_mountain_troops(s: State, w: World, dice: DiceSource) -> None:
    """DYO (UFM 12.14; the option `dyo_mountain_troops`, rules version 4): each side with elite
    troops draws one card from the deck — a black random number makes them mountain troops, a red one
    elite troops without the mountain-troop advantages (12.11-12.13). The card is discarded (a random
    number drawn, UF C.1); scenario C's first Stream drawn so is removed (UFM 11.e C)."""
    for seat in list(s["mountain_troops"]):
        drawn = decks.draw_for_random(s["deck"], dice, f"a card drawn for {seat}' elite troops (UFM 12.14)")
        c = w.cards[drawn.card]
        mountain = c["colour"] == "black"
        if not mountain:
            s["mountain_troops"].remove(seat)
        s["notes"].append(f"{seat}' elite troops draw {w.card_name(drawn.card)}: {c['colour']} — "
                          f"{'mountain troops' if mountain else 'elite troops without the mountain-troop advantages'}"
                          " (UFM 12.14)")
        removed: list[Fact] = []
        fire.maybe_remove_first(s, w, drawn.card, removed)
        s["notes"] += [f.text for f in removed]


def draw_until(s: State, w: World, seat: str, count: int, dice: DiceSource) -> None:
    """Draw until `count` altitude cards; they join the hand, the rest go back and the deck is
    reshuffled (UFM 11.e C, L, O, S, V, W; UF-28)."""
    found, others = decks.draw_until(s["deck"], dice, lambda c: altitude_card(s, w, c), count,
                                     f"a card drawn by {seat} until an altitude card")
    s["hands"][seat].extend(found)
    decks.return_cards(s["deck"], others, f"{seat}'s draw-until procedure: the other cards go back")
    s["notes"].append(f"{seat} draws until {count} altitude card{'s' if count != 1 else ''}: {len(found)} found, "
                      f"{len(others)} other card{'s' if len(others) != 1 else ''} back into the deck, reshuffled "
                      "(UFM 11.e)")


def _altitude_targets(s: State, seat: str, w: World, appendix: bool = True) -> list[tuple[str, str]]:
    """The groups `seat` may give a starting altitude card. `appendix` (rules version 3 on): UFM 4
    lets either player place altitude cards on friendly or enemy groups, and a scenario's special
    rule changes only what it says (UFM 11.e): C and O add the defender's duty to put one on his
    group B (his to place, and first, or he could give his cards away and be stuck); L, S and W
    add the defender's draw-until procedure; V adds the attacker's and keeps every defender group
    at level 0. Before version 3 the named seat alone placed, on its own groups (a misreading)."""
    setup = w.scenarios[s["scenario"]]["altitude_setup"]
    if setup["kind"] == "free":
        return [(r, letter) for r in s["roles"] for letter in sorted(s["groups"][r])]  # UFM 4.a
    named = setup["seat"]
    if setup["kind"] == "must_b" and seat == named and s["groups"][seat]["B"]["altitude"] is None:
        return [(seat, "B")]
    if not appendix:
        return [(seat, letter) for letter in sorted(s["groups"][seat])] if seat == named else []
    out = [(r, letter) for r in s["roles"] for letter in sorted(s["groups"][r])]
    if setup.get("others_level0"):
        out = [(r, letter) for r, letter in out if r == named]  # UFM 11.e V: defender groups at level 0
    if setup["kind"] == "must_b" and seat != named:
        out = [(r, letter) for r, letter in out if (r, letter) != (named, "B")]  # the defender's to place
    return out


def prepare_actions(s: State, w: World, seat: str, appendix: bool = True) -> list[dict[str, Any]]:
    """Prepare for Play's legal actions; `appendix`: rules version 3's reading of UFM 4 and 11.e
    (`_altitude_targets`). An AFV's group takes no altitude card (UFM 7.1); an infantry gun's does
    (UFM 8: the gun starts at that level)."""
    out: list[dict[str, Any]] = []
    targets = [(r, letter) for r, letter in _altitude_targets(s, seat, w, appendix)
               if vehicles.may_take_altitude(s, w, r, letter)]
    for c in s["hands"][seat]:
        if altitude_card(s, w, c):
            out += [{"type": "place", "card": c, "side": r, "group": letter} for r, letter in targets
                    if s["groups"][r][letter]["altitude"] is None]
        elif ordinary_terrain(s, w, c):
            out += [{"type": "place", "card": c, "side": seat, "group": letter}
                    for letter, g in sorted(s["groups"][seat].items()) if g["terrain"] is None]
    setup = w.scenarios[s["scenario"]]["altitude_setup"]
    if setup["kind"] == "may_draw" and setup["seat"] == seat and seat not in s["drew_until"]:
        out += [{"type": "draw_altitude", "count": n} for n in range(1, len(s["groups"][seat]) + 1)]
    if _ready_blocker(s, w, seat) is None:
        out.append({"type": "ready"})
    return out


def _ready_blocker(s: State, w: World, seat: str) -> str | None:
    setup = w.scenarios[s["scenario"]]["altitude_setup"]
    if setup["kind"] == "must_b" and setup["seat"] == seat and s["groups"][seat]["B"]["altitude"] is None:
        return "group B must receive an altitude card besides the Pillbox (UFM 11.e)"
    return None


def prepare_apply(s: State, w: World, seat: str, a: dict[str, Any], dice: DiceSource, facts: list[Fact],
                  appendix: bool = True) -> None:
    if a not in prepare_actions(s, w, seat, appendix):
        blocker = _ready_blocker(s, w, seat) if a.get("type") == "ready" else None
        raise IllegalAction(blocker or "not a legal Prepare for Play action now", "UFM 4")
    if a["type"] == "place":
        g = group(s, a["side"], a["group"])
        take(s["hands"], seat, a["card"], "UFM 4")
        slot = "altitude" if altitude_card(s, w, a["card"]) else "terrain"
        g[slot] = a["card"]
        facts.append(Fact(f"{seat} places {w.card_name(a['card'])} on {a['side']} group {a['group']} "
                          f"({'altitude card' if slot == 'altitude' else 'starting terrain'})",
                          "UFM 4.a" if slot == "altitude" else "CORE 2", "place",
                          {"card": a["card"], "seat": a["side"], "group": a["group"]}))
    elif a["type"] == "draw_altitude":
        before = len(s["notes"])
        draw_until(s, w, seat, int(a["count"]), dice)
        s["drew_until"].append(seat)
        facts.append(Fact(s["notes"][before], "UFM 11.e", "draw_until", {"seat": seat}))
    else:
        s["ready"].append(seat)
        facts.append(Fact(f"{seat} is ready", "UFM 4", "ready"))
        if len(s["ready"]) == 2:
            s["phase"], s["turn"], s["turn_no"] = "play", s["first"], 1
            for r in s["roles"]:
                hand = int(w.nations[r]["hand"])
                _, got = draw_into(s["hands"], r, s["deck"], dice, max(0, hand - len(s["hands"][r])), w.card_name,
                                   "UF C.4")
                facts.extend(got)
            facts.append(Fact(f"Play begins: {s['first']} has the first turn", "CORE 4", "phase"))
        else:
            s["turn"] = other(s, seat)
