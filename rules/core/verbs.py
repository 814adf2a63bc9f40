"""Each verb of a game declared once (as boardgame.io's `moves`, Rally the Troops' state tables).

A `Verb` holds everything about one action type: its name (the action's `type`), its fields and
their kinds, the rule section that governs it, its generator (the legal actions of this type in
the state at hand) and its handler (what doing it changes). A game's `VerbTable` is the one list
of its verbs; from it come

* the rules' own shape check (`shapes()`, for `rules.core.shapes.check_shape`) and the rule
  cited when an action is refused (`rule_of`);
* the API's marshmallow schemas (validators/<game>.py builds them with
  `validators.actions.schemas_from_verbs`, turning each field kind into a marshmallow field);
* the targeted legality check (`allows`: only the verb's own generator is asked) and the
  dispatch of `apply` (`handle`).

Which verbs are open at a moment (a phase, a prompt) is the game's sequence of play; the table
answers for one verb at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from rules.core.game import Action, listed

W = TypeVar("W")  # what a game's generators and handlers take besides the state (its world, its data)
State = dict[str, Any]


@dataclass(frozen=True)
class FieldKind:
    """A field's kind on the wire: `py` is the Python type the rules' shape check demands; `name`
    is what a game's validators module turns into a marshmallow field (a hex's pattern, an id's
    length, a mode's choices: the wire's business, not the rules')."""

    name: str
    py: type


@dataclass(frozen=True)
class Verb(Generic[W]):
    """One action type: `fields` (field -> kind, every one required, in wire order), `rule` (the
    section cited for it), `generate(state, world)` (its legal actions now, in listing order),
    `handle(state, world, action, dice, facts)` (does it on a copy of the state; what it returns
    is the game's to interpret), `allows(state, world, action)` (optional: a legality check
    that need not list every instance, which must agree with `generate`) and `flags` (optional
    fields that are `true` or left out). A game not yet converted to table-driven play declares
    fields and rule only (its generators and handlers are still written by phase)."""

    name: str
    rule: str | None
    fields: Mapping[str, FieldKind] = field(default_factory=dict)
    generate: Callable[[State, W], list[Action]] | None = None
    handle: Callable[..., Any] | None = None
    allows: Callable[[State, W, Action], bool] | None = None
    flags: tuple[str, ...] = ()  # optional fields that are either `true` or left out (AoB's tank_battle)

    def legal(self, state: State, world: W) -> list[Action]:
        """This verb's legal actions now (none without a generator)."""
        return self.generate(state, world) if self.generate is not None else []

    def is_legal(self, state: State, world: W, action: Action) -> bool:
        """`action` (of this verb) is legal now: `allows` if given, else listed by the generator."""
        if self.allows is not None:
            return self.allows(state, world, action)
        return listed(action, self.legal(state, world))


class VerbTable(Generic[W]):
    """A game's verbs by name; a name declared twice is refused."""

    def __init__(self, *verbs: Verb[W]) -> None:
        self._verbs: dict[str, Verb[W]] = {}
        for verb in verbs:
            if verb.name in self._verbs:
                raise ValueError(f"the verb {verb.name!r} is declared twice")
            self._verbs[verb.name] = verb

    def __getitem__(self, name: str) -> Verb[W]:
        return self._verbs[name]

    def __contains__(self, name: object) -> bool:
        return name in self._verbs

    def __iter__(self) -> Iterator[Verb[W]]:
        return iter(self._verbs.values())

    def __len__(self) -> int:
        return len(self._verbs)

    def names(self) -> list[str]:
        return list(self._verbs)

    def shapes(self) -> dict[str, dict[str, type]]:
        """type -> {field: Python type}, for `rules.core.shapes.check_shape`."""
        return {v.name: {f: k.py for f, k in v.fields.items()} for v in self}

    def rules(self) -> dict[str, str | None]:
        """type -> the rule section cited for it."""
        return {v.name: v.rule for v in self}

    def rule_of(self, name: str) -> str | None:
        verb = self._verbs.get(name)
        return verb.rule if verb is not None else None

    def flags(self, rules: Mapping[str, str | None]) -> dict[str, tuple[tuple[str, ...], str | None]]:
        """{flag: (the verbs that may carry it, the rule cited when it is not true)}, for
        `rules.core.shapes.check_shape`; `rules` gives each flag's rule."""
        out: dict[str, tuple[tuple[str, ...], str | None]] = {}
        for flag, rule in rules.items():
            out[flag] = (tuple(v.name for v in self if flag in v.flags), rule)
        return out

    def kinds(self) -> set[FieldKind]:
        """Every field kind the table uses (a validators module must map each)."""
        return {k for v in self for k in v.fields.values()}
