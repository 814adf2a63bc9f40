"""A scenario's mountain terrain type (UFM 9, 11.e): scenario M is "「山肌がみえる山々」地勢だけ"
(Bare mountains only), so a game of M in Forested mountains is refused when it is created —
through the API a clear 422, never a game recorded as Forested that plays Bare."""

from __future__ import annotations

from pathlib import Path

from tests.tournaments.conftest import desk, tapp  # noqa: F401 (the tournament desk's fixtures)

SEED = (Path(__file__).parents[1] / "fixtures" / "rulebooks" / "up-front-mountains.seed-excerpt.txt").read_text(
    encoding="utf-8")


def test_the_seed_makes_m_bare_only():
    m = SEED[SEED.index("シナリオM("):SEED.index("シナリオN(")]
    assert "このシナリオは「山肌がみえる山々」地勢だけが使える" in m


def test_m_in_forested_mountains_is_refused_with_a_422(client):
    r = client.post("/api/v1/games", json={"game": "up-front", "scenario": "M",
                                           "options": {"terrain_type": "forested"}})
    assert r.status_code == 422, r.get_json()
    body = r.get_json()
    assert "scenario M is played in bare mountains only" in str(body)
    assert "forested" in str(body) and "UFM" in str(body)


def test_m_in_bare_and_a_in_forested_mountains_are_created(client):
    for scenario, terrain in (("M", "bare"), ("A", "forested")):
        r = client.post("/api/v1/games", json={"game": "up-front", "scenario": scenario,
                                               "options": {"terrain_type": terrain}})
        assert r.status_code == 201, r.get_json()


def test_a_tournament_of_m_in_forested_mountains_is_refused(desk):
    desk.player("Director")
    body = desk.post("/api/v1/tournaments", "Director", {"name": "Forested M", "game": "up-front", "scenario": "M",
                                                         "options": {"terrain_type": "forested"},
                                                         "format": {"kind": "swiss", "rounds": 1}}, status=422)
    assert "scenario M is played in bare mountains only" in str(body)
