"""The `warlog` command: serve, worker, games, export, import, verify, replay, log."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from ledger.paging import DEFAULT_LIMIT, FILTER_STATUSES, MAX_LIMIT

DEFAULT_DB = "sqlite:///var/warlog.sqlite3"


class _Main(click.Group):
    """Unreachable services and bad URLs are one line of error, never a traceback; passwords in
    any error's message are masked."""

    def invoke(self, ctx: click.Context) -> object:
        import sqlite3

        from ledger.factory import StoreURLError
        from ledger.store import LedgerError
        from ledger.urls import mask_url
        from rules import GameModuleError
        from warlog.config import ConfigError

        try:
            return super().invoke(ctx)
        except (ConnectionError, StoreURLError, LedgerError, ConfigError, GameModuleError,
                sqlite3.OperationalError) as err:
            raise click.ClickException(mask_url(str(err))) from None
        except click.ClickException as err:
            err.message = mask_url(err.message)
            raise


def _version() -> str:
    from warlog import version

    return version()


@click.group(cls=_Main, help="Warlog: an event-sourced umpire for play-by-email wargames.")
@click.version_option(_version(), "--version", prog_name="warlog", message="%(prog)s %(version)s")
def main() -> None:
    pass


@main.command(help="Start the server. Default: embedded (SQLite file + in-process worker).")
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB,
              help="sqlite:///path or postgresql://user@host/db")
@click.option("--redis", "redis_url", default=lambda: os.environ.get("WARLOG_REDIS"),
              help="redis://host:6379/0 to hand judging to RQ workers (then run `warlog worker`)")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--allow-embedded-ledger", is_flag=True, default=lambda: bool(os.environ.get("WARLOG_ALLOW_EMBEDDED_LEDGER")),
              help="with --redis, run on a SQLite ledger anyway (every process on this machine, one file)")
@click.option("--allow-superuser", is_flag=True, default=None,
              help="run even when connected to PostgreSQL as a superuser (or set WARLOG_ALLOW_SUPERUSER=1)")
def serve(db: str, redis_url: str | None, host: str, port: int, allow_embedded_ledger: bool,
          allow_superuser: bool | None) -> None:
    from ledger.urls import mask_url
    from warlog.app import create_app
    from warlog.ops.dbrole import allowed_by_env

    app = create_app({"WARLOG_DB": db, "WARLOG_REDIS": redis_url, "WARLOG_ALLOW_EMBEDDED_LEDGER": allow_embedded_ledger,
                      "WARLOG_ALLOW_SUPERUSER": allow_superuser or allowed_by_env()})
    mode = f"RQ via {mask_url(redis_url)}" if redis_url else "in-process worker"
    click.echo(f"Warlog on http://{host}:{port}/  (ledger {mask_url(db)}; {mode}; API at /api/v1, "
               "spec /api/v1/openapi.json, health /healthz and /readyz)")
    app.run(host=host, port=port, threaded=True, use_reloader=False)


@main.command(help="Run an RQ worker that judges submissions (a real deployment runs several).")
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
@click.option("--redis", "redis_url", default=lambda: os.environ.get("WARLOG_REDIS", "redis://127.0.0.1:6379/0"),
              show_default="redis://127.0.0.1:6379/0")
@click.option("--burst", is_flag=True, help="exit when the queue is empty")
@click.option("--sweep-interval", default=30.0, show_default=True, type=float)
@click.option("--name", default=None, help="the worker's name in RQ and in its heartbeat (default host.pid)")
@click.option("--allow-embedded-ledger", is_flag=True, default=lambda: bool(os.environ.get("WARLOG_ALLOW_EMBEDDED_LEDGER")),
              help="run on a SQLite ledger anyway (every process on this machine, one file)")
@click.option("--allow-superuser", is_flag=True, default=None,
              help="run even when connected to PostgreSQL as a superuser (or set WARLOG_ALLOW_SUPERUSER=1)")
def worker(db: str, redis_url: str, burst: bool, sweep_interval: float, name: str | None,
           allow_embedded_ledger: bool, allow_superuser: bool | None) -> None:

    from warlog.ops.logs import configure_process
    from worker import NameTaken, run_worker

    configure_process()  # the web app's lines (JSON by default), passwords and tokens masked
    try:
        code = run_worker(db, redis_url, burst, sweep_interval, name, allow_embedded_ledger,
                          allow_superuser=allow_superuser)
    except NameTaken as err:
        raise click.ClickException(str(err)) from None
    sys.exit(code)


@main.command(help="Serve the play pages' live notices (Server-Sent Events at /games/ID/events, fed by "
                    "Redis) from one event loop, behind the same proxy as the web processes.")
@click.option("--redis", "redis_url", default=lambda: os.environ.get("WARLOG_REDIS", "redis://127.0.0.1:6379/0"),
              show_default="redis://127.0.0.1:6379/0")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8001, show_default=True, type=int)
@click.option("--max-streams", default=10_000, show_default=True, type=click.IntRange(1),
              help="streams in all; beyond it a page is answered 503 with Retry-After and polls meanwhile")
@click.option("--per-client", default=16, show_default=True, type=click.IntRange(1),
              help="streams per client address (the proxy's X-Real-IP); beyond it 429 with Retry-After")
