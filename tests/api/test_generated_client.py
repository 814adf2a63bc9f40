"""The published OpenAPI document is one a generator can use. The live
/api/v1/openapi.json is checked by an OpenAPI validator, then openapi-python-client generates a
Python client from it into a temporary directory, and a whole game of Assault on Belgium is
played through that client's typed models only: the create answer, each seat's /actions (the
legal actions as AoB action models, chosen from and sent back as they are), the judgements and
the outcome. No raw dicts go out and none come back: every model the game is played through is
checked to have no additional_properties — the seat tokens are read from the create answer's typed
`seat_tokens` list, not from its `seats` map — and the test's own source is checked never to read
an `additional_properties` attribute."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from openapi_spec_validator import validate

from rules import get_game
from validators.assault_on_belgium import SCHEMAS as AOB_ACTIONS
from warlog.trust.verify import verify_bytes

PACKAGE = "warlog_generated_client"
PREFERENCE = ["standard_setup", "done_setup", "pursue", "attack", "resolve_battle", "retreat", "continue",
              "choose_fighter", "choose_bomber", "assign_hit", "take_hit", "no_pursuit", "end_reaction"]


def test_the_live_document_is_valid_openapi(client: Any) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    validate(doc)  # raises on any violation of the OpenAPI 3.0 specification
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert op.get("operationId") and op.get("tags"), (method, path)
    ids = [op["operationId"] for ops in doc["paths"].values() for op in ops.values()]
    assert len(ids) == len(set(ids))
    for name in ("create_game", "submit_move", "get_state", "get_actions", "get_events", "export_game"):
        assert name in ids


def test_the_document_types_what_a_client_reads(client: Any) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    schemas, paths = doc["components"]["schemas"], doc["paths"]

    def ok_schema(path: str, method: str, code: str) -> dict[str, Any]:
        return paths[path][method]["responses"][code]["content"]["application/json"]["schema"]

    for path, method, code, name in (("/api/v1/games", "post", "201", "Created"),
                                     ("/api/v1/games/{game_id}", "get", "200", "GameInfo"),
                                     ("/api/v1/games/{game_id}/actions", "get", "200", "Actions"),
                                     ("/api/v1/games/{game_id}/moves/{seq}", "get", "200", "MoveResult"),
                                     ("/api/v1/games/{game_id}/moves", "post", "409", "Conflict")):
        assert ok_schema(path, method, code) == {"$ref": f"#/components/schemas/{name}"}
    for path, ops in paths.items():  # every JSON answer, success or error, is a named component schema
        for method, op in ops.items():
            for code, resp in op["responses"].items():
                body = resp.get("content", {}).get("application/json")
                assert body is None or "$ref" in body["schema"], (method, path, code, body)
    assert schemas["Created"]["properties"]["seats"]["additionalProperties"]["type"] == "string"
    assert schemas["Created"]["properties"]["seat_tokens"]["items"] == {"$ref": "#/components/schemas/SeatToken"}
    assert set(schemas["SeatToken"]["required"]) == {"seat", "token", "display_name", "url"}
    assert schemas["SeatToken"]["additionalProperties"] is False
    assert "current_seq" in schemas["Conflict"]["required"]
    assert schemas["Move"]["properties"]["action"] == {"$ref": "#/components/schemas/Action"}
    aob = schemas["AobAction"]
    assert aob["discriminator"]["propertyName"] == "type"
    assert set(aob["discriminator"]["mapping"]) == set(AOB_ACTIONS)  # the schemas moves are checked with
    assert schemas["AobMoveAction"]["properties"]["type"]["enum"] == ["move"]
    assert "anyOf" not in json.dumps(schemas["CreateGame"])  # the sandbox is a nullable ref, not a union
    export = paths["/api/v1/games/{game_id}/export"]["get"]["responses"]["200"]["content"]
    assert set(export) == {"application/x-ndjson", "application/octet-stream"}  # bytes for a generated client
    for route in ("actions", "events", "state", "moves/{seq}"):
        assert {"seat": []} in paths[f"/api/v1/games/{{game_id}}/{route}"]["get"]["security"]


@pytest.fixture
def generated(client: Any, tmp_path: Path) -> Any:
    """A client generated from the live document by openapi-python-client, imported."""
    doc = tmp_path / "openapi.json"
    doc.write_text(json.dumps(client.get("/api/v1/openapi.json").get_json()))
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"post_hooks": [], "package_name_override": PACKAGE,
                                  "project_name_override": "warlog-generated-client"}))  # nothing overridden
    out = tmp_path / "generated"
    tool = Path(sys.executable).parent / "openapi-python-client"
    run = subprocess.run([str(tool), "generate", "--path", str(doc), "--config", str(config), "--meta", "none",
                          "--output-path", str(out / PACKAGE)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "WARNING" not in run.stdout + run.stderr, run.stdout + run.stderr
    sys.path.insert(0, str(out))
    try:
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))


def test_this_test_reads_no_untyped_attribute() -> None:
    """The game below is played through typed attributes only: no untyped extras attribute read, and
    the seats' tokens come from `seat_tokens`, not the `seats` map."""
    source = Path(__file__).read_text(encoding="utf-8")
    for untyped in ("." + "additional_properties", "." + "seats[", "." + "seats."):
        assert untyped not in source, untyped


