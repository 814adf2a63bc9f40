"""The one interface every game module implements (STYLE: Rally the Troops, boardgame.io).

A game is a handful of pure functions over plain JSON data:

* `setup(scenario, options, dice)` builds the initial state;
* `active_seats(state)` says who must act now (one seat, both, or none once it is over;
  a decision the non-moving player must take mid-turn simply makes that seat active);
* `legal_actions(state, seat)` lists every legal action, finite and complete, each one
  exactly what a client may submit; `prompt(state, seat)` says in words what is asked;
* `apply(state, seat, action, dice)` returns a new state plus the facts that changed and
  the rule sections that decided them, or raises `IllegalAction` with the rule section;
  an engine-run enemy (a solitaire game) acts inside `apply`, its decisions recorded as facts;
* `view(state, seat)` is what that seat (or a spectator, seat None) may see: hidden units
  are removed here and nowhere else. A game with hidden information sets
  `hidden_information = True`; the service then shows another seat's actions to nobody but the
  director until the game ends, passes only the facts whose `visible_to` names the viewer (or
  public ones), and salts every event so its public hash gives nothing away. A game whose
  state holds secrets no seat may see (face-down markers) sets `secret_state = True` for the
  salting alone. What the game itself makes public must not name hidden things: a public fact's
  text or data, and a die's `purpose`, say "a hidden unit" and never its hex; a blind draw
  from a cup whose content is hidden rolls a secret die (`dice.roll(n, purpose, secret=True)`),
  whose value nobody but the director sees before the end;
* `outcome(state)` is None while the game runs.

Rules code imports no Flask, Redis, marshmallow, clock, `random` or I/O. It never mutates
the state it is given.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from rules.core.dice import DiceSource

State = dict[str, Any]
Action = dict[str, Any]


class IllegalAction(ValueError):
    """The action is not legal now. `rule` cites the section that forbids it (e.g. "AoB 5")."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def to_json(self) -> dict[str, Any]:
        return {"message": self.message, "rule": self.rule}


class InvalidState(ValueError):
    """A state document (a sandbox start position) does not fit the game's schema."""


@dataclass(frozen=True)
class Fact:
    """One thing that happened, in words, with the rule that decided it.

    `visible_to` is None for a public fact, else the seats that may read it.
    `data` carries the machine-readable detail (hexes, units, dice) a page may highlight.
    """

    text: str
    rule: str | None = None
    kind: str = "info"
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "rule": self.rule, "kind": self.kind}
        if self.data:
            out["data"] = self.data
        if self.visible_to is not None:
            out["visible_to"] = list(self.visible_to)
        return out


@dataclass
class Applied:
    """The result of a legal action: the new state and what happened."""

    state: State
    facts: list[Fact] = field(default_factory=list)


@dataclass(frozen=True)
class OptionSpec:
    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] = (False, True)


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    roles: tuple[str, ...]
    description: str = ""


@dataclass(frozen=True)
class Outcome:
    """How a game ended. `winner` is a role, or None for a draw or a solitaire level."""

    winner: str | None
    result: str
    reason: str
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "result": self.result, "reason": self.reason, "rule": self.rule}


