"""The `warlog` command: serve, worker, games, export, import, verify, replay."""

from __future__ import annotations

import os
import sys

import click

DEFAULT_DB = "sqlite:///var/warlog.sqlite3"


class _Main(click.Group):
    """Unreachable services and bad URLs are one line of error, never a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        import sqlite3

        from ledger.store import StoreURLError

        try:
            return super().invoke(ctx)
        except (ConnectionError, StoreURLError, sqlite3.OperationalError) as err:
            raise click.ClickException(str(err)) from None


@click.group(cls=_Main, help="Warlog: an event-sourced umpire for play-by-email wargames.")
def main() -> None:
    pass


@main.command(help="Start the server. Default: embedded (SQLite file + in-process worker).")
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB,
              help="sqlite:///path or postgresql://user@host/db")
@click.option("--redis", "redis_url", default=lambda: os.environ.get("WARLOG_REDIS"),
              help="redis://host:6379/0 to hand judging to RQ workers (then run `warlog worker`)")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
def serve(db: str, redis_url: str | None, host: str, port: int) -> None:
    from warlog.app import create_app

    app = create_app({"WARLOG_DB": db, "WARLOG_REDIS": redis_url})
    mode = f"RQ via {redis_url}" if redis_url else "in-process worker"
    click.echo(f"Warlog on http://{host}:{port}/  (ledger {db}; {mode}; API at /api/v1, spec /api/v1/openapi.json)")
    app.run(host=host, port=port, threaded=True, use_reloader=False)


@main.command(help="Run an RQ worker that judges submissions (a real deployment runs several).")
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
@click.option("--redis", "redis_url", default=lambda: os.environ.get("WARLOG_REDIS", "redis://127.0.0.1:6379/0"),
              show_default="redis://127.0.0.1:6379/0")
@click.option("--burst", is_flag=True, help="exit when the queue is empty")
@click.option("--sweep-interval", default=30.0, show_default=True, type=float)
def worker(db: str, redis_url: str, burst: bool, sweep_interval: float) -> None:
    import logging

    from worker import run_worker

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    sys.exit(run_worker(db, redis_url, burst, sweep_interval))


@main.command(help="List the games this build knows (with scenarios and options), and the stored games.")
@click.option("--db", default=None, help="also list the games stored in this ledger")
def games(db: str | None) -> None:
    from rules import all_games

    for g in all_games():
        click.echo(f"{g.name}  —  {g.title} (rules v{g.version}{', solitaire' if g.solitaire else ''})")
        for s in g.scenarios().values():
            click.echo(f"    scenario {s.id}: {s.title}  [seats: {', '.join(s.roles)}]")
        for o in g.options().values():
            click.echo(f"    option {o.name} (default {o.default}): {o.description}")
    if db:
        from ledger.store import open_store

        store = open_store(db)
        for row in store.list_games():
            click.echo(f"{row.game_id}  {row.game}/{row.scenario}  {row.status}  seq {row.last_seq}"
                       f"{'  SANDBOX' if row.sandbox else ''}")


@main.command("export", help="Write one game's ledger as JSON Lines (to stdout or --out).")
@click.argument("game_id")
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
@click.option("--out", "-o", type=click.Path(dir_okay=False), default=None)
def export_cmd(game_id: str, db: str, out: str | None) -> None:
    from ledger.export import export_lines
    from ledger.store import open_store

    store = open_store(db)
    if store.last_seq(game_id) < 0:
        raise click.ClickException(f"no game {game_id} in {db}")
    stream = open(out, "w", encoding="utf-8") if out else sys.stdout
    try:
        for line in export_lines(store, game_id):
            stream.write(line)
    finally:
        if out:
            stream.close()


@main.command("import", help="Verify an export and load it into an empty game of this ledger.")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
def import_cmd(path: str, db: str) -> None:
    from ledger.export import ExportFormatError, parse_export, summary_from_events
    from ledger.store import GameExists, open_store
    from warlog.verify import VerifyFailure, verify_events

    try:
        with open(path, "rb") as fh:
            events = parse_export(fh)
    except ExportFormatError as err:
        raise click.ClickException(f"refusing to import: {err}") from None
    show = sys.stderr.isatty() and len(events) > 200
    try:
        if show:
            with click.progressbar(length=len(events), label="verifying", file=sys.stderr) as bar:
                report = verify_events(events, bar.update)
        else:
            report = verify_events(events)
    except VerifyFailure as err:
        raise click.ClickException(f"refusing to import: {err}") from None
    store = open_store(db)
    try:
        store.import_events(events, None, summary_from_events(events))
    except GameExists:
        raise click.ClickException(f"game {events[0].game_id} already exists in {db}") from None
    click.echo(f"imported {report.game_id}: {len(events)} events")


@main.command(help="Check an export offline: chain, seed, dice, and every state re-run through the rules.")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
def verify(path: str, quiet: bool) -> None:
    from warlog.verify import VerifyFailure, verify_bytes

    with open(path, "rb") as fh:
        data = fh.read()
    count = data.count(b"\n")
    show = not quiet and sys.stderr.isatty() and count > 200
    try:
        if show:
            with click.progressbar(length=count, label="verifying", file=sys.stderr) as bar:
                report = verify_bytes(data, bar.update)
        else:
            report = verify_bytes(data)
    except VerifyFailure as err:
        click.echo(f"FAIL {err}", err=False)
        sys.exit(1)
    click.echo(report.summary())
    for note in report.notes:
        click.echo(f"  note: {note}")


@main.command(help="Make one self-contained HTML replay of an export (boards, events, controls; no server, "
                   "no network): public information only unless the game has ended.")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "-o", type=click.Path(dir_okay=False), default=None,
              help="the HTML file to write (default: the export's name with .html)")
def replay(path: str, out: str | None) -> None:
    from ledger.events import ChainError
    from ledger.export import ExportFormatError
    from warlog.share import ReplayFileError, build, from_lines

    try:
        with open(path, "rb") as fh:
            events = from_lines(fh)
        made = build(events)
    except (ExportFormatError, ChainError, ReplayFileError) as err:
        raise click.ClickException(f"cannot make a replay of {path}: {err}") from None
    target = out or (path[:-6] if path.endswith(".jsonl") else path) + ".html"
    with open(target, "w", encoding="utf-8") as fh:
        fh.write(made.html)
    click.echo(f"wrote {target}: {len(made.html.encode('utf-8')) / 1024:.0f} KB, {made.steps} steps, "
               f"{made.boards} boards from {made.pieces} distinct SVG pieces")
