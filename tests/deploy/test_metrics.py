"""`GET /metrics` is Prometheus' text format (read back with prometheus_client's own parser):
request latency, pending moves, queue depth, judge time and mail failures; `/healthz` names
the build's version."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import version
from typing import Any

import pytest
from flask import Flask
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import REDIS_URL, Player
from tests.notify.conftest import free_port
from tests.players.conftest import close_app, make_app, settle


def scrape(app: Flask) -> dict[str, Any]:
    r = app.test_client().get("/metrics")
    assert r.status_code == 200 and r.mimetype == "text/plain", r.get_data(as_text=True)[:300]
    return {f.name: f for f in text_string_to_metric_families(r.get_data(as_text=True))}


def value(family: Any, name: str | None = None, **labels: str) -> float:
    return sum(s.value for s in family.samples
               if (name is None or s.name == name) and all(s.labels.get(k) == v for k, v in labels.items()))


@pytest.fixture
def mapp(tmp_path: Any) -> Iterator[Flask]:
    # no mail server listens on this port: each sign-in mail fails (and is counted)
    app = make_app(f"sqlite:///{tmp_path}/w.sqlite3", WARLOG_SMTP_URL=f"smtp://127.0.0.1:{free_port()}")
    yield app
    close_app(app)


def test_metrics_in_prometheus_format(mapp: Flask) -> None:
    client = mapp.test_client()
    p = Player(client, mapp, client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json())
    p.join_all()
    p.play(p.info()["active_seats"][0], {"type": "roll"})
    before = scrape(mapp)
    client.post("/api/v1/players/signin", json={"email": "ann@example.org"})
    settle(mapp)
    after = scrape(mapp)
    latency = after["warlog_http_request_duration_seconds"]
    assert latency.type == "histogram"
    assert value(latency, "warlog_http_request_duration_seconds_count", endpoint="api.create_game", status="201") >= 1
    assert value(latency, "warlog_http_request_duration_seconds_count", endpoint="api.submit_move",
                 status="202") >= 1
    assert after["warlog_pending_moves"].type == "gauge" and value(after["warlog_pending_moves"]) == 0
    assert value(after["warlog_queue_depth"]) == 0
    assert value(after["warlog_judge_seconds"], "warlog_judge_seconds_count") >= 1
    failures = after["warlog_mail_failures"]
    assert failures.type == "counter"
    earlier = value(before["warlog_mail_failures"], "warlog_mail_failures_total", channel="email") \
        if "warlog_mail_failures" in before else 0.0
    assert value(failures, "warlog_mail_failures_total", channel="email") - earlier >= 1
    assert value(after["warlog_deliveries"], status="retrying", channel="email") == 1


def test_healthz_names_the_version(mapp: Flask) -> None:
    r = mapp.test_client().get("/healthz")
    assert r.get_json() == {"ok": True, "version": version("warlog")}


def test_with_a_queue_pending_moves_and_queue_depth_come_from_the_deployment(pg_url: str) -> None:
    import redis

    conn = redis.Redis.from_url(REDIS_URL)  # shared with other tests: nothing is flushed, deltas are compared
    app = make_app(pg_url, WARLOG_REDIS=REDIS_URL)
    try:
        client = app.test_client()
        p = Player(client, app, client.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"}).get_json())
        p.join_all()
        seat = p.info()["active_seats"][0]
        r = client.post(f"/api/v1/games/{p.id}/moves", headers=p.auth(seat), json={
            "action": {"type": "roll"}, "expected_seq": p.actions(seat)["expected_seq"], "idempotency_key": "k1"})
        assert r.status_code == 202
        before = scrape(app)["warlog_workers_judge_seconds"]
        for _ in range(2):  # as two workers' jobs add their judge times
            conn.hincrby("warlog:metrics:judge", "0.05", 1)
            conn.hincrbyfloat("warlog:metrics:judge", "sum", 0.035)
            conn.hincrby("warlog:metrics:judge", "count", 1)
        found = scrape(app)
        assert value(found["warlog_pending_moves"]) == 1  # this test's own ledger: no worker judges it
        assert found["warlog_queue_depth"].type == "gauge"
        workers = found["warlog_workers_judge_seconds"]
        for sample in ("warlog_workers_judge_seconds_count", "warlog_workers_judge_seconds_bucket"):
            labels = {"le": "0.1"} if sample.endswith("bucket") else {}
            assert value(workers, sample, **labels) - value(before, sample, **labels) >= 2
    finally:
        stop = app.extensions.get("warlog_wakeup_stop")
        if stop is not None:
            stop.set()
        app.extensions["warlog"].store.close()
