"""A director's manual re-pairing (recorded with its reason; tables kept keep their game) and a
withdrawal (never paired again); both re-derive in the bundle."""

from __future__ import annotations

from tests.tournaments.conftest import Desk
from tests.tournaments.test_swiss_flow import _finish_round, _setup
from warlog.tournaments.bundle import verify_bundle

API = "/api/v1/tournaments"


def test_repair_then_withdraw_then_verify(desk: Desk) -> None:
    tid = _setup(desk)["id"]
    r1 = desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    games = [g for g in r1["games"] if g["round"] == 1]
    a, b = (list(g["seats"].values()) for g in games)
    roles = list(games[0]["seats"])
    swapped = [{"seats": {roles[0]: a[0]["player_id"], roles[1]: b[0]["player_id"]}},
               {"seats": {roles[0]: b[1]["player_id"], roles[1]: a[1]["player_id"]}}]
    # A reason is required, every entrant placed once, only the director.
    desk.post(f"{API}/{tid}/rounds/1/repair", "Director", {"pairings": swapped, "reason": " "}, status=422)
    desk.post(f"{API}/{tid}/rounds/1/repair", "Director", {"pairings": swapped[:1], "reason": "x"}, status=422)
    desk.post(f"{API}/{tid}/rounds/1/repair", "Ann", {"pairings": swapped, "reason": "x"}, status=403)
    doc = desk.post(f"{API}/{tid}/rounds/1/repair", "Director",
                    {"pairings": swapped, "reason": "Ann and Cid asked not to meet: same club"})
    new_games = [g for g in doc["games"] if g["round"] == 1]
    assert {g["game_id"] for g in new_games}.isdisjoint({g["game_id"] for g in games})
    assert doc["rounds_list"][0]["repaired"].startswith("Ann and Cid")
    desk.drain()  # the replaced games are ended by a ruling, counting for nothing
    store = desk.app.extensions["warlog"].store
    assert all(store.summary(g["game_id"]).status == "ended" for g in games)
    _finish_round(desk, tid, [("win", 0), ("win", 1)])
    # Dee withdraws; round 2 pairs the three others (one bye).
    desk.post(f"{API}/{tid}/withdraw", "Dee", {"reason": "moving house"})
    r2 = desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    round2 = [g for g in r2["games"] if g["round"] == 2]
    placed = [s["player_id"] for g in round2 for s in g["seats"].values()] + r2["rounds_list"][1]["byes"]
    assert sorted(placed) == sorted(desk.ids[n] for n in ("Ann", "Bob", "Cid"))
    _finish_round(desk, tid, [("draw", None)])
    ended = desk.post(f"{API}/{tid}/end", "Director")
    assert any(s["withdrawn"] for s in ended["standings"])
    report = verify_bundle(desk.client.get(f"{API}/{tid}/export").get_data().splitlines(keepends=True))
    assert report.rounds == 2 and report.results == 3
