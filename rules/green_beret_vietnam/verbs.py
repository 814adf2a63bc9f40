"""Green Beret: Vietnam's verbs, each declared once (rules/core/verbs.py): its fields and flags.
The rules' shape check (schema.ACTIONS) and the API's schemas (validators/green_beret_vietnam.py)
come from this table. Its generators and handlers are still written by phase (flow.py), and a
refusal cites the rule of the situation (flow.explain), so no verb carries a rule of its own."""

from __future__ import annotations

from rules.core.verbs import FieldKind, Verb, VerbTable

ID = FieldKind("id", str)  # a counter's, camp's, item's, enemy's or kind's id
HEX = FieldKind("hex", str)  # four digits: 0917

VERBS: VerbTable[object] = VerbTable(
    Verb("place_camp", None, {"hex": HEX}, flags=("pbr",)),
    Verb("buy", None, {"kind": ID, "camp": ID}),
    Verb("buy_camp", None, {"hex": HEX}, flags=("pbr",)),
    Verb("relocate", None, {"camp": ID}),
    Verb("relocate_to", None, {"hex": HEX}),
    Verb("done", None),
    Verb("abandon", None),
    Verb("end_game", None),
    Verb("begin_move", None, {"counter": ID}),
    Verb("join", None, {"counter": ID}),
    Verb("drop", None, {"counter": ID}),
    Verb("step", None, {"hex": HEX}),
    Verb("end_move", None),
    Verb("take", None, {"item": ID}),
    Verb("end_movement", None),
    Verb("attack", None, {"hex": HEX, "enemy": ID}),
    Verb("jettison", None, {"item": ID}),
    Verb("end_combat", None),
    Verb("suppress", None, {"item": ID, "enemy": ID}),
    Verb("end_suppression", None),
    Verb("continue", None),
    Verb("evade", None, {"camp": ID}),
    Verb("stay", None),
    Verb("choose_target", None, {"hex": HEX}),
    Verb("choose_hex", None, {"hex": HEX}),
    Verb("use_naval", None),
    Verb("hold_naval", None),
    Verb("damage_team", None, {"team": ID}),
    Verb("kill_leader", None, {"leader": ID}),
    Verb("lose_item", None, {"item": ID}),
    Verb("claim", None, {"item": ID}),
    Verb("claim_done", None),
    Verb("done_spending", None),
    Verb("assassinate_team", None, {"team": ID}),
    Verb("assassinate_leader", None, {"leader": ID}),
)
