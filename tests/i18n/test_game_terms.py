"""The games' own words on a Japanese page: the fixed strings (seats, phases, action groups)
come from the catalog, built phrases by their shapes with each part translated; rule sections
and ids are kept as they are; an English page is never touched."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from tests.players.conftest import close_app, make_app
from warlog.i18n import tr
from warlog.i18n_extract import game_terms


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    app = make_app(f"sqlite:///{tmp_path_factory.mktemp('terms')}/warlog.sqlite3", WARLOG_PERIODIC=False)
    yield app
    close_app(app)


def ja(app: Flask, text: str) -> str:
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        return tr(text)


@pytest.mark.parametrize(("english", "japanese"), [
    ("Germany", "ドイツ軍"), ("VC", "ベトコン"), ("Mechanized Movement Phase", "機動移動フェイズ"),
    ("Commit support fire", "支援火力を投入"), ("Helicopter lift (slick)", "ヘリ輸送(スリック)"),
    ("Opportunity fire at", "臨機射撃の目標"), ("Place the altitude card", "高度カードを置く"),
    ("Turn 3: Friendly Movement Phase", "第 3 ターン:味方移動フェイズ"),
    ("Turn 2: US Mechanized Combat Phase", "第 2 ターン:米軍の機動戦闘フェイズ"),
    ("Germany takes its seat and adds entropy to the dice", "ドイツ軍が席に着き、ダイスにエントロピーを加える"),
    ("waiting for Belgium", "ベルギー軍を待っています"),
    ("select II Corps (4-3-5)", "第II軍団(4-3-5) を選択"),
    ("move to 1415 (tank battle)", "1415 へ移動(戦車戦)"),
    ("americans: Prepare for Play — place starting terrain and altitude cards, then ready",
     "アメリカ軍:プレイの準備 — 開始時の地形カードと高度カードを置き、準備完了にしてください"),
    ("0106 rice paddy", "0106(水田)"), ("Germany ends its movement", "ドイツ軍が移動を終了"),
    ("7. Panzer moves 1415 → Liège (1516) (2 MP, 3 left)", "7. Panzer が 1415 → Liège (1516) へ移動(2 MP、残り 3)"), ("Turn 1: US Rally Phase", "第 1 ターン:米軍の回復フェイズ"),
    # the words the boards draw in their SVG (warlog.i18n_boards, through tr_svg)
    ("TURN 1 OF 4 · US Mechanized Combat Phase", "第 1 / 4 ターン · 米軍 機動戦闘フェイズ"),
    ("Slicks 3/7 · Tangos 1/3", "スリック 3/7 ・ タンゴ 1/3"),
    ("Draw pile 127 cards · deck pass 1 of 2 · discards 6 (top: Fire 5) · bare mountains, dry",
     "山札 127 枚 ・ デッキ 1 巡目/2 ・ 捨て札 6 枚(一番上:射撃5) ・ 岩肌の山岳、乾燥"),
    ("GE01 leader ok", "GE01 指揮官・健在"), ("Rally 2", "回復2"), ("Germans A", "ドイツ軍 グループ A"),
    ("Germans D", "ドイツ軍 グループ D"),
    # a Vietnam Battles hex on one bank of its river, and Green Beret's compass directions
    ("C.213 ends its move in 0128:north", "C.213 は 0128(北岸) で移動を終了"), ("0927:south", "0927(南岸)"),
    ("SE, 2 hexes", "南東 ↘、2 ヘクス"),  # a fourth group (UP FRONT's appendix scenarios)
    # UF C.2: any card may serve as Open Ground, on an altitude card too
    ("Group A ends its move on the altitude card Hill (red 5) with Brush (black 5) played as Open Ground",
     "グループ A が 藪(黒5) を開豁地として高度カード 丘(赤5) の上に移動を終える"),
    ("Group A ends its move on the altitude card Hill (red 5) with Brush (black 5)",
     "グループ A が 藪(黒5) で高度カード 丘(赤5) の上に移動を終える"),
    ("needs Intel + M21 or SVD or Demo", "必要:情報+M21 または SVD または 爆薬"),
    ("Demo, Radio, M1919", "爆薬、無線機、M1919"),  # a list ending in a designation (GBV 7.0's Mission Table)
    ("Court-martial, net 0", "軍法会議、差し引き 0"), ("Step 26 of 28", "ステップ 26 / 28"),
    ("I Corps (4th & 7th Infantry Divisions) (4-3-5)", "第I軍団(第4・第7歩兵師団)(4-3-5)"),
    # Lock 'n Load's line-of-sight report (LnL 10.3)
    ("degraded by 1 hex (DRM +1, T5)", "1 ヘクスで妨害(DRM +1、T5)"),
    ("dense jungle (blocking) on the same level as both ends", "密林(遮断)が両端と同じレベル"),
])
def test_game_words_in_the_rulebooks_japanese(app: Flask, english: str, japanese: str) -> None:
    assert ja(app, english) == japanese


def test_a_strict_shape_does_not_half_translate(app: Flask) -> None:
    """"Turn 4: <a phrase the catalog lacks>" stays whole English rather than half Japanese."""
    assert ja(app, "Turn 4: Something no catalog names") == "Turn 4: Something no catalog names"
    assert ja(app, "alpha, beta") == "alpha, beta"


def test_an_english_page_is_never_translated(app: Flask) -> None:
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert tr("Germany") == "Germany" and tr("Turn 3: Friendly Movement Phase") == "Turn 3: Friendly Movement Phase"


def test_every_renderers_fixed_words_are_listed_for_the_catalog() -> None:
    terms = game_terms()
    assert {"Germany", "Belgium", "US", "VC", "Select units", "Commit support fire", "Standing answer",
            "Mission Placement Phase", "German land movement", "Select a unit"} <= set(terms)
    assert len(terms) == len(set(terms))


def test_the_catalog_path_is_in_the_repository() -> None:
    from warlog.catalogs import CATALOGS

    assert Path(__file__).resolve().parents[2] in CATALOGS.resolve().parents


def test_a_translation_that_lost_its_placeholder_falls_back_to_english_not_an_error() -> None:
    from warlog.i18n_terms import shaped

    broken = {"Turn %(n)s: %(what)s": "第 %(turn)s ターン:%(what)s", "Movement Phase": "移動フェイズ"}
    assert shaped("Turn 3: Movement Phase", lambda s: broken.get(s, s)) is None


def test_a_prompt_written_in_lower_case_finds_its_capitalised_entry(app: Flask) -> None:
    """The service's prompts start in lower case ("the game waits for every seat to join"); the
    catalog holds them as the page shows them, capitalised."""
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        assert tr("the game waits for every seat to join") == tr("The game waits for every seat to join")
        assert tr("the game waits for every seat to join") != "the game waits for every seat to join"


def test_every_mission_and_what_it_needs_reads_in_japanese(app: Flask) -> None:
    """GBV 7.0, 6.1: each mission of the Mission Table, drawn and placed, and what it needs, read
    in Japanese, the Table's "*Night Scope" (the rulebook's error for Night Vision) and a list
    ending in a designation ("Demo, Radio, M1919") included: only designations stay in Latin letters."""
    from rules.green_beret_vietnam.missions import band
    from tests.browser.japanese import findings, words_of
    from warlog.render.green_beret_vietnam.board import world
    from warlog.render.green_beret_vietnam.status import requirement

    w = world()
    lines = []
    for m in w.missions.values():
        req = m.printed if m.requires else "nothing"
        for die in (1, 3, 5):
            h = m.hex_for(die)
            lines.append(f"Mission drawn: {m.name} ({m.pp} PP; needs {req}). Rolled {die} on d6 ({band(die)}): "
                         f"placed in {w.title(h)}")
        lines.append("needs " + requirement(w, m.requires))
        lines.append(f"Mission: {m.name} in {m.hex_for(1)}, {m.pp} PP; needs {m.printed} (7.0, 6.1)")  # its hover title
    said = [ja(app, line) for line in lines]
    places = {word for line in lines for word in words_of(line.split("placed in ")[-1])}  # as the map prints them
    assert not findings([["fact", s] for s in said], places)
    assert ja(app, "Mission drawn: Gather Intel (8 PP; needs *Night Scope). Rolled 4 on d6 (3-4): placed in 1228") \
        == "任務を引く:情報収集(8 PP。必要:*ナイトスコープ(暗視装置の誤記))。d6 で 4(3-4):1228 に配置"
