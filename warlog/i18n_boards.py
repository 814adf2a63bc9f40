"""The words the boards draw, in the catalogs: what `tr_svg` (warlog.i18n) translates inside a
board's SVG, and the games' own names a page shows (units, counters, missions, scenarios, the
lobby's rule options).

A board's texts are built by its renderer (warlog/render/*) in English: the fixed ones are
listed here for the catalogs, those built with values have a phrase shape (added to
`warlog.i18n_terms.SHAPES`), and the names read from each game's data are listed by
`board_terms()` for the catalogs' extraction (babel.cfg's `warlog.i18n_extract.extract`).
What a counter's face prints (a unit's designation, "Sqd", "Pz", an aircraft type) stays as
printed: the Japanese editions use the same counters.
"""

from __future__ import annotations

import re
from typing import Any

from warlog.catalogs import N_

# A weapon's or vehicle's designation ("M1919", "H-34", "B40"): said as it is in every language.
DESIGNATION = re.compile(r"^[A-Z]+-?\d+$")

# (pattern, message, strict), as warlog.i18n_terms.SHAPES; the named parts listed in
# `warlog.i18n_terms.WORDS` are themselves translated, the others (numbers, hexes) kept.
# UP FRONT's nations as its card table names them (rules/up_front/data: a nation's "name")
UF_SIDE = r"(?P<side>Americans|Germans|Russians|British|Japanese|Partisans)"

