"""Sandboxes in the browser's pages: the replay page's "Fork a sandbox here" for whoever
may fork, and the sandbox's setup page, where each edit (move a counter, change a marker, set the
phase) is checked at once and its errors shown by path before the sandbox is created."""

from __future__ import annotations

import json
import re

from rules import get_game
from tests.conftest import Player
from tests.pages.conftest import post_form


def _vb_game(client, app) -> Player:
    r = client.post("/api/v1/games", json={"game": "vietnam-battles", "scenario": "boys67"})
    p = Player(client, app, r.get_json())
    p.join_all()
    return p


def svc_state(app, gid: str) -> dict:
    return app.extensions["warlog"].created(gid).payload["sandbox"]["state"]


def _patch_of(html: str) -> list:
    m = re.search(r'name="patch" value="([^"]*)"', html)
    assert m
    return json.loads(m.group(1).replace("&#34;", '"').replace("&quot;", '"'))


def test_fork_button_only_for_the_director_while_the_game_runs(client, app) -> None:
    p = _vb_game(client, app)
    step = p.info()["seq"]
    assert "Fork a sandbox here" not in client.get(f"/games/{p.id}/replay/{step}").get_data(as_text=True)
    assert client.get(f"/games/{p.id}/fork/{step}").status_code == 403
    client.get(f"/games/{p.id}/seat/{p.created['director_token']}")
    html = client.get(f"/games/{p.id}/replay/{step}").get_data(as_text=True)
    assert f'href="/games/{p.id}/fork/{step}"' in html and "Fork a sandbox here" in html


def test_setup_page_checks_each_edit_and_creates_the_sandbox(client, app) -> None:
    p = _vb_game(client, app)
    step = p.info()["seq"]
    client.get(f"/games/{p.id}/seat/{p.created['director_token']}")
    page = f"/games/{p.id}/fork/{step}"
    state = client.get(f"/api/v1/games/{p.id}/state", headers=p.auth("director")).get_json()["state"]
    unit = next(u for u, r in sorted(state["units"].items()) if r["status"] == "map" and u.startswith("us"))
    # a bad phase is refused, named by its path; the patch stays empty
    r = post_form(client, page, {"edit": "phase", "phase": "lunch", "patch": "[]"}, csrf_from=page)
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "Not applied" in html and "<code class=\"path\">/phase</code>" in html
    assert _patch_of(html) == []
    # a marker change that fits is applied and kept in the patch
    r = post_form(client, page, {"edit": "set", "path": "/turn", "value": "2", "patch": "[]"}, csrf_from=page)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "Applied" in html
    patch = _patch_of(html)
    assert patch == [{"op": "replace", "path": "/turn", "value": 2}]
    # moving a counter off the map's land is refused
    r = post_form(client, page, {"edit": "move", "unit": unit, "to": "nowhere", "patch": json.dumps(patch)},
                  csrf_from=page)
    assert r.status_code == 422 and "Not applied" in r.get_data(as_text=True)
    # moving it to an empty land hex next to it is applied
    w = get_game("vietnam-battles").w("boys67")  # type: ignore[attr-defined]
    at = state["units"][unit]["at"]
    taken = {r["at"] for r in state["units"].values()}
    to = next(h for h in sorted(w.hexes) if w.grid.distance(at, h) == 1 and w.is_node(h) and h not in taken)
    r = post_form(client, page, {"edit": "move", "unit": unit, "to": to, "patch": json.dumps(patch)}, csrf_from=page)
    assert r.status_code == 200 and "Applied" in r.get_data(as_text=True)
    patch = _patch_of(r.get_data(as_text=True))
    assert patch[-1] == {"op": "replace", "path": f"/units/{unit}/at", "value": to}
    # create: the sandbox starts from the edited position
    r = post_form(client, page, {"edit": "create", "patch": json.dumps(patch), "dice": "6 5",
                                 "on_dice_exhausted": "stop"}, csrf_from=page)
    html = r.get_data(as_text=True)
    assert r.status_code == 201 and "forked from game" in html and "stop and ask for more" in html
    gid = re.search(r'/games/([0-9a-f]+)/seat/', html).group(1)
    info = client.get(f"/api/v1/games/{gid}").get_json()
    assert info["sandbox"] is True
    start = svc_state(app, gid)
    assert start["turn"] == 2 and start["units"][unit]["at"] == to
