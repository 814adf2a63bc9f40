"""Action schemas of Green Beret: Vietnam: one strict schema per action type.

Shapes only; legality is the rules' business (rules/green_beret_vietnam, IllegalAction).
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from validators.actions import StrictSchema, action_type, hex_label, register_actions

GAME = "green-beret-vietnam"


def _id() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1, max=64))


def _schema(name: str, **extra: fields.Field) -> type[Schema]:  # type: ignore[type-arg]
    attrs: dict[str, fields.Field] = {"type": action_type(name), **extra}  # type: ignore[type-arg]
    return type(f"Gbv{''.join(p.capitalize() for p in name.split('_'))}Action", (StrictSchema,), attrs)


def _pbr() -> fields.Boolean:
    return fields.Boolean(validate=validate.Equal(True))


SCHEMAS: dict[str, type[Schema]] = {
    "place_camp": _schema("place_camp", hex=hex_label(), pbr=_pbr()),
    "buy": _schema("buy", kind=_id(), camp=_id()),
    "buy_camp": _schema("buy_camp", hex=hex_label(), pbr=_pbr()),
    "relocate": _schema("relocate", camp=_id()),
    "relocate_to": _schema("relocate_to", hex=hex_label()),
    "done": _schema("done"),
    "abandon": _schema("abandon"),
    "end_game": _schema("end_game"),
    "begin_move": _schema("begin_move", counter=_id()),
    "join": _schema("join", counter=_id()),
    "drop": _schema("drop", counter=_id()),
    "step": _schema("step", hex=hex_label()),
    "end_move": _schema("end_move"),
    "take": _schema("take", item=_id()),
    "end_movement": _schema("end_movement"),
    "attack": _schema("attack", hex=hex_label(), enemy=_id()),
    "jettison": _schema("jettison", item=_id()),
    "end_combat": _schema("end_combat"),
    "suppress": _schema("suppress", item=_id(), enemy=_id()),
    "end_suppression": _schema("end_suppression"),
    "continue": _schema("continue"),
    "evade": _schema("evade", camp=_id()),
    "stay": _schema("stay"),
    "choose_target": _schema("choose_target", hex=hex_label()),
    "choose_hex": _schema("choose_hex", hex=hex_label()),
    "use_naval": _schema("use_naval"),
    "hold_naval": _schema("hold_naval"),
    "damage_team": _schema("damage_team", team=_id()),
    "kill_leader": _schema("kill_leader", leader=_id()),
    "lose_item": _schema("lose_item", item=_id()),
    "claim": _schema("claim", item=_id()),
    "claim_done": _schema("claim_done"),
    "done_spending": _schema("done_spending"),
    "assassinate_team": _schema("assassinate_team", team=_id()),
    "assassinate_leader": _schema("assassinate_leader", leader=_id()),
}

register_actions(GAME, SCHEMAS)