@click.option("--trusted-proxy", multiple=True, default=("127.0.0.1", "::1"), show_default=True,
              help="peer addresses whose X-Real-IP header names the client (repeatable)")
def live(redis_url: str, host: str, port: int, max_streams: int, per_client: int,
         trusted_proxy: tuple[str, ...]) -> None:
    import logging

    from ledger.urls import mask_url
    from warlog.ops.logs import configure_process
    from warlog.web.live import Limits, run

    configure_process()
    limits = Limits(total=max_streams, per_client=per_client, trusted=frozenset(trusted_proxy))
    logging.getLogger("warlog.web.live").info("warlog live on http://%s:%d/ (notices from %s; at most %d streams, "
                                          "%d per client)", host, port, mask_url(redis_url), max_streams, per_client)
    run(redis_url, host, port, limits)


@main.command(help="List the games this build knows (with scenarios and options), or with --db the "
                    "games stored in a ledger, newest first, a page at a time.")
@click.option("--db", default=None, help="list the games stored in this ledger instead")
@click.option("--game", "game_f", default=None, help="only this game (e.g. assault-on-belgium)")
@click.option("--status", type=click.Choice(FILTER_STATUSES), default=None,
              help="only games in this status (open = waiting or active)")
@click.option("--before", default=None,
              help="only games older than this: the cursor printed after a page, or a date (2026-01-31)")
@click.option("--limit", type=click.IntRange(1, MAX_LIMIT), default=DEFAULT_LIMIT, show_default=True)
def games(db: str | None, game_f: str | None, status: str | None, before: str | None, limit: int) -> None:
    if not db:
        from rules import all_games

        for g in all_games():
            click.echo(f"{g.name}  —  {g.title} (rules v{g.version}{', solitaire' if g.solitaire else ''})")
            for s in g.scenarios().values():
                click.echo(f"    scenario {s.id}: {s.title}  [seats: {', '.join(s.roles)}]")
            for o in g.options().values():
                click.echo(f"    option {o.name} (default {o.default}): {o.description}")
        return
    from ledger import paging
    from ledger.factory import open_store

    try:
        start = paging.before(before) if before else None
    except paging.BadCursor:
        raise click.BadParameter("give the cursor printed after a page, or a date like 2026-01-31",
                                 param_hint="--before") from None
    store = open_store(db)
    try:
        rows = store.list_games(game=game_f, status=status, limit=limit + 1,
                                before=(start.created_at, start.game_id) if start else None)
    finally:
        store.close()
    page = paging.page(rows, limit)
    for row in page.rows:
        click.echo(f"{row.game_id}  {row.created_at[:19].replace('T', ' ')}  {row.game}/{row.scenario}  "
                   f"{row.status}  seq {row.last_seq}{'  SANDBOX' if row.sandbox else ''}")
    if not page.rows:
        click.echo("no games" + (" match" if game_f or status or before else ""))
    if page.next is not None:
        again = " ".join(f"{k} {v}" for k, v in (("--game", game_f), ("--status", status)) if v)
        from ledger.urls import mask_url

        click.echo(f"older: warlog games --db {mask_url(db)} {again + ' ' if again else ''}"
                   f"--limit {limit} --before {paging.encode(page.next)}")


@main.group(help="The ledger's schema and housekeeping: `upgrade` and `prune` (as the owner role), `version`.")
def db() -> None:
    pass


@db.command(help="Apply the migrations this ledger lacks (run once per release, as the owner role), "
                 "and with --app-role grant that role the DML the app needs (PostgreSQL).")
