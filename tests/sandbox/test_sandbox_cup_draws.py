"""A sandbox can force every draw the game makes. A blind draw from a cup rolls a die with as many
faces as the cup holds (rules/core/chits.py): Green Beret's enemy cup (3.6, 12.7), damage markers
(13.1) and missions (7.0), Vietnam Battles' support-fire pools (VB 14.1). A forced value k draws
the k-th chit of the cup as the state stores it; every chit of every cup can be forced, a value
above every roll of the game is refused when the sandbox is created, and one that does not fit the
roll it feeds (a cup smaller than the value) refuses that move with the die it needed."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.dice import DerivedDice, ForcedDieMismatch, ForcedThenDerived
from rules.core.chits import draw
from rules.core.dice import RecordingDice
from rules.green_beret_vietnam.game import GreenBeretVietnam
from rules.vietnam_battles.game import VietnamBattles
from rules.vietnam_battles.support import marker_ids
from tests.conftest import Player
from warlog.rulings.sandbox import dice_errors, example_state

GBV, VB = GreenBeretVietnam(), VietnamBattles()
DERIVED = DerivedDice(b"s" * 32, "cups", 1, "")


def _cups() -> list[tuple[Any, str, list[str], str]]:
    start = example_state(GBV, "campaign")
    out = [(GBV, "3.6/12.7 a draw from the enemy cup", start["enemy_pool"], "12.7 draw an enemy unit from the pool"),
           (GBV, "13.1 a damage marker draw", start["damage_pool"], "13.1 draw a damage marker"),
           (GBV, "7.0 a mission draw", start["mission_pool"], "7.0 draw a mission")]
    for side in ("us", "vc"):
        out.append((VB, f"VB 14.1 a {side.upper()} support fire draw", marker_ids(VB.world, side),
                    f"VB 14.1 {side.upper()} support fire draw"))
    return out


CUPS = _cups()


@pytest.mark.parametrize(("game", "roll", "pool", "purpose"), CUPS, ids=[c[1] for c in CUPS])
def test_every_chit_of_every_cup_can_be_forced(game, roll, pool, purpose) -> None:
    assert len(pool) > 10 or game is VB  # the cups outgrow the d10 (and VB's pools the d6)
    assert game.forcible_dice()[roll] >= len(pool)
    for k, chit in enumerate(pool, start=1):
        assert dice_errors(game, [k]) == [], (roll, k)
        dice = RecordingDice(ForcedThenDerived([k], 0, DERIVED, stop=True))
        got, rest = draw(pool, dice, purpose, secret=True)
        assert got == chit and chit not in rest and dice.rolls[0].faces == len(pool)


@pytest.mark.parametrize(("game", "roll", "pool", "purpose"), CUPS, ids=[c[1] for c in CUPS])
def test_a_value_the_cup_cannot_show_is_refused_by_the_roll_it_feeds(game, roll, pool, purpose) -> None:
    smaller = pool[1:]  # a chit already drawn: the next draw is a die one face smaller
    dice = RecordingDice(ForcedThenDerived([len(pool)], 0, DERIVED, stop=True))
    with pytest.raises(ForcedDieMismatch, match=f"forced die #0 is {len(pool)}, but this roll needs a d{len(smaller)}"):
        draw(smaller, dice, purpose, secret=True)


@pytest.mark.parametrize("game", [GBV, VB], ids=["green-beret-vietnam", "vietnam-battles"])
def test_a_value_above_every_roll_is_refused_naming_the_rolls(game) -> None:
    top = max(game.forcible_dice().values())
    errors = dice_errors(game, [top, top + 1])
    assert [e["path"] for e in errors] == ["/dice/1"]
    assert f"{top + 1} fits no roll" in errors[0]["message"] and f"1..{top}" in errors[0]["message"]


def _sandbox(client: Any, app: Any, dice: list[int]) -> Any:
    return client.post("/api/v1/games", json={"game": "green-beret-vietnam", "scenario": "campaign", "sandbox": {
        "state": example_state(GBV, "campaign"), "dice": dice, "on_dice_exhausted": "derive"}})


def test_the_api_forces_the_30th_mission_and_refuses_a_value_above_every_roll(client, app) -> None:
    """The first camp placed draws the first mission (7.0) from a cup of 30: each forced value
    through the API draws that mission; 35 (above the enemy cup of 34) is refused at creation with a
    422 naming the rolls."""
    pool = example_state(GBV, "campaign")["mission_pool"]
    assert len(pool) == 30
    for k in (11, 30):
        r = _sandbox(client, app, [k, 1])
        assert r.status_code == 201, r.get_json()
        p = Player(client, app, r.get_json())
        p.join_all()
        seat = p.info()["active_seats"][0]
        move = p.play(seat, {"type": "place_camp", "hex": "0106"})
        assert move["status"] == "resolved", move
        assert move["dice"][0] == {**move["dice"][0], "faces": 30, "value": k, "purpose": "7.0 draw a mission"}
        state = client.get(f"/api/v1/games/{p.id}/state", headers=p.auth("director")).get_json()["state"]
        assert state["mission"]["id"] == pool[k - 1] and pool[k - 1] not in state["mission_pool"]
    r = _sandbox(client, app, [35])
    assert r.status_code == 422
    body = r.get_json()
    assert body["errors"][0]["path"] == "/dice/0" and "35 fits no roll" in body["errors"][0]["message"]
    assert "enemy cup: 1..34" in body["errors"][0]["message"]
