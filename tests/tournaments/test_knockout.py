"""Single elimination as a format of its own, through the API: seeds by rating (OpenSkill), byes
for a field that is not a power of two (to the top seeds), standard bracket places (1 and 2 meet
only in the final), winners paired round by round, a draw sending the better seed through, a
third-place game, the champion, standings by the stage reached, and the bundle re-verified."""

from __future__ import annotations

from typing import Any

from tests.tournaments.conftest import Desk
from warlog.tournaments.bundle import verify_bundle
from warlog.tournaments.knockout import bracket_places, bracket_rounds, first_matches

API = "/api/v1/tournaments"


def test_bracket_places_keep_the_top_seeds_apart() -> None:
    assert bracket_places(2) == [1, 2]
    assert bracket_places(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert [bracket_rounds(n) for n in (2, 3, 4, 5, 8, 9)] == [1, 2, 2, 3, 3, 4]
    # six seeds in a bracket of eight: the two missing places are the byes of seeds 1 and 2
    assert first_matches(list("abcdef")) == [["a", None], ["d", "e"], ["b", None], ["c", "f"]]


def _award(desk: Desk, tid: str, g: dict[str, Any], winner: str | None) -> None:
    decision = "draw" if winner is None else "win"
    desk.post(f"{API}/{tid}/games/{g['game_id']}/adjudicate", "Director",
              {"decision": decision, "winner": winner, "reason": "test award"}, status=202)


def _round(desk: Desk, tid: str) -> list[dict[str, Any]]:
    doc = desk.get(f"{API}/{tid}")
    return [g for g in doc["games"] if g["round"] == doc["round"]]


def _players(g: dict[str, Any]) -> set[str]:
    return {s["player_id"] for s in g["seats"].values()}


def test_knockout_seeded_by_rating_runs_to_its_final_and_third_place(desk: Desk) -> None:
    desk.player("Director")
    names = ("Ann", "Bob", "Cid", "Dee", "Fay", "Gus")
    for name in names:
        desk.player(name)
    # A warm-up gives Fay a rating above everyone's and Gus one below (the others have none: 0).
    warm = desk.post(API, "Director", {"name": "Warm-up", "game": "assault-on-belgium",
                                       "format": {"kind": "knockout"}}, status=201)
    for name in ("Fay", "Gus"):
        desk.post(f"{API}/{warm['id']}/register", name)
    desk.post(f"{API}/{warm['id']}/rounds", "Director", status=201)
    assert desk.get(f"{API}/{warm['id']}")["rounds"] == 1
    _award(desk, warm["id"], _round(desk, warm["id"])[0], desk.ids["Fay"])
    desk.drain()
    assert desk.post(f"{API}/{warm['id']}/end", "Director")["champion"] == desk.ids["Fay"]

    t = desk.post(API, "Director", {"name": "Cup", "game": "assault-on-belgium",
                                    "format": {"kind": "knockout", "seeding": "rating", "third_place": True},
                                    "entry": {"description": "A cup for six.", "max_entrants": 6}}, status=201)
    tid = t["id"]
    assert t["format"]["kind"] == "knockout" and t["entry"]["max_entrants"] == 6
    for name in names:
        desk.post(f"{API}/{tid}/register", name)
    desk.player("Hal")
    assert "full" in desk.post(f"{API}/{tid}/register", "Hal", status=409)["error"]

    r1 = desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    assert r1["rounds"] == 3  # six entrants: a bracket of eight
    seeds = r1["rounds_list"][0]["knockout"]["seeds"]
    ratings = r1["rounds_list"][0]["seed_ratings"]
    assert seeds[0] == desk.ids["Fay"] and seeds[-1] == desk.ids["Gus"], "seeded by rating, best first"
    assert ratings[desk.ids["Fay"]] > 0 > ratings[desk.ids["Gus"]]
    assert sorted(r1["rounds_list"][0]["byes"]) == sorted(seeds[:2]), "the byes go to the top seeds"
    games = _round(desk, tid)
    assert [_players(g) for g in games] == [{seeds[3], seeds[4]}, {seeds[2], seeds[5]}]
    desk.post(f"{API}/{tid}/rounds/1/repair", "Director", {"pairings": [], "byes": [], "reason": "x"}, status=409)

    _award(desk, tid, games[0], seeds[4])  # seed 5 beats seed 4
    _award(desk, tid, games[1], None)  # a draw: seed 3, the better seed, goes through
    desk.drain()
    desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    semis = _round(desk, tid)
    assert [_players(g) for g in semis] == [{seeds[0], seeds[4]}, {seeds[1], seeds[2]}]
    _award(desk, tid, semis[0], seeds[0])
    _award(desk, tid, semis[1], seeds[2])
    desk.drain()
    desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    final, third = _round(desk, tid)
    assert _players(final) == {seeds[0], seeds[2]} and _players(third) == {seeds[4], seeds[1]}
    desk.post(f"{API}/{tid}/rounds", "Director", status=409)  # the bracket is complete
    _award(desk, tid, final, seeds[2])
    _award(desk, tid, third, seeds[4])
    desk.drain()
    doc = desk.get(f"{API}/{tid}")
    assert doc["champion"] == seeds[2]
    bracket = doc["bracket"]
    assert [len(c) for c in bracket["columns"]] == [4, 2, 1]
    assert [p["won"] for p in bracket["columns"][2][0]["players"]].count(True) == 1
    assert bracket["third_place"]["players"][0]["player_id"] in (seeds[4], seeds[1])

    ended = desk.post(f"{API}/{tid}/end", "Director")
    order = [line["player_id"] for line in ended["standings"]]
    assert order[:3] == [seeds[2], seeds[0], seeds[4]], "champion, finalist, third-place winner"
    assert ended["standings"][0]["rank"] == 1 and ended["tiebreaks"] == ["stage"]
    report = verify_bundle(desk.client.get(f"{API}/{tid}/export").get_data().splitlines(keepends=True))
    assert report.rounds == 3 and report.seed_revealed


def test_a_withdrawn_winner_gives_a_walkover_and_the_bracket_still_ends() -> None:
    from tests.tournaments.memory import Stream
    from warlog.tournaments import events as T
    from warlog.tournaments.knockout import champion, stages
    from warlog.tournaments.pairing import rounds_planned

    s = Stream("knockout", ["germany", "belgium"])
    s.register("a", "b", "c", "d")
    first = s.pair()
    assert rounds_planned(s.t) == 2 and len(first["pairings"]) == 2 and not first["byes"]
    winners = []
    for q in first["pairings"]:
        winner = next(iter(q["seats"].values()))
        winners.append(winner)
        s.result(q["game_id"], winner)
    s.add(T.WITHDRAWN, {"player_id": winners[1], "reason": "moved abroad"})
    final = s.pair()
    assert final["pairings"] == [] and final["knockout"]["matches"] == [[winners[0], None]]
    assert s.t.round_complete(2) and champion(s.t) == winners[0]
    assert stages(s.t)[winners[0]] == 4 and stages(s.t)[winners[1]] == 2


def test_seeding_by_rating_orders_a_swiss_and_replays_from_the_recorded_ratings() -> None:
    import pytest

    from tests.tournaments.memory import SEED, Stream
    from warlog.tournaments.pairing import PairingDice, PairingError, pair_next

    s = Stream("swiss", ["germany", "belgium"], rounds=2, seeding="rating")
    s.register("a", "b", "c", "d")
    with pytest.raises(PairingError, match="ratings"):
        pair_next(s.t, PairingDice(SEED, s.id, len(s.events)))
    ratings = {"a": -500, "b": 2500, "c": 0, "d": 7100}
    proposal = pair_next(s.t, PairingDice(SEED, s.id, len(s.events)), ratings)
    assert proposal.extra["order"] == ["d", "b", "c", "a"], "pairing numbers follow the ratings, best first"
    assert proposal.extra["seed_ratings"] == ratings
    tops = {frozenset(p.players()) for p in proposal.pairings}
    assert tops == {frozenset({"d", "c"}), frozenset({"b", "a"})}, "FIDE round 1: the top half meets the bottom half"
    again = pair_next(s.t, PairingDice(None, s.id, len(s.events), proposal.dice), proposal.extra["seed_ratings"])
    assert again.extra == proposal.extra


def test_a_final_by_walkover_ends_the_event_through_the_api(desk: Desk) -> None:
    desk.player("Director")
    for name in ("Ann", "Bob", "Cid", "Dee"):
        desk.player(name)
    tid = desk.post(API, "Director", {"name": "Short cup", "game": "assault-on-belgium",
                                      "format": {"kind": "knockout"}}, status=201)["id"]
    for name in ("Ann", "Bob", "Cid", "Dee"):
        desk.post(f"{API}/{tid}/register", name)
    desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    semis = _round(desk, tid)
    winners = [next(iter(g["seats"].values()))["player_id"] for g in semis]
    for g, w in zip(semis, winners):
        _award(desk, tid, g, w)
    desk.drain()
    desk.post(f"{API}/{tid}/withdraw", desk.name(winners[1]))
    doc = desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    assert [g for g in doc["games"] if g["round"] == 2] == [] and doc["champion"] == winners[0]
    from tests.players.conftest import settle

    settle(desk.app)
    done = desk.app.extensions["warlog_notifier"].outbox(to="director@example.org")
    assert any("round 2 is complete" in m["subject"] for m in done), [m["subject"] for m in done]
    assert desk.post(f"{API}/{tid}/end", "Director")["standings"][0]["player_id"] == winners[0]
