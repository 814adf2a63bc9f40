"""Moves that end the game, or a whole phase while units could still act, are confirmed before
they are sent: the API's listing marks them (`confirm`), the page's buttons carry the reason,
and a page form that sends one unconfirmed gets a confirmation page and records nothing."""

from __future__ import annotations

import json

from rules import get_game
from rules.core.dice import fixed_dice
from tests.pages.conftest import drain, post_form

SETUP = '{"type": "standard_setup"}'
DONE = '{"type": "done_setup"}'
END_MOVE = '{"type": "end_movement"}'


def _setup_both(pg):
    for seat in ("belgium", "germany"):
        pg.act(seat, SETUP)
        pg.act(seat, DONE)


def _listing(pg, seat):
    token = pg.links[seat].rsplit("/", 1)[1]
    return pg.seats[seat].get(f"/api/v1/games/{pg.id}/actions",
                              headers={"Authorization": f"Bearer {token}"}).get_json()


def test_ending_the_german_move_before_any_battle_ends_the_game_by_the_rules():
    """AoB 24.18: one German move and no turns; a move that made no battle goes straight to the
    victory check (AoB 3.3), which Belgium wins. The listing's reason says so."""
    g = get_game("assault-on-belgium")
    s = g.setup("may-1940", g.resolve_options({}), fixed_dice([]))
    for seat in ("belgium", "germany"):
        s = g.apply(s, seat, {"type": "standard_setup"}, fixed_dice([])).state
        s = g.apply(s, seat, {"type": "done_setup"}, fixed_dice([])).state
    legal = g.legal_actions(s, "germany")
    why = g.confirm(s, "germany", {"type": "end_movement"}, legal)
    assert why and why.startswith("ends the game") and "AoB 3.3" in why
    assert g.confirm(s, "germany", next(a for a in legal if a["type"] == "select"), legal) is None
    after = g.apply(s, "germany", {"type": "end_movement"}, fixed_dice([])).state
    assert g.outcome(after) is not None and g.outcome(after).winner == "belgium"


def test_the_listing_marks_the_move_that_ends_the_game(page_game):
    pg = page_game()
    _setup_both(pg)
    listing = _listing(pg, "germany")
    marked = listing["confirm"]
    assert [c["action"] for c in marked] == [{"type": "end_movement"}]
    assert listing["actions"][marked[0]["index"]] == {"type": "end_movement"}
    assert "ends the game" in marked[0]["confirm"]
    html = pg.page("germany")
    assert 'data-confirm="ends the game' in html


def test_a_page_form_asks_before_ending_the_game_and_records_nothing_until_confirmed(app, page_game):
    pg = page_game()
    _setup_both(pg)
    before = pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["seq"]
    c = pg.seats["germany"]
    r = post_form(c, f"/games/{pg.id}/act", {"action": END_MOVE, "expected_seq": str(before)}, f"/games/{pg.id}")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="act-confirm"' in page and "ends the game" in page
    drain(app)
    assert pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["seq"] == before
    r = post_form(c, f"/games/{pg.id}/act", {"action": END_MOVE, "expected_seq": str(before), "confirmed": "1"},
                  f"/games/{pg.id}")
    assert r.status_code == 303
    drain(app)
    assert pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["status"] == "ended"


def test_the_script_is_told_to_confirm_first(page_game):
    pg = page_game()
    _setup_both(pg)
    c = pg.seats["germany"]
    from tests.pages.conftest import ORIGIN, csrf_of
    r = c.post(f"/games/{pg.id}/act", headers={**ORIGIN, "Accept": "application/json"}, data={
        "csrf": csrf_of(c, f"/games/{pg.id}"), "action": END_MOVE, "expected_seq": str(pg.expected_seq("germany"))})
    assert r.status_code == 409 and "ends the game" in r.get_json()["confirm"]


