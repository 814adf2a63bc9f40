"""Board renderers: pure functions from a game state (as one viewer may see it) to markup.

A game's pages draw its board with the renderer registered under the game's name; a game
without one gets `TextRenderer` (the state as readable text). The Assault on Belgium hex map
(`warlog.render.assault_on_belgium.board`) is one renderer, Green Beret: Vietnam's solitaire map
(`warlog.render.green_beret_vietnam.board`) another, Vietnam Battles' two maps
(`warlog.render.vietnam_battles.board`) a third; a card game brings its own.
Renderers never see more than the viewer may: the pages hand them `Game.view(state, seat)`.

Besides `Renderer`'s methods, the pages use these when a renderer has them: `name_of(kind, key)`
(a hex's or unit's name on a button), `die_owner(purpose)` (whose die, for the audit),
`action_targets(action)` (the unit and the hex a click on the map picks an action by; by default
its `unit` and `hex`), `action_groups` (titles for its action types' button groups),
`highlights(event, before, after)` (what a replay step changed, from its game's own facts) and
`seat_names` (each seat's display name: "US", "VC", "Germany"; see `seat_label`), and
`action_words`, `fact_words`, `hidden_move` (actions, facts and hidden moves in words a player
uses, never ids: see `warlog.render.words`).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any, Protocol

from markupsafe import Markup, escape


@dataclass(frozen=True)
class Highlights:
    """What changed at a replay step: paths moved, hexes fought over, units hit or lost."""

    paths: tuple[tuple[str, ...], ...] = ()
    hexes: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    lost: tuple[tuple[str, str], ...] = ()  # (unit id, hex where it was lost)

    def __bool__(self) -> bool:
        return bool(self.paths or self.hexes or self.units or self.lost)


@dataclass(frozen=True)
class Scene:
    """Everything a renderer draws: the visible state plus page annotations.

    `target_hexes` / `target_units` are the hexes and units that legal actions name (the
    page's script makes them clickable); `state` is None before the game has started.
    """

    state: dict[str, Any] | None
    highlights: Highlights = Highlights()
    target_hexes: frozenset[str] = frozenset()
    target_units: frozenset[str] = frozenset()
    caption: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


class Renderer(Protocol):
    def board(self, scene: Scene) -> Markup:
        """The board as markup (an <svg> for a map). Deterministic: same scene, same bytes."""
        ...

    def legend(self) -> Markup:
        """A key to the board's symbols and colours (may be empty)."""
        ...

    def planner(self, state: dict[str, Any] | None) -> str | None:
        """How the page plans moves on this board now: "path" (click a unit, click the hexes
        of its path, confirm) or None (one click, one action)."""
        ...


class TextRenderer:
    """The fallback: the state as an indented, escaped listing."""

    def board(self, scene: Scene) -> Markup:
        if scene.state is None:
            return Markup('<p class="muted">The game has not started: it waits for every seat.</p>')
        text = json.dumps(scene.state, indent=2, sort_keys=True, ensure_ascii=False)
        return Markup('<pre class="state-text">{}</pre>').format(escape(text))

    def legend(self) -> Markup:
        return Markup("")

    def planner(self, state: dict[str, Any] | None) -> str | None:
        return None


_RENDERERS: dict[str, Renderer] = {}
_LOOKING = threading.Lock()
_ASKED: set[str] = set()  # games whose warlog/render/<package> has been looked for


def register_renderer(game: str, renderer: Renderer) -> Renderer:
    _RENDERERS[game] = renderer
    return renderer


def renderer_for(game: str) -> Renderer:
    """The board renderer registered under `game`: a built-in game's is warlog/render/<package>/
    (rules.companion), imported on the first question; a game from WARLOG_GAME_MODULES registers
    its own (or has none: `TextRenderer`)."""
    if game not in _RENDERERS and game not in _ASKED:
        from rules import companion, load_games

        with _LOOKING:  # a second thread waits for the first one's import
            if game not in _ASKED:
                load_games()  # the games of WARLOG_GAME_MODULES register their renderers on import
                companion("warlog.render", game)
                _ASKED.add(game)
    return _RENDERERS.get(game) or TextRenderer()


def seat_label(game: str | None, seat: str) -> str:
    """A seat's display name: its game's renderer's `seat_names`, else the id capitalised."""
    names = getattr(renderer_for(game), "seat_names", None) if game else None
    if names and seat in names:
        return str(names[seat])
    return seat.replace("_", " ").capitalize()


__all__ = ["Highlights", "Scene", "Renderer", "TextRenderer", "register_renderer", "renderer_for", "seat_label"]
