"""Vietnam Battles' verbs, each declared once (rules/core/verbs.py): its fields and the rule cited
when it is refused. The rules' shape check (schema.ACTIONS) and the API's schemas
(validators/vietnam_battles.py) come from this table. Its generators and handlers are still
written by phase (flow.py, legal_check.py); `rule` None: refused under VB 4.1 (schema.explain)."""

from __future__ import annotations

from rules.core.verbs import FieldKind, Verb, VerbTable

UNIT_ID = FieldKind("id", str)  # a unit's, marker's, camp's or choice's id
NODE = FieldKind("node", str)  # a hex (0717) or a portion of one (0127:north)
SPACE = FieldKind("space", str)  # a hex or a hexside (0717/0718)
HEXSIDE = FieldKind("hexside", str)  # 0717/0718
HEX = FieldKind("hex", str)  # four digits: 0917
PATH = FieldKind("path", list)  # up to three hexes, portions or hexsides
VICTORY = FieldKind("victory_condition", str)  # escape, casualties, hold
BEN_SUC = FieldKind("ben_suc_choice", str)  # roll, decline, extend, shorten
STANDING_KIND = FieldKind("standing_kind", str)  # a decision that takes a standing answer (standing.KINDS)
STANDING_ANSWER = FieldKind("standing_answer", str)  # one of its answers, or ask
STANDING_WHEN = FieldKind("standing_when", list)  # up to three [field, op, value] conditions

VERBS: VerbTable[object] = VerbTable(
    Verb("select", "VB 5.0", {"unit": UNIT_ID}),
    Verb("enter", "VB 5.1", {"hex": NODE}),
    Verb("sail", "VB 12.0", {"to": SPACE}),
    Verb("end_move", "VB 5.3"),
    Verb("end_phase", None),
    Verb("declare", "VB 7.1", {"defender": UNIT_ID, "unit": UNIT_ID}),
    Verb("add", "VB 7.1", {"unit": UNIT_ID}),
    Verb("support", "VB 8.3", {"marker": UNIT_ID}),
    Verb("pass", "VB 8.3"),
    Verb("bombard", "VB 8.4", {"unit": UNIT_ID, "marker": UNIT_ID}),
    Verb("lose_step", "VB 7.6", {"unit": UNIT_ID}),
    Verb("hold", "VB 7.8", {"unit": UNIT_ID}),
    Verb("retreat", "VB 7.7", {"unit": UNIT_ID, "path": PATH}),
    Verb("displace", "VB 7.7.2", {"hex": NODE}),
    Verb("refuse", "VB 7.7.2"),
    Verb("advance", "VB 7.9", {"unit": UNIT_ID, "hex": NODE}),
    Verb("end_advance", None),
    Verb("errant", "VB 8.4.2", {"unit": UNIT_ID}),
    Verb("slick", "VB 10.0", {"unit": UNIT_ID}),
    Verb("tango", "VB 11.0", {"unit": UNIT_ID}),
    Verb("land", "VB 10.0", {"hex": HEX}),
    Verb("demolish", None, {"hexside": HEXSIDE}),
    Verb("push", None, {"hex": NODE}),
    Verb("camp", None, {"hex": HEX}),
    Verb("place", None, {"unit": UNIT_ID}),
    Verb("hide", None, {"unit": UNIT_ID}),
    Verb("at", None, {"hex": NODE}),
    Verb("choose_victory", None, {"condition": VICTORY}),
    Verb("cache", None, {"hex": HEX}),
    Verb("b52", None, {"unit": UNIT_ID}),
    Verb("ben_suc", None, {"choice": BEN_SUC}),
    Verb("exit", None),
    Verb("designate", None, {"camp": UNIT_ID}),
    Verb("repair", None, {"unit": UNIT_ID, "hexside": HEXSIDE}),
    Verb("eng_bridge", None, {"site": SPACE}),
    Verb("standing", "standing answers (ours)", {"kind": STANDING_KIND, "answer": STANDING_ANSWER,
                                                 "when": STANDING_WHEN}),  # rules version 2 on
)
