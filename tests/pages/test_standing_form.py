"""The play page's standing answers (ours; Assault on Belgium and Vietnam Battles from rules
version 2): the seat's own in words, a form to set, change and take one back that makes the same
move the API takes, a clear 400 for a bad one, and nothing of them on another seat's page."""

from __future__ import annotations

import re

from tests.pages.conftest import drain, post_form


def _set(pg, seat, **form):
    client = pg.seats[seat]
    data = {"expected_seq": str(pg.expected_seq(seat)), **form}
    r = post_form(client, f"/games/{pg.id}/standing", data, f"/games/{pg.id}")
    drain(pg.app)
    return r


def _now(html: str) -> str:
    m = re.search(r'<ul class="standing-now" id="standing-now">(.*?)</ul>', html, re.S)
    return re.sub(r"<[^>]+>", "", m.group(1)) if m else ""


def test_a_seat_sets_changes_and_takes_back_a_standing_answer_on_its_page(page_game):
    pg = page_game()
    html = pg.page("belgium")
    assert 'id="standing-form"' in html and "None: the game asks you at every decision." in html
    assert "A retreat result: take an extra hit instead" in html  # the form's words, not ids
    r = _set(pg, "belgium", choice="retreat hit", field1="hits", op1="==", value1="0")
    assert r.status_code == 303
    seq = int(re.search(r"last=(\d+)", r.headers["Location"]).group(1))
    move = pg.seats["belgium"].get(f"/api/v1/games/{pg.id}/moves/{seq}").get_json()
    assert move["status"] == "resolved"
    html = pg.page("belgium")
    assert "A retreat result: take an extra hit instead, when the unit&#39;s hits is 0" in _now(html)
    # the other seat and a spectator see no answer (the state shows them a face-down marker)
    for other in ("germany", "spectator"):
        page = pg.page(other)
        assert "take an extra hit instead, when" not in page and 'id="standing-now"' not in page
    # what the public reads of it: a face-down marker (its kind and condition)
    assert pg.seats["germany"].get(f"/api/v1/games/{pg.id}/state").get_json()["state"]["standing"]["belgium"] == {
        "retreat": {"answer": "hidden", "when": [["hits", "==", 0]]}}
    _set(pg, "belgium", choice="air stay")
    _set(pg, "belgium", choice="retreat ask", field1="hits", op1="==", value1="0")
    now = _now(pg.page("belgium"))
    assert "Air missions: fly no missions: the aircraft stay at base, always" in now and "retreat" not in now


def test_a_bad_standing_answer_is_a_clear_400_and_records_nothing(page_game):
    pg = page_game()
    before = pg.expected_seq("belgium")
    for form, words in [({"choice": "nonsense hit"}, "choose a decision and an answer"),
                        ({"choice": "retreat hit", "field1": "pending", "value1": "1"}, "has no such condition"),
                        ({"choice": "retreat hit", "field1": "hits", "value1": "many"}, "whole number"),
                        ({"choice": "retreat fly"}, "is one of")]:
        r = _set(pg, "belgium", **form)
        assert r.status_code == 400 and words in r.get_data(as_text=True), form
    assert pg.expected_seq("belgium") == before


def test_the_form_is_offered_only_to_the_seat_to_act(page_game):
    pg = page_game()
    html = pg.page("germany")
    assert 'id="standing-form"' not in html and "whenever the game asks you to act" in html
    r = post_form(pg.seats["germany"], f"/games/{pg.id}/standing",
                  {"choice": "air stay", "expected_seq": str(pg.expected_seq("belgium"))}, f"/games/{pg.id}")
    drain(pg.app)
    assert r.status_code in (303, 409)
    assert pg.seats["germany"].get(f"/api/v1/games/{pg.id}/state").get_json()["state"]["standing"] == {}


def test_the_standing_answers_read_in_japanese(page_game):
    pg = page_game()
    _set(pg, "belgium", choice="retreat hit", field1="hits", op1="<=", value1="1")
    r = pg.seats["belgium"].get(f"/games/{pg.id}", headers={"Accept-Language": "ja"})
    html = r.get_data(as_text=True)
    assert '<html lang="ja">' in html
    assert "常備回答を保存" in html and "判断と回答" in html
    assert "退却の戦闘結果:ユニットのヒット数が 1 以下 のとき代わりに追加ヒットを受ける" in _now(html), _now(html)
    assert "A retreat result" not in html and "take an extra hit instead" not in html


def test_vietnam_battles_offers_the_form_only_where_the_rules_take_an_answer(page_game):
    """VB (rules version 2): none in the VC's secret set-up (Snoopy's Nose); in The Boys of '67,
    which has none, the seat to move has the form at once, in the game's own words."""
    pg = page_game("vietnam-battles/snoopys_nose")
    pages = {seat: pg.page(seat) for seat in pg.seats}
    assert all('id="standing-answers"' in html for html in pages.values())
    assert not any('id="standing-form"' in html for html in pages.values())
    pg = page_game("vietnam-battles/boys67")
    html = pg.page("us")
    assert 'id="standing-form"' in html and "Support fire at a step of a battle: commit the strongest marker" in html
    assert 'id="standing-form"' not in pg.page("vc")


def test_the_end_of_the_game_shows_every_seats_standing_answers(page_game):
    pg = page_game()
    _set(pg, "belgium", choice="retreat hit")
    before = pg.page("germany")
    assert "take an extra hit instead, always" not in before
    for seat in ("belgium", "germany"):
        pg.act(seat, '{"type": "standard_setup"}')
        pg.act(seat, '{"type": "done_setup"}')
    pg.act("germany", '{"type": "end_movement"}')  # no battle: the game ends (AoB 3)
    for seat in ("germany", "spectator", "belgium"):
        html = pg.page(seat)
        assert "Belgium left these standing answers:" in html, seat
        assert "A retreat result: take an extra hit instead, always" in html, seat
        assert 'id="standing-form"' not in html


def test_up_front_shows_the_seats_conditional_turn_in_words_and_to_it_alone(page_game):
    """UP FRONT rules version 4 (CORE 11.2): a conditional turn left by the API or the act form
    stands among the seat's standing answers, in words; the other seat's page shows none of it."""
    import json

    pg = page_game("up-front/A")
    for seat in ("americans", "germans"):
        assert pg.act(seat, json.dumps({"type": "ready"})).status_code == 303
    page = pg.page("americans")
    for card in sorted(set(re.findall(r"UF\d{3}", page))):  # a card of the seat's hand (the refused are not)
        plan = {"type": "plan", "turns": [[{"type": "discard", "cards": [card]}]], "when": [["mine", "==", 0]]}
        if pg.act("americans", json.dumps(plan)).status_code == 303:
            break
    else:
        raise AssertionError("no card of the page was taken for a conditional turn")
    html = pg.page("americans")
    assert "My next turns, left ahead (a conditional turn): play them when the other side&#39;s turn ends as " \
           "foreseen, when my groups changed in the other side&#39;s turn is 0" in html
    turns = re.search(r'<ol class="plan-turns"><li>(.*?)</li></ol>', html, re.S)
    assert turns and turns.group(1).startswith("discard: ")  # its actions, in words, to it alone
    theirs = pg.page("germans")  # the public marker, never the plan's words
    assert "AMERICANS leaves a face-down conditional turn (when mine == 0)" in theirs
    assert "play them when the other side" not in theirs and "leaves a conditional turn: discard" not in theirs
    assert 'class="plan-turns"' not in theirs
