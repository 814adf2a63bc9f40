"""The dispute sandbox with the real game: a director rebuilds a position from a played game,
forces the disputed die, replays the disputed action, and everything says SANDBOX."""

from __future__ import annotations

from typing import Any

from tests.assault_on_belgium.api_bot import Bot
from tests.conftest import Player
from warlog.trust.verify import verify_bytes


def test_rebuild_a_land_round_with_a_forced_die(client, app) -> None:
    # 1. a real game, played until Germany must choose its fighting unit or a battle
    r = client.post("/api/v1/games", json={"game": "assault-on-belgium"})
    p = Player(client, app, r.get_json())
    p.join_all()
    bot = Bot(p)
    position: dict[str, Any] | None = None
    for _ in range(400):
        info = p.info()
        seat = info["active_seats"][0]
        state = p.client.get(f"/api/v1/games/{p.id}/state").get_json()["state"]
        if state["phase"] == "combat" and seat == "belgium":
            position = state
            break
        p.play(seat, bot.choose(seat, p.actions(seat)["actions"]))
    assert position is not None, "the game never reached a Belgian decision in combat"

    # 2. the director's sandbox: that exact position, with the next die forced to 6
    r = client.post("/api/v1/games", json={"game": "assault-on-belgium", "sandbox": {"state": position, "dice": [6]}})
    assert r.status_code == 201, r.get_json()
    s = Player(client, app, r.get_json())
    s.join_all()
    bot.p = s
    assert s.info()["sandbox"] is True
    assert s.client.get(f"/api/v1/games/{s.id}/state").get_json()["state"] == position
    listing = s.actions("belgium")
    assert listing["sandbox"] is True and listing["actions"]
    # play on until the first die is rolled: it must be the forced 6
    res = s.play("belgium", listing["actions"][0])
    for _ in range(50):
        assert res["status"] == "resolved" and res["sandbox"] is True
        if res["dice"]:
            break
        seat = s.info()["active_seats"][0]
        res = s.play(seat, bot.choose(seat, s.actions(seat)["actions"]))
    assert res["dice"][0]["value"] == 6, res["dice"]

    # 3. a malformed position is refused on the way in, with the schema's reason
    broken = dict(position, units={"no-such-unit": {}})
    r = client.post("/api/v1/games", json={"game": "assault-on-belgium", "sandbox": {"state": broken}})
    assert r.status_code == 422 and "not a position" in r.get_json()["error"]
    assert any(e["path"].startswith("/units/no-such-unit") for e in r.get_json()["errors"])

    # 4. the sandbox's export verifies as a sandbox, never as a fair game
    export = s.client.get(f"/api/v1/games/{s.id}/export", headers=s.auth("director")).get_data()
    report = verify_bytes(export)
    assert report.sandbox and "SANDBOX" in report.summary()
