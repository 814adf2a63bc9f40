"""What a mail shows: a seat's position in words (the prompt, the last moves, the legal actions
with their codes) as plain text and as HTML, and the board as a PNG of the seat's own view.

Codes are `A1`, `A2` … in the order of the service's listing of legal actions: stable within one
mail (its token keeps them), never reused across mails for a different action.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment, select_autoescape

from rules import game_of
from warlog.games import replay as rp
from warlog.games.service import Viewer, Warlog
from warlog.render import Scene, TextRenderer, renderer_for, seat_label

RECENT = 6  # how many of the last moves a mail names


@dataclass
class Position:
    game_id: str
    seat: str
    at_seq: int
    name: str  # "Assault on Belgium (may-1940) game 1f2e…"
    seat_name: str
    status: str
    prompt: str
    to_move: bool
    codes: list[dict[str, Any]] = field(default_factory=list)
    recent: list[str] = field(default_factory=list)
    waiting_for: list[str] = field(default_factory=list)
    outcome: str | None = None

    def content(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("game_id", "seat", "at_seq", "name", "seat_name", "status", "prompt",
                                              "to_move", "recent", "waiting_for", "outcome")}


def dice_words(dice: list[dict[str, Any]]) -> str:
    return ", ".join(f"d{d.get('faces')} rolled {'(hidden)' if d.get('value') is None else d.get('value')}"
                     + (f" for {d['purpose']}" if d.get("purpose") else "") for d in dice)


def row_words(row: rp.EventRow) -> str:
    """One move in words: what was asked, what happened and its dice."""
    out = rp.english(row.title)
    facts = [rp.english(f.get("text", "")) for f in row.facts if f.get("text")]
    reasons = [rp.english(r.get("message", "")) for r in row.reasons if r.get("message")]
    if facts:
        out += " — " + "; ".join(facts)
    if reasons:
        out += " — " + "; ".join(reasons)
    if row.dice:
        out += f" (dice: {dice_words(row.dice)})"
    return out


def position(svc: Warlog, game_id: str, seat: str) -> Position:
    """The seat's position now, as the service lists it for that seat."""
    created = svc.created(game_id).payload
    game = game_of(created)
    listing = svc.actions(game_id, Viewer(seat))
    at = int(listing["expected_seq"])
    name = f"{created.get('title', created['game'])} ({created['scenario']}) game {game_id}"
    pos = Position(game_id, seat, at, name, seat_label(game.name, seat), listing["status"], listing["prompt"],
                   bool(listing["actions"]))
    pos.codes = [{"code": f"A{i + 1}", "action": a, "text": rp.english(game.describe_action(a))}
                 for i, a in enumerate(listing["actions"])]
    docs = svc.events(game_id, max(-1, at - 4 * RECENT), Viewer(seat))["events"]
    rows = [r for r in rp.move_rows(docs, game) if r.type in ("resolved", "rejected", "game_ended")]
    pos.recent = [row_words(r) for r in rows[-RECENT:]]
    if listing["status"] == "active" and not pos.to_move:
        info = svc.summary(game_id)
        pos.waiting_for = [seat_label(game.name, s) for s in info.active_seats]
    if listing["status"] == "ended":
        outcome = svc.info(game_id).get("outcome") or {}
        pos.outcome = rp.english(rp.result_text(outcome.get("result", ""), game, outcome.get("winner"))
                                 + (f" — {outcome['reason']}" if outcome.get("reason") else ""))
    return pos


def board_png(svc: Warlog, game_id: str, seat: str, at: int) -> bytes | None:
    """The board at event `at` as `seat` may see it (the replay PNG's drawing); None for a game
    drawn as text."""
    from warlog.render.png import board_png as draw

    game = game_of(svc.created(game_id).payload)
    renderer = renderer_for(game.name)
    if isinstance(renderer, TextRenderer):
        return None
    state = svc.state(game_id, at, Viewer(seat)).get("state")
    if state is None:
        return None
    return draw(str(renderer.board(Scene(state, caption=f"Event {at}: {seat_label(game.name, seat)}'s view"))),
                scale=0.75)


