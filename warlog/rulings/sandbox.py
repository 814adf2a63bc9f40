"""The dispute sandbox: checking a start position, forced dice, and forking a game at a step.

A position (a sandbox's start state) is checked in four stages, each one's errors naming a
JSON Pointer into the state and, where a rule decides it, the rule section (docs/sandbox.md):
1. the game's state JSON Schema (rules.core.stateschema): every nested record;
2. the game's own `check_state` and the scenario the sandbox is created for;
3. the game's invariants, `Game.check_position` (stacking, this scenario's units...);
4. a probe: the engine answers every question a page or a move will ask of this position (who
   moves, the legal actions and prompt of every seat, each seat's view) and plays each legal
   action once with throw-away dice; an engine failure here is a 422 now, never a 500 later.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import TYPE_CHECKING, Any

import jsonpatch

from rules.core.dice import RecordingDice
from rules.core.game import Game, IllegalAction, InvalidState
from rules.core.stateschema import error, schema_errors

if TYPE_CHECKING:
    from warlog.games.service import Warlog

ON_DICE_EXHAUSTED = ("stop", "derive")
MAX_PROBED_ACTIONS = 60


def position_errors(game: Game, scenario: str, state: Any) -> list[dict[str, Any]]:
    """Everything wrong with `state` as a start position of `game`'s `scenario`; [] if none."""
    errors = schema_errors(game, state)
    if errors:
        return errors
    if isinstance(state, dict) and "scenario" in state and state["scenario"] != scenario:
        return [error(["scenario"], f"the state is of scenario {state['scenario']!r}; this sandbox plays {scenario!r}")]
    try:
        game.check_state(state)
    except InvalidState as err:
        # the game's invariants name the path and rule of what its own state check refuses (stacking,
        # a card in two places...), where they can read the state; else the check's own message
        try:
            named = game.check_position(state)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            named = []
        return named or [error("", str(err))]
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        return [error("", f"the game's state check cannot read this state ({type(err).__name__}: {err})")]
    try:
        errors = game.check_position(state)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        errors = [error("", f"the game's position check cannot read this state ({type(err).__name__}: {err})")]
    return errors or probe(game, scenario, state)


def probe(game: Game, scenario: str, state: dict[str, Any]) -> list[dict[str, Any]]:
    """Ask the engine what the service will ask of this position; a failure is an error."""
    stage = "who moves"
    try:
        active = game.active_seats(state)
        stage = "the phase"
        game.phase(state)
        stage = "the outcome"
        game.outcome(state)
        for seat in (*game.roles(scenario), None):
            stage = f"the view of {seat or 'a spectator'}"
            game.view(state, seat)
            if seat is None:
                continue
            stage = f"the prompt of {seat}"
            game.prompt(state, seat)
            stage = f"the legal actions of {seat}"
            legal = game.legal_actions(state, seat)
            if seat in active:
                for action in legal[:MAX_PROBED_ACTIONS]:
                    stage = f"the legal action {game.describe_action(action)} of {seat}"
                    try:
                        game.apply(state, seat, action, RecordingDice(lambda i, f: 1 + i % f))
                    except IllegalAction:
                        pass
    except Exception as err:  # the engine's own failure: the position is not one it can play
        return [error("", f"the rules engine cannot play from this position: {stage} failed "
                          f"({type(err).__name__}: {err}); check the records this needs")]
    return []


def forced_faces(game: Game) -> list[int]:
    """The dice a sandbox of `game` may force, by faces (`Game.forcible_dice`), smallest first."""
    return sorted(set(game.forcible_dice().values()))


def dice_errors(game: Game, dice: list[int]) -> list[dict[str, Any]]:
    """Forced dice must fit a roll this game makes (`Game.forcible_dice`): a value above its largest
    die is refused now; one that fits some roll is checked against the roll it feeds when it is
    used (a move it does not fit is refused with the die it needed: ledger.dice.ForcedDieMismatch)."""
    rolls = game.forcible_dice()
    if dice and not rolls:
        return [error(["dice"], f"{game.title} rolls no dice a judge may force")]
    top = max(rolls.values(), default=0)
    known = "; ".join(f"{what}: 1..{faces}" for what, faces in sorted(rolls.items(), key=lambda r: (r[1], r[0])))
    return [error(["dice", i], f"{v!r} fits no roll of {game.title} ({known})")
            for i, v in enumerate(dice) if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= top]


