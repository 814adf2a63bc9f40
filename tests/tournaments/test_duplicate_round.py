"""A duplicate round is one whole (ledger.dice step 9): every game of the round meets the same
dice, so while the round runs its games are private to their players (and the tournament's
director), no game's end reveals the round's seed, every game gets its reveal once the last one
has ended, and `verify_bundle` checks the round as a whole."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.events import GAME_ENDED, SEED_REVEALED
from tests.tournaments.conftest import Desk
from warlog.tournaments.bundle import verify_bundle
from warlog.trust.rounds import reveal_round_seed
from warlog.trust.verify import verify_lines

API = "/api/v1/tournaments"


def _league(desk: Desk, names: tuple[str, ...] = ("Ann", "Bob")) -> tuple[str, dict[str, str]]:
    """A one-round duplicate Green Beret league, paired: (tournament id, entrant name -> game id)."""
    desk.player("Director")
    for name in names:
        desk.player(name)
    tid = desk.post(API, "Director", {"name": "GBV league", "game": "green-beret-vietnam",
                                      "format": {"kind": "duplicate", "rounds": 1}}, status=201)["id"]
    for name in names:
        desk.post(f"{API}/{tid}/register", name)
    games = desk.post(f"{API}/{tid}/rounds", "Director", status=201)["games"]
    return tid, {desk.name(g["seats"]["player"]["player_id"]): g["game_id"] for g in games}


def _end(desk: Desk, tid: str, game_id: str) -> None:
    desk.post(f"{API}/{tid}/games/{game_id}/adjudicate", "Director",
              {"decision": "end", "reason": "the league's deadline"}, status=202)
    desk.drain()
    desk.get(f"{API}/{tid}")  # the tournament page's sync records the result (and reveals a complete round)


def _play_first(desk: Desk, game_id: str, who: str) -> list[int]:
    """`who` makes the first legal move in their game; the dice it met."""
    acts = desk.client.get(f"/api/v1/games/{game_id}/actions", headers=desk.auth(who)).get_json()
    r = desk.client.post(f"/api/v1/games/{game_id}/moves", headers=desk.auth(who),
                         json={"action": acts["actions"][0], "expected_seq": acts["expected_seq"],
                               "idempotency_key": "first"})
    assert r.status_code == 202, r.get_json()
    desk.drain()
    move = desk.client.get(f"/api/v1/games/{game_id}/moves/{r.get_json()['seq']}", headers=desk.auth(who)).get_json()
    assert move["status"] == "resolved", move
    return [int(d["value"]) for d in move["dice"] if d.get("value") is not None]


def _routes(game_id: str) -> list[str]:
    """Every route that reads a game: the API's, the pages', replay and its PNG, audit, export, live."""
    api = f"/api/v1/games/{game_id}"
    return [api, f"{api}/state", f"{api}/state?at=0", f"{api}/actions", f"{api}/events", f"{api}/moves/3",
            f"{api}/export", f"{api}/clock", f"/games/{game_id}", f"/games/{game_id}/live", f"/games/{game_id}/replay",
            f"/games/{game_id}/replay/0", f"/games/{game_id}/replay/0.png", f"/games/{game_id}/replay.html",
            f"/games/{game_id}/audit", f"/games/{game_id}/export.jsonl"]


def _refused(desk: Desk, game_id: str, headers: dict[str, str] | None = None) -> None:
    for path in _routes(game_id):
        r = desk.client.get(path, headers=headers or {})
        assert r.status_code == 403, (path, r.status_code, r.get_data(as_text=True)[:300])
        assert "duplicate round" in r.get_data(as_text=True), path


@pytest.mark.slow
def test_a_running_duplicate_round_is_private_to_its_players(desk: Desk) -> None:
    """The attack: an anonymous visitor, or another entrant of the round, reads a running game of
    the round (game pages, API, replay and PNG, audit, export, live updates, the lobby) and so sees
    the dice they are about to meet. Every such read is refused with a 403 that says why, until
    every game of the round has ended; the player and the tournament's director read it."""
    tid, games = _league(desk)
    ga, gb = games["Ann"], games["Bob"]
    _play_first(desk, gb, "Bob")
    _refused(desk, gb)  # anonymous
    _refused(desk, gb, desk.auth("Ann"))  # another entrant, with her API token ...
    desk.client.set_cookie("warlog_player", desk.tokens["Ann"])  # ... and signed in on the pages
    _refused(desk, gb)
    desk.client.delete_cookie("warlog_player")
    # the lobby and the games list do not list them
    listed = [g["id"] for g in desk.client.get("/api/v1/games?status=active").get_json()["games"]]
    assert ga not in listed and gb not in listed
    lobby = desk.client.get("/").get_data(as_text=True)
    assert ga not in lobby and gb not in lobby
    # Bob reads his own game; the director (who plays in no game of the round) reads it on the pages
    for path in (f"/api/v1/games/{gb}/state", f"/api/v1/games/{gb}/events", f"/api/v1/games/{gb}/actions"):
        assert desk.client.get(path, headers=desk.auth("Bob")).status_code == 200, path
    assert desk.client.get(f"/api/v1/games/{gb}", headers=desk.auth("Director")).status_code == 200
    desk.client.set_cookie("warlog_player", desk.tokens["Director"])
    assert desk.client.get(f"/games/{gb}/replay/0").status_code == 200
    desk.client.delete_cookie("warlog_player")
    # Ann's game ends: still private (its round runs), to Bob and to anyone
    _end(desk, tid, ga)
    _refused(desk, ga)
    _refused(desk, ga, desk.auth("Bob"))
    # the round ends: every game of it is public
    _end(desk, tid, gb)
    for gid in (ga, gb):
        for path in _routes(gid):
            r = desk.client.get(path)
            assert r.status_code in (200, 302), (path, r.status_code, r.get_data(as_text=True)[:300])
    listed = [g["id"] for g in desk.client.get("/api/v1/games?status=ended").get_json()["games"]]
    assert ga in listed and gb in listed