def test_ending_the_movement_with_units_left_is_marked_once_a_battle_is_made(page_game):
    pg = page_game()
    _setup_both(pg)
    for action in ('{"type": "select", "unit": "de-pz-3"}', '{"type": "move", "hex": "1706"}',
                   '{"type": "move", "hex": "1606", "tank_battle": true}'):
        pg.act("germany", action)
    marked = _listing(pg, "germany")["confirm"]
    assert len(marked) == 1 and "could still move" in marked[0]["confirm"] and "AoB 5.1" in marked[0]["confirm"]
    assert "ends the game" not in marked[0]["confirm"]


def test_green_beret_ending_the_game_on_turn_one_is_marked(page_game):
    """GBV 4.0, 5.0: the player may end the campaign at any time; from the first turn on it is
    confirmed, with the level it would end at."""
    pg = page_game("green-beret-vietnam/campaign")
    camp = next(a for a in _listing(pg, "player")["actions"] if a["type"] == "place_camp")
    pg.act("player", json.dumps(camp))
    listing = _listing(pg, "player")
    ends = [c for c in listing["confirm"] if c["action"] == {"type": "end_game"}]
    assert len(ends) == 1 and "on turn 1" in ends[0]["confirm"] and "GBV 4.0" in ends[0]["confirm"]
    assert 'data-confirm="ends the game now, on turn 1' in pg.page("player")


def test_vietnam_battles_ending_the_movement_with_units_able_to_move_is_marked():
    """VB 4.1: the phasing player ends the phase; with units that could still move, it is asked."""
    from rules.vietnam_battles.confirmations import confirm
    legal = [{"type": "select", "unit": "us-1"}, {"type": "select", "unit": "us-2"}, {"type": "end_phase"}]
    why = confirm({"phase": "movement"}, {"type": "end_phase"}, legal)
    assert why == "ends the Movement Phase while 2 units could still move (VB 4.1)"
    assert confirm({"phase": "combat"}, {"type": "end_phase"}, [{"type": "end_phase"}]) is None
    assert confirm({"phase": "movement"}, {"type": "select", "unit": "us-1"}, legal) is None


def test_lock_n_load_the_third_pass_in_a_row_with_units_to_activate_is_marked():
    """LnL 4.1: three passes in a row end the Operations Phase; the third is asked about while the
    seat could still activate a hex; the first two end only the impulse."""
    from rules.lock_n_load.confirmations import confirm
    legal = [{"type": "pass"}, {"type": "activate", "hex": "1B4"}, {"type": "activate", "hex": "1C5"}]
    third = {"phase": "operations", "impulse": None, "passes": 2}
    assert confirm(third, {"type": "pass"}, legal) == (
        "ends the Operations Phase (the third pass in a row) while 2 hexes of your units could still be "
        "activated (LnL 4.1)")
    assert confirm({**third, "passes": 1}, {"type": "pass"}, legal) is None
    assert confirm(third, {"type": "pass"}, [{"type": "pass"}]) is None


def test_the_confirmation_asks_in_the_pages_language(page_game):
    """On a Japanese page, the confirmation page and the play page's question are Japanese:
    the action, and what it does in the rulebook's words (the rule cited as printed)."""
    pg = page_game()
    _setup_both(pg)
    c = pg.seats["germany"]
    c.set_cookie("lang", "ja")
    html = pg.page("germany")
    data = json.loads(html.split('id="actions-data">', 1)[1].split("</script>", 1)[0])
    ask = next(a["ask"] for a in data if a["action"] == {"type": "end_movement"})
    assert ask.startswith("移動を終了? この手でゲームを終了します"), ask
    assert "ベルギー軍の勝利" in ask and "(AoB 3.3, 24.18)" in ask, ask
    assert "ends the game" not in ask and "This " not in ask
    before = pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["seq"]
    r = post_form(c, f"/games/{pg.id}/act", {"action": END_MOVE, "expected_seq": str(before)}, f"/games/{pg.id}")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="act-confirm"' in page
    effect = page.split('<p class="effect">', 1)[1].split("</p>", 1)[0]
    assert effect.startswith("この手で") and "ドイツ軍ユニットがない" in effect, effect
    assert "This" not in effect and "ends the game" not in page
