"""Assault on Belgium's verbs, each declared once (rules/core/verbs.py): its fields and flags.
The rules' shape check (schema.ACTIONS) and the API's schemas (validators/assault_on_belgium.py)
come from this table. Generators and handlers are the phases' (flow.PHASES: a table of phases
whose checks cite the rule of the situation), so no verb carries a rule of its own."""

from __future__ import annotations

from rules.core.verbs import FieldKind, Verb, VerbTable

UNIT = FieldKind("unit", str)  # a unit's id
HEX = FieldKind("hex", str)  # four digits: 0917
BATTLE = FieldKind("battle", int)  # a battle's number, from 1
STANDING_KIND = FieldKind("standing_kind", str)  # a decision that takes a standing answer (standing.KINDS)
STANDING_ANSWER = FieldKind("standing_answer", str)  # one of its answers, or ask
STANDING_WHEN = FieldKind("standing_when", list)  # up to three [field, op, value] conditions

VERBS: VerbTable[object] = VerbTable(
    Verb("select", None, {"unit": UNIT}),
    Verb("place", None, {"hex": HEX}),
    Verb("unplace", None, {"unit": UNIT}),
    Verb("standard_setup", None),
    Verb("done_setup", None),
    Verb("move", None, {"hex": HEX}, flags=("tank_battle",)),
    Verb("end_unit_move", None),
    Verb("end_movement", None),
    Verb("end_reaction", None),
    Verb("fly", None, {"unit": UNIT, "hex": HEX}),
    Verb("unfly", None, {"unit": UNIT}),
    Verb("end_air", None),
    Verb("resolve_battle", None, {"battle": BATTLE}),
    Verb("choose_fighter", None, {"unit": UNIT}),
    Verb("choose_bomber", None, {"unit": UNIT}),
    Verb("no_bomber", None),
    Verb("assign_hit", None, {"unit": UNIT}),
    Verb("retreat", None, {"hex": HEX}),
    Verb("take_hit", None),
    Verb("continue", None),
    Verb("withdraw", None, {"unit": UNIT, "hex": HEX}),
    Verb("pursuit_toggle", None, {"unit": UNIT}),
    Verb("pursue", None, {"hex": HEX}),
    Verb("attack", None, {"hex": HEX}),
    Verb("no_pursuit", None),
    Verb("standing", None, {"kind": STANDING_KIND, "answer": STANDING_ANSWER, "when": STANDING_WHEN}),  # v2 on
)
