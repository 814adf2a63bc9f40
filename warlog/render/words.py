"""The words a player reads for an action, a fact or a move: each game's display names, never
its ids ("Give the M-60 of US 7th squad to US 6th squad", not "give sw (sw us-m60b, to us6,
unit us7)").

The rules engines word their facts and describe their actions once, and a recorded fact's text
is part of a judgement that never changes. The pages word them again when they show them, from
the stored data: a game's renderer may have

- `action_words(action) -> str | None`: an action in words (None: the rules' own description);
- `fact_words(fact) -> str`: a recorded fact's text in words (from its `text`, `kind`, `data`);
- `hidden_move(seat) -> str`: what another seat's move whose action is hidden reads as
  ("VC moved a hidden unit").

Without them the rules' own texts are shown (Assault on Belgium's already name every unit).
"""

from __future__ import annotations

from typing import Any

from jinja2 import pass_context

from rules.core.game import Game
from warlog.render import renderer_for, seat_label


def action_text(game: Game, action: dict[str, Any]) -> str:
    """An action as a button or an event line reads it."""
    own = getattr(renderer_for(game.name), "action_words", None)
    if own is not None:
        try:
            found = own(action)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            found = None  # a malformed action (a refused one) keeps the rules' own description
        if found:
            return str(found)
    return game.describe_action(action)


def fact_text(game: Game | str, fact: dict[str, Any]) -> str:
    """A recorded fact's text as the pages show it (the stored fact is never changed)."""
    name = game if isinstance(game, str) else game.name
    own = getattr(renderer_for(name), "fact_words", None)
    text = str(fact.get("text", ""))
    if own is None:
        return text
    try:
        return str(own(fact))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return text


def text_words(game: Game | str, text: str) -> str:
    """A free text of the rules (a refusal's reason, a prompt) with the game's ids in words."""
    return fact_text(game, {"text": text})


def hidden_move(game: Game, seat: str | None) -> str:
    """Another seat's move whose action the viewer may not see, in what may be known of it."""
    own = getattr(renderer_for(game.name), "hidden_move", None)
    if own is not None and seat is not None:
        return str(own(seat))
    return f"{seat_label(game.name, seat or 'server')} made a move hidden from you"


@pass_context
def words_filter(ctx: Any, thing: Any) -> str:
    """The `words` filter of the templates: a fact (its text) or a rules text in the words a
    player uses, for the template's `game` (as it is without one)."""
    game = ctx.get("game")
    if isinstance(thing, dict):
        return fact_text(game, thing) if isinstance(game, Game) else str(thing.get("text", ""))
    return text_words(game, str(thing)) if isinstance(game, Game) and thing is not None else str(thing or "")


def possessive(name: str) -> str:
    """"Germans" → "Germans'", "US" → "US's" (never "Germans's")."""
    return name + ("'" if name.endswith("s") and not name.isupper() else "'s")


def ordinal(n: int) -> str:
    """1 → "1st", 2 → "2nd", 11 → "11th"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


__all__ = ["action_text", "fact_text", "hidden_move", "ordinal", "possessive", "text_words", "words_filter"]