@pytest.mark.slow
def test_an_entrant_director_reads_no_other_game_of_their_round(desk: Desk) -> None:
    """A director who plays in the round is an entrant there: they read their own game only."""
    desk.player("Director")
    desk.player("Ann")
    tid = desk.post(API, "Director", {"name": "GBV league", "game": "green-beret-vietnam",
                                      "format": {"kind": "duplicate", "rounds": 1}}, status=201)["id"]
    for name in ("Director", "Ann"):
        desk.post(f"{API}/{tid}/register", name)
    games = {desk.name(g["seats"]["player"]["player_id"]): g["game_id"]
             for g in desk.post(f"{API}/{tid}/rounds", "Director", status=201)["games"]}
    desk.client.set_cookie("warlog_player", desk.tokens["Director"])
    assert desk.client.get(f"/games/{games['Director']}/replay/0").status_code == 200
    assert desk.client.get(f"/games/{games['Ann']}/replay/0").status_code == 403
    assert desk.client.get(f"/api/v1/games/{games['Ann']}", headers=desk.auth("Director")).status_code == 403


def _export(desk: Desk, game_id: str, who: str) -> bytes:
    r = desk.client.get(f"/api/v1/games/{game_id}/export", headers=desk.auth(who))
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    return r.get_data()


@pytest.mark.slow
def test_a_duplicate_games_end_withholds_the_rounds_seed_until_the_round_ends(desk: Desk) -> None:
    """The attack: when the first game of a round ended, its export revealed the seed every game
    of the round shares, and the others' next dice (secret ones included) were predicted exactly.
    Now the end withholds it ("seed withheld until round 1 … ends", in the ledger, the export and
    the audit page); nothing public holds the seed until the round's last game ends; then every
    game of the round gets its reveal, and each verifies on its own."""
    tid, games = _league(desk)
    ga, gb = games["Ann"], games["Bob"]
    warlog = desk.app.extensions["warlog"]
    seed = warlog.store.secret(ga)
    assert seed is not None and seed == warlog.store.secret(gb)
    _play_first(desk, ga, "Ann")
    _end(desk, tid, ga)
    exported = _export(desk, ga, "Ann")
    events = [e for e in warlog.store.read(ga)]
    assert not any(e.type == SEED_REVEALED for e in events)
    ended = next(e for e in events if e.type == GAME_ENDED)
    assert ended.payload["seed_withheld"] == f"seed withheld until round 1 of tournament {tid} ends"
    assert b"seed withheld until round 1" in exported
    public = [exported, desk.client.get(f"{API}/{tid}").get_data(), desk.client.get(f"/tournaments/{tid}").get_data()]
    assert not any(seed.hex().encode() in doc for doc in public)
    desk.client.set_cookie("warlog_player", desk.tokens["Ann"])
    audit = desk.client.get(f"/games/{ga}/audit").get_data(as_text=True)
    desk.client.delete_cookie("warlog_player")
    assert f"seed withheld until round 1 of tournament {tid} ends" in audit
    report = verify_lines(exported.splitlines(keepends=True))
    assert not report.seed_revealed and any("seed withheld until round 1" in n for n in report.notes)
    # Bob's game goes on, on dice nobody outside it can derive; then the round's last game ends
    _play_first(desk, gb, "Bob")
    _end(desk, tid, gb)
    desk.get(f"{API}/{tid}")  # a second sync reveals nothing twice
    for gid, who in ((ga, "Ann"), (gb, "Bob")):
        reveals = [e for e in warlog.store.read(gid) if e.type == SEED_REVEALED]
        assert len(reveals) == 1 and reveals[0].payload["seed"] == seed.hex()
        report = verify_lines(_export(desk, gid, who).splitlines(keepends=True))
        assert report.seed_revealed and report.dice_derived > 0 and report.dice_replayed == 0, report.summary()
    desk.post(f"{API}/{tid}/end", "Director")
    bundle = verify_bundle(desk.client.get(f"{API}/{tid}/export").get_data().splitlines(keepends=True))
    assert bundle.results == 2 and bundle.seed_revealed


