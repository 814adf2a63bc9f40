"""Action schemas of the UP FRONT-structured card game with "In the Mountains": one strict
schema per action type (unknown keys refused). Shapes only; legality is rules/up_front's."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from validators.actions import StrictSchema, action_type, register_actions

GAME = "up-front"


def _card(allow_none: bool = False) -> fields.String:
    return fields.String(required=True, allow_none=allow_none,
                         validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,16}$", error="a card id like UF017"))


def _letter() -> fields.String:
    return fields.String(required=True, validate=validate.OneOf(list("ABCDEF"), error="a group letter A-F"))


def _word(*choices: str) -> fields.String:
    return fields.String(required=True, validate=validate.OneOf(choices))


def _schema(name: str, **extra: fields.Field) -> type[Schema]:  # type: ignore[type-arg]
    attrs: dict[str, fields.Field] = {"type": action_type(name), **extra}  # type: ignore[type-arg]
    return type(f"Uf{''.join(p.capitalize() for p in name.split('_'))}Action", (StrictSchema,), attrs)


MODES = ("forward", "backward", "sideways")
SCHEMAS: dict[str, type[Schema]] = {
    "place": _schema("place", card=_card(), side=fields.String(required=True, validate=validate.Length(1, 32)),
                     group=_letter()),
    "draw_altitude": _schema("draw_altitude", count=fields.Integer(required=True, strict=True,
                                                                   validate=validate.Range(1, 6))),
    "ready": _schema("ready"),
    "move": _schema("move", group=_letter(), card=_card(), mode=_word(*MODES)),
    "alt_step": _schema("alt_step", group=_letter(), card=_card(), mode=_word(*MODES),
                        one_card=fields.Boolean(required=True)),
    "complete": _schema("complete", group=_letter(), card=_card(), as_open=fields.Boolean(required=True)),
    "altitude": _schema("altitude", group=_letter(), altitude=_card(allow_none=True), card=_card(),
                        as_open=fields.Boolean(required=True)),
    "remove": _schema("remove", group=_letter(), card=_card()),
    "fire": _schema("fire", group=_letter(), card=_card(), target=_letter()),
    "rally": _schema("rally", group=_letter(), card=_card()),
    "entrench": _schema("entrench", group=_letter()),
    "transfer": _schema("transfer", group=_letter(), to=_letter(), card=_card(),
                        man=fields.String(required=True, validate=validate.Length(1, 16))),
    "shift": _schema("shift", group=_letter(), card=_card(), to=_letter()),
    "infiltrate": _schema("infiltrate", group=_letter(), card=_card(), target=_letter()),
    "discard": _schema("discard", cards=fields.List(_card(), required=True, validate=validate.Length(1, 6))),
    "discard_onto": _schema("discard_onto", card=_card(), target=_letter()),
    "end_turn": _schema("end_turn"),
    "standing": _schema("standing", kind=_word("concealment", "terrain", "mine_altitude"),
                        answer=_word("play", "decline", "ask"),
                        when=fields.List(fields.List(fields.Raw(), validate=validate.Length(equal=3)), required=True,
                                         validate=validate.Length(max=3))),
    "reinforce": _schema("reinforce", altitude=_card(allow_none=True), card=_card(allow_none=True),
                         conceal=_card(allow_none=True), terrain=_card(allow_none=True)),
    "conceal": _schema("conceal", card=_card()),
    "decline": _schema("decline"),
    "accept": _schema("accept"),
    "reject": _schema("reject", card=_card()),
    "mine_altitude": _schema("mine_altitude", card=_card(allow_none=True)),
}

register_actions(GAME, SCHEMAS)
