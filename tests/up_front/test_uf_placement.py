"""Starting altitude cards at Prepare for Play, scenario by scenario, against the seed's words
(tests/fixtures/rulebooks/up-front-mountains.seed-excerpt.txt, sections 4 and 11).

UFM 4: either player may place altitude cards from hand on friendly or enemy groups at set-up,
unless a scenario's special rule (section 11) changes it. C and O only add the defender's duty
to put one on group B beside the Pillbox; L, S and W add the defender's draw-until procedure;
V adds the attacker's and starts every defender group at level 0. Each says 「特別ルールに他の
変更はない」, so UFM 4 stands for both players beside what it adds (rules version 3;
docs/games/up-front.md, "Starting altitude cards")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules.up_front.game import UpFrontMountainsV2
from tests.support.fuzzing import seeded_dice
from tests.up_front.uf_helpers import GAME, W, act, free, pull

SEED = (Path(__file__).parents[1] / "fixtures" / "rulebooks" / "up-front-mountains.seed-excerpt.txt").read_text(
    encoding="utf-8")
UFM4 = "プレーヤーは手札の中に高度カードがあるなら、敵、味方グループに、開始時の高度カードとして配置することができる"
NO_OTHER_CHANGE = "特別ルールに他の変更はない"


def scenario_text(sid: str) -> str:
    start = SEED.index(f"シナリオ{sid}(")
    nxt = SEED.find("\nシナリオ", start + 1)
    return SEED[start:nxt if nxt > 0 else len(SEED)]


def prepare(sid: str, seat: str, hill: bool = True) -> dict[str, Any]:
    """Scenario `sid` at Prepare for Play, `seat` to act holding a Hill (an altitude card)."""
    s = GAME.setup(sid, {"terrain_type": "bare", "condition": "dry", "mountain_troops": True}, seeded_dice(1))
    for r in s["roles"]:
        s["deck"]["discard"].extend(s["hands"][r])
        s["hands"][r] = []
    s["turn"] = seat
    if hill:
        s["hands"][seat].append(pull(s, free(s, "hill")))
    return s


def hill_targets(game: Any, s: dict[str, Any], seat: str) -> set[tuple[str, str]]:
    return {(a["side"], a["group"]) for a in game.legal_actions(s, seat)
            if a["type"] == "place" and W.cards[a["card"]].get("terrain") == "hill"}


def every_group(s: dict[str, Any]) -> set[tuple[str, str]]:
    return {(r, letter) for r in s["roles"] for letter in s["groups"][r]}


def test_the_seed_lets_either_player_place_on_friendly_or_enemy_groups():
    assert UFM4 in SEED
    for sid in "CLOSVW":
        assert NO_OTHER_CHANGE in scenario_text(sid), sid


@pytest.mark.parametrize("sid", ["C", "O"])
def test_c_and_o_the_attacker_holding_an_altitude_card_may_place_it(sid):
    text = scenario_text(sid)
    assert "防御側はBグループに" in text and "高度カードも置かなければならない" in text
    s = prepare(sid, "americans")
    assert hill_targets(GAME, s, "americans") == every_group(s) - {("germans", "B")}
    assert hill_targets(UpFrontMountainsV2(), s, "americans") == set()  # version 2's misreading, kept


@pytest.mark.parametrize("sid", ["C", "O"])
def test_c_and_o_the_defender_places_on_b_first_then_on_any_group(sid):
    s = prepare(sid, "germans")
    assert s["groups"]["germans"]["B"]["altitude"] is None
    assert hill_targets(GAME, s, "germans") == {("germans", "B")}
    hill = next(a for a in GAME.legal_actions(s, "germans") if a["type"] == "place" and a["group"] == "B"
                and W.cards[a["card"]].get("terrain") == "hill")
    s = act(s, "germans", hill).state
    s["hands"]["germans"].append(pull(s, free(s, "hill")))
    assert ("americans", "A") in hill_targets(GAME, s, "germans")
    assert hill_targets(UpFrontMountainsV2(), s, "germans") <= {("germans", "A")}


@pytest.mark.parametrize("sid", ["L", "W"])
def test_l_and_w_the_defender_draws_and_both_place_on_any_group(sid):
    text = scenario_text(sid)
    assert "防御側は自軍グループの" in text and "引くまで" in text
    s = prepare(sid, "americans")
    assert hill_targets(GAME, s, "americans") == every_group(s)
    s = prepare(sid, "germans")
    assert hill_targets(GAME, s, "germans") == every_group(s)
    assert {"type": "draw_altitude", "count": 1} in GAME.legal_actions(s, "germans")
    assert not [a for a in GAME.legal_actions(prepare(sid, "americans"), "americans") if a["type"] == "draw_altitude"]


def test_v_every_defender_group_starts_at_level_0_the_attacker_groups_take_either_players_cards():
    text = scenario_text("V")
    assert "全ての防御側グループは高度レベル0でゲームを始める" in text
    s = prepare("V", "americans")
    german = {("germans", letter) for letter in s["groups"]["germans"]}
    assert hill_targets(GAME, s, "americans") == german
    s = prepare("V", "germans")
    assert hill_targets(GAME, s, "germans") == german


@pytest.mark.parametrize("sid", ["A", "D", "F", "I", "J", "M", "P", "Q", "X"])
def test_a_scenario_without_a_placement_rule_keeps_ufm_4(sid):
    text = scenario_text(sid)
    assert "高度カード" not in text, sid
    first = W.scenarios[sid]["first"]
    s = prepare(sid, first)
    assert hill_targets(GAME, s, first) == every_group(s)
