"""The games' own display strings in the catalogs, translated where they are shown.

The rules engines and the renderers word their prompts, phases, action groups and events in
English, and stay free of any translation machinery: the pages pass what they show through
`tr` (warlog.i18n), which looks the whole text up in the catalog, and else tries the phrase
shapes below ("Turn 3: Movement Phase", "Germany takes its seat ..."), translating each part
in turn. Texts no entry or shape matches stay English.

`extract` is a Babel extraction method (babel.cfg) that lists the games' fixed strings (seat
names, action group titles, phase labels) from the renderers and the rules themselves, so the
catalogs follow them without a copy here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from warlog.i18n import N_

# (shape, message, strict): each named word part is itself translated and put in the message's
# placeholder (number and id parts are kept). A strict shape is used only when every word part
# translates; the others may leave a part in English (an action's own description).
SHAPES: list[tuple[re.Pattern[str], str, bool]] = [(re.compile(p), m, strict) for p, m, strict in [
    (r"^Turn (?P<n>\d+): (?P<what>.+)$", N_("Turn %(n)s: %(what)s"), True),
    (r"^turn (?P<n>\d+) \((?P<who>[^)]+)\), deck pass (?P<k>\d+) of (?P<of>\d+)$",
     N_("turn %(n)s (%(who)s), deck pass %(k)s of %(of)s"), False),
    (r"^Combat: battle (?P<n>\d+)$", N_("Combat: battle %(n)s"), True),
    (r"^(?P<side>US|VC) (?P<what>.+)$", N_("%(side)s %(what)s"), True),
    (r"^(?P<who>.+) takes its seat and adds entropy to the dice$",
     N_("%(who)s takes its seat and adds entropy to the dice"), False),
    (r"^(?P<who>.+) takes its seat$", N_("%(who)s takes its seat"), False),
    (r"^Every seat has joined: the game starts \((?P<what>.*)\)$",
     N_("Every seat has joined: the game starts (%(what)s)"), False),
    (r"^(?P<title>.+) created: scenario (?P<sc>\S+), seats (?P<seats>.+)$",
     N_("%(title)s created: scenario %(sc)s, seats %(seats)s"), False),
    (r"^[Ww]aiting for (?P<who>[^:]+): (?P<what>.+)$", N_("Waiting for %(who)s: %(what)s"), False),
    (r"^[Ww]aiting for (?P<who>.+)$", N_("Waiting for %(who)s"), False),
    (r"^Refused — (?P<who>[^:]+): (?P<what>.+)$", N_("Refused — %(who)s: %(what)s"), False),
    (r"^Game over: (?P<what>.+)$", N_("Game over: %(what)s"), False),
    (r"^(?P<who>[A-Z][A-Za-z]+) wins?$", N_("%(who)s wins"), True),
    (r"^(?P<who>Germany|Belgium|US|VC|Player|Director|Server): (?P<what>.+)$", N_("%(who)s: %(what)s"), False),
    # Assault on Belgium's prompts and actions (rules/assault_on_belgium: flow's asks, game.describe)
    (r"^Set up in (?P<who>Belgium|Germany): (?P<what>.+) \((?P<n>\d+) unit\(s\) unplaced\), or use the standard "
     r"set-up; then confirm$", N_("Set up in %(who)s: %(what)s (%(n)s unit(s) unplaced), or use the standard set-up; "
                                  "then confirm"), False),
    (r"^All units are set up in (?P<who>Belgium|Germany): confirm$", N_("All units are set up in %(who)s: confirm"),
     True),
    (r"^place the selected unit in (?P<hex>\S+)$", N_("place the selected unit in %(hex)s"), False),
    (r"^place (?P<unit>.+)$", N_("place %(unit)s"), False),
    (r"^select (?P<unit>.+)$", N_("select %(unit)s"), False),
    (r"^pick up (?P<unit>.+)$", N_("pick up %(unit)s"), False),
    (r"^Move (?P<unit>.+) \((?P<mp>\d+) MP left\) or end its move$", N_("Move %(unit)s (%(mp)s MP left) or end its move"),
     False),
    (r"^React with (?P<unit>.+) \((?P<mp>\d+) MP left\): end next to a battle hex$",
     N_("React with %(unit)s (%(mp)s MP left): end next to a battle hex"), False),
    (r"^move to (?P<hex>\S+) \(tank battle\)$", N_("move to %(hex)s (tank battle)"), False),
    (r"^move to (?P<hex>\S+)$", N_("move to %(hex)s"), False),
    (r"^fly (?P<unit>.+) to (?P<hex>\S+)$", N_("fly %(unit)s to %(hex)s"), False),
    (r"^keep (?P<unit>.+) at its base$", N_("keep %(unit)s at its base"), False),
    (r"^resolve battle (?P<n>\d+)$", N_("resolve battle %(n)s"), False),
    (r"^retreat to (?P<hex>\S+)$", N_("retreat to %(hex)s"), False),
    (r"^pursue into (?P<hex>\S+)$", N_("pursue into %(hex)s"), False),
    (r"^tanks attack (?P<hex>\S+)$", N_("tanks attack %(hex)s"), False),
    (r"^Combat: (?P<what>.+)$", N_("Combat: %(what)s"), True),
    (r"^Battle (?P<n>\d+) at (?P<hex>.+), round (?P<r>\d+): (?P<what>.+)$",
     N_("Battle %(n)s at %(hex)s, round %(r)s: %(what)s"), False),
    # Assault on Belgium's facts (rules/assault_on_belgium: placement, movement, air, battles)
    (r"^(?P<unit>.+) ends its move in (?P<hex>.+)$", N_("%(unit)s ends its move in %(hex)s"), False),
    (r"^(?P<who>Germany|Belgium) ends its (?P<what>movement|reaction|air missions)$",
     N_("%(who)s ends its %(what)s"), True),
    (r"^(?P<unit>.+) moves (?P<frm>\S+) → (?P<hex>.+) \((?P<cost>\d+) MP, (?P<left>\d+) left\)$",
     N_("%(unit)s moves %(frm)s → %(hex)s (%(cost)s MP, %(left)s left)"), False),
    (r"^(?P<unit>.+) joins battle (?P<n>\d+) at (?P<hex>.+)$", N_("%(unit)s joins battle %(n)s at %(hex)s"), False),
    (r"^(?P<unit>.+) starts a tank battle: pays 1 MP, the tank battle marker shows (?P<m>\S+)$",
     N_("%(unit)s starts a tank battle: pays 1 MP, the tank battle marker shows %(m)s"), False),
    (r"^(?P<unit>.+) set up in (?P<hex>.+)$", N_("%(unit)s set up in %(hex)s"), False),
    (r"^(?P<unit>.+) taken back from (?P<hex>.+)$", N_("%(unit)s taken back from %(hex)s"), False),
    (r"^(?P<who>Germany|Belgium) has finished setting up$", N_("%(who)s has finished setting up"), True),
    (r"^(?P<what>.+): nothing can be done, skipped$", N_("%(what)s: nothing can be done, skipped"), True),
    (r"^(?P<unit>.+) stays at its base$", N_("%(unit)s stays at its base"), False),
    (r"^(?P<who>Germany|Belgium) fights with (?P<unit>.+)$", N_("%(who)s fights with %(unit)s"), True),
    (r"^Germany resolves battle (?P<n>\d+) at (?P<hex>.+)$", N_("Germany resolves battle %(n)s at %(hex)s"), False),
    (r"^Victory check: (?P<why>.+)\. (?P<who>[A-Z][a-z]+) wins\.$", N_("Victory check: %(why)s. %(who)s wins."),
     False),
    # the other games' prompts and phases (Vietnam Battles, Lock 'n Load, UP FRONT, Green Beret)
    (r"^Turn (?P<n>\d+) (?P<what>[a-z].+)$", N_("Turn %(n)s %(what)s"), True),
    (r"^turn (?P<n>\d+) — one action per group, or discards; then end the turn$",
     N_("turn %(n)s — one action per group, or discards; then end the turn"), True),
    (r"^(?P<hex>\d{4}) (?P<what>[a-z][a-z ]*)$", N_("%(hex)s %(what)s"), True),  # a hex and its terrain
    (r"^(?P<a>.+), (?P<b>[^,]+)$", N_("%(a)s, %(b)s"), True),  # a list of names (the seats of a game)
    (r"^(?P<who>[A-Za-z]+): (?P<what>.+)$", N_("%(who)s: %(what)s"), True),
]]
# Assault on Belgium's fixed prompts and action texts (rules/assault_on_belgium)
AOB_TEXTS = [N_("select a unit to place"), N_("use the standard set-up"), N_("finish setting up"),
             N_("end this unit's move"), N_("end the movement"), N_("end the reaction"), N_("end the air missions"),
             N_("no bomber support"), N_("take an extra hit instead of retreating"), N_("continue the battle"),
             N_("do not pursue"), N_("German land movement: select a unit to move, or end the movement"),
             N_("Belgian reaction: move units next to battle hexes, or end the reaction"),
             N_("German air: send bombers (support) and fighters (escort) to battle hexes in range, then end"),
             N_("Belgian air: send fighters to intercept (and bombers to support) over battle hexes, then end"),
             N_("The game waits for every seat to join"), N_("movement"), N_("reaction"), N_("air missions"),
             N_("Combat phase: the battles are fought one at a time")]
# the other games' fixed prompts, phases and actions
OTHER_TEXTS = [N_("movement phase"), N_("combat phase"), N_("mechanized movement phase"),
               N_("mechanized combat phase"), N_("End the phase"), N_("end the phase"), N_("end rally"), N_("ready"), N_("Rally Phase"), N_("impulse"),
               N_("opportunity fire"), N_("melee targets"), N_("support weapon to drop"), N_("flamethrower retreat"),
               N_("hero placement"), N_("Administrative Phase"), N_("Operations Phase"), N_("End rally"),
               N_("Rally Phase — rally, treat, pick up or exchange weapons, then end the step (3.0)"),
               N_("Prepare for Play"), N_("Prepare for Play — place starting terrain and altitude cards, then ready"),
               N_("Ready"), N_("Place your base camp (not on or next to a village, airfield or full water; with a PBR "
                               "in full water)")]
WORDS = {"who", "what", "side", "seats", "a", "b"}  # the parts that are words (the others: numbers, ids)


def shaped(text: str, lookup: Callable[[str], str]) -> str | None:
    """`text` by the first shape that matches (and translates); None if none does."""
    for pattern, message, strict in SHAPES:
        m = pattern.match(text)
        if m is None:
            continue
        template = lookup(message)
        if template == message:
            continue
        parts = {name: word(value, lookup) if name in WORDS else value for name, value in m.groupdict().items()}
        if strict and any(parts[n] == v for n, v in m.groupdict().items() if n in WORDS):
            continue
        try:
            return template % parts
        except (KeyError, ValueError, TypeError):  # a translation that lost a placeholder: English, never a 500
            return None
    return None


def word(value: str, lookup: Callable[[str], str]) -> str:
    """A part of a phrase translated; a seat's id as the rules write it ("americans") by its
    display name ("Americans")."""
    found = lookup(value)
    if found == value and value.isalpha() and value.islower():
        named = value.capitalize()
        found = lookup(named)
        return value if found == named else found
    return found


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
    seen: set[str] = set()
    return [t for t in terms if t and not (t in seen or seen.add(t))]  # type: ignore[func-returns-value]


def extract(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel extraction method: the games' fixed display strings (the file itself is not read)."""
    for term in game_terms():
        yield 1, None, term, []
