"""A knockout bracket drawn as SVG on the server (no script): a column per round, a box per
match (the seed and name of each player, the winner in bold, the box a link to its game), lines
from each match to the one its winner plays next, and the third-place game under the final
(the page names the champion above it).
Every name is escaped; the picture scales to its box and scrolls on its own on a narrow screen."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

BOX_W, BOX_H, GAP_X, UNIT, PAD = 180, 44, 36, 56, 8
NAME_CHARS = 22


def _label(player: dict[str, Any]) -> str:
    if not player.get("player_id"):
        return ""
    name = str(player["name"])
    name = name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"
    return f"({player['seed']}) {name}" if player.get("seed") else name


def _box(x: float, y: float, match: dict[str, Any], game_href: str, cls: str = "match") -> str:
    rows = []
    players = match["players"] + [{}] * (2 - len(match["players"]))
    for i, p in enumerate(players[:2]):
        text = _label(p) or ("bye" if match.get("bye") else "")
        weight = ' font-weight="bold"' if p.get("won") else ""
        fill = "#888" if not p.get("player_id") else "currentColor"
        rows.append(f'<text x="{x + 8}" y="{y + 16 + i * 22}" font-size="13"{weight} fill="{fill}">{escape(text)}</text>')
    outline = (f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="4" fill="none" stroke="currentColor" '
               f'stroke-opacity="{0.9 if match.get("game_id") else 0.35}"/>'
               f'<line x1="{x}" y1="{y + BOX_H / 2}" x2="{x + BOX_W}" y2="{y + BOX_H / 2}" stroke="currentColor" '
               'stroke-opacity="0.2"/>')
    body = outline + "".join(rows)
    if match.get("game_id"):
        body = f'<a href="{escape(game_href + str(match["game_id"]))}">{body}</a>'
    return f'<g class="{cls}" data-game="{escape(match.get("game_id") or "")}">{body}</g>'


def bracket_svg(doc: dict[str, Any], game_href: str = "/games/") -> Markup:
    """The bracket of `doc` (warlog.tournaments.knockout.bracket_doc) as an <svg>."""
    columns = doc["columns"]
    first = max(1, len(columns[0]))
    height = first * UNIT + PAD * 2
    parts: list[str] = []
    centres: list[list[float]] = []
    for k, column in enumerate(columns):
        x = PAD + k * (BOX_W + GAP_X)
        span = UNIT * (2 ** k)
        ys = [PAD + (i + 0.5) * span for i in range(len(column))]
        centres.append(ys)
        for match, centre in zip(column, ys):
            parts.append(_box(x, centre - BOX_H / 2, match, game_href))
        if k:  # lines from the two feeding matches into each match of this column
            px = PAD + (k - 1) * (BOX_W + GAP_X) + BOX_W
            for i, centre in enumerate(ys):
                for j in (2 * i, 2 * i + 1):
                    if j < len(centres[k - 1]):
                        fy = centres[k - 1][j]
                        mid = px + GAP_X / 2
                        parts.append(f'<path d="M{px} {fy} H{mid} V{centre} H{x}" fill="none" stroke="currentColor" '
                                     'stroke-opacity="0.4"/>')
    width = PAD * 2 + len(columns) * BOX_W + (len(columns) - 1) * GAP_X
    if doc.get("third_place"):
        x = PAD + (len(columns) - 1) * (BOX_W + GAP_X)
        y = height + 18
        parts.append(f'<text x="{x}" y="{y - 4}" font-size="12" fill="#666">Third place</text>')
        parts.append(_box(x, y, doc["third_place"], game_href, "match third-place"))
        height = y + BOX_H + PAD
    head = (f'<svg class="bracket" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" aria-label="Knockout bracket, {len(columns)} round(s)">')
    return Markup(head + "".join(parts) + "</svg>")
