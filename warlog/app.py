"""The Flask application factory (STYLE: flaskr)."""

from __future__ import annotations

import atexit
import os
from pathlib import Path
from typing import Any, Mapping

from flask import Flask, jsonify

from ledger.store import open_store, sqlite_path
from warlog.queue import InlineQueue, RQQueue, start_sweeper
from warlog.service import Warlog

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Config: WARLOG_DB (a sqlite path/URL or postgresql:// URL), WARLOG_REDIS (None = the
    in-process worker), WARLOG_SWEEP_INTERVAL; from `test_config` or WARLOG_* environment."""
    app = Flask(__name__, template_folder=str(TEMPLATES))
    app.config.from_mapping(
        WARLOG_DB="sqlite:///var/warlog.sqlite3",
        WARLOG_REDIS=None,
        WARLOG_SWEEP_INTERVAL=30.0,
        JSON_SORT_KEYS=False,
    )
    app.config.from_prefixed_env("WARLOG")  # WARLOG_DB=... -> app.config["DB"]
    for key in ("DB", "REDIS", "SWEEP_INTERVAL"):
        if key in app.config:
            app.config["WARLOG_" + key] = app.config.pop(key)
    if test_config:
        app.config.update(test_config)

    db = str(app.config["WARLOG_DB"])
    path = sqlite_path(db)
    if path is not None:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    store = open_store(db)
    if app.config["WARLOG_REDIS"]:
        queue: InlineQueue | RQQueue = RQQueue(str(app.config["WARLOG_REDIS"]))
    else:
        queue = InlineQueue(store)
        stop = start_sweeper(store, queue.enqueue, float(app.config["WARLOG_SWEEP_INTERVAL"]))
        atexit.register(stop.set)
        app.extensions["warlog_sweeper_stop"] = stop
    app.extensions["warlog"] = Warlog(store, queue.enqueue)
    app.extensions["warlog_queue"] = queue

    from warlog.api import api

    app.register_blueprint(api)

    from warlog.pages import pages

    app.register_blueprint(pages)

    from warlog import extensions  # players, notifications, deadlines

    extensions.init_app(app, store, queue)

    from warlog import tournaments  # after the players: a tournament's entrants are players

    tournaments.init_app(app)

    @app.get("/healthz")
    def healthz() -> Any:
        return jsonify({"ok": True})

    return app
