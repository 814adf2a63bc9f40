"""The card table of the UP FRONT-structured game with "In the Mountains": no map, an SVG table.

The other side's groups in a row at the top, mine at the bottom (a spectator sees the first
seat at the bottom), each group a box with its letter, range chit, altitude card and level,
terrain card, Movement cards, Wire or Minefield, entrenchment, and its men with their state;
then my hand (mine only: a seat's view holds no other), the deck count and pass, the discards' top,
and any reaction prompt. The whole table (the director's "everything" view, or any view once the
game has ended) holds both hands: both are drawn, each under its side's name, with the standing
answers (a seat's view: its own, and from rules version 3 the other's face down). Cards are `.counter` elements and groups `.terrain [data-hex]` boxes, so
the page's script plays a card by clicking it and then its target group. It only ever sees
`Game.view(state, seat)`."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from rules.up_front.data import world
from warlog.render import Scene, register_renderer
from warlog.render.up_front.words import nation, standing_line

W_BOX, H_BOX, GAP = 210, 170, 12
CARD_W, CARD_H = 92, 62
COLOURS = {"fire": "#f3d1c7", "movement": "#d5e4f3", "rally": "#dbeed3", "concealment": "#e7dcf0",
           "terrain": "#efe6c9", "wire": "#dddddd"}
STATUS = {"ok": "#1d1d1b", "pinned": "#b8860b", "kia": "#a33", "routed": "#777"}
OWN = {"move", "complete", "alt_step", "altitude", "remove", "rally", "entrench", "transfer", "shift"}
FOE = {"fire", "infiltrate", "discard_onto", "ordnance"}
GROUPS = {"move": "Move", "complete": "End the move in", "alt_step": "Altitude change: Movement card",
          "altitude": "Place the altitude card", "remove": "Clear Wire/Minefield", "fire": "Fire at", "ordnance": "Fire ordnance at",
          "rally": "Rally", "entrench": "Entrench", "transfer": "Transfer a man", "infiltrate": "Infiltrate",
          "discard": "Discard", "discard_onto": "Discard onto an enemy group", "place": "Place",
          "conceal": "Play Concealment", "reject": "Reject with", "mine_altitude": "Altitude card",
          "draw_altitude": "Draw until altitude cards", "standing": "Standing answer",
          "reinforce": "Reinforcements enter", "shift": "Group transfer"}


def _t(x: float, y: float, s: str, cls: str = "", size: int = 11, weight: str = "normal", fill: str = "#1d1d1b",
       end: bool = False) -> str:
    """A text at (x, y); `end`: ending there (text-anchor end), as a box's right-hand figures do, so
    that a longer translation of the box's label never runs into them."""
    anchor = ' text-anchor="end"' if end else ""
    css = f' class="{cls}"' if cls else ""
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" font-weight="{weight}" fill="{fill}"{anchor}{css}>'
            f'{escape(s)}</text>')


def card_label(cid: str) -> tuple[str, str]:
    w = world()
    c = w.cards.get(cid)
    if c is None:
        return cid, ""
    if c["type"] == "terrain":
        title = w.terrain[c["terrain"]]["name"]
    elif "value" in c:
        title = f"{c['type'].title()} {c['value']}"
    else:
        title = c["type"].title()
    return title, f"{c['colour']} {c['rn']}"


def _viewer(state: dict[str, Any]) -> str | None:
    mine = [seat for seat, h in state["hands"].items() if isinstance(h, list)]
    return mine[0] if len(mine) == 1 else None


def _whole(state: dict[str, Any]) -> bool:
    """The state shows every hand (the full state): the judge's view, or the game has ended."""
    return all(isinstance(h, list) for h in state["hands"].values())


def _hand(state: dict[str, Any], seat: str, y: float, targets: frozenset[str], title: str) -> tuple[list[str], float]:
    """A hand's row of cards under its title, or its card count when the view holds only that."""
    hand = state["hands"][seat]
    if not isinstance(hand, list):
        return [_t(GAP, y + 12, f"{seat.title()} — hand {hand['count']} cards", size=13, weight="bold")], y + 24
    parts = [_t(GAP, y + 12, title, size=13, weight="bold")]
    parts += [_card(cid, GAP + i * (CARD_W + 8), y + 20, targets) for i, cid in enumerate(hand)]
    return parts, y + CARD_H + 30


