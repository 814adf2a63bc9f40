"""A replay you can send: `warlog replay FILE.jsonl -o game.html`, the replay
page's download, and a PNG of any step's board; public information only until the game ends."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask

from ledger.export import export_lines, parse_export
from ledger.fold import fold
from rules import get_game
from tests.pages.share_games import secrets, vb_game
from warlog.cli import main
from warlog.games import replay as rp
from warlog.games.share import build, children
from warlog.render import Scene, renderer_for

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _data(html: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S)
    assert m, "no replay data in the file"
    return json.loads(m.group(1))


def _board(data: dict[str, Any], step: int) -> str:
    def piece(i: int) -> str:
        p = data["pieces"][i]
        return p if isinstance(p, str) else "".join(piece(j) for j in p)

    return "".join(piece(i) for i in data["boards"][data["steps"][step]["b"]])


def test_an_element_is_cut_into_pieces_that_join_back_exactly() -> None:
    svg = ('<svg a="1"><style>.x>.y{fill:red}</style><g class="t"><polygon points="1,2"/><text>a &gt; b</text></g>'
           '<!-- note --><g/></svg>')
    parts = children(svg)
    assert "".join(parts) == svg
    assert parts[0] == '<svg a="1">' and parts[-1] == "</svg>"
    assert '<g class="t"><polygon points="1,2"/><text>a &gt; b</text></g>' in parts
    assert children("<g><b></g>") == ["<g><b></g>"]  # markup that does not scan stays whole


@pytest.mark.slow
def test_the_cli_writes_one_self_contained_file_of_a_finished_game(app: Flask, tmp_path: Path) -> None:
    store = app.extensions["warlog"].store
    gid, _, _ = vb_game(store, 1)
    export = tmp_path / "game.jsonl"
    export.write_text("".join(export_lines(store, gid)), encoding="utf-8")
    out = tmp_path / "game.html"
    result = CliRunner().invoke(main, ["replay", str(export), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output and "steps" in result.output
    html = out.read_text(encoding="utf-8")
    events = parse_export(io.BytesIO(export.read_bytes()))
    # the verify command and the final chain hash are printed in it
    assert f"warlog verify warlog-{gid}.jsonl" in html
    assert f'id="final-hash">{events[-1].hash}<' in html
    # nothing is fetched: no external script, style, image or link; a strict CSP on top
    assert not re.search(r'(src|href)="(?!data:|#)', html), re.findall(r'(?:src|href)="[^"]*"', html)[:5]
    assert "default-src 'none'" in html
    # every step has a board; the last is the renderer's own board of the final state, byte for byte
    data = _data(html)
    assert len(data["steps"]) == len(events)
    for step in range(len(events)):
        board = _board(data, step)
        assert board.startswith("<svg") and board.endswith("</svg>")
    game = get_game("vietnam-battles")
    renderer = renderer_for(game.name)
    docs = [e.to_json() for e in events]
    k = max(e.seq for e in events if e.type == "resolved")  # the last move: the game's end changes no state
    final, before = fold(events[:k + 1]), fold(events[:k])
    hl = rp.step_highlights(renderer, docs[k], before, final, docs, k)
    assert hl, "the last move changed something the board highlights"
    assert _board(data, k) == _board(data, len(events) - 1) == str(renderer.board(Scene(final, highlights=hl)))
    # one row per move: no submission keeps a row of its own once judged
    rows = re.findall(r'<li class="ev ev-(\w+)', html)
    assert rows.count("submitted") == 0 and rows.count("resolved") > 10
    assert "US" in html and "Us:" not in html  # the game's display names


@pytest.mark.slow
def test_a_file_of_a_running_game_shows_only_what_a_spectator_sees(app: Flask, tmp_path: Path) -> None:
    store = app.extensions["warlog"].store
    gid, _, _ = vb_game(store, 7, "snoopys_nose", moves=60)
    hidden = secrets(store, gid)
    assert hidden, "the VC has hidden units or camps on the map by now"
    made = build(list(store.iter_events(gid)))
    assert "still running" in made.html
    data = _data(made.html)
    for piece in data["pieces"]:
        if isinstance(piece, str):
            for who, where in hidden:
                assert not (f'"{who}"' in piece and f'"{where}"' in piece), (who, where)
    for who, where in hidden:
        assert f'data-unit="{who}"' not in made.html or where not in made.html.split(f'data-unit="{who}"')[1][:200]
    assert '"hide"' not in made.html and '"camp"' not in made.html  # the VC's secret set-up moves


@pytest.mark.slow
def test_the_replay_page_offers_the_file_and_a_png_of_the_step(app: Flask, tmp_path: Path) -> None:
    store = app.extensions["warlog"].store
    gid, _, _ = vb_game(store, 2)
    client = app.test_client()
    html = client.get(f"/games/{gid}/replay/40").get_data(as_text=True)
    assert f'href="/games/{gid}/replay.html"' in html and f'href="/games/{gid}/replay/40.png"' in html
    r = client.get(f"/games/{gid}/replay.html")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    assert "warlog verify" in r.get_data(as_text=True)
    r = client.get(f"/games/{gid}/replay/40.png")
    assert r.status_code == 200 and r.mimetype == "image/png"
    png = r.get_data()
    assert png[:8] == PNG_SIGNATURE
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        svg = html[html.index("<svg"):]
        width = float(re.search(r'width="([\d.]+)"', svg).group(1))
        assert im.format == "PNG" and abs(im.size[0] - width) <= 1 and im.size[1] > 1000
    assert client.get(f"/games/{gid}/replay/{10**6}.png").status_code == 404


@pytest.mark.slow
def test_the_png_keeps_hidden_information_hidden_before_the_end(app: Flask) -> None:
    store = app.extensions["warlog"].store
    gid, tokens, director = vb_game(store, 7, "snoopys_nose", moves=60)
    step = store.last_seq(gid)
    spectator = app.test_client()
    r = spectator.get(f"/games/{gid}/replay/{step}.png?view=full")
    assert r.status_code == 403 and b"PNG" not in r.get_data()[:8]
    us = app.test_client()
    assert us.get(f"/games/{gid}/seat/{tokens['us']}").status_code == 303
    assert us.get(f"/games/{gid}/replay/{step}.png?view=full").status_code == 403
    assert us.get(f"/games/{gid}/replay/{step}.png?view=seat").status_code == 200
    r = spectator.get(f"/games/{gid}/replay/{step}.png")
    assert r.status_code == 200 and r.get_data()[:8] == PNG_SIGNATURE
    assert spectator.get(f"/games/{gid}/replay.html").status_code == 200  # public until the end, to anyone


def test_a_game_without_a_renderer_makes_a_file_with_its_state_as_text(app: Flask, new_game: Any) -> None:
    """The fallback: each step's state as text (a dice-duel test game has no board renderer);
    its PNG is a clear 404, not a 500."""
    p = new_game("dice-duel", "short")
    while p.info()["status"] == "active":
        seat = p.info()["active_seats"][0]
        p.play(seat, {"type": "roll"})
    made = build(list(app.extensions["warlog"].store.iter_events(p.id)))
    data = _data(made.html)
    assert all(_board(data, s).startswith(("<pre", "<p")) for s in range(len(data["steps"])))
    assert "&#34;winner&#34;: &#34;" in _board(data, len(data["steps"]) - 1)  # escaped, as on the page
    r = app.test_client().get(f"/games/{p.id}/replay/3.png")
    assert r.status_code == 404 and b"no board" in r.get_data()
