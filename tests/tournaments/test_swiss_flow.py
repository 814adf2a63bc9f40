"""A small Swiss tournament through the API on both ledgers: registration, provable pairings with
no repeat and sides balanced, adjudicated results (an `award` ruling in each game, then the
tournament's result naming the game's final event), standings with Buchholz and
Sonneborn-Berger, the end with the pairing seed revealed, and the bundle re-verified — and
refused, naming the event, once a result in it is changed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ledger.canonical import canonical_bytes, sha256_hex
from tests.tournaments.conftest import Desk
from warlog.tournaments.bundle import verify_bundle
from warlog.trust.verify import VerifyFailure

API = "/api/v1/tournaments"


def _setup(desk: Desk) -> dict[str, Any]:
    desk.player("Director")
    for name in ("Ann", "Bob", "Cid", "Dee"):
        desk.player(name)
    t = desk.post(API, "Director", {"name": "Spring Swiss", "game": "assault-on-belgium",
                                    "format": {"kind": "swiss", "rounds": 2}}, status=201)
    for name in ("Ann", "Bob", "Cid", "Dee"):
        desk.post(f"{API}/{t['id']}/register", name)
    return t


def _finish_round(desk: Desk, tid: str, decisions: list[tuple[str, int | None]]) -> dict[str, Any]:
    doc = desk.get(f"{API}/{tid}")
    games = [g for g in doc["games"] if g["round"] == doc["round"]]
    for g, (decision, seat_index) in zip(games, decisions):
        seats = list(g["seats"].values())
        winner = seats[seat_index]["player_id"] if seat_index is not None else None
        desk.post(f"{API}/{tid}/games/{g['game_id']}/adjudicate", "Director",
                  {"decision": decision, "winner": winner, "reason": "test award"}, status=202)
    desk.drain()
    return desk.get(f"{API}/{tid}")


@pytest.mark.slow
def test_swiss_two_rounds_pairs_records_ranks_and_verifies(desk: Desk) -> None:
    t = _setup(desk)
    tid = t["id"]
    # Only the director pairs; a player asking is refused with a clear 403.
    desk.post(f"{API}/{tid}/rounds", "Ann", status=403)
    r1 = desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    games1 = [g for g in r1["games"] if g["round"] == 1]
    assert len(games1) == 2
    seated = sorted(s["player_id"] for g in games1 for s in g["seats"].values())
    assert seated == sorted(desk.ids[n] for n in ("Ann", "Bob", "Cid", "Dee"))
    # The seats belong to the paired players (warlog.players) and the games are running.
    owners = desk.app.extensions["warlog_players"].owners(games1[0]["game_id"])
    assert sorted(owners.values()) == sorted(s["player_id"] for s in games1[0]["seats"].values())
    assert all(g["status"] == "active" for g in games1)
    assert r1["rounds_list"][0]["dice"], "the starting order is drawn by provable dice"
    # Round 2 cannot be paired before round 1 has every result.
    desk.post(f"{API}/{tid}/rounds", "Director", status=409)
    doc = _finish_round(desk, tid, [("win", 0), ("win", 1)])
    assert all(g["result"] and g["result"]["how"] == "adjudicated" for g in doc["games"])
    r2 = desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    games2 = [g for g in r2["games"] if g["round"] == 2]
    met1 = {frozenset(s["player_id"] for s in g["seats"].values()) for g in games1}
    met2 = {frozenset(s["player_id"] for s in g["seats"].values()) for g in games2}
    assert not met1 & met2, "no repeat pairing (FIDE Dutch, C.04.1 b)"
    roles = {}
    for g in games1 + games2:
        for role, s in g["seats"].items():
            roles.setdefault(s["player_id"], []).append(role)
    assert all(sorted(v) == ["belgium", "germany"] for v in roles.values()), roles  # sides balanced
    doc = _finish_round(desk, tid, [("draw", None), ("forfeit", 0)])
    hows = sorted(g["result"]["how"] for g in doc["games"] if g["round"] == 2)
    assert hows == ["adjudicated", "forfeit"]
    # Until the end the bundle (every game's full ledger) is the director's alone.
    assert desk.client.get(f"{API}/{tid}/export").status_code == 403
    assert desk.client.get(f"{API}/{tid}/export", headers=desk.auth("Ann")).status_code == 403
    assert desk.client.get(f"{API}/{tid}/export", headers=desk.auth("Director")).status_code == 200
    ended = desk.post(f"{API}/{tid}/end", "Director")
    assert ended["status"] == "ended" and ended["seed"]
    points = {s["player_id"]: s["points"] for s in ended["standings"]}
    assert sum(points.values()) == 4 * 2 * 1 + 0  # every game hands out a win's points (2) in total
    top = ended["standings"][0]
    assert top["rank"] == 1 and set(top["tiebreaks"]) == {"buchholz", "sonneborn_berger"}
    only = desk.get(f"{API}/{tid}?round=1")["games"]
    assert len(only) == 2 and {g["round"] for g in only} == {1}
    assert desk.client.get(f"{API}/{tid}?round=x").status_code == 400
    # A tournament page and the desk render; the list pages it.
    assert desk.client.get(f"/tournaments/{tid}").status_code == 200
    listed = desk.get(API)
    assert [row["id"] for row in listed["tournaments"]] == [tid]

    bundle = desk.client.get(f"{API}/{tid}/export").get_data()
    report = verify_bundle(bundle.splitlines(keepends=True))
    assert report.rounds == 2 and report.results == 4 and report.seed_revealed and len(report.games) == 4
    _tampered_result_is_named(bundle)


def _rechain(lines: list[bytes], stream: str) -> list[bytes]:
    """Re-hash a changed stream so that its chain is intact again: only the re-derivation can tell."""
    out, prev = [], "0" * 64
    for raw in lines:
        doc = json.loads(raw)
        if isinstance(doc, dict) and doc.get("game_id") == stream:
            doc["prev_hash"] = prev
            body = {k: v for k, v in doc.items() if k != "hash"}
            doc["hash"] = prev = sha256_hex(canonical_bytes(body))
            raw = canonical_bytes(doc) + b"\n"
        out.append(raw)
    return out


def _tampered_result_is_named(bundle: bytes) -> None:
    lines = bundle.splitlines(keepends=True)
    tid = json.loads(lines[0])["tournament"]
    for i, raw in enumerate(lines[1:], start=1):
        doc = json.loads(raw)
        if doc["game_id"] == tid and doc["type"] == "result_recorded":
            target = doc["seq"]
            a, b = list(doc["payload"]["points"])
            doc["payload"]["points"] = {a: doc["payload"]["points"][b], b: doc["payload"]["points"][a]}
            doc["payload"]["winner"] = b if doc["payload"]["winner"] == a else a
            lines[i] = canonical_bytes(doc) + b"\n"
            break
    try:  # unchained: the chain breaks at the changed event
        verify_bundle(lines)
        raise AssertionError("a changed result verified")
    except VerifyFailure as err:
        assert f"event {target}:" in str(err) and "altered" in str(err), str(err)
    try:  # re-chained: the result no longer matches its game's ledger
        verify_bundle(_rechain(lines, tid))
        raise AssertionError("a changed, re-chained result verified")
    except VerifyFailure as err:
        assert f"tournament {tid} event {target}:" in str(err) and "game" in str(err), str(err)


def test_bad_requests_are_clear_errors(desk: Desk) -> None:
    desk.player("Director")
    assert desk.client.post(API, json={"name": "x", "game": "assault-on-belgium", "format": {"kind": "swiss"}}
                            ).status_code == 401  # not signed in: no credentials
    r = desk.client.post(API, json={"name": "x", "game": "assault-on-belgium", "format": {"kind": "ladder"}},
                         headers=desk.auth("Director"))
    assert r.status_code == 422 and "kind" in r.get_json()["fields"]["format"]
    r = desk.client.post(API, json={"name": "x", "game": "assault-on-belgium", "format": {"kind": "duplicate"}},
                         headers=desk.auth("Director"))
    assert r.status_code == 422 and "solitaire" in r.get_json()["error"]
    assert desk.client.get(f"{API}/tffffffffffffffff").status_code == 404
    assert desk.client.get("/tournaments/tffffffffffffffff").status_code == 404
    r = desk.client.post(f"{API}/tffffffffffffffff/rounds", data="{", content_type="application/json",
                         headers=desk.auth("Director"))
    assert r.status_code in (400, 404)


def test_openapi_documents_the_tournament_api(desk: Desk) -> None:
    doc = desk.get("/api/v1/openapi.json")
    assert "/api/v1/tournaments/{tid}/games/{game_id}/adjudicate" in doc["paths"]
    assert "CreateTournament" in doc["components"]["schemas"]


def test_the_list_is_cursor_paged(desk: Desk) -> None:
    desk.player("Director")
    made = [desk.post(API, "Director", {"name": f"T{i}", "game": "assault-on-belgium",
                                        "format": {"kind": "swiss", "rounds": 1}}, status=201)["id"]
            for i in range(27)]
    first = desk.get(API)
    assert len(first["tournaments"]) == 25 and first["next_cursor"]
    second = desk.get(f"{API}?cursor={first['next_cursor']}")
    assert len(second["tournaments"]) == 2 and second["next_cursor"] is None
    seen = [r["id"] for r in first["tournaments"] + second["tournaments"]]
    assert sorted(seen) == sorted(made) and len(set(seen)) == 27
    assert desk.client.get(f"{API}?cursor=garbage").status_code == 400
    html = desk.client.get(f"/tournaments?cursor={first['next_cursor']}").get_data(as_text=True)
    assert html.count("/tournaments/t") >= 2 and "Older tournaments" not in html