def typed(value: Any) -> Any:
    """`value`, after checking it is a generated model with no untyped extra attributes."""
    assert not isinstance(value, dict), value
    assert not hasattr(value, "additional_properties"), type(value).__name__
    return value


class TypedBot:
    """Assault on Belgium's plain-minded bot (tests/assault_on_belgium/api_bot.py), deciding from the typed
    actions alone: Germany drives its tanks down the map toward Brussels and Antwerp, flies
    everything, and always attacks and pursues; Belgium sets up by the book and does not react."""

    def __init__(self) -> None:
        world = get_game("assault-on-belgium").world  # type: ignore[attr-defined]
        self.grid = world.grid
        self.objectives = [world.objectives["brussels"], world.objectives["antwerp"]]
        self.target: str | None = None
        self.best = 10**9
        self.tanks = 0

    def choose(self, actions: list[Any]) -> Any:
        by_type: dict[str, list[Any]] = {}
        for a in actions:
            by_type.setdefault(typed(a).type_.value, []).append(a)
        if "end_movement" in by_type:  # the German land move
            return self._german_move(by_type)
        if "end_air" in by_type:
            return (by_type.get("fly") or by_type["end_air"])[0]
        for kind in PREFERENCE:
            if kind in by_type:
                return by_type[kind][0]
        return actions[0]

    def _german_move(self, by_type: dict[str, list[Any]]) -> Any:
        if self.target is not None and "move" in by_type:
            target = self.target
            best = min(by_type["move"], key=lambda a: (self.grid.distance(a.hex_, target),
                                                       0 if a.tank_battle else 1))
            if self.grid.distance(best.hex_, target) < self.best:
                self.best = self.grid.distance(best.hex_, target)
                return best
        if "end_unit_move" in by_type:
            self.target = None
            return by_type["end_unit_move"][0]
        tanks = [a for a in by_type.get("select", []) if a.unit.startswith("de-pz")]
        if tanks and self.tanks < 40:
            self.tanks += 1
            self.target, self.best = self.objectives[self.tanks % 2], 10**9
            return tanks[0]
        return by_type["end_movement"][0]


@pytest.mark.slow
def test_a_generated_client_plays_a_whole_game_of_assault_on_belgium(app: Any, generated: Any) -> None:
    from warlog_generated_client import AuthenticatedClient, Client
    from warlog_generated_client.api.games import create_game, export_game, get_game, join_game
    from warlog_generated_client.api.moves import get_actions, get_move, submit_move
    from warlog_generated_client.models import (
        Accepted,
        Actions,
        AobScenario,
        CreateAobGame,
        CreateAobGameGame,
        Created,
        GameInfo,
        GameInfoStatus,
        Join,
        Move,
        MoveResult,
        MoveResultStatus,
    )

    base = "http://warlog.test"

    def wsgi(client: Any) -> Any:
        """The generated client, talking to the app through WSGI (its own httpx client, with its headers)."""
        token = getattr(client, "token", None)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        client.set_httpx_client(httpx.Client(transport=httpx.WSGITransport(app=app), base_url=base, headers=headers))
        return client

    public = wsgi(Client(base_url=base, raise_on_unexpected_status=True))
    svc = app.extensions["warlog"]  # one fixed game (seed and id fix the dice): the same every run
    svc.new_seed, svc.new_id = (lambda: bytes([3]) * 32), (lambda: "typed-client-aob")
    created = create_game.sync(client=public, body=CreateAobGame(
        game=CreateAobGameGame.ASSAULT_ON_BELGIUM, scenario=AobScenario.MAY_1940))
    assert isinstance(typed(created), Created)
    gid = created.id
    roles = typed(get_game.sync(gid, client=public)).roles
    tokens = {typed(t).seat: t for t in created.seat_tokens}
    assert list(tokens) == roles and tokens["germany"].display_name == "Germany"
    assert all(t.token in t.url and gid in t.url for t in tokens.values())
    seats = {role: wsgi(AuthenticatedClient(base_url=base, token=tokens[role].token,
                                            raise_on_unexpected_status=True)) for role in roles}
    for role, seat in seats.items():
        assert typed(join_game.sync(gid, client=seat, body=Join(entropy=f"{role}-luck"))).seat == role

    bot, moves, started, kinds = TypedBot(), 0, time.monotonic(), set()
    while True:
        info = get_game.sync(gid, client=public)
        assert isinstance(typed(info), GameInfo)
        if info.status == GameInfoStatus.ENDED:
            break
        assert moves < 3000 and time.monotonic() - started < 50, "the game did not end"
        role = info.active_seats[0]
        listing = get_actions.sync(gid, client=seats[role])
        assert isinstance(typed(listing), Actions) and listing.actions, listing
        action = bot.choose(listing.actions)
        sent = submit_move.sync(gid, client=seats[role], body=Move(
            action=action, expected_seq=listing.expected_seq, idempotency_key=f"{role}-{moves}"))
        assert isinstance(typed(sent), Accepted)
        while True:
            judged = get_move.sync(gid, sent.seq, client=seats[role])
            assert isinstance(typed(judged), MoveResult)
            if judged.status != MoveResultStatus.PENDING:
                break
            time.sleep(0.002)
        assert judged.status == MoveResultStatus.RESOLVED, (action, judged.reasons)
        kinds |= {typed(fact).kind for fact in judged.facts}
        moves += 1
    outcome = typed(info.outcome)
    assert outcome.winner in roles and outcome.reason, outcome
    exported = export_game.sync(gid, client=seats[roles[0]])  # JSON Lines, handed over as bytes
    assert isinstance(exported, bytes)
    report = verify_bytes(exported)
    assert report.seed_revealed and not report.sandbox
    assert moves > 50 and {"setup", "move", "air_mission", "battle", "tank_battle", "victory"} <= kinds, kinds


