"""One game registry, loaded the same way by every process.

The web app, the worker and `warlog verify` each load the registry on their first question
(rules.load_games): the built-in games, then the modules WARLOG_GAME_MODULES names. Each process
here is a fresh interpreter, so that nothing registered by this test process (the dice duel of
tests/conftest.py) can hide a process that does not load the extra modules.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules import BUILT_IN_GAMES, all_games, companion, extra_game_modules, package_name
from validators.actions import schemas_for
from warlog.render import TextRenderer, renderer_for

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "tests.support.dice_duel_plugin"

# The web app as `warlog serve` builds it: its catalogue, then a game of the extra module's game
# created, played to its end by the in-process worker and exported.
WEB = """
import json, sys, time, uuid
from warlog.app import create_app

app = create_app({"TESTING": True, "WARLOG_DB": "sqlite:///" + sys.argv[1]})
c = app.test_client()
names = [g["game"] for g in c.get("/api/v1/catalogue").get_json()["games"]]
created = c.post("/api/v1/games", json={"game": "dice-duel", "scenario": "short"})
out = {"catalogue": names, "created": created.status_code}
if created.status_code == 201:
    g = created.get_json()
    auth = lambda seat: {"Authorization": "Bearer " + g["seats"][seat]}
    for seat in g["seats"]:
        c.post(f"/api/v1/games/{g['id']}/join", json={"entropy": seat}, headers=auth(seat))
    for _ in range(400):
        info = c.get(f"/api/v1/games/{g['id']}").get_json()
        if info["status"] == "ended":
            break
        if info["pending"] or not info["active_seats"]:
            app.extensions["warlog_queue"].drain(); time.sleep(0.02); continue
        seat = info["active_seats"][0]
        seq = c.get(f"/api/v1/games/{g['id']}/actions", headers=auth(seat)).get_json()["expected_seq"]
        c.post(f"/api/v1/games/{g['id']}/moves", headers=auth(seat), json={
            "action": {"type": "roll"}, "expected_seq": seq, "idempotency_key": uuid.uuid4().hex})
    out["status"] = info["status"]
    with open(sys.argv[2], "wb") as f:
        f.write(c.get(f"/api/v1/games/{g['id']}/export").get_data())
print(json.dumps(out))
"""

# The worker's start (worker.run_worker loads the games this way before it takes a job).
WORKER = """
import json, worker
from rules import all_games
worker.load_game_modules()
print(json.dumps([g.name for g in all_games()]))
"""


def _run(args: list[str], extra: str | None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "WARLOG_GAME_MODULES"}
    env["PYTHONPATH"] = str(ROOT)
    if extra is not None:
        env["WARLOG_GAME_MODULES"] = extra
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_web_app_the_worker_and_verify_know_the_same_games(tmp_path: Path) -> None:
    web = _run(["-c", WEB, str(tmp_path / "web.sqlite3"), str(tmp_path / "duel.jsonl")], PLUGIN)
    assert web.returncode == 0, web.stderr
    seen = json.loads(web.stdout.strip().splitlines()[-1])
    worker = _run(["-c", WORKER], PLUGIN)
    assert worker.returncode == 0, worker.stderr
    worker_games = json.loads(worker.stdout.strip().splitlines()[-1])

    assert "dice-duel" in worker_games and len(worker_games) == len(BUILT_IN_GAMES) + 1
    assert seen["catalogue"] == worker_games  # the web process lists what the worker judges
    assert seen["created"] == 201 and seen["status"] == "ended"  # and plays it with the in-process worker

    verified = _run(["-c", "from warlog.cli import main; main()", "verify", str(tmp_path / "duel.jsonl")], PLUGIN)
    assert verified.returncode == 0 and verified.stdout.startswith("OK"), verified.stdout + verified.stderr
    listed = _run(["-c", "from warlog.cli import main; main()", "games"], PLUGIN)
    assert [line.split()[0] for line in listed.stdout.splitlines() if not line.startswith(" ")] == worker_games


def test_without_extra_modules_every_process_knows_the_built_in_games_only(tmp_path: Path) -> None:
    worker = _run(["-c", WORKER], None)
    assert worker.returncode == 0, worker.stderr
    assert "dice-duel" not in json.loads(worker.stdout.strip().splitlines()[-1])
    web = _run(["-c", WEB, str(tmp_path / "web.sqlite3"), str(tmp_path / "duel.jsonl")], None)
    seen = json.loads(web.stdout.strip().splitlines()[-1])
    assert seen["catalogue"] == json.loads(worker.stdout.strip().splitlines()[-1])
    assert seen["created"] == 422  # an unknown game, refused in words


@pytest.mark.parametrize("how", ["web", "worker", "cli"])
def test_a_game_module_that_cannot_be_imported_stops_the_process_in_words(how: str, tmp_path: Path) -> None:
    bad = "tests.support.no_such_game"
    if how == "web":
        args = ["-c", f"from warlog.app import create_app; create_app({{'WARLOG_DB': 'sqlite:///{tmp_path}/x.sqlite3'}})"]
    elif how == "worker":
        args = ["worker.py", "--db", f"sqlite:///{tmp_path}/x.sqlite3", "--allow-embedded-ledger"]
    else:
        args = ["-c", "from warlog.cli import main; main()", "games"]
    done = _run(args, f"  {bad} , ")
    assert done.returncode != 0
    said = done.stdout + done.stderr
    assert f"WARLOG_GAME_MODULES names the game module {bad!r}, which cannot be imported" in said
    if how != "web":  # the command line says it in one line; the app factory raises ConfigError
        assert "Traceback" not in said, said


def test_extra_game_modules_are_read_comma_separated() -> None:
    assert extra_game_modules({"WARLOG_GAME_MODULES": " a.b, ,c "}) == ("a.b", "c")
    assert extra_game_modules({}) == ()


@pytest.mark.parametrize("game", [g for g in all_games() if type(g).__module__.startswith("rules.")],
                         ids=lambda g: g.name)
def test_a_built_in_game_finds_its_schemas_and_renderer_by_its_one_spelling(game) -> None:  # type: ignore[no-untyped-def]
    package = package_name(game.name)
    assert type(game).__module__.split(".")[1] == package  # rules/<package>
    assert companion("validators", game.name) == f"validators.{package}"
    assert schemas_for(game.name)
    assert companion("warlog.render", game.name) == f"warlog.render.{package}"
    assert not isinstance(renderer_for(game.name), TextRenderer)
