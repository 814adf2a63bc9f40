"""Action schemas of Lock 'n Load: Forgotten Heroes Vietnam: one strict schema per action type
(unknown keys refused). Shapes only; legality is the rules' business (rules/lock_n_load)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from validators.actions import StrictSchema, action_type, register_actions

GAME = "lock-n-load"


def _id() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1, max=64))


def _hex() -> fields.String:
    return fields.String(required=True, validate=validate.Regexp(r"^[0-9][A-Z][1-9][0-9]?$",
                                                                  error="a hex like 1F5 (board, column, row)"))


def _schema(name: str, **extra: fields.Field) -> type[Schema]:  # type: ignore[type-arg]
    attrs: dict[str, fields.Field] = {"type": action_type(name), **extra}  # type: ignore[type-arg]
    return type(f"Lnl{''.join(p.capitalize() for p in name.split('_'))}Action", (StrictSchema,), attrs)


SCHEMAS: dict[str, type[Schema]] = {
    "rally": _schema("rally", unit=_id()),
    "medic": _schema("medic", unit=_id(), patient=_id()),
    "pickup": _schema("pickup", unit=_id(), sw=_id()),
    "end_rally": _schema("end_rally"),
    "combine": _schema("combine", unit=_id(), **{"with": _id()}),
    "split": _schema("split", unit=_id()),
    "pass": _schema("pass"),
    "activate": _schema("activate", hex=_hex()),
    "select": _schema("select", unit=_id()),
    "clear": _schema("clear"),
    "fire": _schema("fire", target=_hex()),
    "move": _schema("move", mode=fields.String(required=True, validate=validate.OneOf(
        ["normal", "assault", "double", "crawl"]))),
    "step": _schema("step", hex=_hex()),
    "stop": _schema("stop"),
    "smoke": _schema("smoke", hex=_hex()),
    "melee": _schema("melee", hex=_hex()),
    "withdraw": _schema("withdraw", hex=_hex()),
    "melee_targets": _schema("melee_targets", units=fields.List(_id(), required=True,
                                                                validate=validate.Length(min=1, max=12))),
    "spot": _schema("spot", unit=_id(), hex=_hex()),
    "place_sniper": _schema("place_sniper", unit=_id(), hex=_hex()),
    "end_impulse": _schema("end_impulse"),
    "opp_fire": _schema("opp_fire", hex=_hex()),
    "hold_fire": _schema("hold_fire"),
    "snipe": _schema("snipe", unit=_id(), target=_hex()),
    "drop_sw": _schema("drop_sw", unit=_id(), sw=_id()),
    "retreat": _schema("retreat", unit=_id(), hex=_hex()),
    "place_hero": _schema("place_hero", unit=_id(), hex=_hex()),
    "give_sw": _schema("give_sw", unit=_id(), sw=_id(), to=_id()),
    "swap_sw": _schema("swap_sw", sw=_id(), **{"for": _id()}),
    "order": _schema("order", hex=_hex(), order=fields.String(required=True, validate=validate.Regexp(
        r"^(ask|hold|fire|within[123]|at:[0-9][A-Z][1-9][0-9]?)$", error="ask, hold, fire, within1-3 or at:<hex>"))),
}

register_actions(GAME, SCHEMAS)
