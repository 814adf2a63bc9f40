"""Assault on Belgium played end to end through the HTTP API, as docs/api.md shows: two seats,
dice, a Belgian reaction, retreats, a tank battle with pursuit; then the export verifies and
any changed byte names the event that no longer reproduces."""

from __future__ import annotations

import json
from typing import Any

from ledger.canonical import canonical_bytes
from tests.assault_on_belgium.api_bot import Bot
from tests.conftest import Player
from warlog.trust.verify import VerifyFailure, verify_bytes

WANTED = {"reaction", "retreat", "tank_battle", "pursuit", "air", "aa", "land_round", "victory"}


def play_seeded(client: Any, app: Any, i: int) -> tuple[Player, Bot]:
    svc = app.extensions["warlog"]
    svc.new_seed, svc.new_id = (lambda: bytes([i]) * 32), (lambda: f"aob-api-{i:03d}")
    created = client.post("/api/v1/games", json={"game": "assault-on-belgium", "scenario": "may-1940"})
    assert created.status_code == 201
    p = Player(client, app, created.get_json())
    p.join_all()
    bot = Bot(p)
    info = bot.play()
    assert info["status"] == "ended" and info["outcome"]["winner"] in ("germany", "belgium")
    return p, bot


def test_whole_games_through_the_api_cover_every_kind_of_step(client, app) -> None:
    seen: set[str] = set()
    for i in range(8):
        p, bot = play_seeded(client, app, i)
        seen |= bot.features
        export = p.client.get(f"/api/v1/games/{p.id}/export").get_data()
        report = verify_bytes(export)
        assert report.seed_revealed and not report.sandbox and report.dice_derived > 0
        if WANTED <= seen:
            break
    assert WANTED <= seen, f"never saw {sorted(WANTED - seen)}"


def test_tampering_with_a_played_game_names_the_event(client, app) -> None:
    p, _ = play_seeded(client, app, 2)
    export = p.client.get(f"/api/v1/games/{p.id}/export").get_data()
    lines = export.splitlines(keepends=True)
    target = next(i for i, line in enumerate(lines) if b'"type":"resolved"' in line and b'"faces":6' in line)
    event = json.loads(lines[target])
    die = event["payload"]["dice"][0]
    die["value"] = 1 if die["value"] != 1 else 2  # one die changed, the line still canonical JSON
    lines[target] = canonical_bytes(event) + b"\n"
    try:
        verify_bytes(b"".join(lines))
    except VerifyFailure as err:
        assert err.seq == target, str(err)
    else:
        raise AssertionError("a changed die was not caught")
