"""Every counter kind of Lock 'n Load's published mix (rules/lock_n_load/data/counters.json) is
placeable in a sandbox of the demo and plays: a judge brings one as `<kind>-<n>` for its
nationality's side (US Marines, NVA, ARVN, the leaders, the sniper, the medic and the chaplain),
the state schema and the position checks accept it, and each kind that fires (an SMC with a
support weapon: 1.6.1) resolves a fire."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rules import get_game
from rules.lock_n_load.events import new_unit
from rules.lock_n_load.game import LockNLoad
from tests.lock_n_load.helpers import blank_state, tiny
from tests.support.fuzzing import seeded_dice
from warlog.rulings.sandbox import example_state, position_errors

COUNTERS = json.loads((Path(__file__).parents[2] / "rules" / "lock_n_load" / "data" / "counters.json")
                      .read_text(encoding="utf-8"))["kinds"]
GAME = get_game("lock-n-load")
SIDE = {n: d["side"] for n, d in json.loads(
    (Path(__file__).parents[2] / "rules" / "lock_n_load" / "data" / "counters.json").read_text(encoding="utf-8")
)["nations"].items()}
NO_FIRE = ("medic", "chaplain")  # firepower 0, range 0 in the data: they never fire


def _with(kind: str, n: int = 1, side: str | None = None) -> dict[str, Any]:
    state = example_state(GAME, "demo")
    state["units"][f"{kind}-{n}"] = new_unit(side or SIDE[COUNTERS[kind]["nationality"]], kind, None)
    return state


@pytest.mark.parametrize("kind", sorted(COUNTERS))
def test_every_counter_kind_is_placeable_in_a_demo_sandbox(kind: str) -> None:
    assert position_errors(GAME, "demo", _with(kind)) == []


def test_a_counter_for_the_wrong_side_or_under_another_kinds_name_is_refused() -> None:
    errors = position_errors(GAME, "demo", _with("nva-sq-254", side="us"))
    assert errors and errors[0]["path"] == "/units/nva-sq-254-1/side" and "fights for vc" in errors[0]["message"]
    state = _with("usmc-sq-364")
    state["units"]["usmc-sq-364-1"]["kind"] = "usmc-sq-264"
    errors = position_errors(GAME, "demo", state)
    assert errors and errors[0]["path"] == "/units/usmc-sq-364-1/kind"


def test_a_sandbox_holding_every_counter_kind_is_created_through_the_api(client) -> None:
    state = example_state(GAME, "demo")
    for kind in sorted(COUNTERS):
        state["units"][f"{kind}-1"] = new_unit(SIDE[COUNTERS[kind]["nationality"]], kind, None)
    state["sws"]["law-x1"] = {"kind": "law", "side": "us", "holder": None, "at": "1A1"}
    state["sws"]["m2-flame-x1"] = {"kind": "m2-flame", "side": "us", "holder": None, "at": "1A1"}
    r = client.post("/api/v1/games", json={"game": "lock-n-load", "scenario": "demo", "sandbox": {"state": state}})
    assert r.status_code == 201, r.get_json()


@pytest.mark.parametrize("kind", sorted(k for k, c in COUNTERS.items() if c["class"] not in NO_FIRE))
def test_each_counter_kind_that_fires_resolves_a_fire(kind: str) -> None:
    w = tiny(["o"] * 8)
    g = LockNLoad(w)
    side = SIDE[COUNTERS[kind]["nationality"]]
    foe = "vc" if side == "us" else "us"
    smc = COUNTERS[kind]["class"] not in ("squad", "half", "sniper")
    s = blank_state(w, {"me": (side, kind, "9A1"), "them": (foe, "vc-sq-143" if foe == "vc" else "us-sq-264", "9A3")},
                    {"sw": ("m60" if side == "us" else "rpd", "me")} if smc else None,
                    version="3", player=side, initiative=side)
    dice = seeded_dice(3)
    s = g.apply(s, side, {"type": "activate", "hex": "9A1"}, dice).state
    s = g.apply(s, side, {"type": "select", "unit": "me"}, dice).state
    out = g.apply(copy.deepcopy(s), side, {"type": "fire", "target": "9A3"}, dice)
    fire = next(f for f in out.facts if f.kind == "fire")
    assert fire.data["firers"] == ["me"] and fire.text.startswith("Fire from 9A1 at 9A3")


def test_a_half_squad_split_off_a_split_half_squad_is_a_unit_of_the_scenario() -> None:
    """3.0: a squad splits into two half squads (`us6` and `us6-2`), two GO half squads combine into
    their squad (which keeps the id of the one that combines: `us6-2`), and that squad splits again
    (`us6-2-2`); play reaches it (the version 4 golden game does), so a sandbox accepts it."""
    state = example_state(GAME, "demo")
    state["units"]["us6-2-2"] = new_unit("us", "us-hs-154", None)
    assert position_errors(GAME, "demo", state) == []
    state["units"]["us9-2-2"] = new_unit("us", "us-hs-154", None)  # no us9 in the demo
    assert [e["path"] for e in position_errors(GAME, "demo", state)] == ["/units/us9-2-2"]
