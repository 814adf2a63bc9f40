"""Tournaments: a stream in the ledger per tournament, formats, standings, bundle verify (docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from flask import Flask


def init_app(app: Flask) -> Any:
    """Build the tournament service on the app's ledger and players; register its routes."""
    from warlog.ops.sqldb import SqlDb
    from warlog.tournaments.service import Tournaments
    from warlog.tournaments.store import TournamentStore
    from warlog.tournaments.web import init_app as init_web

    warlog = app.extensions["warlog"]
    store = TournamentStore(SqlDb(warlog.store))
    store.create_schema()
    notifier = app.extensions.get("warlog_notifier")
    clock = app.extensions.get("warlog_clock")
    service = Tournaments(warlog, store, app.extensions.get("warlog_players"),
                          notifier.notify if notifier is not None else None,
                          base_url=clock.base_url if clock is not None else lambda: "")
    from warlog.tournaments.publish import CalendarTokens

    service.calendar = CalendarTokens(SqlDb(warlog.store))  # players' private deadline feeds
    service.calendar.create_schema()
    init_web(app, service)
    from warlog.tournaments.privacy import private_reader

    warlog.private_reader = private_reader(service, app.extensions.get("warlog_players"))
    if clock is not None:
        from warlog.tournaments.clockwire import attach

        attach(clock, service)
    away = app.extensions.get("warlog_away")
    if away is not None:
        from warlog.tournaments.leavewire import attach as attach_leave

        attach_leave(away, service)  # an entrant's leave in the tournament's stream, its round deadlines by its policy
    return service
