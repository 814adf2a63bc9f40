"""A month holding a tournament stream is archived like any other: `warlog archive
export` writes the period's ended tournaments as tournament bundles listed in the manifest,
`detach` is refused while a tournament of the month is still running and checks each
tournament bundle offline, and after `import` (the dump lost) the tournament's chain head is
the one in the bundle and its bundle verifies again."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner

from ledger.factory import open_store
from ledger.partitions import heads
from ledger.postgres import PostgresStore
from tests.players.conftest import close_app, make_app
from tests.tournaments.conftest import Desk
from tests.tournaments.test_swiss_flow import _finish_round, _setup
from warlog.cli import main
from warlog.tournaments.bundle import verify_bundle_bytes

API = "/api/v1/tournaments"


class _Desk(Desk):
    """The tournament driven through the API; the answers' match with the OpenAPI document is
    the business of the other tournament tests, not of archiving."""

    def _check(self, method: str, path: str, r: object) -> None:
        return None


def _cli(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


@pytest.mark.slow
def test_a_month_with_a_tournament_is_exported_detached_and_imported(pg_url: str, tmp_path: Path) -> None:
    app = make_app(pg_url)
    store = open_store(pg_url)
    assert isinstance(store, PostgresStore)
    try:
        code, out = _cli("db", "partitions", "--db", pg_url, "--ahead", "1")
        assert code == 0, out
        desk = _Desk(app)
        tid = _setup(desk)["id"]
        desk.post(f"{API}/{tid}/rounds", "Director", status=201)
        _finish_round(desk, tid, [("win", 0), ("draw", None)])
        with psycopg.connect(pg_url, autocommit=True) as conn:
            period = conn.execute("SELECT left(created_at, 7) FROM tournaments WHERE id = %s", (tid,)).fetchone()[0]
        bundle = tmp_path / period
        code, out = _cli("archive", "export", str(bundle), "--db", pg_url, "--period", period)
        assert code == 0, out
        code, out = _cli("archive", "detach", period, "--bundle", str(bundle), "--db", pg_url)
        assert code == 1 and f"tournaments of {period} have not ended: {tid} (running)" in out, out
        assert f"streams of {period} are not in the bundle" in out and tid in out, out

        desk.post(f"{API}/{tid}/rounds", "Director", status=201)
        _finish_round(desk, tid, [("win", 1), ("win", 0)])
        desk.post(f"{API}/{tid}/end", "Director")
        code, out = _cli("archive", "export", str(bundle), "--db", pg_url, "--period", period)
        assert code == 0 and "4 ended games" in out and "1 ended tournaments" in out, out
        manifest = json.loads((bundle / "manifest.json").read_text())
        [entry] = manifest["tournaments"]
        assert entry["tournament_id"] == tid and entry["file"] == f"tournament-{tid}.jsonl"
        code, out = _cli("archive", "check", str(bundle))
        assert code == 0 and "OK 4 games and 1 tournaments" in out, out

        # a changed tournament bundle is refused before anything is detached
        tfile = bundle / entry["file"]
        good = tfile.read_bytes()
        tfile.write_bytes(good.replace(b'"win"', b'"wln"', 1))
        code, out = _cli("archive", "detach", period, "--bundle", str(bundle), "--db", pg_url)
        assert code == 1 and "SHA-256 differs" in out, out
        tfile.write_bytes(good)

        before = heads(store, period)
        assert before[tid].head == entry["head"] and before[tid].events == entry["events"]
        code, out = _cli("archive", "detach", period, "--bundle", str(bundle), "--db", pg_url)
        assert code == 0 and "detached" in out, out
        with psycopg.connect(pg_url, autocommit=True) as conn:
            assert conn.execute("SELECT count(*) FROM events WHERE game_id = %s", (tid,)).fetchone() == (0,)
            archive = f"{store.schema}_archive_{period.replace('-', '_')}"
            conn.execute(f'DROP SCHEMA "{archive}" CASCADE')  # the dump lost: the bundle brings it back
        code, out = _cli("archive", "import", period, str(bundle), "--db", pg_url)
        assert code == 0 and "imported 4 games" in out, out
        assert heads(store, period) == before
        again = tmp_path / "again.jsonl"
        code, out = _cli("export-tournament", tid, "--db", pg_url, "--out", str(again))
        assert code == 0, out
        assert again.read_bytes() == good
        verify_bundle_bytes(again.read_bytes())
    finally:
        store.close()
        close_app(app)
