"""The games' and scenarios' titles on a Japanese page are the Japanese rulebooks' own: UP FRONT's
scenarios by the titles of the appendix's Japanese translation (11, "シナリオA(パトロール隊の
遭遇)"; `scenarios.json` keeps each as `japanese`), Vietnam Battles' scenarios by the headings the
Japanese rulebook prints in Latin letters (25.0 THE BOYS OF '67, 26.0 SNOOPY'S NOSE, 27.0 THE IRON
TRIANGLE), and the four games whose Japanese rulebooks print their title in Latin letters keep it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rules import all_games
from warlog.catalogs import translate
from warlog.render import renderer_for

ROOT = Path(__file__).resolve().parents[2]
UF_SCENARIOS = json.loads((ROOT / "rules/up_front/data/scenarios.json").read_text(encoding="utf-8"))["scenarios"]
VB_SEED = (ROOT / "tests/fixtures/rulebooks/vietnam-battles.seed-excerpt.txt").read_text(encoding="utf-8")


def games() -> list:
    return [g for g in all_games() if type(g).__module__.startswith("rules.")]


def test_every_title_is_in_the_japanese_catalog() -> None:
    titles = {str(g.title) for g in games()} | {str(getattr(renderer_for(g.name), "title", g.title)) for g in games()}
    titles |= {str(sc.title) for g in games() for sc in g.scenarios().values()}
    with (ROOT / "warlog/translations/ja/LC_MESSAGES/messages.po").open("rb") as f:
        said = {m.id: m.string for m in read_po(f, locale="ja") if m.id and not m.fuzzy}
    assert not sorted(t for t in titles if not said.get(t))
    assert len(titles) > 25  # 21 UP FRONT scenarios, 3 Vietnam Battles', one of each other game, the games'


@pytest.mark.parametrize("scenario", UF_SCENARIOS if isinstance(UF_SCENARIOS, list) else list(UF_SCENARIOS.values()),
                         ids=lambda s: s["id"])
def test_up_front_scenarios_are_named_as_the_japanese_appendix_names_them(scenario: dict) -> None:
    """UFM 11: "シナリオA(パトロール隊の遭遇)" — the letter's title as the translation prints it."""
    assert translate("ja", scenario["title"]) == scenario["japanese"] + "(山岳)"


@pytest.mark.parametrize(("title", "heading"), [
    ("The Boys of '67 (practice scenario, 15 May 1967)", "25.0 THE BOYS OF '67 (練習シナリオ)"),
    ("Snoopy's Nose (May-September 1967)", "26.0 SNOOPY'S NOSE"),
    ("The Iron Triangle (January-February 1967)", "27.0 THE IRON TRIANGLE"),
])
def test_vietnam_battles_scenarios_keep_the_rulebooks_headings(title: str, heading: str) -> None:
    assert heading in VB_SEED  # the Japanese rulebook's own heading (VB 25.0–27.0)
    said = translate("ja", title)
    name = heading.split(" ", 1)[1].split(" (")[0]
    assert said.upper().startswith(name) and said != title, said


@pytest.mark.parametrize(("game", "japanese"), [
    ("assault-on-belgium", "Assault on Belgium"), ("green-beret-vietnam", "Green Beret: Vietnam"),
    ("vietnam-battles", "Vietnam Battles: Iron Triangle & Snoopy's Nose"),
    ("lock-n-load", "Lock 'n Load: Forgotten Heroes Vietnam (デモ)"),
])
def test_a_title_the_japanese_rulebook_prints_in_latin_letters_stays(game: str, japanese: str) -> None:
    assert translate("ja", next(g.title for g in games() if g.name == game)) == japanese


def test_up_front_names_the_appendix_by_its_japanese_title() -> None:
    """The appendix is 「付録F 山岳戦線」 in its translation (tests/up_front/fixtures/mountains_excerpts.md)."""
    said = translate("ja", next(g.title for g in games() if g.name == "up-front"))
    assert "付録F「山岳戦線」" in said and "UP FRONT" in said and "mountains" not in said