BOARD_SHAPES: list[tuple[str, str, bool]] = [
    (r"^1 hex = (?P<km>[\d.]+) km$", N_("1 hex = %(km)s km"), False),
    (r"^1 hex ≈ (?P<km>[\d.]+) km$", N_("1 hex ≈ %(km)s km"), False),
    # Vietnam Battles' status band (warlog/render/vietnam_battles/status.py)
    (r"^TURN (?P<n>\d+) OF (?P<m>\d+) · (?P<side>US|VC) (?P<phase>.+)$", N_("TURN %(n)s OF %(m)s · %(side)s %(phase)s"),
     True),
    (r"^TURN (?P<n>\d+) OF (?P<m>\d+) · (?P<phase>.+)$", N_("TURN %(n)s OF %(m)s · %(phase)s"), True),
    (r"^Waiting on (?P<who>[^:]+): moving (?P<unit>.+)$", N_("Waiting on %(who)s: moving %(unit)s"), False),
    (r"^Waiting on (?P<who>[^:]+): (?P<phase>.+)$", N_("Waiting on %(who)s: %(phase)s"), True),
    (r"^Support fire — US allotment (?P<a>\d+), in hand (?P<hand>[^;]*); VC allotment (?P<b>\d+), in hand (?P<other>.*)$",
     N_("Support fire — US allotment %(a)s, in hand %(hand)s; VC allotment %(b)s, in hand %(other)s"), False),
    (r"^(?P<hand>[+\d ?]+) \(spent (?P<n>\d+)\)$", N_("%(hand)s (spent %(n)s)"), False),
    (r"^Slicks (?P<a>\d+)/(?P<b>\d+)$", N_("Slicks %(a)s/%(b)s"), False),
    (r"^Tangos (?P<a>\d+)/(?P<b>\d+)$", N_("Tangos %(a)s/%(b)s"), False),
    (r"^Base camps captured (?P<a>\d+)/(?P<b>\d+), revealed (?P<n>\d+)$",
     N_("Base camps captured %(a)s/%(b)s, revealed %(n)s"), False),
    (r"^(?P<n>\d+) VC units? hidden$", N_("%(n)s VC units hidden"), False),
    (r"^VC out (?P<n>\d+)$", N_("VC out %(n)s"), False),
    (r"^US lost (?P<n>\d+)$", N_("US lost %(n)s"), False),
    (r"^Bridges down: (?P<hexes>.+)$", N_("Bridges down: %(hexes)s"), False),
    # Green Beret: Vietnam's title band (warlog/render/green_beret_vietnam/status.py)
    (r"^TURN (?P<n>\d+)$", N_("TURN %(n)s"), False),
    (r"^(?P<level>[A-Z][A-Za-z\- ]+(?: \([^()]+\))?), net (?P<n>-?\d+)$", N_("%(level)s, net %(n)s"), True),
    (r"^MISSION · (?P<mission>.+) · (?P<pp>\d+) PP · in (?P<hex>\d{4})$",
     N_("MISSION · %(mission)s · %(pp)s PP · in %(hex)s"), False),
    (r"^needs (?P<needs>.+)$", N_("needs %(needs)s"), False),
    (r"^Mission: (?P<mission>.+) in (?P<hex>\d{4}), (?P<pp>\d+) PP; needs (?P<needs>.+) \(7\.0, 6\.1\)$",
     N_("Mission: %(mission)s in %(hex)s, %(pp)s PP; needs %(needs)s (7.0, 6.1)"), True),
    (r"^Accomplished (?P<a>\d+)$", N_("Accomplished %(a)s"), False),
    (r"^abandoned (?P<a>\d+)$", N_("abandoned %(a)s"), False),
    (r"^Teams lost (?P<a>\d+)$", N_("Teams lost %(a)s"), False),
    (r"^leaders lost (?P<a>\d+)$", N_("leaders lost %(a)s"), False),
    (r"^(?P<n>\d+) MP left$", N_("%(n)s MP left"), False),
    # UP FRONT's card table (warlog/render/up_front/board.py)
    (rf"^{UF_SIDE} (?P<g>[A-F])$", N_("%(side)s %(g)s"), True),
    (rf"^{UF_SIDE} group (?P<g>[A-F])$", N_("%(side)s group %(g)s"), True),
    (rf"^{UF_SIDE} — hand (?P<n>\d+) cards$", N_("%(side)s — hand %(n)s cards"), True),
    (rf"^{UF_SIDE} hand \((?P<n>\d+) cards\)$", N_("%(side)s hand (%(n)s cards)"), True),
    (rf"^Your hand \({UF_SIDE}, yours alone\)$", N_("Your hand (%(side)s, yours alone)"), True),
    (r"^range (?P<n>\d+)$", N_("range %(n)s"), False),
    (r"^level (?P<n>-?\d+)$", N_("level %(n)s"), False),
    (r"^level (?P<n>-?\d+) \((?P<what>.+)\)$", N_("level %(n)s (%(what)s)"), False),
    (r"^in (?P<terrain>[A-Z][A-Za-z ]+)$", N_("in %(terrain)s"), True),
    (r"^(?P<who>[A-Za-z]+): (?P<kind>concealment|terrain|mine_altitude) reaction$", N_("%(who)s: %(kind)s reaction"),
     True),  # UP FRONT's phase line while a reaction window is open (rules/up_front/game.py phase)
    (r"^moving: (?P<what>[a-z, ]+)$", N_("moving: %(what)s"), False),
    (r"^moving: (?P<what>[a-z, ]+) \(altitude (?P<n>\d)/2\)$", N_("moving: %(what)s (altitude %(n)s/2)"), False),
    (r"^(?P<id>[A-Z]{2}\d{2}) (?P<kind>[a-zA-Z]+) (?P<when>[a-z]+)$", N_("%(id)s %(kind)s %(when)s"), True),
    (r"^(?P<id>[A-Z]{2}[VG]\d{2}) (?P<kind>armoured car|medium tank|assault gun|infantry gun|pack howitzer) "
     r"(?P<when>[a-z]+)$", N_("%(id)s %(kind)s %(when)s"), True),  # rules version 4's vehicles and guns
    (r"^(?P<colour>black|red) (?P<n>\d+)$", N_("%(colour)s %(n)s"), True),
    (r"^(?P<card>.+) — random number (?P<colour>black|red) (?P<n>-?\d+) \[(?P<id>UF\d+)\]$",
     N_("%(card)s — random number %(colour)s %(n)s [%(id)s]"), True),  # a card's hover title
    (r"^(?P<what>Fire|Rally|Concealment|Movement|Smoke|Infiltration|Sniper|Ambush|Buildings|Woods|Hill|Gully|Marsh|"
     r"Stream|Brush|Wall|Wire|Pillbox|Minefield) (?P<n>-?\d+)$", N_("%(what)s %(n)s"), True),
    # a card by its name and random number ("Fire 3 (black 1)"), a man of a group, a group
    (r"^(?P<card>[A-Z][a-z]+(?: [A-Z][a-z]+)?(?: -?\d+)?) \((?P<rn>(?:black|red) \d+)\)$", N_("%(card)s (%(rn)s)"), True),
    (r"^man (?P<n>\d+) \((?P<kind>[A-Za-z]+)\)$", N_("man %(n)s (%(kind)s)"), True),
    (r"^your group (?P<g>[A-F])$", N_("your group %(g)s"), False),
    (r"^enemy group (?P<g>[A-F])$", N_("enemy group %(g)s"), False),
    # a move line and the audit's hidden moves (warlog/games/replay.py)
    (r"^(?P<who>\S+) submits a move \(hidden\)$", N_("%(who)s submits a move (hidden)"), True),
    (r"^a move by (?P<who>\S+) \(hidden until the game ends\)$", N_("a move by %(who)s (hidden until the game ends)"),
     True),
    # the audit's dice: what each die decided (the rules' purposes), its charts (warlog/trust/audit.py)
    (r"^a card drawn into (?P<who>.+?)(?:'s|') hand$", N_("a card drawn into %(who)s's hand"), False),
    (r"^a card drawn by (?P<who>\S+) until an altitude card$", N_("a card drawn by %(who)s until an altitude card"), False),
    (r"^a card drawn for (?P<who>\S+?)(?:'s|') elite troops \(UFM 12\.14\)$",
     N_("a card drawn for %(who)s's elite troops (UFM 12.14)"), False),
    (r"^land combat battle (?P<n>\d+) round (?P<r>\d+)$", N_("land combat battle %(n)s round %(r)s"), False),
    (r"^air combat battle (?P<n>\d+): (?P<a>\S+) fires at (?P<b>\S+)$", N_("air combat battle %(n)s: %(a)s fires at %(b)s"),
     False),
    (r"^AA fire at (?P<hex>\S+) on (?P<unit>\S+)$", N_("AA fire at %(hex)s on %(unit)s"), False),
    (r"^(?P<what>rally|damage check|withdrawal) of (?P<unit>\S+)$", N_("%(what)s of %(unit)s"), True),
    (r"^(?P<what>spotting|smoke) by (?P<unit>\S+)$", N_("%(what)s by %(unit)s"), True),
    (r"^medic (?P<unit>\S+)$", N_("medic %(unit)s"), False),
    (r"^attacker's die, (?P<a>\S+) at (?P<hex>\S+)$", N_("attacker's die, %(a)s at %(hex)s"), False),
    (r"^defender's die in (?P<hex>\S+)$", N_("defender's die in %(hex)s"), False),
    (r"^melee in (?P<hex>\S+), (?P<side>\S+)$", N_("melee in %(hex)s, %(side)s"), False),
    (r"^hero appearance from (?P<unit>\S+)$", N_("hero appearance from %(unit)s"), False),
    (r"^(?P<side>US|VC) support fire draw$", N_("%(side)s support fire draw"), True),
    (r"^(?P<who>[a-z][\w\- ]*) \(d(?P<n>\d+)\)$", N_("%(who)s (d%(n)s)"), True),
    (r"^expected (?P<x>[\d.]+)$", N_("expected %(x)s"), False),
    # Lock 'n Load's prompts (rules/lock_n_load/schema.py)
    (r"^turn (?P<n>\d+) impulse — activate a hex, spot, or pass \((?P<k>\d+) pass\(es\) in a row\)$",
     N_("turn %(n)s impulse — activate a hex, spot, or pass (%(k)s pass(es) in a row)"), False),
    (r"^activated (?P<hexes>.+) — select units, melee, or end the impulse$",
     N_("activated %(hexes)s — select units, melee, or end the impulse"), False),
    (r"^Draw pile (?P<n>\d+) cards$", N_("Draw pile %(n)s cards"), False),
    (r"^deck pass (?P<a>\d+) of (?P<b>\d+)$", N_("deck pass %(a)s of %(b)s"), False),
    (r"^discards (?P<n>\d+)$", N_("discards %(n)s"), False),
    (r"^discards (?P<n>\d+) \(top: (?P<what>.+)\)$", N_("discards %(n)s (top: %(what)s)"), False),
    (r"^(?P<terrain>bare|forested|jungle) mountains, (?P<when>[a-z ]+)$", N_("%(terrain)s mountains, %(when)s"), True),
    (r"^Standing answers: (?P<what>.+)$", N_("Standing answers: %(what)s"), False),
    # Lock 'n Load's line-of-sight report beside the board (rules/lock_n_load/los.py, LnL 10.0)
    (r"^ground at level (?P<n>\d+) is higher than both ends$", N_("ground at level %(n)s is higher than both ends"),
     False),
    (r"^(?P<terrain>.+) rises to level (?P<n>\d+)$", N_("%(terrain)s rises to level %(n)s"), False),
    (r"^(?P<terrain>[^()]+) \((?P<kind>blocking|degrading)\) on the same level as both ends$",
     N_("%(terrain)s (%(kind)s) on the same level as both ends"), False),
    (r"^(?P<terrain>[^()]+) \((?P<kind>blocking|degrading)\) at level (?P<n>\d+), the higher end's level$",
     N_("%(terrain)s (%(kind)s) at level %(n)s, the higher end's level"), False),
    (r"^(?P<terrain>.+) at (?P<hex>\S+) hides the hex directly behind it \(blind hex\)$",
     N_("%(terrain)s at %(hex)s hides the hex directly behind it (blind hex)"), False),
    (r"^a third degrading hex \((?P<hex>\S+)\) blocks the LOS$", N_("a third degrading hex (%(hex)s) blocks the LOS"),
     False),
    (r"^the LOS runs along the edge of smoke in (?P<hex>\S+)$", N_("the LOS runs along the edge of smoke in %(hex)s"),
     False),
    (r"^along the hexside (?P<hex>\S+): (?P<a>.+) and (?P<b>.+) on both sides$",
     N_("along the hexside %(hex)s: %(a)s and %(b)s on both sides"), False),
    (r"^a fragment of (?P<terrain>.+) from (?P<hex>\S+) across (?P<side>\S+)$",
     N_("a fragment of %(terrain)s from %(hex)s across %(side)s"), False),
    (r"^(?P<terrain>.+) sliver on (?P<hex>\S+)$", N_("%(terrain)s sliver on %(hex)s"), False),
    (r"^degraded by (?P<n>\d+) hex(?:es)? \(DRM (?P<drm>[+-]\d+), T5\)$", N_("degraded by %(n)s hexes (DRM %(drm)s, T5)"),
     False),
    (r"^[Ss]moke in (?P<terrain>.+)$", N_("smoke in %(terrain)s"), False),
    # a recorded look at what the rules hide (warlog.games.replay.look_text), on every page of the game
    (r"^The (?P<who>director|umpire) viewed (?P<what>.+) at step (?P<n>\d+): a look at what the rules hide$",
     N_("The %(who)s viewed %(what)s at step %(n)s: a look at what the rules hide"), True),
    (r"^Step (?P<n>\d+) of (?P<m>\d+)$", N_("Step %(n)s of %(m)s"), False),  # a replay's caption
    # a line of parts ("a · b · c"), as the boards' status lines are: each part in turn (after the
    # shapes above, which take a whole line; before the other shapes, which could take a part)
    (r"^(?P<a>[^·]+?) · (?P<b>.+)$", N_("%(a)s · %(b)s"), False),
]
# Shapes that would take any text of their form: tried after all the others
LAST_SHAPES: list[tuple[str, str, bool]] = [
    # a place with its hex, where the place's name has words ("National Redoubt (Walem–Breendonk) (1003)")
    (r"^(?P<where>[^()]+(?: \([^()]+\))?) \((?P<hex>\d{4})\)$", N_("%(where)s (%(hex)s)"), True),
    # a die's purpose after its rule section ("7.0 draw a mission", "VB 8.4 bombardment")
    (r"^(?P<cite>(?:(?:LnL|VB|UF|UFM|AoB|CORE|GBV) )?\d+(?:\.\d+)*) (?P<what>.+)$", N_("%(cite)s %(what)s"), True),
    # Assault on Belgium: a land unit's name with its factors (the buttons, the tray)
    (r"^(?P<unit>.+) \((?P<f>\d+-\d+-\d+)\)$", N_("%(unit)s (%(f)s)"), True),
    # Green Beret: a mission's needs ("Intel + M21 or SVD")
    (r"^(?P<a>[^+]+?) \+ (?P<b>.+)$", N_("%(a)s + %(b)s"), False),
    (r"^(?P<a>[A-Z][\w.\- ]*?) or (?P<b>[A-Z].*)$", N_("%(a)s or %(b)s"), False),
]
# the parts of these shapes that are words
BOARD_WORDS = {"where", "terrain", "kind", "phase", "mission", "needs", "level", "colour", "hand", "card", "cards", "rn", "man"}