def _standing(state: dict[str, Any]) -> list[str]:
    """The standing answers (CORE 11) the view holds, a line each: every seat's on the whole table;
    from rules version 3 another seat's as face-down markers (their windows and conditions, not
    their words)."""
    lines = [standing_line(seat, kind, rec) for seat, answers in sorted((state.get("standing") or {}).items())
             for kind, rec in sorted(answers.items())]
    return ["Standing answers"] + lines if lines else ["Standing answers: none"]


def _group_box(state: dict[str, Any], seat: str, letter: str, g: dict[str, Any], x: float, y: float,
               key: str, targets: frozenset[str]) -> str:
    w = world()
    level = 0 if g["altitude"] is None else w.terrain[w.cards[g["altitude"]]["terrain"]]["altitude"]
    terrain = "Open Ground" if g["terrain"] is None or g["as_open"] else card_label(g["terrain"])[0]
    cls = "hex target" if key in targets else "hex"
    pts = f"{x},{y} {x + W_BOX},{y} {x + W_BOX},{y + H_BOX} {x},{y + H_BOX}"
    out = [f'<g class="terrain"><polygon class="{cls}" data-hex="{key}" points="{pts}" fill="#fbf8ee" '
           f'stroke="#5d5a4c" stroke-width="1.2"><title>{escape(nation(seat))} group {letter}</title></polygon></g>',
           _t(x + 8, y + 20, f"{nation(seat)} {letter}", size=14, weight="bold"),
           _t(x + W_BOX - 8, y + 20, f"range {g['range']}", size=12, end=True),
           _t(x + 8, y + 38, f"level {level}" + (f" ({card_label(g['altitude'])[0]})" if g["altitude"] else ""), size=11),
           _t(x + 8, y + 54, f"in {terrain}" + (" · entrenched" if g["entrenched"] else ""), size=11)]
    extras = []
    if g["moves"]:
        short = {"forward": "fwd", "backward": "back", "sideways": "side"}  # fits the box's width
        extras.append(f"moving: {', '.join(short.get(m['mode'], m['mode']) for m in g['moves'])}"
                      + (f" (altitude {g['alt_stage']}/2)" if g["alt_stage"] else ""))
    if g["wire"]:
        extras.append("Wire")
    if g["minefield"]:
        extras.append("Minefield")
    if g["flank"]:
        extras.append("flanking")
    if extras:
        out.append(_t(x + 8, y + 70, " · ".join(extras), size=10, fill="#8a4b08"))
    for i, m in enumerate(g["men"]):
        rec = state["men"][m]
        spec = w.soldiers[m]
        cx, cy = x + 8 + (i % 2) * 100, y + 88 + (i // 2) * 15
        held = " immobilised" if rec.get("immobilised") else ""  # an AFV hit or bogged (VEH 5-6)
        out.append(_t(cx, cy, f"{m} {spec['weapon']} {rec['status']}{held}", size=10, fill=STATUS[rec["status"]]))
    return "".join(out)


def _card(cid: str, x: float, y: float, targets: frozenset[str]) -> str:
    c = world().cards.get(cid, {"type": "wire"})
    title, rn = card_label(cid)
    cls = "counter target" if cid in targets else "counter"
    return (f'<g class="{cls}" data-unit="{escape(cid)}"><rect class="body" x="{x}" y="{y}" width="{CARD_W}" '
            f'height="{CARD_H}" rx="6" fill="{COLOURS[c["type"]]}" stroke="#5d5a4c"/>'
            f'<title>{escape(title)} — random number {escape(rn)} [{escape(cid)}]</title>'
            + _t(x + 6, y + 18, title, size=11, weight="bold")
            + _t(x + 6, y + 36, rn, size=11, fill="#a33" if rn.startswith("red") else "#1d1d1b")
            + _t(x + 6, y + 54, cid, size=9, fill="#666") + "</g>")


def board_svg(scene: Scene) -> str:
    s = scene.state
    if s is None:
        return '<p class="muted">The game has not started: it waits for every seat.</p>'
    me = _viewer(s) or s["roles"][0]
    foe = [r for r in s["roles"] if r != me][0]
    targets = scene.target_hexes | scene.target_units
    width = max(4 * (W_BOX + GAP) + GAP, 760)
    whole = _whole(s)
    parts = []
    y = 36
    if whole:  # the judge sees both hands (a seat's view holds only its own)
        top, y = _hand(s, foe, 10, targets, f"{foe.title()} hand ({len(s['hands'][foe])} cards)")
        parts += top
        y += 8
    else:
        parts.append(_t(GAP, 22, f"{foe.title()} — hand {s['hands'][foe]['count']} cards", size=13, weight="bold"))
    for i, (letter, g) in enumerate(sorted(s["groups"][foe].items())):
        parts.append(_group_box(s, foe, letter, g, GAP + i * (W_BOX + GAP), y, f"foe:{letter}", targets))
    y += H_BOX + 18
    deck = s["deck"]
    top = deck["discard"][-1] if deck["discard"] else None
    count = deck["draw_count"] if "draw_count" in deck else len(deck["draw"])  # the full state once the game ended
    parts.append(_t(GAP, y + 14, f"Draw pile {count} cards · deck pass {deck['pass']} of {s['passes']} · "
                    f"discards {len(deck['discard'])}" + (f" (top: {card_label(top)[0]})" if top else "")
                    + f" · {s['terrain_type']} mountains, {s['condition']}", size=12))
    window = s.get("reaction")
    if window:
        ctx = ", ".join(f"{k} {v}" for k, v in sorted(window["context"].items()))
        kind = window["kind"].replace("_", " ")  # "mine_altitude": in words
        parts.append(_t(GAP, y + 32, f"Reaction: {window['seat']} answers a {kind} window ({ctx})",
                        size=12, weight="bold", fill="#8a1c4a"))
    y += 44
    for i, (letter, g) in enumerate(sorted(s["groups"][me].items())):
        parts.append(_group_box(s, me, letter, g, GAP + i * (W_BOX + GAP), y, f"own:{letter}", targets))
    y += H_BOX + 16
    title = (f"{me.title()} hand ({len(s['hands'][me])} cards)" if whole
             else f"Your hand ({me.title()}, yours alone)")
    mine, y = _hand(s, me, y, targets, title)
    parts += mine
    if whole or any((s.get("standing") or {}).values()):
        for line in _standing(s):
            parts.append(_t(GAP, y + 4, line, size=11))
            y += 16
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="cardtable" viewBox="0 0 {width} {y + 10}" '
            f'width="{width}" height="{y + 10}" font-family="DejaVu Sans, Verdana, sans-serif">'
            + "".join(parts) + "</svg>")


