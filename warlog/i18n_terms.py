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
import re._constants as re_constants
import re._parser as re_parser
from collections.abc import Callable

from warlog.catalogs import N_
from warlog.i18n_boards import BOARD_SHAPES, BOARD_WORDS, DESIGNATION, LAST_SHAPES

# (shape, message, strict): each named word part is itself translated and put in the message's
# placeholder (number and id parts are kept). A strict shape is used only when every word part
# translates; the others may leave a part in English (an action's own description).
SHAPES: list[tuple[re.Pattern[str], str, bool]] = [(re.compile(p), m, strict) for p, m, strict in [
    # Lock 'n Load's actions in words (warlog/render/lock_n_load/words.py)
    (r"^(?P<nat>US|VC|ARVN|NVA|USMC) (?P<n>\d+)(?:st|nd|rd|th) squad$", N_("%(nat)s squad %(n)s"), False),
    (r"^(?P<nat>US|VC|ARVN|NVA|USMC) (?P<n>\d+)(?:st|nd|rd|th) half squad$", N_("%(nat)s half squad %(n)s"), False),
    (r"^(?P<nat>US|VC|ARVN|NVA|USMC) (?P<n>\d+)(?:st|nd|rd|th) half squad (?P<x>[B-D])$",
     N_("%(nat)s half squad %(n)s %(x)s"), False),
    (r"^Rally (?!group |-?\d+(?: |$))(?P<unit>.+)$", N_("Rally %(unit)s"), False),  # not a card ("Rally 2 (red 2)")
    (r"^(?P<unit>.+) treats (?P<patient>.+)$", N_("%(unit)s treats %(patient)s"), False),
    (r"^(?P<unit>.+) picks up the (?P<sw>.+)$", N_("%(unit)s picks up the %(sw)s"), False),
    (r"^Combine (?P<unit>.+) and (?P<other>.+) into a squad$", N_("Combine %(unit)s and %(other)s into a squad"),
     False),
    (r"^Split (?P<unit>.+) into two half squads$", N_("Split %(unit)s into two half squads"), False),
    (r"^Give the (?P<sw>.+) of (?P<unit>.+) to (?P<other>.+)$", N_("Give the %(sw)s of %(unit)s to %(other)s"),
     False),
    (r"^Swap the (?P<sw>.+) for the (?P<other>.+)$", N_("Swap the %(sw)s for the %(other)s"), False),
    (r"^Activate the units in (?P<hex>\S+)$", N_("Activate the units in %(hex)s"), False),
    (r"^(?P<unit>.+) tries to spot (?P<hex>\S+)$", N_("%(unit)s tries to spot %(hex)s"), False),
    (r"^Place (?P<unit>.+) in (?P<hex>\S+)$", N_("Place %(unit)s in %(hex)s"), False),
    (r"^Standing order for (?P<hex>\S+): (?P<what>.+)$", N_("Standing order for %(hex)s: %(what)s"), False),
    (r"^Standing order for (?P<unit>.+) in (?P<hex>\S+): (?P<what>.+)$",
     N_("Standing order for %(unit)s in %(hex)s: %(what)s"), False),
    (r"^fire at enemies moving within (?P<n>\d) hex(?:es)?$", N_("fire at enemies moving within %(n)s hexes"), False),
    (r"^fire at enemies moving into (?P<hex>\S+)$", N_("fire at enemies moving into %(hex)s"), False),
    (r"^Select (?P<unit>.+)$", N_("Select %(unit)s"), False),
    (r"^Move the selected units \((?P<what>[a-z ]+)\)$", N_("Move the selected units (%(what)s)"), True),
    (r"^Fire at (?P<hex>\S+)$", N_("Fire at %(hex)s"), False),
    (r"^Move into (?P<hex>\S+)$", N_("Move into %(hex)s"), False),
    (r"^Lay smoke in (?P<hex>\S+)$", N_("Lay smoke in %(hex)s"), False),
    (r"^Melee in (?P<hex>\S+)$", N_("Melee in %(hex)s"), False),
    (r"^Withdraw from the melee into (?P<hex>\S+)$", N_("Withdraw from the melee into %(hex)s"), False),
    (r"^Opportunity fire from (?P<hex>\S+)$", N_("Opportunity fire from %(hex)s"), False),
    (r"^(?P<unit>.+) snipes at (?P<hex>\S+)$", N_("%(unit)s snipes at %(hex)s"), False),
    (r"^Melee targets: (?P<units>.+)$", N_("Melee targets: %(units)s"), False),
    (r"^(?P<unit>.+) drops the (?P<sw>.+)$", N_("%(unit)s drops the %(sw)s"), False),
    (r"^(?P<unit>.+) retreats into (?P<hex>\S+)$", N_("%(unit)s retreats into %(hex)s"), False),
    # UP FRONT's actions in words (warlog/render/up_front/words.py)
    (r"^Place (?P<card>.+) on the (?P<who>\w+)' group (?P<g>[A-F])$", N_("Place %(card)s on the %(who)s' group %(g)s"),
     False),
    (r"^Draw until (?P<n>\d+) altitude cards are drawn$", N_("Draw until %(n)s altitude cards are drawn"), False),
    (r"^Move group (?P<g>[A-F]) (?P<what>forward|back|sideways) with (?P<card>.+)$",
     N_("Move group %(g)s %(what)s with %(card)s"), True),
    (r"^Group (?P<g>[A-F]) starts an altitude change \((?P<what>forward|back|sideways)\) with (?P<card>.+), one black "
     r"card \(mountain troops\)$",
     N_("Group %(g)s starts an altitude change (%(what)s) with %(card)s, one black card (mountain troops)"), True),
    (r"^Group (?P<g>[A-F]) starts an altitude change \((?P<what>forward|back|sideways)\) with (?P<card>.+)$",
     N_("Group %(g)s starts an altitude change (%(what)s) with %(card)s"), True),
    (r"^Group (?P<g>[A-F]) ends its move in (?P<card>.+) played as Open Ground$",
     N_("Group %(g)s ends its move in %(card)s played as Open Ground"), False),
    (r"^Group (?P<g>[A-F]) ends its move in (?P<card>.+)$", N_("Group %(g)s ends its move in %(card)s"), False),
    (r"^Group (?P<g>[A-F]) ends its move on the altitude card (?P<alt>.+) with (?P<card>.+) played as Open Ground$",
     N_("Group %(g)s ends its move on the altitude card %(alt)s with %(card)s played as Open Ground"), False),
    (r"^Group (?P<g>[A-F]) ends its move on the altitude card (?P<alt>.+) with (?P<card>.+)$",
     N_("Group %(g)s ends its move on the altitude card %(alt)s with %(card)s"), False),
    (r"^Group (?P<g>[A-F]) clears the Wire or Minefield with (?P<card>.+)$",
     N_("Group %(g)s clears the Wire or Minefield with %(card)s"), False),
    (r"^Group (?P<g>[A-F]) fires at enemy group (?P<t>[A-F]) with (?P<card>.+)$",
     N_("Group %(g)s fires at enemy group %(t)s with %(card)s"), False),
    (r"^Group (?P<g>[A-F]) fires its ordnance at enemy group (?P<t>[A-F]) with (?P<card>.+)$",
     N_("Group %(g)s fires its ordnance at enemy group %(t)s with %(card)s"), False),
    (r"^Rally group (?P<g>[A-F]) with (?P<card>.+)$", N_("Rally group %(g)s with %(card)s"), False),
    (r"^Group (?P<g>[A-F]) tries to entrench$", N_("Group %(g)s tries to entrench"), False),
    (r"^Move (?P<man>.+) from group (?P<g>[A-F]) to group (?P<to>[A-F]) with (?P<card>.+)$",
     N_("Move %(man)s from group %(g)s to group %(to)s with %(card)s"), False),
    (r"^Group (?P<g>[A-F]) moves over to position (?P<to>[A-F]) with (?P<card>.+)$",
     N_("Group %(g)s moves over to position %(to)s with %(card)s"), False),
    (r"^Group (?P<g>[A-F]) infiltrates enemy group (?P<t>[A-F]) with (?P<card>.+)$",
     N_("Group %(g)s infiltrates enemy group %(t)s with %(card)s"), False),
    (r"^Discard (?P<card>.+) onto enemy group (?P<t>[A-F])$", N_("Discard %(card)s onto enemy group %(t)s"), False),
    (r"^Discard (?P<cards>.+)$", N_("Discard %(cards)s"), False),
    (r"^Standing answer (?P<when>when [^:]+): always (?P<what>.+)$", N_("Standing answer %(when)s: always %(what)s"),
     True),
    (r"^Standing answer (?P<when>when [^:]+): (?P<what>.+) if the group has at most (?P<n>\d+) men$",
     N_("Standing answer %(when)s: %(what)s if the group has at most %(n)s men"), True),
    (r"^Play (?P<card>.+)$", N_("Play %(card)s"), False),
    (r"^Reject it with (?P<card>.+)$", N_("Reject it with %(card)s"), False),
    (r"^Place the altitude card (?P<card>.+)$", N_("Place the altitude card %(card)s"), False),
    (r"^(?P<who>[A-Z][a-z]+) made a move hidden from you$", N_("%(who)s made a move hidden from you"), True),
    (r"^(?P<who>US|VC) made a move hidden from you$", N_("%(who)s made a move hidden from you"), False),
    # Lock 'n Load's facts in words
    (r"^(?P<who>US|VC) gives a standing order to (?P<hex>\S+): (?P<what>.+)$",
     N_("%(who)s gives a standing order to %(hex)s: %(what)s"), False),
    (r"^(?P<who>US|VC) puts a face-down standing order in (?P<hex>\S+)$",
     N_("%(who)s puts a face-down standing order in %(hex)s"), False),
    (r"^(?P<unit>.+) splits into two half squads, (?P<other>.+) and (?P<third>.+)$",
     N_("%(unit)s splits into two half squads, %(other)s and %(third)s"), False),
    (r"^(?P<unit>.+) hands (?P<sw>.+) to (?P<other>.+)$", N_("%(unit)s hands %(sw)s to %(other)s"), False),
    (r"^(?P<who>US|VC) activates (?P<hexes>.+)$", N_("%(who)s activates %(hexes)s"), False),
    (r"^(?P<who>US|VC) passes \((?P<n>\d+) in a row\)$", N_("%(who)s passes (%(n)s in a row)"), False),
    (r"^(?P<unit>.+) enters? (?P<hex>\d\w+)$", N_("%(unit)s enter %(hex)s"), False),
    (r"^(?P<unit>.+) lays smoke in (?P<hex>\S+): (?P<rest>.+)$", N_("%(unit)s lays smoke in %(hex)s: %(rest)s"),
     False),
    (r"^(?P<who>US|VC) changes the face-down standing order in (?P<hex>\S+)$",
     N_("%(who)s changes the face-down standing order in %(hex)s"), False),
    (r"^(?P<unit>.+) and (?P<other>.+) combine into a squad$", N_("%(unit)s and %(other)s combine into a squad"), False),
    (r"^(?P<what>.+) is not legal now \((?P<why>.+)\)$", N_("%(what)s is not legal now (%(why)s)"), False),
    # UP FRONT's facts in words
    (r"^(?P<who>[A-Z][a-z]+) changes its face-down standing answer for (?P<kind>[a-z_]+) windows(?P<rest>.*)$",
     N_("%(who)s changes its face-down standing answer for %(kind)s windows%(rest)s"), False),
    (r"^(?P<who>[A-Z][a-z]+)'s? standing answer settles the (?P<kind>[a-z_]+) window$",
     N_("%(who)s' standing answer settles the %(kind)s window"), False),
    (r"^(?P<who>[A-Z][a-z]+) places (?P<card>.+) on (?P<other>[A-Z][a-z]+) group (?P<g>[A-F]) \((?P<why>[a-z ]+)\)$",
     N_("%(who)s places %(card)s on %(other)s group %(g)s (%(why)s)"), False),
    (r"^(?P<who>[A-Z][a-z]+) records a standing answer for (?P<kind>[a-z_]+) windows$",
     N_("%(who)s records a standing answer for %(kind)s windows"), False),
    (r"^(?P<who>[A-Z][a-z]+) puts a face-down standing answer for (?P<kind>[a-z_]+) windows(?P<rest>.*)$",
     N_("%(who)s puts a face-down standing answer for %(kind)s windows%(rest)s"), False),
    (r"^(?P<who>[A-Z][a-z]+) draws (?P<cards>.+)$", N_("%(who)s draws %(cards)s"), False),
    (r"^(?P<who>[A-Z][a-z]+) ends the turn; (?P<other>[A-Z][a-z]+)' turn (?P<n>\d+)$",
     N_("%(who)s ends the turn; %(other)s' turn %(n)s"), False),
    (r"^(?P<who>[A-Z][a-z]+) discards (?P<cards>.+) onto (?P<other>[A-Z][a-z]+) group (?P<g>[A-F])$",
     N_("%(who)s discards %(cards)s onto %(other)s group %(g)s"), False),
    (r"^(?P<who>[A-Z][a-z]+) discards (?P<cards>.+)$", N_("%(who)s discards %(cards)s"), False),
    (r"^(?P<who>[A-Z][a-z]+) group (?P<g>[A-F]) fires at (?P<other>[A-Z][a-z]+) group (?P<t>[A-F]): (?P<rest>.+)$",
     N_("%(who)s group %(g)s fires at %(other)s group %(t)s: %(rest)s"), False),
    (r"^(?P<who>[A-Z][a-z]+) group (?P<g>[A-F]) fires its (?P<what>[a-z ]+) at (?P<other>[A-Z][a-z]+) group "
     r"(?P<t>[A-F]): (?P<rest>.+)$", N_("%(who)s group %(g)s fires its %(what)s at %(other)s group %(t)s: %(rest)s"),
     False),
    (r"^(?P<who>[A-Z][a-z]+) group (?P<g>[A-F]) makes a bog check \((?P<why>[^)]+)\): (?P<rest>.+)$",
     N_("%(who)s group %(g)s makes a bog check (%(why)s): %(rest)s"), False),
    (r"^(?P<who>[A-Z][a-z]+) group (?P<g>[A-F]) tries to entrench: (?P<rest>.+)$",
     N_("%(who)s group %(g)s tries to entrench: %(rest)s"), False),
    (r"^(?P<who>[A-Z][a-z]+) group (?P<g>[A-F]) moves (?P<what>forward|backward|sideways) \((?P<card>.+)\)$",
     N_("%(who)s group %(g)s moves %(what)s (%(card)s)"), False),
    (r"^(?P<who>[A-Z][a-z]+) is ready$", N_("%(who)s is ready"), False),
    (r"^(?P<who>[A-Z][a-z]+) group (?P<g>[A-F]) rallies (?P<n>\d+) men$", N_("%(who)s group %(g)s rallies %(n)s men"),
     False),
    (r"^(?P<who>[A-Z][a-z]+): (?P<man>.+) transfers from group (?P<g>[A-F]) to (?P<to>[A-F])$",
     N_("%(who)s: %(man)s transfers from group %(g)s to %(to)s"), False),
    (r"^Turn (?P<n>\d+): (?P<what>.+)$", N_("Turn %(n)s: %(what)s"), True),
    (r"^turn (?P<n>\d+) \((?P<who>[^)]+)\), deck pass (?P<k>\d+) of (?P<of>\d+)$",
     N_("turn %(n)s (%(who)s), deck pass %(k)s of %(of)s"), False),
    (r"^Combat: battle (?P<n>\d+)$", N_("Combat: battle %(n)s"), True),
    (r"^(?P<side>US|VC) (?P<what>[^,]+)$", N_("%(side)s %(what)s"), True),  # not a list of units ("US 7th squad, Sgt. Pike")
    (r"^(?P<who>.+) takes its seat and adds entropy to the dice$",
     N_("%(who)s takes its seat and adds entropy to the dice"), False),
    (r"^(?P<who>.+) takes its seat$", N_("%(who)s takes its seat"), False),
    (r"^Every seat has joined: the game starts \((?P<what>.*)\)$",
     N_("Every seat has joined: the game starts (%(what)s)"), False),
    (r"^(?P<title>.+) created: scenario (?P<sc>.+?), seats (?P<seats>.+)$",
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
    (r"^(?P<unit>[^:]+) ends its move in (?P<hex>.+)$", N_("%(unit)s ends its move in %(hex)s"), False),
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
    # Green Beret: Vietnam's and Vietnam Battles' actions in words (warlog/render/*/words.py)
    (r"^Place the base camp in (?P<hex>\d{4}) with a PBR$", N_("Place the base camp in %(hex)s with a PBR"), False),
    (r"^Place the base camp in (?P<hex>\d{4})$", N_("Place the base camp in %(hex)s"), False),
    (r"^Buy (?P<item>.+) at base camp (?P<n>\d+)$", N_("Buy %(item)s at base camp %(n)s"), False),
    (r"^Buy a base camp in (?P<hex>\d{4}) with a PBR$", N_("Buy a base camp in %(hex)s with a PBR"), False),
    (r"^Buy a base camp in (?P<hex>\d{4})$", N_("Buy a base camp in %(hex)s"), False),
    (r"^Relocate base camp (?P<n>\d+)$", N_("Relocate base camp %(n)s"), False),
    (r"^Put the relocated camp in (?P<hex>\d{4})$", N_("Put the relocated camp in %(hex)s"), False),
    (r"^Start moving (?P<item>.+)$", N_("Start moving %(item)s"), False),
    (r"^Add (?P<item>.+) to the move$", N_("Add %(item)s to the move"), False),
    (r"^Drop (?P<item>.+)$", N_("Drop %(item)s"), False),
    (r"^Move to (?P<hex>\d{4})$", N_("Move to %(hex)s"), False),
    (r"^Take up (?P<item>.+)$", N_("Take up %(item)s"), False),
    (r"^Attack (?P<enemy>.+) from (?P<hex>\d{4})$", N_("Attack %(enemy)s from %(hex)s"), False),
    (r"^Jettison (?P<item>.+)$", N_("Jettison %(item)s"), False),
    (r"^Suppress (?P<enemy>.+) with (?P<item>.+)$", N_("Suppress %(enemy)s with %(item)s"), False),
    (r"^Evade to base camp (?P<n>\d+)$", N_("Evade to base camp %(n)s"), False),
    (r"^The enemy chases (?P<hex>\d{4})$", N_("The enemy chases %(hex)s"), False),
    (r"^The enemy enters (?P<hex>\d{4})$", N_("The enemy enters %(hex)s"), False),
    (r"^(?P<item>.+) takes the damage$", N_("%(item)s takes the damage"), False),
    (r"^(?P<item>.+) is killed$", N_("%(item)s is killed"), False),
    (r"^Lose (?P<item>.+)$", N_("Lose %(item)s"), False),
    (r"^Claim (?P<item>.+)$", N_("Claim %(item)s"), False),
    (r"^(?P<item>.+) is lost$", N_("%(item)s is lost"), False),
    (r"^move (?P<unit>.+)$", N_("move %(unit)s"), False),
    (r"^enter (?P<hex>\d{4})$", N_("enter %(hex)s"), False),
    (r"^sail to (?P<hex>\S+)$", N_("sail to %(hex)s"), False),
    (r"^(?P<unit>.+) attacks (?P<other>.+)$", N_("%(unit)s attacks %(other)s"), False),
    (r"^(?P<unit>.+) joins the attack$", N_("%(unit)s joins the attack"), False),
    (r"^commit support fire (?P<v>[+-]\d+)$", N_("commit support fire %(v)s"), False),
    (r"^bombard (?P<unit>.+) with (?P<v>[+-]\d+)$", N_("bombard %(unit)s with %(v)s"), False),
    (r"^(?P<unit>.+) loses the step$", N_("%(unit)s loses the step"), False),
    (r"^(?P<unit>.+) holds at all costs$", N_("%(unit)s holds at all costs"), False),
    (r"^(?P<unit>.+) retreats (?P<path>\d{4}(?: → \d{4})*)$", N_("%(unit)s retreats %(path)s"), False),
    (r"^displace to (?P<hex>\d{4})$", N_("displace to %(hex)s"), False),
    (r"^(?P<unit>.+) advances to (?P<hex>\d{4})$", N_("%(unit)s advances to %(hex)s"), False),
    (r"^errant fire hits (?P<unit>.+)$", N_("errant fire hits %(unit)s"), False),
    (r"^helicopter-lift (?P<unit>.+)$", N_("helicopter-lift %(unit)s"), False),
    (r"^river-lift (?P<unit>.+)$", N_("river-lift %(unit)s"), False),
    (r"^land in (?P<hex>\d{4})$", N_("land in %(hex)s"), False),
    (r"^demolish the bridge (?P<hs>\S+)$", N_("demolish the bridge %(hs)s"), False),
    (r"^push the ambushed unit into (?P<hex>\d{4})$", N_("push the ambushed unit into %(hex)s"), False),
    (r"^(?P<unit>.+) repairs the bridge (?P<hs>\S+)$", N_("%(unit)s repairs the bridge %(hs)s"), False),
    (r"^engineers bridge (?P<hs>\S+)$", N_("engineers bridge %(hs)s"), False),
    (r"^record a base camp in (?P<hex>\d{4})$", N_("record a base camp in %(hex)s"), False),
    (r"^set up (?P<unit>.+) openly$", N_("set up %(unit)s openly"), False),
    (r"^set up (?P<unit>.+) hidden$", N_("set up %(unit)s hidden"), False),
    (r"^put it in (?P<hex>\d{4})$", N_("put it in %(hex)s"), False),
    (r"^choose the victory condition (?P<c>\S+)$", N_("choose the victory condition %(c)s"), False),
    (r"^place a supply cache in (?P<hex>\d{4})$", N_("place a supply cache in %(hex)s"), False),
    (r"^B-52 strike on (?P<unit>.+)$", N_("B-52 strike on %(unit)s"), False),
    (r"^Ben Suc: (?P<c>\w+)$", N_("Ben Suc: %(c)s"), False),
    (r"^designate (?P<c>.+) as the real chit$", N_("designate %(c)s as the real chit"), False),
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
# the words of the games' actions in words (warlog/render/*/words.py): fixed labels and parts
WORD_TEXTS = [N_("End the Rally Phase"), N_("Pass"), N_("Clear the selection"), N_("Move the selected units"),
              N_("Stop moving"), N_("End the impulse"), N_("Hold fire"), N_("double time"), N_("assault move"),
              N_("low crawl"), N_("fire at any enemy that moves in sight"), N_("fire at the first enemy in sight"),
              N_("hold fire"), N_("ask me"),
              N_("End the turn"), N_("Decline"), N_("Accept the terrain"), N_("Place no altitude card (the change fails)"),
              N_("forward"), N_("back"), N_("sideways"), N_("when a group of mine is fired at"),
              N_("when terrain is discarded onto a moving group"), N_("when a Minefield hits a group changing altitude"),
              N_("play Concealment"), N_("decline"), N_("accept"), N_("reject"), N_("place the altitude card"),
              N_("let the change fail"), N_("always ask me"), N_("VC moved a hidden unit"),
              N_("Three passes in a row: the Operations Phase ends"), N_("backward")]
# Green Beret: Vietnam's and Vietnam Battles' fixed action labels
# UP FRONT's AFVs and infantry guns (rules/up_front/data/vehicles.json, rules version 4)
WORD_TEXTS += [N_("armoured car"), N_("medium tank"), N_("pack howitzer"), N_("assault gun"), N_("infantry gun")]
WORD_TEXTS += [N_("Done buying"), N_("Abandon the mission"), N_("End the game"), N_("End this move"), N_("End the movement phase"), N_("End the combat phase"), N_("Resolve suppression and let the enemy act"), N_("Next turn"), N_("Stay (detected)"), N_("Use the naval gunfire"), N_("Hold the naval gunfire"), N_("Claim no more"), N_("Keep the PP"), N_("end this move"), N_("end the phase"), N_("pass"), N_("refuse displacement"), N_("stop advancing"), N_("leave the map")]
WORDS = {"who", "what", "side", "seats", "a", "b", "when", "unit", "other", "patient", "third", "why", "kind", "man", "c", "sc", "item", "title", "alt"}  # the parts that are words (the others: numbers, ids)
# the words the boards draw (warlog.i18n_boards): before the shapes above (a card's "Rally 2" is
# not a unit to rally); those that take any text of their form come after every other (all_shapes)
SHAPES[:0] = [(re.compile(p), m, strict) for p, m, strict in BOARD_SHAPES]
WORDS |= BOARD_WORDS


_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
# the placeholders that stand for one number, letter or hex and never for a phrase
TOKENS = {"n", "k", "die", "mp", "ma", "cost", "left", "pp", "fp", "g", "v", "rr", "step", "net", "lv", "h1", "h2", "arm"}
TOKEN = r"[^\s;:,()]+?"
CLAUSES = {"terrain", "cond"}  # the placeholders that stand for words of one list item (no comma)
CLAUSE = r"[^,;]+?"
NAMES = {"unit"}  # a unit's name never holds a colon: "Americans: Group A ends its move in …" is a move line
NAME = r"[^:;]+?"


def template_shape(message: str) -> re.Pattern[str]:
    """The pattern a message with placeholders matches: its words as they are, each
    `%(name)s` any text ("%(unit)s loses a step (now reduced %(v)s): %(why)s"), or one
    number, letter or hex where the name is one of TOKENS."""
    parts, pos = [], 0
    for m in _PLACEHOLDER.finditer(message):
        parts.append(re.escape(message[pos:m.start()].replace("%%", "%")))
        name = m.group(1)
        parts.append(f"(?P<{name}>{TOKEN if name in TOKENS else CLAUSE if name in CLAUSES else NAME if name in NAMES else '.+?'})")
        pos = m.end()
    parts.append(re.escape(message[pos:].replace("%%", "%")))
    return re.compile("^" + "".join(parts) + "$", re.S)


def _template_shapes() -> list[tuple[re.Pattern[str], str, bool, bool]]:
    """The games' facts, refusals and confirmations written as messages with placeholders
    (warlog.i18n_facts): each placeholder's text is itself translated where the catalog can."""
    from warlog.i18n_facts import TEMPLATES

    return [(template_shape(m), m, False, True) for m in TEMPLATES]


_ALL_SHAPES: list[tuple[re.Pattern[str], str, bool, bool]] = []


def all_shapes() -> list[tuple[re.Pattern[str], str, bool, bool]]:
    """(pattern, message, strict, every part a word): SHAPES (only their WORDS parts are
    translated), then the games' templates (every part is), SHAPES' generic tail, then the
    boards' shapes that take any text of their form (warlog.i18n_boards.LAST_SHAPES)."""
    if not _ALL_SHAPES:
        tail = 3  # "hex terrain", "a, b" and "who: what": a label or a list, tried after every sentence
        own = [(p, m, strict, False) for p, m, strict in SHAPES]
        last = [(re.compile(p), m, strict, False) for p, m, strict in LAST_SHAPES]
        _ALL_SHAPES.extend(own[:-tail] + _template_shapes() + own[-tail:] + last)
    return _ALL_SHAPES


def required_word(pattern: re.Pattern[str]) -> str:
    """The longest whole word (`\\w+`) every match of `pattern` holds, "" if none: a text without
    that word cannot match, which a look-up in the text's words tells far sooner than the pattern."""
    runs, run, closed = [], [], True  # closed: the run starts at the text's start
    for op, arg in re_parser.parse(pattern.pattern, pattern.flags):  # the top level: never optional
        if op is re_constants.LITERAL:
            run.append(chr(arg))
        elif op is re_constants.AT:  # "^" and "$": the text's ends hold no character
            if run:
                runs.append(("".join(run), closed, True))
            run, closed = [], True
        else:
            if run:
                runs.append(("".join(run), closed, False))
            run, closed = [], False
    if run:
        runs.append(("".join(run), closed, False))
    words = [m.group() for text, starts_closed, ends_closed in runs for m in _WORD.finditer(text)
             if (m.start() > 0 or starts_closed) and (m.end() < len(text) or ends_closed)]
    return max(words, key=len, default="")


_WORD = re.compile(r"\w+")
_INDEX: dict[str, list[int]] = {}  # a required word: the shapes (their places in all_shapes) that need it
_UNINDEXED: list[int] = []  # the shapes that need no whole word


def _candidates(text: str) -> list[tuple[re.Pattern[str], str, bool, bool]]:
    """The shapes that might match `text` (those whose required word it holds), in all_shapes' order."""
    shapes = all_shapes()
    if not _INDEX and not _UNINDEXED:
        for i, (pattern, *_rest) in enumerate(shapes):
            word = required_word(pattern)
            if word:
                _INDEX.setdefault(word, []).append(i)
            else:
                _UNINDEXED.append(i)
    places = set(_UNINDEXED)
    for word in set(_WORD.findall(text)):
        places.update(_INDEX.get(word, ()))
    return [shapes[i] for i in sorted(places)]


def shaped(text: str, lookup: Callable[[str], str]) -> str | None:
    """`text` by the most specific shape that matches (and translates): the one whose own words
    cover most of the text, the earlier of two that cover as much; None if none does."""
    found = [(pattern.match(text), message, strict, every_part) for pattern, message, strict, every_part in _candidates(text)]
    matches = [(m, message, strict, every_part) for m, message, strict, every_part in found if m is not None]
    matches.sort(key=lambda x: sum(len(v) for v in x[0].groupdict().values()))  # stable: the list's order on a tie
    for m, message, strict, every_part in matches:
        template = lookup(message)
        if template == message:
            continue
        parts = {name: word(value, lookup) if every_part or name in WORDS else place(value, lookup, name == "hex")
                 for name, value in m.groupdict().items()}
        if strict and any(parts[n] == v and not DESIGNATION.match(v) for n, v in m.groupdict().items() if n in WORDS):
            continue  # a part left English (a designation, "M1919", is said as it is in every language)
        try:
            return template % parts
        except (KeyError, ValueError, TypeError):  # a translation that lost a placeholder: English, never a 500
            return None
    return None


_PLACE = re.compile(r"^(?P<name>\D[^()]*) \((?P<hex>\w+)\)$")


# A strength with its modifiers, as Assault on Belgium's battles print it ("3 +1 small city +2
# fortress = 6"; a bomber's "4 −1 AA, halved (fortress, rounded down) = 1"): each modifier's words
# are translated, its numbers kept.
_CHAIN = re.compile(r"^\d+ [+−]\d+ .+ = \d+$|^\d+ (?:[+−]\d+ [^,=]+|halved \([^)]*\)|capped at \d+)"
                    r"(?:, (?:[+−]\d+ [^,=]+|halved \([^)]*\)|capped at \d+))* = \d+$")
_MODIFIER = re.compile(r"(?P<sign>[+−]\d+) (?P<why>[^+−=,]+?)(?= [+−]\d| =|,)|(?P<other>halved \([^)]*\)|capped at \d+)")
_NAME = re.compile(r"^[^\W\d_][^\W\d_ .'’-]*[a-z][^\W\d_]*(?:[ .'’-]+[^\W\d_]+)*$")  # "Brussels", "Ban Hai"


def place(value: str, lookup: Callable[[str], str], is_hex: bool = False) -> str:
    """An id part as it is, but a hex by its place's name ("Brussels (1005)"; a hex part may be the
    name alone) with the name as the map prints it in the page's language."""
    m = _PLACE.match(value)
    if m:
        return f"{lookup(m['name'])} ({m['hex']})"
    return lookup(value) if is_hex and _NAME.match(value) else value


def word(value: str, lookup: Callable[[str], str]) -> str:
    """A part of a phrase translated; a seat's id as the rules write it ("americans") by its
    display name ("Americans")."""
    found = lookup(value)
    if found == value and value.isalpha() and value.islower():
        named = value.capitalize()
        found = lookup(named)
        return value if found == named else found
    if found == value and _PLACE.match(value):
        return place(value, lookup)
    if found == value and _CHAIN.match(value):  # a strength and its modifiers: "8 −2 fortress = 6"
        return _MODIFIER.sub(lambda m: f"{m['sign']} {word(m['why'], lookup)}" if m["sign"] else lookup(m["other"]),
                             value)
    if found == value and ", " in value:  # a list of names ("Lt. Harlan, US 1st squad"): each one
        items = list_items(value)
        if len(items) > 1:
            said = [lookup(item) for item in items]
            if said != items:
                return "、".join(said)
    return found


def list_items(text: str) -> list[str]:
    """The items of a comma-separated list, a comma inside brackets kept in its item."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch in "([") - (ch in ")]")
        if depth == 0 and text.startswith(", ", i):
            items.append(text[start:i])
            start = i + 2
    return items + [text[start:]]
