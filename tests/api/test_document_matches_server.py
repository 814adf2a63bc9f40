"""The OpenAPI document says what the server enforces, item by item (each mismatch a fuzzer with
every check found): the action union is the discriminated `oneOf` the server checks, with no
game's name on another game's action; strings carry the NUL and control-character patterns the
server refuses; tournament bodies are required; a missing or empty bearer is a 401; OPTIONS
allows only the methods the document lists; links lead from each answer's ids to the
operations that take them; exports are also offered as octet streams."""

from __future__ import annotations

import re
from typing import Any

import pytest
from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource

from rules import all_games
from validators.actions import schemas_for
from warlog.api.openapi_games import camel, prefix


@pytest.fixture
def doc(client: Any) -> dict[str, Any]:
    return dict(client.get("/api/v1/openapi.json").get_json())


def _validator(doc: dict[str, Any], name: str) -> OAS30Validator:
    registry = Registry().with_resource("doc", Resource.opaque(doc))
    return OAS30Validator({"$ref": f"doc#/components/schemas/{name}"}, registry=registry)


def _operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, ops in doc["paths"].items() for method, op in ops.items()]


# -- actions --------------------------------------------------------------------------------------

def test_the_action_union_is_a_oneof_discriminated_by_type_over_every_game(doc: dict[str, Any]) -> None:
    action = doc["components"]["schemas"]["Action"]
    assert "anyOf" not in action and action["discriminator"]["propertyName"] == "type"
    mapping = action["discriminator"]["mapping"]
    kinds = {kind for game in all_games() for kind in schemas_for(game.name)}
    assert set(mapping) == kinds
    assert sorted(r["$ref"] for r in action["oneOf"]) == sorted(set(mapping.values()))
    assert _validator(doc, "Action").is_valid({"type": "pass"})
    assert not _validator(doc, "Action").is_valid({"type": "no-such-action"})


def test_no_game_types_an_action_of_another_game_by_its_own_name(doc: dict[str, Any]) -> None:
    """A Vietnam Battles `pass` is not a `LnlPassAction`: a component named after one game is used by that game only."""
    prefixes = {prefix(g.name): g.name for g in all_games()}
    schemas = doc["components"]["schemas"]
    for game in all_games():
        mapping = schemas[f"{prefix(game.name)}Action"]["discriminator"]["mapping"]
        assert set(mapping) == set(schemas_for(game.name))
        for kind, target in mapping.items():
            name = target.rsplit("/", 1)[1]
            owners = re.findall(r"[A-Z][a-z]*", name.removesuffix(camel(kind) + "Action"))
            assert set(owners) <= set(prefixes), (game.name, kind, name)  # the games that share this shape, or none
            assert not owners or prefix(game.name) in owners, (game.name, kind, name)
            assert schemas[name]["properties"]["type"]["enum"] == [kind]
    vb_pass = schemas["VbAction"]["discriminator"]["mapping"]["pass"]
    assert vb_pass == "#/components/schemas/PassAction"
    assert "LnlPassAction" not in schemas and "VbPassAction" not in schemas


# -- text: NUL and control characters ---------------------------------------------------------------

