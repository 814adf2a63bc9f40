"""What `GET /metrics` reports, in Prometheus' text format (prometheus_client); the endpoint itself
is warlog.web.metrics_page, so that the worker records its figures without any web code.

* `warlog_http_request_duration_seconds{method,endpoint,status}` — each request's latency, in the
  web process that answered it (under gunicorn with several workers set PROMETHEUS_MULTIPROC_DIR
  to an empty directory, and prometheus_client's multiprocess mode sums them);
* `warlog_pending_moves` — submissions without a judgement (the ledger's `pending` set);
* `warlog_queue_depth` — resolve jobs waiting (RQ's queue, or the in-process worker's);
* `warlog_judge_seconds` — how long judging a game's pending submissions took;
* `warlog_mail_failures_total{channel}` — failed delivery attempts (mail, webhooks);
* `warlog_deliveries{channel,status}` — deliveries queued, retrying or failed, from the database.

Judging and delivering happen in the `warlog worker`s when there is a queue: they add their
observations to Redis hashes (`warlog:metrics:*`), which every web process reports, so one scrape
of any web process shows the whole deployment's. In the embedded default they are this process's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

JUDGE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
JUDGE_KEY = "warlog:metrics:judge"
MAIL_KEY = "warlog:metrics:mail_failures"

LOCAL = CollectorRegistry(auto_describe=True)  # this process's own metrics
REQUESTS = Histogram("warlog_http_request_duration_seconds", "Request latency, by route and status",
                     ("method", "endpoint", "status"), registry=LOCAL)
JUDGE = Histogram("warlog_judge_seconds", "Time to judge a game's pending submissions (this process)",
                  buckets=JUDGE_BUCKETS, registry=LOCAL)
MAIL_FAILURES = Counter("warlog_mail_failures", "Failed delivery attempts (this process)", ("channel",),
                        registry=LOCAL)


def _worker_redis() -> Any:
    """The Redis of the RQ job this runs in, if any (a `warlog worker`)."""
    try:
        from rq import get_current_job

        job = get_current_job()
    except Exception:
        return None
    return job.connection if job is not None else None


def observe_judge(seconds: float) -> None:
    """Record one judging run: here, and in Redis when it ran in an RQ job."""
    JUDGE.observe(seconds)
    redis = _worker_redis()
    if redis is None:
        return
    try:
        bucket = next((f"{b}" for b in JUDGE_BUCKETS if seconds <= b), "+Inf")
        with redis.pipeline(transaction=False) as p:
            p.hincrby(JUDGE_KEY, bucket, 1)
            p.hincrbyfloat(JUDGE_KEY, "sum", seconds)
            p.hincrby(JUDGE_KEY, "count", 1)
            p.execute()
    except Exception:  # metrics never fail a judgement
        pass


def count_mail_failure(channel: str) -> None:
    MAIL_FAILURES.labels(channel).inc()
    redis = _worker_redis()
    if redis is not None:
        try:
            redis.hincrby(MAIL_KEY, channel, 1)
        except Exception:
            pass


def _decoded(raw: dict[Any, Any]) -> dict[str, str]:
    return {(k.decode() if isinstance(k, bytes) else str(k)): (v.decode() if isinstance(v, bytes) else str(v))
            for k, v in raw.items()}


class DeploymentCollector(Collector):
    """Read at each scrape: the ledger's pending set, the queue, deliveries, and the workers'
    judge times and failures from Redis (when there is a queue)."""

    def __init__(self, extensions: Mapping[str, Any]) -> None:
        self.extensions = extensions  # the web app's: its notifier (and database) and its queue

    def collect(self) -> Iterator[Any]:
        ext = self.extensions
        notifier, queue = ext.get("warlog_notifier"), ext.get("warlog_queue")
        db = getattr(notifier, "db", None)
        if db is not None:
            row = db.one("SELECT COUNT(*) FROM pending")
            yield GaugeMetricFamily("warlog_pending_moves", "Submissions without a judgement",
                                    value=float(row[0] if row else 0))
            deliveries = GaugeMetricFamily("warlog_deliveries", "Deliveries not yet sent, by channel and status",
                                           labels=("channel", "status"))
            for channel, status, n in db.rows("SELECT channel, status, COUNT(*) FROM notify_deliveries WHERE status "
                                             "IN ('queued', 'retrying', 'failed') GROUP BY channel, status"):
                deliveries.add_metric((channel, status), float(n))
            yield deliveries
        redis = getattr(queue, "redis", None)
        if redis is not None:
            yield GaugeMetricFamily("warlog_queue_depth", "Resolve jobs waiting in RQ",
                                    value=float(len(queue.queue)))  # type: ignore[union-attr]
            yield from self._from_redis(redis)
        elif queue is not None:
            yield GaugeMetricFamily("warlog_queue_depth", "Resolve jobs waiting in the in-process worker",
                                    value=float(len(getattr(queue, "_queued", ()))))

    @staticmethod
    def _from_redis(redis: Any) -> Iterator[Any]:
        judge = _decoded(redis.hgetall(JUDGE_KEY))
        buckets, running = [], 0
        for b in JUDGE_BUCKETS:
            running += int(judge.get(f"{b}", 0))
            buckets.append((f"{b}", float(running)))
        buckets.append(("+Inf", float(running + int(judge.get("+Inf", 0)))))
        hist = HistogramMetricFamily("warlog_workers_judge_seconds",
                                     "Time to judge a game's pending submissions (all RQ workers)")
        hist.add_metric((), buckets, sum_value=float(judge.get("sum", 0.0)))
        yield hist
        failures = CounterMetricFamily("warlog_workers_mail_failures", "Failed delivery attempts (all RQ workers)",
                                       labels=("channel",))
        for channel, n in sorted(_decoded(redis.hgetall(MAIL_KEY)).items()):
            failures.add_metric((channel,), float(n))
        yield failures
