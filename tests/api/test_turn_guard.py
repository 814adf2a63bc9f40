"""The seat not to move cannot stall the other. A move from a seat that is
not among the active seats is refused at once with 409 (nothing is recorded, so the active
seat's expected seq stays good), and refused submissions are rate-limited per seat (429 with
Retry-After), in memory in the embedded default and in Redis when the deployment has one."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask

from tests.conftest import REDIS_URL, Player


def _post(p: Player, seat: str, action: dict[str, Any], expected: int | None = None) -> Any:
    expected = p.info()["seq"] if expected is None else expected
    return p.client.post(f"/api/v1/games/{p.id}/moves", headers=p.auth(seat), json={
        "action": action, "expected_seq": expected, "idempotency_key": uuid.uuid4().hex})


def test_the_seat_not_to_move_gets_409_and_the_other_seat_still_moves(new_game: Any) -> None:
    p: Player = new_game()
    assert p.info()["active_seats"] == ["north"]
    expected = p.info()["seq"]
    r = _post(p, "south", {"type": "roll"}, expected)
    assert r.status_code == 409, r.get_json()
    assert "north" in r.get_json()["error"] and r.get_json()["active_seats"] == ["north"]
    assert p.info()["seq"] == expected  # nothing recorded
    ok = _post(p, "north", {"type": "roll"}, expected)
    assert ok.status_code == 202, ok.get_json()


def test_boys67_the_vc_cannot_stall_the_us(new_game: Any) -> None:
    """The issue's own case: in The Boys of '67 with the US to move, the VC posts at the US's
    expected seq; it used to be 202 (rejected later) and the US's move then 409, forever."""
    p: Player = new_game("vietnam-battles", "boys67")
    (active,) = p.info()["active_seats"]
    other = "vc" if active == "us" else "us"
    listing = p.actions(active)
    r = _post(p, other, listing["actions"][0], listing["expected_seq"])
    assert r.status_code == 409 and active in r.get_json()["error"]
    ok = _post(p, active, listing["actions"][0], listing["expected_seq"])
    assert ok.status_code == 202, ok.get_json()


@pytest.fixture
def limited_app(tmp_path: Any) -> Iterator[Flask]:
    from warlog.app import create_app

    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp_path}/w.sqlite3",
                      "WARLOG_REFUSED_LIMIT": "3 per minute"})
    yield app
    app.extensions["warlog_sweeper_stop"].set()
    app.extensions["warlog"].store.close()


def _game(app: Flask) -> Player:
    client = app.test_client()
    p = Player(client, app, client.post("/api/v1/games", json={"game": "dice-duel"}).get_json())
    p.join_all()
    return p


def test_refused_submissions_are_rate_limited_per_seat(limited_app: Flask) -> None:
    p = _game(limited_app)
    codes = [_post(p, "south", {"type": "roll"}).status_code for _ in range(3)]
    assert codes == [409, 409, 409]
    r = _post(p, "south", {"type": "roll"})
    assert r.status_code == 429, r.get_json()
    assert int(r.headers["Retry-After"]) > 0 and "error" in r.get_json()
    # the limit is the refused seat's, not the game's: north still moves
    assert _post(p, "north", {"type": "roll"}).status_code == 202
    # a 202 does not count: north's accepted moves never reach the limit
    p.wait()


def test_accepted_moves_are_not_limited(limited_app: Flask) -> None:
    p = _game(limited_app)
    for _ in range(6):
        info = p.info()
        if info["status"] != "active":
            break
        res = p.play(info["active_seats"][0], {"type": "roll"})
        assert res["status"] in ("resolved", "rejected")


def test_with_redis_the_limit_is_shared_by_every_web_process(tmp_path: Any, pg_url: str) -> None:
    """Two web processes (as gunicorn runs them) count one seat's refusals together."""
    from warlog.app import create_app

    conn = redis.Redis.from_url(REDIS_URL)
    conn.flushdb()
    cfg = {"TESTING": True, "WARLOG_DB": pg_url, "WARLOG_REDIS": REDIS_URL, "WARLOG_REFUSED_LIMIT": "3 per minute"}
    first, second = create_app(cfg), create_app(cfg)
    try:
        p = _game(first)
        assert [_post(p, "south", {"type": "roll"}).status_code for _ in range(2)] == [409, 409]
        q = Player(second.test_client(), second, p.created)
        assert _post(q, "south", {"type": "roll"}).status_code == 409
        assert _post(q, "south", {"type": "roll"}).status_code == 429
        assert any(k.startswith(b"LIMITS") or b"limit" in k.lower() for k in conn.keys("*"))
    finally:
        first.extensions["warlog"].store.close()
        second.extensions["warlog"].store.close()