@click.option("--db", "url", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
@click.option("--app-role", default=None, help="the PostgreSQL role the app and workers connect as")
def upgrade(url: str, app_role: str | None) -> None:
    from ledger.factory import open_store
    from ledger.postgres import PostgresStore

    store = open_store(url, upgrade=True)
    try:
        if app_role:
            if not isinstance(store, PostgresStore):
                raise click.ClickException("--app-role is for PostgreSQL (SQLite has no roles)")
            store.grant_app_role(app_role)
        made: list[str] = []
        if isinstance(store, PostgresStore):
            from ledger.partitions import add_ahead

            made = add_ahead(store)
        click.echo(f"ledger schema at version {store.schema_version()} ({store.display_url()})"
                   + (f"; granted the app's DML to {app_role}" if app_role else "")
                   + (f"; partitions made for {', '.join(made)}" if made else ""))
    finally:
        store.close()


@db.command(help="Delete the snapshots (a cache) and idempotency keys of ended games: housekeeping, "
                 "not history (run as the owner role).")
@click.option("--db", "url", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
def prune(url: str) -> None:
    from ledger.factory import open_store
    from ledger.housekeeping import prune_ended

    store = open_store(url)
    try:
        done = prune_ended(store)  # type: ignore[arg-type]
    finally:
        store.close()
    click.echo(f"{done.games} ended games: {done.snapshots} snapshots and {done.keys} idempotency keys deleted")


@db.command(help="Make the monthly partitions (events, snapshots, idempotency) of this month and the next "
                 "--ahead months on PostgreSQL (the owner role; run it monthly, e.g. from cron).")
@click.option("--db", "url", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
@click.option("--ahead", default=3, show_default=True, type=click.IntRange(0, 120))
def partitions(url: str, ahead: int) -> None:
    from ledger.partitions import add_ahead, attached

    store = _postgres(url)
    try:
        made = add_ahead(store, ahead)
        click.echo(f"made partitions for {', '.join(made) or 'no new period'}; attached: "
                   f"{', '.join(attached(store))}")
    finally:
        store.close()


def _postgres(url: str) -> Any:
    from ledger.factory import open_store
    from ledger.postgres import PostgresStore

    store = open_store(url)
    if not isinstance(store, PostgresStore):
        store.close()
        raise click.ClickException("partitions are a PostgreSQL feature: the SQLite ledger is not partitioned")
    return store


@db.command(help="Print the ledger's schema version and the one this release needs.")
@click.option("--db", "url", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
def version(url: str) -> None:
    from ledger.factory import store_at

    store = store_at(url)
    try:
        click.echo(f"schema version {store.schema_version()}; this release needs {store.latest_version()}")
    finally:
        store.close()


@main.group(help="Archive a creation period's ended games as a bundle of verifiable exports.")
def archive() -> None:
    pass


@archive.command("export", help="Write each ended game created in [--from, --before) to DIR as its JSON Lines "
                                "export, with manifest.json (event count, chain head, SHA-256 of each file).")
@click.argument("out", type=click.Path(file_okay=False))
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
@click.option("--from", "start", default=None, help="first day of the period (2026-01-01)")
@click.option("--before", "end", default=None, help="the day after the period (2026-02-01)")
@click.option("--period", default=None, help="a month, 2026-01 (instead of --from and --before)")
def archive_export(out: str, db: str, start: str | None, end: str | None, period: str | None) -> None:
    from pathlib import Path

    from ledger import paging
    from ledger.archive import export_period
    from ledger.factory import open_store
    from ledger.partitions import PeriodError, bounds

    if period is not None:
        try:
            start, end = bounds(period)
        except PeriodError as err:
            raise click.BadParameter(str(err), param_hint="--period") from None
    if start is None or end is None:
        raise click.UsageError("give --period, or both --from and --before")

    for value, name in ((start, "--from"), (end, "--before")):
        try:
            if paging.before(value).game_id:
                raise paging.BadCursor(value)
        except paging.BadCursor:
            raise click.BadParameter("a date like 2026-01-31 (or a timestamp)", param_hint=name) from None
    from warlog.ops.archiving import export_tournaments

    store = open_store(db)
    try:
        done = export_period(store, start, end, Path(out))
        tournaments = export_tournaments(store, start, end, Path(out))
    finally:
        store.close()
    click.echo(f"{len(done)} ended games created in [{start}, {end}) written to {out} "
               f"({sum(a.events for a in done)} events)"
               + (f" and {len(tournaments)} ended tournaments (their bundles)" if tournaments else "")
               + f"; check with: warlog archive check {out}")


@archive.command("check", help="Check a bundle's files against its manifest, then verify each game offline.")
@click.argument("out", type=click.Path(exists=True, file_okay=False))
def archive_check(out: str) -> None:
    import json
    from pathlib import Path

    from ledger.archive import MANIFEST, check_bundle
    from warlog.trust.verify import VerifyFailure, verify_bytes

    problems = check_bundle(Path(out))
    games = json.loads((Path(out) / MANIFEST).read_text(encoding="utf-8"))["games"]
    for entry in games:
        path = Path(out) / entry["file"]
        if not path.is_file():
            continue
        try:
            verify_bytes(path.read_bytes())
        except VerifyFailure as err:
            problems.append(f"{entry['file']}: {err}")
    from warlog.ops.archiving import TOURNAMENTS, verify_tournaments

    problems += verify_tournaments(Path(out))
    tournaments = json.loads((Path(out) / MANIFEST).read_text(encoding="utf-8")).get(TOURNAMENTS, [])
    for problem in problems:
        click.echo(f"FAIL {problem}")
    if problems:
        sys.exit(1)
    click.echo(f"OK {len(games)} games" + (f" and {len(tournaments)} tournaments" if tournaments else "")
               + ": files match the manifest and every game verifies")


@archive.command("detach", help="Detach a month's partitions (PostgreSQL, the owner role) into the schema "
                                "<schema>_archive_<period>, to dump and drop; refused unless every game of the "
                                "period has ended and --bundle holds its checked export.")
@click.argument("period")
@click.option("--bundle", required=True, type=click.Path(file_okay=False), help="the period's bundle (archive export)")
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
def archive_detach(period: str, bundle: str, db: str) -> None:
    from pathlib import Path

    from ledger.partitions import PeriodError, detach
    from warlog.ops.archiving import check_detachable

    store = _postgres(db)
    try:
        problems = check_detachable(store, period, Path(bundle))
        for problem in problems:
            click.echo(f"REFUSED {problem}")
        if problems:
            sys.exit(1)
        schema = detach(store, period)
    except PeriodError as err:
        raise click.ClickException(str(err)) from None
    finally:
        store.close()
    click.echo(f"detached {period} into schema {schema}: dump it (pg_dump -n {schema}), then "
               f"DROP SCHEMA {schema} CASCADE; bring it back with warlog archive attach {period}")


@archive.command("attach", help="Attach a detached month again (its schema <schema>_archive_<period> present, "
                                "e.g. restored from its dump) and check every stream's chain head.")
@click.argument("period")
@click.option("--bundle", default=None, type=click.Path(exists=True, file_okay=False),
              help="compare each game's event count and chain head with this bundle's manifest")
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
def archive_attach(period: str, bundle: str | None, db: str) -> None:
    from pathlib import Path

    from ledger.partitions import PeriodError, attach, heads
    from warlog.ops.archiving import manifest_heads

    store = _postgres(db)
    try:
        attach(store, period)
        now = heads(store, period)
    except PeriodError as err:
        raise click.ClickException(str(err)) from None
    finally:
        store.close()
    if bundle is not None:
        expected = manifest_heads(Path(bundle))
        differ = sorted(g for g in expected if now.get(g) != expected[g])
        if differ:
            click.echo(f"FAIL {len(differ)} games differ from the bundle: {', '.join(differ[:5])}")
            sys.exit(1)
    click.echo(f"attached {period}: {len(now)} streams, {sum(h.events for h in now.values())} events"
               + (" (every chain head as in the bundle)" if bundle else ""))


@archive.command("import", help="Re-import a detached month from its bundle (when its dump is gone): every game "
                                "verified and loaded, its chain head compared with the manifest.")
@click.argument("period")
@click.argument("bundle", type=click.Path(exists=True, file_okay=False))
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
def archive_import(period: str, bundle: str, db: str) -> None:
    from pathlib import Path

    from ledger.partitions import PeriodError
    from warlog.ops.archiving import import_bundle

    store = _postgres(db)
    try:
        done, problems = import_bundle(store, period, Path(bundle))
    except PeriodError as err:
        raise click.ClickException(str(err)) from None
    finally:
        store.close()
    for problem in problems:
        click.echo(f"FAIL {problem}")
    if problems:
        sys.exit(1)
    click.echo(f"imported {done} games of {period}; every chain head as in the bundle")


@main.command("export", help="Write one game's ledger as JSON Lines (to stdout or --out).")
@click.argument("game_id")
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
@click.option("--out", "-o", type=click.Path(dir_okay=False), default=None)
def export_cmd(game_id: str, db: str, out: str | None) -> None:
    from ledger.export import export_lines
    from ledger.factory import open_store
    from ledger.urls import mask_url

    store = open_store(db)
    if store.last_seq(game_id) < 0:
        raise click.ClickException(f"no game {game_id} in {mask_url(db)}")
    stream = open(out, "w", encoding="utf-8") if out else sys.stdout
    try:
        for line in export_lines(store, game_id):
            stream.write(line)
    finally:
        if out:
            stream.close()


@main.command("import", help="Verify an export and load it into an empty game of this ledger "
                             "(a tournament bundle: as import-tournament).")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
def import_cmd(path: str, db: str) -> None:
    from ledger.export import ExportFormatError, parse_export, summary_from_events
    from ledger.factory import open_store
    from ledger.store import GameExists
    from warlog.trust.verify import VerifyFailure, verify_events

    with open(path, "rb") as fh:
        first = fh.readline()
    from warlog.tournaments.bundle import is_bundle

    if is_bundle(first):  # a tournament bundle: the tournament and every game
        click.get_current_context().invoke(import_tournament, path=path, db=db)
        return
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
        from ledger.urls import mask_url

        raise click.ClickException(f"game {events[0].game_id} already exists in {mask_url(db)}") from None
    click.echo(f"imported {report.game_id}: {len(events)} events")


@main.command(help="Check exports offline: chain, seed, dice, and every state re-run through the rules. "
                    "Takes one file or many (exports and tournament bundles), verified on every core.")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="processes to verify with (default: one per core; 1 verifies in this process)")
@click.option("--tree-head", type=click.Path(exists=True, dir_okay=False),
              help="a signed tree head of the transparency log (GET /api/v1/log/head) to check the game against")
@click.option("--proof", type=click.Path(exists=True, dir_okay=False),
              help="with --tree-head: the game's inclusion proofs (GET /api/v1/log/proof/<game>?size=<tree_size>)")
@click.option("--public-key", help="with --tree-head: the log's Ed25519 public key (hex) the head must be signed by "
                                    "(default: the key pinned on first use, see --pin-file)")
@click.option("--witness-key", help="with --tree-head: accept the head only if cosigned by this witness (its verifier key "
                                     "NAME+KEYID+BASE64, as `warlog log witness` prints it, or NAME+HEX)")
@click.option("--pin-file", type=click.Path(dir_okay=False),
              help="the log keys pinned on first use (default: WARLOG_PIN_FILE or ~/.config/warlog/log-keys.json)")
@click.option("--rotations", type=click.Path(exists=True, dir_okay=False),
              help="key rotation statements (JSON, from GET /api/v1/log/key) that move the pin to a new key")
@click.option("--accept-v1-head", is_flag=True, help="accept an old-format (v1) JSON tree head (no checkpoint)")
@click.option("--allow-newer-export", is_flag=True,
              help="an export whose last events the proof does not cover is a note, not a failure")
@click.option("--entries", type=click.Path(exists=True, dir_okay=False),
              help="every entry of the log (`warlog log monitor --save-entries`): the proof must leave none of "
                   "the game's out")
def verify(paths: tuple[str, ...], quiet: bool, jobs: int | None = None, tree_head: str | None = None,
           proof: str | None = None, public_key: str | None = None, **log_opts: Any) -> None:
    from warlog.tournaments.bundle import is_bundle

    # jobs None: one process for a small input, every core for a large one (warlog.trust.verify_parallel)
    if (proof or public_key or any(log_opts.values())) and not tree_head:
        raise click.UsageError("--proof, --public-key and the other log options go with --tree-head")
    if tree_head and not proof:
        raise click.UsageError("--tree-head needs --proof (the game's inclusion proofs)")
    if tree_head and len(paths) > 1:
        raise click.UsageError("--tree-head checks one game's export")
    bundles = [p for p in paths if _first_line_is_bundle(p, is_bundle)]
    exports = [p for p in paths if p not in bundles]
    if len(paths) == 1 and exports:
        _verify_one(paths[0], quiet, jobs, tree_head, proof, public_key, log_opts)
        return
    if tree_head:
        raise click.UsageError("--tree-head checks one game's export, not a tournament bundle")
    failed = False
    for path in bundles:
        failed |= not _verify_bundle(Path(path).read_bytes(), jobs, label=f"{path}: " if len(paths) > 1 else "",
                                     exit_on_fail=len(paths) == 1)
    if exports:
        failed |= not _verify_many([Path(p) for p in exports], quiet, jobs)
    if failed:
        sys.exit(1)


def _first_line_is_bundle(path: str, is_bundle: Any) -> bool:
    with open(path, "rb") as fh:
        return bool(is_bundle(fh.readline().rstrip(b"\n")))


def _verify_one(path: str, quiet: bool, jobs: int | None, tree_head: str | None, proof: str | None,
                public_key: str | None, log_opts: dict[str, Any] | None = None) -> None:
    from warlog.trust.verify import VerifyFailure
    from warlog.trust.verify_parallel import verify_paths

    with open(path, "rb") as fh:
        data = fh.read()
    count = data.count(b"\n")
    show = not quiet and sys.stderr.isatty() and count > 200
    with click.progressbar(length=count, label="verifying", file=sys.stderr) if show else _NoBar() as bar:
        [(_, report)] = list(verify_paths([Path(path)], jobs, bar.update))
    if isinstance(report, VerifyFailure):
        click.echo(f"FAIL {report}", err=False)
        sys.exit(1)
    click.echo(report.summary())
    for note in report.notes:
        click.echo(f"  note: {note}")
    if tree_head and proof:
        _check_log(data, tree_head, proof, public_key, **(log_opts or {}))


def _verify_many(paths: list[Path], quiet: bool, jobs: int | None) -> bool:
    """Many exports on `jobs` processes, one line each, in the order given; False if any failed."""
    from warlog.trust.verify import VerifyFailure
    from warlog.trust.verify_parallel import verify_paths

    total = sum(p.stat().st_size for p in paths)
    sizes = {p: p.stat().st_size for p in paths}
    show = not quiet and sys.stderr.isatty()
    ok = failed = 0
    with click.progressbar(length=total, label=f"verifying {len(paths)} files", file=sys.stderr) if show \
            else _NoBar() as bar:
        for path, report in verify_paths(paths, jobs):
            bar.update(sizes[path])
            if isinstance(report, VerifyFailure):
                failed += 1
                click.echo(f"{path}: FAIL {report}")
            else:
                ok += 1
                click.echo(f"{path}: {report.summary()}")
                for note in report.notes:
                    click.echo(f"  note: {note}")
    click.echo(f"{ok} of {len(paths)} files verified" + (f", {failed} FAILED" if failed else ""))
    return failed == 0


class _NoBar:
    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def update(self, n: int) -> None:
        return None


def _check_log(data: bytes, head_path: str, proof_path: str, public_key: str | None, witness_key: str | None = None,
               pin_file: str | None = None, rotations: str | None = None, accept_v1_head: bool = False,
               allow_newer_export: bool = False, entries: str | None = None) -> None:
    """The export against a signed tree head of the transparency log (warlog.trust.logcheck), the log's key
    pinned on first use (warlog.trust.logpin)."""
    import io
    import json

    from ledger.export import parse_export
    from ledger.transparency import ProofError
    from warlog.trust import logpin
    from warlog.trust.logcheck import check_against_head, head_key

    try:
        raw = Path(head_path).read_text(encoding="utf-8")
        head: Any = json.loads(raw) if raw.lstrip().startswith("{") else raw
        with open(proof_path, "rb") as fh:
            proof = json.load(fh)
        statements = json.loads(Path(rotations).read_text(encoding="utf-8")) if rotations else []
        log_entries = json.loads(Path(entries).read_text(encoding="utf-8")) if entries else None
    except (ValueError, OSError) as err:
        click.echo(f"FAIL tree head, proof, rotations or entries file: {err}")
        sys.exit(1)
    try:
        witness = _witness_key(witness_key) if witness_key else None
        origin, offered = head_key(head)
        if public_key is None:
            if isinstance(statements, dict):
                statements = statements.get("rotations", [statements])
            pin = logpin.resolve(origin or "(v1 heads)", offered, Path(pin_file) if pin_file else logpin.default_path(),
                                 statements)
            click.echo(pin.message)
            public_key = pin.public_key
        lines = check_against_head(parse_export(io.BytesIO(data)), head, proof, public_key, allow_v1=accept_v1_head,
                                   allow_newer=allow_newer_export, witness=witness, log_entries=log_entries)
    except ProofError as err:
        click.echo(f"FAIL transparency log: {err}")
        sys.exit(1)
    for line in lines:
        click.echo(line)
    click.echo("OK the game is the one the transparency log recorded under this tree head")


def _witness_key(text: str) -> tuple[str, str]:
    """A witness's (name, key hex) from its verifier key (NAME+KEYID+BASE64, C2SP) or NAME+HEX."""
    from ledger.checkpoint import COSIGNATURE_V1, parse_verifier_key
    from ledger.transparency import ProofError

    if text.count("+") >= 2:
        name, key, kind = parse_verifier_key(text)
        if kind != COSIGNATURE_V1:
            raise ProofError("--witness-key is a witness's key (type 0x04, cosignature/v1), not a log's")
        return name, key
    name, sep, key = text.rpartition("+")
    if not sep or not name or len(key) != 64:
        raise ProofError(f"--witness-key is the witness's verifier key or NAME+HEX, not {text!r}")
    return name, key.lower()


def _verify_bundle(data: bytes, jobs: int | None = 1, label: str = "", exit_on_fail: bool = True) -> bool:
    from warlog.tournaments.bundle import verify_bundle_bytes
    from warlog.trust.verify import VerifyFailure

    try:
        report = verify_bundle_bytes(data, jobs)
    except VerifyFailure as err:
        click.echo(f"{label}FAIL {err}")
        if exit_on_fail:
            sys.exit(1)
        return False
    for game in report.games:
        click.echo(f"  {game.summary()}")
    click.echo(f"{label}{report.summary()}")
    for note in report.notes:
        click.echo(f"  note: {note}")
    return True


@main.command("export-tournament", help="Write a tournament's bundle: its stream and every game's export.")
@click.argument("tournament_id")
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
@click.option("--out", "-o", type=click.Path(dir_okay=False), default=None)
def export_tournament(tournament_id: str, db: str, out: str | None) -> None:
    from ledger.factory import open_store
    from warlog.ops.sqldb import SqlDb
    from warlog.tournaments.bundle import bundle_lines
    from warlog.tournaments.store import TournamentStore

    store = open_store(db)
    tstore = TournamentStore(SqlDb(store))
    tstore.create_schema()
    if tstore.last_seq(tournament_id) < 0:
        raise click.ClickException(f"no tournament {tournament_id} in {db}")
    stream = open(out, "w", encoding="utf-8") if out else sys.stdout
    try:
        for line in bundle_lines(store, tstore, tournament_id):
            stream.write(line)
    finally:
        if out:
            stream.close()


@main.command("import-tournament", help="Verify a tournament bundle and load it, the tournament's stream and every "
                                         "game, into a ledger that holds none of it (disaster recovery).")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
def import_tournament(path: str, db: str) -> None:
    from ledger.factory import open_store
    from warlog.ops.sqldb import SqlDb
    from warlog.tournaments.restore import RestoreRefused, import_bundle
    from warlog.tournaments.store import TournamentStore

    with open(path, "rb") as fh:
        data = fh.read()
    store = open_store(db)
    try:
        tstore = TournamentStore(SqlDb(store))
        tstore.create_schema()
        try:
            restored = import_bundle(store, tstore, data)
        except RestoreRefused as err:
            raise click.ClickException(str(err)) from None
    finally:
        store.close()
    click.echo(restored.summary())


@main.command(help="Make one self-contained HTML replay of an export (boards, events, controls; no server, "
                   "no network): public information only unless the game has ended.")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "-o", type=click.Path(dir_okay=False), default=None,
              help="the HTML file to write (default: the export's name with .html)")
def replay(path: str, out: str | None) -> None:
    from ledger.events import ChainError
    from ledger.export import ExportFormatError
    from warlog.games.share import ReplayFileError, build, from_lines

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


@main.group("log", help="The transparency log across games: make its signing key, log what is new.")
def log_group() -> None:
    pass


@log_group.command("key", help="Make an Ed25519 signing key file for WARLOG_LOG_KEY and print its public key.")
@click.argument("path", type=click.Path(dir_okay=False))
def log_key(path: str) -> None:
    from pathlib import Path

    from ledger.transparency import public_key_hex
    from warlog.trust.signing_key import LogError, load_key

    target = Path(path)
    if target.exists():
        raise click.ClickException(f"{path} exists: a log's key is never replaced (heads signed by it would orphan)")
    try:
        key = load_key(target, create=True)
    except (LogError, OSError) as err:
        raise click.ClickException(str(err)) from None
    click.echo(f"wrote {path}; public key {public_key_hex(key)} (publish it; verifiers pin it with --public-key)")


@log_group.command("sync", help="Log new games and grown chains now (the sweeper does this after each sweep).")
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
def log_sync(db: str) -> None:
    from ledger.factory import open_store
    from ledger.logstore import LogUnavailable, entries, sync

    store = open_store(db)
    try:
        n = sync(store)
        click.echo(f"logged {n} new entr{'y' if n == 1 else 'ies'}; the log holds {len(entries(store))}")
    except LogUnavailable as err:
        raise click.ClickException(str(err)) from None
    finally:
        store.close()


@main.command("mail-in", help="Take replies by mail: an SMTP (or --lmtp) listener that a mail server forwards "
                              "play+<token>@DOMAIN to; each reply is stored, judged and answered by mail.")
@click.option("--db", default=lambda: os.environ.get("WARLOG_DB", DEFAULT_DB), show_default=DEFAULT_DB)
@click.option("--redis", "redis_url", default=lambda: os.environ.get("WARLOG_REDIS"),
              help="hand judging to the RQ workers (unset: this process judges the moves it takes)")
@click.option("--address", default=lambda: os.environ.get("WARLOG_MAIL_IN_ADDRESS"),
              help="the inbound address, e.g. play@warlog.example (or WARLOG_MAIL_IN_ADDRESS)")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8025, show_default=True, type=int)
@click.option("--lmtp", is_flag=True, help="speak LMTP (a Postfix lmtp: transport) rather than SMTP")
@click.option("--max-kb", default=2048, show_default=True, type=click.IntRange(16, 32 * 1024),
              help="replies bigger than this are refused (with an answer)")
@click.option("--authserv-id", default=lambda: os.environ.get("WARLOG_MAIL_IN_AUTHSERV_ID"),
              help="trust the Authentication-Results header of this server (your MTA's name): dmarc/spf "
                   "failures are refused as forged")
@click.option("--allow-embedded-ledger", is_flag=True, default=lambda: bool(os.environ.get("WARLOG_ALLOW_EMBEDDED_LEDGER")),
              help="with --redis, run on a SQLite ledger anyway")
def mail_in(db: str, redis_url: str | None, address: str | None, host: str, port: int, lmtp: bool, max_kb: int,
            authserv_id: str | None, allow_embedded_ledger: bool) -> None:
    import signal
    import threading

    from ledger.urls import mask_url
    from warlog.app import create_app
    from warlog.mailin.listener import Listener
    from warlog.mailin.processor import Processor
    from warlog.ops.dbrole import allowed_by_env
    from worker import load_game_modules

    load_game_modules()  # without --redis this process judges the moves it takes
    if not address:
        raise click.ClickException("give the inbound address: --address play@warlog.example (or "
                                   "WARLOG_MAIL_IN_ADDRESS)")
    # the notification and deadline sweeps are the server's (or its workers'): not run here a second time
    app = create_app({"WARLOG_DB": db, "WARLOG_REDIS": redis_url, "WARLOG_MAIL_IN_ADDRESS": address,
                      "WARLOG_ALLOW_EMBEDDED_LEDGER": allow_embedded_ledger, "WARLOG_ALLOW_SUPERUSER": allowed_by_env(),
                      "WARLOG_PERIODIC": False})
    services = app.extensions["warlog_services"]
    processor = Processor(services.mail, app.extensions["warlog"], max_bytes=max_kb * 1024, authserv_id=authserv_id)
    listener = Listener(processor, host, port, lmtp=lmtp)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    listener.start()
    click.echo(f"Warlog mail-in: {'LMTP' if lmtp else 'SMTP'} on {host}:{port} for {services.mail.local}+<token>@"
               f"{services.mail.domain} (ledger {mask_url(db)}; "
               f"{'RQ via ' + mask_url(redis_url) if redis_url else 'judging in this process'})", err=True)
    while not stop.wait(1.0):
        pass
    listener.stop()
    click.echo("Warlog mail-in: stopped", err=True)


def _http_json(base: str) -> Any:
    """A GET of JSON under `base` (raising ClickException on a failure), for the log clients."""
    import json
    import urllib.error
    import urllib.request

    def get(path: str) -> Any:
        try:
            with urllib.request.urlopen(base.rstrip("/") + path, timeout=30) as resp:
                return json.loads(resp.read())
        except (urllib.error.URLError, OSError, ValueError) as err:
            raise click.ClickException(f"GET {base.rstrip('/')}{path}: {err}") from None

    return get


@log_group.command("monitor", help="Read every entry of a server's log, check them against its signed head (the "
                                   "root recomputed, the log's key pinned on first use, the head seen before still "
                                   "extended), say what each game's entries are, and check the maximum merge delay.")
@click.argument("url")
@click.option("--public-key", help="the log's key (hex); default: pinned on first use")
@click.option("--pin-file", type=click.Path(dir_okay=False), help="default: WARLOG_PIN_FILE or "
                                                                  "~/.config/warlog/log-keys.json")
@click.option("--state", type=click.Path(dir_okay=False),
              help="where the monitor keeps the last head it saw (default: log-monitor.json beside the pin file)")
@click.option("--no-games", is_flag=True, help="skip the maximum merge delay check over the games list")
@click.option("--save-entries", type=click.Path(dir_okay=False),
              help="write every entry read, with the head, for `warlog verify --entries`")
def log_monitor(url: str, public_key: str | None, pin_file: str | None, state: str | None, no_games: bool,
                save_entries: str | None) -> None:
    from ledger.transparency import ProofError
    from warlog.trust import logpin
    from warlog.trust.monitor import monitor
    from warlog.trust.monitor import save_entries as save

    pins = Path(pin_file) if pin_file else logpin.default_path()
    try:
        rep = monitor(_http_json(url), pins, Path(state) if state else pins.parent / "log-monitor.json", public_key,
                      games=not no_games)
    except ProofError as err:
        click.echo(f"FAIL {err}")
        sys.exit(1)
    for line in rep.lines:
        click.echo(line)
    for problem in rep.problems:
        click.echo(f"FAIL {problem}")
    if save_entries:
        save(Path(save_entries), rep.entries, rep.head)
        click.echo(f"wrote {len(rep.entries)} entries to {save_entries}")
    if rep.problems:
        sys.exit(1)
    click.echo("OK the log is consistent with its signed head")


@log_group.command("witness", help="Run a witness: cosign checkpoints of the logs it knows (POST /add-checkpoint), "
                                   "each only if consistent with the last it cosigned for that log.")
@click.option("--key", "key_path", required=True, type=click.Path(exists=True, dir_okay=False),
              help="the witness's own Ed25519 key (make one with `warlog log key`)")
@click.option("--name", required=True, help="the witness's name, as verifiers give it in --witness-key")
@click.option("--state", required=True, type=click.Path(dir_okay=False), help="its state file (JSON)")
@click.option("--log", "logs", multiple=True, required=True, help="ORIGIN=HEX: a log it witnesses, by its key")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8090, show_default=True, type=int)
def log_witness(key_path: str, name: str, state: str, logs: tuple[str, ...], host: str, port: int) -> None:
    from werkzeug.serving import run_simple

    from ledger.checkpoint import witness_key
    from ledger.transparency import public_key_hex
    from warlog.trust.signing_key import LogError, load_key
    from warlog.trust.witness import Witness, create_app

    known = {}
    for item in logs:
        origin, sep, hex_key = item.rpartition("=")
        if not sep or len(hex_key) != 64:
            raise click.UsageError(f"--log is ORIGIN=HEX, not {item!r}")
        known[origin] = hex_key.lower()
    try:
        key = load_key(Path(key_path), create=False)
    except LogError as err:
        raise click.ClickException(err.message) from None
    click.echo(f"witness {name}: verifiers pass --witness-key {witness_key(name, public_key_hex(key))}")
    run_simple(host, port, create_app(Witness(key, name, known, Path(state))), threaded=True)


