"""A duplicate league of Green Beret: Vietnam: every entrant's game starts from the same
committed seed on one dice stream, so the same choices meet the same dice; games are ranked by
the game's own score (victory_status, GBV 5.0) and the bundle verifies."""

from __future__ import annotations

import pytest

from tests.tournaments.conftest import Desk
from warlog.tournaments.bundle import verify_bundle

API = "/api/v1/tournaments"


@pytest.mark.slow
def test_duplicate_games_share_seed_and_dice_and_rank_by_score(desk: Desk) -> None:
    desk.player("Director")
    for name in ("Ann", "Bob", "Cid"):
        desk.player(name)
    t = desk.post(API, "Director", {"name": "GBV league", "game": "green-beret-vietnam",
                                    "format": {"kind": "duplicate", "rounds": 1}}, status=201)
    tid = t["id"]
    for name in ("Ann", "Bob", "Cid"):
        desk.post(f"{API}/{tid}/register", name)
    doc = desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    games = [g for g in doc["games"] if g["round"] == 1]
    assert len(games) == 3
    store = desk.app.extensions["warlog"].store
    created = [store.read(g["game_id"], upto=0)[0].payload for g in games]
    assert len({c["seed_commitment"] for c in created}) == 1
    assert len({c["dice_stream"] for c in created}) == 1
    assert doc["rounds_list"][0]["game_seed_commitment"] == created[0]["seed_commitment"]
    started = [next(e for e in store.read(g["game_id"]) if e.type == "game_started").payload for g in games]
    assert len({s["state_hash"] for s in started}) == 1 and len({str(s["dice"]) for s in started}) == 1
    # The same first choice in two games meets the same dice.
    dice = []
    for g in games[:2]:
        who = desk.name(g["seats"]["player"]["player_id"])
        acts = desk.client.get(f"/api/v1/games/{g['game_id']}/actions", headers=desk.auth(who)).get_json()
        assert acts["actions"], acts
        r = desk.client.post(f"/api/v1/games/{g['game_id']}/moves", headers=desk.auth(who),
                             json={"action": acts["actions"][0], "expected_seq": acts["expected_seq"],
                                   "idempotency_key": "k1"})
        assert r.status_code == 202, r.get_json()
        desk.drain()
        move = desk.client.get(f"/api/v1/games/{g['game_id']}/moves/{r.get_json()['seq']}",
                               headers=desk.auth(who)).get_json()
        assert move["status"] == "resolved", move
        dice.append([d["value"] for d in move["dice"]])
    assert dice[0] == dice[1]
    # Another entrant's seat refuses a player who does not own it.
    other = desk.name(games[1]["seats"]["player"]["player_id"])
    r = desk.client.get(f"/api/v1/games/{games[0]['game_id']}/actions", headers=desk.auth(other))
    assert r.status_code == 403
    for g in games:
        desk.post(f"{API}/{tid}/games/{g['game_id']}/adjudicate", "Director",
                  {"decision": "end", "reason": "the league's deadline"}, status=202)
    desk.drain()
    ended = desk.post(f"{API}/{tid}/end", "Director")
    assert all(g["result"]["score"] is not None for g in ended["games"])
    assert [s["rank"] for s in ended["standings"]] == [1, 1, 1]  # the same position: tied on score
    bundle = desk.client.get(f"{API}/{tid}/export").get_data()
    report = verify_bundle(bundle.splitlines(keepends=True))
    assert report.results == 3 and report.seed_revealed


def _move(desk: Desk, game_id: str, who: str, action: object, key: str) -> dict[str, object]:
    acts = desk.client.get(f"/api/v1/games/{game_id}/actions", headers=desk.auth(who)).get_json()
    r = desk.client.post(f"/api/v1/games/{game_id}/moves", headers=desk.auth(who),
                         json={"action": action, "expected_seq": acts["expected_seq"], "idempotency_key": key})
    assert r.status_code == 202, r.get_json()
    desk.drain()
    move = desk.client.get(f"/api/v1/games/{game_id}/moves/{r.get_json()['seq']}", headers=desk.auth(who)).get_json()
    assert isinstance(move, dict)
    return move


@pytest.mark.slow
def test_refused_moves_do_not_shift_a_duplicate_games_dice(desk: Desk) -> None:
    """The attack (duplicate fairness): an entrant who has watched another entrant's game
    sends refused moves to move their next accepted move to another ledger position, hoping to meet
    other dice. Duplicate games key their dice by judgement number (ledger.dice step 8), so the
    accepted move meets the same dice however many refusals came before it; and the bundle verifies."""
    desk.player("Director")
    for name in ("Ann", "Bob"):
        desk.player(name)
    tid = desk.post(API, "Director", {"name": "GBV league", "game": "green-beret-vietnam",
                                      "format": {"kind": "duplicate", "rounds": 1}}, status=201)["id"]
    for name in ("Ann", "Bob"):
        desk.post(f"{API}/{tid}/register", name)
    games = [g for g in desk.post(f"{API}/{tid}/rounds", "Director", status=201)["games"] if g["round"] == 1]
    store = desk.app.extensions["warlog"].store
    assert all(store.read(g["game_id"], upto=0)[0].payload["dice_key"] == "judgement" for g in games)
    (ga, a), (gb, b) = [(g["game_id"], desk.name(g["seats"]["player"]["player_id"])) for g in games]
    # The attacker sends refused moves first: each is judged (a `rejected` event in the ledger).
    for i in range(3):
        refused = _move(desk, gb, b, {"type": "abandon"}, f"probe{i}")
        assert refused["status"] == "rejected", refused
    first = desk.client.get(f"/api/v1/games/{ga}/actions", headers=desk.auth(a)).get_json()["actions"][0]
    honest, attacker = _move(desk, ga, a, first, "k1"), _move(desk, gb, b, first, "k1")
    assert honest["status"] == attacker["status"] == "resolved"
    assert int(attacker["seq"]) > int(honest["seq"])  # another ledger position ...
    assert honest["dice"] and attacker["dice"] == honest["dice"]  # ... and the same dice
    for g in games:
        desk.post(f"{API}/{tid}/games/{g['game_id']}/adjudicate", "Director",
                  {"decision": "end", "reason": "the league's deadline"}, status=202)
    desk.drain()
    desk.post(f"{API}/{tid}/end", "Director")
    report = verify_bundle(desk.client.get(f"{API}/{tid}/export").get_data().splitlines(keepends=True))
    assert report.results == 2 and report.seed_revealed
    # The dice audit re-derives every die of both games on their judgement keys too.
    from warlog.trust.audit import build

    for gid in (ga, gb):
        audit = build(store.read(gid), lambda sub: "")
        assert audit.dice and all(d.rederived for d in audit.dice), [d for d in audit.dice if not d.rederived]
