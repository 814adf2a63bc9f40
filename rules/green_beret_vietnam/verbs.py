"""The wire kinds of Green Beret: Vietnam's action fields (rules/core/verbs.py). The verbs themselves,
each with its fields, generator and handler, are the table at the end of flow.py (flow.VERBS); the
rules' shape check (schema.ACTIONS) and the API's schemas (validators/green_beret_vietnam.py) come
from it."""

from __future__ import annotations

from rules.core.verbs import FieldKind

ID = FieldKind("id", str)  # a counter's, camp's, item's, enemy's or kind's id
HEX = FieldKind("hex", str)  # four digits: 0917
