"""A small two-seat card game that exists only in the tests, to prove the card machinery of
rules/core (deck, hands, reactions) through the real API, ledger, worker and `warlog verify`,
independently of UP FRONT's complexity.

24 cards: 18 attacks (`zq-A01`…, strength 1–3) and 6 shields (`zq-S01`…); hands of 4. On its
turn a seat attacks with a card, discards one, or draws a random number (a card from the
remaining pile, read and discarded); then it refills its hand. An attack opens a reaction
window for the other seat: play a shield (the attack is stopped) or decline (it takes the
damage). A seat may record a secret standing answer for the shield window. The game ends
when a seat has taken 8 damage or at the end of the second deck pass (the time limit).
"""

from __future__ import annotations

import copy
from typing import Any

from marshmallow import fields, validate

from rules import register
from rules.core import deck as decks
from rules.core import reactions
from rules.core.dice import DiceSource
from rules.core.game import Applied, Fact, Game, IllegalAction, Outcome, Scenario
from rules.core.hands import draw_into, fill, hands_view, take
from validators.actions import StrictSchema, action_type, register_actions

SEATS = ("north", "south")
CARDS = [f"zq-A{i:02d}" for i in range(1, 19)] + [f"zq-S{i:02d}" for i in range(1, 7)]
HAND = 4
LIMIT = 2  # deck passes
KINDS = ("shield",)
FIELDS = {"shield": ("strength",)}


def strength(card: str) -> int:
    return int(card[-2:]) % 3 + 1 if card.startswith("zq-A") else 0


def name(card: str) -> str:
    return f"{card} ({'attack ' + str(strength(card)) if strength(card) else 'shield'})"


def other(seat: str) -> str:
    return SEATS[1 - SEATS.index(seat)]