@log_group.command("cosign", help="Send a log's latest checkpoint to a witness (with the consistency proof from "
                                  "the size it last cosigned) and write the cosigned checkpoint.")
@click.argument("url")
@click.option("--witness", "witness_url", required=True, help="the witness's base URL")
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="where to write the cosigned checkpoint")
def log_cosign(url: str, witness_url: str, out: str) -> None:
    import urllib.error
    import urllib.request

    from warlog.trust.witness import Refused, submit

    get = _http_json(url)
    try:
        with urllib.request.urlopen(url.rstrip("/") + "/api/v1/log/checkpoint", timeout=30) as resp:
            note = resp.read().decode()
    except (urllib.error.URLError, OSError) as err:
        raise click.ClickException(f"the log's checkpoint: {err}") from None

    def consistency(old: int, new: int) -> list[bytes]:
        return [bytes.fromhex(p) for p in get(f"/api/v1/log/consistency?from={old}&to={new}")["proof"]]

    def post(body: str) -> tuple[int, str, dict[str, str]]:
        req = urllib.request.Request(witness_url.rstrip("/") + "/add-checkpoint", data=body.encode(), method="POST")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, resp.read().decode(), dict(resp.headers)
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode(), dict(err.headers)

    try:
        cosigned = submit(note, consistency, post)
    except Refused as err:
        click.echo(f"FAIL the witness refused ({err.status}): {err.message}")
        sys.exit(1)
    Path(out).write_text(cosigned, encoding="utf-8")
    click.echo(f"wrote {out}: the checkpoint cosigned by the witness")