def _finished_bundle(desk: Desk, tid: str, games: dict[str, str]) -> list[bytes]:
    for gid in games.values():
        _end(desk, tid, gid)
    desk.post(f"{API}/{tid}/end", "Director")
    return desk.client.get(f"{API}/{tid}/export").get_data().splitlines(keepends=True)


def test_verify_checks_a_duplicate_round_as_a_whole(desk: Desk, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that gave one entrant of a duplicate round other dice (another seed) makes a
    bundle whose every game verifies alone and whose every result is right: `verify_bundle`
    fails on the round, naming that game."""
    warlog = desk.app.extensions["warlog"]
    made: list[str] = []
    create = warlog.create_game

    def one_on_another_seed(*args: Any, **kwargs: Any) -> dict[str, Any]:
        if made:  # the round's second game: a seed of its own, all else as the round's
            kwargs["seed"] = b"\x07" * 32
        out = create(*args, **kwargs)
        made.append(out["id"])
        return out

    monkeypatch.setattr(warlog, "create_game", one_on_another_seed)
    tid, games = _league(desk)
    monkeypatch.undo()
    lines = _finished_bundle(desk, tid, games)
    with pytest.raises(Exception) as failed:
        verify_bundle(lines)
    assert f"game {made[1]} is not committed to round 1's seed" in str(failed.value), failed.value


def test_a_round_whose_games_do_not_reveal_still_re_derives_from_the_pairing_seed(desk: Desk) -> None:
    """With the tournament's pairing seed revealed, the round's seed is known: a game whose own
    ledger stops before its reveal still has every die re-derived from it (and fails, naming the
    game, when a die does not)."""
    tid, games = _league(desk)
    _play_first(desk, games["Ann"], "Ann")
    lines = _finished_bundle(desk, tid, games)
    # Ann's game ended first: its result names its game_ended event, and its reveal came after.
    ga = games["Ann"].encode()
    reveal = [i for i, line in enumerate(lines) if ga in line and b'"seed_revealed"' in line]
    assert len(reveal) == 1
    cut = lines[: reveal[0]] + lines[reveal[0] + 1:]
    report = verify_bundle(cut)
    assert report.results == 2 and report.seed_revealed
    assert f"game {games['Ann']} does not reveal its seed: its dice were re-derived from round 1's seed" in report.notes


def test_the_rounds_reveal_survives_a_crash_halfway(desk: Desk) -> None:
    """The reveal is made by the tournament's sync before it records the round's last result, and
    each game's reveal is idempotent: a process that died after revealing one game of the round
    (before the others, before the result) leaves the next sync to finish the round's reveal —
    nothing is lost and nothing is revealed twice."""
    tid, games = _league(desk)
    ga, gb = games["Ann"], games["Bob"]
    warlog = desk.app.extensions["warlog"]
    _end(desk, tid, ga)
    desk.post(f"{API}/{tid}/games/{gb}/adjudicate", "Director", {"decision": "end", "reason": "deadline"},
              status=202)
    desk.drain()  # the round's last game has ended; no sync has looked since
    assert desk.client.get(f"/api/v1/games/{gb}").status_code == 403
    assert reveal_round_seed(warlog, ga)  # what the dead process had done
    assert not reveal_round_seed(warlog, ga)
    doc = desk.get(f"{API}/{tid}")
    assert sorted(g["game_id"] for g in doc["games"] if g.get("result")) == sorted((ga, gb))
    for gid in (ga, gb):
        assert [e.type for e in warlog.store.read(gid)].count(SEED_REVEALED) == 1
        assert desk.client.get(f"/api/v1/games/{gid}").status_code == 200
