"""What a mail shows: a seat's position in words (the prompt, the last moves, the legal actions
with their codes) as plain text and as HTML, and the board as a PNG of the seat's own view.

Codes are `A1`, `A2` … in the order of the service's listing of legal actions: stable within one
mail (its token keeps them), never reused across mails for a different action.

Everything is said in the reader's language (`lang`: "ja", or None for English): the fixed words
from the catalogs, the game's own texts (prompt, actions, facts, seats) as the pages say them
(`warlog.catalogs.game_text`). The content kept with a reply address is in that language already.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment, select_autoescape

from rules import game_of
from rules.core import standing as core_standing
from warlog.catalogs import N_, game_text, svg_texts, translate
from warlog.games import replay as rp
from warlog.games.service import Viewer, Warlog
from warlog.render import Scene, TextRenderer, renderer_for, seat_label
from warlog.render import standing as standing_words
from warlog.render.words import action_text, text_words

RECENT = 6  # how many of the last moves a mail names


@dataclass
class Position:
    game_id: str
    seat: str
    at_seq: int
    name: str  # "Assault on Belgium (May 1940) game 1f2e…", in the reader's language
    seat_name: str
    status: str
    prompt: str
    to_move: bool
    codes: list[dict[str, Any]] = field(default_factory=list)
    recent: list[str] = field(default_factory=list)
    waiting_for: list[str] = field(default_factory=list)
    outcome: str | None = None
    standing: list[str] = field(default_factory=list)  # the seat's own standing answers, in words

    def content(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("game_id", "seat", "at_seq", "name", "seat_name", "status", "prompt",
                                              "to_move", "recent", "waiting_for", "outcome", "standing")}


def dice_words(dice: list[dict[str, Any]], lang: str | None = None, game: Any = None) -> str:
    """The dice of a move: "d6 rolled 4 for the attack, d6 rolled (hidden)"."""
    out = []
    for d in dice:
        value = translate(lang, "(hidden)") if d.get("value") is None else d.get("value")
        purpose = d.get("purpose")
        if purpose:
            said = game_text(lang, text_words(game, str(purpose)) if game is not None else str(purpose))
            out.append(translate(lang, "d%(faces)s rolled %(value)s for %(purpose)s", faces=d.get("faces"),
                                 value=value, purpose=said))
        else:
            out.append(translate(lang, "d%(faces)s rolled %(value)s", faces=d.get("faces"), value=value))
    return translate(lang, ", ").join(out)


def row_words(row: rp.EventRow, lang: str | None = None, game: Any = None) -> str:
    """One move in words: what was asked, what happened and its dice."""
    out = game_text(lang, rp.english(row.title))
    facts = [game_text(lang, rp.english(f.get("text", ""))) for f in row.facts if f.get("text")]
    reasons = [game_text(lang, rp.english(r.get("message", ""))) for r in row.reasons if r.get("message")]
    if facts:
        out += " — " + translate(lang, "; ").join(facts)
    if reasons:
        out += " — " + translate(lang, "; ").join(reasons)
    if row.dice:
        out += translate(lang, " (dice: %(dice)s)", dice=dice_words(row.dice, lang, game))
    return out


def position(svc: Warlog, game_id: str, seat: str, lang: str | None = None) -> Position:
    """The seat's position now, as the service lists it for that seat, in language `lang`."""
    from warlog.notify.naming import game_named

    def say(text: Any) -> str:
        return game_text(lang, rp.english(text))

    created = svc.created(game_id).payload
    game = game_of(created)
    listing = svc.actions(game_id, Viewer(seat))
    at = int(listing["expected_seq"])
    name = game_named(svc.store, game_id).say(lang)
    pos = Position(game_id, seat, at, name, say(seat_label(game.name, seat)), listing["status"],
                   say(listing["prompt"]), bool(listing["actions"]))
    pos.codes = [{"code": f"A{i + 1}", "action": a, "text": say(action_text(game, a))}
                 for i, a in enumerate(listing["actions"])]
    if listing["status"] == "active":
        state = svc.state(game_id, at, Viewer(seat)).get("state") or {}
        name_of = getattr(renderer_for(game.name), "name_of", None)
        if standing_words.kinds(game):
            pos.standing = [s.said(lang) for s in standing_words.of_seat(game, state, seat, name_of)]
            if pos.to_move:  # recording one is a move: offered while the seat is to act, after its actions
                n = len(pos.codes)
                pos.codes += [{"code": f"A{n + i + 1}", "action": c.action, "text": c.words.said(lang),
                               "standing": True} for i, c in enumerate(standing_words.choices(game, state, seat))]
        else:  # UP FRONT's: given from its listing, shown as recorded
            mine = (state.get("standing") or {}).get(seat) if isinstance(state, dict) else None
            if isinstance(mine, dict):
                pos.standing = [f"{k}: {core_standing.words(v.get('answer', '?'), v.get('when') or [])}"
                                for k, v in sorted(mine.items()) if isinstance(v, dict)]
    docs = svc.events(game_id, max(-1, at - 4 * RECENT), Viewer(seat))["events"]
    rows = [r for r in rp.move_rows(docs, game) if r.type in ("resolved", "rejected", "game_ended")]
    pos.recent = [row_words(r, lang, game) for r in rows[-RECENT:]]
    if listing["status"] == "active" and not pos.to_move:
        info = svc.summary(game_id)
        pos.waiting_for = [say(seat_label(game.name, s)) for s in info.active_seats]
    if listing["status"] == "ended":
        outcome = svc.info(game_id).get("outcome") or {}
        result = say(rp.result_text(outcome.get("result", ""), game, outcome.get("winner")))
        pos.outcome = result + (f" — {say(outcome['reason'])}" if outcome.get("reason") else "")
    return pos