def _request_schemas(doc: dict[str, Any]) -> set[str]:
    """The component schemas a request body names, with those they nest."""
    names: set[str] = set()
    todo = [op["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
            for _m, _p, op in _operations(doc) if "requestBody" in op]
    while todo:
        name = todo.pop()
        if name in names:
            continue
        names.add(name)
        todo += [m.rsplit("/", 1)[1] for m in re.findall(r"#/components/schemas/\w+", str(doc["components"]["schemas"][name]))]
    return names


def _strings(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, list):
        return [s for item in node for s in _strings(item)]
    if not isinstance(node, dict):
        return []
    found = [node] if node.get("type") == "string" else []
    return found + [s for value in node.values() for s in _strings(value)]


def test_every_request_string_refuses_nul_as_the_server_does(doc: dict[str, Any], client: Any) -> None:
    schemas = doc["components"]["schemas"]
    checked = 0
    for name in _request_schemas(doc):
        for prop in _strings(schemas[name]):
            if "enum" in prop or prop.get("format") in ("date", "date-time", "email", "binary"):
                continue
            assert "pattern" in prop, (name, prop)
            assert not re.search(prop["pattern"], "a\x00b"), (name, prop["pattern"])
            checked += 1
    assert checked > 50
    for _m, path, op in _operations(doc):
        for parameter in op.get("parameters", []):
            if parameter["schema"].get("type") == "string" and "enum" not in parameter["schema"]:
                assert not re.search(parameter["schema"].get("pattern", ""), "a\x00b"), (path, parameter)
    # the server: a NUL in a field is a 400, as the document now says beforehand
    r = client.post("/api/v1/players/signin", json={"email": "a\x00@example.org"})
    assert r.status_code == 400 and "NUL" in r.get_json()["error"]


def test_names_that_reach_mail_headers_refuse_control_characters_in_the_document(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    for name, field in (("CreateTournament", "name"), ("Register", "display_name"), ("UseLink", "display_name")):
        pattern = schemas[name]["properties"][field]["pattern"]
        for bad in ("a\x02b", "a\nb", "a\x85b", "a\u2028b"):
            assert not re.search(pattern, bad), (name, field, bad)
        assert re.search(pattern, "Autumn Open – 2026")


# -- bodies, sign-in and OPTIONS ------------------------------------------------------------------

def test_a_body_is_required_exactly_when_its_schema_requires_a_field(doc: dict[str, Any], client: Any) -> None:
    """The server reads an empty body as {}: required when a field is (tournament bodies too)."""
    schemas = doc["components"]["schemas"]
    for method, path, op in _operations(doc):
        if "requestBody" in op:
            name = op["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
            shapes = [schemas[r["$ref"].rsplit("/", 1)[1]] for r in schemas[name].get("oneOf", [])] or [schemas[name]]
            assert op["requestBody"]["required"] is all(s.get("required") for s in shapes), (method, path)
    assert doc["paths"]["/api/v1/tournaments/{tid}/directors"]["post"]["requestBody"]["required"] is True
    assert doc["paths"]["/api/v1/tournaments/{tid}/withdraw"]["post"]["requestBody"]["required"] is False
    assert client.post("/api/v1/players/signin").status_code == 400  # no body: no e-mail
    game = client.post("/api/v1/games", json={"game": "dice-duel"}).get_json()
    seat = {"Authorization": f"Bearer {next(iter(game['seats'].values()))}"}
    assert client.post(f"/api/v1/games/{game['id']}/join", headers=seat).status_code == 200  # nothing required


def test_no_credentials_is_401_for_tournaments_and_an_empty_bearer_is_401(doc: dict[str, Any], client: Any) -> None:
    body = {"name": "Open", "game": "assault-on-belgium", "format": {"kind": "swiss", "rounds": 3}}
    r = client.post("/api/v1/tournaments", json=body)
    assert r.status_code == 401, r.get_json()
    assert "401" in doc["paths"]["/api/v1/tournaments"]["post"]["responses"]
    game = client.post("/api/v1/games", json={"game": "dice-duel"}).get_json()
    r = client.post(f"/api/v1/games/{game['id']}/join", json={}, headers={"Authorization": "Bearer  "})
    assert r.status_code == 401 and "no token" in r.get_json()["error"]
    r = client.post(f"/api/v1/games/{game['id']}/join", json={}, headers={"Authorization": "Basic eDp5"})
    assert r.status_code == 400  # another scheme is a malformed request, as before


def test_options_allows_only_the_documented_methods(doc: dict[str, Any], client: Any) -> None:
    for path in ("/api/v1/players/signin", "/api/v1/players/claim"):
        allow = {m.strip() for m in client.options(path).headers["Allow"].split(",")}
        assert allow - {"OPTIONS", "HEAD"} == {m.upper() for m in doc["paths"][path]}, (path, allow)
    assert client.get("/api/v1/players/signin").status_code == 405
    missing = client.get("/api/v1/players/p0123456789abcdef")
    assert missing.status_code == 404 and "no player" in missing.get_json()["error"]
    pattern = doc["paths"]["/api/v1/players/{player_id}"]["get"]["parameters"][0]["schema"]["pattern"]
    assert re.search(pattern, "p0123456789abcdef") and not re.search(pattern, "signin")


def test_tournament_cursor_and_emails_as_documented(doc: dict[str, Any], client: Any) -> None:
    cursor = next(p for _m, path, op in _operations(doc) if path == "/api/v1/tournaments"
                  for p in op.get("parameters", []) if p["name"] == "cursor")
    assert re.search(cursor["schema"]["pattern"], "")  # an empty cursor is the first page, as the server takes it
    assert client.get("/api/v1/tournaments?cursor=").status_code == 200
    assert not re.search(cursor["schema"]["pattern"], "nonsense")
    assert client.get("/api/v1/tournaments?cursor=nonsense").status_code == 400
    email = doc["components"]["schemas"]["Signin"]["properties"]["email"]["pattern"]
    for address, ok in (("", False), ("0@0.a", False), ("a.b+c@ex-ample.org", True)):
        assert bool(re.search(email, address)) is ok, address
        assert (client.post("/api/v1/players/signin", json={"email": address}).status_code == 202) is ok, address
    name = doc["components"]["schemas"]["Register"]["properties"]["display_name"]
    assert name["maxLength"] == 60 and not re.search(name["pattern"], "   ")
    r = client.post("/api/v1/players", json={"email": "x@example.org", "display_name": "   "})
    assert r.status_code == 400, r.get_json()
    games = doc["components"]["schemas"]["CreateTournament"]["properties"]["game"]["enum"]
    assert set(games) == {g.name for g in all_games()}


# -- links and exports ------------------------------------------------------------------------------

# operations whose path ids no answer gives: the secret of a mailed link; a game's name (an enum);
# a log proof's game id comes from a game answer like the others
NOT_LINKED = {"use_signin_link", "get_state_schema"}


def test_links_lead_to_every_operation_that_takes_an_id(doc: dict[str, Any]) -> None:
    ids = {op["operationId"] for _m, _p, op in _operations(doc)}
    targets: set[str] = set()
    for _m, _p, op in _operations(doc):
        for response in op["responses"].values():
            for link in response.get("links", {}).values():
                assert link["operationId"] in ids
                targets.add(link["operationId"])
    needing = {op["operationId"] for _m, path, op in _operations(doc) if "{" in path}
    assert needing - targets == NOT_LINKED
    created = doc["paths"]["/api/v1/games"]["post"]["responses"]["201"]["links"]
    assert created["get_game"] == {"operationId": "get_game", "parameters": {"game_id": "$response.body#/id"}}
    moved = doc["paths"]["/api/v1/games/{game_id}/moves"]["post"]["responses"]["202"]["links"]["get_move"]
    assert moved["parameters"] == {"game_id": "$request.path.game_id", "seq": "$response.body#/seq"}


def test_exports_are_json_lines_or_the_same_bytes_as_an_octet_stream(doc: dict[str, Any], client: Any) -> None:
    for path in ("/api/v1/games/{game_id}/export", "/api/v1/tournaments/{tid}/export"):
        content = doc["paths"][path]["get"]["responses"]["200"]["content"]
        assert set(content) == {"application/x-ndjson", "application/octet-stream"}, path
    game = client.post("/api/v1/games", json={"game": "dice-duel"}).get_json()
    auth = {"Authorization": f"Bearer {game['director_token']}"}
    lines = client.get(f"/api/v1/games/{game['id']}/export", headers=auth)
    assert lines.mimetype == "application/x-ndjson"
    raw = client.get(f"/api/v1/games/{game['id']}/export", headers={**auth, "Accept": "application/octet-stream"})
    assert raw.mimetype == "application/octet-stream" and raw.data == lines.data


def test_a_time_control_without_time_is_invalid_in_the_document_as_on_the_server(doc: dict[str, Any]) -> None:
    from marshmallow import ValidationError

    from validators.tournaments import TimeControlSchema

    validator = _validator(doc, "TimeControl")
    for control, ok in (({"days": 0}, False), ({"days": 0, "hours": 0, "mode": "per_move"}, False),
                        ({"days": 0, "hours": 6}, True), ({"days": 0, "mode": "bank", "bank_days": 3}, True),
                        ({"days": 2}, True), ({}, True)):
        assert validator.is_valid(control) is ok, control
        try:
            TimeControlSchema().load(control)
            loaded = True
        except ValidationError:
            loaded = False
        assert loaded is ok, control


def test_every_operation_that_reads_a_token_lists_401(doc: dict[str, Any]) -> None:
    for method, path, op in _operations(doc):
        if op.get("security"):
            assert "401" in op["responses"], (method, path)


def test_an_empty_list_filter_is_no_filter_in_the_document_as_on_the_server(doc: dict[str, Any], client: Any) -> None:
    parameters = {p["name"]: p["schema"] for p in doc["paths"]["/api/v1/games"]["get"]["parameters"]}
    assert "minLength" not in parameters["game"] and "" in parameters["status"]["enum"]
    assert client.get("/api/v1/games?game=&status=").status_code == 200


def test_forking_a_running_game_without_a_token_is_401(client: Any) -> None:
    game = client.post("/api/v1/games", json={"game": "dice-duel"}).get_json()
    r = client.post(f"/api/v1/games/{game['id']}/fork", json={"step": 0})
    assert r.status_code == 401 and "director" in r.get_json()["error"]
    seat = {"Authorization": f"Bearer {next(iter(game['seats'].values()))}"}
    assert client.post(f"/api/v1/games/{game['id']}/fork", json={"step": 0}, headers=seat).status_code == 403


def test_create_game_is_one_shape_per_game_with_its_own_scenarios_options_and_seats(doc: dict[str, Any],
                                                                                    client: Any) -> None:
    """A body the document calls valid names its own game's scenario, options and seat: the
    server creates that game; another game's scenario or option is invalid in the document too."""
    create = doc["components"]["schemas"]["CreateGame"]
    assert create["discriminator"]["propertyName"] == "game"
    assert set(create["discriminator"]["mapping"]) == {g.name for g in all_games()}
    validator = _validator(doc, "CreateGame")
    body = {"game": "up-front", "scenario": "C", "options": {"condition": "mud", "mountain_troops": False},
            "creator": "umpire"}  # UP FRONT's scenarios share no seat (I: partisans, N: Japanese): only the umpire
    assert validator.is_valid(body)
    assert not validator.is_valid({**body, "creator": "germans"})  # the document cannot promise a seat of C's
    scenario = doc["components"]["schemas"]["CreateUfGame"]["properties"]["scenario"]
    assert scenario["nullable"] is True and scenario["allOf"] == [{"$ref": "#/components/schemas/UfScenario"}]
    assert client.post("/api/v1/games", json=body).status_code == 201
    assert client.post("/api/v1/games", json={**body, "scenario": None}).status_code == 201  # null: the first
    for wrong in ({**body, "scenario": "may-1940"}, {**body, "options": {"heroes": True}},
                  {**body, "creator": "belgium"}, {**body, "game": "chess"}):
        assert not validator.is_valid(wrong), wrong
        assert client.post("/api/v1/games", json=wrong).status_code == 422, wrong


def test_an_option_is_one_of_its_choices_exactly_not_a_number_equal_to_one(client: Any) -> None:
    """{"real_chit": 0} is not a boolean: the document's enum [false, true] refuses it, so does the server."""
    body = {"game": "vietnam-battles", "options": {"real_chit": 0}}
    r = client.post("/api/v1/games", json=body)
    assert r.status_code == 422 and "real_chit" in r.get_json()["error"], r.get_json()
    assert client.post("/api/v1/games", json={**body, "options": {"real_chit": False}}).status_code == 201


def test_the_director_pausing_a_game_is_refused_as_the_document_says(doc: dict[str, Any], client: Any) -> None:
    """Only a seat pauses a game: the director's token is a 403, which the operation lists (it
    was a 400, which it does not)."""
    game = client.post("/api/v1/games", json={"game": "dice-duel"}).get_json()
    r = client.post(f"/api/v1/games/{game['id']}/pause", json={"do": "agree"},
                    headers={"Authorization": f"Bearer {game['director_token']}"})
    assert r.status_code == 403 and "only a seat" in r.get_json()["error"]
    assert "403" in doc["paths"]["/api/v1/games/{game_id}/pause"]["post"]["responses"]
