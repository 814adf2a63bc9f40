"""Players, notifications and deadlines wired into the web app: the services of warlog.services,
built from the app's config, and their pages and API."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import Flask

from ledger.store import EventStore
from warlog.services import DEFAULT_URL, SWEEP_INTERVAL, Services, Settings, build, start_periodic

log = logging.getLogger("warlog.extensions")


def init_app(app: Flask, store: EventStore, queue: Any) -> Services:
    """Build the services for the web app, hook them into the service and the resolver."""
    from warlog.clock.away_web import init_app as init_away_web
    from warlog.clock.web import init_app as init_clock_web
    from warlog.judging.queue import InlineQueue
    from warlog.judging.resolver import Judged
    from warlog.notify.web import init_app as init_notify_web
    from warlog.players.web import init_app as init_players_web

    settings = Settings.from_mapping(app.config)
    services = build(store, settings, base_url=lambda: Settings.from_mapping(app.config).public_url or DEFAULT_URL)
    service = app.extensions["warlog"]
    service.player_seat = services.players.seat_for_credential
    on_judged = services.on_judged(store, services.clock.base_url)
    # a game's start is a judgement of sorts: nobody was to move, now these seats are
    service.on_started = lambda game_id, seq, active: on_judged(Judged(game_id, seq, (), tuple(active), None, False))
    if isinstance(queue, InlineQueue):
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="warlog-notify")

        def deliver(delivery_id: str) -> None:
            try:
                services.notifier.deliver(delivery_id)
            except Exception:
                log.exception("delivery %s failed", delivery_id)

        services.notifier.enqueue = lambda delivery_id: pool.submit(deliver, delivery_id) and None
        app.extensions["warlog_notify_pool"] = pool
        queue.resolver.on_judged = on_judged
        interval = float(app.config.get("WARLOG_SWEEP_INTERVAL", SWEEP_INTERVAL))
        if app.config.get("WARLOG_PERIODIC", True):  # False: the caller runs the sweeps (tests)
            # stopped with the ledger's sweeper (the same event)
            app.extensions["warlog_periodic_stop"] = start_periodic(
                services.periodic(), interval, app.extensions.get("warlog_sweeper_stop"))
    else:
        from warlog.notify.jobs import enqueue_with, lost_with

        services.notifier.enqueue = enqueue_with(queue.queue)
        services.notifier.lost = lost_with(queue.queue)
    init_players_web(app, services.players)
    init_notify_web(app, services.notifier)
    app.extensions["warlog_notifier"] = services.notifier
    init_clock_web(app, services.clock)
    app.extensions["warlog_services"] = services
    if services.mail is not None:
        from warlog.mailin.web import init_app as init_mail_web

        services.mail.service = service  # the app's own service (its caches; submissions enqueue for real)
        init_mail_web(app, services.mail)
    init_away_web(app, services.away)
    from warlog.clock.pace_web import init_app as init_pace_web

    init_pace_web(app)
    from warlog.clock.leave import store_appender
    from warlog.messages.book import MessageBook
    from warlog.messages.web import init_app as init_messages_web
    from warlog.notify.naming import game_named, game_titled

    messages = MessageBook(services.db, store_appender(store), services.clock.now,
                           roles=lambda game_id: list(service.created(game_id).payload["roles"]),
                           owners=services.players.owners, notify=services.notifier.notify_many,
                           base_url=services.clock.base_url, titled=lambda game_id: game_titled(store, game_id),
                           named=lambda game_id: game_named(store, game_id))
    messages.create_schema()
    init_messages_web(app, messages)
    return services