def test_each_games_state_schema_is_an_openapi_30_component_its_examples_fit(client: Any) -> None:
    """Each game's state schema is published in the document as `<Game>State`, an
    OpenAPI 3.0.3 Schema Object (no `const`, `if`/`then`, `$schema` or `$id`); the full Draft 2020-12
    JSON Schema stays at its URL, which the description names; every scenario's example state fits
    the component under OpenAPI 3.0 semantics, and a wrong one does not."""
    from openapi_schema_validator import OAS30Validator

    from warlog.api.openapi_games import prefix

    doc = client.get("/api/v1/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    for name in ("assault-on-belgium", "green-beret-vietnam", "vietnam-battles", "lock-n-load", "up-front"):
        component = schemas[f"{prefix(name)}State"]
        text = json.dumps(component)
        for banned in ('"const"', '"if"', '"$schema"', '"$id"', '"examples"'):
            assert banned not in text, (name, banned)
        url = f"/api/v1/games/schemas/{name}/state"
        assert f"GET {url}" in component["description"]
        full = client.get(url).get_json()
        assert full["$schema"].endswith("2020-12/schema")  # the full JSON Schema stays published
        validator = OAS30Validator(component)
        for example in full["examples"]:
            errors = list(validator.iter_errors(example))
            assert not errors, (name, errors[0].message, list(errors[0].path))
        wrong = {**full["examples"][0], "phase": 7}
        assert list(validator.iter_errors(wrong)), name


def test_the_generated_client_carries_every_schema_and_endpoint(generated: Any) -> None:
    """Every game's state schema is a model, every operation a function (both exports handing
    over bytes), and an action is typed by the shape it has, never by another game's name: a
    Vietnam Battles `pass` is a `PassAction`, not a `LnlPassAction`."""
    import inspect

    from warlog.api.openapi_ids import OPERATIONS

    models = importlib.import_module(PACKAGE + ".models")
    for state in ("AobState", "GbvState", "LnlState", "UfState", "VbState"):
        assert hasattr(models, state), state
    for (_method, _path), (op_id, tag) in OPERATIONS.items():
        module = importlib.import_module(f"{PACKAGE}.api.{tag}.{op_id}")
        assert callable(module.sync_detailed), op_id
    for tag, op_id in (("games", "export_game"), ("tournaments", "export_tournament")):
        module = importlib.import_module(f"{PACKAGE}.api.{tag}.{op_id}")
        # the 200 answer is handed over (its body as read), not omitted as an unknown media type
        assert "if response.status_code == 200:" in inspect.getsource(module._parse_response), op_id
    listing = models.Actions.from_dict({"actions": [{"type": "pass"}], "expected_seq": 3, "prompt": "", "seat": "us",
                                        "status": "active", "sandbox": False})
    assert type(listing.actions[0]).__name__ == "PassAction"
    assert not hasattr(models, "LnlPassAction")


def test_the_generated_client_creates_and_reads_a_game_on_a_live_server(app: Any, generated: Any) -> None:
    """A real HTTP round trip: the app served on a loopback port, the generated client (its own
    httpx transport) creates a game and reads it back."""
    import threading

    from warlog_generated_client import Client
    from warlog_generated_client.api.games import create_game, get_game
    from warlog_generated_client.models import Created, CreateVbGame, CreateVbGameGame, GameInfo
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        client = Client(base_url=f"http://127.0.0.1:{server.server_port}", raise_on_unexpected_status=True)
        created = create_game.sync(client=client, body=CreateVbGame(game=CreateVbGameGame.VIETNAM_BATTLES))
        assert isinstance(created, Created) and created.id
        info = get_game.sync(created.id, client=client)
        assert isinstance(info, GameInfo) and info.id == created.id and info.game == "vietnam-battles"
    finally:
        server.shutdown()
        thread.join(timeout=10)
