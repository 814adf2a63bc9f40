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
from warlog.i18n_terms import game_terms


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
    ("select II Corps (4-3-5)", "II Corps (4-3-5) を選択"),
    ("move to 1415 (tank battle)", "1415 へ移動(戦車戦)"),
    ("americans: Prepare for Play — place starting terrain and altitude cards, then ready",
     "アメリカ軍:プレイの準備 — 開始時の地形カードと高度カードを置き、準備完了にしてください"),
    ("0106 rice paddy", "0106(水田)"), ("Germany ends its movement", "ドイツ軍が移動を終了"),
    ("7. Panzer moves 1415 → Liège (1516) (2 MP, 3 left)", "7. Panzer が 1415 → Liège (1516) へ移動(2 MP、残り 3)"), ("Turn 1: US Rally Phase", "第 1 ターン:米軍の回復フェイズ"),
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
