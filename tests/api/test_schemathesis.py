"""Fuzzing on the real backend: schemathesis generates requests from the published
OpenAPI document and sends them to the app on PostgreSQL (whose text refuses NUL, unlike
SQLite) with a seat token, the director token and no token: no answer may be a 5xx, and every
answer must be one the document lists, JSON where it says JSON. Bounded (a few examples per
operation) to stay under two minutes; bench/schemathesis_run.py runs the long version."""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from psycopg import sql
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.conftest import PG_URL, Player, pg_schema_url
from tests.support.dice_duel import install as install_dice_duel
from warlog.api.openapi import openapi_document

pytestmark = pytest.mark.slow
EXAMPLES = int(os.environ.get("WARLOG_FUZZ_EXAMPLES", "6"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def live() -> Iterator[tuple[Any, dict[str, Any]]]:
    """An app on a fresh PostgreSQL schema, with one started game to aim the paths at."""
    from ledger.factory import open_store
    from tests.transparency.helpers import key_file
    from warlog.app import create_app

    pg_schema = f"warlog_fuzz_{uuid.uuid4().hex}"
    open_store(pg_schema_url(pg_schema), upgrade=True).close()  # `warlog db upgrade` (the app only checks)
    key = key_file(Path(tempfile.mkdtemp()) / "log.pem")  # the transparency log's signing key
    app = create_app({"TESTING": True, "WARLOG_DB": pg_schema_url(pg_schema), "WARLOG_SWEEP_INTERVAL": 3600.0,
                      "WARLOG_REFUSED_LIMIT": "1000000 per minute", "WARLOG_ALLOW_SUPERUSER": True,
                      "WARLOG_LOG_KEY": str(key)})
    client = app.test_client()
    p = Player(client, app, client.post("/api/v1/games", json={"game": "dice-duel"}).get_json())
    p.join_all()
    assert client.get("/api/v1/openapi.json").get_json() == openapi_document()
    yield app, p.created
    app.extensions["warlog_sweeper_stop"].set()
    app.extensions["warlog"].store.close()
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(pg_schema)))


# The document the app publishes at /api/v1/openapi.json (the fixture checks it is that one), with
# the toy game the fixture plays registered first: its actions are in the document's Action union.
install_dice_duel()
schema = schemathesis.openapi.from_dict(openapi_document())


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_5xx_and_only_documented_answers(case: Any, live: tuple[Any, dict[str, Any]]) -> None:
    app, created = live
    case.operation.schema.app = app  # requests go to this app through its WSGI interface
    if "game_id" in (case.path_parameters or {}) and hash(str(case.path_parameters["game_id"])) % 4:
        case.path_parameters["game_id"] = created["id"]  # three in four aimed at the live game
    for token in (created["seats"]["north"], created["director_token"], None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        headers["Accept-Encoding"] = "identity"  # the WSGI transport would not undo a gzip or brotli answer
        response = case.call(headers=headers, app=app)
        case.validate_response(response, checks=CHECKS)