WIDTH = 76  # prose is wrapped for plain-text clients; a code's line and a link are never cut


def _wrap(line: str, indent: str = "") -> str:
    return textwrap.fill(line, WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def text(intro: list[str], content: dict[str, Any] | None, codes: list[dict[str, Any]], reply_to: str | None,
         link: str | None) -> str:
    """The plain-text body (the whole mail for a plain-text client)."""
    lines = [_wrap(line, "  " if line.startswith("- ") else "") for line in intro]
    if content is not None:
        if lines:
            lines.append("")
        lines.append(_wrap(f"{content['name']} — {content['seat_name']}, at event {content['at_seq']}."))
        if content.get("outcome"):
            lines.append(_wrap(f"The game is over: {content['outcome']}."))
        elif content["to_move"]:
            lines.append(_wrap(f"Your move: {content['prompt']}"))
        elif content.get("waiting_for"):
            lines.append(_wrap(f"Waiting for {', '.join(content['waiting_for'])}."))
        if content.get("recent"):
            lines += ["", "Last moves:"] + ["  " + _wrap(f"- {r}", "    ") for r in content["recent"]]
    if codes and reply_to:
        lines += ["", "Your legal actions (reply with a code):"]
        width = max(len(c["code"]) for c in codes)
        lines += [f"  {c['code']:<{width}}  {c['text']}" for c in codes]
        lines += ["", _wrap(f"To play, reply to this mail (it goes to {reply_to}) with a code on a line of its "
                            "own, e.g. \"A1\". Several codes in order (\"A3 A1\") play one after another while "
                            "each is still legal and it is still your turn. Quoted text is ignored. This address "
                            "takes one reply, from your own address, written against this position only.")]
    if link:
        lines += ["", f"On the page: {link}"]
    return "\n".join(lines) + "\n"


_HTML = Environment(autoescape=select_autoescape(default=True, default_for_string=True)).from_string("""\
<!doctype html>
<html><body style="font-family: sans-serif">
{% for line in intro %}<p>{{ line }}</p>{% endfor %}
{% if content %}
<h2 style="font-size: 1.1em">{{ content.name }} — {{ content.seat_name }}, at event {{ content.at_seq }}</h2>
{% if content.outcome %}<p><strong>The game is over: {{ content.outcome }}.</strong></p>
{% elif content.to_move %}<p><strong>Your move:</strong> {{ content.prompt }}</p>
{% elif content.waiting_for %}<p>Waiting for {{ content.waiting_for|join(", ") }}.</p>{% endif %}
{% if cid %}<p><img src="cid:{{ cid }}" alt="The board as {{ content.seat_name }} sees it" style="max-width: 100%"></p>{% endif %}
{% if content.recent %}<h3 style="font-size: 1em">Last moves</h3><ul>{% for r in content.recent %}<li>{{ r }}</li>{% endfor %}</ul>{% endif %}
{% endif %}
{% if codes and reply_to %}
<h3 style="font-size: 1em">Your legal actions: reply with a code</h3>
<table>{% for c in codes %}<tr><td><code><strong>{{ c.code }}</strong></code></td><td>{{ c.text }}</td></tr>{% endfor %}</table>
<p>To play, reply to this mail (it goes to {{ reply_to }}) with a code on a line of its own, e.g. <code>A1</code>.
Several codes in order (<code>A3 A1</code>) play one after another while each is still legal and it is still your
turn. Quoted text is ignored. Please reply in plain text or with the code first. This address takes one reply, from
your own address, written against this position only.</p>
{% endif %}
{% if link %}<p><a href="{{ link }}">Open the game's page</a></p>{% endif %}
</body></html>
""")


def html(intro: list[str], content: dict[str, Any] | None, codes: list[dict[str, Any]], reply_to: str | None,
         link: str | None, cid: str | None) -> str:
    return _HTML.render(intro=intro, content=content, codes=codes, reply_to=reply_to, link=link, cid=cid)
