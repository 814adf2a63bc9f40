"""The `warlog` command line: games, export, import, verify."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

import validators
from tests.conftest import Player
from warlog.cli import main


def test_games_lists_the_catalogue() -> None:
    out = CliRunner().invoke(main, ["games"])
    assert out.exit_code == 0
    assert "assault-on-belgium" in out.output and "scenario" in out.output


def test_export_import_round_trip(new_game, app, tmp_path: Path) -> None:
    p: Player = new_game()
    while p.info()["status"] != "ended":
        p.play(p.info()["active_seats"][0], {"type": "roll"})
    db = app.config["WARLOG_DB"]
    runner = CliRunner()
    exported = tmp_path / "game.jsonl"
    r = runner.invoke(main, ["export", p.id, "--db", db, "--out", str(exported)])
    assert r.exit_code == 0, r.output
    assert exported.read_bytes() == p.client.get(f"/api/v1/games/{p.id}/export").get_data()
    other = f"sqlite:///{tmp_path}/other.sqlite3"
    r = runner.invoke(main, ["import", str(exported), "--db", other])
    assert r.exit_code == 0 and "imported" in r.output, r.output
    again = tmp_path / "again.jsonl"
    runner.invoke(main, ["export", p.id, "--db", other, "--out", str(again)])
    assert again.read_bytes() == exported.read_bytes()
    r = runner.invoke(main, ["import", str(exported), "--db", other])
    assert r.exit_code != 0 and "already exists" in r.output
    r = runner.invoke(main, ["verify", str(again)])
    assert r.exit_code == 0 and r.output.startswith("OK")


def test_export_of_an_unknown_game_is_a_clear_error(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["export", "nope", "--db", f"sqlite:///{tmp_path}/x.sqlite3"])
    assert r.exit_code != 0 and "no game nope" in r.output


def test_our_validators_package_is_not_the_pypi_one() -> None:
    """The client's top-level `validators` shares its name with a PyPI package; keep it out."""
    assert Path(validators.__file__).resolve().parent == Path(__file__).resolve().parents[2] / "validators"
    with pytest.raises(importlib.metadata.PackageNotFoundError):
        importlib.metadata.distribution("validators")


@pytest.mark.parametrize("content, says", [
    (b"\xfb\x00 not text", "not UTF-8"),
    (b'{"a":1}\n', "an event has exactly the fields"),
    (b"", "the export holds no events"),
    (b"[1, 2]\n", "an event is a JSON object"),
])
def test_import_of_a_bad_file_is_a_clear_refusal(tmp_path: Path, content: bytes, says: str) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(content)
    r = CliRunner().invoke(main, ["import", str(bad), "--db", f"sqlite:///{tmp_path}/x.sqlite3"])
    assert r.exit_code == 1 and "refusing to import" in r.output and says in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.mark.parametrize("args, says", [
    (["games", "--db", "mysql://x/y"], "cannot open a ledger at 'mysql://x/y'"),
    (["export", "g", "--db", "redis://x"], "cannot open a ledger at 'redis://x': use sqlite:///"),
    (["worker", "--burst", "--redis", "redis://127.0.0.1:1/0", "--db", "sqlite:///{tmp}/w.sqlite3",
      "--allow-embedded-ledger"], "cannot reach Redis at redis://127.0.0.1:1/0"),
    (["serve", "--redis", "redis://127.0.0.1:1/0", "--db", "sqlite:///{tmp}/w.sqlite3", "--allow-embedded-ledger"],
     "cannot reach Redis"),
    (["serve", "--redis", "redis://127.0.0.1:1/0", "--db", "sqlite:///{tmp}/w.sqlite3"],
     "a queue (WARLOG_REDIS=redis://127.0.0.1:1/0) with an embedded SQLite ledger"),  # an operator trap refused
])
def test_unreachable_services_and_bad_urls_are_one_line_errors(tmp_path: Path, args: list[str], says: str) -> None:
    r = CliRunner().invoke(main, [a.replace("{tmp}", str(tmp_path)) for a in args])
    assert r.exit_code == 1 and f"Error: {says}" in r.output, r.output
    assert "Traceback" not in r.output