def _send(p: Player, seat: str, action: dict[str, Any], expected: int, key: str) -> Any:
    return p.client.post(f"/api/v1/games/{p.id}/moves", headers=p.auth(seat), json={
        "action": action, "expected_seq": expected, "idempotency_key": key})


def test_a_resent_move_is_answered_as_its_duplicate_after_the_turn_has_passed(new_game: Any) -> None:
    """Found by bench/chaos_soak.py: a move recorded and judged whose 202 was lost (its web
    process killed) was sent again with its key once the turn had passed to the other seat, and
    refused with 409 ("not north's turn") instead of answered as the duplicate it is."""
    p: Player = new_game()
    expected = p.info()["seq"]
    first = _send(p, "north", {"type": "bank"}, expected, "lost-answer")
    assert first.status_code == 202, first.get_json()
    p.wait()
    assert p.info()["active_seats"] == ["south"]
    again = _send(p, "north", {"type": "bank"}, expected, "lost-answer")
    assert again.status_code == 202, again.get_json()
    assert again.get_json() == {"seq": first.get_json()["seq"], "status": "duplicate", "duplicate": True}
    other = _send(p, "north", {"type": "bank"}, p.info()["seq"], "a-new-key")  # a new move is still refused
    assert other.status_code == 409 and "south" in other.get_json()["error"]


def test_a_resent_final_move_is_answered_as_its_duplicate_after_the_game_ended(new_game: Any) -> None:
    p: Player = new_game(scenario="short")
    sent: dict[str, tuple[int, int]] = {}  # key -> (expected seq, seq)
    for turn in range(200):
        info = p.info()
        if info["status"] != "active":
            break
        (seat,) = info["active_seats"]
        key = f"move-{turn}"
        r = _send(p, seat, {"type": "roll"}, info["seq"], key)
        assert r.status_code == 202, r.get_json()
        sent[key] = (info["seq"], r.get_json()["seq"])
        p.wait()
    assert p.info()["status"] == "ended"
    key, (expected, seq) = list(sent.items())[-1]
    winner = p.client.get(f"/api/v1/games/{p.id}/moves/{seq}").get_json()["seat"]
    again = _send(p, winner, {"type": "roll"}, expected, key)
    assert again.status_code == 202, again.get_json()
    assert again.get_json() == {"seq": seq, "status": "duplicate", "duplicate": True}


def test_an_accepted_move_costs_the_limiter_no_redis_command(pg_url: str) -> None:
    """Only refusals count: a seat's accepted move neither looks at nor adds to its count in
    Redis (the limiter checked the window before every move: two Redis commands a move); a
    refused one adds to it, and a seat refused here lately has its count looked at first."""
    from warlog.app import create_app

    redis.Redis.from_url(REDIS_URL).flushdb()
    limiter_commands: list[str] = []
    execute = redis.Redis.execute_command

    def counting(self: Any, *args: Any, **options: Any) -> Any:
        if any("LIMIT" in (a.decode() if isinstance(a, bytes) else str(a)) for a in args):
            limiter_commands.append(str(args[0]))
        return execute(self, *args, **options)

    app = create_app({"TESTING": True, "WARLOG_DB": pg_url, "WARLOG_REDIS": REDIS_URL,
                      "WARLOG_REFUSED_LIMIT": "3 per minute"})
    redis.Redis.execute_command = counting  # type: ignore[method-assign]
    try:
        p = _game(app)
        assert _post(p, "north", {"type": "roll"}).status_code == 202
        assert limiter_commands == []
        assert _post(p, "south", {"type": "roll"}).status_code == 409
        assert limiter_commands  # the refusal counted
    finally:
        redis.Redis.execute_command = execute  # type: ignore[method-assign]
        app.extensions["warlog"].store.close()


def test_a_bare_number_is_a_limit_per_minute_and_nonsense_stops_the_start(tmp_path: Any) -> None:
    """WARLOG_REFUSED_LIMIT "100000" (as the three-host soak sets it) is 100000 per minute; a
    value that is no limit is a ConfigError when the app starts, not a crash of every web worker."""
    from warlog.app import create_app
    from warlog.config import ConfigError
    from warlog.web.limits import parse_limit

    assert parse_limit("100000") == parse_limit("100000 per minute")
    app = create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp_path}/a.sqlite3", "WARLOG_REFUSED_LIMIT": "100000"})
    app.extensions["warlog_sweeper_stop"].set()
    app.extensions["warlog"].store.close()
    with pytest.raises(ConfigError, match="WARLOG_REFUSED_LIMIT"):
        create_app({"TESTING": True, "WARLOG_DB": f"sqlite:///{tmp_path}/b.sqlite3", "WARLOG_REFUSED_LIMIT": "lots"})
