"""The Flask application factory (STYLE: flaskr)."""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
from collections.abc import Mapping
from typing import Any

from flask import Flask

from ledger.factory import open_store, sqlite_path
from rules import GameModuleError, load_games
from warlog import templates_dir
from warlog.config import ALL as ALL_SETTINGS
from warlog.config import ConfigError, check_deployment, describe, unknown_settings
from warlog.games.service import Warlog
from warlog.judging.outage import quiet_pool_logs
from warlog.judging.queue import InlineQueue, RQQueue, start_sweeper
from warlog.ops import logs
from warlog.ops.dbrole import SuperuserRefused, check_app_role
from warlog.ops.health import check_storage_at_start as health_check_storage

TEMPLATES = templates_dir()
log = logging.getLogger("warlog.app")
__all__ = ["ConfigError", "create_app"]


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Config: WARLOG_DB (a sqlite path/URL or postgresql:// URL), WARLOG_REDIS (None = the
    in-process worker), WARLOG_SWEEP_INTERVAL, WARLOG_REFUSED_LIMIT, WARLOG_ALLOW_EMBEDDED_LEDGER;
    from `test_config` or WARLOG_* environment (warlog.config). Raises ConfigError for a queue
    with an embedded ledger."""
    app = Flask(__name__, template_folder=str(TEMPLATES))
    app.config.from_mapping(
        WARLOG_DB="sqlite:///var/warlog.sqlite3",
        WARLOG_REDIS=None,
        WARLOG_SWEEP_INTERVAL=30.0,
        WARLOG_ALLOW_SUPERUSER=False,
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,  # a larger body is a 413 (JSON under /api/)
    )
    app.config.from_prefixed_env("WARLOG")  # WARLOG_DB=... -> app.config["DB"]
    for key in (s.name.removeprefix("WARLOG_") for s in ALL_SETTINGS):
        if key in app.config:
            app.config["WARLOG_" + key] = app.config.pop(key)
    if test_config:
        app.config.update(test_config)
    logs.configure(app)  # first: the lines below are logged, and every request gets its id

    try:  # the games this process serves, loaded as the worker and `verify` load them
        load_games()
    except GameModuleError as err:
        raise ConfigError(str(err)) from None
    db = str(app.config["WARLOG_DB"])
    check_deployment(db, app.config["WARLOG_REDIS"], app.config.get("WARLOG_ALLOW_EMBEDDED_LEDGER"))
    for name, meant in unknown_settings().items():
        log.warning("%s is not a Warlog setting%s; ignored", name, f" (did you mean {meant}?)" if meant else "")
    path = sqlite_path(db)
    if path is not None:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    quiet_pool_logs()
    store = open_store(db)  # PostgreSQL: only checks the schema version (`warlog db upgrade` migrates)
    try:
        check_app_role(store, bool(app.config["WARLOG_ALLOW_SUPERUSER"]))
    except SuperuserRefused:
        store.close()
        raise
    try:
        health_check_storage(store)  # a read-only or full ledger: a clear error at start, not a 500 per write
    except BaseException:
        store.close()
        raise
    if app.config["WARLOG_REDIS"]:
        queue: InlineQueue | RQQueue = RQQueue(str(app.config["WARLOG_REDIS"]), store)
        from warlog.judging import wakeup

        stop_listening = threading.Event()  # judgements published by the RQ workers wake the pages
        wakeup.listen(queue.redis, stop_listening)
        atexit.register(stop_listening.set)
        app.extensions["warlog_wakeup_stop"] = stop_listening
        queue.sweep_at_start()  # a move recorded but never queued (its web process killed between the two)
    else:
        queue = InlineQueue(store)

        def inline_beat() -> None:  # the in-process worker's heartbeat (warlog.ops.health)
            app.extensions["warlog_inline_beat"] = time.time()

        stop = start_sweeper(store, queue.enqueue, float(app.config["WARLOG_SWEEP_INTERVAL"]), also=inline_beat,
                             enqueue_many=queue.enqueue_many)
        atexit.register(stop.set)
        app.extensions["warlog_sweeper_stop"] = stop
    app.extensions["warlog"] = Warlog(store, queue.enqueue)
    app.extensions["warlog_queue"] = queue

    from warlog import i18n
    from warlog.api.routes import api
    from warlog.web import boundary, webcache

    webcache.install(app)  # first: its compression runs after every other hook (Flask runs them in reverse)

    boundary.install(app)
    i18n.init_app(app)  # before any page renders: every template's `_()`

    app.register_blueprint(api)

    from warlog.trust import tlog  # the transparency log

    tlog.init_app(app)

    from warlog.rulings import (
        fork_pages,  # noqa: F401  (its routes join the pages blueprint)
        rulings_pages,  # its routes join the pages blueprint (rulings and disputes)
    )
    from warlog.web.pages import pages

    app.register_blueprint(pages)
    rulings_pages.init_app(app)

    from warlog import extensions  # players, notifications, deadlines
    from warlog.ops import health
    from warlog.web import limits, metrics_page

    services = extensions.init_app(app, store, queue)
    i18n.keep_player_languages(app, services.db)

    from warlog import tournaments  # after the players: a tournament's entrants are players

    tournaments.init_app(app)
    health.install(app)
    metrics_page.install(app)
    limits.install(app)
    log.info("%s", describe("web", db, app.config["WARLOG_REDIS"],
                            sweep_interval=f"{app.config['WARLOG_SWEEP_INTERVAL']} s",
                            refused_limit=app.config.get("WARLOG_REFUSED_LIMIT") or limits.DEFAULT_LIMIT))
    return app
