"""The UP FRONT card game's verbs, each declared once (rules/core/verbs.py): its fields. The API's
schemas (validators/up_front.py) come from this table. Its generators and handlers are still the
game's own (game.py: the turn's card candidates and its dispatch, react.py, prepare.py), and a
refusal cites the rule of the situation, so no verb carries a rule of its own."""

from __future__ import annotations

from rules.core.verbs import FieldKind, Verb, VerbTable

CARD = FieldKind("card", str)  # a card id like UF017
CARD_OR_NONE = FieldKind("card_or_none", object)  # a card id, or null for none
GROUP = FieldKind("group", str)  # a group letter A-F
SIDE = FieldKind("side", str)  # a seat's side of the table
MAN = FieldKind("man", str)  # a soldier card's id
MODE = FieldKind("move_mode", str)  # forward, backward, sideways
COUNT = FieldKind("count", int)  # altitude cards drawn, 1-6
FLAG = FieldKind("boolean", bool)  # a required true or false
CARDS = FieldKind("cards", list)  # 1-6 card ids
STANDING_KIND = FieldKind("standing_kind", str)  # concealment, terrain, mine_altitude
STANDING_ANSWER = FieldKind("standing_answer", str)  # play, decline, ask
STANDING_WHEN = FieldKind("standing_when", list)  # up to three [a, b, c] conditions
PLAN_TURNS = FieldKind("plan_turns", list)  # up to three turns of up to six actions (rules/up_front/plan.py)

VERBS: VerbTable[object] = VerbTable(
    Verb("place", None, {"card": CARD, "side": SIDE, "group": GROUP}),
    Verb("draw_altitude", None, {"count": COUNT}),
    Verb("ready", None),
    Verb("move", None, {"group": GROUP, "card": CARD, "mode": MODE}),
    Verb("alt_step", None, {"group": GROUP, "card": CARD, "mode": MODE, "one_card": FLAG}),
    Verb("complete", None, {"group": GROUP, "card": CARD, "as_open": FLAG}),
    Verb("altitude", None, {"group": GROUP, "altitude": CARD_OR_NONE, "card": CARD, "as_open": FLAG}),
    Verb("remove", None, {"group": GROUP, "card": CARD}),
    Verb("fire", None, {"group": GROUP, "card": CARD, "target": GROUP}),
    Verb("ordnance", None, {"group": GROUP, "card": CARD, "target": GROUP}),  # rules version 4: VEH 3
    Verb("rally", None, {"group": GROUP, "card": CARD}),
    Verb("entrench", None, {"group": GROUP}),
    Verb("transfer", None, {"group": GROUP, "to": GROUP, "card": CARD, "man": MAN}),
    Verb("shift", None, {"group": GROUP, "card": CARD, "to": GROUP}),
    Verb("infiltrate", None, {"group": GROUP, "card": CARD, "target": GROUP}),
    Verb("discard", None, {"cards": CARDS}),
    Verb("discard_onto", None, {"card": CARD, "target": GROUP}),
    Verb("end_turn", None),
    Verb("standing", None, {"kind": STANDING_KIND, "answer": STANDING_ANSWER, "when": STANDING_WHEN}),
    Verb("plan", None, {"turns": PLAN_TURNS, "when": STANDING_WHEN}),  # rules version 4: CORE 11.2
    Verb("reinforce", None, {"altitude": CARD_OR_NONE, "card": CARD_OR_NONE, "conceal": CARD_OR_NONE,
                             "terrain": CARD_OR_NONE}),
    Verb("conceal", None, {"card": CARD}),
    Verb("decline", None),
    Verb("accept", None),
    Verb("reject", None, {"card": CARD}),
    Verb("mine_altitude", None, {"card": CARD_OR_NONE}),
)
