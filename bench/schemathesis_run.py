"""The long schemathesis run: many examples per operation, positive and negative,
against the app on a fresh PostgreSQL schema, with a seat token, the director token and none.
Prints requests sent, answers by status, 5xx and check failures (should be 0 and 0).

    .venv/bin/python bench/schemathesis_run.py [--examples 200] [--pg postgresql://…]

The short version runs in the test suite (tests/api/test_schemathesis.py)."""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    import psycopg
    import schemathesis
    from hypothesis import HealthCheck, given, settings
    from hypothesis.errors import Unsatisfiable
    from psycopg import sql
    from schemathesis import GenerationMode
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    from tests.support.dice_duel import install
    from warlog.api.openapi import openapi_document
    from warlog.app import create_app

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=200, help="examples per operation and mode")
    parser.add_argument("--pg", default=os.environ.get("WARLOG_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test"))
    args = parser.parse_args()
    install()
    schema_name = f"warlog_fuzz_{uuid.uuid4().hex}"
    url = f"{args.pg}{'&' if '?' in args.pg else '?'}options=-csearch_path%3D{schema_name}"
    import tempfile

    from ledger.factory import open_store
    from tests.transparency.helpers import key_file

    open_store(url, upgrade=True).close()  # `warlog db upgrade` (the app only checks the schema version)
    key = key_file(Path(tempfile.mkdtemp()) / "log.pem")  # the transparency log's signing key
    app = create_app({"WARLOG_DB": url, "WARLOG_SWEEP_INTERVAL": 3600.0, "WARLOG_REFUSED_LIMIT": "1000000 per minute",
                      "WARLOG_ALLOW_SUPERUSER": True, "WARLOG_LOG_KEY": str(key)})
    client = app.test_client()
    created = client.post("/api/v1/games", json={"game": "dice-duel"}).get_json()
    for _seat, token in created["seats"].items():
        client.post(f"/api/v1/games/{created['id']}/join", json={}, headers={"Authorization": f"Bearer {token}"})
    schema = schemathesis.openapi.from_dict(openapi_document())
    checks = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
    statuses: collections.Counter[int] = collections.Counter()
    failures: collections.Counter[str] = collections.Counter()
    sent = 0
    started = time.monotonic()
    try:
        for result in schema.get_all_operations():
            op = result.ok()
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                @given(case=op.as_strategy(generation_mode=mode))
                @settings(max_examples=args.examples, deadline=None, suppress_health_check=list(HealthCheck),
                          database=None)
                def run(case: object) -> None:
                    nonlocal sent
                    if "game_id" in (case.path_parameters or {}) and hash(str(case.path_parameters["game_id"])) % 4:
                        case.path_parameters["game_id"] = created["id"]
                    for token in (created["seats"]["north"], created["director_token"], None):
                        headers = {"Authorization": f"Bearer {token}"} if token else {}
                        response = case.call(headers=headers, app=app)
                        sent += 1
                        statuses[response.status_code] += 1
                        try:
                            case.validate_response(response, checks=checks)
                        except Exception as err:  # count, keep going
                            failures[f"{op.method.upper()} {op.path} -> {response.status_code}: "
                                     f"{str(err).splitlines()[1] if len(str(err).splitlines()) > 1 else err}"] += 1

                try:
                    run()
                except Unsatisfiable:
                    pass  # nothing to make negative (no parameters, no body)
    finally:
        app.extensions["warlog_sweeper_stop"].set()
        app.extensions["warlog"].store.close()
        with psycopg.connect(args.pg, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema_name)))
    took = time.monotonic() - started
    print(f"schemathesis on PostgreSQL: {sent} requests in {took:.0f} s, {args.examples} examples per operation and mode")
    print("answers by status: " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
    print(f"5xx: {sum(v for k, v in statuses.items() if k >= 500)}")
    print(f"check failures: {sum(failures.values())}")
    for what, n in failures.most_common(20):
        print(f"  {n:5d}  {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
