"""Never a 500, never a traceback: whatever a client sends, the API answers with a
4xx and a JSON error that says what was wrong. Hypothesis throws arbitrary JSON, bytes and
query strings at every route of a live Assault on Belgium game."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
# actions shaped like the real ones, with wrong types and values mixed in
action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["select", "move", "place", "end_movement", "standard_setup", "nope", ""]) | json_values},
    optional={"unit": st.sampled_from(["be-inf-1", "de-pz-1", "x"]) | json_values,
              "hex": st.sampled_from(["1005", "0101", "9999", "10-05"]) | json_values,
              "extra": json_values},
)


@pytest.fixture
def app(db_url: str) -> Any:
    """The conftest app on both ledgers (PostgreSQL refuses what SQLite takes, such
    as NUL), with the refused-moves limit out of the fuzzer's way: it probes what the
    validators refuse, and would otherwise meet 429 after 30 refusals."""
    from warlog.app import create_app

    app = create_app({"TESTING": True, "WARLOG_DB": db_url, "WARLOG_REFUSED_LIMIT": "1000000 per minute"})
    yield app
    app.extensions["warlog_sweeper_stop"].set()
    app.extensions["warlog"].store.close()


@pytest.fixture
def aob_game(new_game: Any) -> Any:
    return new_game("assault-on-belgium", "may-1940")


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _assert_clear_error(r: Any, allowed: set[int]) -> None:
    assert r.status_code in allowed, (r.status_code, r.get_data(as_text=True)[:300])
    body = r.get_json(silent=True)
    assert isinstance(body, dict), r.get_data(as_text=True)[:300]
    if r.status_code >= 400:
        assert isinstance(body.get("error"), str) and body["error"], body
        assert "Traceback" not in r.get_data(as_text=True)


@FUZZ
@given(body=json_values)
def test_create_with_any_json_is_created_or_refused_clearly(client, body) -> None:
    r = client.post("/api/v1/games", json=body)
    _assert_clear_error(r, {201, 400, 422})


@FUZZ
@given(raw=st.binary(max_size=64), ctype=st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"]))
def test_create_with_any_bytes_is_refused_clearly(client, raw, ctype) -> None:
    r = client.post("/api/v1/games", data=raw, headers={"Content-Type": ctype})
    _assert_clear_error(r, {201, 400, 415, 422})


@FUZZ
@given(action=action_like | json_values, expected=json_values | st.integers(-3, 10), key=json_values | st.text(max_size=80))
@pytest.mark.slow
def test_moves_with_any_body_are_accepted_or_refused_clearly(aob_game, action, expected, key) -> None:
    game = aob_game
    r = game.client.post(f"/api/v1/games/{game.id}/moves", headers=game.auth("belgium"),
                         json={"action": action, "expected_seq": expected, "idempotency_key": key})
    _assert_clear_error(r, {202, 400, 409, 422})


@FUZZ
@given(after=st.text(max_size=12), at=st.text(max_size=12), limit=st.text(max_size=12),
       seq=st.integers(min_value=-5, max_value=10**6), token=st.text(max_size=40))
@pytest.mark.slow
def test_reads_with_any_query_or_token_answer_clearly(aob_game, after, at, limit, seq, token) -> None:
    game = aob_game
    headers = {"Authorization": f"Bearer {token}"} if token.isascii() and token.isprintable() else {}
    base = f"/api/v1/games/{game.id}"
    for path in (f"{base}/events", f"{base}/state", f"{base}/actions", f"{base}/moves/{max(seq, 0)}", base,
                 f"{base}/export"):
        r = game.client.get(path, query_string={"after": after, "at": at, "limit": limit}, headers=headers)
        _assert_clear_error(r, {200, 400, 401, 403, 404, 422})


@FUZZ
@given(ruling=json_values, key=json_values)
@pytest.mark.slow
def test_rulings_with_any_body_are_accepted_or_refused_clearly(aob_game, ruling, key) -> None:
    game = aob_game
    r = game.client.post(f"/api/v1/games/{game.id}/rulings", headers=game.auth("director"),
                         json={"ruling": ruling, "idempotency_key": key})
    _assert_clear_error(r, {202, 400, 409, 422})


def test_unknown_game_and_route_are_json_404(client) -> None:
    for path in ("/api/v1/games/nope", "/api/v1/games/nope/events", "/api/v1/nothing-here"):
        r = client.get(path)
        assert r.status_code == 404 and "error" in json.loads(r.get_data(as_text=True))
