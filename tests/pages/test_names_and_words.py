"""The words the pages show: each game's own seat names ("US", "VC",
"Germany", never "Us"/"Vc"/"germany"), the scenario in the title, results by seat name,
English in the interface (the rulebook's Japanese term left out of an engine text), one
event row per move, "1 die" / "N dice"."""

from __future__ import annotations

import re

from rules import get_game
from warlog.games import replay as rp
from warlog.render import seat_label


def test_each_game_names_its_seats() -> None:
    vb, aob, gbv = get_game("vietnam-battles"), get_game("assault-on-belgium"), get_game("green-beret-vietnam")
    assert [rp.seat_name(s, vb) for s in ("us", "vc")] == ["US", "VC"]
    assert [rp.seat_name(s, aob) for s in ("germany", "belgium")] == ["Germany", "Belgium"]
    assert rp.seat_name("player", gbv) == "Player"
    assert rp.seat_name("director", vb) == "Director" and rp.seat_name(None, vb) == "Server"
    assert seat_label("vietnam-battles", "us") == "US" and seat_label(None, "side_a") == "Side a"


def test_titles_name_the_scenario_not_another_one() -> None:
    name, scenario = rp.titles(get_game("vietnam-battles"), "boys67")
    assert name == "Vietnam Battles" and scenario.startswith("The Boys of '67")
    assert rp.titles(get_game("assault-on-belgium"), "may-1940") == ("Assault on Belgium", "May 1940")


def test_results_use_the_seat_names() -> None:
    vb = get_game("vietnam-battles")
    assert rp.result_text("vc victory", vb) == "VC victory"
    assert rp.result_text("germany wins", get_game("assault-on-belgium")) == "Germany wins"
    assert rp.result_text("draw", vb) == "Draw"
    assert rp.result_text("us_win", get_game("lock-n-load")) == "US win"  # ids joined by "_" too


def test_a_bare_win_names_the_winner() -> None:
    """UP FRONT's outcome is {"result": "win", "winner": <seat>} (UF C.6, CORE 10): the heading
    says who won, not just "Win"; a result that already names a side is left as it is."""
    uf = get_game("up-front")
    assert rp.result_text("win", uf, "germans") == "Germans win"
    assert rp.result_text("win", get_game("assault-on-belgium"), "germany") == "Germany wins"
    assert rp.result_text("draw", uf, None) == "Draw"
    assert rp.result_text("vc victory", get_game("vietnam-battles"), "vc") == "VC victory"
    assert rp.result_text("decisive victory", get_game("vietnam-battles"), "us") == "Decisive victory (US)"


def test_the_interface_is_in_english() -> None:
    """GBV 5.0's level names come with the rulebook's Japanese in the engine's text
    ("Court-martial (軍法会議)"); the pages show the English alone."""
    assert rp.english("Net -12: Court-martial (軍法会議).") == "Net -12: Court-martial."
    assert rp.english("Game over: x. Net 3: Promotion（昇任）") == "Game over: x. Net 3: Promotion"
    assert rp.english("moves 1706 → Liège (1606) (1 MP)") == "moves 1706 → Liège (1606) (1 MP)"
    row = rp.event_row({"seq": 9, "type": "resolved", "seat": "player", "payload": {
        "submission_seq": 8, "seat": "player", "dice": [], "rules": ["GBV 5.0"],
        "facts": [{"kind": "victory", "text": "Net -12: Court-martial (軍法会議).", "rule": "GBV 5.0"}]}},
        get_game("green-beret-vietnam"))
    assert row.facts[0]["text"] == "Net -12: Court-martial." and row.steps == (8, 9)


def test_one_row_per_move(page_game) -> None:
    pg = page_game()
    pg.act("belgium", '{"type": "standard_setup"}')
    pg.act("belgium", '{"type": "done_setup"}')
    for path in ("", "/replay/5"):
        html = pg.page("spectator", path)
        assert 'class="ev ev-submitted' not in html, path  # the judgement's row stands for its submission
        assert len(re.findall(r'class="ev ev-resolved', html)) == 2
    html = pg.page("spectator", "/replay/4")  # the submission's step: its judgement's row is the current one
    assert 'class="ev ev-resolved by-belgium current" id="ev-5" data-submission="4"' in html


def test_dice_are_counted_in_english(page_game) -> None:
    pg = page_game()
    html = pg.page("spectator", "/audit")
    n = int(re.search(r'id="dice-check">(\d+) ', html).group(1))
    assert f"{n} {'die' if n == 1 else 'dice'} recorded" in html
    assert 'id="install-cmd">pip install /' in html and "<code>pip install warlog</code> from" not in html


def test_the_live_panel_answers_at_once_for_what_is_not_a_waiting_move(page_game) -> None:
    """The play page's in-place update (`/games/{id}/live`): a panel, or a judgement; an event
    that is not a submission is not waited for, and is a clear 404, not a hang or a 500."""
    pg = page_game()
    client = pg.seats["belgium"]
    r = client.get(f"/games/{pg.id}/live")
    assert r.status_code == 200 and 'id="play-root"' in r.get_data(as_text=True)
    assert "<html" not in r.get_data(as_text=True)  # the panel alone, not the page
    r = client.get(f"/games/{pg.id}/live?last=0&wait=1&panel=0", headers={"Accept": "application/json"})
    assert r.status_code == 404 and "not a submission" in r.get_json()["error"]
    pg.act("belgium", '{"type": "standard_setup"}')
    seq = pg.spectator.get(f"/api/v1/games/{pg.id}").get_json()["seq"] - 1
    r = client.get(f"/games/{pg.id}/live?last={seq}&wait=1&panel=0", headers={"Accept": "application/json"})
    assert r.status_code == 200 and r.get_json()["status"] == "resolved"
    assert client.get(f"/games/{pg.id}/live?last=x").status_code == 400


def test_the_lobby_names_seats_as_their_games_do(page_game) -> None:
    pg = page_game("vietnam-battles/boys67")
    html = pg.seats["us"].get("/").get_data(as_text=True)
    assert '<span class="seat seat-us">US</span>' in html and ">Us<" not in html
    assert "(US vs VC)" in html and "(Germany vs Belgium)" in html
