"""The games' fixed display strings for the catalogs' extraction (babel.cfg's
`warlog.i18n_extract.extract`): seat names, action groups, phase labels, terrain, map keys and
the boards' names. Kept apart from warlog.i18n_terms, which a worker uses to say a game's texts
and which must not import the web code these strings are read from."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any


def game_terms() -> list[str]:
    """The games' fixed display strings: seat names, action group titles, phase labels."""
    from rules import all_games
    from rules.assault_on_belgium import flow as aob_flow
    from rules.green_beret_vietnam import flow as gbv_flow
    from rules.vietnam_battles import flow as vb_flow
    from warlog.render import renderer_for

    terms: list[str] = []
    from warlog.i18n import text_nodes
    from warlog.render import seat_label
    from warlog.render.green_beret_vietnam.map import TERRAIN

    for game in all_games():
        if not type(game).__module__.startswith("rules."):
            continue  # a game registered by a plugin (a test's) is not the catalogs' to follow
        renderer = renderer_for(game.name)
        terms.extend(seat_label(game.name, role) for sc in game.scenarios().values() for role in sc.roles)
        for table in ("seat_names", "action_groups"):
            terms.extend(str(v) for v in (getattr(renderer, table, None) or {}).values())
    terms.extend(str(ph.label) for ph in aob_flow.PHASES.values())
    terms.extend(str(v) for v in gbv_flow.PHASE_LABEL.values())
    terms.extend(str(v) for v in vb_flow.PHASE_LABEL.values())
    from warlog.web.pages import ACTION_GROUPS

    terms.extend(ACTION_GROUPS.values())
    terms.extend(name.lower() for _colour, _glyph, name in TERRAIN.values())  # a hex's button: "0106 rice paddy"
    for game in all_games():  # the map keys' words (the pages pass each key through `tr_markup`)
        legend = getattr(renderer_for(game.name), "legend", None)
        if type(game).__module__.startswith("rules.") and legend is not None:
            terms.extend(t for t in text_nodes(re.sub(r"<svg.*?</svg>", "", str(legend()), flags=re.S))
                         if re.search("[A-Za-z]{2}", t))
    from warlog.i18n_boards import board_terms

    terms.extend(board_terms())  # units', counters', missions' and scenarios' names, the rules' options
    seen: set[str] = set()
    return [t for t in terms if t and not (t in seen or seen.add(t))]  # type: ignore[func-returns-value]


def extract(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel extraction method: the games' fixed display strings (the file itself is not read)."""
    for term in game_terms():
        yield 1, None, term, []
