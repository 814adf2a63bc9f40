"""A replay you can send: one self-contained HTML file (boards, the event list, step, keyboard
and autoplay controls, inline script and style; no server, no network) built from a game's
events, and a PNG of one board for a forum post.

The file shows what the replay page shows a spectator: only public information until the game
has ended, everything after. Its boards are drawn by the game's renderer, as on the pages;
to keep a long game's file small each board is stored as references into a pool of distinct
SVG pieces (the map's terrain is stored once, a counter once per place it stands), and the
page's script joins a step's pieces when it is shown.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flask import has_request_context
from flask_babel import gettext, ngettext
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from ledger.events import GAME_STARTED, RESOLVED, Event
from ledger.fold import fold
from rules import game_of
from rules.core.game import Game
from warlog import PACKAGE, i18n, templates_dir
from warlog.games import replay as rp
from warlog.games.history import ended
from warlog.games.service import SPECTATOR, redact
from warlog.render import Renderer, Scene, renderer_for
from warlog.render.words import action_text, words_filter

TEMPLATES = templates_dir()
STATIC = PACKAGE / "static"
# a group of the board at least this big is stored as its children (see `pieces`)
SPLIT_MIN = 1200
_TAG = re.compile(r"<(/?)([A-Za-z][^\s/>]*)(?:[^>\"']|\"[^\"]*\"|'[^']*')*?(/?)>")


class ReplayFileError(ValueError):
    """The events cannot make a replay file (an empty or foreign file)."""


@dataclass
class ReplayFile:
    html: str
    steps: int
    boards: int
    pieces: int


def children(markup: str) -> list[str]:
    """One element's markup cut into consecutive pieces whose concatenation is `markup` again:
    its opening tag, each child element (and any text between them), its closing tag. Markup
    that does not scan as one element is one piece."""
    cuts = {0, len(markup)}
    depth = 0
    for m in _TAG.finditer(markup):
        if markup.startswith("<!--", m.start()):
            continue
        closing, self_closing = m.group(1) == "/", m.group(3) == "/"
        if closing:
            depth -= 1
            if depth == 1:
                cuts.add(m.end())
            elif depth == 0:
                cuts.add(m.start())
            elif depth < 0:
                return [markup]
        elif self_closing:
            if depth == 1:
                cuts.update((m.start(), m.end()))
        else:
            if depth == 0:
                cuts.add(m.end())
            elif depth == 1:
                cuts.add(m.start())
            depth += 1
    if depth != 0:
        return [markup]
    edges = sorted(cuts)
    out = [markup[a:b] for a, b in zip(edges, edges[1:], strict=False) if b > a]
    return out if "".join(out) == markup else [markup]


def pieces(svg: str, min_size: int = SPLIT_MIN) -> list[str | list[str]]:
    """A board cut for storing: the root's children, each group of at least `min_size` cut
    again into its own children (so that a stack of counters that moved is stored anew, not
    the whole layer of counters)."""
    out: list[str | list[str]] = []
    for part in children(svg):
        out.append(children(part) if len(part) >= min_size and part.startswith("<g") else part)
    return out


class _Pool:
    """Distinct pieces, each stored once: a string, or a list of references to strings (a big
    group's children). A board is a list of references. The big pieces already stored (the
    printed map's layers) are found by plain search, so that a board's markup is scanned only
    where it differs from the boards before it."""

    STATIC = 4096  # a piece this big is looked for verbatim in the next boards

    def __init__(self) -> None:
        self.items: list[str | list[int]] = []
        self.index: dict[str, int] = {}
        self.big: list[str] = []
        self.boards: list[list[int]] = []
        self.board_index: dict[tuple[int, ...], int] = {}

    def _ref(self, text: str) -> int:
        i = self.index.get(text)
        if i is None:
            parts = children(text) if len(text) >= SPLIT_MIN and text.startswith("<g") else [text]
            item: str | list[int] = text if len(parts) < 3 else [self._ref(p) for p in parts]
            i = self.index[text] = len(self.items)
            self.items.append(item)
        return i

    def board(self, markup: str) -> int:
        masked, found = markup, {}
        for k, big in enumerate(self.big):
            if big in masked:
                mark = f"<wl-{k}/>"
                masked = masked.replace(big, mark, 1)
                found[mark] = big
        parts = [found.get(p, p) for p in children(masked)]
        if "".join(parts) != markup:  # a stored piece stood inside another: scan it all
            parts = children(markup)
        refs = []
        for part in parts:
            if len(part) >= self.STATIC and part not in self.index:
                self.big.append(part)
            refs.append(self._ref(part))
        key = tuple(refs)
        b = self.board_index.get(key)
        if b is None:
            b = self.board_index[key] = len(self.boards)
            self.boards.append(refs)
        return b


def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html"]),
                      extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.filters["en"] = rp.english
    env.filters["tr"] = i18n.tr  # the page's language where there is one (a request), else English
    env.filters["tr_markup"] = i18n.tr_markup
    env.filters["words"] = words_filter  # ids in words, for the template's game
    env.globals["action_text"] = action_text
    env.globals.update(status_badge_text=i18n.status_badge, status_word=i18n.status_word, Markup=Markup)
    return env


def build(events: list[Event], open_book: bool = True) -> ReplayFile:
    """The replay file of a game from its events (an export, or the ledger's events).
    `open_book` False: public information only, even if the events end the game (a sandbox of
    a game that still runs: Warlog.open_book)."""
    if not events or events[0].type != "game_created":
        raise ReplayFileError("the file does not start with a game's creation event: is it a Warlog export?")
    created = events[0].payload
    try:
        game = game_of(created)
    except KeyError:
        raise ReplayFileError(f"this Warlog does not know the game {created.get('game')!r}") from None
    full = ended(events) and open_book
    docs = [e.to_json() if full else redact(e, game, SPECTATOR) for e in events]
    renderer = renderer_for(game.name)
    pool = _Pool()
    steps: list[dict[str, Any]] = []
    state: Any = None
    visible: Any = None
    board = pool.board(str(renderer.board(Scene(None))))
    for ev, doc in zip(events, docs, strict=True):
        before = visible
        if ev.type in (GAME_STARTED, RESOLVED):
            state = fold([ev], state)
            visible = state if full else game.view(state, None)
            hl = rp.step_highlights(renderer, doc, before, visible, docs, ev.seq)
            board = pool.board(str(renderer.board(Scene(visible, highlights=hl))))
        steps.append({"b": board, "p": i18n.tr(game.phase(state) if state is not None else "waiting for seats"),
                      "a": [i18n.tr(rp.seat_name(s, game)) for s in game.active_seats(state)] if state is not None
                      else [],
                      "stop": doc["type"] in rp.POSITIONS})
    rows = rp.move_rows(docs, game)
    row_of = {}
    for i, r in enumerate(rows):
        for s in r.steps:
            row_of[s] = i
    last_row = 0
    for seq, step in enumerate(steps):  # a step without a row of its own shows the row before it
        last_row = row_of.get(seq, last_row)
        step["r"] = last_row
    data = {"pieces": pool.items, "boards": pool.boards, "steps": steps}
    html = _render(events, game, renderer, rows, data, full)
    return ReplayFile(html, len(steps), len(pool.boards), len(pool.items))


def _render(events: list[Event], game: Game, renderer: Renderer, rows: list[rp.EventRow], data: dict[str, Any],
            full: bool) -> str:
    created = events[0].payload
    gid = events[0].game_id
    outcome = next((e.payload.get("outcome") for e in reversed(events) if e.type == "game_ended"), None) if full \
        else None
    env = _environment()
    env.globals["seat_name"] = lambda seat, g=None: rp.seat_name(seat, g or game)
    env.globals["result_text"] = rp.result_text
    name, scenario_title = rp.titles(game, str(created.get("scenario")))
    if has_request_context():  # the scenario's title in the asking page's language, as the pages show it
        scenario_title = i18n.tr(scenario_title)
    # inside <script>: no "</" (it would close it) nor "<!--" (it would change how it is read)
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/").replace(
        "<!--", "<\\u0021--")
    return env.get_template("replay_file.html").render(
        game=game, name=name, gid=gid, scenario=scenario_title, rows=rows,
        legend=renderer.legend(), full=full, outcome=outcome,
        last=events[-1].seq, final_hash=events[-1].hash, sandbox=bool(created.get("sandbox")),
        export_name=f"warlog-{gid}.jsonl", data=Markup(payload), favicon=favicon_data_uri(),
        page_lang=i18n.lang() if has_request_context() else "en",  # the asking page's language
        js_words=i18n.js_messages() if has_request_context() else {},
        css=Markup((STATIC / "warlog.css").read_text(encoding="utf-8")),
        script=Markup((STATIC / "warlog.js").read_text(encoding="utf-8").replace("</", "<\\/")))


def favicon_data_uri() -> str:
    return "data:image/svg+xml;base64," + base64.b64encode((STATIC / "favicon.svg").read_bytes()).decode("ascii")


def from_lines(lines: Iterable[bytes]) -> list[Event]:
    """The events of an export file, with the hash chain checked (`warlog verify` checks the rest)."""
    from ledger.events import check_chain
    from ledger.export import parse_export

    events = parse_export(lines)
    check_chain(events)
    return events


__all__ = ["ReplayFile", "ReplayFileError", "build", "from_lines", "pieces"]