# The boards' fixed texts (drawn in their SVG, or said by their hover titles)
BOARD_TEXTS = [
    # what a director's look saw (warlog/web/pages.py)
    N_("director"), N_("umpire"), N_("the full state"), N_("the full state (the play page)"),
    N_("the full state (the replay page)"), N_("the full state (the board picture, PNG)"),
    # Assault on Belgium (warlog/render/assault_on_belgium/)
    N_("10 May 1940"), N_("National Redoubt (Walem–Breendonk)"), N_("National Redoubt ('s-Gravenwezel–Lier)"), N_("Not yet set up"), N_("BELGIQUE · BELGIË"), N_("DEUTSCHES REICH"), N_("NEDERLAND"),
    N_("FRANCE"), N_("LUXEMBOURG"),
    # Vietnam Battles
    N_("Waiting for both seats to join"), N_("B-52 used this turn"), N_("B-52 ready"), N_("none"), N_("CACHE"),
    N_("CAMP"), N_("Dinh Tuong, the Mekong delta, 1967"), N_("Secret set-up"), N_("Mechanized Movement Phase"),
    N_("Mechanized Combat Phase"), N_("Game over"),
    # Green Beret: Vietnam
    N_("GAME OVER"), N_("Defeat"),
    # its victory levels (rules/green_beret_vietnam/data/tables.json)
    N_("Court-martial"), N_("Demotion"), N_("Reassignment"), N_("Insufficient record"), N_("Sufficient record"),
    N_("Commendation"), N_("Promotion"), N_("Prestige Points"), N_("MISSION · none on the map"), N_("nothing"),
    N_("Central Highlands"), N_("solitaire"), N_("SUPPR"), N_("the base camp"), N_("Set-up: place the base camp"),
    N_("Mission placement and procurement"), N_("Friendly movement"), N_("Friendly combat"),
    N_("Enemy movement and combat"), N_("Victory determination"),
    # Lock 'n Load
    N_("Moved"), N_("Fired"), N_("SHAKEN"), N_("Medic"), N_("blocks"), N_("degrades"), N_("blocking"),
    N_("degrading"),
    # UP FRONT
    N_("Open Ground"), N_("entrenched"), N_("leader"), N_("rifle"), N_("lmg"), N_("smg"), N_("mmg"), N_("hmg"),
    N_("ok"), N_("pinned"), N_("broken"), N_("kia"), N_("routed"), N_("fwd"), N_("back"), N_("side"), N_("black"), N_("red"), N_("dry"),
    N_("Woods"), N_("Wire"), N_("Hill"), N_("Wall"), N_("Movement"), N_("Stream"), N_("Marsh"), N_("Gully"),
    N_("Building"), N_("Brush"), N_("Minefield"), N_("Rally"), N_("Fire"), N_("Concealment"), N_("Buildings"),
    N_("Pillbox"), N_("Infiltration"), N_("Sniper"), N_("Ambush"), N_("SMG"), N_("LMG"), N_("MMG"), N_("HMG"),
    # what the dice decided, as the rules name it (rules/*: the purpose of each roll)
    N_("noise check"), N_("relocation cost"), N_("draw an enemy unit from the pool"),
    N_("number of enemy units appearing"), N_("scatter direction die"), N_("scatter distance die"),
    N_("attacker's die (Green Berets)"), N_("attacker's die (enemy)"), N_("defender's die (Green Berets)"),
    N_("defender's die (enemy)"), N_("step 8 weapons/equipment lost"), N_("draw a damage marker"),
    N_("naval gunfire scatter"), N_("suppression fire"), N_("assassination d10"), N_("assassination d6"),
    N_("enemy unit drawn again as a PP-track marker (game reopened)"), N_("enemy unit drawn as a PP-track marker"),
    N_("draw a mission"), N_("mission placement"), N_("sniper's second die"), N_("initiative, US"), N_("bridge repair"),
    N_("Ben Suc"), N_("open VC strength"), N_("secret victory roll"), N_("combat"), N_("bombardment"),
    N_("land combat"), N_("a card drawn for a fire result"),
    N_("a card drawn for an entrenchment attempt"), N_("a card drawn for close combat"),
    N_("a card drawn for the avalanche check"), N_("a card drawn for an ordnance To Hit"),
    N_("a card drawn for a bog check"), N_("the set-up"), N_("set-up"), N_("face"),
    N_("damage check"), N_("withdrawal"), N_("spotting"), N_("smoke"),
    # prompts the rules give when nobody can act (rules/*)
    N_("Spectators and directors make no moves"), N_("The game is over"),
]


