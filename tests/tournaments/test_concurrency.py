"""Concurrent writers on one tournament stream (both ledgers): registrations racing each other all
land (a lost race is appended at the new end, checked again), the stream stays gapless and
chained, and two racing result recorders never record one game twice."""

from __future__ import annotations

import threading

import pytest

from tests.tournaments.conftest import Desk
from warlog.tournaments import events as T

API = "/api/v1/tournaments"


@pytest.mark.slow
def test_racing_registrations_and_syncs(desk: Desk) -> None:
    desk.player("Director")
    names = [f"P{i}" for i in range(8)]
    for n in names:
        desk.player(n)
    tid = desk.post(API, "Director", {"name": "Race", "game": "assault-on-belgium",
                                      "format": {"kind": "swiss", "rounds": 1}}, status=201)["id"]
    codes: list[int] = []
    start = threading.Barrier(len(names))

    def register(name: str) -> None:
        client = desk.app.test_client()
        start.wait()
        codes.append(client.post(f"{API}/{tid}/register", headers=desk.auth(name)).status_code)

    threads = [threading.Thread(target=register, args=(n,)) for n in names]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert codes == [200] * len(names)
    svc = desk.app.extensions["warlog_tournaments"]
    events = svc.store.read(tid)
    assert T.check_stream(events) == len(events)
    assert sorted(svc.get(tid).entrants) == sorted(desk.ids[n] for n in names)
    doc = desk.post(f"{API}/{tid}/rounds", "Director", status=201)
    for g in doc["games"]:
        winner = list(g["seats"].values())[0]["player_id"]
        desk.post(f"{API}/{tid}/games/{g['game_id']}/adjudicate", "Director",
                  {"decision": "win", "winner": winner, "reason": "race"}, status=202)
    desk.drain()
    syncs = [threading.Thread(target=svc.sync, args=(tid,)) for _ in range(4)]
    for th in syncs:
        th.start()
    for th in syncs:
        th.join()
    results = [e for e in svc.store.read(tid) if e.type == T.RESULT]
    assert len(results) == 4 and len({e.payload["game_id"] for e in results}) == 4