class CardDuel(Game):
    name = "card-duel-test"
    title = "Card Duel (test game)"
    version = "1"
    hidden_information = True

    def scenarios(self) -> dict[str, Scenario]:
        return {"only": Scenario("only", "Only", SEATS)}

    def setup(self, scenario: str, options: dict[str, Any], dice: DiceSource) -> dict[str, Any]:
        s: dict[str, Any] = {"deck": decks.new_deck(CARDS), "hands": {seat: [] for seat in SEATS}, "turn": "north",
                             "damage": {seat: 0 for seat in SEATS}, "reaction": None, "standing": {},
                             "over": None, "last_random": None}
        for seat in SEATS:
            draw_into(s["hands"], seat, s["deck"], dice, HAND, name)
        return s

    def check_state(self, state: dict[str, Any]) -> None:
        pass

    def active_seats(self, state: dict[str, Any]) -> list[str]:
        if state["over"]:
            return []
        window = reactions.current(state)
        return [window["seat"]] if window else [state["turn"]]

    def legal_actions(self, state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
        if seat not in self.active_seats(state):
            return []
        hand = state["hands"][seat]
        if reactions.current(state):
            return [{"type": "shield", "card": c} for c in hand if not strength(c)] + [{"type": "decline"}]
        out = [{"type": "attack", "card": c} for c in hand if strength(c)]
        out += [{"type": "discard", "card": c} for c in hand] + [{"type": "random"}]
        out += [{"type": "standing", "kind": "shield", "answer": a, "when": [["strength", ">=", 2]]}
                for a in reactions.ANSWERS]
        return out

    def prompt(self, state: dict[str, Any], seat: str) -> str:
        window = reactions.current(state)
        if window:
            return f"{seat}: an attack of strength {window['context']['strength']}: shield or decline?"
        return f"{seat}: attack, discard or draw a random number"

    def apply(self, state: dict[str, Any], seat: str, action: dict[str, Any], dice: DiceSource) -> Applied:
        if seat not in self.active_seats(state):
            raise IllegalAction(f"it is not {seat}'s turn", "CD 1")
        s = copy.deepcopy(state)
        facts: list[Fact] = []
        kind = action["type"]
        window = reactions.current(s)
        if window:
            if kind not in ("shield", "decline"):
                raise IllegalAction("answer the attack first: shield or decline", "CD 3")
            self._react(s, seat, kind, action.get("card"), facts)
            self._end_turn(s, other(seat), dice, facts)
            return Applied(s, facts)
        if kind == "standing":
            reactions.check_standing(action["kind"], action["answer"], action["when"], KINDS, FIELDS)
            reactions.set_standing(s, seat, action["kind"], action["answer"], action["when"])
            return Applied(s, [Fact(f"{seat} records a standing answer", "CD 4", "standing",
                                    {"answer": action["answer"]}, visible_to=(seat,))])
        if kind == "attack":
            card = take(s["hands"], seat, action["card"], "CD 2")
            if not strength(card):
                raise IllegalAction("a shield is not an attack", "CD 2")
            decks.discard(s["deck"], [card])
            facts.append(Fact(f"{seat} attacks with {name(card)}", "CD 2", "attack", {"card": card}))
            context = {"strength": strength(card)}
            reactions.open_window(s, "shield", other(seat), context)
            answer = reactions.standing_answer(s, other(seat), "shield", context)
            if answer is None:
                return Applied(s, facts)
            shields = [c for c in s["hands"][other(seat)] if not strength(c)]
            if answer == "play" and shields:
                self._react(s, other(seat), "shield", shields[0], facts)
            else:
                self._react(s, other(seat), "decline", None, facts)
        elif kind == "discard":
            card = take(s["hands"], seat, action["card"], "CD 2")
            decks.discard(s["deck"], [card])
            facts.append(Fact(f"{seat} discards {name(card)}", "CD 2", "discard", {"card": card}))
        elif kind == "random":
            drawn = decks.draw_for_random(s["deck"], dice, "a random number")
            if drawn.reshuffled:
                facts.append(Fact(f"reshuffle: deck pass {s['deck']['pass']}", "CD 5", "reshuffle"))
            s["last_random"] = drawn.card
            facts.append(Fact(f"{seat} draws {name(drawn.card)} for a random number", "CD 2", "random",
                              {"card": drawn.card}))
        else:
            raise IllegalAction(f"no action {kind}", "CD 2")
        self._end_turn(s, seat, dice, facts)
        return Applied(s, facts)

    def _react(self, s: dict[str, Any], seat: str, kind: str, card: str | None, facts: list[Fact]) -> None:
        window = reactions.close(s)
        if kind == "shield":
            assert card is not None
            take(s["hands"], seat, card, "CD 3")
            if strength(card):
                raise IllegalAction("only a shield stops an attack", "CD 3")
            decks.discard(s["deck"], [card])
            facts.append(Fact(f"{seat} stops the attack with {name(card)}", "CD 3", "shield", {"card": card}))
        else:
            s["damage"][seat] += window["context"]["strength"]
            facts.append(Fact(f"{seat} takes {window['context']['strength']} damage", "CD 3", "damage"))

    def _end_turn(self, s: dict[str, Any], mover: str, dice: DiceSource, facts: list[Fact]) -> None:
        _, got = fill(s["hands"], mover, HAND, s["deck"], dice, name, "CD 5")
        facts.extend(got)
        s["turn"] = other(mover)
        hurt = [seat for seat in SEATS if s["damage"][seat] >= 8]
        if hurt:
            s["over"] = {"winner": other(hurt[0]), "why": f"{hurt[0]} took 8 damage"}
        elif s["deck"]["pass"] > LIMIT:
            a, b = (s["damage"][seat] for seat in SEATS)
            s["over"] = {"winner": None if a == b else SEATS[0] if a < b else SEATS[1], "why": "time limit"}

    def view(self, state: dict[str, Any], seat: str | None) -> dict[str, Any]:
        out = {k: copy.deepcopy(v) for k, v in state.items() if k not in ("deck", "hands", "standing")}
        out["deck"] = decks.public_view(state["deck"])
        out["hands"] = hands_view(state["hands"], seat)
        out["standing"] = reactions.standing_view(state, seat)
        return out

    def outcome(self, state: dict[str, Any]) -> Outcome | None:
        over = state["over"]
        if not over:
            return None
        return Outcome(over["winner"], "win" if over["winner"] else "draw", over["why"], "CD 6")


class _Card(StrictSchema):
    card = fields.String(required=True, validate=validate.Length(min=1, max=20))


def _schema(kind: str, card: bool = False) -> type[StrictSchema]:
    base = _Card if card else StrictSchema
    return type(f"{kind.title()}Schema", (base,), {"type": action_type(kind)})


class StandingSchema(StrictSchema):
    type = action_type("standing")
    kind = fields.String(required=True)
    answer = fields.String(required=True)
    when = fields.List(fields.List(fields.Raw(), validate=validate.Length(equal=3)), required=True)


_installed = False


def install() -> None:
    global _installed
    if not _installed:
        register(CardDuel())
        register_actions(CardDuel.name, {"attack": _schema("attack", True), "discard": _schema("discard", True),
                                         "shield": _schema("shield", True), "decline": _schema("decline"),
                                         "random": _schema("random"), "standing": StandingSchema})
        _installed = True
