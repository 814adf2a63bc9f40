"""Replay (every step, permalinks, viewpoints, highlights) and audit (seed, chain, dice,
fairness, rulings, export) pages."""

from __future__ import annotations

import re

import pytest

from tests.pages.conftest import drain
from tests.pages.secret_game import install as install_secret
from warlog.trust.verify import verify_lines


def _tank_battle_game(pg):
    for seat in ("belgium", "germany"):
        pg.act(seat, '{"type": "standard_setup"}')
        pg.act(seat, '{"type": "done_setup"}')
    for action in ('{"type": "select", "unit": "de-pz-3"}', '{"type": "move", "hex": "1706"}',
                   '{"type": "move", "hex": "1606", "tank_battle": true}'):
        pg.act("germany", action)
    return pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["seq"]


@pytest.mark.slow
def test_every_step_has_a_page_with_navigation_and_a_permalink(page_game):
    pg = page_game()
    last = _tank_battle_game(pg)
    for step in range(last + 1):
        html = pg.page("spectator", f"/replay/{step}")
        assert f'id="stepno">{step}<' in html and f"/games/{pg.id}/replay/{step}" in html
        assert 'rel="prev"' in html and 'rel="next"' in html and 'type="range"' in html
    r = pg.spectator.get(f"/games/{pg.id}/replay")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/replay/{last}")
    r = pg.spectator.get(f"/games/{pg.id}/replay?step=4")
    assert r.headers["Location"].endswith("/replay/4")
    assert pg.spectator.get(f"/games/{pg.id}/replay/{last + 1}").status_code == 404
    assert pg.spectator.get(f"/games/{pg.id}/replay?step=x").status_code == 400


def test_prev_and_next_skip_the_submissions(page_game):
    pg = page_game()
    last = _tank_battle_game(pg)
    html = pg.page("spectator", f"/replay/{last}")
    prev = int(re.search(r'id="prev" rel="prev" href="[^"]*/replay/(\d+)', html).group(1))
    assert prev == last - 2  # the judgement before, not the submission in between


@pytest.mark.slow
def test_the_replay_highlights_the_path_and_the_hex_fought_over(page_game):
    pg = page_game()
    last = _tank_battle_game(pg)
    html = pg.page("spectator", f"/replay/{last}")
    assert 'class="hl-path"' in html and 'class="hl-hex"' in html
    assert "tank battle marker" in html.lower() and "AoB 15.4" in html and "AoB 5.5" in html
    assert re.search(r'<li class="ev ev-resolved by-germany current"', html)


def test_viewpoints_public_seat_and_everything(page_game):
    pg = page_game()
    last = _tank_battle_game(pg)
    spectator = pg.spectator.get(f"/games/{pg.id}/replay/{last}").get_data(as_text=True)
    assert 'class="chip on" href="/games/' in spectator and ">Public<" in spectator
    assert pg.spectator.get(f"/games/{pg.id}/replay/{last}?view=full").status_code == 403
    assert pg.spectator.get(f"/games/{pg.id}/replay/{last}?view=seat").status_code == 403
    assert pg.spectator.get(f"/games/{pg.id}/replay/{last}?view=nonsense").status_code == 400
    seat = pg.seats["germany"].get(f"/games/{pg.id}/replay/{last}").get_data(as_text=True)
    assert re.search(r'class="chip on"[^>]*>My seat<', seat)
    assert pg.seats["germany"].get(f"/games/{pg.id}/replay/{last}?view=public").status_code == 200


@pytest.fixture
def secret_game(app, page_game):
    install_secret()
    return page_game("secret-test/only")


def test_a_spectator_replay_of_a_running_game_uses_the_public_view(app, secret_game):
    pg = secret_game
    secrets = pg.spectator.get(f"/api/v1/games/{pg.id}/state?at=0")  # a spectator gets nothing secret
    assert secrets.status_code == 200
    pg.act("north", '{"type": "peek"}')
    last = pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["seq"]
    north_secret = re.search(r"zq-north-\d", pg.page("north")).group(0)
    south_secret = re.search(r"zq-south-\d", pg.page("south")).group(0)
    for step in range(last + 1):
        html = pg.page("spectator", f"/replay/{step}")
        assert north_secret not in html and south_secret not in html, step
        seat = pg.page("north", f"/replay/{step}")
        assert south_secret not in seat
    peek = pg.page("north", f"/replay/{last}")
    assert north_secret in peek  # its own peek, in its own view
    assert "north's secret is" not in pg.page("south", f"/replay/{last}")
    assert north_secret not in pg.page("spectator", "/audit") and north_secret not in pg.page("south")
    pg.act("north", '{"type": "pass"}')
    pg.act("south", '{"type": "pass"}')
    drain(app)
    last = pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["seq"]
    over = pg.page("spectator", f"/replay/{last}")  # once it is over, everything is public
    assert north_secret in over and south_secret in over and ">Everything<" in over


def test_the_audit_of_a_running_hidden_game_does_not_name_another_seats_move(app, secret_game):
    pg = secret_game
    pg.act("north", '{"type": "reroll"}')
    drain(app)
    north_secret = re.search(r"zq-north-\d", pg.page("north")).group(0)
    for viewer in ("south", "spectator"):
        audit = pg.page(viewer, "/audit")
        assert "a move by North (hidden until the game ends)" in audit and "reroll" not in audit.replace("a reroll", "")
        assert north_secret not in audit and "north's secret" not in audit
    own = pg.page("north", "/audit")
    assert "type=reroll" in own and north_secret in own


def test_the_audit_page_checks_seed_chain_and_dice_and_offers_the_export(app, new_game, client):
    p = new_game("dice-duel", "short")
    for _ in range(400):
        if p.info()["status"] == "ended":
            break
        seat = p.info()["active_seats"][0]
        pot = client.get(f"/api/v1/games/{p.id}/state").get_json()["state"]["pot"]
        p.play(seat, {"type": "roll" if pot < 6 else "bank"})
    assert p.info()["status"] == "ended"
    html = client.get(f"/games/{p.id}/audit").get_data(as_text=True)
    assert "equals the commitment" in html and "every hash and link" in html
    assert "every die re-derived from the seed on the server" in html
    assert html.count('class="histogram"') >= 1 and re.search(r"p = [01]\.\d{3}", html)
    assert f"warlog verify warlog-{p.id}.jsonl" in html
    export = client.get(f"/games/{p.id}/export.jsonl")
    assert export.status_code == 200 and export.mimetype == "application/x-ndjson"
    assert verify_lines(export.get_data(as_text=True).splitlines(keepends=True)).seed_revealed


def test_the_audit_of_a_running_game_keeps_the_seed_and_export_closed(client, page_game):
    pg = page_game()
    html = pg.page("spectator", "/audit")
    assert "Not revealed yet" in html and "Download the export" not in html
    assert pg.spectator.get(f"/games/{pg.id}/export.jsonl").status_code == 403


def test_the_audit_lists_the_directors_rulings(app, new_game, client):
    p = new_game("dice-duel", "short")
    p.play("north", {"type": "roll"})
    r = client.post(f"/api/v1/games/{p.id}/rulings", headers=p.auth("director"),
                    json={"kind": "reveal_seed", "reason": "dispute over roll 4"})
    assert r.status_code == 202
    p.wait()
    html = client.get(f"/games/{p.id}/audit").get_data(as_text=True)
    assert "reveal_seed" in html and "dispute over roll 4" in html and "Director reveals the dice seed" in html
    assert "equals the commitment" in html
