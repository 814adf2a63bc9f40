"""Two seats play mountain scenarios to their end through the HTTP API (random legal play),
each seeing only its own hand; every ledger passes `warlog verify` (every card drawn
re-derived from the committed seed). `UF_API_SCENARIOS` picks the scenarios: A, C and V by
default, `all` for every one."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from rules.up_front.data import world
from warlog.trust.verify import verify_bytes

ALL = sorted(world().scenarios)
_CHOSEN = os.environ.get("UF_API_SCENARIOS", "A,C,V")  # "all" for every scenario (about 45 s each)
SCENARIOS = ALL if _CHOSEN == "all" else [s for s in _CHOSEN.split(",") if s]


def _choose(rng: random.Random, acts: list[dict[str, Any]]) -> dict[str, Any]:
    plays = [a for a in acts if a["type"] not in ("end_turn", "standing")]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return next((a for a in acts if a["type"] == "end_turn"), rng.choice(acts))


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.slow
def test_a_mountain_scenario_is_played_to_its_end_through_the_api_and_verifies(client, new_game, scenario):
    condition = {"A": "frozen", "C": "mud", "J": "heavy_snow", "M": "light"}.get(scenario, "dry")
    terrain = "jungle" if world().scenarios[scenario]["theatre"] == "pacific" else "bare"  # N, S: UFM 9.3
    game = new_game("up-front", scenario, options={"terrain_type": terrain, "condition": condition})
    rng = random.Random(scenario)
    reactions = checked = 0
    for _ in range(3000):
        info = game.info()
        if info["status"] == "ended":
            break
        (seat,) = info["active_seats"]
        other = [r for r in info["roles"] if r != seat][0]
        listed = game.actions(seat)
        acts = listed["actions"]
        assert acts, listed["prompt"]
        if "reaction" in game.client.get(f"/api/v1/games/{game.id}").get_json().get("phase", "") or \
                any(a["type"] in ("conceal", "decline", "accept", "reject", "mine_altitude") for a in acts):
            reactions += 1
        if checked < 6 and rng.random() < 0.05:
            full = client.get(f"/api/v1/games/{game.id}/state", headers=game.auth("director")).get_json()["state"]
            if full["deck"]["pass"] == 1:
                mine = client.get(f"/api/v1/games/{game.id}/state", headers=game.auth(other)).get_json()["state"]
                assert mine["hands"][seat] == {"count": len(full["hands"][seat])}
                assert "draw" not in mine["deck"] and mine["standing"][other] == full["standing"].get(other, {})
                for kind, rec in mine["standing"].get(seat, {}).items():  # rules v3: a face-down marker
                    assert rec == {"answer": "hidden", "when": full["standing"][seat][kind]["when"]}
                seen = json.dumps(client.get(f"/api/v1/games/{game.id}/events?after=-1",
                                             headers=game.auth(other)).get_json()) + json.dumps(mine)
                assert not [c for c in full["hands"][seat] if c in seen], "a card of the hand leaked"
                checked += 1
        result = game.play(seat, _choose(rng, acts))
        assert result["status"] == "resolved", result
    info = game.info()
    assert info["status"] == "ended" and info["outcome"]
    assert reactions > 0  # a decision was taken in the other seat's turn
    data = client.get(f"/api/v1/games/{game.id}/export", headers=game.auth("director")).get_data()
    report = verify_bytes(data)
    rolled = sum(len((json.loads(line).get("payload") or {}).get("dice") or []) for line in data.splitlines())
    # every die the game rolled (each card drawn) re-derived from the revealed seed; a game that ends
    # early by casualties (E, H, L, M, T, U often do) rolls fewer than 100
    assert report.seed_revealed and report.ended and report.dice_derived == rolled and rolled > 30


def test_the_play_page_shows_a_seat_its_own_hand_and_never_the_other(app, client, new_game):
    game = new_game("up-front", "A")
    full = client.get(f"/api/v1/games/{game.id}/state", headers=game.auth("director")).get_json()["state"]
    pages = {}
    for seat in ("americans", "germans"):
        pages[seat] = app.test_client()
        pages[seat].get(f"/games/{game.id}/seat/{game.created['seats'][seat]}")
    html = pages["americans"].get(f"/games/{game.id}").get_data(as_text=True)
    assert all(c in html for c in full["hands"]["americans"])
    assert not [c for c in full["hands"]["germans"] if c in html]
    spectator = app.test_client().get(f"/games/{game.id}").get_data(as_text=True)
    assert not [c for c in full["hands"]["americans"] + full["hands"]["germans"] if c in spectator]


def test_the_card_table_draws_groups_and_my_hand_as_clickable_cards(app, client, new_game):
    """A card table, not a hex map: both rows of groups, my hand (mine only) as cards the page's
    script can click, then the group a card is played on."""
    game = new_game("up-front", "A")
    full = client.get(f"/api/v1/games/{game.id}/state", headers=game.auth("director")).get_json()["state"]
    page = app.test_client()
    page.get(f"/games/{game.id}/seat/{game.created['seats']['americans']}")
    html = page.get(f"/games/{game.id}").get_data(as_text=True)
    assert 'class="cardtable"' in html and 'data-hex="own:A"' in html and 'data-hex="foe:C"' in html
    for card in full["hands"]["americans"]:
        assert f'data-unit="{card}"' in html
    assert not [c for c in full["hands"]["germans"] if c in html]
    assert "Germans — hand 5 cards" in html
    # the actions name their card and group for the script: a terrain card in the hand (the deal is
    # random) is offered as "Place" on a group
    actions = client.get(f"/api/v1/games/{game.id}/actions", headers=game.auth("americans")).get_json()["actions"]
    assert all(a.get("card") is None or f'data-unit="{a["card"]}"' in html for a in actions)
    if any(a["type"] == "place" for a in actions):
        assert "Place" in html


def test_a_card_played_from_the_page_form_is_judged(app, client, new_game):
    import json as _json
    game = new_game("up-front", "A")
    page = app.test_client()
    page.get(f"/games/{game.id}/seat/{game.created['seats']['americans']}")
    seq = game.info()["seq"]
    from tests.pages.conftest import post_form
    r = post_form(page, f"/games/{game.id}/act", {"action": _json.dumps({"type": "ready"}), "expected_seq": seq},
                  csrf_from=f"/games/{game.id}")
    assert r.status_code == 303
    game.wait()
    assert game.info()["active_seats"] == ["germans"]


def test_replay_pages_show_a_seat_its_own_hand_and_spectators_none(app, client, new_game):
    game = new_game("up-front", "A")
    game.play("americans", {"type": "ready"})
    full = client.get(f"/api/v1/games/{game.id}/state", headers=game.auth("director")).get_json()["state"]
    seq = game.info()["seq"]
    ge = app.test_client()
    ge.get(f"/games/{game.id}/seat/{game.created['seats']['germans']}")
    for step in (3, seq):
        own = ge.get(f"/games/{game.id}/replay/{step}").get_data(as_text=True)
        assert 'class="cardtable"' in own
        assert not [c for c in full["hands"]["americans"] if f'data-unit="{c}"' in own or c in own]
        public = app.test_client().get(f"/games/{game.id}/replay/{step}").get_data(as_text=True)
        assert not [c for c in full["hands"]["americans"] + full["hands"]["germans"] if c in public]
    assert all(f'data-unit="{c}"' in ge.get(f"/games/{game.id}/replay/{seq}").get_data(as_text=True)
               for c in full["hands"]["germans"])
    assert ge.get(f"/games/{game.id}/replay/{seq}?view=full").status_code == 403


def test_a_vehicle_game_shows_its_afvs_and_fires_ordnance_from_the_page(app, client, new_game):
    """Rules version 4's scenario U (two AFVs, UFM 7): the card table names the vehicles, offers the
    gun's fire as "Fire ordnance at", and an ordnance shot sent from the page form is judged (VEH 3)."""
    import json as _json

    from tests.pages.conftest import post_form
    game = new_game("up-front", "U")
    rng = random.Random("U")
    shot = None
    for _ in range(400):
        (seat,) = game.info()["active_seats"]
        acts = game.actions(seat)["actions"]
        shot = next((a for a in acts if a["type"] == "ordnance"), None)
        if shot is not None:
            break
        game.play(seat, _choose(rng, acts))
    assert shot is not None, "no ordnance shot offered in 400 actions"
    page = app.test_client()
    page.get(f"/games/{game.id}/seat/{game.created['seats'][seat]}")
    html = page.get(f"/games/{game.id}").get_data(as_text=True)
    assert "medium tank" in html and "assault gun" in html and "Fire ordnance at" in html
    before = game.info()["seq"]
    r = post_form(page, f"/games/{game.id}/act", {"action": _json.dumps(shot), "expected_seq": before},
                  csrf_from=f"/games/{game.id}")
    assert r.status_code == 303
    game.wait()
    events = client.get(f"/api/v1/games/{game.id}/events?after={before - 1}", headers=game.auth(seat)).get_json()
    assert "fires its" in _json.dumps(events) and "To Hit" in _json.dumps(events)


def test_the_lobby_offers_and_creates_the_vehicle_scenarios(app):
    """E, H, T and U (rules version 4: AFVs and guns) are in the lobby's list and are created from it."""
    from tests.pages.conftest import post_form
    c = app.test_client()
    html = c.get("/").get_data(as_text=True)
    for sid in "EHTU":
        assert f'value="up-front/{sid}"' in html
    r = post_form(c, "/games", {"game": "up-front/H"})
    assert r.status_code == 201 and "Invitation link" in r.get_data(as_text=True)
