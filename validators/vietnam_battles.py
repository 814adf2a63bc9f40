"""Action schemas of Vietnam Battles: one strict schema per action type (unknown keys refused).

Shapes only; legality is the rules' business (rules/vietnam_battles, IllegalAction).
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from validators.actions import StrictSchema, action_type, hex_label, register_actions

GAME = "vietnam-battles"


def _id() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1, max=64))


def _hexside() -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(r"^\d{4}/\d{4}$", error="a hexside like 0717/0718"))


def _space() -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(r"^\d{4}(/\d{4})?$",
                                                                  error="a hex like 0717 or a hexside like 0717/0718"))


def _node() -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(r"^\d{4}(:[a-z_]+)?$",
                                                                  error="a hex like 0717 or a portion like 0127:north"))


def _path() -> fields.List[str]:
    return fields.List(fields.String(validate=validate.Regexp(r"^\d{4}(/\d{4}|:[a-z_]+)?$", error="a hex, portion or hexside")),
                       required=True, validate=validate.Length(max=3))


def _schema(name: str, **extra: fields.Field) -> type[Schema]:  # type: ignore[type-arg]
    attrs: dict[str, fields.Field] = {"type": action_type(name), **extra}  # type: ignore[type-arg]
    return type(f"Vb{''.join(p.capitalize() for p in name.split('_'))}Action", (StrictSchema,), attrs)


SCHEMAS: dict[str, type[Schema]] = {
    "select": _schema("select", unit=_id()),
    "enter": _schema("enter", hex=_node()),
    "sail": _schema("sail", to=_space()),
    "end_move": _schema("end_move"),
    "end_phase": _schema("end_phase"),
    "declare": _schema("declare", defender=_id(), unit=_id()),
    "add": _schema("add", unit=_id()),
    "support": _schema("support", marker=_id()),
    "pass": _schema("pass"),
    "bombard": _schema("bombard", unit=_id(), marker=_id()),
    "lose_step": _schema("lose_step", unit=_id()),
    "hold": _schema("hold", unit=_id()),
    "retreat": _schema("retreat", unit=_id(), path=_path()),
    "displace": _schema("displace", hex=_node()),
    "refuse": _schema("refuse"),
    "advance": _schema("advance", unit=_id(), hex=_node()),
    "end_advance": _schema("end_advance"),
    "errant": _schema("errant", unit=_id()),
    "slick": _schema("slick", unit=_id()),
    "tango": _schema("tango", unit=_id()),
    "land": _schema("land", hex=hex_label()),
    "demolish": _schema("demolish", hexside=_hexside()),
    "push": _schema("push", hex=_node()),
    "camp": _schema("camp", hex=hex_label()),
    "place": _schema("place", unit=_id()),
    "hide": _schema("hide", unit=_id()),
    "at": _schema("at", hex=_node()),
    "choose_victory": _schema("choose_victory", condition=fields.String(
        required=True, validate=validate.OneOf(["escape", "casualties", "hold"]))),
    "cache": _schema("cache", hex=hex_label()),
    "b52": _schema("b52", unit=_id()),
    "ben_suc": _schema("ben_suc", choice=fields.String(
        required=True, validate=validate.OneOf(["roll", "decline", "extend", "shorten"]))),
    "exit": _schema("exit"),
    "designate": _schema("designate", camp=_id()),
    "repair": _schema("repair", unit=_id(), hexside=_hexside()),
    "eng_bridge": _schema("eng_bridge", site=_space()),
}

register_actions(GAME, SCHEMAS)
