"""GBV 3.6: the two enemy units drawn as PP-track markers stay face down, their identity
unknown for the whole game. Nothing the player (or a spectator) can read while the game runs
may tell them: not the view, not the dice of the draw, not the place of a later draw in the
pool, not a state or event hash tried against every possible pair."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from ledger.canonical import state_hash
from ledger.events import Event
from rules.green_beret_vietnam import flow
from tests.green_beret_vietnam.gbv_helpers import dice, put, real, state


def _events(game: Any, who: str | None) -> list[dict[str, Any]]:
    headers = game.auth(who) if who else {}
    return game.client.get(f"/api/v1/games/{game.id}/events?after=-1", headers=headers).get_json()["events"]


def _pairs_matching(doc: dict[str, Any], full_state: dict[str, Any], extra: dict[str, Any]) -> list[tuple[str, str]]:
    """Try every pair of enemy units as the markers; keep those whose game_started event
    would hash to the hash shown."""
    enemies = sorted(full_state["enemy_pool"] + full_state["pp_markers"])
    hits = []
    for pair in itertools.combinations(enemies, 2):
        cand = {**full_state, "pp_markers": sorted(pair), "enemy_pool": sorted(set(enemies) - set(pair))}
        payload = {**doc["payload"], "state": cand, "state_hash": state_hash(cand), **extra}
        ev = Event(doc["game_id"], doc["seq"], doc["type"], doc["seat"], payload, doc["recorded_at"],
                   doc["prev_hash"], doc["hash"])
        if ev.computed_hash() == doc["hash"]:
            hits.append(pair)
    return hits


@pytest.mark.slow
def test_gbv_3_6_the_pp_markers_cannot_be_read_from_dice_or_hashes(new_game) -> None:
    game = new_game("green-beret-vietnam", "campaign")
    full = next(e for e in _events(game, "director") if e["type"] == "game_started")
    markers = tuple(full["payload"]["state"]["pp_markers"])
    secret_dice = [d for d in full["payload"]["dice"] if d.get("secret")]
    assert len(secret_dice) == 2 and all("PP-track marker" in d["purpose"] for d in secret_dice)

    for who in ("player", None):
        started = next(e for e in _events(game, who) if e["type"] == "game_started")
        assert [d["value"] for d in started["payload"]["dice"]] == [None, None]
        assert "state_hash" not in started["payload"] and "blind" not in started["payload"]
        state = game.client.get(f"/api/v1/games/{game.id}/state?at={started['seq']}",
                                headers=game.auth(who) if who else {}).get_json()["state"]
        assert state["pp_markers"] == ["hidden", "hidden"] and not set(markers) & set(map(str, state["enemy_pool"]))
        # the brute force over every pair finds nothing without the blind ...
        without = {k: v for k, v in started["payload"].items() if k not in ("state", "state_hash")}
        assert _pairs_matching({**started, "payload": without}, full["payload"]["state"], {}) == []
    audit = game.client.get(f"/games/{game.id}/audit").get_data(as_text=True)
    assert audit.count("(secret until the game ends)") == 2 and not any(m in audit for m in markers)
    # ... and finds the markers with it: the attack is real, the blind is what stops it
    payload = {k: v for k, v in full["payload"].items() if k not in ("state", "state_hash")}
    assert _pairs_matching({**full, "payload": payload}, full["payload"]["state"],
                           {"blind": full["payload"]["blind"]}) == [markers]


def test_gbv_3_6_an_enemy_draw_is_a_secret_die_and_its_fact_names_no_pool_position() -> None:
    g = real()
    s = state(g)
    put(s, "a-team-1", "1015", detected=True)
    drawn = s["enemy_pool"][4]
    rec = dice(1, 5, 1, 3)  # one unit appears; the 5th of the pool; scatters 1-3
    s["agenda"] = [{"t": "spawn", "hex": "1015", "why": "noise"}] + s["agenda"]
    facts: list[Any] = []
    flow.run(s, g.world, rec, facts)
    assert drawn in s["enemies"]
    by_purpose = {r.purpose: r for r in rec.rolls}
    assert by_purpose["12.7 draw an enemy unit from the pool"].secret
    assert not by_purpose["12.7 number of enemy units appearing"].secret
    assert rec.to_json()[1] == {"index": 1, "faces": by_purpose["12.7 draw an enemy unit from the pool"].faces,
                                "value": 5, "purpose": "12.7 draw an enemy unit from the pool", "secret": True}
    scatter = next(f for f in facts if f.kind == "scatter")
    assert scatter.data["pool_die"] is None
