"""What the public tournament page shows: answered disputes and the director's own rulings, with
their words held back while a game that keeps hidden information runs; a champion banner once
the event has ended; a pools crosstable of the pool rounds alone (the playoff is apart); a
duplicate's standings without a meaningless W-D-L and its score as "1–0"."""

from __future__ import annotations

from tests.tournaments.conftest import Desk
from tests.tournaments.memory import Stream
from tests.tournaments.test_pairing import ROLES, _play_round
from warlog.tournaments.bracket_svg import bracket_svg
from warlog.tournaments.knockout import playoff_bracket_doc
from warlog.tournaments.standings import crosstable
from warlog.tournaments.web import score_text

API = "/api/v1/tournaments"


def _two(desk: Desk, game: str, name: str) -> tuple[str, dict]:
    for who in ("Director", "Ann", "Bob"):
        if who not in desk.ids:
            desk.player(who)
    t = desk.post(API, "Director", {"name": name, "game": game, "format": {"kind": "swiss", "rounds": 1}},
                  status=201)
    for who in ("Ann", "Bob"):
        desk.post(f"{API}/{t['id']}/register", who)
    g = desk.post(f"{API}/{t['id']}/rounds", "Director", status=201)["games"][0]
    return t["id"], g


def _dispute_and_dismiss(desk: Desk, tid: str, g: dict) -> None:
    ann_plays = desk.ids["Ann"] in {s["player_id"] for s in g["seats"].values()}
    opened = desk.post(f"{API}/{tid}/disputes", "Ann" if ann_plays else "Bob",
                       {"game_id": g["game_id"], "seq": 0, "text": "my hidden card was revealed"}, status=201)
    desk.post(f"{API}/{tid}/disputes/{opened['dispute']}", "Director",
              {"decision": "dismiss", "text": "the card was played, not revealed"})


def test_answered_disputes_are_held_back_while_a_game_that_hides_something_runs(desk: Desk) -> None:
    # every two-seat game keeps something hidden now (Assault on Belgium's standing answers are
    # secret from its rules version 2 on): a dispute's words are public once its game has ended
    for game in ("assault-on-belgium", "up-front"):
        tid, g = _two(desk, game, f"Hidden info {game}")
        _dispute_and_dismiss(desk, tid, g)
        html = desk.client.get(f"/tournaments/{tid}").get_data(as_text=True)
        assert "my hidden card was revealed" not in html and "the card was played, not revealed" not in html
        assert f"shown once game {g['game_id']} has ended" in html
        public = desk.get(f"{API}/{tid}")["disputes"][0]  # the API holds the words back too, but the director's
        assert "withheld until game" in public["text"] and "withheld until game" in public["answer"]["text"]
        mine = desk.client.get(f"{API}/{tid}", headers=desk.auth("Director")).get_json()["disputes"][0]
        assert mine["text"] == "my hidden card was revealed"
        desk.post(f"{API}/{tid}/games/{g['game_id']}/adjudicate", "Director",
                  {"decision": "draw", "reason": "agreed"}, status=202)
        desk.drain()
        html = desk.client.get(f"/tournaments/{tid}").get_data(as_text=True)
        assert "my hidden card was revealed" in html, "the game has ended: the words are shown"
        assert "the card was played, not revealed" in html and "Dismissed</strong> by Director" in html
        assert desk.get(f"{API}/{tid}")["disputes"][0]["text"] == "my hidden card was revealed"


def test_a_ruling_of_the_directors_own_is_listed_and_the_champion_is_named(desk: Desk) -> None:
    tid, g = _two(desk, "assault-on-belgium", "Ruled")
    first = next(iter(g["seats"]))
    desk.post(f"{API}/{tid}/games/{g['game_id']}/rulings", "Director", {
        "ruling": {"kind": "award", "winner": first, "result": f"{first} wins (conceded)"},
        "text": "the other side conceded by mail"}, status=202)
    desk.drain()
    html = desk.client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert 'id="rulings"' in html and "the other side conceded by mail" in html and "by Director" in html
    assert 'id="champion"' not in html, "no banner before the end"
    desk.post(f"{API}/{tid}/end", "Director")
    html = desk.client.get(f"/tournaments/{tid}").get_data(as_text=True)
    winner = g["seats"][first]["name"]
    banner = html[html.index('id="champion"'):]
    assert banner[:banner.index("</section>")].count(winner) == 1


def test_a_pools_crosstable_leaves_the_playoff_out_and_the_playoff_is_drawn() -> None:
    s = Stream("pools", ROLES, pools=2, playoff=2)
    s.register(*[f"p{i}" for i in range(8)])
    for _ in range(3):
        _play_round(s, s.pair(), "first")
    semis = s.pair()  # the playoff's semi-finals
    doc = playoff_bracket_doc(s.t)
    assert doc is not None and [len(c) for c in doc["columns"]] == [2, 1] and doc["champion"] is None
    _play_round(s, semis, "first")
    table = crosstable(s.t)
    assert table["rounds"] == [1, 2, 3] and all(len(row["cells"]) == 3 for row in table["rows"])
    final = s.pair()
    _play_round(s, final, "second")
    doc = playoff_bracket_doc(s.t)
    winner = list(final["pairings"][0]["seats"].values())[1]
    assert doc is not None and doc["champion"] == winner
    assert [p["player_id"] for p in doc["columns"][1][0]["players"] if p["won"]] == [winner]
    assert str(bracket_svg(doc)).count('class="match"') == 3 and winner.upper() in str(bracket_svg(doc))


def test_a_duplicate_shows_games_played_and_a_readable_score(desk: Desk) -> None:
    assert score_text([1, 0]) == "1–0" and score_text(None) == ""
    desk.player("Director")
    desk.player("Ann")
    t = desk.post(API, "Director", {"name": "Solo", "game": "green-beret-vietnam",
                                    "format": {"kind": "duplicate", "rounds": 1}}, status=201)
    desk.post(f"{API}/{t['id']}/register", "Ann")
    g = desk.post(f"{API}/{t['id']}/rounds", "Director", status=201)["games"][0]
    desk.post(f"{API}/{t['id']}/games/{g['game_id']}/adjudicate", "Director",
              {"decision": "end", "reason": "scored as it stands"}, status=202)
    desk.drain()
    html = desk.client.get(f"/tournaments/{t['id']}").get_data(as_text=True)
    assert "<th>Played</th>" in html and "W-D-L" not in html
    assert "score [" not in html and "score " in html