def apply_patch(state: Any, patch: list[dict[str, Any]]) -> tuple[Any, list[dict[str, Any]]]:
    """`state` edited by a JSON Patch (RFC 6902), or the error naming the operation that failed."""
    for i, op in enumerate(patch):
        try:
            state = jsonpatch.JsonPatch([op]).apply(state, in_place=False)
        except Exception as err:  # any malformed operation (the library raises several kinds): a 422 naming it
            path = op.get("path", "") if isinstance(op, dict) else ""
            return state, [error(str(path), f"patch operation #{i} cannot be applied: {err}")]
    return state, []


@cache
def _example(game: Game, scenario: str) -> dict[str, Any]:
    return game.setup(scenario, game.resolve_options({}), RecordingDice(lambda i, f: 1 + i % f))


def example_state(game: Game, scenario: str) -> dict[str, Any]:
    """The scenario's start state from the game's own setup, with the fixed dice 1, 2, 3..."""
    return copy.deepcopy(_example(game, scenario))


def fork(svc: Warlog, game_id: str, token: str | None, step: int, patch: list[dict[str, Any]] | None = None,
         dice: list[int] | None = None, on_dice_exhausted: str = "derive", dry_run: bool = False) -> dict[str, Any]:
    """A sandbox whose start is game `game_id`'s state at `step` — every hidden unit, secret
    camp and face-down marker as it was — edited by `patch` (a JSON Patch), checked like any
    sandbox. The game's director may fork at any time (the look is recorded in the game: every
    seat sees it); anyone may once the game's book is open (Warlog.open_book). The sandbox names
    the game it was forked from, and keeps its seats' secrets until that game has ended.
    `dry_run`: only check, and answer the edited state and its errors (the browser editor)."""
    from warlog.games.service import Forbidden, NotFound, Unprocessable

    viewer = svc.viewer(game_id, token)
    summary = svc.summary(game_id)
    if not viewer.director and not svc.open_book(game_id):
        raise Forbidden("only the game's director may fork a running game (anyone may once it has ended)")
    if not isinstance(step, int) or not 0 <= step <= summary.last_seq:
        raise NotFound(f"no step {step}: this game has events 0..{summary.last_seq}")
    svc.record_look(game_id, viewer, step, "the full position, to fork a dispute sandbox")
    created = svc.created(game_id).payload
    state = svc.history(game_id).state_at(step)
    if state is None:
        raise Unprocessable(f"step {step} is before the game started: there is no position to fork",
                            errors=[error(["step"], "before game_started")])
    game = svc._game(created["game"])
    state, errors = apply_patch(copy.deepcopy(state), patch or [])
    if not errors:
        errors = dice_errors(game, list(dice or [])) + position_errors(game, created["scenario"], state)
    if dry_run:
        return {"ok": not errors, "errors": errors, "state": state, "phase": _phase(game, state, errors),
                "step": step, "game": created["game"], "scenario": created["scenario"]}
    if errors:
        first = errors[0]
        raise Unprocessable(f"the forked position is not one {game.title} can play ({len(errors)} error(s); first "
                            f"at {first['path'] or '/'}: {first['message']})", errors=errors)
    out = svc.create_game(created["game"], created["scenario"], created["options"],
                          {"state": state, "dice": list(dice or []), "on_dice_exhausted": on_dice_exhausted,
                           "forked_from": {"game": game_id, "step": step, "edits": len(patch or [])}})
    return {**out, "forked_from": {"game": game_id, "step": step}}


def _phase(game: Game, state: Any, errors: list[dict[str, Any]]) -> str | None:
    try:
        return None if errors else game.phase(state)
    except Exception:
        return None