def board_png(svc: Warlog, game_id: str, seat: str, at: int, lang: str | None = None) -> bytes | None:
    """The board at event `at` as `seat` may see it (the replay PNG's drawing); None for a game
    drawn as text. Its texts are in language `lang` where this machine has a font to draw it with
    (`font_for`), else in English."""
    from warlog.render.png import board_png as draw
    from warlog.render.png import font_for

    game = game_of(svc.created(game_id).payload)
    renderer = renderer_for(game.name)
    if isinstance(renderer, TextRenderer):
        return None
    state = svc.state(game_id, at, Viewer(seat)).get("state")
    if state is None:
        return None
    said = lang if lang and lang != "en" and font_for(lang) else None
    caption = translate(said, "Event %(n)s: as %(seat)s sees it", n=at,
                        seat=game_text(said, seat_label(game.name, seat)))
    return draw(svg_texts(said, str(renderer.board(Scene(state, caption=caption)))), scale=0.75, lang=said)


WIDTH = 76  # prose is wrapped for plain-text clients; a code's line and a link are never cut


def _wrap(line: str, indent: str = "") -> str:
    if any("\u3000" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef" for c in line):
        return line  # Japanese has no spaces to break at: the reader's mail client wraps it
    return textwrap.fill(line, WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def text(intro: list[str], content: dict[str, Any] | None, codes: list[dict[str, Any]], reply_to: str | None,
         link: str | None, lang: str | None = None) -> str:
    """The plain-text body (the whole mail for a plain-text client), in language `lang`."""
    lines = [_wrap(line, "  " if line.startswith("- ") else "") for line in intro]
    if content is not None:
        if lines:
            lines.append("")
        lines.append(_wrap(translate(lang, "%(game)s — %(seat)s, at event %(n)s.", game=content["name"],
                                     seat=content["seat_name"], n=content["at_seq"])))
        if content.get("outcome"):
            lines.append(_wrap(translate(lang, "The game is over: %(outcome)s.", outcome=content["outcome"])))
        elif content["to_move"]:
            lines.append(_wrap(translate(lang, "Your move: %(prompt)s", prompt=content["prompt"])))
        elif content.get("waiting_for"):
            seats = translate(lang, ", ").join(content["waiting_for"])
            lines.append(_wrap(translate(lang, "Waiting for %(seats)s.", seats=seats)))
        if content.get("standing"):
            lines += ["", translate(lang, "Your standing answers (secret; the game answers these for you):")]
            lines += ["  " + _wrap(f"- {s}", "    ") for s in content["standing"]]
        if content.get("recent"):
            lines += ["", translate(lang, "Last moves:")]
            lines += ["  " + _wrap(f"- {r}", "    ") for r in content["recent"]]
    if codes and reply_to:
        width = max(len(c["code"]) for c in codes)
        moves = [c for c in codes if not c.get("standing")]
        answers = [c for c in codes if c.get("standing")]
        if moves:
            lines += ["", translate(lang, "Your legal actions (reply with a code):")]
            lines += [f"  {c['code']:<{width}}  {c['text']}" for c in moves]
        if answers:
            lines += ["", _wrap(translate(
                lang, "Standing answers you may set now (reply with a code; secret until the game ends, the game "
                      "then answers that decision for you without waiting; a condition is set on the game's page):"))]
            lines += [f"  {c['code']:<{width}}  {c['text']}" for c in answers]
        lines += ["", _wrap(translate(
            lang, "To play, reply to this mail (it goes to %(address)s) with a code on a line of its own, e.g. "
                  "\"A1\". Several codes in order (\"A3 A1\") play one after another while each is still legal and "
                  "it is still your turn. Quoted text is ignored. This address takes one reply, from your own "
                  "address, written against this position only.", address=reply_to))]
    if link:
        lines += ["", translate(lang, "On the page: %(link)s", link=link)]
    return "\n".join(lines) + "\n"


# The HTML body's own words (its template is a string: marked here for the catalogs)
HTML_WORDS = [N_("%(game)s — %(seat)s, at event %(n)s"), N_("Your move:"), N_("The board as %(seat)s sees it"),
              N_("Your standing answers (secret; the game answers these for you)"), N_("Last moves"),
              N_("Your legal actions: reply with a code"), N_("Standing answers you may set now: reply with a code"),
              N_("Secret until the game ends; the game then answers that decision for you without waiting. A "
                 "condition is set on the game's page."),
              N_("To play, reply to this mail (it goes to %(address)s) with a code on a line of its own, e.g. A1. "
                 "Several codes in order (A3 A1) play one after another while each is still legal and it is still "
                 "your turn. Quoted text is ignored. Please reply in plain text or with the code first. This address "
                 "takes one reply, from your own address, written against this position only."),
              N_("Open the game's page")]

_HTML = Environment(autoescape=select_autoescape(default=True, default_for_string=True)).from_string("""\
<!doctype html>
<html lang="{{ lang }}"><body style="font-family: sans-serif">
{% for line in intro %}<p>{{ line }}</p>{% endfor %}
{% if content %}
<h2 style="font-size: 1.1em">{{ t("%(game)s — %(seat)s, at event %(n)s", game=content.name, seat=content.seat_name, n=content.at_seq) }}</h2>
{% if content.outcome %}<p><strong>{{ t("The game is over: %(outcome)s.", outcome=content.outcome) }}</strong></p>
{% elif content.to_move %}<p><strong>{{ t("Your move:") }}</strong> {{ content.prompt }}</p>
{% elif content.waiting_for %}<p>{{ t("Waiting for %(seats)s.", seats=content.waiting_for|join(t(", "))) }}</p>{% endif %}
{% if cid %}<p><img src="cid:{{ cid }}" alt="{{ t("The board as %(seat)s sees it", seat=content.seat_name) }}" style="max-width: 100%"></p>{% endif %}
{% if content.standing %}<h3 style="font-size: 1em">{{ t("Your standing answers (secret; the game answers these for you)") }}</h3><ul>{% for s in content.standing %}<li>{{ s }}</li>{% endfor %}</ul>{% endif %}
{% if content.recent %}<h3 style="font-size: 1em">{{ t("Last moves") }}</h3><ul>{% for r in content.recent %}<li>{{ r }}</li>{% endfor %}</ul>{% endif %}
{% endif %}
{% if codes and reply_to %}
{% set moves = codes|rejectattr("standing")|list %}{% set answers = codes|selectattr("standing")|list %}
{% if moves %}<h3 style="font-size: 1em">{{ t("Your legal actions: reply with a code") }}</h3>
<table>{% for c in moves %}<tr><td><code><strong>{{ c.code }}</strong></code></td><td>{{ c.text }}</td></tr>{% endfor %}</table>{% endif %}
{% if answers %}<h3 style="font-size: 1em">{{ t("Standing answers you may set now: reply with a code") }}</h3>
<p>{{ t(words[7]) }}</p>
<table>{% for c in answers %}<tr><td><code><strong>{{ c.code }}</strong></code></td><td>{{ c.text }}</td></tr>{% endfor %}</table>{% endif %}
<p>{{ t(words[8], address=reply_to) }}</p>
{% endif %}
{% if link %}<p><a href="{{ link }}">{{ t("Open the game's page") }}</a></p>{% endif %}
</body></html>
""")


def html(intro: list[str], content: dict[str, Any] | None, codes: list[dict[str, Any]], reply_to: str | None,
         link: str | None, cid: str | None, lang: str | None = None) -> str:
    """The HTML body (the board inline as `cid`), in language `lang`."""
    return _HTML.render(intro=intro, content=content, codes=codes, reply_to=reply_to, link=link, cid=cid,
                        lang=lang or "en", words=HTML_WORDS, t=lambda message, **values: translate(lang, message, **values))