class Game(ABC):
    """A game module. Subclasses are stateless; all game data lives in the state dict."""

    name: str = ""  # registry key, stable forever: "assault-on-belgium"
    title: str = ""
    version: str = "1"  # bump when a rules change would change any resolution
    solitaire: bool = False
    # Each seat's actions and private facts are hidden from the other seats while the game runs.
    hidden_information: bool = False
    # The state holds something no seat may see yet (face-down markers, a cup's content).
    secret_state: bool = False
    # The dice a dispute sandbox's judge may force (their faces); () for a game without dice.
    forced_dice_faces: tuple[int, ...] = (6,)

    def forcible_dice(self) -> dict[str, int]:
        """Every roll a dispute sandbox's judge may force, named, with its largest die: the plain
        dice of `forced_dice_faces`, and for a game that draws chits from a cup, each cup's draw,
        which rolls a die with as many faces as the cup holds then (up to its whole content: value
        k draws the k-th chit of the cup as the state stores it). A forced value must fit the die
        the roll it feeds asks for; the roll itself refuses one that does not (ledger.dice)."""
        return {f"a d{f}": f for f in self.forced_dice_faces}

    @property
    def keeps_secrets(self) -> bool:
        """Events are blinded and state hashes kept back while the game runs (ledger.dice step 5)."""
        return self.hidden_information or self.secret_state

    # -- catalogue -----------------------------------------------------------------
    @abstractmethod
    def scenarios(self) -> dict[str, Scenario]: ...

    def options(self) -> dict[str, OptionSpec]:
        return {}

    def resolve_options(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and refuse unknown options or values outside their choices."""
        specs = self.options()
        given = dict(given or {})
        unknown = sorted(set(given) - set(specs))
        if unknown:
            raise IllegalAction(f"unknown option(s): {', '.join(unknown)}")
        out: dict[str, Any] = {}
        for name, spec in sorted(specs.items()):
            value = given.get(name, spec.default)
            if spec.choices and value not in spec.choices:
                raise IllegalAction(f"option {name} must be one of {list(spec.choices)}")
            out[name] = value
        return out

    def check_option_types(self, given: dict[str, Any] | None) -> None:
        """Raise IllegalAction for a given option whose value only compares equal to a choice
        (0 or 1 for False or True, 1.0 for 1): a new game's options are its choices exactly, as
        the API documents them. (resolve_options stays as it was: games already created replay.)"""
        specs = self.options()
        for name, value in sorted((given or {}).items()):
            spec = specs.get(name)
            if spec is not None and spec.choices and not any(
                    type(value) is type(choice) and value == choice for choice in spec.choices):
                raise IllegalAction(f"option {name} must be one of {list(spec.choices)}")

    def check_options(self, scenario: str, options: dict[str, Any]) -> None:
        """Raise IllegalAction when resolved `options` are outside what `scenario` allows (a game
        whose choices depend on the scenario); called when a game is created, never on replay."""
        return None

    # -- the flow --------------------------------------------------------------------
    @abstractmethod
    def setup(self, scenario: str, options: dict[str, Any], dice: DiceSource) -> State: ...

    @abstractmethod
    def check_state(self, state: State) -> None:
        """Raise InvalidState unless `state` is a well-formed state of this game."""

    def state_schema(self) -> dict[str, Any] | None:
        """The published JSON Schema of this game's state (rules/<game>/data/state.schema.json,
        written by tools/state_schemas.py); None for a game without one."""
        from rules.core.stateschema import load_schema

        return load_schema(self)

    def check_position(self, state: State) -> list[dict[str, Any]]:
        """The game's invariants a well-shaped state must also keep (stacking, this scenario's
        units, a phase the rules can reach...), for a sandbox's start position: a list of
        {"path": JSON Pointer, "message", "rule": section}, empty when the position is one the
        rules could reach. Called only on a state that fits `state_schema` and `check_state`."""
        return []

    @abstractmethod
    def active_seats(self, state: State) -> list[str]: ...

    @abstractmethod
    def legal_actions(self, state: State, seat: str) -> list[Action]: ...

    def is_legal(self, state: State, seat: str, action: Action) -> bool:
        """`action` is in `legal_actions(state, seat)` as JSON (`listed`); a game may answer it without
        listing them all (a targeted check per action type that must agree with the listing)."""
        return listed(action, self.legal_actions(state, seat))

    @abstractmethod
    def prompt(self, state: State, seat: str) -> str: ...

    @abstractmethod
    def apply(self, state: State, seat: str, action: Action, dice: DiceSource) -> Applied: ...

    @abstractmethod
    def view(self, state: State, seat: str | None) -> State: ...

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None: ...

    def reseal(self, state: State, dice: DiceSource) -> Applied | None:
        """A director reopened the game after its end had shown everything: draw again, face
        down and with the fresh seed's dice, the secrets that were drawn at random.
        None (the default): nothing of this game's hidden state was drawn."""
        return None

    def victory_status(self, state: State) -> dict[str, Any] | None:
        """Optional: where the game stands against its victory conditions, for a director who
        adjudicates an unfinished game (and to rank a duplicate tournament's finished games):
        {"summary": words, "sides": {role: what it holds and still needs}, "rule": section,
        "score": a list of integers that orders results, higher better (solitaire games)}.
        Never decides anything; None when the game says nothing."""
        return None

    def confirm(self, state: State, seat: str, action: Action, legal: list[Action]) -> str | None:
        """Why `action` (one of `legal`, the seat's listing now) should be confirmed before it is
        sent, in a player's words: it ends the game, or passes a whole phase while units could
        still act. None (the default) for an ordinary action. The listing marks these actions
        (GET .../actions `confirm`) and the play page asks before sending them."""
        return None

    def phase(self, state: State) -> str:
        """A short human label of where the game stands ("German land movement")."""
        return str(state.get("phase", ""))

    def describe_action(self, action: Action) -> str:
        """A one-line human description of an action, for logs and pages."""
        return ", ".join(f"{k}={v}" for k, v in sorted(action.items()))

    def roles(self, scenario: str) -> tuple[str, ...]:
        return self.scenarios()[scenario].roles


def same_json(a: Any, b: Any) -> bool:
    """`a == b` as JSON documents: Python's `==` also takes 1 for true and 0.0 for 0, JSON does not."""
    if a != b:
        return False
    try:
        return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    except (TypeError, ValueError):
        return False


def listed(action: Any, actions: list[Action]) -> bool:
    """`action` is one of `actions` as a JSON document (the `/actions` listing a client reads)."""
    return any(same_json(action, a) for a in actions)
