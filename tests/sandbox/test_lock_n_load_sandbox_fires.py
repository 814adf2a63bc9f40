"""A Lock 'n Load sandbox holding each counter kind plays a fire by each: one position of the demo
on board 1 holds the demo's own units and one counter of every kind of the published mix
(rules/lock_n_load/data/counters.json, brought as `<kind>-1`, rules/lock_n_load/positions.py), the
SMCs that may fire carrying their side's machine gun (1.6.1: leaders, advisors; 11.6); for each kind
that fires, the sandbox is created through the API and the kind's counter fires at an enemy beside
it (5.0: an adjacent enemy is spotted, 10.1, and in LOS) by the seats' own moves, judged by the
worker. Medics and chaplains never fire (11.3, 11.5): no fire is offered to them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules import get_game
from rules.lock_n_load.events import new_unit
from tests.conftest import Player
from warlog.rulings.sandbox import example_state

DATA = Path(__file__).parents[2] / "rules" / "lock_n_load" / "data"
COUNTERS = json.loads((DATA / "counters.json").read_text(encoding="utf-8"))
KINDS = COUNTERS["kinds"]
SIDE = {n: d["side"] for n, d in COUNTERS["nations"].items()}
GAME = get_game("lock-n-load")
NO_FIRE = ("medic", "chaplain")  # 11.3, 11.5: no firepower, no weapon
SMC_WITH_SW = ("leader", "advisor")  # 1.6.1, 11.1, 11.6: an SMC fires a support weapon only


def _side(kind: str) -> str:
    return SIDE[KINDS[kind]["nationality"]]


def _position(firer: str) -> tuple[dict[str, Any], str, str]:
    """The demo's start with every counter kind on the board, each alone in a hex the demo leaves
    free (no event marker), and an enemy squad beside `firer`'s counter; the firer's side to play
    its first impulse. Returns the state, the firer's hex and the target's hex."""
    w = GAME.world  # type: ignore[attr-defined]
    s = example_state(GAME, "demo")
    taken = {r["at"] for r in s["units"].values() if r["at"]} | {e["hex"] for e in s["events"].values()}
    free = [h for h in w.board.hexes() if h not in taken]
    for n, kind in enumerate(sorted(KINDS)):
        at = free[2 * n]  # every other free hex: a free neighbour is left for the target
        uid = f"{kind}-1"
        s["units"][uid] = new_unit(_side(kind), kind, at)
        if KINDS[kind]["class"] in SMC_WITH_SW:
            sw = "m60" if _side(kind) == "us" else "rpd"
            s["sws"][f"{sw}-x{n}"] = {"kind": sw, "side": _side(kind), "holder": uid, "at": None}
            s["units"][uid]["sws"].append(f"{sw}-x{n}")
    here = s["units"][f"{firer}-1"]["at"]
    occupied = {r["at"] for r in s["units"].values() if r["at"]} | taken
    target = next(h for h in w.board.neighbours(here) if h not in occupied)
    foe = "vc" if _side(firer) == "us" else "us"
    enemy = "vc-sq-143" if foe == "vc" else "us-sq-264"
    s["units"][f"{enemy}-2"] = new_unit(foe, enemy, target)
    s.update(phase="operations", rally_done=["us", "vc"], rally_side=_side(firer), player=_side(firer),
             initiative=_side(firer), impulse=None, decision=None, passes=0)
    return s, here, target


def test_the_sandbox_holds_every_counter_kind_on_the_board() -> None:
    s, _, _ = _position("us-sq-264")
    on_board = {r["kind"] for r in s["units"].values() if r["at"]}
    assert set(KINDS) <= on_board


@pytest.mark.parametrize("kind", sorted(k for k, c in KINDS.items() if c["class"] not in NO_FIRE))
def test_each_counter_kind_fires_in_the_sandbox(client, app, kind: str) -> None:
    state, here, target = _position(kind)
    r = client.post("/api/v1/games", json={"game": "lock-n-load", "scenario": "demo",
                                            "sandbox": {"state": state, "on_dice_exhausted": "derive"}})
    assert r.status_code == 201, r.get_json()
    p = Player(client, app, r.get_json())
    p.join_all()
    seat = _side(kind)
    uid = f"{kind}-1"
    for action in ({"type": "activate", "hex": here}, {"type": "select", "unit": uid}):
        move = p.play(seat, action)
        assert move["status"] == "resolved", move
    assert {"type": "fire", "target": target} in p.actions(seat)["actions"]
    move = p.play(seat, {"type": "fire", "target": target})
    assert move["status"] == "resolved", move
    fire = next(f for f in move["facts"] if f["kind"] == "fire")
    assert fire["data"]["firers"] == [uid] and fire["data"]["target"] == target
    assert any(f["kind"] in ("no_effect", "damage", "shaken", "casualty", "wounded", "eliminated")
               or "attack" in f["data"] for f in move["facts"] if f is not fire)


@pytest.mark.parametrize("kind", sorted(k for k, c in KINDS.items() if c["class"] in NO_FIRE))
def test_medics_and_chaplains_are_offered_no_fire(kind: str) -> None:
    state, here, target = _position(kind)
    seat = _side(kind)
    s = GAME.apply(state, seat, {"type": "activate", "hex": here}, _dice()).state
    select = {"type": "select", "unit": f"{kind}-1"}
    if select in GAME.legal_actions(s, seat):
        s = GAME.apply(s, seat, select, _dice()).state
    assert not [a for a in GAME.legal_actions(s, seat) if a["type"] == "fire"]


def _dice() -> Any:
    from tests.support.fuzzing import seeded_dice

    return seeded_dice(1)


def test_the_sniper_s_random_target_can_be_forced_to_the_eighth_unit_of_a_full_hex(client, app) -> None:
    """11.4: the sniper's target among the units of the hex is chosen at random: a die with as many
    faces as the hex holds units, up to 8 (1.3: six half squads and two SMCs). A sandbox forces the
    8th (units in id order): attacker 6 + 6 (the sniper's 2d6), defender 1, target 8."""
    w = GAME.world  # type: ignore[attr-defined]
    s = example_state(GAME, "demo")
    taken = {r["at"] for r in s["units"].values() if r["at"]} | {e["hex"] for e in s["events"].values()}
    x = next(h for h in w.board.hexes() if h not in taken and w.terrain(h) == "open"
             and not any(n in taken for n in w.board.neighbours(h)))
    sniper_at = w.board.neighbours(x)[0]
    full = [f"us-hs-154-{n}" for n in range(1, 7)] + ["us-advisor-cole-1", "usmc-ldr-reyes-1"]
    for uid in full:
        s["units"][uid] = new_unit("us", uid.rsplit("-", 1)[0], x)
    s["units"]["sniper"]["at"] = sniper_at
    s.update(phase="operations", rally_done=["us", "vc"], rally_side="vc", player="vc", initiative="vc",
             impulse=None, decision=None, passes=0)
    r = client.post("/api/v1/games", json={"game": "lock-n-load", "scenario": "demo", "sandbox": {
        "state": s, "dice": [6, 6, 1, 8], "on_dice_exhausted": "derive"}})
    assert r.status_code == 201, r.get_json()
    p = Player(client, app, r.get_json())
    p.join_all()
    for action in ({"type": "activate", "hex": sniper_at}, {"type": "select", "unit": "sniper"}):
        assert p.play("vc", action)["status"] == "resolved"
    move = p.play("vc", {"type": "fire", "target": x})
    assert move["status"] == "resolved", move
    pick = next(d for d in move["dice"] if d["purpose"] == "LnL 11.4 the sniper's random target")
    assert pick["faces"] == 8 and pick["value"] == 8
    hit = [f for f in move["facts"] if f["kind"] != "fire" and f["data"].get("unit") in full]
    assert hit and {f["data"]["unit"] for f in hit} == {sorted(full)[7]}
