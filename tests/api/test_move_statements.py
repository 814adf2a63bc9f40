"""What a move costs the web process on PostgreSQL, counted per request (bench/move_cost.py
measures the same over many moves): the four requests an API client makes for a move (GET the
game, GET its actions, POST the move, the long-poll for its judgement) stay within these
statement counts once the process has seen the game (it was 1 + 2 + 3 + 5 = 11, then 1 + 2 + 2 + 3,
then 1 + 2 + 2 + 2; the listing and the long-poll now read the summary and the events they need
in one statement: ledger.store.EventStore.summary_and_read).
A client that asks the POST for the next listing makes fewer requests: tests/api/test_move_listing.py."""

from __future__ import annotations

import uuid

from tests.pages.test_live_reads import counted_statements
from warlog.app import create_app

AT_MOST = {"GET info": 1, "GET actions": 1, "POST move": 2, "GET live": 1}


def test_a_moves_four_requests_stay_within_their_statement_counts(pg_url: str) -> None:
    app = create_app({"TESTING": True, "WARLOG_DB": pg_url})
    try:
        c = app.test_client()
        created = c.post("/api/v1/games", json={"game": "assault-on-belgium"}).get_json()
        gid, seats = created["id"], created["seats"]
        for seat, token in seats.items():
            c.post(f"/api/v1/games/{gid}/join", json={"entropy": seat}, headers={"Authorization": f"Bearer {token}"})
        worst: dict[str, int] = {}
        for move in range(6):  # the first two moves warm the process's caches; the rest are counted
            counts: dict[str, int] = {}
            with counted_statements() as seen:
                info = c.get(f"/api/v1/games/{gid}").get_json()
            counts["GET info"] = sum(seen.values())
            auth = {"Authorization": f"Bearer {seats[info['active_seats'][0]]}"}
            with counted_statements() as seen:
                listing = c.get(f"/api/v1/games/{gid}/actions", headers=auth).get_json()
            counts["GET actions"] = sum(seen.values())
            with counted_statements() as seen:
                r = c.post(f"/api/v1/games/{gid}/moves", headers=auth, json={
                    "action": listing["actions"][0], "expected_seq": listing["expected_seq"],
                    "idempotency_key": uuid.uuid4().hex})
            counts["POST move"] = sum(seen.values())
            assert r.status_code == 202, r.get_json()
            app.extensions["warlog_queue"].drain()
            with counted_statements() as seen:
                judged = c.get(f"/games/{gid}/live?last={r.get_json()['seq']}&wait=1&panel=0",
                               headers=auth).get_json()
            counts["GET live"] = sum(seen.values())
            assert judged["status"] in ("resolved", "rejected"), judged
            if move >= 2:
                worst = {k: max(v, worst.get(k, 0)) for k, v in counts.items()}
        assert all(worst[k] <= AT_MOST[k] for k in AT_MOST), (worst, AT_MOST)
    finally:
        app.extensions["warlog"].store.close()
