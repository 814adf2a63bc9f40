"""`GET /metrics`: this process's metrics and the deployment's (what each one is:
warlog.ops.metrics), and each request's latency observed on the way out."""

from __future__ import annotations

import os
import time

from flask import Flask, Response, current_app, g, request
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from warlog.ops.metrics import LOCAL, REQUESTS, DeploymentCollector


def install(app: Flask) -> None:
    deployment = CollectorRegistry(auto_describe=False)
    deployment.register(DeploymentCollector(app.extensions))

    @app.before_request
    def _start() -> None:
        g.metrics_started = time.perf_counter()

    @app.after_request
    def _observe(resp: Response) -> Response:
        started = g.get("metrics_started")
        if started is not None and request.endpoint != "metrics":
            REQUESTS.labels(request.method, request.endpoint or "(none)", str(resp.status_code)).observe(
                time.perf_counter() - started)
        return resp

    @app.get("/metrics")
    def metrics() -> Response:
        """Prometheus' text format: this process's metrics and the deployment's (warlog.ops.metrics)."""
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            from prometheus_client import multiprocess

            local = CollectorRegistry()
            multiprocess.MultiProcessCollector(local)  # type: ignore[no-untyped-call]
        else:
            local = LOCAL
        try:
            text = generate_latest(local) + generate_latest(deployment)
        except Exception as err:  # the ledger or Redis is down: say so, as a 503 (never a traceback)
            current_app.logger.warning("metrics: %s", err)
            return Response(f"# metrics unavailable: {type(err).__name__}\n", status=503,
                            mimetype="text/plain")
        return Response(text, mimetype=CONTENT_TYPE_LATEST)
