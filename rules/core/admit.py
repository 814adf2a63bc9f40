"""The preamble every game's `apply` runs before its rules: game over, data, seat, shape, legality,
copy. Each check speaks the game's own words (a rejected action's reason is recorded in the
ledger: the words and rule sections are part of the judgement and never change with this code).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.core.game import Action, IllegalAction, State
from rules.core.plaincopy import working_copy


@dataclass(frozen=True)
class Admission:
    """A game's preamble, check by check, in this order:

    1. `same_data(state)`: the state was set up with this build's data (else `other_data`, no rule);
    2. the game is not over (else "the game is over", `over_rule`);
    3. `seat_check(state, seat)` raises IllegalAction unless `seat` is the one to act now
       (with `shape_first`, after step 4: a game whose recorded judgements check the shape first);
    4. `shape(action)`: the action, refused in words unless it is of a shape the game knows;
    5. `legal(state, action)` is true, else `refusal(state, action)` is raised (the reason);
       a game whose legality check raises its own reason passes `refusal=None`.
    """

    same_data: Callable[[State], bool]
    other_data: str
    over_rule: str | None
    seat_check: Callable[[State, str], None]
    shape: Callable[[Any], Action]
    legal: Callable[[State, Action], bool]
    refusal: Callable[[State, Action], IllegalAction] | None = None
    shape_first: bool = False

    def admit(self, state: State, seat: str, action: Any) -> tuple[State, Action]:
        """The checked action and a copy of the state to apply it to (`state` itself inside
        `rules.core.plaincopy.applied_in_place(state)`); IllegalAction otherwise."""
        if not self.same_data(state):
            raise IllegalAction(self.other_data)
        if state["phase"] == "over":
            raise IllegalAction("the game is over", self.over_rule)
        if self.shape_first:
            action = self.shape(action)
            self.seat_check(state, seat)
        else:
            self.seat_check(state, seat)
            action = self.shape(action)
        if not self.legal(state, action):
            if self.refusal is None:
                raise IllegalAction(f"{action.get('type')} is not legal now")
            raise self.refusal(state, action)
        return working_copy(state), action


def seat_of_two(roles: tuple[str, ...], acting: Callable[[State], str | None], rule: str) -> Callable[[State, str], None]:
    """The seat check of a two-seat game whose one acting seat decides now: an unknown seat is refused
    by naming the seats, another seat by naming the one whose decision it is (`rule`)."""

    def check(state: State, seat: str) -> None:
        if seat not in roles:
            raise IllegalAction(f"no seat {seat!r}; the seats are {' and '.join(roles)}")
        who = acting(state)
        if seat != who:
            raise IllegalAction(f"it is {str(who).upper()}'s decision now, not {seat.upper()}'s", rule)

    return check