@log_group.command("rotate", help="Sign, with the log's old key, a statement naming its new key (publish it with "
                                  "WARLOG_LOG_ROTATIONS; clients that pinned the old key then accept the new one).")
@click.argument("old_key", type=click.Path(exists=True, dir_okay=False))
@click.argument("new_key", type=click.Path(exists=True, dir_okay=False))
@click.option("--origin", required=True, help="the log's origin (GET /api/v1/log/key)")
@click.option("--out", required=True, type=click.Path(dir_okay=False),
              help="the rotations file (JSON list) to append the statement to")
def log_rotate(old_key: str, new_key: str, origin: str, out: str) -> None:
    import json

    from ledger.checkpoint import sign_rotation
    from ledger.events import utc_now
    from ledger.transparency import public_key_hex
    from warlog.trust.signing_key import LogError, load_key

    try:
        old, new = load_key(Path(old_key), create=False), load_key(Path(new_key), create=False)
        target = Path(out)
        docs = json.loads(target.read_text(encoding="utf-8")) if target.exists() else []
    except (LogError, OSError, ValueError) as err:
        raise click.ClickException(getattr(err, "message", str(err))) from None
    docs.append(sign_rotation(old, public_key_hex(new), origin, utc_now()))
    target.write_text(json.dumps(docs, indent=1) + "\n", encoding="utf-8")
    click.echo(f"wrote {out}: {public_key_hex(old)[:16]}... hands the log {origin} to {public_key_hex(new)[:16]}...")
