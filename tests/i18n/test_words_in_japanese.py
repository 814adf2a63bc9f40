"""The action labels in words (warlog.render.words) on a Japanese page: every label random legal
play of each of the five games offers is translated by the catalog's phrase shapes (the
counters' and cards' own names are kept), and a squad reads as the rulebook's 分隊."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from rules import get_game
from tests.i18n.test_facts_in_japanese import english_left, own_words
from tests.players.conftest import close_app, make_app
from tests.support.fuzzing import random_play, seeded_dice
from warlog.i18n import tr
from warlog.render.words import action_text


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    app = make_app(f"sqlite:///{tmp_path_factory.mktemp('words')}/warlog.sqlite3", WARLOG_PERIODIC=False)
    yield app
    close_app(app)


def ja(app: Flask, text: str) -> str:
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        return tr(text)


def labels(game: str, scenario: str, options: dict[str, Any], steps: int, seed: int) -> set[str]:
    g = get_game(game)
    rng, dice = random.Random(seed), seeded_dice(seed)
    found: set[str] = set()
    for _s, _seat, legal in random_play(g, g.setup(scenario, options, dice), dice, steps,
                                         lambda s, legal: rng.choice(legal)):
        found.update(action_text(g, a) for a in legal)
    return found


@pytest.mark.parametrize(("game", "scenario", "options"), [
    ("lock-n-load", "demo", {}),
    ("up-front", "A", {"terrain_type": "bare", "condition": "dry"}),
    ("up-front", "H", {}), ("up-front", "T", {}),  # rules version 4's vehicles and guns
    ("green-beret-vietnam", "campaign", {}),
    ("vietnam-battles", "boys67", {}),
    ("assault-on-belgium", "may-1940", {}),
])
def test_every_offered_label_is_translated(app: Flask, game: str, scenario: str, options: dict[str, Any]) -> None:
    seen = labels(game, scenario, options, 150, 5)
    assert len(seen) > 20
    names = own_words(get_game(game))  # a label translated only in part is English left too
    left = sorted(f"{t} → {ja(app, t)}" for t in seen if ja(app, t) == t or english_left(ja(app, t), names))
    assert not left, left[:20]


@pytest.mark.parametrize(("english", "japanese"), [
    ("Give the M-60 of US 7th squad to US 6th squad", "US 第7分隊 の M-60 を US 第6分隊 に渡す"),
    ("Select VC 1st half squad B", "VC 第1半個分隊 B を選択"),
    ("Standing order for 1D4: fire at enemies moving within 2 hexes", "1D4 の常備命令:2 ヘクス以内で移動する敵を射撃"),
    ("Group C fires at enemy group B with Fire 3 (black 4)", "グループ C が 射撃3(黒4) で敵グループ B を射撃"),
    ("Group C fires its ordnance at enemy group A with Fire 3 (black 4)",
     "グループ C が 射撃3(黒4) で敵グループ A を砲撃"),
    ("Standing answer when a group of mine is fired at: play Concealment if the group has at most 2 men",
     "常備回答(自分のグループが射撃されたとき):グループが 2 人以下なら隠蔽をプレイ"),
    ("VC moved a hidden unit", "VC が隠匿ユニットを移動しました"),
])
def test_labels_in_the_rulebooks_words(app: Flask, english: str, japanese: str) -> None:
    assert ja(app, english) == japanese


@pytest.mark.parametrize(("game", "text", "japanese"), [
    ("lock-n-load", "us7 hands M-60 (us-m60b) to us6", "US 第7分隊 が M-60 を US 第6分隊 に渡す"),
    ("lock-n-load", "US gives a standing order to 1A5: at:1B8", "米軍 が 1A5 に常備命令を与える:1B8 へ移動する敵を射撃"),
    ("up-front", "americans ends the turn; germans's turn 2", "アメリカ軍 がターンを終了。ドイツ軍 のターン 2"),
    ("up-front", "americans draws Movement [UF051, red 6], Fire 3 [UF030, red 6]",
     "アメリカ軍 が 移動(赤6)、射撃3(赤6) を引く"),
    ("up-front", "germans group C fires its infantry gun at americans group A: miss",
     "ドイツ軍 のグループ C の歩兵砲が アメリカ軍 のグループ A を砲撃:miss"),
])
def test_facts_in_words_in_japanese(app: Flask, game: str, text: str, japanese: str) -> None:
    """A recorded fact (its stored text unchanged) in words, then in the rulebook's Japanese."""
    from warlog.render.words import fact_text

    assert ja(app, fact_text(get_game(game), {"text": text})) == japanese


@pytest.mark.parametrize(("english", "japanese"), [
    ("Germans: concealment reaction", "ドイツ軍:隠蔽への反応"),
    ("americans: terrain reaction", "アメリカ軍:地形への反応"),
    ("Reaction: germans answers a concealment window (men 4, strength 6, target A)",
     "反応:ドイツ軍が隠蔽の機会に答える(兵数 4、攻撃力 6、目標 A)"),
    ("Reaction: americans answers a mine altitude window (group B, level 2)",
     "反応:アメリカ軍が地雷原と高度変更の機会に答える(グループ B、レベル 2)"),
])
def test_an_open_reaction_window_is_in_japanese(app: Flask, english: str, japanese: str) -> None:
    """UP FRONT's open reaction window (UF C.5, CORE 5.3, UFM 5.1.j) as the phase line and the
    card table print it: its seat, its kind and its context's fields in Japanese."""
    assert ja(app, english) == japanese
