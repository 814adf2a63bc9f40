"""Fuzzing found these: every API error is JSON with a message, a 405 says what the path
takes (Allow), a body over the limit is a JSON 413, and the OpenAPI document lists the 400
and 503 answers every operation can give and the query limits of the schemas that check them."""

from __future__ import annotations

from typing import Any


def test_405_is_json_with_allow(client: Any) -> None:
    r = client.delete("/api/v1/catalogue")
    assert r.status_code == 405 and r.is_json and r.get_json()["error"]
    assert set(r.headers["Allow"].replace(" ", "").split(",")) >= {"GET"}
    r = client.put("/api/v1/games")
    assert r.status_code == 405 and {"GET", "POST"} <= set(r.headers["Allow"].replace(" ", "").split(","))


def test_413_is_json(client: Any) -> None:
    r = client.post("/api/v1/games", data=b"{" + b" " * (3 * 1024 * 1024) + b"}",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.is_json and r.get_json()["error"], r.get_data()[:200]


def test_the_document_lists_400_and_503_everywhere_and_the_query_limits(client: Any) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert {"400", "503"} <= set(op["responses"]), (method, path)
    params = {p["name"]: p for p in doc["paths"]["/api/v1/games/{game_id}/events"]["get"]["parameters"]}
    assert params["limit"]["schema"]["maximum"] == 10_000 and params["after"]["schema"]["minimum"] == -1
    assert "429" in doc["paths"]["/api/v1/games/{game_id}/moves"]["post"]["responses"]


def test_414_is_json_from_our_handler(client: Any) -> None:
    """A URI over the limit is our JSON 414, before any route runs (and below gunicorn's own
    request-line limit, whose answer would be an HTML page)."""
    from warlog.web.boundary import MAX_URI

    long = "x" * (MAX_URI + 1)
    for path in (f"/api/v1/games?game={long}", f"/api/v1/games/{long}/state", f"/api/v1/tournaments?cursor={long}"):
        r = client.get(path)
        assert r.status_code == 414 and r.is_json and "at most" in r.get_json()["error"], (path[:40], r.status_code)
    page = client.get(f"/games?{long}")
    assert page.status_code == 414 and "text/html" in page.content_type
    assert client.get(f"/api/v1/games?game={'x' * 60}").status_code == 200  # an ordinary URI is unaffected


def test_413_is_json_on_every_api_blueprint(client: Any) -> None:
    big = b"{" + b" " * (3 * 1024 * 1024) + b"}"
    for path in ("/api/v1/players", "/api/v1/tournaments", "/api/v1/games/nope/moves"):
        r = client.post(path, data=big, headers={"Content-Type": "application/json"})
        assert r.status_code == 413 and r.is_json and r.get_json()["error"], (path, r.get_data()[:200])


def test_405_under_api_for_every_blueprint_is_json_with_allow(client: Any) -> None:
    for path, allowed in (("/api/v1/log/head", "GET"), ("/api/v1/players/me", "GET"), ("/api/v1/games/x/moves", "POST")):
        r = client.delete(path)
        assert r.status_code == 405 and r.is_json and r.get_json()["error"], path
        assert allowed in r.headers["Allow"], path