class UpFrontRenderer:
    """The `Renderer` of "up-front": a card table."""

    action_groups = GROUPS

    def board(self, scene: Scene) -> Markup:
        return Markup(board_svg(scene))

    def legend(self) -> Markup:
        return Markup('<p class="muted">Click a card of your hand, then its group; the other side sits at the top. '
                      'A card shows its random number (black or red) and its id.</p>')

    def planner(self, state: dict[str, Any] | None) -> str | None:
        return None

    def action_targets(self, a: dict[str, Any]) -> tuple[str | None, str | None]:
        """A card action is picked by its card, then its group ("own:A" / "foe:B")."""
        kind = a.get("type")
        card = a.get("card") if isinstance(a.get("card"), str) else None
        if kind in OWN:
            return card, f"own:{a['group']}"
        if kind in FOE:
            return card, f"foe:{a['target']}"
        return card, None

    def action_words(self, action: dict[str, Any]) -> str | None:
        """An action in words: cards by name and random number (warlog.render.words)."""
        from warlog.render.up_front.words import action_words

        return action_words(action)

    def fact_words(self, fact: dict[str, Any]) -> str:
        """A recorded fact's text with card, man and side ids in words (the record is unchanged)."""
        from warlog.render.up_front.words import standing_fact, text_words

        return standing_fact(fact) or text_words(str(fact.get("text", "")))

    def name_of(self, kind: str, key: str) -> str:
        if kind == "unit":
            title, rn = card_label(key)
            return f"{title} ({rn})" if rn else title
        side, _, letter = key.partition(":")
        return f"{'your' if side == 'own' else 'enemy'} group {letter}"


register_renderer("up-front", UpFrontRenderer())