def board_terms() -> list[str]:
    """The names each game's data gives its units, counters, missions and scenarios, the games'
    own titles (and their pages' short ones: "Vietnam Battles"), the status texts its renderers
    keep in tables, and the rules' options as the lobby shows them."""
    from rules import all_games
    from warlog.render import renderer_for
    from warlog.render.assault_on_belgium.board import world as aob_world
    from warlog.render.green_beret_vietnam import status as gbv_status
    from warlog.render.green_beret_vietnam.board import world as gbv_world
    from warlog.render.vietnam_battles import status as vb_status

    terms: list[str] = [u.name for u in aob_world().units.values()]
    g = gbv_world()
    terms += [c.name for c in g.counters.values()] + [e.name for e in g.enemies.values()]
    terms += [m.name for m in g.missions.values()]
    terms += [n for n in gbv_status.requirement_names(g)  # a mission's needs ("Radio", "Demo"), not
              if not DESIGNATION.match(n)]  # a designation ("M1919"), said as it is in every language
    terms += list(gbv_status.PHASES.values()) + list(vb_status.PHASES.values())
    for game in all_games():
        if not type(game).__module__.startswith("rules."):
            continue  # a plugin's game (a test's) is not the catalogs' to follow
        terms += [str(sc.title) for sc in game.scenarios().values()]
        terms += [str(game.title), str(getattr(renderer_for(game.name), "title", game.title))]
        for o in game.options().values():
            terms.append(str(o.description))
            if list(o.choices) != [False, True]:
                terms += [str(c).replace("_", " ") for c in o.choices]
    return [t for t in terms if _has_words(t)]


def _has_words(text: Any) -> bool:
    return any(c.isalpha() and c.isascii() for c in str(text)) and len(str(text)) > 1
