"""The other seat's decisions in the phasing player's turn (rules.core.reactions windows):

* `concealment`: a group of mine is attacked: play a Concealment card against it, or not (UF C.5);
* `terrain`: terrain discarded onto my moving group: accept it, or reject it by discarding a
  Movement card (CORE 5.3; Stream and Minefield are never rejected, UF C.2);
* `mine_altitude`: a Minefield hit my group during its altitude change: place the altitude card
  of the new level, or not, and the change fails (UFM 5.1.j; B.6-6 INFERRED).

Each window opens whatever the seat holds (its opening is public) and a secret standing
answer may settle it without a round trip (rules/core/reactions.py).

Rules version 3: whether a window is settled without asking is public (the seat is asked or not),
so it may depend only on public things: a standing answer is a face-down marker whose window kind
and conditions are public, and only its words (play or decline) are the seat's (`face_down_view`,
`published`). A settled window says so publicly; a card played is public, a decline shows nothing
more (so "play" without a fitting card looks exactly like "decline").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.core import deck as decks
from rules.core import reactions, standing
from rules.core.dice import DiceSource
from rules.core.game import Fact, IllegalAction
from rules.core.hands import take
from rules.up_front import altitude as alt
from rules.up_front import fire, vehicles
from rules.up_front import standing as uf_standing
from rules.up_front.data import World
from rules.up_front.geometry import level_of
from rules.up_front.occupy import occupy
from rules.up_front.table import Group, State, group, terrain_key

KINDS = ("concealment", "terrain", "mine_altitude")
FIELDS = {"concealment": ("men", "strength", "target"), "terrain": ("group",), "mine_altitude": ("group", "level")}


def _settle(s: State, w: World, seat: str, kind: str, context: dict[str, Any], dice: DiceSource,
            facts: list[Fact]) -> None:
    if uf_standing.worded(s):  # rules version 4 on: answers in words (rules/up_front/standing.py)
        worded = standing.answer_for(s, seat, kind, context)
        if worded is None:
            return
        pick = uf_standing.pick(w, kind, worded, options(s, w, seat))
    else:
        answer = reactions.standing_answer(s, seat, kind, context)
        if answer is None:
            return
        choices = [a for a in options(s, w, seat) if a["type"] != "decline" and a["type"] != "accept"]
        pick = {"type": "decline"} if kind != "terrain" else {"type": "accept"}
        if answer == "play" and choices:
            pick = choices[0]
    facts.append(Fact(f"{seat}'s standing answer settles the {kind} window", "CORE 11", "standing",
                      {"kind": kind}, visible_to=(seat,)))
    apply(s, w, seat, pick, dice, facts)


def offer_concealment(s: State, w: World, seat: str, target: str, fs: int, what: str, dice: DiceSource,
                      facts: list[Fact]) -> None:
    context = fire.attack_context(s, w, seat, target, fs)
    reactions.open_window(s, "concealment", seat, context, {"fs": fs, "what": what})
    _settle(s, w, seat, "concealment", context, dice, facts)


def offer_terrain(s: State, w: World, seat: str, letter: str, card: str, dice: DiceSource, facts: list[Fact]) -> None:
    """The terrain window; a standing answer settles it at once, an AFV's bog check (VEH 6) drawing
    its card with `dice` when the terrain is accepted."""
    context: dict[str, Any] = {"group": letter, "terrain": w.cards[card]["terrain"]}
    if uf_standing.worded(s):  # rules version 4 on: its cover modifier, for a standing answer's condition
        context["cover"] = int(w.terrain[context["terrain"]]["cover"])
    reactions.open_window(s, "terrain", seat, context, {"card": card})
    _settle(s, w, seat, "terrain", context, dice, facts)


def offer_mine_altitude(s: State, w: World, seat: str, letter: str, facts: list[Fact]) -> None:
    g = group(s, seat, letter)
    context = {"group": letter, "level": level_of(w, g)}
    reactions.open_window(s, "mine_altitude", seat, context)
    _settle(s, w, seat, "mine_altitude", context, _NO_DICE, facts)


class _NoDice:
    def roll(self, faces: int, purpose: str, secret: bool = False) -> int:
        raise RuntimeError("this window needs no dice")


_NO_DICE = _NoDice()


def _fits(s: State, w: World, g: Group, card: str) -> bool:
    try:
        alt.new_level(s, w, g, card)
    except IllegalAction:
        return False
    return True


def options(s: State, w: World, seat: str) -> list[dict[str, Any]]:
    """The legal answers to the open window (the refusal always among them)."""
    win = reactions.current(s)
    if not win or win["seat"] != seat:
        return []
    hand = s["hands"][seat]
    if win["kind"] == "concealment":
        return ([{"type": "conceal", "card": c} for c in hand if w.cards[c]["type"] == "concealment"]
                + [{"type": "decline"}])
    if win["kind"] == "terrain":
        return [{"type": "accept"}] + [{"type": "reject", "card": c} for c in hand if w.cards[c]["type"] == "movement"]
    g = group(s, seat, win["context"]["group"])
    out = [{"type": "mine_altitude", "card": c} for c in hand if _fits(s, w, g, c)]
    if level_of(w, g) == 1:
        out.append({"type": "mine_altitude", "card": None})
    return out + [{"type": "decline"}]


def apply(s: State, w: World, seat: str, a: dict[str, Any], dice: DiceSource, facts: list[Fact]) -> None:
    win = reactions.current(s)
    assert win is not None
    if a not in options(s, w, seat):
        raise IllegalAction(f"answer the {win['kind']} window with one of its listed answers", "CORE 11")
    reactions.close(s)
    ctx, kind = win["context"], win["kind"]
    if kind == "concealment":
        fs = int(win["resume"]["fs"])
        if a["type"] == "conceal":
            value = int(w.cards[a["card"]]["value"])
            take(s["hands"], seat, a["card"], "UF C.5")
            decks.discard(s["deck"], [a["card"]])
            fs = max(0, fs - value)
            facts.append(Fact(f"{seat} plays Concealment {value} ({w.card_name(a['card'])}): strength {fs}",
                              "UF C.5", "conceal", {"card": a["card"], "seat": seat}))
        fire.resolve(s, w, seat, ctx["target"], fs, dice, facts, win["resume"]["what"])
        return
    g = group(s, seat, ctx["group"])
    if kind == "terrain":
        card = win["resume"]["card"]
        if a["type"] == "reject":
            take(s["hands"], seat, a["card"], "CORE 5.3")
            decks.discard(s["deck"], [a["card"], card])
            facts.append(Fact(f"{seat} rejects {w.card_name(card)} with a Movement card", "CORE 5.3", "reject",
                              {"card": card, "seat": seat}))
        else:
            occupy(s, w, seat, ctx["group"], card, False, facts, "CORE 5.3")
            if vehicles.kind(s, w, g) == "afv" and terrain_key(w, g) != "open":
                vehicles.bog_check(s, w, seat, ctx["group"], dice, facts, "terrain card "
                                   + w.terrain[terrain_key(w, g)]["name"])  # VEH 6
        return
    # mine_altitude (UFM 5.1.j)
    moves = [m["card"] for m in g["moves"]]
    decks.discard(s["deck"], moves)
    g.update({"moves": [], "alt_stage": 0, "alt_turn": None})
    if a["type"] == "decline":
        facts.append(Fact(f"{seat} group {ctx['group']} places no altitude card: the change fails (B.6-6)",
                          "UFM 5.1.j", "altitude", {"group": ctx["group"], "seat": seat}))
        return
    if a["card"] is not None:
        take(s["hands"], seat, a["card"], "UFM 5.1.j")
    if g["altitude"]:
        decks.discard(s["deck"], [g["altitude"]])
    g["altitude"] = a["card"]
    facts.append(Fact(f"{seat} group {ctx['group']} is in the Minefield at its new level {level_of(w, g)}",
                      "UFM 5.1.j", "altitude", {"group": ctx["group"], "seat": seat, "level": level_of(w, g)}))


HIDDEN = "hidden"  # another seat's play-or-decline as its view shows it (rules version 3)


def face_down_view(state: State, seat: str | None) -> dict[str, Any]:
    """Rules version 3: the viewer's own standing answers, and every other seat's as face-down
    markers: the kind and its conditions (which decide, publicly, whether the seat is asked), with
    the answer "hidden" when it is play or decline (version 4 on: whatever it says)."""
    if uf_standing.worded(state):
        worded = standing.view(state, seat) | ({} if seat is None or seat in state.get("standing", {}) else {seat: {}})
        plan = state.get("standing", {}).get(seat, {}).get("turn") if seat is not None else None
        if seat is not None and plan is not None:  # the seat's own conditional turn: its actions too (CORE 11.2)
            worded[seat]["turn"]["turns"] = [[dict(x) for x in one] for one in plan["turns"]]
        return worded
    out: dict[str, Any] = {} if seat is None else {seat: {}}
    for who, answers in sorted(state.get("standing", {}).items()):
        if who == seat:
            out[who] = {k: {"answer": v["answer"], "when": [list(c) for c in v["when"]]} for k, v in answers.items()}
        else:
            out[who] = {k: {"answer": HIDDEN if v["answer"] in ("play", "decline") else v["answer"],
                            "when": [list(c) for c in v["when"]]} for k, v in answers.items()}
    return out


def published(facts: list[Fact]) -> list[Fact]:
    """Rules version 3: the facts of an action other than recording a standing answer; the one that
    says a standing answer settled a window (`_settle`'s, which names no card and no answer) is
    public, as the window's opening and closing are."""
    return [replace(f, visible_to=None) if f.kind == "standing" else f for f in facts]
